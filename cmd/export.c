/*
 * export.c - 'nasbench export --csv RESULT...': results as a CSV table
 * for spreadsheets (reports/report_csv.c).
 */
#include "cmd.h"
#include "opts.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/result.h"
#include "../reports/report.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_export_usage[] =
	"usage: nasbench export --csv RESULT.json... [-o FILE]\n"
	"\n"
	"Write the results as CSV for a spreadsheet: one row per result x\n"
	"workload x iteration, with the file, run id, start time, host,\n"
	"nasbench version, target and its URL (no secrets), workload, status\n"
	"and iteration number, then every label, what ran (spec.pattern,\n"
	"spec.rw, spec.bs, spec.qd, spec.sync ...) and every metric as\n"
	"columns (stored units: bytes/s, us); empty where a row has none.\n"
	"\n"
	"      --csv              the format (the only one so far)\n"
	"  -o, --output FILE      write FILE instead of standard output ('-')\n"
	"\n"
	"Exit status: 0 ok, 2 usage error or unreadable result, 3 the file\n"
	"cannot be written.\n";

static const struct option longopts[] = {
	{ "csv", no_argument, NULL, 'c' },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

int cmd_export(int argc, char **argv)
{
	const char *out = NULL;
	json_t **docs;
	size_t n;
	int c, rc = 0, csv = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		if (c == 'c')
			csv = 1;
		else if (c == 'o')
			out = optarg;
		else       /* ':' (no value) or '?' (unknown) */
			return nb_opts_fail("export", c, argv, longopts);
	}
	if (!csv)
		return nb_cmd_usage("%s", "say the format: --csv; see 'nasbench help export'");
	if (optind >= argc)
		return nb_cmd_usage("%s", "no result files; see 'nasbench help export'");
	n = (size_t)(argc - optind);
	docs = calloc(n, sizeof(*docs));
	for (size_t i = 0; i < n && !rc; i++)
		rc = nb_result_load(argv[optind + (int)i], &docs[i]);
	if (rc) {
		rc = nb_cmd_usage("%s", nb_err_last());
	} else if (!out || !strcmp(out, "-")) {
		rc = nb_report_csv(docs, (const char *const *)argv + optind, n, stdout) ||
		     fflush(stdout) ? NB_EXIT_TARGET : 0;
		if (rc)
			nb_die_msg("cannot write the CSV: %s", strerror(errno));
	} else {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		rc = !f || nb_report_csv(docs, (const char *const *)argv + optind, n, f);
		if (f)
			fclose(f);
		if (!rc && nb_atomic_write(out, buf, len)) {
			nb_die_msg("%s", nb_err_last());
			rc = NB_EXIT_TARGET;
		} else if (rc) {
			nb_die_msg("out of memory");
			rc = NB_EXIT_TARGET;
		}
		free(buf);
	}
	for (size_t i = 0; i < n; i++)
		json_decref(docs[i]);
	free(docs);
	return rc;
}
