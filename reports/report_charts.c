/*
 * report_charts.c - the charts of 'nasbench report' as gnuplot inputs
 * (reports/chart.c draws them): throughput and IOPS across workloads, per
 * workload the latency percentiles, the throughput over time and the
 * other figures grouped by unit.
 */
#include "report_model.h"
#include "chart.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_standard(const char *m)
{
	return !strcmp(m, "bw_bytes") || !strcmp(m, "iops") ||
	       !strcmp(m, "seconds") || !strncmp(m, "lat_", 4);
}

/* The unit group of a non-standard metric: the table's unit, else the
 * name's last '_' part ("put_block_kps" -> "kps"). */
static const char *unit_group(const char *m)
{
	const struct nb_metric *d = nb_metric_find(m);
	const char *u = strrchr(m, '_');

	if (!strcmp(d->unit, "bytes/s"))
		return "MB/s";   /* every bytes/s figure is shown in MB/s */
	if (d->unit[0])
		return d->unit;
	return u ? u + 1 : m;
}

static int add_chart(struct nb_report *r, const char *name, const char *title,
		     int wl)
{
	struct nb_report_chart *c;

	r->charts = realloc(r->charts, (r->ncharts + 1) * sizeof(*r->charts));
	c = &r->charts[r->ncharts++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->title, sizeof(c->title), "%s", title);
	c->workload = wl;
	return 0;
}

/* Bars of METRICS (rows) x configurations (series) for workload WL, or of
 * one metric across every workload when WL is NULL. */
static int bars(struct nb_report *r, const char *dir, const char *name,
		const char *title, const char *ylabel, int logy, const char *wl,
		const char *const *metrics, size_t nm, int wl_index)
{
	size_t nrows = wl ? nm : json_array_size(r->wls), ns = r->ncfg;
	const char **rows = calloc(nrows, sizeof(*rows));
	const char **series = calloc(ns, sizeof(*series));
	double *v = calloc(nrows * ns, sizeof(*v));
	double *lo = calloc(nrows * ns, sizeof(*v)), *hi = calloc(nrows * ns, sizeof(*v));
	size_t used = 0;
	int rc = 0;

	for (size_t s = 0; s < ns; s++)
		series[s] = r->cfgs[s].name;
	for (size_t row = 0; row < nrows; row++) {
		const char *w = wl ? wl : json_string_value(json_array_get(r->wls, row));
		const char *m = wl ? metrics[row] : metrics[0];
		const struct nb_metric *d = nb_metric_find(m);
		int any = 0;

		for (size_t s = 0; s < ns; s++) {
			size_t n = nb_report_pool(r, &r->cfgs[s], w, m), k = used * ns + s;
			struct nb_summary sum;

			nb_stats_summary(r->v, n, &sum);
			v[k] = n ? sum.median * d->show_scale : NAN;
			lo[k] = n ? sum.min * d->show_scale : NAN;
			hi[k] = n ? sum.max * d->show_scale : NAN;
			any |= n > 0;
		}
		if (any)         /* the label may live in a thread-local buffer */
			rows[used++] = strdup(wl ? nb_metric_find(m)->label : w);
	}
	if (used) {
		char yl[128];
		double vmin = INFINITY, vmax = 0;

		/* figures decades apart (5 k and 400 k IOPS): a log axis, or
		 * the small bars vanish */
		for (size_t k = 0; k < used * ns; k++)
			if (isfinite(v[k]) && v[k] > 0) {
				vmin = v[k] < vmin ? v[k] : vmin;
				vmax = v[k] > vmax ? v[k] : vmax;
			}
		if (!logy && vmax > 0 && vmax / vmin >= 30) {
			logy = 1;
			snprintf(yl, sizeof(yl), "%s (log scale)", ylabel);
			ylabel = yl;
		}
		struct nb_bars b = { name, title, ylabel, logy, used, ns, rows,
				     series, v, lo, hi, wl ? "figure" : "workload" };

		rc = nb_chart_bars(dir, &b);
		if (!rc)
			add_chart(r, name, title, wl_index);
	}
	for (size_t i = 0; i < used; i++)
		free((char *)rows[i]);
	free(rows), free(series), free(v), free(lo), free(hi);
	return rc;
}

/* The iteration of C for WL whose bw_bytes is the median, if it carries a
 * per-second series; else the first that carries one. */
static const json_t *series_of(const struct nb_report *r, const struct nb_report_cfg *c,
			       const char *wl)
{
	const json_t *best = NULL;
	double med = NAN, dist = INFINITY;
	size_t n = nb_report_pool(r, c, wl, "bw_bytes");

	if (n)
		med = nb_stats_median(r->v, n);
	NB_REPORT_FOR_ENTRIES(r, c, wl, e, {
		json_t *it;
		size_t x;

		json_array_foreach(json_object_get(e, "iterations"), x, it) {
			json_t *s = json_object_get(it, "series_bw_bytes");
			json_t *bw = json_object_get(json_object_get(it, "metrics"),
						     "bw_bytes");
			double d = json_is_number(bw) && !isnan(med) ?
				   fabs(json_number_value(bw) - med) : INFINITY / 2;

			if (json_array_size(s) && (!best || d < dist))
				best = s, dist = d;
		}
	});
	return best;
}

