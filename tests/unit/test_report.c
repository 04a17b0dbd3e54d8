/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_report.c - the report model on fixed results (tests/golden/report):
 * which charts exist, the exact report.md and one gnuplot script (golden
 * files; NASBENCH_UPDATE_GOLDEN=1 rewrites them), and the charts gnuplot draws
 * from them end up inline in report.html.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>

#include "../../core/err.h"
#include "../../core/result.h"
#include "../../hw/planner.h"
#include "../../hw/planner_result.h"
#include "../../formats/chart.h"
#include "../../report/report.h"
#include "files.h"

#define G "tests/golden/report/"

static void golden(const char *got, const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), G "%s", file);
	test_golden(got, path);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void report(void **state)
{
	static const char *files[] = { G "a.json", G "b.json", G "c.json" };
	/* one chart per family of figures, across the workloads (the
	 * fixtures keep no latency histograms: no CDF; bonnie's one ops/s
	 * figure is 4000 everywhere: no chart of equal bars) */
	static const char *want[] = { "bars_bw_bytes", "bars_iops", "bars_lat_p99_us",
				      "series_all", "figures_KiB_s", "figures_us" };
	char dir[] = "/tmp/nb-unit-report.XXXXXX", path[256], **names, *buf = NULL;
	json_t *docs[3];
	struct nb_report *r;
	size_t n, len = 0;
	FILE *f;

	(void)state;
	for (int i = 0; i < 3; i++)
		assert_int_equal(nb_result_load(files[i], &docs[i]), 0);
	assert_non_null(mkdtemp(dir));
	r = nb_report_new(docs, files, 3);
	assert_int_equal(nb_report_grid(r, NULL, NULL, NULL, NULL), 0);
	assert_int_equal(nb_report_charts(r, dir, &names, &n), 0);
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(names[i], want[i]);

	f = open_memstream(&buf, &len);
	assert_int_equal(nb_report_markdown(r, f), 0);
	fclose(f);
	golden(buf, "report.md");
	free(buf);
	snprintf(path, sizeof(path), "%s/bars_bw_bytes.gp", dir);
	buf = test_slurp(path);
	golden(buf, "bars_bw_bytes.gp");
	free(buf);

	/* gnuplot draws them; the HTML holds every chart inline */
	assert_int_equal(nb_chart_render(dir, (const char *const *)names, n, NULL), 0);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(nb_report_html(r, dir, f), 0);
	fclose(f);
	assert_int_equal(count(buf, "<svg"), 6);
	assert_int_equal(count(buf, "<?xml"), 0);
	assert_int_equal(count(buf, "<figure class=\"chart\""), 6);
	/* the summary first, the details folded */
	assert_true(strstr(buf, "<section id=\"summary\">") < strstr(buf, "<h2>Grid</h2>"));
	assert_true(count(buf, "<details>") >= 4);
	assert_int_equal(count(buf, "<details open"), 0);
	/* self-contained: nothing to fetch (links to the PNGs and scripts
	 * beside it are fine, they are not needed to view the page) */
	assert_int_equal(count(buf, "src="), 0);
	assert_int_equal(count(buf, "href=\"http"), 0);
	assert_int_equal(count(buf, "<link"), 0);
	assert_int_equal(count(buf, "<script"), 0);
	assert_non_null(strstr(buf, "<tr><td>platform=bare</td><td class=\"num\">bare</td>"
				"<td class=\"num\">2</td></tr>"));    /* pooled */
	free(buf);
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s.png", dir, names[i]);
		assert_int_equal(access(path, R_OK), 0);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s.svg", dir, names[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s.gp", dir, names[i]);
		unlink(path);
		free(names[i]);
	}
	free(names);
	assert_int_equal(rmdir(dir), 0);      /* nothing else was left */
	nb_report_free(r);
	for (int i = 0; i < 3; i++)
		json_decref(docs[i]);
}

/* One result: never an empty axis; on one target its figures across. */
static void one_result_grid(void **state)
{
	static const char *files[] = { G "a.json" };
	json_t *docs[1];
	struct nb_report *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(nb_result_load(files[0], &docs[0]), 0);
	r = nb_report_new(docs, files, 1);
	assert_int_equal(nb_report_grid(r, NULL, NULL, NULL, NULL), 0);
	nb_report_skip_charts(r, NULL);
	f = open_memstream(&buf, &len);
	assert_int_equal(nb_report_markdown(r, f), 0);
	fclose(f);
	assert_null(strstr(buf, "columns: ;"));
	assert_non_null(strstr(buf, "Rows: workload; columns: figure."));
	assert_non_null(strstr(buf, "| workload | MB/s | IOPS | p99 us | put\\_block K/s |"));
	assert_non_null(strstr(buf, "| bigfile | 346.5 ±1% n=2 | 660.9 ±1% n=2 | 5050 ±1% n=2 |  |"));
	assert_true(strstr(buf, "## Summary") < strstr(buf, "## Grid"));
	/* --metric and a metric axis: which figure would a cell show? */
	assert_int_equal(nb_report_grid(r, NULL, "metric", NULL, "iops"), -EINVAL);
	assert_string_equal(nb_err_last(), "--metric: the grid already has the "
			    "figures as an axis ('metric' in --rows or --cols)");
	free(buf);
	nb_report_free(r);
	json_decref(docs[0]);
}

