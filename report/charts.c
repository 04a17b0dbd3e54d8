/*
 * charts.c - the charts of 'nasbench report' as gnuplot inputs
 * (formats/chart.c draws them): throughput and IOPS across workloads, per
 * workload the latency percentiles, the throughput over time, what the
 * box did over the same seconds, and the other figures grouped by unit.
 */
#include "model.h"
#include "../formats/chart.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"
#include "../core/sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Figures with charts of their own (the box's: box_chart()). */
static int is_standard(const char *m)
{
	/* a sweep's step count and Little's-law tally: no chart of their own */
	return !strcmp(m, "bw_bytes") || !strcmp(m, "iops") ||
	       !strcmp(m, "seconds") || !strncmp(m, "lat_", 4) ||
	       !strcmp(m, "sweep_steps") || !strcmp(m, "little_failed") ||
	       !strncmp(m, "box_", 4);
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
static const json_t *iteration_of(const struct nb_report *r,
				  const struct nb_report_cfg *c, const char *wl)
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
				best = it, dist = d;
		}
	});
	return best;
}

/* A chart with a line per configuration: the file name's prefix, the
 * title after the workload's name, the axes (LOGX, PERCENT as for
 * nb_chart_lines_ax), and configuration C's line for workload WL: its
 * points into *X, *Y (calloc'd), their number (0: no line). */
struct cfg_chart {
	const char *prefix, *title, *xlabel, *ylabel;
	int logx, percent;
	size_t (*line)(const struct nb_report *r, size_t c, const char *wl,
		       double **x, double **y);
};

/* Chart K of workload WL (when a configuration has a line) and list it
 * under workload WL_INDEX. */
static int cfg_chart(struct nb_report *r, const char *dir, const char *wl,
		     const char *slug, int wl_index, const struct cfg_chart *k)
{
	size_t ns = 0, *n = calloc(r->ncfg, sizeof(*n));
	double **x = calloc(r->ncfg, sizeof(*x)), **y = calloc(r->ncfg, sizeof(*y));
	const char **names = calloc(r->ncfg, sizeof(*names));
	char name[160], title[300];
	int rc = 0;

	for (size_t c = 0; c < r->ncfg; c++) {
		n[ns] = k->line(r, c, wl, &x[ns], &y[ns]);
		if (n[ns])
			names[ns++] = r->cfgs[c].name;
	}
	snprintf(name, sizeof(name), "%s_%s", k->prefix, slug);
	snprintf(title, sizeof(title), "%s: %s", wl, k->title);
	if (ns) {
		struct nb_lines l = { name, title, k->xlabel, k->ylabel, ns, names,
				      n, (const double *const *)x,
				      (const double *const *)y };

		rc = nb_chart_lines_ax(dir, &l, k->logx, k->percent);
		if (!rc)
			add_chart(r, name, title, wl_index);
	}
	for (size_t i = 0; i < ns; i++)
		free(x[i]), free(y[i]);
	free(x), free(y), free(n), free(names);
	return rc;
}

/* The throughput series (MB/s per second) of the iteration nearest the
 * median. */
static size_t series_line(const struct nb_report *r, size_t c, const char *wl,
			  double **x, double **y)
{
	const json_t *sr = json_object_get(iteration_of(r, &r->cfgs[c], wl),
					   "series_bw_bytes");
	size_t len = json_array_size(sr);

	if (len < 2)     /* one second is a point, not a line */
		return 0;
	*x = calloc(len, sizeof(double));
	*y = calloc(len, sizeof(double));
	for (size_t i = 0; i < len; i++) {
		(*x)[i] = (double)(i + 1);
		(*y)[i] = json_number_value(json_array_get(sr, i)) * 1e-6;
	}
	return len;
}

static const struct cfg_chart series_chart = {
	"series", "throughput over time", "seconds into the run", "MB/s", 0, 0,
	series_line,
};

#define BOX_LINES 10

/* One line of the box chart: the series NAME of TEL (SCALE times each
 * value), on the I/O series' time axis.  Its points, 0 when none. */
static size_t box_line(const json_t *tel, const json_t *values, double scale,
		       double **x, double **y)
{
	const json_t *t = json_object_get(json_object_get(tel, "series"), "t_ms");
	double off = json_number_value(json_object_get(tel, "io_offset_ms"));
	size_t n = json_array_size(t), m = 0;

	*x = calloc(n + 1, sizeof(double));
	*y = calloc(n + 1, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		const json_t *v = json_array_get(values, i);

		if (!json_is_number(v))
			continue;
		(*x)[m] = (json_number_value(json_array_get(t, i)) - off) / 1e3;
		(*y)[m++] = json_number_value(v) * scale;
	}
	if (!m) {
		free(*x), free(*y);
		*x = *y = NULL;
	}
	return m;
}

/* Which disks the box chart shows: the pools' (not logs or caches), else
 * those that were busy at all. */
