/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bars.c - the report's bar charts (formats/chart.c draws them): a
 * cluster per workload, a bar per target and configuration in a colour of
 * its own; throughput of the sequential workloads, IOPS of the random ones,
 * p99 latency of all (charts.c asks for those), and the other figures one
 * chart per unit.  No chart of bars that are all zero or all equal.
 */
#include "model.h"
#include "../formats/chart.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"

#include <math.h>
#include <stdio.h>
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

/* The rows of a bar chart: workload WLS[i]'s metric MS[i], labelled
 * LABELS[i]; one bar per configuration. */
struct bar_rows {
	size_t n;
	const char **wls, **ms, **labels;
};

static void bar_rows_free(struct bar_rows *br)
{
	for (size_t i = 0; i < br->n; i++)
		free((char *)br->labels[i]), free((char *)br->ms[i]);
	free(br->wls), free(br->ms), free(br->labels);
}

/* The index of NAME in NAMES (N of them), added when new. */
static size_t name_index(char **names, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(names[i], name))
			return i;
	names[*n] = strdup(name);
	return (*n)++;
}

/* The bars being gathered: a group per workload (and figure), a series
 * per target and configuration; medians, lows and highs by group x
 * series. */
struct bar_set {
	char **groups, **series;
	size_t ng, ns, cap_s;
	double *v, *lo, *hi;
};

/* Row ROW of BR, configuration C: the row's group (its label with the
 * target taken out) and series (the target, and the configuration when
 * there are several; else the configuration). */
static void bar_place(const struct nb_report *r, const struct bar_rows *br,
		      size_t row, size_t c, struct bar_set *bs, size_t *g, size_t *s)
{
	char panel[300], series[300], group[600];
	const char *key = br->wls[row], *label = br->labels[row];

	nb_report_panel_names(r, key, c, panel, sizeof(panel), series, sizeof(series));
	if (!strncmp(label, key, strlen(key)))
		snprintf(group, sizeof(group), "%s%s", panel, label + strlen(key));
	else
		snprintf(group, sizeof(group), "%s", label);
	*g = name_index(bs->groups, &bs->ng, group);
	*s = name_index(bs->series, &bs->ns, series);
}

static void bar_set_free(struct bar_set *bs)
{
	for (size_t i = 0; i < bs->ng; i++)
		free(bs->groups[i]);
	for (size_t i = 0; i < bs->ns; i++)
		free(bs->series[i]);
	free(bs->groups), free(bs->series), free(bs->v), free(bs->lo), free(bs->hi);
}

/* Every row x configuration into BS; the least and most median. */
static void bar_fill(struct nb_report *r, const struct bar_rows *br,
		     struct bar_set *bs, double *vmin, double *vmax)
{
	size_t cells = (br->n + 1) * (r->ncfg + 1);

	bs->groups = calloc(br->n + 1, sizeof(char *));
	bs->series = calloc(cells, sizeof(char *));
	bs->v = malloc((br->n + 1) * cells * sizeof(double));
	bs->lo = malloc((br->n + 1) * cells * sizeof(double));
	bs->hi = malloc((br->n + 1) * cells * sizeof(double));
	bs->cap_s = cells;
	for (size_t k = 0; k < (br->n + 1) * cells; k++)
		bs->v[k] = bs->lo[k] = bs->hi[k] = NAN;
	*vmin = INFINITY, *vmax = 0;
	for (size_t row = 0; row < br->n; row++) {
		const struct nb_metric *d = nb_metric_find(br->ms[row]);

		for (size_t c = 0; c < r->ncfg; c++) {
			size_t n = nb_report_pool(r, &r->cfgs[c], br->wls[row], br->ms[row]);
			size_t g, s, k;
			struct nb_summary sum;

			if (!n)
				continue;
			bar_place(r, br, row, c, bs, &g, &s);
			nb_stats_summary(r->v, n, &sum);
			k = g * bs->cap_s + s;
			bs->v[k] = sum.median * d->show_scale;
			bs->lo[k] = sum.min * d->show_scale;
			bs->hi[k] = sum.max * d->show_scale;
			*vmin = fmin(*vmin, bs->v[k]);
			*vmax = fmax(*vmax, bs->v[k]);
		}
	}
}

/* Bars of the rows BR: a group per workload (a target's share of a
 * workload key goes to the series), a colour per target and configuration;
 * none when every median is zero or all are the same (a chart of equal
 * bars says nothing the tables do not).  LOGY, or a log axis anyway when
 * the medians are decades apart (said on the axis). */
static int bars(struct nb_report *r, const char *dir, const char *name,
		const char *title, const char *ylabel, int logy,
		const struct bar_rows *br)
{
	struct bar_set bs = { 0 };
	double vmin, vmax, pos = INFINITY;
	double *v, *lo, *hi;
	char yl[128];
	int rc = 0;

	bar_fill(r, br, &bs, &vmin, &vmax);
	for (size_t k = 0; k < bs.ng * bs.cap_s; k++)
		if (bs.v[k] > 0)
			pos = fmin(pos, bs.v[k]);
	if (!bs.ng || vmax <= 0 || (bs.ng * bs.ns > 1 && vmax - vmin <= 1e-9 * vmax)) {
		bar_set_free(&bs);
		return 0;
	}
	/* figures decades apart (5 k and 400 k IOPS): a log axis, or the
	 * small bars vanish */
	if (logy || (isfinite(pos) && vmax / pos >= 30)) {
		logy = 1;
		snprintf(yl, sizeof(yl), "%s (log scale)", ylabel);
		ylabel = yl;
	}
	v = calloc(bs.ng * bs.ns + 1, sizeof(double));
	lo = calloc(bs.ng * bs.ns + 1, sizeof(double));
	hi = calloc(bs.ng * bs.ns + 1, sizeof(double));
	for (size_t g = 0; g < bs.ng; g++)
		for (size_t s = 0; s < bs.ns; s++) {
			v[g * bs.ns + s] = bs.v[g * bs.cap_s + s];
			lo[g * bs.ns + s] = bs.lo[g * bs.cap_s + s];
			hi[g * bs.ns + s] = bs.hi[g * bs.cap_s + s];
		}
	struct nb_bars b = { name, title, ylabel, logy, bs.ng, bs.ns,
			     (const char *const *)bs.groups,
			     (const char *const *)bs.series, v, lo, hi, NULL };

	rc = nb_chart_bars(dir, &b);
	if (!rc)
		nb_report_add_chart(r, name, title, -1);
	free(v), free(lo), free(hi);
	bar_set_free(&bs);
	return rc;
}

