/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export.c - 'nasbench export --csv RESULT...': results as a CSV table
 * for spreadsheets (formats/csv.c); --openmetrics: as OpenMetrics text for
 * Prometheus (formats/openmetrics.c).
 */
#include "cmd.h"
#include "opts.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../formats/csv.h"
#include "../formats/openmetrics.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opts {
	const char *out;
	int csv;
	int om;
};

static const struct nb_opt export_opts[] = {
	{ "csv", 0, NULL, NB_OPT_AT(struct opts, csv),
	  "CSV, a row per result x workload x iteration" },
	{ "openmetrics", 0, NULL, NB_OPT_AT(struct opts, om),
	  "OpenMetrics / Prometheus text: gauges per target x workload" },
	{ "output", 'o', "FILE", NB_OPT_AT(struct opts, out),
	  "write FILE instead of standard output ('-')" },
};

const struct nb_usage cmd_export_usage = {
	.head = "usage: nasbench export --csv|--openmetrics RESULT.json... [-o FILE]\n"
		"\n"
		"--csv writes the results as CSV for a spreadsheet: one row per result x\n"
		"workload x iteration, with the file, run id, start time, host,\n"
		"nasbench version, target and its URL (no secrets), workload, status\n"
		"and iteration number, then every label, what ran (spec.pattern,\n"
		"spec.rw, spec.bs, spec.qd, spec.sync ...) and every metric as\n"
		"columns (stored units: bytes/s, us); empty where a row has none.\n"
		"\n"
		"--openmetrics writes them as OpenMetrics text (Prometheus reads it:\n"
		"node_exporter's textfile collector, a Pushgateway): a gauge per figure,\n"
		"nasbench_<metric>_<unit> in base units (bytes_per_second, seconds,\n"
		"ratio), labelled target, workload, the result's labels and statistic\n"
		"(median, mean, min, max, stddev); nasbench_workload_ok, _iterations\n"
		"and _run_start_timestamp_seconds beside them.  Two results with the\n"
		"same target, workload and labels are refused (exit 2).  A Grafana\n"
		"dashboard: examples/grafana/nasbench.json (docs/prometheus.md).\n"
		"\n",
	.opts = export_opts, .n = NB_OPTS_N(export_opts),
	.tail = "\n"
		"-o replaces an existing file only when it is an export of the same\n"
		"format: any other file is refused (exit 2).\n"
		"\n"
		"Exit status: 0 ok, 2 usage error, unreadable result or a file -o may\n"
		"not replace, 3 the file cannot be written.\n",
};

/* What -o may replace: an export of the same format (core/atomic_file.h). */
static int csv_ours(const char *head, size_t len)
{
	return nb_out_starts(head, len, "file,run_id,");
}

static int om_ours(const char *head, size_t len)
{
	return nb_out_starts(head, len, "# HELP nasbench_") &&
	       !nb_out_starts(head, len, "# HELP nasbench_compare_");
}

static const struct nb_out_kind csv_out = { "a CSV export of nasbench", csv_ours };
static const struct nb_out_kind om_out = { "an OpenMetrics export of nasbench",
					   om_ours };

/* The export made in memory first (a refusal writes nothing), then to
 * standard output or atomically to the file.  An exit status. */
static int emit(const struct opts *o, json_t **docs, const char *const *paths,
		size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return nb_die_msg("out of memory"), NB_EXIT_TARGET;
	rc = o->om ? nb_openmetrics_results(docs, paths, n, f) :
	     nb_csv_write(docs, paths, n, f) ? -EIO : 0;
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (rc == -EINVAL) {
		nb_die_msg("%s", nb_err_last());
		rc = NB_EXIT_USAGE;
	} else if (rc) {
		nb_die_msg("out of memory");
		rc = NB_EXIT_TARGET;
	} else if (!o->out || !strcmp(o->out, "-")) {
		if (fwrite(buf, 1, len, stdout) != len || fflush(stdout)) {
			nb_die_msg("cannot write the %s: %s", o->om ? "metrics" : "CSV",
				   strerror(errno));
			rc = NB_EXIT_TARGET;
		}
	} else if ((rc = nb_atomic_write(o->out, buf, len, o->om ? &om_out :
					 &csv_out))) {
		rc = nb_cmd_write_error(rc);
	}
	free(buf);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	struct opts o = { 0 };
	json_t **docs;
	size_t n;
	int rc = 0;

	if (nb_opts_parse("export", argc, argv, export_opts,
			  NB_OPTS_N(export_opts), NULL, &o))
		return nb_cmd_usage("%s", nb_err_last());
	if (o.csv + o.om != 1)
		return nb_cmd_usage("%s", "say one format: --csv or --openmetrics; see "
				    "'nasbench help export'");
	if (optind >= argc)
		return nb_cmd_usage("%s", "no result files; see 'nasbench help export'");
	n = (size_t)(argc - optind);
	docs = nb_cmd_load_results(argv + optind, n);
	if (!docs)
		return NB_EXIT_USAGE;
	rc = emit(&o, docs, (const char *const *)argv + optind, n);
	nb_cmd_free_results(docs, n);
	return rc;
}
