/*
 * chart.h - charts drawn by gnuplot: nasbench writes a self-contained .gp
 * script (data inline) per chart, then runs `gnuplot NAME.gp` in the
 * report directory, which writes NAME.png (pngcairo) and NAME.svg.  The
 * script stays next to the charts so a user can restyle and re-run it.
 */
#ifndef NB_REPORT_CHART_H
#define NB_REPORT_CHART_H

#include <stddef.h>

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

/* Run gnuplot on NAME.gp for each name, two at a time.  PROG is the
 * gnuplot program (NULL: $NASBENCH_GNUPLOT or "gnuplot").  0; -ENOENT when
 * gnuplot cannot be run ("gnuplot not found ..."); -EIO when it failed on
 * a script (message names the .gp file and gnuplot's own error). */
int nb_chart_render(const char *dir, const char *const *names, size_t n,
		    const char *prog);

/* A file-name-safe form of S ("rand4k-read", "a_b"). */
void nb_chart_slug(char *out, size_t len, const char *s);

#endif
