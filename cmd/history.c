/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * history.c - 'nasbench history': results kept in SQLite, for gates that
 * need the past ('compare --baseline history') and trends.
 */
#include "cmd.h"
#include "opts.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/escape.h"
#include "../core/outdir.h"
#include "../core/result.h"
#include "../history/history.h"
#include "../formats/import.h"
#include "../formats/text.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opts {
	char *labels[64];
	int nlabels, json, last;
	const char *since, *output, *db;
};

enum { O_LABEL = 'l', O_LAST = 'L' };

static const struct nb_opt history_opts[] = {
	{ "label", 'l', "K=V", O_LABEL, "only runs with this label (repeatable)" },
	{ "since", 0, "DATE", NB_OPT_AT(struct opts, since), "only runs started at "
	  "or after DATE (2026-11-01)" },
	{ "last", 0, "N", O_LAST, "list: the newest N; trend: the band's runs (5)" },
	{ "json", 0, NULL, NB_OPT_AT(struct opts, json), "list as JSON" },
	{ "output", 'o', "X", NB_OPT_AT(struct opts, output), "show: the result "
	  "file; trend: the directory" },
	{ "db", 0, "FILE", NB_OPT_AT(struct opts, db), "the database" },
};

const struct nb_usage cmd_history_usage = {
	.head = "usage: nasbench history add FILE...          record results ('-': stdin)\n"
		"       nasbench history list [--label K=V]... [--since DATE] [--json]\n"
		"       nasbench history show RUN [-o FILE]    a run's figures; -o writes\n"
		"                                              its result ('-': stdout)\n"
		"       nasbench history rm RUN\n"
		"       nasbench history trend [--label K=V]... [--since DATE] [--last N]\n"
		"                              -o DIR\n"
		"\n"
		"Results are kept in an SQLite database: $NASBENCH_DB, else\n"
		"~/.local/share/nasbench/history.db (--db FILE for one command), created\n"
		"on first use.  'nasbench run --history' (or [box] history = yes) records\n"
		"each run; 'nasbench compare --baseline history NEW' gates NEW against\n"
		"the median of the last runs with its labels and settings.  RUN is the\n"
		"number 'history list' shows or a run id.  'trend' draws each workload's\n"
		"primary metric over the runs with the baseline band (gnuplot), in\n"
		"DIR/trend.html; DIR must be new, empty or a previous trend (its marker\n"
		"DIR/.nasbench lists every file in it).  -o FILE of 'show' replaces only\n"
		"a nasbench result.\n"
		"\n",
	.opts = history_opts, .n = NB_OPTS_N(history_opts),
	.tail = "\n"
		"Exit status: 0 ok, 2 usage error, a file that is not a nasbench\n"
		"history (never written to), an unknown run, an -o that names what\n"
		"nasbench did not write (never replaced); 3 the database or the output\n"
		"cannot be written.\n",
};

static int on_option(int id, const struct nb_knob *k, char *arg, void *payload)
{
	struct opts *o = payload;

	(void)k;
	if (id == O_LABEL)
		return nb_opts_label_filter(arg, o->labels, &o->nlabels, 64);
	return nb_opts_last(arg, 100000, &o->last);
}

/* -EINVAL (not a history, unknown run): 2; else 3. */
static int fail(int rc)
{
	nb_die_msg("%s", nb_err_last());
	return rc == -EINVAL || rc == -ENOENT || rc == -EEXIST ? NB_EXIT_USAGE :
	       NB_EXIT_TARGET;
}

/* fio JSON or bonnie++ CSV as a result (as 'nasbench import' makes one),
 * its run id from the file's bytes, so the same file is recorded once. */
