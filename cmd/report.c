/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - 'nasbench report RESULT... -o DIR': report.html, report.md
 * and the charts with their gnuplot scripts.
 *
 * Everything is written into a new DIR.tmp.XXXXXX first, marked as a
 * report and put in DIR's place at the end (core/outdir.h), so a failed
 * report leaves no directory that looks complete, and a directory that is
 * not a report is never written into nor removed.
 */
#include "cmd.h"
#include "opts.h"
#include "../decision/bands.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/outdir.h"
#include "../core/result.h"
#include "../hw/planner.h"
#include "../hw/planner_result.h"
#include "../formats/chart.h"
#include "../report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct opts {
	const char *out, *gnuplot, *format;
	const char *rows, *cols, *baseline, *metric;     /* the grid */
	const char *plan, *bands;
};

#define AT(field) NB_OPT_AT(struct opts, field)

static const struct nb_opt report_opts[] = {
	{ "output", 'o', "DIR", AT(out), "the report directory (required); '-' "
	  "writes\nthe Markdown to standard output, no charts" },
	{ "format", 0, "FMT", AT(format), "markdown: the Markdown to standard "
	  "output (as\n-o -); pr: only the summary and the grid, for\na pull "
	  "request's comment (under 64 KiB)" },
	{ "bands", 0, "V,N", AT(bands), "viability bands: each result against "
	  "the first,\nviable / decide / not viable in the summary\n(as compare "
	  "--bands; docs/compare.md)" },
	{ "rows", 0, "K,..", AT(rows), "the grid's rows (default: the label with "
	  "the\nmost values)" },
	{ "cols", 0, "K,..", AT(cols), "its columns (default: the label with the "
	  "next\nmost values; with one label, it across and\nthe workloads down)" },
	{ "baseline", 0, "K=V,..", AT(baseline), "the cells compared against "
	  "(default: the\nfirst value of the first label row or column)" },
	{ "metric", 0, "M", AT(metric), "show M in every cell (mb_s, iops, "
	  "p99_us,\nlat_p99_us ...) instead of each workload's\nprimary figure" },
	{ "plan", 0, "FILE", AT(plan), "a plan of 'nasbench hw plan ... --json > "
	  "FILE':\na Plan section with its layouts side by side\nand the results' "
	  "figures beside the expected\n(share of the ceiling, over 110% flagged)" },
	{ "gnuplot", 0, "PROG", AT(gnuplot), "the gnuplot program (default "
	  "$NASBENCH_GNUPLOT or gnuplot)" },
};

const struct nb_usage cmd_report_usage = {
	.head = "usage: nasbench report RESULT.json... -o DIR [--rows K,..] [--cols K,..]\n"
		"                       [--baseline K=V,..] [--metric M] [--plan PLAN.json]\n"
		"                       [--bands V,N]\n"
		"       nasbench report RESULT.json... -o -        (Markdown to stdout)\n"
		"       nasbench report RESULT.json... --format pr (summary + grid, a PR comment)\n"
		"\n"
		"Write DIR/report.html (self-contained: charts inline as SVG),\n"
		"DIR/report.md, and each chart as PNG and SVG with the gnuplot script\n"
		"that drew it (NAME.gp; re-run with 'gnuplot NAME.gp').  Results whose\n"
		"labels are equal are one configuration (their iterations pooled);\n"
		"the labels that differ name the configurations (layout=raidz1\n"
		"slog=SSD).  An existing DIR is replaced only when it is empty or a\n"
		"previous report (its marker DIR/.nasbench lists every file in it):\n"
		"another directory is refused (exit 2).  Without gnuplot the report has its tables and the chart\n"
		"scripts, and a warning says the charts were skipped.\n"
		"\n"
		"The decisions come first, at most five sentences: one per dimension\n"
		"that mattered (layout, SLOG, sync, platform, target ...) with its\n"
		"figure, condition and confidence, those that decided nothing said\n"
		"once; then acceptance, crash losses and every doubt, short; the\n"
		"per-workload detail folded.  The terminal gets the decisions too.\n"
		"Then the grid: the dimensions the results vary in - labels,\n"
		"and workload, target, runner, file, spec.rw, spec.sync, spec.bs,\n"
		"spec.qd, spec.pattern, spec.direct (what ran) - as rows and columns,\n"
		"each cell a workload's primary figure (IOPS for random I/O, MB/s\n"
		"otherwise) as median ±spread n=iterations and its change against the\n"
		"baseline.  Dimensions that still differ inside a cell give one grid\n"
		"each (one per workload, usually).\n"
		"\n",
	.opts = report_opts, .n = NB_OPTS_N(report_opts),
	.tail = "\n"
		"Example (the seed's I/O Analyzer table: iSCSI vs NFS x read/write x\n"
		"sync per layout and SLOG):\n"
		"  nasbench report *.json -o rep --rows layout,slog \\\n"
		"      --cols target,spec.rw,spec.sync --baseline slog=none\n"
		"\n"
		"Exit status: 0 ok (also when gnuplot is missing: tables only), 2 usage\n"
		"error, unreadable result or plan, 3 gnuplot failed or the report could\n"
		"not be written.\n",
};