static int box_disk(const json_t *tel, const char *disk)
{
	const json_t *vd = json_object_get(tel, "vdevs"), *v, *d;
	size_t i, k;

	if (!json_array_size(vd))
		return json_number_value(json_object_get(json_object_get(
			json_object_get(tel, "summary"), "disk_busy_pct"), disk)) >= 1;
	json_array_foreach(vd, i, v)
		json_array_foreach(json_object_get(v, "disks"), k, d)
			if (!json_is_true(json_object_get(v, "special")) &&
			    !strcmp(json_string_value(d), disk))
				return 1;
	return 0;
}

/* Configuration C's chart under the throughput over time: what the box
 * did over the same seconds of the same iteration (its busiest core,
 * memory available, each disk's busy share; docs/telemetry.md). */
static int box_cfg_chart(struct nb_report *r, const char *dir, const char *wl,
			 const char *slug, int wl_index, size_t c)
{
	const json_t *tel = json_object_get(iteration_of(r, &r->cfgs[c], wl),
					    "telemetry");
	const json_t *se = json_object_get(tel, "series"), *arr;
	double total = json_number_value(json_object_get(
		json_object_get(tel, "summary"), "mem_total_bytes"));
	const char *names[BOX_LINES];
	double *x[BOX_LINES], *y[BOX_LINES];
	size_t n[BOX_LINES], ns = 0;
	char name[200], title[300], label[BOX_LINES][80];
	const char *disk;
	int rc = 0;

	if (!tel)
		return 0;
	n[ns] = box_line(tel, json_object_get(se, "cpu_busy_max_pct"), 1, &x[ns], &y[ns]);
	names[ns] = "CPU, the busiest core";
	ns += n[ns] > 0;
	if (total > 0) {
		n[ns] = box_line(tel, json_object_get(se, "mem_avail_bytes"),
				 100 / total, &x[ns], &y[ns]);
		names[ns] = "memory available";
		ns += n[ns] > 0;
	}
	json_object_foreach((json_t *)json_object_get(se, "disk_busy_pct"), disk, arr) {
		if (ns == BOX_LINES || !box_disk(tel, disk))
			continue;
		n[ns] = box_line(tel, arr, 1, &x[ns], &y[ns]);
		snprintf(label[ns], sizeof(label[ns]), "%s busy", disk);
		names[ns] = label[ns];
		ns += n[ns] > 0;
	}
	snprintf(name, sizeof(name), "box_%s_%zu", slug, c);
	snprintf(title, sizeof(title), "%s: the box during it (%s)", wl, r->cfgs[c].name);
	if (ns) {
		struct nb_lines l = { name, title, "seconds into the run", "%", ns,
				      names, n, (const double *const *)x,
				      (const double *const *)y };

		rc = nb_chart_lines_ax(dir, &l, 0, 1);
		if (!rc)
			add_chart(r, name, title, wl_index);
	}
	for (size_t i = 0; i < ns; i++)
		free(x[i]), free(y[i]);
	return rc;
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

/* The latency CDF from the histograms the iterations keep (lat_hist_ns:
 * [[lower bound, count], ...]) merged. */
static size_t cdf_line(const struct nb_report *r, size_t c, const char *wl,
		       double **x, double **y)
{
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
		return 0;
	}
	qsort(b, nb, sizeof(*b), cmp_bucket);
	*x = calloc(nb, sizeof(double));
	*y = calloc(nb, sizeof(double));
	for (size_t i = 0; i < nb; i++) {
		cum += b[i].n;
		if (i + 1 < nb && b[i + 1].lo == b[i].lo)
			continue;        /* merged with the next */
		(*x)[m] = b[i].lo > 0 ? b[i].lo / 1e3 : 0.001;
		(*y)[m++] = 100 * cum / total;
	}
	free(b);
	return m;
}

static const struct cfg_chart cdf_chart = {
	"cdf", "latency CDF (share of I/Os done within)",
	"latency, microseconds (log scale)", "% of I/Os", 1, 1, cdf_line,
};

/* ---- the response-time curve of a load sweep (docs/capacity.md) ---- */

/* The sweep of C for WL whose capacity is nearest the median of the
 * configuration's, or NULL. */
static const json_t *sweep_of(const struct nb_report *r,
			      const struct nb_report_cfg *c, const char *wl)
{
	const json_t *best = NULL;
	double med = NAN, dist = INFINITY;
	size_t n = nb_report_pool(r, c, wl, "iops_at_slo");

	if (n)
		med = nb_stats_median(r->v, n);
	NB_REPORT_FOR_ENTRIES(r, c, wl, e, {
		json_t *it;
		size_t x;

		json_array_foreach(json_object_get(e, "iterations"), x, it) {
			json_t *sw = json_object_get(it, "sweep");
			json_t *v = json_object_get(json_object_get(it, "metrics"),
						    "iops_at_slo");
			double d = json_is_number(v) && !isnan(med) ?
				   fabs(json_number_value(v) - med) : INFINITY / 2;

			if (json_array_size(json_object_get(sw, "steps")) &&
			    (!best || d < dist))
				best = sw, dist = d;
		}
	});
	return best;
}