/* The access pattern of workload key WL ("seq", "rand"; "" when its
 * spec says none), from its first entry. */
static const char *wl_pattern(const struct nb_report *r, const char *wl)
{
	for (size_t c = 0; c < r->ncfg; c++) {
		const char *p = NULL;

		NB_REPORT_FOR_ENTRIES(r, &r->cfgs[c], wl, e, {
			if (!p)
				p = nb_jstr(json_object_get(e, "spec"), "pattern");
		});
		if (p)
			return p;
	}
	return "";
}

/* One metric M across the workloads: those whose pattern is not SKIP
 * (throughput for the sequential ones, IOPS for the random ones: each
 * chart on a scale that makes sense for what it holds; NULL: all). */
int nb_report_bars_across(struct nb_report *r, const char *dir, const char *m,
			  const char *title, int logy, const char *skip,
			  const char *title_skipped)
{
	size_t nw = json_array_size(r->wls);
	struct bar_rows br = { 0, calloc(nw + 1, sizeof(char *)),
			       calloc(nw + 1, sizeof(char *)),
			       calloc(nw + 1, sizeof(char *)) };
	char name[64];
	int rc;

	for (size_t w = 0; w < nw; w++) {
		const char *wl = json_string_value(json_array_get(r->wls, w));

		if (skip && !strcmp(wl_pattern(r, wl), skip)) {
			title = title_skipped;  /* said in the title */
			continue;
		}
		br.wls[br.n] = wl;
		br.ms[br.n] = strdup(m);
		br.labels[br.n++] = strdup(wl);
	}
	snprintf(name, sizeof(name), "bars_%s", m);
	rc = bars(r, dir, name, title, nb_metric_find(m)->label, logy, &br);
	bar_rows_free(&br);
	return rc;
}

/* One chart of the figures of unit group G, every workload's. */
static int unit_chart(struct nb_report *r, const char *dir, const char *g)
{
	size_t nw = json_array_size(r->wls), cap = 16;
	struct bar_rows br = { 0, calloc(cap, sizeof(char *)), calloc(cap, sizeof(char *)),
			       calloc(cap, sizeof(char *)) };
	char name[96], title[160], gs[64];
	int rc;

	for (size_t w = 0; w < nw; w++) {
		const char *wl = json_string_value(json_array_get(r->wls, w));
		size_t nm;
		const char **ms = nb_report_metrics(r, wl, &nm);

		for (size_t i = 0; i < nm; i++) {
			char label[300];

			if (is_standard(ms[i]) || strcmp(unit_group(ms[i]), g) ||
			    nb_metric_find(ms[i])->better == NB_NEITHER)
				continue;
			if (br.n + 1 >= cap) {
				cap *= 2;
				br.wls = realloc(br.wls, cap * sizeof(char *));
				br.ms = realloc(br.ms, cap * sizeof(char *));
				br.labels = realloc(br.labels, cap * sizeof(char *));
			}
			snprintf(label, sizeof(label), "%s: %s", wl, nb_metric_find(ms[i])->label);
			br.wls[br.n] = wl;
			br.ms[br.n] = strdup(ms[i]);
			br.labels[br.n++] = strdup(label);
		}
		nb_report_names_free(ms, nm);
	}
	nb_chart_slug(gs, sizeof(gs), g);
	snprintf(name, sizeof(name), "figures_%s", gs);
	snprintf(title, sizeof(title), "Other figures in %s (median, min-max)", g);
	rc = bars(r, dir, name, title, g, !strcmp(g, "us"), &br);
	bar_rows_free(&br);
	return rc;
}

/* The other figures (bonnie's phases, xz's ratio...) one chart per unit,
 * a bar per workload and figure, while the budget lasts. */
int nb_report_unit_charts(struct nb_report *r, const char *dir)
{
	size_t nw = json_array_size(r->wls), ng = 0;
	char groups[64][64];
	int rc = 0;

	for (size_t w = 0; w < nw; w++) {
		size_t nm;
		const char **ms = nb_report_metrics(r, json_string_value(
			json_array_get(r->wls, w)), &nm);

		for (size_t i = 0; i < nm; i++) {
			const char *g = unit_group(ms[i]);
			size_t d;

			for (d = 0; d < ng && strcmp(groups[d], g); d++)
				;
			/* a figure with no better direction (a verdict, a
			 * count, CPU time) is in the tables, not charted */
			if (!is_standard(ms[i]) && d == ng && ng < 64 &&
			    nb_metric_find(ms[i])->better != NB_NEITHER)
				snprintf(groups[ng++], sizeof(groups[0]), "%s", g);
		}
		nb_report_names_free(ms, nm);
	}
	for (size_t g = 0; g < ng && !rc && r->ncharts < NB_REPORT_MAX_CHARTS; g++)
		rc = unit_chart(r, dir, groups[g]);
	return rc;
}

