/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * import.c - 'nasbench import FILE... -o RESULT': fio JSON and bonnie++
 * CSV into a nasbench result, so they join compare and report.
 */
#include "cmd.h"
#include "opts.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/result.h"
#include "../formats/import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opts {
	const char *out, *target;
	int json;
	char *labels[64];
	int nlabels;
};

enum { O_LABEL = 'l' };

static const struct nb_opt import_opts[] = {
	{ "output", 'o', "FILE", NB_OPT_AT(struct opts, out), "the result file "
	  "('-': standard output; required unless --json)" },
	{ "json", 0, NULL, NB_OPT_AT(struct opts, json), "the result on stdout" },
	{ "label", 'l', "K=V", O_LABEL, "a label of the configuration (repeatable)" },
	{ "target", 't', "NAME", NB_OPT_AT(struct opts, target), "the target's "
	  "name (default local; fio\nclient/server: NAME@host per client)" },
};

const struct nb_usage cmd_import_usage = {
	.head = "usage: nasbench import FILE... -o RESULT.json [options]\n"
		"\n"
		"Turn fio JSON output (--output-format=json or json+, also fio\n"
		"client/server output) and bonnie++ CSV lines into one nasbench result.\n"
		"Each file (each bonnie++ line) is one iteration of its workloads: give\n"
		"the files of repeated runs together.  See docs/compare.md for the\n"
		"metrics each tool's figures become.\n"
		"\n",
	.opts = import_opts, .n = NB_OPTS_N(import_opts),
	.tail = "\n"
		"Exit status: 0 ok, 2 usage error or a file that cannot be read or\n"
		"parsed, 3 the result cannot be written.\n",
};

static int valid_label(const char *kv)
{
	const char *eq = strchr(kv, '=');

	if (!eq || eq == kv)
		return 0;
	for (const char *p = kv; p < eq; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-.", *p))
			return 0;
	return 1;
}

/* --label: the one option with more to it than keeping its value. */
static int on_label(int id, const struct nb_knob *k, char *arg, void *payload)
{
	struct opts *o = payload;

	(void)id;
	(void)k;
	if (!valid_label(arg))
		return nb_err(-EINVAL, "--label: expected KEY=VALUE, not '%s'", arg);
	if (o->nlabels == 64)
		return nb_err(-EINVAL, "--label: at most 64 labels");
	o->labels[o->nlabels++] = arg;
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct opts o = { 0 };
	const char *out, *target;
	char id[64], cmdline[4096];
	json_t *doc, *labels;
	int json, rc = 0;

	if (nb_opts_parse("import", argc, argv, import_opts,
			  NB_OPTS_N(import_opts), on_label, &o))
		return nb_cmd_usage("%s", nb_err_last());
	out = o.out;
	target = o.target;
	json = o.json;
	if (out && !strcmp(out, "-"))            /* -o -: standard output */
		out = NULL, json = 1;
	if (!out && !json)
		return nb_cmd_usage("%s", "-o RESULT.json (or --json) is required; see "
			     "'nasbench help import'");
	if (optind >= argc)
		return nb_cmd_usage("%s", "no files to import; see 'nasbench help import'");
	if (out && (rc = nb_atomic_check(out, &nb_result_out)))
		return nb_cmd_write_error(rc);
	nb_result_run_id(id, sizeof(id), "import");
	nb_result_command(cmdline, sizeof(cmdline), argc, argv);
	doc = nb_result_new(id, cmdline);
	labels = json_object_get(doc, "labels");
	for (int i = 0; i < o.nlabels; i++) {
		char *eq = strchr(o.labels[i], '=');

		*eq = '\0';
		json_object_set_new(labels, o.labels[i], json_string(eq + 1));
		*eq = '=';
	}
	for (int i = optind; i < argc && !rc; i++)
		rc = nb_import_file(doc, argv[i], target);
	if (rc) {
		json_decref(doc);
		return nb_cmd_usage("%s", nb_err_last());
	}
	json_object_set_new(doc, "imported_from", json_array());
	for (int i = optind; i < argc; i++)
		json_array_append_new(json_object_get(doc, "imported_from"),
				      json_string(argv[i]));
	json_object_del(doc, "imported");
	nb_result_finish(doc, 1);
	if (out && nb_result_write(doc, out)) {
		nb_die_msg("%s", nb_err_last());
		rc = NB_EXIT_TARGET;
	} else if (json) {
		char *s = nb_result_dump(doc);

		puts(s);
		free(s);
	}
	if (!rc && out && !json)
		printf("result: %s (%zu workloads)\n", out,
		       json_array_size(json_object_get(doc, "results")));
	json_decref(doc);
	return rc;
}