#define GG G "grid/"

/* The median, spread and n of METRIC (scaled by SCALE) over the
 * iterations of WORKLOAD in FILES, as a grid cell says them. */
static void expect_cell(char *out, size_t len, const char *const *files,
			size_t nf, const char *workload, const char *metric,
			double scale)
{
	double v[64], sum = 0, ss = 0, med;
	size_t n = 0;

	for (size_t f = 0; f < nf; f++) {
		json_t *doc, *e, *it;
		size_t i, j;

		assert_int_equal(nb_result_load(files[f], &doc), 0);
		json_array_foreach(json_object_get(doc, "results"), i, e)
			if (!strcmp(json_string_value(json_object_get(e, "workload")),
				    workload))
				json_array_foreach(json_object_get(e, "iterations"), j, it)
					v[n++] = json_number_value(json_object_get(
						json_object_get(it, "metrics"), metric));
		json_decref(doc);
	}
	for (size_t i = 0; i < n; i++)           /* insertion sort */
		for (size_t j = i; j > 0 && v[j] < v[j - 1]; j--) {
			double t = v[j];

			v[j] = v[j - 1], v[j - 1] = t;
		}
	med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - sum / n) * (v[i] - sum / n);
	if (med * scale >= 1000)
		snprintf(out, len, "%.0f", med * scale);
	else
		snprintf(out, len, "%.1f", med * scale);
	if (n > 1)
		snprintf(out + strlen(out), len - strlen(out), " ±%.0f%%",
			 100 * sqrt(ss / (n - 1)) / med);
	snprintf(out + strlen(out), len - strlen(out), " n=%zu", n);
	if (nf > 1)
		snprintf(out + strlen(out), len - strlen(out), " (%zu runs)", nf);
}

static char *markdown(struct nb_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(nb_report_markdown(r, f), 0);
	fclose(f);
	return buf;
}

/* The grid: layout down, sync across, one grid per workload; each cell
 * the median of the input JSON's iterations, the change against the
 * baseline; the grid's whole Markdown is a golden file. */
static void grid(void **state)
{
	static const char *files[] = { GG "raid10-always.json", GG "raid10-standard.json",
				       GG "raidz1-always-2.json", GG "raidz1-always.json",
				       GG "raidz1-standard.json" };
	json_t *docs[5];
	struct nb_report *r;
	char want[256], line[512], *md;

	(void)state;
	for (int i = 0; i < 5; i++)
		assert_int_equal(nb_result_load(files[i], &docs[i]), 0);
	r = nb_report_new(docs, files, 5);
	nb_report_skip_charts(r, NULL);
	assert_int_equal(nb_report_grid(r, NULL, NULL, NULL, NULL), 0);
	md = markdown(r);
	golden(md, "grid.md");
	assert_non_null(strstr(md, "Rows: layout; columns: sync; one grid per workload."));
	/* raidz1 / always: two runs pooled, against raid10 / always */
	expect_cell(want, sizeof(want), files + 2, 2, "seq512k-write", "bw_bytes", 1e-6);
	assert_string_equal(want, "21.0 ±5% n=3 (2 runs)");
	snprintf(line, sizeof(line), "| raidz1 | %s, -49%% |", want);
	assert_non_null(strstr(md, line));
	/* the interrupted result's finished iteration counts, marked */
	expect_cell(want, sizeof(want), files, 1, "rand4k-write", "iops", 1);
	snprintf(line, sizeof(line), "| raid10 | %s incomplete, baseline |", want);
	assert_non_null(strstr(md, line));
	expect_cell(want, sizeof(want), files + 1, 1, "rand4k-write", "iops", 1);
	assert_non_null(strstr(md, want));
	assert_non_null(strstr(md, "| acceptance | fail: rand4k-write@nas iops \\>= 200 "
				   "(measured 155) |"));
	assert_non_null(strstr(md, "nas/rand4k-write interrupted (1 iteration kept)"));
	free(md);
	nb_report_free(r);

	/* rows and columns chosen, a baseline, another metric */
	r = nb_report_new(docs, files, 5);
	nb_report_skip_charts(r, NULL);
	assert_int_equal(nb_report_grid(r, "sync", "layout,workload", "sync=always",
					"p50_us"), 0);
	md = markdown(r);
	assert_non_null(strstr(md, "| sync | layout=raid10 workload=seq512k-write | "));
	expect_cell(want, sizeof(want), files + 4, 1, "seq512k-write", "lat_p50_us", 1);
	snprintf(line, sizeof(line), " | %s, -80%% | ", want);  /* raidz1, seq */
	assert_non_null(strstr(md, line));
	free(md);
	nb_report_free(r);

	/* mistakes say what the grid could be */
	r = nb_report_new(docs, files, 5);
	assert_int_equal(nb_report_grid(r, "slog,pool", NULL, NULL, NULL), -EINVAL);
	assert_string_equal(nb_err_last(), "--rows: no dimension 'pool'; the results "
			    "vary in layout (2), sync (2), workload (2), spec.pattern (2), "
			    "spec.bs (2), spec.qd (2)");
	assert_int_equal(nb_report_grid(r, "sync", "sync", NULL, NULL), -EINVAL);
	assert_string_equal(nb_err_last(), "'sync' is in both --rows and --cols");
	assert_int_equal(nb_report_grid(r, NULL, NULL, "layout", NULL), -EINVAL);
	assert_string_equal(nb_err_last(), "--baseline: 'layout' is not KEY=VALUE "
			    "(e.g. --baseline layout=raidz1,sync=standard)");
	assert_int_equal(nb_report_grid(r, "layout", "sync", "media=hdd", NULL), -EINVAL);
	assert_string_equal(nb_err_last(), "--baseline: 'media' is not a row or column "
			    "of the grid (add it to --rows or --cols)");
	assert_int_equal(nb_report_grid(r, NULL, NULL, NULL, "furlongs"), -EINVAL);
	assert_string_equal(nb_err_last(), "--metric: no result has 'furlongs' (e.g. "
			    "mb_s, iops, p99_us, or a stored name such as lat_p99_us)");
	nb_report_free(r);
	for (int i = 0; i < 5; i++)
		json_decref(docs[i]);
}

