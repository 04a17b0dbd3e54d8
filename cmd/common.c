/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * common.c - what the commands share.
 */
#include "cmd.h"
#include "opts.h"
#include "../core/err.h"
#include "../core/result.h"
#include "../core/suggest.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

int nb_cmd_write_error(void)
{
	nb_die_msg("%s", nb_err_last());
	return NB_EXIT_TARGET;
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
