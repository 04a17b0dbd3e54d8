/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chart_timeline.c - a failure walk's timeline as a gnuplot script. */
#include "chart.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/escape.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TW 1100
#define TH 800
#define FONT "sans,12"

/* A band's colour: the state's. */
static const char *band_color(const char *state)
{
	static const char *const c[][2] = {
		{ "healthy", "#4daf4a" }, { "degraded", "#e41a1c" },
		{ "rebuilding", "#ff7f00" }, { "rebuilt", "#377eb8" },
		{ "idle rebuild", "#ff7f00" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (!strcmp(c[i][0], state))
			return c[i][1];
	return "#999999";
}

static void data(FILE *f, const struct nb_timeline *tl)
{
	for (size_t s = 0; s < tl->nseries; s++) {
		fprintf(f, "$s%zu << EOD\n", s);
		for (size_t i = 0; i < tl->n[s]; i++) {
			/* a gap (another workload's turn): the line breaks */
			if (i && tl->t[s][i] - tl->t[s][i - 1] > 2)
				fputc('\n', f);
			nb_chart_num(f, tl->t[s][i]);
			nb_chart_num(f, tl->mbs[s][i]);
			nb_chart_num(f, tl->lat_ms[s][i] >= NB_CHART_MIN ?
				     tl->lat_ms[s][i] : NAN);
			fputc('\n', f);
		}
		fputs("EOD\n", f);
	}
	fputs("$pct << EOD\n", f);
	for (size_t i = 0; i < tl->npct; i++)
		if (isnan(tl->pct[i]))
			fputc('\n', f);     /* between two rebuilds */
		else
			nb_chart_num(f, tl->pct_t[i]), nb_chart_num(f, tl->pct[i]),
			fputc('\n', f);
	fputs("EOD\n", f);
}

static double x_max(const struct nb_timeline *tl);

/* The bands and events, on both panels (objects and arrows persist); an
 * event's name is left out where it would print over the one before. */
static void marks(FILE *f, const struct nb_timeline *tl)
{
	double last = -1e9, gap = x_max(tl) * 0.025;

	for (size_t i = 0; i < tl->nbands; i++) {
		fprintf(f, "set object %zu rect from first %.3f, graph 0 to first "
			"%.3f, graph 1 behind fc rgb \"%s\" fs solid 0.13 noborder\n",
			i + 1, tl->band_x0[i], tl->band_x1[i],
			band_color(tl->band_state[i]));
		fprintf(f, "set label %zu ", i + 1);
		nb_gp_str(f, tl->band_state[i]);
		fprintf(f, " at first %.3f, graph 0.96 left offset 0.3,0 tc rgb "
			"\"%s\" front\n", tl->band_x0[i], band_color(tl->band_state[i]));
	}
	for (size_t i = 0; i < tl->nevents; i++) {
		fprintf(f, "set arrow %zu from first %.3f, graph 0 to first %.3f, "
			"graph 1 nohead dt 3 lc rgb \"#555555\" front\n", i + 1,
			tl->event_x[i], tl->event_x[i]);
		if (tl->event_x[i] - last < gap)
			continue;
		last = tl->event_x[i];
		fprintf(f, "set label %zu ", tl->nbands + i + 1);
		nb_gp_str(f, tl->event_name[i]);
		fprintf(f, " at first %.3f, graph 0.04 left rotate by 90 offset "
			"-0.6,0 tc rgb \"#555555\" front\n", tl->event_x[i]);
	}
}

static void series_plot(FILE *f, const struct nb_timeline *tl, int col,
			int titles)
{
	for (size_t s = 0; s < tl->nseries; s++) {
		fprintf(f, "%s $s%zu using 1:%d with linespoints pt 7 ps 0.35 lw 1.2 "
			"lt %zu ", s ? "," : "", s, col, s + 1);
		if (titles)
			fputs("title ", f), nb_gp_str(f, tl->series[s]);
		else
			fputs("notitle", f);
	}
}

/* The two panels, written once per terminal (a multiplot is no replot). */
static void body(FILE *f, const struct nb_timeline *tl)
{
	fprintf(f, "set multiplot layout %d,1 title ", tl->nseries ? 2 : 1);
	nb_gp_str(f, tl->title);
	/* both panels on one time axis: the same margins, whatever the
	 * right axis of the lower one takes */
	fputs(" noenhanced\nset lmargin at screen 0.09\nset rmargin at screen 0.91\n"
	      "set offsets 0, 0, graph 0.08, 0\n", f);
	marks(f, tl);
	/* no series (iterations under 2 s keep none): the progress alone */
	if (tl->nseries) {
		fputs("set title \"the client's throughput\"\n"
		      "set ylabel \"MB/s\"\nset yrange [0:*]\nunset logscale y\n"
		      "unset y2tics\nunset y2label\nset key below horizontal noenhanced\n"
		      "plot", f);
		series_plot(f, tl, 2, 1);
	}
	fputs("\nset title \"the client's p99 latency (each second) and the "
	      "rebuild's progress\"\n"
	      "set ylabel \"p99 latency, ms\"\nset logscale y\nset yrange [*:*]\n"
	      "set offsets 0, 0, 0, 0\n"
	      "set y2label \"rebuild %\"\nset y2range [0:100]\nset y2tics 0,20,100\n"
	      "set key below horizontal noenhanced\nplot", f);
	series_plot(f, tl, 3, 0);
	fprintf(f, "%s $pct using 1:2 axes x1y2 with linespoints pt 5 ps 0.5 lw 3 "
		"lc rgb \"black\" title \"rebuild %%\"\nunset multiplot\n",
		tl->nseries ? "," : "");
}

/* The walk's last second on the chart: both panels one time axis. */
static double x_max(const struct nb_timeline *tl)
{
	double m = 1;

	for (size_t i = 0; i < tl->nbands; i++)
		m = tl->band_x1[i] > m ? tl->band_x1[i] : m;
	for (size_t i = 0; i < tl->nevents; i++)
		m = tl->event_x[i] > m ? tl->event_x[i] : m;
	for (size_t i = 0; i < tl->npct; i++)
		m = tl->pct_t[i] > m ? tl->pct_t[i] : m;
	for (size_t s = 0; s < tl->nseries; s++)
		if (tl->n[s])
			m = tl->t[s][tl->n[s] - 1] > m ? tl->t[s][tl->n[s] - 1] : m;
	return ceil(m * 1.02);
}

int nb_chart_timeline(const char *dir, const struct nb_timeline *tl)
{
	char *buf = NULL, path[4300];
	size_t len = 0;
	FILE *f;
	int rc;

	if (nb_chart_check_name(tl->name))
		return -EINVAL;
	f = open_memstream(&buf, &len);
	if (!f)
		return nb_err(-ENOMEM, "out of memory");
	fprintf(f, "# drawn by nasbench report: gnuplot %s.gp writes %s.png and "
		"%s.svg\n", tl->name, tl->name, tl->name);
	fputs("set datafile missing \"?\"\nset grid ytics\n"
	      "set xlabel \"seconds of the failure walk\"\n", f);
	fprintf(f, "set xrange [0:%g]\n", x_max(tl));
	data(f, tl);
	fprintf(f, "set terminal pngcairo size %d,%d noenhanced font \"" FONT "\"\n"
		"set output '%s.png'\n", TW, TH, tl->name);
	body(f, tl);
	fprintf(f, "set terminal svg size %d,%d noenhanced font \"" FONT "\" "
		"background \"white\"\nset output '%s.svg'\n", TW, TH, tl->name);
	body(f, tl);
	rc = ferror(f);
	if (fclose(f) || rc) {
		free(buf);
		return nb_err(-ENOMEM, "out of memory writing chart '%s'", tl->name);
	}
	snprintf(path, sizeof(path), "%s/%s.gp", dir, tl->name);
	rc = nb_atomic_write(path, buf, len, NULL);
	free(buf);
	return rc;
}
