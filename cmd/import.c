/*
 * import.c - 'nasbench import FILE... -o RESULT': fio JSON and bonnie++
 * CSV into a nasbench result, so they join compare and report.
 */
#include "cmd.h"
#include "opts.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/result.h"
#include "../reports/import.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_import_usage[] =
	"usage: nasbench import FILE... -o RESULT.json [options]\n"
	"\n"
	"Turn fio JSON output (--output-format=json or json+, also fio\n"
	"client/server output) and bonnie++ CSV lines into one nasbench result.\n"
	"Each file (each bonnie++ line) is one iteration of its workloads: give\n"
	"the files of repeated runs together.  See docs/compare.md for the\n"
	"metrics each tool's figures become.\n"
	"\n"
	"  -o, --output FILE      the result file ('-': standard output; required\n"
	"                         unless --json)\n"
	"      --json             the result on stdout\n"
	"  -l, --label K=V        a label of the configuration (repeatable)\n"
	"  -t, --target NAME      the target's name (default local; fio\n"
	"                         client/server: NAME@host per client)\n"
	"\n"
	"Exit status: 0 ok, 2 usage error or a file that cannot be read or\n"
	"parsed, 3 the result cannot be written.\n";

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'J' },
	{ "label", required_argument, NULL, 'l' },
	{ "target", required_argument, NULL, 't' },
	{ NULL, 0, NULL, 0 },
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

int cmd_import(int argc, char **argv)
{
	const char *out = NULL, *target = NULL;
	char id[64], cmdline[4096];
	json_t *doc, *labels;
	int c, json = 0, rc = 0;
	char *saved_labels[64];
	int nlabels = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:l:t:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'J': json = 1; break;
		case 't': target = optarg; break;
		case 'l':
			if (!valid_label(optarg))
				return nb_cmd_usage("--label: expected KEY=VALUE, not '%s'",
					     optarg);
			if (nlabels == 64)
				return nb_cmd_usage("%s", "--label: at most 64 labels");
			saved_labels[nlabels++] = optarg;
			break;
		default:	/* ':' (no value) or '?' (unknown) */
			return nb_opts_fail("import", c, argv, longopts);
		}
	}
	if (out && !strcmp(out, "-"))            /* -o -: standard output */
		out = NULL, json = 1;
	if (!out && !json)
		return nb_cmd_usage("%s", "-o RESULT.json (or --json) is required; see "
			     "'nasbench help import'");
	if (optind >= argc)
		return nb_cmd_usage("%s", "no files to import; see 'nasbench help import'");
	if (out && nb_atomic_check(out))
		return nb_cmd_write_error();
	nb_result_run_id(id, sizeof(id), "import");
	nb_result_command(cmdline, sizeof(cmdline), argc, argv);
	doc = nb_result_new(id, cmdline);
	labels = json_object_get(doc, "labels");
	for (int i = 0; i < nlabels; i++) {
		char *eq = strchr(saved_labels[i], '=');

		*eq = '\0';
		json_object_set_new(labels, saved_labels[i], json_string(eq + 1));
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