static int import_raw(const char *path, json_t **out)
{
	uint64_t fnv = 1469598103934665603ULL;
	char id[64], cmdline[4200];
	FILE *f = fopen(path, "rb");
	json_t *doc;
	int c;

	*out = NULL;
	if (!f)
		return nb_err(-errno, "cannot read '%s': %s", path, strerror(errno));
	while ((c = getc(f)) != EOF)
		fnv = (fnv ^ (uint64_t)(unsigned char)c) * 1099511628211ULL;
	fclose(f);
	snprintf(id, sizeof(id), "import-%016llx", (unsigned long long)fnv);
	snprintf(cmdline, sizeof(cmdline), "nasbench history add %s", path);
	doc = nb_result_new(id, cmdline);
	if (nb_import_file(doc, path, NULL)) {
		json_decref(doc);
		return -EINVAL;
	}
	json_object_del(doc, "imported");
	json_object_set_new(doc, "imported_from", json_pack("[o]", nb_json_text(path)));
	nb_result_finish(doc, 1);
	*out = doc;
	return 0;
}

static int do_add(struct nb_history *h, int argc, char **argv)
{
	int status = NB_EXIT_OK, stdin_used = 0;

	for (int i = optind; i < argc; i++) {
		const char *src = strcmp(argv[i], "-") ? argv[i] : "standard input";
		long long id;
		json_t *doc;
		int rc;

		if (!strcmp(argv[i], "-") && stdin_used++)
			return nb_cmd_usage("standard input ('-') can be read once");
		/* a result of the wrong shape is said so, not read as fio's */
		if (nb_result_load(argv[i], &doc) &&
		    (!strcmp(argv[i], "-") || strstr(nb_err_last(), "' is not a "
						     "nasbench result: ") ||
		     import_raw(argv[i], &doc))) {
			nb_die_msg("%s", nb_err_last());
			status = NB_EXIT_USAGE;
			continue;
		}
		rc = nb_history_add(h, doc, src, &id);
		if (rc < 0) {
			json_decref(doc);
			return fail(rc);
		}
		printf(rc ? "history: %s is run %lld already (%s)\n" :
		       "history: %s recorded as run %lld (%s)\n", NB_TERM(src), id,
		       NB_TERM(nb_jstr(doc, "run_id")));
		json_decref(doc);
	}
	return status;
}

static void labels_text(char *buf, size_t len, const json_t *labels)
{
	const char *k;
	json_t *v;
	size_t n = 0;

	buf[0] = '\0';
	json_object_foreach((json_t *)labels, k, v)
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? " " : "",
					      NB_TERM(k), NB_TERM(json_string_value(v) ?: ""));
}