/* The lines of a chart with a line per configuration: line i has n[i]
 * points x[i], y[i] and is configuration names[i]. */
struct cfg_lines {
	size_t ns, *n;
	double **x, **y;
	const char **names;
};

static void cfg_lines_init(struct cfg_lines *s, size_t ncfg)
{
	s->ns = 0;
	s->n = calloc(ncfg, sizeof(*s->n));
	s->x = calloc(ncfg, sizeof(*s->x));
	s->y = calloc(ncfg, sizeof(*s->y));
	s->names = calloc(ncfg, sizeof(*s->names));
}

/* Chart S as NAME (when it has a line; LOGX, PERCENT as for
 * nb_chart_lines_ax), list it under workload WL_INDEX, and free S. */
static int cfg_lines_chart(struct nb_report *r, const char *dir,
			   struct cfg_lines *s, const char *name,
			   const char *title, const char *xlabel,
			   const char *ylabel, int logx, int percent, int wl_index)
{
	int rc = 0;

	if (s->ns) {
		struct nb_lines l = { name, title, xlabel, ylabel, s->ns,
				      s->names, s->n, (const double *const *)s->x,
				      (const double *const *)s->y };

		rc = nb_chart_lines_ax(dir, &l, logx, percent);
		if (!rc)
			add_chart(r, name, title, wl_index);
	}
	for (size_t i = 0; i < s->ns; i++)
		free(s->x[i]), free(s->y[i]);
	free(s->x), free(s->y), free(s->n), free(s->names);
	return rc;
}

static int series_chart(struct nb_report *r, const char *dir, const char *wl,
			const char *slug, int wl_index)
{
	struct cfg_lines s;
	char name[160], title[300];

	cfg_lines_init(&s, r->ncfg);

	for (size_t c = 0; c < r->ncfg; c++) {
		const json_t *sr = series_of(r, &r->cfgs[c], wl);
		size_t len = json_array_size(sr);

		if (len < 2)     /* one second is a point, not a line */
			continue;
		s.x[s.ns] = calloc(len, sizeof(double));
		s.y[s.ns] = calloc(len, sizeof(double));
		for (size_t i = 0; i < len; i++) {
			s.x[s.ns][i] = (double)(i + 1);
			s.y[s.ns][i] = json_number_value(json_array_get(sr, i)) * 1e-6;
		}
		s.n[s.ns] = len;
		s.names[s.ns++] = r->cfgs[c].name;
	}
	snprintf(name, sizeof(name), "series_%s", slug);
	snprintf(title, sizeof(title), "%s: throughput over time", wl);
	return cfg_lines_chart(r, dir, &s, name, title, "seconds into the run",
			       "MB/s", 0, 0, wl_index);
}

struct bucket {
	double lo;
	double n;
};

static int cmp_bucket(const void *a, const void *b)
{
	double x = ((const struct bucket *)a)->lo, y = ((const struct bucket *)b)->lo;

	return x < y ? -1 : x > y;
}

/* The latency CDF of each configuration for WL, from the histograms its
 * iterations keep (lat_hist_ns: [[lower bound, count], ...]) merged. */
static int cdf_chart(struct nb_report *r, const char *dir, const char *wl,
		     const char *slug, int wl_index)
{
	struct cfg_lines s;
	char name[160], title[300];

	cfg_lines_init(&s, r->ncfg);

	for (size_t c = 0; c < r->ncfg; c++) {
		struct bucket *b = NULL;
		size_t nb = 0, cap = 0, m = 0;
		double total = 0, cum = 0;

		NB_REPORT_FOR_ENTRIES(r, &r->cfgs[c], wl, e, {
			json_t *it, *p;
			size_t a, k;

			if (!nb_report_entry_counts(e))
				continue;
			json_array_foreach(json_object_get(e, "iterations"), a, it)
				json_array_foreach(json_object_get(it, "lat_hist_ns"), k, p) {
					if (nb == cap)
						b = realloc(b, (cap = cap ? 2 * cap : 256) * sizeof(*b));
					b[nb].lo = json_number_value(json_array_get(p, 0));
					b[nb].n = json_number_value(json_array_get(p, 1));
					total += b[nb++].n;
				}
		});
		if (!nb || total <= 0) {
			free(b);
			continue;
		}
		qsort(b, nb, sizeof(*b), cmp_bucket);
		s.x[s.ns] = calloc(nb, sizeof(double));
		s.y[s.ns] = calloc(nb, sizeof(double));
		for (size_t i = 0; i < nb; i++) {
			cum += b[i].n;
			if (i + 1 < nb && b[i + 1].lo == b[i].lo)
				continue;        /* merged with the next */
			s.x[s.ns][m] = b[i].lo > 0 ? b[i].lo / 1e3 : 0.001;
			s.y[s.ns][m++] = 100 * cum / total;
		}
		free(b);
		s.n[s.ns] = m;
		s.names[s.ns++] = r->cfgs[c].name;
	}
	snprintf(name, sizeof(name), "cdf_%s", slug);
	snprintf(title, sizeof(title), "%s: latency CDF (share of I/Os done within)",
		 wl);
	return cfg_lines_chart(r, dir, &s, name, title,
			       "latency, microseconds (log scale)", "% of I/Os",
			       1, 1, wl_index);
}

