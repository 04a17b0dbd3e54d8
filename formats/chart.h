/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chart.h - charts drawn by gnuplot: nasbench writes a self-contained .gp
 * script (data inline) per chart, then runs `gnuplot NAME.gp` in the
 * report directory, which writes NAME.png (pngcairo) and NAME.svg.  The
 * script stays next to the charts so a user can restyle and re-run it.
 */
#ifndef NB_REPORT_CHART_H
#define NB_REPORT_CHART_H

#include <stddef.h>
#include <stdio.h>

/* Grouped bars: one cluster per row (x), one bar per series, with an
 * error bar from LO to HI.  Values are row-major (row * nseries + series);
 * NAN is missing.  0 or -errno (message set). */
struct nb_bars {
	const char *name, *title, *ylabel;
	int logy;
	size_t nrows, nseries;
	const char *const *rows, *const *series;
	const double *v, *lo, *hi;
	const char *xlabel;      /* the x axis' title, or NULL */
};
int nb_chart_bars(const char *dir, const struct nb_bars *b);

/* Lines: series S has N[S] points (X[S][i], Y[S][i]). */
struct nb_lines {
	const char *name, *title, *xlabel, *ylabel;
	size_t nseries;
	const char *const *series;
	const size_t *n;
	const double *const *x, *const *y;
};
int nb_chart_lines(const char *dir, const struct nb_lines *l);
/* The same with a log x axis (LOGX) and y from 0 to 100 (PERCENT). */
int nb_chart_lines_ax(const char *dir, const struct nb_lines *l, int logx,
		      int percent);

/* Small multiples: one panel per NLINES entry (its NAME unused, its TITLE
 * the panel's), on the same axes (LOGX, PERCENT as above), up to three a
 * row; a series has the same colour in every panel.  One chart for many
 * workloads: the report's budget is charts, not panels. */
struct nb_panels {
	const char *name, *title, *xlabel, *ylabel;
	int logx, percent;
	size_t npanels;
	const struct nb_lines *panel;
};
int nb_chart_panels(const char *dir, const struct nb_panels *p);
/* A response-time curve (docs/capacity.md): series S's steps as a line
 * with points (X throughput, Y latency); LIMIT > 0 the objective as a
 * dashed level line titled LIMIT_TITLE; per series S its knee (KNEE_X[S],
 * KNEE_Y[S]) and capacity (CAP_X[S], CAP_Y[S]) marked where not NAN.  Y
 * on a log scale when its values span 30x or more. */
struct nb_curve {
	struct nb_lines l;
	double limit;
	const char *limit_title;
	const double *knee_x, *knee_y, *cap_x, *cap_y;
};
int nb_chart_curve(const char *dir, const struct nb_curve *c);
/* The same with x on a log scale (base 2) where LOGX, and the marks
 * titled KNEE and CAP (NULL: "knee", "capacity"). */
int nb_chart_curve_ax(const char *dir, const struct nb_curve *c, int logx,
		      const char *knee, const char *cap);

/* Run gnuplot on NAME.gp for each name, two at a time.  PROG is the
 * gnuplot program (NULL: $NASBENCH_GNUPLOT or "gnuplot").  0; -ENOENT when
 * gnuplot cannot be run ("gnuplot not found ..."); -EIO when it failed on
 * a script (message names the .gp file and gnuplot's own error). */
int nb_chart_render(const char *dir, const char *const *names, size_t n,
		    const char *prog);

/* V as a figure of a script's data, " 1234.5": " ?" (missing) when not
 * finite or beyond NB_CHART_MAX, " 0" below NB_CHART_MIN (gnuplot's axes
 * and log scales fail on what a result file may hold, 1e308 or 5e-324). */
#define NB_CHART_MAX 1e300
#define NB_CHART_MIN 1e-300
void nb_chart_num(FILE *f, double v);

/* 0 when NAME can name a chart's files in its directory (a slug:
 * letters, digits, - _ . and no leading dot), else -EINVAL with the
 * message set: a name goes into the script and into paths as it is.
 * Every nb_chart_* checks it.  Text of a chart (titles, labels, series)
 * reaches the script only through core/escape.h's nb_gp_str() and
 * nb_gp_datum(): gnuplot runs `commands` inside double quotes. */
int nb_chart_check_name(const char *name);

/* A failure walk's timeline (chart_timeline.c, docs/failure.md): over the
 * walk's seconds, the box states as bands (BAND_STATE[i] from BAND_X0[i]
 * to BAND_X1[i]: healthy, degraded, rebuilding, rebuilt), events as
 * dashed lines (EVENT_X, EVENT_NAME); above, each series' throughput
 * (MB/s); below, its p99 latency (ms, a log scale) and the rebuild's
 * percent on the right axis (PCT NAN: a break between two rebuilds).
 * Series S has N[S] points (T, MBS, LAT_MS; NAN is missing); a gap over
 * 2 s breaks its line. */
struct nb_timeline {
	const char *name, *title;
	size_t nbands;
	const double *band_x0, *band_x1;
	const char *const *band_state;
	size_t nevents;
	const double *event_x;
	const char *const *event_name;
	size_t nseries;
	const char *const *series;
	const size_t *n;
	const double *const *t, *const *mbs, *const *lat_ms;
	size_t npct;
	const double *pct_t, *pct;
};
int nb_chart_timeline(const char *dir, const struct nb_timeline *tl);

/* gnuplot's SVG P (from "<svg") into an HTML page OUT, its ids made
 * unique in the page (each chart has a "gnuplot_canvas"; prefixed with
 * NAME, and the references to them too) and its tooltip TITLE, not
 * "Gnuplot" (report.html, trend.html). */
void nb_chart_svg_inline(FILE *out, const char *p, const char *name,
			 const char *title);

/* A file-name-safe form of S ("rand4k-read", "a_b"). */
void nb_chart_slug(char *out, size_t len, const char *s);

#endif
