/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_chart.c - the bar chart's shape (formats/chart.c), drawn by the
 * real gnuplot: short labels stand level under their clusters (no slant,
 * the picture widened for them), labels too long for any width turn the
 * bars on their side with the labels at the left, a colour per series
 * with its name in the key; every label inside the picture (the SVG's
 * text by its anchor and length; tests/integration/test_report.sh holds
 * the same against Chromium's measure).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "files.h"
#include "scratch.h"
#include "../../formats/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const series[] = { "local", "nfs", "iscsi", "iscsi-sync" };
static const double v[] = { 1540, 812, 270, 218, 695, 322, 290, 226,
			    1520, 876, 980, 1450, 0, 0, 2.5e4, 0 };

static char *gp_of(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s.gp", test_scratch, name);
	return test_slurp(path);
}

/* The picture's width and height, and whether each <text> of NAME.svg,
 * at its x and anchor, fits in it at 7.5 px a character (gnuplot's
 * sans 12, wider than most of its glyphs). */
static int svg_labels_inside(const char *name, int *texts)
{
	char path[256], *svg, *p;
	int w = 0, h = 0, bad = 0;

	snprintf(path, sizeof(path), "%s/%s.svg", test_scratch, name);
	svg = test_slurp(path);
	p = strstr(svg, "<svg");
	assert_non_null(p);
	assert_int_equal(sscanf(strstr(p, "width=\"") + 7, "%d", &w), 1);
	assert_int_equal(sscanf(strstr(p, "height=\"") + 8, "%d", &h), 1);
	*texts = 0;
	for (p = strstr(p, "<g transform=\"translate("); p;
	     p = strstr(p + 1, "<g transform=\"translate(")) {
		double x, y, len;
		char *gend = strchr(p, '>'), *t, *body, *end;
		const char *anchor = "start";
		int upright;

		if (!gend || sscanf(p, "<g transform=\"translate(%lf,%lf)", &x, &y) != 2)
			continue;
		*gend = '\0';
		upright = strstr(p, "rotate(270)") != NULL;
		if (strstr(p, "rotate(") && !upright)
			bad++;          /* no label slanted (the y axis' title stands up) */
		if (strstr(p, "text-anchor=\"end\""))
			anchor = "end";
		else if (strstr(p, "text-anchor=\"middle\""))
			anchor = "middle";
		*gend = '>';
		t = strstr(gend, "<text>");
		end = t ? strstr(t, "</text>") : NULL;
		if (!t || t != gend + strspn(gend + 1, " \t\n") + 1 || !end)
			continue;
		body = t + 6;
		while (*body == ' ')
			body++;
		if (end <= body || upright)
			continue;
		/* 7.6 px a character: DejaVu Sans' digits at 12 px, wider
		 * than most of its letters */
		len = (double)(end - body) * 7.6;
		(*texts)++;
		if ((!strcmp(anchor, "start") && x + len > w) ||
		    (!strcmp(anchor, "end") && x - len < 0) ||
		    (!strcmp(anchor, "middle") && (x - len / 2 < 0 || x + len / 2 > w)) ||
		    y < 0 || y > h) {
			print_error("outside %dx%d: at %.0f,%.0f (%s) %.*s\n", w, h, x, y,
				    anchor, (int)(end - body), body);
			bad++;
		}
	}
	free(svg);
	return bad;
}

static void short_labels_vertical(void **state)
{
	static const char *const rows[] = { "seq512k-write", "seq512k-write-sync",
					    "seq512k-read" };
	struct nb_bars b = { "short", "Throughput", "MB/s", 0, 3, 4, rows, series,
			     v, NULL, NULL, NULL };
	const char *names[] = { "short" };
	char *gp;
	int texts;

	(void)state;
	assert_int_equal(nb_chart_bars(test_scratch, &b), 0);
	gp = gp_of("short");
	assert_non_null(strstr(gp, "set style data histograms\n"));
	assert_non_null(strstr(gp, "set xtics noenhanced nomirror scale 0\n"));
	assert_null(strstr(gp, "rotate"));
	/* a colour per series, its name in the key */
	assert_non_null(strstr(gp, "$data using 2:3:4:xtic(1) lt 1 title 'local', "
			       "$data using 5:6:7:xtic(1) lt 2 title 'nfs', "
			       "$data using 8:9:10:xtic(1) lt 3 title 'iscsi', "
			       "$data using 11:12:13:xtic(1) lt 4 title 'iscsi-sync'\n"));
	free(gp);
	assert_int_equal(nb_chart_render(test_scratch, names, 1, NULL), 0);
	assert_int_equal(svg_labels_inside("short", &texts), 0);
	print_message("%d labels\n", texts);
	assert_true(texts >= 3 + 4 + 2);    /* rows, key, title and axis */
}

static void long_labels_horizontal(void **state)
{
	static const char *const rows[] = {
		"seq512k-write: put_block MB/s, per-char write",
		"seq512k-write-sync: rewrite MB/s, the block rewrite phase",
		"seq512k-read: get_block MB/s, the block read phase",
		"rand4k-read: seeks/s, random seeks of bonnie++ 2.00" };
	struct nb_bars b = { "long", "Other figures", "MB/s", 1, 4, 4, rows, series,
			     v, NULL, NULL, NULL };
	const char *names[] = { "long" };
	char *gp;
	int texts;

	(void)state;
	assert_int_equal(nb_chart_bars(test_scratch, &b), 0);
	gp = gp_of("long");
	assert_non_null(strstr(gp, "with boxxyerror lt 1 title 'local'"));
	assert_non_null(strstr(gp, "with boxxyerror lt 4 title 'iscsi-sync'"));
	assert_non_null(strstr(gp, "set ytics nomirror scale 0 ('seq512k-write: "
			       "put_block MB/s, per-char write' 1.5, "));
	assert_non_null(strstr(gp, "set logscale x\n"));
	assert_non_null(strstr(gp, "set xlabel 'MB/s'\n"));
	assert_null(strstr(gp, "rotate"));
	free(gp);
	assert_int_equal(nb_chart_render(test_scratch, names, 1, NULL), 0);
	assert_int_equal(svg_labels_inside("long", &texts), 0);
	assert_true(texts >= 4 + 4 + 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(short_labels_vertical),
		cmocka_unit_test(long_labels_horizontal),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