/* Sweep SW's steps as a line: IOPS across, the latency of the
 * objective's first statistic (SLO, ms) up; its knee (K) and capacity
 * (C: on the objective when interpolated, else at its step). */
static size_t curve_series(const struct nb_slo *slo, const json_t *sw,
			   double **x, double **y, double *kx, double *ky,
			   double *cx, double *cy)
{
	const json_t *steps = json_object_get(sw, "steps"), *st;
	const json_t *knee = json_object_get(sw, "knee");
	const json_t *cap = json_object_get(sw, "capacity");
	const char *m = nb_slo_stat_metric(slo->t[0].stat);
	size_t n = json_array_size(steps), i;

	*x = calloc(n, sizeof(double));
	*y = calloc(n, sizeof(double));
	json_array_foreach(steps, i, st) {
		(*x)[i] = json_number_value(json_object_get(st, "iops"));
		(*y)[i] = json_number_value(json_object_get(st, m)) / 1e3;
	}
	*kx = *ky = *cx = *cy = NAN;
	if (json_is_object(knee)) {
		size_t k = (size_t)json_integer_value(json_object_get(knee, "step"));

		*kx = k < n ? (*x)[k] : NAN;
		*ky = k < n ? (*y)[k] : NAN;
	}
	if (json_is_true(json_object_get(cap, "found"))) {
		size_t k = (size_t)json_integer_value(json_object_get(cap, "step"));

		*cx = json_number_value(json_object_get(cap, "iops"));
		*cy = json_is_true(json_object_get(cap, "interpolated")) ?
		      slo->t[0].limit_us / 1e3 : k < n ? (*y)[k] : NAN;
	}
	return n;
}

/* The response-time curves of workload WL, one per configuration that
 * swept it, on one chart. */
static int curve_chart(struct nb_report *r, const char *dir, const char *wl,
		       const char *slug, int wl_index)
{
	size_t ns = 0, *n = calloc(r->ncfg, sizeof(*n));
	double **x = calloc(r->ncfg, sizeof(*x)), **y = calloc(r->ncfg, sizeof(*y));
	double *kx = calloc(r->ncfg, sizeof(double)), *ky = calloc(r->ncfg, sizeof(double));
	double *cx = calloc(r->ncfg, sizeof(double)), *cy = calloc(r->ncfg, sizeof(double));
	const char **names = calloc(r->ncfg, sizeof(*names));
	struct nb_slo slo = { 0 };
	char name[160], title[300], ylab[64], obj[160], objt[200];
	int rc = 0;

	for (size_t c = 0; c < r->ncfg; c++) {
		const json_t *sw = sweep_of(r, &r->cfgs[c], wl);

		/* the first configuration's objective is the chart's */
		if (!sw || (!ns && nb_slo_parse(nb_jstr(sw, "objective"), &slo)))
			continue;
		n[ns] = curve_series(&slo, sw, &x[ns], &y[ns], &kx[ns], &ky[ns], &cx[ns],
				     &cy[ns]);
		names[ns++] = r->cfgs[c].name;
	}
	if (ns) {
		snprintf(name, sizeof(name), "curve_%s", slug);
		snprintf(title, sizeof(title), "%s: response time against throughput",
			 wl);
		snprintf(ylab, sizeof(ylab), "%s latency, ms",
			 nb_slo_stat_name(slo.t[0].stat));
		snprintf(objt, sizeof(objt), "objective %s",
			 nb_slo_fmt(&slo, obj, sizeof(obj)));
		struct nb_curve k = { { name, title, "IOPS", ylab,
					ns, names, n, (const double *const *)x,
					(const double *const *)y },
				      slo.t[0].limit_us / 1e3, objt, kx, ky, cx, cy };

		rc = nb_chart_curve(dir, &k);
		if (!rc)
			add_chart(r, name, title, wl_index);
	}
	for (size_t i = 0; i < ns; i++)
		free(x[i]), free(y[i]);
	free(x), free(y), free(n), free(names);
	free(kx), free(ky), free(cx), free(cy);
	return rc;
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
		rc = cfg_chart(r, dir, wl, slug, (int)w, &cdf_chart);
	if (!rc)
		rc = cfg_chart(r, dir, wl, slug, (int)w, &series_chart);
	if (!rc)
		rc = curve_chart(r, dir, wl, slug, (int)w);
	for (size_t c = 0; c < r->ncfg && !rc; c++)
		rc = box_cfg_chart(r, dir, wl, slug, (int)w, c);
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