/* File-name form of workload W, unique among the workloads. */
static void wl_slug(const struct nb_report *r, size_t w, char *out, size_t len)
{
	char other[128];

	nb_chart_slug(out, len, json_string_value(json_array_get(r->wls, w)));
	for (size_t i = 0; i < w; i++) {
		nb_chart_slug(other, sizeof(other),
			      json_string_value(json_array_get(r->wls, i)));
		if (!strcmp(other, out)) {
			size_t l = strlen(out);

			snprintf(out + l, len - l, "_%zu", w);
			return;
		}
	}
}

static int workload_charts(struct nb_report *r, const char *dir, size_t w)
{
	const char *wl = json_string_value(json_array_get(r->wls, w));
	static const char *pct[] = { "lat_p50_us", "lat_p90_us", "lat_p99_us",
				     "lat_p99.9_us", "lat_max_us" };
	const char *lat[5], **ms, *done[256];
	size_t nm, nlat = 0, ndone = 0;
	char slug[128], name[200], title[300];
	int rc = 0;

	wl_slug(r, w, slug, sizeof(slug));
	ms = nb_report_metrics(r, wl, &nm);
	for (size_t p = 0; p < 5; p++)
		for (size_t i = 0; i < nm; i++)
			if (!strcmp(ms[i], pct[p]))
				lat[nlat++] = pct[p];
	if (nlat) {
		snprintf(name, sizeof(name), "latency_%s", slug);
		snprintf(title, sizeof(title), "%s: latency percentiles", wl);
		rc = bars(r, dir, name, title, "microseconds (log)", 1, wl, lat,
			  nlat, (int)w);
	}
	if (!rc)
		rc = cdf_chart(r, dir, wl, slug, (int)w);
	if (!rc)
		rc = series_chart(r, dir, wl, slug, (int)w);
	/* the other metrics (bonnie phases...), side by side per unit */
	for (size_t i = 0; i < nm && !rc; i++) {
		const char *g = unit_group(ms[i]), *grp[256];
		size_t ng = 0, d;
		char gs[64];

		if (is_standard(ms[i]))
			continue;
		for (d = 0; d < ndone && strcmp(done[d], g); d++)
			;
		if (d < ndone || ndone == 256)
			continue;
		done[ndone++] = g;
		for (size_t j = i; j < nm && ng < 256; j++)
			if (!is_standard(ms[j]) && !strcmp(unit_group(ms[j]), g))
				grp[ng++] = ms[j];
		nb_chart_slug(gs, sizeof(gs), g);
		snprintf(name, sizeof(name), "phases_%s_%s", slug, gs);
		snprintf(title, sizeof(title), "%s: %s", wl, g);
		rc = bars(r, dir, name, title, g, !strcmp(g, "us"), wl, grp, ng,
			  (int)w);
	}
	nb_report_names_free(ms, nm);
	return rc;
}

int nb_report_charts(struct nb_report *r, const char *dir, char ***names,
		     size_t *n)
{
	static const char *top[] = { "bw_bytes", "iops" };
	static const char *titles[] = { "Throughput per workload (median, min-max)",
					"IOPS per workload (median, min-max)" };
	int rc = 0;

	for (size_t i = 0; i < 2 && !rc; i++) {
		char name[64];
		const struct nb_metric *d = nb_metric_find(top[i]);

		snprintf(name, sizeof(name), "bars_%s", top[i]);
		rc = bars(r, dir, name, titles[i], d->label, 0, NULL, &top[i], 1, -1);
	}
	for (size_t w = 0; w < json_array_size(r->wls) && !rc; w++)
		rc = workload_charts(r, dir, w);
	*n = r->ncharts;
	*names = calloc(r->ncharts + 1, sizeof(**names));
	for (size_t i = 0; i < r->ncharts; i++)
		(*names)[i] = strdup(r->charts[i].name);
	return rc;
}
