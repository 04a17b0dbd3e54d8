/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * common.c - what the commands share.
 */
#include "cmd.h"
#include "opts.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/result.h"
#include "../core/suggest.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t nb_cmd_stop;

static void on_signal(int sig)
{
	static const char msg[] = "\nnasbench: stopping after the current I/O; "
				  "interrupt again to abort at once\n";
	(void)sig;
	if (nb_cmd_stop)   /* a second interrupt: the user will not wait */
		_exit(NB_EXIT_INTR);
	nb_cmd_stop = 1;
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
}

void nb_cmd_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int nb_cmd_usage(const char *fmt, ...)
{
	char msg[4400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	nb_die_msg("%s", msg);
	return NB_EXIT_USAGE;
}

int nb_cmd_write_error(int rc)
{
	nb_die_msg("%s", nb_err_last());
	return rc == -EEXIST ? NB_EXIT_USAGE : NB_EXIT_TARGET;
}

int nb_cmd_rescue(const char *what, const char *name, const char *suffix,
		  const void *data, size_t len, char *where, size_t wlen)
{
	char why[4400];

	snprintf(why, sizeof(why), "%s", nb_err_last());
	if (!nb_atomic_rescue(name, suffix, data, len, where, wlen)) {
		nb_die_msg("%s; the %s is saved in '%s' instead", why, what, where);
		return 0;
	}
	nb_die_msg("%s; %s: the %s follows on standard error", why,
		   nb_err_last(), what);
	fflush(stderr);
	(void)!fwrite(data, 1, len, stderr);
	fflush(stderr);
	return -EIO;
}

int nb_cmd_put_result(struct nb_cmd_put *put)
{
	char *s = nb_result_dump(put->doc), *t;
	size_t len;
	int rc = 0;

	put->where[0] = '\0';
	put->why[0] = '\0';
	put->text = s;
	if (!s)
		rc = nb_err(-ENOMEM, "out of memory");
	if (!rc && put->path && !(rc = nb_result_write(put->doc, put->path)))
		snprintf(put->where, sizeof(put->where), "%s", put->path);
	if (s && put->json && (fputs(s, stdout) == EOF || putchar('\n') == EOF ||
			       fflush(stdout)) && !rc)
		rc = nb_err(-EIO, "unable to write 'standard output': %s",
			    strerror(errno));
	if (s && (t = realloc(s, (len = strlen(s)) + 2))) {
		t[len] = '\n';             /* as the file ends */
		t[len + 1] = '\0';
		put->text = t;
	}
	put->failed = rc != 0;
	if (rc)
		snprintf(put->why, sizeof(put->why), "%s", nb_err_last());
	return rc ? -EIO : 0;
}

int nb_cmd_put_finish(struct nb_cmd_put *put)
{
	char name[128];
	int rc = 0;

	if (put->failed && put->where[0]) {
		/* standard output failed, the file holds it */
		nb_die_msg("%s; the result is in '%s'", put->why, put->where);
		rc = -EIO;
	} else if (put->failed && put->text) {
		snprintf(name, sizeof(name), "nasbench-%s", nb_jstr(put->doc, "run_id"));
		nb_err_set("%s", put->why);
		nb_cmd_rescue("result", name, ".json", put->text, strlen(put->text),
			      put->where, sizeof(put->where));
		rc = -EIO;
	} else if (put->failed) {
		nb_die_msg("%s", put->why);
		rc = -EIO;
	}
	free(put->text);
	put->text = NULL;
	return rc;
}

json_t **nb_cmd_load_results(char *const *paths, size_t n)
{
	json_t **docs = calloc(n ? n : 1, sizeof(*docs));

	if (!docs) {
		nb_die_msg("out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (nb_result_load(paths[i], &docs[i])) {
			nb_die_msg("%s", nb_err_last());
			nb_cmd_free_results(docs, i);
			return NULL;
		}
	return docs;
}

void nb_cmd_free_results(json_t **docs, size_t n)
{
	for (size_t i = 0; docs && i < n; i++)
		json_decref(docs[i]);
	free(docs);
}

int nb_cmd_print_json(json_t *doc)
{
	int rc = !doc || json_dumpf(doc, stdout, JSON_INDENT(2) |
				    JSON_PRESERVE_ORDER) ||
		 putchar('\n') == EOF || fflush(stdout);

	if (rc)
		nb_die_msg("cannot write the JSON to standard output");
	json_decref(doc);
	return rc ? NB_EXIT_TARGET : NB_EXIT_OK;
}

int nb_cmd_unknown_in(const char *what, const char *help, const char *name,
		      const char *const *cands, size_t n)
{
	const char *near = nb_suggest(name, cands, n);

	if (near)
		nb_die_msg("'%s' is not %s; did you mean '%s'?", name, what, near);
	else
		nb_die_msg("'%s' is not %s; see 'nasbench help%s%s'", name, what,
			   *help ? " " : "", help);
	return NB_EXIT_USAGE;
}

void nb_cmd_print_usage(const struct nb_command *c, FILE *out)
{
	fputs(c->usage->head, out);
	if (c->usage->opts)
		nb_opts_usage(out, c->usage->opts, c->usage->n);
	if (c->usage->tail)
		fputs(c->usage->tail, out);
}
