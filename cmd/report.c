/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - 'nasbench report RESULT... -o DIR': report.html, report.md
 * and the charts with their gnuplot scripts.
 *
 * Everything is written into DIR.tmp.<pid> first and renamed to DIR at the
 * end, so a failed report leaves no directory that looks complete.
 */
#include "cmd.h"
#include "opts.h"
#include "../decision/bands.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/result.h"
#include "../hw/planner.h"
#include "../hw/planner_result.h"
#include "../formats/chart.h"
#include "../report/report.h"

#include <dirent.h>
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
		"slog=SSD).  An existing DIR is replaced only if it holds a previous\n"
		"report.  Without gnuplot the report has its tables and the chart\n"
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

/* Remove DIR and the plain files in it (a report directory has no more). */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4400];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* DIR may be replaced: absent, empty, or a previous report. */
static int check_out(const char *dir)
{
	struct stat st;
	char path[4400];
	DIR *d;
	struct dirent *de;
	int empty = 1;

	if (stat(dir, &st))
		return errno == ENOENT ? 0 :
		       nb_err(-errno, "cannot use '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return nb_err(-ENOTDIR, "'%s' exists and is not a directory", dir);
	snprintf(path, sizeof(path), "%s/report.html", dir);
	if (!access(path, F_OK))
		return 0;
	d = opendir(dir);
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	if (d)
		closedir(d);
	return empty ? 0 : nb_err(-EEXIST, "'%s' exists and is not a nasbench "
				  "report; not overwriting it", dir);
}

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
		rc = nb_atomic_write(path, buf, len);
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
	if (!rc)                 /* last: its presence means complete */
		rc = write_doc(tmp, "report.html", html, r);
	for (size_t i = 0; names && i < *ncharts; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* Put TMP in DIR's place (an old report goes away). */
static int swap_in(const char *tmp, const char *dir)
{
	char old[4400];
	int had = !access(dir, F_OK);

	snprintf(old, sizeof(old), "%s.old.%ld", dir, (long)getpid());
	if (had && rename(dir, old))
		return nb_err(-errno, "cannot replace '%s': %s", dir, strerror(errno));
	if (rename(tmp, dir)) {
		int e = errno;

		if (had)
			rename(old, dir);
		return nb_err(-e, "cannot create '%s': %s", dir, strerror(e));
	}
	if (had)
		remove_dir(old);
	return 0;
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
	rc = check_out(dir);
	if (rc)   /* a directory that is not a report: refused, as usage */
		return rc == -EEXIST ? nb_cmd_usage("%s", nb_err_last()) :
		       nb_cmd_write_error();
	return 0;
}

/* The report's directory built beside DIR and swapped in; what it holds
 * said on standard output.  0 or NB_EXIT_TARGET. */
static int write_dir(struct nb_report *r, const struct opts *o, const char *dir)
{
	char tmp[4200];
	size_t ncharts = 0;
	int rc, nocharts = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", dir, (long)getpid());
	if (mkdir(tmp, 0755)) {
		nb_die_msg("cannot create '%s': %s", dir, strerror(errno));
		return NB_EXIT_TARGET;
	}
	rc = build(tmp, r, o->gnuplot, &ncharts, &nocharts);
	if (!rc)
		rc = swap_in(tmp, dir);
	if (rc) {
		remove_dir(tmp);
		nb_die_msg("%s", nb_err_last());
		return NB_EXIT_TARGET;
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
