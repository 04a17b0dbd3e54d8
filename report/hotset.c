/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hotset.c - the report's "Hot set and ARC" section (docs/data.md): each
 * configuration's hot-set sweep, where its p99 doubles against the hot
 * set's size and what the ARC answered, as a table and as a chart (p99
 * against the hot set's size, the knee and the size that fits marked).
 */
#include "model.h"
#include "../core/result.h"
#include "../core/units.h"
#include "../formats/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The hot-set sweep of configuration C for workload WL: its first
 * entry's last, or NULL. */
static const json_t *hot_of(const struct nb_report *r,
			    const struct nb_report_cfg *c, const char *wl)
{
	const json_t *hs = NULL;

	NB_REPORT_FOR_ENTRIES(r, c, wl, e, {
		const json_t *h = json_object_get(nb_result_last(e), "hot_sweep");

		if (!hs && nb_report_entry_counts(e) &&
		    json_array_size(json_object_get(h, "steps")))
			hs = h;
	});
	return hs;
}

int nb_report_has_hot(const struct nb_report *r)
{
	for (size_t w = 0; w < json_array_size(r->wls); w++)
		for (size_t c = 0; c < r->ncfg; c++)
			if (hot_of(r, &r->cfgs[c], json_string_value(json_array_get(r->wls, w))))
				return 1;
	return 0;
}

static double num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static json_t *size_cell(double v)
{
	char b[32];

	return json_string(isfinite(v) ? nb_fmt_size((uint64_t)v, b, sizeof(b)) : "-");
}

/* "98.5% -> 12.0%": the ARC's hits at the smallest and the largest. */
static json_t *arc_cell(const json_t *steps)
{
	double a = num(json_array_get(steps, 0), "arc_hit_pct");
	double b = num(json_array_get(steps, json_array_size(steps) - 1),
		       "arc_hit_pct");
	char t[64];

	if (!isfinite(a) || !isfinite(b))
		return json_string("-");
	snprintf(t, sizeof(t), "%.1f%% -> %.1f%%", a, b);
	return json_string(t);
}

static json_t *hot_table(const struct nb_report *r)
{
	json_t *rows = json_array();

	for (size_t w = 0; w < json_array_size(r->wls); w++) {
		const char *wl = json_string_value(json_array_get(r->wls, w));

		for (size_t c = 0; c < r->ncfg; c++) {
			const json_t *hs = hot_of(r, &r->cfgs[c], wl);
			const json_t *steps = json_object_get(hs, "steps");
			char p99[64];

			if (!hs)
				continue;
			snprintf(p99, sizeof(p99), "%.2f ms",
				 num(json_array_get(steps, 0), "lat_p99_us") / 1e3);
			json_array_append_new(rows, json_pack("[s, s, o, o, s, o, o, s]",
				r->cfgs[c].name, wl, size_cell(num(hs, "fits_bytes")),
				size_cell(num(hs, "knee_bytes")), p99,
				arc_cell(steps), size_cell(num(hs, "arc_max_bytes")),
				nb_jstr(hs, "text")));
		}
	}
	return json_pack("{s:[s, s, s, s, s, s, s, s], s:o}", "head", "configuration",
			 "workload", "hot set fits in", "p99 doubles at",
			 "p99, smallest hot set", "ARC hits, smallest -> largest",
			 "ARC at most", "finding", "rows", rows);
}

json_t *nb_report_hot_parts(const struct nb_report *r)
{
	json_t *parts = json_array();

	json_array_append_new(parts, json_pack("{s:s}", "para",
		"The ARC a hot set needs: the workload run once per hot-set size, "
		"its random I/Os on the first part of the data set (each VM's on "
		"the first part of its own region), the sizes rising. Where the p99 "
		"latency doubles against the smallest hot set's, the hot set no "
		"longer fits in the box's cache; the ARC's hit rate over each step "
		"is the box's own count (docs/data.md)."));
	json_array_append_new(parts, json_pack("{s:o}", "table", hot_table(r)));
	return parts;
}

/* Configuration C's steps of HS as a line (MiB across, p99 ms up), its
 * knee (K) and the size that fits (F) marked. */
static size_t hot_series(const json_t *hs, double **x, double **y, double *kx,
			 double *ky, double *fx, double *fy)
{
	const json_t *steps = json_object_get(hs, "steps"), *st;
	size_t n = json_array_size(steps), i;

	*x = calloc(n ? n : 1, sizeof(double));
	*y = calloc(n ? n : 1, sizeof(double));
	*kx = *ky = *fx = *fy = NAN;
	json_array_foreach(steps, i, st) {
		(*x)[i] = num(st, "hot_bytes") / 1048576;
		(*y)[i] = num(st, "lat_p99_us") / 1e3;
		if (num(st, "hot_bytes") == num(hs, "knee_bytes"))
			*kx = (*x)[i], *ky = (*y)[i];
		if (num(st, "hot_bytes") == num(hs, "fits_bytes"))
			*fx = (*x)[i], *fy = (*y)[i];
	}
	return n;
}

static int hot_chart(struct nb_report *r, const char *dir, size_t w)
{
	const char *wl = json_string_value(json_array_get(r->wls, w));
	size_t m = r->ncfg, ns = 0, *n = calloc(m, sizeof(*n));
	double **x = calloc(m, sizeof(*x)), **y = calloc(m, sizeof(*y));
	double *k = calloc(4 * m, sizeof(double)), limit = 0;
	const char **names = calloc(m, sizeof(*names));
	char name[160], slug[128], title[300], lt[200];
	int rc = 0;

	for (size_t c = 0; c < m; c++) {
		const json_t *hs = hot_of(r, &r->cfgs[c], wl);

		if (!hs)
			continue;
		n[ns] = hot_series(hs, &x[ns], &y[ns], &k[ns], &k[m + ns],
				   &k[2 * m + ns], &k[3 * m + ns]);
		if (!ns)
			limit = 2 * y[0][0];
		names[ns++] = r->cfgs[c].name;
	}
	if (ns) {
		nb_chart_slug(slug, sizeof(slug), wl);
		snprintf(name, sizeof(name), "hotset_%s", slug);
		snprintf(title, sizeof(title), "%s: p99 latency against the hot set's "
			 "size", wl);
		snprintf(lt, sizeof(lt), "2x the smallest hot set's p99 (%s)", names[0]);
		struct nb_curve cv = { { name, title, "hot set, MiB", "p99 latency, ms",
					 ns, names, n, (const double *const *)x,
					 (const double *const *)y },
				       limit, lt, k, k + m, k + 2 * m, k + 3 * m };

		rc = nb_chart_curve_ax(dir, &cv, 1, "p99 doubled", "fits");
		if (!rc)
			nb_report_add_chart(r, name, title, NB_REPORT_CHART_HOT);
	}
	for (size_t i = 0; i < ns; i++)
		free(x[i]), free(y[i]);
	free(x), free(y), free(n), free(k), free(names);
	return rc;
}

int nb_report_hot_charts(struct nb_report *r, const char *dir)
{
	int rc = 0;

	for (size_t w = 0; w < json_array_size(r->wls) && !rc &&
	     r->ncharts < NB_REPORT_MAX_CHARTS; w++)
		rc = hot_chart(r, dir, w);
	return rc;
}
