/*
 * export.c - 'nasbench export --csv RESULT...': results as a CSV table
 * for spreadsheets (formats/csv.c).
 */
#include "cmd.h"
#include "opts.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../formats/csv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opts {
	const char *out;
	int csv;
};

static const struct nb_opt export_opts[] = {
	{ "csv", 0, NULL, NB_OPT_AT(struct opts, csv),
	  "the format (the only one so far)" },
	{ "output", 'o', "FILE", NB_OPT_AT(struct opts, out),
	  "write FILE instead of standard output ('-')" },
};

const struct nb_usage cmd_export_usage = {
	.head = "usage: nasbench export --csv RESULT.json... [-o FILE]\n"
		"\n"
		"Write the results as CSV for a spreadsheet: one row per result x\n"
		"workload x iteration, with the file, run id, start time, host,\n"
		"nasbench version, target and its URL (no secrets), workload, status\n"
		"and iteration number, then every label, what ran (spec.pattern,\n"
		"spec.rw, spec.bs, spec.qd, spec.sync ...) and every metric as\n"
		"columns (stored units: bytes/s, us); empty where a row has none.\n"
		"\n",
	.opts = export_opts, .n = NB_OPTS_N(export_opts),
	.tail = "\n"
		"Exit status: 0 ok, 2 usage error or unreadable result, 3 the file\n"
		"cannot be written.\n",
};

int cmd_export(int argc, char **argv)
{
	struct opts o = { 0 };
	json_t **docs;
	size_t n;
	int rc = 0;

	if (nb_opts_parse("export", argc, argv, export_opts,
			  NB_OPTS_N(export_opts), NULL, &o))
		return nb_cmd_usage("%s", nb_err_last());
	if (!o.csv)
		return nb_cmd_usage("%s", "say the format: --csv; see 'nasbench help export'");
	if (optind >= argc)
		return nb_cmd_usage("%s", "no result files; see 'nasbench help export'");
	n = (size_t)(argc - optind);
	docs = nb_cmd_load_results(argv + optind, n);
	if (!docs)
		return NB_EXIT_USAGE;
	if (!o.out || !strcmp(o.out, "-")) {
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
		if (!rc && nb_atomic_write(o.out, buf, len)) {
			nb_die_msg("%s", nb_err_last());
			rc = NB_EXIT_TARGET;
		} else if (rc) {
			nb_die_msg("out of memory");
			rc = NB_EXIT_TARGET;
		}
		free(buf);
	}
	nb_cmd_free_results(docs, n);
	return rc;
}