/* The Markdown of a grid (ROWS, COLS, BASELINE) over two result files,
 * each document passed to TWEAK first when there is one; all freed. */
static char *grid_of(const char *files[2], void (*tweak)(json_t *doc),
		     const char *rows, const char *cols, const char *baseline)
{
	json_t *docs[2];
	struct nb_report *r;
	char *md;

	for (int i = 0; i < 2; i++) {
		assert_int_equal(nb_result_load(files[i], &docs[i]), 0);
		if (tweak)
			tweak(docs[i]);
	}
	r = nb_report_new(docs, files, 2);
	nb_report_skip_charts(r, NULL);
	assert_int_equal(nb_report_grid(r, rows, cols, baseline, NULL), 0);
	md = markdown(r);
	nb_report_free(r);
	for (int i = 0; i < 2; i++)
		json_decref(docs[i]);
	return md;
}

/* The seed's I/O Analyzer table (iSCSI vs NFS x read/write x sync, per
 * SLOG) as one grid of the published N40L figures. */
static void io_analyzer(void **state)
{
	static const char *files[] = { "hw/profiles/n40l-raidz1.json",
				       "hw/profiles/n40l-raidz1-slog.json" };
	char *md = grid_of(files, NULL, "layout,slog", "target,spec.rw,spec.sync",
			   "slog=none");

	(void)state;
	assert_non_null(strstr(md, "| layout / slog | target=iscsi spec.rw=write "
				   "spec.sync=none | target=iscsi spec.rw=read spec.sync=none "
				   "| target=nfs spec.rw=write spec.sync=always | target=nfs "
				   "spec.rw=read spec.sync=none |\n"));
	assert_non_null(strstr(md, "| raidz1, none | 75.5 n=1, baseline | 102.8 n=1, "
				   "baseline | 5.24 n=1, baseline | 54.5 n=1, baseline |\n"));
	assert_non_null(strstr(md, "| raidz1, SSD |  |  | 31.5 n=1, +500% |  |\n"));
	free(md);
}

/* A per-char figure added to a bonnie result's first iteration. */
static void add_put_char(json_t *doc)
{
	json_t *it = json_array_get(json_object_get(json_array_get(
		json_object_get(doc, "results"), 0), "iterations"), 0);

	json_object_set_new(json_object_get(it, "metrics"), "put_char_bw_bytes",
			    json_real(2e6));
}

/* bonnie's headline in the grid is its block write (the seed's put_block,
 * what compare's verdicts use), not the per-char phase that comes first
 * in display order: the DL380p profiles with a per-char figure added. */