static int write_doc(const char *dir, const char *name,
		     int (*fn)(const struct nb_report *, const char *, FILE *),
		     const struct nb_report *r)
{
	char path[4400], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return nb_err(-ENOMEM, "out of memory");
	rc = fn(r, dir, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!rc)
		rc = nb_atomic_write(path, buf, len, NULL);
	free(buf);
	return rc;
}

static int md(const struct nb_report *r, const char *dir, FILE *f)
{
	(void)dir;
	return nb_report_markdown(r, f);
}

static int html(const struct nb_report *r, const char *dir, FILE *f)
{
	return nb_report_html(r, dir, f);
}

/* Build the report in TMP.  0 or -errno; *NOCHARTS when gnuplot is
 * missing (the tables and scripts are written, the charts are not). */
static int build(const char *tmp, struct nb_report *r, const char *gnuplot,
		 size_t *ncharts, int *nocharts)
{
	char **names = NULL;
	int rc;

	rc = nb_report_charts(r, tmp, &names, ncharts);
	if (!rc) {
		rc = nb_chart_render(tmp, (const char *const *)names, *ncharts,
				     gnuplot);
		if (rc == -ENOENT) {
			nb_warn("%s; charts skipped, the tables are in the report and "
				"the chart scripts beside it", nb_err_last());
			nb_report_skip_charts(r, nb_err_last());
			*nocharts = 1;
			rc = 0;
		}
	}
	if (!rc)
		rc = write_doc(tmp, "report.md", md, r);
	if (!rc)
		rc = write_doc(tmp, "report.html", html, r);
	for (size_t i = 0; names && i < *ncharts; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* -o, --format and --bands agree, and name a place the report may go:
 * DIR (its trailing slashes dropped) unless *TO_STDOUT; the bands in B.
 * 0, or the exit status. */
static int check_dest(const struct opts *o, int argc, char *dir, size_t len,
		      int *to_stdout, struct nb_bands *b)
{
	const char *out = o->out, *format = o->format;
	int rc;

	if (format && strcmp(format, "markdown") && strcmp(format, "html") &&
	    strcmp(format, "pr")) {
		nb_opts_bad_choice("--format", format, "html|markdown|pr");
		return nb_cmd_usage("%s", nb_err_last());
	}
	if (o->bands && nb_bands_parse("--bands", o->bands, b))
		return nb_cmd_usage("%s", nb_err_last());
	*to_stdout = (out && !strcmp(out, "-")) ||
		     (format && (!strcmp(format, "markdown") || !strcmp(format, "pr")));
	if (*to_stdout && out && strcmp(out, "-"))
		return nb_cmd_usage("--format %s writes to standard output; "
				    "drop -o %s or use -o -", format ? format : "markdown", out);
	if (!out && !*to_stdout)
		return nb_cmd_usage("%s", "-o DIR is required; see 'nasbench help report'");
	if (optind >= argc)
		return nb_cmd_usage("%s", "no result files; see 'nasbench help report'");
	if (*to_stdout)
		return 0;
	snprintf(dir, len, "%s", out);
	for (size_t l = strlen(dir); l > 1 && dir[l - 1] == '/'; l--)
		dir[l - 1] = '\0';
	rc = nb_outdir_check(dir, "report");
	if (rc)   /* a directory that is not a report: refused, as usage */
		return rc == -EEXIST ? nb_cmd_usage("%s", nb_err_last()) :
		       nb_cmd_write_error(rc);
	return 0;
}

/* The report's directory built beside DIR and swapped in; what it holds
 * said on standard output.  0 or NB_EXIT_TARGET. */
static int write_dir(struct nb_report *r, const struct opts *o, const char *dir)
{
	char tmp[4200];
	size_t ncharts = 0;
	int rc, nocharts = 0;

	rc = nb_outdir_begin(dir, tmp, sizeof(tmp));
	if (!rc)
		rc = build(tmp, r, o->gnuplot, &ncharts, &nocharts);
	if (!rc)
		rc = nb_outdir_commit(tmp, dir, "report");
	if (rc) {
		nb_outdir_abort(tmp, dir);
		nb_die_msg("%s", nb_err_last());
		return rc == -EEXIST ? NB_EXIT_USAGE : NB_EXIT_TARGET;
	}
	if (nocharts)
		printf("report: %s/report.html (tables only: charts skipped, %s/report.md)\n",
		       dir, dir);
	else
		printf("report: %s/report.html (%zu charts, %s/report.md)\n", dir,
		       ncharts, dir);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct opts o = { 0 };
	char dir[4096];
	json_t **docs, *plan = NULL;
	struct nb_report *r = NULL;
	const char *const *paths;
	size_t n;
	struct nb_bands bands;
	int rc, to_stdout = 0;

	if (nb_opts_parse("report", argc, argv, report_opts,
			  NB_OPTS_N(report_opts), NULL, &o))
		return nb_cmd_usage("%s", nb_err_last());
	rc = check_dest(&o, argc, dir, sizeof(dir), &to_stdout, &bands);
	if (rc)
		return rc;
	n = (size_t)(argc - optind);
	paths = (const char *const *)argv + optind;
	docs = nb_cmd_load_results(argv + optind, n);
	if (!docs)
		return NB_EXIT_USAGE;
	if (o.plan && nb_planner_load(o.plan, &plan)) {
		nb_err_prefix("--plan");
		rc = nb_cmd_usage("%s", nb_err_last());
		goto out;
	}
	r = nb_report_new(docs, paths, n);
	if (plan) {
		nb_planner_measure_all(plan, docs, paths, n);
		nb_report_plan(r, plan, o.plan);
	}
	if (nb_report_grid(r, o.rows, o.cols, o.baseline, o.metric)) {
		rc = nb_cmd_usage("%s", nb_err_last());
		goto out;
	}
	if (o.bands)
		nb_report_bands(r, &bands);
	if (to_stdout) {
		int pr = o.format && !strcmp(o.format, "pr");

		nb_report_skip_charts(r, NULL);
		rc = (pr ? nb_report_markdown_pr(r, stdout) : nb_report_markdown(r, stdout)) ||
		     fflush(stdout) ? NB_EXIT_TARGET : 0;
	} else {
		rc = write_dir(r, &o, dir);
		if (!rc)        /* the decisions, where the terminal leaves the eye */
			nb_report_text(r, stdout);
	}
out:
	nb_report_free(r);
	json_decref(plan);
	nb_cmd_free_results(docs, n);
	return rc;
}
