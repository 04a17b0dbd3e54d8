/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * charts.c - the charts of 'nasbench report' as gnuplot inputs
 * (formats/chart.c draws them), one per family of figures rather than one
 * per workload: throughput, IOPS and p99 latency across the workloads, the
 * latency CDFs, the throughput over time and what the box did meanwhile as
 * small multiples (a panel per workload), a load sweep's response-time
 * curve, then the other figures by unit (bonnie's K/s, ops/s ...) across
 * the workloads, at most NB_REPORT_MAX_CHARTS in all.
 */
#include "model.h"
#include "../formats/chart.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"
#include "../capacity/sweep_open.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What PICK finds in the iteration of C for WL whose METRIC is nearest
 * the median of C's (an iteration without the metric last), or NULL when
 * PICK finds it in none. */
static const json_t *nearest_median(const struct nb_report *r,
				    const struct nb_report_cfg *c, const char *wl,
				    const char *metric,
				    const json_t *(*pick)(const json_t *it))
{
	const json_t *best = NULL;
	double med = NAN, dist = INFINITY;
	size_t n = nb_report_pool(r, c, wl, metric);

	if (n)
		med = nb_stats_median(r->v, n);
	NB_REPORT_FOR_ENTRIES(r, c, wl, e, {
		json_t *it;
		size_t x;

		json_array_foreach(json_object_get(e, "iterations"), x, it) {
			const json_t *p = pick(it);
			json_t *v = json_object_get(json_object_get(it, "metrics"), metric);
			double d = json_is_number(v) && !isnan(med) ?
				   fabs(json_number_value(v) - med) : INFINITY / 2;

			if (p && (!best || d < dist))
				best = p, dist = d;
		}
	});
	return best;
}

/* IT if it carries a per-second series. */
static const json_t *with_series(const json_t *it)
{
	return json_array_size(json_object_get(it, "series_bw_bytes")) ? it : NULL;
}

/* The iteration of C for WL whose bw_bytes is nearest the median, of
 * those that carry a per-second series. */
static const json_t *iteration_of(const struct nb_report *r,
				  const struct nb_report_cfg *c, const char *wl)
{
	return nearest_median(r, c, wl, "bw_bytes", with_series);
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

/* The throughput series (MB/s per second) of the iteration nearest the
 * median. */
static size_t series_line(const struct nb_report *r, size_t c, const char *wl,
			  double **x, double **y)
{
	const json_t *sr = json_object_get(iteration_of(r, &r->cfgs[c], wl),
					   "series_bw_bytes");
	size_t len = json_array_size(sr);

	if (len < 3)     /* two seconds are hardly a line: not worth a panel */
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

/* ---- the response-time curve of a load sweep (docs/capacity.md) ---- */

/* IT's load sweep, if it has steps. */
static const json_t *sweep_in(const json_t *it)
{
	const json_t *sw = json_object_get(it, "sweep");

	return json_array_size(json_object_get(sw, "steps")) ? sw : NULL;
}

/* IT's closed sweep beside an open one (--loop both), if it has steps. */
static const json_t *sweep_closed_in(const json_t *it)
{
	const json_t *sw = json_object_get(it, "sweep_closed");

	return json_array_size(json_object_get(sw, "steps")) ? sw : NULL;
}

static int is_open(const json_t *sw)
{
	return !strcmp(nb_jstr(sw, "loop"), "open");
}

static int cmp_xy(const void *a, const void *b)
{
	double x = ((const double *)a)[0], y = ((const double *)b)[0];

	return x < y ? -1 : x > y;
}

/* The sweep of C for WL whose capacity is nearest the median of the
 * configuration's, or NULL. */
static const json_t *sweep_of(const struct nb_report *r,
			      const struct nb_report_cfg *c, const char *wl)
{
	return nearest_median(r, c, wl, "iops_at_slo", sweep_in);
}

/* Sweep SW's steps as a line: IOPS across (an open sweep's offered rate,
 * in order), the latency of the objective's first statistic (SLO, ms) up
 * (an open sweep's response time); its knee (K) and capacity (C: on the
 * objective when interpolated, else at its step). */
static size_t curve_series(const struct nb_slo *slo, const json_t *sw,
			   double **x, double **y, double *kx, double *ky,
			   double *cx, double *cy)
{
	const json_t *steps = json_object_get(sw, "steps"), *st;
	const json_t *knee = json_object_get(sw, "knee");
	const json_t *cap = json_object_get(sw, "capacity");
	int open = is_open(sw);
	const char *m = open ? nb_slo_stat_resp_metric(slo->t[0].stat) :
			nb_slo_stat_metric(slo->t[0].stat);
	size_t n = json_array_size(steps), i;
	double (*xy)[2] = calloc(n ? n : 1, sizeof(*xy));

	*x = calloc(n, sizeof(double));
	*y = calloc(n, sizeof(double));
	json_array_foreach(steps, i, st) {
		xy[i][0] = json_number_value(json_object_get(st, open ? "offered_iops" :
							     "iops"));
		xy[i][1] = json_number_value(json_object_get(st, m)) / 1e3;
	}
	/* a bisection's steps are not in rate order: a line needs it */
	if (open)
		qsort(xy, n, sizeof(*xy), cmp_xy);
	for (i = 0; i < n; i++) {
		(*x)[i] = xy[i][0];
		(*y)[i] = xy[i][1];
	}
	free(xy);
	*kx = *ky = *cx = *cy = NAN;
	if (json_is_object(knee)) {
		size_t k = (size_t)json_integer_value(json_object_get(knee, "step"));

		*kx = k < n ? (*x)[k] : NAN;
		*ky = k < n ? (*y)[k] : NAN;
	}
	if (json_is_true(json_object_get(cap, "found"))) {
		size_t k = (size_t)json_integer_value(json_object_get(cap, "step"));
		const json_t *cs = json_array_get(steps, k);

		*cx = json_number_value(json_object_get(cap, "iops"));
		*cy = json_is_true(json_object_get(cap, "interpolated")) ?
		      slo->t[0].limit_us / 1e3 :
		      cs ? json_number_value(json_object_get(cs, m)) / 1e3 : NAN;
	}
	return n;
}

/* The response-time curves of workload WL, one per configuration that
 * swept it (and its closed loop beside, when both ran), on one chart. */
static int curve_chart(struct nb_report *r, const char *dir, const char *wl,
		       const char *slug, int wl_index)
{
	size_t ns = 0, m = 2 * r->ncfg, *n = calloc(m, sizeof(*n));
	double **x = calloc(m, sizeof(*x)), **y = calloc(m, sizeof(*y));
	double *kx = calloc(m, sizeof(double)), *ky = calloc(m, sizeof(double));
	double *cx = calloc(m, sizeof(double)), *cy = calloc(m, sizeof(double));
	const char **names = calloc(m, sizeof(*names));
	char (*label)[160] = calloc(m, sizeof(*label));
	struct nb_slo slo = { 0 };
	char name[160], title[300], ylab[64], obj[160], objt[200];
	int rc = 0, open = 0;

	for (size_t i = 0; i < m; i++) {
		const struct nb_report_cfg *cf = &r->cfgs[i % r->ncfg];
		const json_t *sw = i < r->ncfg ? sweep_of(r, cf, wl) :
				   nearest_median(r, cf, wl, "iops_at_slo",
						  sweep_closed_in);

		/* the first configuration's objective is the chart's */
		if (!sw || (!ns && nb_slo_parse(nb_jstr(sw, "objective"), &slo)))
			continue;
		open |= is_open(sw);
		n[ns] = curve_series(&slo, sw, &x[ns], &y[ns], &kx[ns], &ky[ns], &cx[ns],
				     &cy[ns]);
		snprintf(label[ns], sizeof(label[ns]), "%s%s", cf->name,
			 i < r->ncfg ? (is_open(sw) ? ", open loop" : "") :
			 ", closed loop");
		names[ns] = label[ns];
		ns++;
	}
	if (ns) {
		snprintf(name, sizeof(name), "curve_%s", slug);
		snprintf(title, sizeof(title), "%s: response time against %s", wl,
			 open ? "offered load" : "throughput");
		snprintf(ylab, sizeof(ylab), "%s %s, ms",
			 nb_slo_stat_name(slo.t[0].stat), open ? "response time" :
			 "latency");
		snprintf(objt, sizeof(objt), "objective %s",
			 nb_slo_fmt(&slo, obj, sizeof(obj)));
		struct nb_curve k = { { name, title, open ? "IOPS offered (closed "
					"loop: achieved)" : "IOPS", ylab,
					ns, names, n, (const double *const *)x,
					(const double *const *)y },
				      slo.t[0].limit_us / 1e3, objt, kx, ky, cx, cy };

		rc = nb_chart_curve(dir, &k);
		if (!rc)
			nb_report_add_chart(r, name, title, wl_index);
	}
	for (size_t i = 0; i < ns; i++)
		free(x[i]), free(y[i]);
	free(x), free(y), free(n), free(names), free(label);
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

#define CDF_STEP 1.0             /* percent between two points of a CDF */

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
		/* a point per CDF_STEP percent at most: the line looks the
		 * same, the page is a tenth of the size */
		if (m && i + 1 < nb && 100 * cum / total - (*y)[m - 1] < CDF_STEP)
			continue;
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

/* The panels being gathered: one per workload, a line per target and
 * configuration. */
struct panel_set {
	size_t n, cap;           /* panels; series room in each */
	struct nb_lines *l;
	char **titles;
};

static struct nb_lines *panel_of(struct panel_set *ps, const char *title)
{
	struct nb_lines *l;

	for (size_t i = 0; i < ps->n; i++)
		if (!strcmp(ps->titles[i], title))
			return &ps->l[i];
	l = &ps->l[ps->n];
	ps->titles[ps->n++] = strdup(title);
	l->title = ps->titles[ps->n - 1];
	l->series = calloc(ps->cap, sizeof(char *));
	l->n = calloc(ps->cap, sizeof(size_t));
	l->x = calloc(ps->cap, sizeof(double *));
	l->y = calloc(ps->cap, sizeof(double *));
	return l;
}

static void panel_set_free(struct panel_set *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		struct nb_lines *l = &ps->l[i];

		for (size_t s = 0; s < l->nseries; s++) {
			free((char *)l->series[s]);
			free((double *)l->x[s]), free((double *)l->y[s]);
		}
		free((void *)l->series), free((void *)l->n);
		free((void *)l->x), free((void *)l->y);
		free(ps->titles[i]);
	}
	free(ps->l), free(ps->titles);
}

/* Chart K as small multiples: a panel per workload. */
static int panels(struct nb_report *r, const char *dir, const struct cfg_chart *k)
{
	size_t nw = json_array_size(r->wls);
	struct panel_set ps = { 0, nw * r->ncfg + 1, calloc(nw + 1, sizeof(struct nb_lines)),
				calloc(nw + 1, sizeof(char *)) };
	char name[64], title[200];
	int rc = 0;

	for (size_t w = 0; w < nw; w++) {
		const char *key = json_string_value(json_array_get(r->wls, w));

		for (size_t c = 0; c < r->ncfg; c++) {
			double *x, *y;
			size_t n = k->line(r, c, key, &x, &y);
			char pn[300], sn[300];
			struct nb_lines *l;

			if (!n)
				continue;
			nb_report_panel_names(r, key, c, pn, sizeof(pn), sn, sizeof(sn));
			l = panel_of(&ps, pn);
			((size_t *)l->n)[l->nseries] = n;
			((double **)l->x)[l->nseries] = x;
			((double **)l->y)[l->nseries] = y;
			((const char **)l->series)[l->nseries++] = strdup(sn);
		}
	}
	snprintf(name, sizeof(name), "%s_all", k->prefix);
	snprintf(title, sizeof(title), "%s, per workload", k->title);
	if (ps.n) {
		struct nb_panels p = { name, title, k->xlabel, k->ylabel, k->logx,
				       k->percent, ps.n, ps.l };

		rc = nb_chart_panels(dir, &p);
		if (!rc)
			nb_report_add_chart(r, name, title, -1);
	}
	panel_set_free(&ps);
	return rc;
}

/* Configuration C's panel of what the box did during workload KEY (its
 * busiest core, memory available, each disk's busy share over the I/O
 * series' seconds of the same iteration; docs/telemetry.md), if any. */
static void box_panel(const struct nb_report *r, struct panel_set *ps,
		      const char *key, size_t c)
{
	const json_t *tel = json_object_get(iteration_of(r, &r->cfgs[c], key),
					    "telemetry");
	const json_t *se = json_object_get(tel, "series"), *arr;
	double total = json_number_value(json_object_get(
		json_object_get(tel, "summary"), "mem_total_bytes"));
	char names[BOX_LINES][80], pn[300], sn[300], title[620];
	double *x[BOX_LINES], *y[BOX_LINES];
	size_t n[BOX_LINES], ns = 0;
	const char *disk;
	struct nb_lines *l;

	if (!tel)
		return;
	n[ns] = box_line(tel, json_object_get(se, "cpu_busy_max_pct"), 1, &x[ns], &y[ns]);
	snprintf(names[ns], sizeof(names[ns]), "CPU, the busiest core");
	ns += n[ns] > 0;
	if (total > 0) {
		n[ns] = box_line(tel, json_object_get(se, "mem_avail_bytes"),
				 100 / total, &x[ns], &y[ns]);
		snprintf(names[ns], sizeof(names[ns]), "memory available");
		ns += n[ns] > 0;
	}
	json_object_foreach((json_t *)json_object_get(se, "disk_busy_pct"), disk, arr) {
		if (ns == BOX_LINES || !box_disk(tel, disk))
			continue;
		n[ns] = box_line(tel, arr, 1, &x[ns], &y[ns]);
		snprintf(names[ns], sizeof(names[ns]), "%s busy", disk);
		ns += n[ns] > 0;
	}
	if (!ns)
		return;
	nb_report_panel_names(r, key, c, pn, sizeof(pn), sn, sizeof(sn));
	if (r->ncfg > 1 || r->by_target)
		snprintf(title, sizeof(title), "%s (%s)", pn, sn);
	else
		snprintf(title, sizeof(title), "%s", pn);
	l = panel_of(ps, title);
	if (l->nseries + ns > ps->cap) {  /* two configurations of one name */
		for (size_t i = 0; i < ns; i++)
			free(x[i]), free(y[i]);
		return;
	}
	for (size_t i = 0; i < ns; i++) {
		((size_t *)l->n)[l->nseries] = n[i];
		((double **)l->x)[l->nseries] = x[i];
		((double **)l->y)[l->nseries] = y[i];
		((const char **)l->series)[l->nseries++] = strdup(names[i]);
	}
}

/* What the box did during each workload, a panel per workload and
 * configuration, a line per figure. */
static int box_panels(struct nb_report *r, const char *dir)
{
	size_t nw = json_array_size(r->wls), np = nw * r->ncfg + 1;
	struct panel_set ps = { 0, BOX_LINES, calloc(np, sizeof(struct nb_lines)),
				calloc(np, sizeof(char *)) };
	const char *title = "what the box did, per workload";
	int rc = 0;

	for (size_t w = 0; w < nw; w++)
		for (size_t c = 0; c < r->ncfg; c++)
			box_panel(r, &ps, json_string_value(json_array_get(r->wls, w)), c);
	if (ps.n) {
		struct nb_panels p = { "box_all", title, "seconds into the run",
				       "% (CPU: its busiest core)", 0, 1, ps.n, ps.l };

		rc = nb_chart_panels(dir, &p);
		if (!rc)
			nb_report_add_chart(r, "box_all", title, -1);
	}
	panel_set_free(&ps);
	return rc;
}

/* The response-time curve of every workload that was swept. */
static int curve_charts(struct nb_report *r, const char *dir)
{
	int rc = 0;

	for (size_t w = 0; w < json_array_size(r->wls) && !rc &&
	     r->ncharts < NB_REPORT_MAX_CHARTS; w++) {
		char slug[128];

		wl_slug(r, w, slug, sizeof(slug));
		rc = curve_chart(r, dir, json_string_value(json_array_get(r->wls, w)),
				 slug, -1);
	}
	return rc;
}

int nb_report_charts(struct nb_report *r, const char *dir, char ***names,
		     size_t *n)
{
	int rc = nb_report_bars_across(r, dir, "bw_bytes", "Throughput per workload "
			     "(median, min-max)", 0, "rand", "Throughput of the "
			     "sequential workloads (median, min-max)");

	if (!rc)
		rc = nb_report_bars_across(r, dir, "iops", "IOPS per workload (median, min-max)",
				 0, "seq", "IOPS of the random workloads (median, "
				 "min-max)");
	if (!rc)
		rc = nb_report_bars_across(r, dir, "lat_p99_us", "p99 latency per workload "
				 "(median, min-max)", 1, NULL, NULL);
	if (!rc)
		rc = panels(r, dir, &cdf_chart);
	if (!rc)
		rc = panels(r, dir, &series_chart);
	if (!rc)
		rc = box_panels(r, dir);
	if (!rc)
		rc = curve_charts(r, dir);
	if (!rc)
		rc = nb_report_replay_charts(r, dir);
	if (!rc)
		rc = nb_report_hot_charts(r, dir);
	if (!rc)
		rc = nb_report_unit_charts(r, dir);
	if (!rc)
		rc = nb_report_timeline_charts(r, dir);
	*n = r->ncharts;
	*names = calloc(r->ncharts + 1, sizeof(**names));
	for (size_t i = 0; i < r->ncharts; i++)
		(*names)[i] = strdup(r->charts[i].name);
	return rc;
}