static void bonnie_headline(void **state)
{
	static const char *files[] = { "hw/profiles/dl380p-bare.json",
				       "hw/profiles/dl380p-xen.json" };
	char *md = grid_of(files, add_put_char, NULL, NULL, NULL);

	(void)state;
	assert_non_null(strstr(md, "**put\\_block MB/s (median)**"));
	assert_non_null(strstr(md, "| bonnie | 352.0 n=1, baseline | 222.8 n=1, -37% |\n"));
	free(md);
}

/* gnuplot failing on a script: the message names the script and carries
 * gnuplot's own complaint. */
static void gnuplot_fails(void **state)
{
	char dir[] = "/tmp/nb-unit-report.XXXXXX", path[256];
	const char *names[] = { "broken" };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/broken.gp", dir);
	f = fopen(path, "w");
	fputs("set terminal pngcairo\nset output 'broken.png'\nplot $nodata using 1:2\n", f);
	fclose(f);
	assert_int_equal(nb_chart_render(dir, names, 1, NULL), -EIO);
	assert_non_null(strstr(nb_err_last(), "gnuplot failed on 'broken.gp': "));
	assert_non_null(strstr(nb_err_last(), "line 3"));
	assert_int_equal(nb_chart_render(dir, names, 1, "/nonexistent/gnuplot"), -ENOENT);
	assert_string_equal(nb_err_last(), "cannot run '/nonexistent/gnuplot': not "
			    "found (install gnuplot-nox, or set NASBENCH_GNUPLOT)");
	unlink(path);
	snprintf(path, sizeof(path), "%s/broken.png", dir);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

/* The Plan section: a plan as 'hw plan --json' writes it (the N40L of
 * the first story, three layouts, a SLOG, prices in EUR), read back from
 * its file, the seed's published results held against it - one of them
 * made to read 140 MB/s through a 117.7 MB/s link, which is flagged.  The
 * section's Markdown is a golden file; the HTML has it and the flag's
 * colour. */
static void plan(void **state)
{
	static const char *const layouts[] = { "raidz1", "md-raid10", "raidz2" };
	static const char *files[] = { "hw/profiles/n40l-raidz1.json",
				       "hw/profiles/n40l-raidz1-slog.json" };
	char dir[] = "/tmp/nb-unit-plan.XXXXXX", path[256], *buf = NULL, *sec, *end;
	struct nb_planner_in in;
	struct nb_planner_out out[3];
	json_t *docs[2], *doc, *plan, *read;
	struct nb_report *r;
	size_t len = 0;
	FILE *f;

	(void)state;
	nb_planner_defaults(&in);
	assert_int_equal(nb_pool_parse_disks("5x3TB", &in.pool.disks), 0);
	in.disk_mbs = 150;
	in.disk_iops = 120;
	in.price = 80;
	snprintf(in.currency, sizeof(in.currency), "EUR");
	in.nic_bps = 1000000000ULL;
	in.sync_io = 64 * 1024;
	assert_int_equal(nb_planner_parse_slog("ssd", &in.slog), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(nb_planner_compute(&in, layouts[i], &out[i]), 0);
	doc = nb_planner_doc(&in, out, 3, NULL);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/plan.json", dir);
	assert_int_equal(json_dump_file(doc, path, JSON_INDENT(2)), 0);
	json_decref(doc);
	assert_int_equal(nb_planner_load(path, &plan), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(nb_result_load(files[i], &docs[i]), 0);
	read = json_object_get(json_object_get(nb_result_find(docs[0], "iscsi",
							      "seq512k-read"),
					       "summary"), "bw_bytes");
	json_object_set_new(read, "median", json_real(140e6));

	r = nb_report_new(docs, files, 2);
	nb_planner_measure_all(plan, docs, files, 2);
	nb_report_plan(r, plan, path);
	json_decref(plan);               /* the report holds its own */
	f = open_memstream(&buf, &len);
	assert_int_equal(nb_report_markdown(r, f), 0);
	fclose(f);
	sec = strstr(buf, "## Plan\n");
	assert_non_null(sec);
	end = strstr(sec, "## Configurations\n");
	assert_non_null(end);
	*end = '\0';
	golden(sec, "plan.md");
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(nb_report_html(r, dir, f), 0);
	fclose(f);
	assert_int_equal(count(buf, "<h2>Plan</h2>"), 1);
	assert_int_equal(count(buf, "<td class=\"num worse\">" NB_PLANNER_OVER_MSG
			       "</td>"), 1);
	assert_int_equal(count(buf, "<td class=\"num\">400.00 EUR</td>"), 3);
	free(buf);
	nb_report_free(r);
	for (int i = 0; i < 2; i++)
		json_decref(docs[i]);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(report),
					    cmocka_unit_test(one_result_grid),
					    cmocka_unit_test(grid),
					    cmocka_unit_test(io_analyzer),
					    cmocka_unit_test(bonnie_headline),
					    cmocka_unit_test(gnuplot_fails),
					    cmocka_unit_test(plan) };

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