static int do_list(struct nb_history *h, const struct opts *o)
{
	struct nb_history_filter f = { .labels = o->labels, .nlabels = o->nlabels,
				       .since = o->since, .last = o->last };
	json_t *runs, *r;
	size_t i;
	int rc = nb_history_list(h, &f, &runs);

	if (rc)
		return fail(rc);
	if (o->json) {
		json_dumpf(runs, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
	} else {
		printf("%5s  %-20s  %-12s  %-9s  %s\n", "run", "started", "host",
		       "workloads", "labels");
		json_array_foreach(runs, i, r) {
			char lab[1024];

			labels_text(lab, sizeof(lab), json_object_get(r, "labels"));
			printf("%5lld  %-20s  %-12s  %9zu  %s\n",
			       (long long)json_integer_value(json_object_get(r, "id")),
			       NB_TERM(nb_jstr(r, "started")), NB_TERM(nb_jstr(r, "host")),
			       json_array_size(json_object_get(r, "workloads")), lab);
		}
		printf("%zu run%s in %s\n", json_array_size(runs),
		       json_array_size(runs) == 1 ? "" : "s", NB_TERM(nb_history_file(h)));
	}
	json_decref(runs);
	return NB_EXIT_OK;
}

static int do_show(struct nb_history *h, const struct opts *o, const char *run)
{
	long long id;
	json_t *doc;
	int rc = nb_history_get(h, run, &doc, &id);
	char lab[1024];

	if (rc)
		return fail(rc);
	if (o->output && strcmp(o->output, "-")) {
		rc = nb_result_write(doc, o->output);
		json_decref(doc);
		return rc ? fail(rc) : NB_EXIT_OK;
	}
	if (o->output) {
		char *s = nb_result_dump(doc);

		if (s)
			puts(s);
		free(s);
		json_decref(doc);
		return NB_EXIT_OK;
	}
	labels_text(lab, sizeof(lab), json_object_get(doc, "labels"));
	printf("run %lld: %s, started %s, nasbench %s\nlabels: %s\n\n", id,
	       NB_TERM(nb_jstr(doc, "run_id")), NB_TERM(nb_jstr(doc, "started")),
	       NB_TERM(nb_jstr(doc, "version")), *lab ? lab : "(none)");
	nb_text_result(stdout, doc);
	json_decref(doc);
	return NB_EXIT_OK;
}

int cmd_history(int argc, char **argv)
{
	struct opts o = { 0 };
	struct nb_history *h;
	const char *sub;
	int rc;
	static const char *const subs[] = { "add", "list", "show", "rm", "trend" };

	if (argc < 2)
		return nb_cmd_usage("history: expected add, list, show, rm or trend; "
				    "see 'nasbench help history'");
	sub = argv[1];
	if (nb_opts_parse("history", argc - 1, argv + 1, history_opts,
			  NB_OPTS_N(history_opts), on_option, &o))
		return nb_cmd_usage("%s", nb_err_last());
	optind++;                /* past the subcommand */
	if (strcmp(sub, "add") && strcmp(sub, "list") && strcmp(sub, "show") &&
	    strcmp(sub, "rm") && strcmp(sub, "trend"))
		return nb_cmd_unknown_in("a history command", "history", sub, subs, 5);
	if (!strcmp(sub, "add") && optind >= argc)
		return nb_cmd_usage("history add: no result files");
	if ((!strcmp(sub, "show") || !strcmp(sub, "rm")) && argc - optind != 1)
		return nb_cmd_usage("history %s: expected one RUN (see 'nasbench "
				    "history list')", sub);
	if ((!strcmp(sub, "list") || !strcmp(sub, "trend")) && optind < argc)
		return nb_cmd_usage("history %s: unexpected argument '%s'", sub,
				    argv[optind]);
	if (!strcmp(sub, "trend") && !o.output)
		return nb_cmd_usage("history trend: -o DIR is required");
	if (o.output && !strcmp(sub, "show") && strcmp(o.output, "-") &&
	    (rc = nb_atomic_check(o.output, &nb_result_out)))
		return nb_cmd_write_error(rc);
	if (!strcmp(sub, "trend") && (rc = nb_outdir_check(o.output, "history trend")))
		return nb_cmd_write_error(rc);
	if ((rc = nb_history_open(o.db, &h)))
		return fail(rc);
	if (!strcmp(sub, "add")) {
		rc = do_add(h, argc, argv);
	} else if (!strcmp(sub, "list")) {
		rc = do_list(h, &o);
	} else if (!strcmp(sub, "show")) {
		rc = do_show(h, &o, argv[optind]);
	} else if (!strcmp(sub, "rm")) {
		long long id;
		int r = nb_history_rm(h, argv[optind], &id);

		rc = r ? fail(r) : NB_EXIT_OK;
		if (!r)
			printf("history: run %lld removed\n", id);
	} else {
		struct nb_history_filter f = { .labels = o.labels, .nlabels = o.nlabels,
					       .since = o.since };
		int n, r = nb_history_trend(h, &f, o.last ? o.last : 5, o.output, &n);

		rc = r ? fail(r) : NB_EXIT_OK;
		if (!r)
			printf("trend: %s/trend.html (%d chart%s)\n", o.output, n,
			       n == 1 ? "" : "s");
	}
	nb_history_close(h);
	return rc;
}
