/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "chart.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/escape.h"
#include "../core/spawn.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define W 900                    /* the least size of a chart, pixels */
#define WMAX 1200                /* the most: shown unscaled on a 1280 px
				  * screen, its text at FONT px */
#define H 480
#define FONT "sans,12"
#define PANEL_W 400              /* a small multiple, pixels */
#define PANEL_H 300

void nb_chart_slug(char *out, size_t len, const char *s)
{
	size_t i = 0;

	for (; *s && i + 1 < len; s++) {
		if (*s == '%' && i + 4 < len) {         /* "%CPU" -> "pctCPU" */
			memcpy(out + i, "pct", 3);
			i += 3;
			continue;
		}
		out[i++] = (strchr("-_.", *s) || (*s >= 'a' && *s <= 'z') ||
			    (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')) ?
			   *s : '_';
	}
	out[i] = '\0';
}

int nb_chart_check_name(const char *name)
{
	if (!*name || *name == '.' ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789-_.") != strlen(name))
		return nb_err(-EINVAL, "chart name '%s' is not a file name of "
			      "letters, digits, - _ .", name);
	return 0;
}

void nb_chart_num(FILE *f, double v)
{
	if (!isfinite(v) || fabs(v) > NB_CHART_MAX)
		fputs(" ?", f);
	else if (fabs(v) < NB_CHART_MIN)
		fputs(" 0", f);
	else
		fprintf(f, " %.6g", v);
}

/* V on a log axis: missing where it is not above 0. */
static void gp_num_log(FILE *f, double v, int logy)
{
	nb_chart_num(f, logy && !(v >= NB_CHART_MIN) ? NAN : v);
}

/* Room for NSERIES key entries: below the plot when there are many. */
static void size_for(size_t nseries, int width, int *w, int *h, int *below)
{
	int per_row;

	*w = width < W ? W : width > WMAX ? WMAX : width;
	*h = H;
	/* the key below the plot, inside the picture: beside it, long
	 * configuration names ran off the left edge over the plot */
	*below = 1;
	if (*below) {
		per_row = *w / 280 > 0 ? *w / 280 : 1;
		*h += (int)((nseries + (size_t)per_row - 1) / (size_t)per_row) * 16 + 16;
	}
}

/* gnuplot has 8 colors and then repeats them: past 8 series, give each
 * its own (hues a golden angle apart). */
static void colors(FILE *f, size_t nseries)
{
	for (size_t i = 0; nseries > 8 && i < nseries; i++) {
		double hue = fmod((double)i * 0.618033988749895, 1.0) * 6, v = 0.85;
		double s = i % 2 ? 0.55 : 0.8, c = v * s;
		double x = c * (1 - fabs(fmod(hue, 2) - 1)), m = v - c, r, g, b;
		int k = (int)hue;

		r = k == 0 || k == 5 ? c : k == 1 || k == 4 ? x : 0;
		g = k == 1 || k == 2 ? c : k == 0 || k == 3 ? x : 0;
		b = k == 3 || k == 4 ? c : k == 2 || k == 5 ? x : 0;
		fprintf(f, "set linetype %zu lc rgb \"#%02x%02x%02x\"\n", i + 1,
			(int)((r + m) * 255), (int)((g + m) * 255), (int)((b + m) * 255));
	}
}

/* A chart's script being written: into memory, then atomically to NAME.gp. */
struct gp {
	FILE *f;
	char *buf;
	size_t len;
	const char *name;
	int w, h;
};

/* Open the script and write what every chart starts with: the PNG
 * terminal sized for NSERIES key entries and a plot WIDTH pixels wide,
 * title, y label, grid, key and colors. */
static int gp_begin(struct gp *g, const char *name, const char *title,
		    const char *ylabel, size_t nseries, int width)
{
	int below;

	*g = (struct gp){ .name = name };
	if (nb_chart_check_name(name))
		return -EINVAL;
	g->f = open_memstream(&g->buf, &g->len);
	if (!g->f)
		return nb_err(-ENOMEM, "out of memory");
	size_for(nseries, width, &g->w, &g->h, &below);
	fprintf(g->f, "# drawn by nasbench report: gnuplot %s.gp writes %s.png and %s.svg\n"
		"set terminal pngcairo size %d,%d noenhanced font \"" FONT "\"\n"
		"set output '%s.png'\n", name, name, name, g->w, g->h, name);
	fputs("set title ", g->f), nb_gp_str(g->f, title), fputs(" noenhanced\n", g->f);
	fputs("set ylabel ", g->f), nb_gp_str(g->f, ylabel), fputc('\n', g->f);
	fputs("set datafile missing \"?\"\n"
	      "set grid ytics\n", g->f);
	fputs(below ? "set key below horizontal noenhanced\n" :
		      "set key outside right top noenhanced\n", g->f);
	colors(g->f, nseries);
	return 0;
}

/* The script written (and closed) saved as DIR/NAME.gp. */
static int gp_save(struct gp *g, const char *dir)
{
	char path[4300];
	int rc;

	snprintf(path, sizeof(path), "%s/%s.gp", dir, g->name);
	rc = nb_atomic_write(path, g->buf, g->len, NULL);
	free(g->buf);
	return rc;
}

/* The SVG replot, then the script saved as DIR/NAME.gp. */
static int gp_end(struct gp *g, const char *dir)
{
	int rc;

	fprintf(g->f, "set terminal svg size %d,%d noenhanced font \"" FONT "\" "
		"background \"white\"\nset output '%s.svg'\nreplot\n", g->w, g->h,
		g->name);
	rc = ferror(g->f);
	if (fclose(g->f) || rc) {
		free(g->buf);
		return nb_err(-ENOMEM, "out of memory writing chart '%s'", g->name);
	}
	return gp_save(g, dir);
}

#define CHAR_PX 7.5                /* a character of FONT, roughly */
#define BAR_PX 14                  /* a horizontal bar, pixels */
#define KEY_PX 200                 /* a key entry: its sample and name */

/* The data block: a line per row, its label then value, low, high per
 * series. */
static void bars_data(FILE *f, const struct nb_bars *b)
{
	fputs("$data << EOD\n", f);
	for (size_t r = 0; r < b->nrows; r++) {
		nb_gp_datum(f, b->rows[r]);
		for (size_t s = 0; s < b->nseries; s++) {
			size_t k = r * b->nseries + s;

			double v = b->v[k], lo = b->lo ? b->lo[k] : v;
			double hi = b->hi ? b->hi[k] : v;

			/* on a log axis, a low end not above 0 is no error bar */
			gp_num_log(f, v, b->logy);
			gp_num_log(f, b->logy && !(lo >= NB_CHART_MIN) ? v : lo, b->logy);
			gp_num_log(f, hi, b->logy);
		}
		fputc('\n', f);
	}
	fputs("EOD\n", f);
}

/* The longest row label, in characters. */
static size_t longest(const struct nb_bars *b)
{
	size_t m = 0;

	for (size_t r = 0; r < b->nrows; r++)
		m = strlen(b->rows[r]) > m ? strlen(b->rows[r]) : m;
	return m;
}

/* Vertical bars: a cluster per row, its label level under it (wide
 * enough: nb_chart_bars chose so), a colour per series. */
static int bars_vertical(const char *dir, const struct nb_bars *b, int width)
{
	struct gp g;
	FILE *f;
	int rc = gp_begin(&g, b->name, b->title, b->ylabel, b->nseries, width);

	if (rc)
		return rc;
	f = g.f;
	fputs("set style data histograms\n"
	      "set style histogram errorbars gap 1 lw 1\n"
	      "set style fill solid 0.8 border -1\n"
	      "set xtics noenhanced nomirror scale 0\n", f);
	fputs(b->logy ? "set logscale y\n" : "set yrange [0:*]\n", f);
	if (b->xlabel)
		fputs("set xlabel ", f), nb_gp_str(f, b->xlabel), fputc('\n', f);
	bars_data(f, b);
	fputs("plot", f);
	for (size_t s = 0; s < b->nseries; s++) {
		fprintf(f, "%s $data using %zu:%zu:%zu:xtic(1) lt %zu title ", s ? "," : "",
			2 + 3 * s, 3 + 3 * s, 4 + 3 * s, s + 1);
		nb_gp_str(f, b->series[s]);
	}
	fputc('\n', f);
	return gp_end(&g, dir);
}

/* Horizontal bars: a row's cluster on its own line, the label at the
 * left (gnuplot makes the margin as wide as the longest), the values
 * across; the first row on top. */
static int bars_horizontal(const char *dir, const struct nb_bars *b)
{
	size_t per = b->nseries + 1;     /* a cluster and its gap */
	double floor_x = 0, lo = INFINITY;
	struct gp g;
	FILE *f;
	int below, krows;

	for (size_t k = 0; k < b->nrows * b->nseries; k++)
		if (b->v[k] >= NB_CHART_MIN && b->v[k] <= NB_CHART_MAX)
			lo = fmin(lo, b->lo && b->lo[k] >= NB_CHART_MIN ? b->lo[k] : b->v[k]);
	if (b->logy && isfinite(lo))     /* bars rise from a decade below */
		floor_x = pow(10, floor(log10(lo)));
	g = (struct gp){ .name = b->name };
	g.f = f = open_memstream(&g.buf, &g.len);
	if (!f)
		return nb_err(-ENOMEM, "out of memory");
	/* the picture as tall as its bars, the key below them */
	size_for(b->nseries, WMAX, &g.w, &g.h, &below);
	g.h += (int)(b->nrows * per) * BAR_PX - (H - 160);
	fprintf(f, "# drawn by nasbench report: gnuplot %s.gp writes %s.png and %s.svg\n"
		"set terminal pngcairo size %d,%d noenhanced font \"" FONT "\"\n"
		"set output '%s.png'\n", b->name, b->name, b->name, g.w, g.h, b->name);
	fputs("set title ", f), nb_gp_str(f, b->title), fputs(" noenhanced\n", f);
	fputs("set xlabel ", f), nb_gp_str(f, b->ylabel), fputc('\n', f);
	/* the key centred on the picture under the axis (under the plot,
	 * past the long labels' margin, it ran off the right edge), and a
	 * right margin for the last tick's number */
	krows = (int)((b->nseries * KEY_PX + (size_t)g.w - 41) / (size_t)(g.w - 40));
	fprintf(f, "set datafile missing \"?\"\nset grid xtics\nset rmargin 6\n"
		"set key at screen 0.5, screen 0.01 center bottom horizontal "
		"noenhanced\nset bmargin at screen %.4f\n",
		(double)(krows * 18 + 62) / g.h);
	colors(f, b->nseries);
	fputs("set style fill solid 0.8 border -1\nset ytics nomirror scale 0 (", f);
	for (size_t r = 0; r < b->nrows; r++) {
		fputs(r ? ", " : "", f), nb_gp_str(f, b->rows[r]);
		fprintf(f, " %g", (double)(r * per) + (double)(b->nseries - 1) / 2);
	}
	/* the first row on top */
	fprintf(f, ")\nset yrange [%g:%g]\n", (double)(b->nrows * per) - 1.3, -0.7);
	fputs(b->logy ? "set logscale x\n" : "set xrange [0:*]\n", f);
	bars_data(f, b);
	fputs("plot", f);
	for (size_t s = 0; s < b->nseries; s++) {
		size_t c = 2 + 3 * s;

		fprintf(f, "%s $data using %zu:($0*%zu+%zu):(%g):%zu:($0*%zu+%zu-0.4):"
			"($0*%zu+%zu+0.4) with boxxyerror lt %zu title ", s ? "," : "",
			c, per, s, floor_x, c, per, s, per, s, s + 1);
		nb_gp_str(f, b->series[s]);
		fprintf(f, ", $data using %zu:($0*%zu+%zu):%zu:%zu with xerrorbars "
			"lc rgb \"black\" pt 0 notitle", c, per, s, c + 1, c + 2);
	}
	fputc('\n', f);
	return gp_end(&g, dir);
}

int nb_chart_bars(const char *dir, const struct nb_bars *b)
{
	if (nb_chart_check_name(b->name))
		return -EINVAL;
	/* a bar is about 12 pixels: wide enough for every configuration */
	int width = 150 + (int)(b->nrows * (b->nseries + 1)) * 12;
	/* gnuplot gives each cluster 1/(rows + 1) of the plot: as wide as
	 * the longest label, or the bars on their side when even the widest
	 * picture has no room for it (none cut, none slanted over its
	 * neighbours) */
	int need = 150 + (int)((double)(b->nrows + 1) * ((double)longest(b) * CHAR_PX + 16));

	if (need > WMAX)
		return bars_horizontal(dir, b);
	return bars_vertical(dir, b, need > width ? need : width);
}

int nb_chart_lines(const char *dir, const struct nb_lines *l)
{
	return nb_chart_lines_ax(dir, l, 0, 0);
}

int nb_chart_lines_ax(const char *dir, const struct nb_lines *l, int logx,
		      int percent)
{
	struct gp g;
	FILE *f;
	int rc = gp_begin(&g, l->name, l->title, l->ylabel, l->nseries, W);

	if (rc)
		return rc;
	f = g.f;
	fputs("set xlabel ", f), nb_gp_str(f, l->xlabel), fputc('\n', f);
	fputs(percent ? "set yrange [0:100]\n" :
	      "set yrange [0:*]\nset offsets 0, 0, graph 0.05, 0\n", f);
	if (logx)
		fputs("set logscale x\nset grid xtics\n", f);
	for (size_t s = 0; s < l->nseries; s++) {
		fprintf(f, "$s%zu << EOD\n", s);
		for (size_t i = 0; i < l->n[s]; i++)
			nb_chart_num(f, l->x[s][i]), nb_chart_num(f, l->y[s][i]), fputc('\n', f);
		fputs("EOD\n", f);
	}
	fputs("plot", f);
	for (size_t s = 0; s < l->nseries; s++) {
		fprintf(f, "%s $s%zu using 1:2 with lines lw 2 title ", s ? "," : "", s);
		nb_gp_str(f, l->series[s]);
	}
	fputc('\n', f);
	return gp_end(&g, dir);
}

/* The series of every panel, once each, in order: a series' colour. */
static size_t series_index(const char **all, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(all[i], name))
			return i;
	all[*n] = name;
	return (*n)++;
}

/* The panels' plots, written once per terminal (a multiplot cannot be
 * replotted). */
static void panels_body(FILE *f, const struct nb_panels *p, const char **all,
			size_t nall, int rows, int cols)
{
	fputs("set multiplot layout ", f);
	fprintf(f, "%d,%d title ", rows, cols), nb_gp_str(f, p->title);
	fputs(" noenhanced\n", f);
	for (size_t k = 0; k < p->npanels; k++) {
		const struct nb_lines *l = &p->panel[k];

		fputs("set title ", f), nb_gp_str(f, l->title), fputs(" noenhanced\n", f);
		fputs("plot", f);
		for (size_t s = 0; s < l->nseries; s++) {
			size_t c = series_index(all, &nall, l->series[s]);

			fprintf(f, "%s $p%zus%zu using 1:2 with lines lw 2 lt %zu title ",
				s ? "," : "", k, s, c + 1);
			nb_gp_str(f, l->series[s]);
		}
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
}

int nb_chart_panels(const char *dir, const struct nb_panels *p)
{
	const char **all;
	size_t nall = 0, most = 0;
	int cols = p->npanels < 3 ? (int)p->npanels : 3, rows, w, h, rc;
	struct gp g = { .name = p->name };
	FILE *f;

	if (nb_chart_check_name(p->name))
		return -EINVAL;
	all = calloc(64 * p->npanels + 1, sizeof(*all));
	if (!all || !p->npanels) {
		free(all);
		return nb_err(-ENOMEM, "out of memory");
	}
	rows = (int)((p->npanels + (size_t)cols - 1) / (size_t)cols);
	for (size_t k = 0; k < p->npanels; k++) {
		most = p->panel[k].nseries > most ? p->panel[k].nseries : most;
		for (size_t s = 0; s < p->panel[k].nseries; s++)
			series_index(all, &nall, p->panel[k].series[s]);
	}
	w = cols * PANEL_W < W ? W : cols * PANEL_W;
	/* the last key line clear of the bottom edge (it touched it) */
	h = rows * (PANEL_H + (int)most * 18 + 16) + 30;
	g.f = f = open_memstream(&g.buf, &g.len);
	if (!f) {
		free(all);
		return nb_err(-ENOMEM, "out of memory");
	}
	fprintf(f, "# drawn by nasbench report: gnuplot %s.gp writes %s.png and %s.svg\n"
		"set datafile missing \"?\"\nset grid ytics\n"
		"set key below vertical noenhanced\n", p->name, p->name, p->name);
	colors(f, nall);
	fputs("set xlabel ", f), nb_gp_str(f, p->xlabel), fputc('\n', f);
	fputs("set ylabel ", f), nb_gp_str(f, p->ylabel), fputc('\n', f);
	fputs(p->percent ? "set yrange [0:100]\n" : "set yrange [0:*]\n", f);
	/* a label every second decade: eight decades in a 400 px panel ran
	 * their numbers into each other ("1000001e+06") */
	if (p->logx)
		fputs("set logscale x\nset grid xtics\nset xtics 100\n", f);
	for (size_t k = 0; k < p->npanels; k++)
		for (size_t s = 0; s < p->panel[k].nseries; s++) {
			fprintf(f, "$p%zus%zu << EOD\n", k, s);
			for (size_t i = 0; i < p->panel[k].n[s]; i++)
				nb_chart_num(f, p->panel[k].x[s][i]),
				nb_chart_num(f, p->panel[k].y[s][i]), fputc('\n', f);
			fputs("EOD\n", f);
		}
	fprintf(f, "set terminal pngcairo size %d,%d noenhanced font \"" FONT "\"\n"
		"set output '%s.png'\n", w, h, p->name);
	panels_body(f, p, all, nall, rows, cols);
	fprintf(f, "set terminal svg size %d,%d noenhanced font \"" FONT "\" "
		"background \"white\"\nset output '%s.svg'\n", w, h, p->name);
	panels_body(f, p, all, nall, rows, cols);
	free(all);
	rc = ferror(f);
	if (fclose(f) || rc) {
		free(g.buf);
		return nb_err(-ENOMEM, "out of memory writing chart '%s'", p->name);
	}
	return gp_save(&g, dir);
}

/* Whether the Y values of L (and LIMIT) span 30x or more. */
static int wide_y(const struct nb_lines *l, double limit)
{
	double lo = limit > 0 ? limit : INFINITY, hi = limit > 0 ? limit : 0;

	for (size_t s = 0; s < l->nseries; s++)
		for (size_t i = 0; i < l->n[s]; i++)
			if (l->y[s][i] > 0) {
				lo = fmin(lo, l->y[s][i]);
				hi = fmax(hi, l->y[s][i]);
			}
	return hi > 0 && hi / lo >= 30;
}

/* Series S's knee and capacity points as data blocks $kS and $cS. */
static void curve_marks(FILE *f, const struct nb_curve *c, size_t s)
{
	if (c->knee_x && isfinite(c->knee_x[s])) {
		fprintf(f, "$k%zu << EOD\n", s);
		nb_chart_num(f, c->knee_x[s]), nb_chart_num(f, c->knee_y[s]);
		fputs("\nEOD\n", f);
	}
	if (c->cap_x && isfinite(c->cap_x[s])) {
		fprintf(f, "$c%zu << EOD\n", s);
		nb_chart_num(f, c->cap_x[s]), nb_chart_num(f, c->cap_y[s]);
		fputs("\nEOD\n", f);
	}
}

int nb_chart_curve(const char *dir, const struct nb_curve *c)
{
	return nb_chart_curve_ax(dir, c, 0, NULL, NULL);
}

int nb_chart_curve_ax(const char *dir, const struct nb_curve *c, int logx,
		      const char *knee, const char *cap)
{
	const struct nb_lines *l = &c->l;
	struct gp g;
	FILE *f;
	int rc = gp_begin(&g, l->name, l->title, l->ylabel, 3 * l->nseries + 1, W);

	if (rc)
		return rc;
	f = g.f;
	fputs("set xlabel ", f), nb_gp_str(f, l->xlabel), fputc('\n', f);
	fputs(logx ? "set logscale x 2\nset grid xtics\nset offsets graph 0.05, "
	      "graph 0.05, graph 0.05, 0\n" : "set xrange [0:*]\nset grid xtics\n"
	      "set offsets 0, graph 0.05, graph 0.05, 0\n", f);
	fputs(wide_y(l, c->limit) ? "set logscale y\n" : "set yrange [0:*]\n", f);
	for (size_t s = 0; s < l->nseries; s++) {
		fprintf(f, "$s%zu << EOD\n", s);
		for (size_t i = 0; i < l->n[s]; i++)
			nb_chart_num(f, l->x[s][i]), nb_chart_num(f, l->y[s][i]), fputc('\n', f);
		fputs("EOD\n", f);
		curve_marks(f, c, s);
	}
	fputs("plot", f);
	for (size_t s = 0; s < l->nseries; s++) {
		fprintf(f, "%s $s%zu using 1:2 with linespoints lw 2 pt 7 lt %zu title ",
			s ? "," : "", s, s + 1);
		nb_gp_str(f, l->series[s]);
		if (c->knee_x && isfinite(c->knee_x[s])) {
			fprintf(f, ", $k%zu using 1:2 with points pt 6 ps 2.5 lw 2 lt %zu "
				"title ", s, s + 1);
			nb_gp_str(f, knee ? knee : "knee");
		}
		if (c->cap_x && isfinite(c->cap_x[s])) {
			fprintf(f, ", $c%zu using 1:2 with points pt 9 ps 2.5 lt %zu "
				"title ", s, s + 1);
			nb_gp_str(f, cap ? cap : "capacity");
		}
	}
	if (c->limit >= NB_CHART_MIN && c->limit <= NB_CHART_MAX) {
		fprintf(f, ", %.6g with lines dt 2 lw 2 lc rgb \"#c00000\" title ",
			c->limit);
		nb_gp_str(f, c->limit_title ? c->limit_title : "objective");
	}
	fputc('\n', f);
	return gp_end(&g, dir);
}

struct job {
	struct nb_spawn sp;
	const char *name;
	char *argv[3];
	char gp[300];
	char errpath[4300];
};

/* Start gnuplot on J's NAME.gp in DIR: output to the files the script
 * names, its complaints into DIR/.NAME.err. */
static int start(struct job *j, const char *dir, const char *prog)
{
	snprintf(j->gp, sizeof(j->gp), "%s.gp", j->name);
	snprintf(j->errpath, sizeof(j->errpath), "%s/.%s.err", dir, j->name);
	j->argv[0] = (char *)prog;
	j->argv[1] = j->gp;
	j->argv[2] = NULL;
	memset(&j->sp, 0, sizeof(j->sp));
	j->sp.argv = j->argv;
	j->sp.dir = dir;
	j->sp.out_path = "/dev/null";
	j->sp.err_path = j->errpath;
	return nb_spawn_start(&j->sp);
}

/* The first lines of gnuplot's complaint, on one line. */
static void read_err(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;
	int c, nl = 0;

	out[0] = '\0';
	if (!f)
		return;
	while ((c = fgetc(f)) != EOF && n + 1 < len && nl < 6) {
		if (c == '\n') {
			nl++;
			c = ' ';
		}
		if (c != ' ' || (n && out[n - 1] != ' '))
			out[n++] = (char)c;
	}
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	fclose(f);
}

static void reap(struct job *j, int *rc)
{
	char msg[600];
	int w = nb_spawn_wait(&j->sp);

	if (!*rc && w)
		*rc = w;
	if (!*rc && j->sp.status) {
		read_err(j->errpath, msg, sizeof(msg));
		*rc = nb_err(-EIO, "gnuplot failed on '%s.gp'%s%s%s", j->name,
			     j->sp.signal ? " (killed by a signal)" : "",
			     *msg ? ": " : "", msg);
	}
	nb_spawn_free(&j->sp);
	unlink(j->errpath);
}

int nb_chart_render(const char *dir, const char *const *names, size_t n,
		    const char *prog)
{
	struct job jobs[2];
	size_t next = 0, running = 0;
	int rc = 0;

	if (!prog)
		prog = getenv("NASBENCH_GNUPLOT") ?: "gnuplot";
	while (next < n || running) {
		if (next < n && running < 2 && !rc) {
			struct job *j = &jobs[running];

			j->name = names[next++];
			rc = start(j, dir, prog);
			if (rc)
				unlink(j->errpath);
			if (rc == -ENOENT)
				rc = nb_err(-ENOENT, "cannot run '%s': not found "
					    "(install gnuplot-nox, or set "
					    "NASBENCH_GNUPLOT)", prog);
			else if (rc == -EACCES)
				rc = nb_err(-ENOENT, "cannot run '%s': %s (install "
					    "gnuplot-nox, or set NASBENCH_GNUPLOT)",
					    prog, strerror(EACCES));
			if (rc)
				continue;
			running++;
			continue;
		}
		if (!running)
			break;
		reap(&jobs[0], &rc);
		jobs[0] = jobs[--running];
	}
	return rc;
}

void nb_chart_svg_inline(FILE *out, const char *p, const char *name,
			 const char *title)
{
	static const char *const refs[] = { "id=\"", "href=\"#", "url(#", "id='",
					     "href='#" };
	const size_t nrefs = sizeof(refs) / sizeof(refs[0]);

	while (*p) {
		size_t i, best = 0;
		const char *at = NULL, *t = strstr(p, "<title>Gnuplot</title>");

		for (i = 0; i < nrefs; i++) {
			const char *q = strstr(p, refs[i]);

			if (q && (!at || q < at))
				at = q, best = i;
		}
		if (t && (!at || t < at)) {
			fwrite(p, 1, (size_t)(t - p), out);
			fputs("<title>", out), nb_xml_escape(out, title);
			fputs("</title>", out);
			p = t + strlen("<title>Gnuplot</title>");
			continue;
		}
		if (!at) {
			fputs(p, out);
			break;
		}
		at += strlen(refs[best]);
		fwrite(p, 1, (size_t)(at - p), out);
		nb_xml_escape(out, name);
		fputc('-', out);
		p = at;
	}
}
