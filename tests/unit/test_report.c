/*
 * test_report.c - the report model on fixed results (tests/golden/report):
 * which charts exist, the exact report.md and one gnuplot script (golden
 * files; NB_UPDATE_GOLDEN=1 rewrites them), and the charts gnuplot draws
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

#include "../../core/err.h"
#include "../../core/result.h"
#include "../../reports/chart.h"
#include "../../reports/report.h"

#define G "tests/golden/report/"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	assert_non_null(f);
	assert_true(getdelim(&buf, &cap, '\0', f) > 0);
	fclose(f);
	return buf;
}

static void golden(const char *got, const char *file)
{
	char path[256], *want;

	snprintf(path, sizeof(path), G "%s", file);
	if (getenv("NB_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "w");

		fputs(got, f);
		fclose(f);
	}
	want = slurp(path);
	assert_string_equal(got, want);
	free(want);
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
	static const char *want[] = { "bars_bw_bytes", "bars_iops", "latency_bigfile",
				      "series_bigfile", "latency_rand4k-read",
				      "phases_bonnie_KiB_s", "phases_bonnie_ops_s",
				      "phases_bonnie_us" };
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
	assert_int_equal(nb_report_charts(r, dir, &names, &n), 0);
	assert_int_equal(n, 8);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(names[i], want[i]);

	f = open_memstream(&buf, &len);
	assert_int_equal(nb_report_markdown(r, f), 0);
	fclose(f);
	golden(buf, "report.md");
	free(buf);
	snprintf(path, sizeof(path), "%s/bars_bw_bytes.gp", dir);
	buf = slurp(path);
	golden(buf, "bars_bw_bytes.gp");
	free(buf);

	/* gnuplot draws them; the HTML holds every chart inline */
	assert_int_equal(nb_chart_render(dir, (const char *const *)names, n, NULL), 0);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(nb_report_html(r, dir, f), 0);
	fclose(f);
	assert_int_equal(count(buf, "<svg"), 8);
	assert_int_equal(count(buf, "<?xml"), 0);
	assert_int_equal(count(buf, "<figure class=\"chart\""), 8);
	/* self-contained: nothing to fetch (links to the PNGs and scripts
	 * beside it are fine, they are not needed to view the page) */
	assert_int_equal(count(buf, "src="), 0);
	assert_int_equal(count(buf, "href=\"http"), 0);
	assert_int_equal(count(buf, "<link"), 0);
	assert_int_equal(count(buf, "<script"), 0);
	assert_non_null(strstr(buf, "<tr><td>bare</td><td class=\"num\">bare</td>"
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
			    "found (install gnuplot-nox, or set NB_GNUPLOT)");
	unlink(path);
	snprintf(path, sizeof(path), "%s/broken.png", dir);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(report),
					    cmocka_unit_test(gnuplot_fails) };

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
