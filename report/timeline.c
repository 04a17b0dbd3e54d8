/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timeline.c - the report's "Under failure" section (docs/failure.md):
 * each failure walk's figures per box state beside the healthy ones, its
 * rebuild, records and counters, and its timeline chart (the client's
 * throughput and p99 latency each second, the states as bands, the
 * rebuild's percent on the same time axis).
 */
#include "model.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../formats/chart.h"
#include "../formats/failure.h"
#include "../decision/summary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nb_report_has_failure(const struct nb_report *r)
{
	for (size_t i = 0; i < r->ndocs; i++)
		if (json_object_get(r->docs[i], "failure"))
			return 1;
	return 0;
}

static json_t *cell(const struct nb_failure_row *w, int s)
{
	char a[48], b[80];
	double k = nb_failure_keeps(w, s);

	if (isnan(w->v[s]))
		return json_string("-");
	nb_metric_fig(w->v[s], w->metric, a, sizeof(a));
	if (!s || isnan(k))
		return json_string(a);
	snprintf(b, sizeof(b), "%s (%.0f%%)", a, 100 * k);
	return json_string(b);
}

static json_t *states_table(const struct nb_report *r)
{
	static struct nb_failure_row rows[NB_FAILURE_MAXROWS];
	json_t *body = json_array();

	for (size_t d = 0; d < r->ndocs; d++) {
		int n = nb_failure_rows(r->docs[d], rows, NB_FAILURE_MAXROWS);

		for (int i = 0; i < n; i++) {
			json_t *row = json_pack("[s, s, s, s]", nb_report_cfg_of(r, r->docs[d]),
						rows[i].workload, rows[i].target,
						rows[i].metric ? nb_metric_find(
						rows[i].metric)->label : "-");

			for (int s = 0; s < NB_BOX_STATES; s++)
				json_array_append_new(row, cell(&rows[i], s));
			json_array_append_new(body, row);
		}
	}
	return json_pack("{s:[s, s, s, s, s, s, s, s], s:o}", "head",
			 "configuration", "workload", "target", "figure", "healthy",
			 "degraded (kept)", "rebuilding (kept)", "rebuilt (kept)",
			 "rows", body);
}

static json_t *secs(const json_t *f, const char *key)
{
	const json_t *o = json_object_get(f, key);
	char b[64];

	if (!o)
		return json_string("-");
	snprintf(b, sizeof(b), "%.1f s", json_number_value(json_object_get(o, "seconds")));
	return json_string(b);
}

static json_t *records_cell(const json_t *f)
{
	long long all = 0, lost = 0;
	const json_t *o;
	size_t i;
	char b[96];

	json_array_foreach(json_object_get(f, "records"), i, o) {
		all += json_integer_value(json_object_get(o, "blocks"));
		lost += json_integer_value(json_object_get(o, "lost"));
	}
	if (!all)
		return json_string("-");
	snprintf(b, sizeof(b), "%lld of %lld intact", all - lost, all);
	return json_string(b);
}

static json_t *walk_table(const struct nb_report *r)
{
	json_t *body = json_array();

	for (size_t d = 0; d < r->ndocs; d++) {
		const json_t *f = json_object_get(r->docs[d], "failure");
		const json_t *c = json_object_get(f, "counters");
		char err[96] = "-";

		if (!f)
			continue;
		if (json_is_object(c))
			snprintf(err, sizeof(err), "%.0f / %.0f / %.0f",
				 json_number_value(json_object_get(c, "read")),
				 json_number_value(json_object_get(c, "write")),
				 json_number_value(json_object_get(c, "cksum")));
		json_array_append_new(body, json_pack("[s, s, s, o, o, o, s, s]",
			nb_report_cfg_of(r, r->docs[d]), nb_jstr(f, "pool"),
			nb_jstr(json_array_get(json_object_get(f, "failed"), 0), "name"),
			secs(f, "rebuild"), secs(f, "rebuild_idle"), records_cell(f), err,
			nb_jstr(json_object_get(f, "box_left"), "state")));
	}
	return json_pack("{s:[s, s, s, s, s, s, s, s], s:o}", "head",
			 "configuration", "pool", "failed disk", "rebuild",
			 "rebuild idle", "records written before", "errors r/w/cksum",
			 "box left", "rows", body);
}

json_t *nb_report_failure_parts(const struct nb_report *r)
{
	json_t *parts = json_array();

	json_array_append_new(parts, json_pack("{s:s}", "para",
		"A disk of the pool failed and was replaced while the workloads ran: "
		"each figure in each box state, with the share of the healthy figure "
		"it kept; the rebuild timed from the replacement to a healthy pool "
		"(under the workloads' load, and idle when asked); the records "
		"written before the failure read back after it (docs/failure.md)."));
	json_array_append_new(parts, json_pack("{s:o}", "table", states_table(r)));
	json_array_append_new(parts, json_pack("{s:o}", "table", walk_table(r)));
	return parts;
}

/* ---- the timeline chart ---- */

struct series {
	char name[160];
	size_t n, cap;
	double *t, *mbs, *lat;
};

static struct series *series_of(struct series **all, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*all)[i].name, name))
			return &(*all)[i];
	*all = realloc(*all, (*n + 1) * sizeof(**all));
	memset(&(*all)[*n], 0, sizeof(**all));
	snprintf((*all)[*n].name, sizeof((*all)[*n].name), "%s", name);
	return &(*all)[(*n)++];
}

static void point(struct series *s, double t, double mbs, double lat)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->t = realloc(s->t, s->cap * sizeof(double));
		s->mbs = realloc(s->mbs, s->cap * sizeof(double));
		s->lat = realloc(s->lat, s->cap * sizeof(double));
	}
	s->t[s->n] = t, s->mbs[s->n] = mbs, s->lat[s->n++] = lat;
}

/* Every iteration's seconds on the walk's clock, a series per target and
 * workload. */
static void gather(const json_t *doc, struct series **all, size_t *n)
{
	const json_t *e, *it;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "results"), i, e) {
		char name[160];

		snprintf(name, sizeof(name), "%s on %s", nb_jstr(e, "workload"),
			 nb_jstr(e, "target"));
		json_array_foreach(json_object_get(e, "iterations"), j, it) {
			const json_t *bw = json_object_get(it, "series_bw_bytes");
			const json_t *lat = json_object_get(it, "series_lat_p99_us");
			double t0 = json_number_value(json_object_get(it, "walk_t_ms")) / 1e3;
			struct series *s;

			if (!json_is_integer(json_object_get(it, "walk_t_ms")) ||
			    !json_array_size(bw))
				continue;
			s = series_of(all, n, name);
			for (size_t k = 0; k < json_array_size(bw); k++) {
				const json_t *l = json_array_get(lat, k);

				point(s, t0 + (double)k + 0.5, json_number_value(
					json_array_get(bw, k)) / 1e6, json_is_number(l) ?
					json_number_value(l) / 1e3 : NAN);
			}
		}
	}
}

/* The rebuild's percent: 0 when the replacement came in, each reading
 * while it ran, 100 at its end; a break (NAN) before the next rebuild. */
static size_t percent(const json_t *f, double *t, double *pct, size_t max)
{
	const json_t *tl = json_object_get(f, "timeline"), *ts, *rb;
	size_t n = 0;

	ts = json_object_get(tl, "t_ms");
	for (int k = 0; k < 2; k++) {
		double a, b;

		rb = json_object_get(f, k ? "rebuild_idle" : "rebuild");
		if (!rb || n + 3 > max)
			continue;
		a = json_number_value(json_object_get(rb, "start_ms"));
		b = json_number_value(json_object_get(rb, "end_ms"));
		if (n)
			t[n] = pct[n] = NAN, n++;
		t[n] = a / 1e3, pct[n++] = 0;
		for (size_t i = 0; i < json_array_size(ts) && n + 2 < max; i++) {
			const json_t *p = json_array_get(json_object_get(tl, "pct"), i);
			double x = json_number_value(json_array_get(ts, i));

			if (x < a || x > b || !json_is_number(p) ||
			    !json_is_true(json_array_get(json_object_get(tl, "active"), i)))
				continue;
			t[n] = x / 1e3, pct[n++] = json_number_value(p);
		}
		t[n] = b / 1e3, pct[n++] = 100;
	}
	return n;
}

static int bands(const json_t *f, struct nb_timeline *tl, double *x0, double *x1,
		 const char **st, double *ex, const char **en, size_t max)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(f, "phases"), i, p) {
		int idle = json_is_true(json_object_get(p, "idle"));

		/* the idle round: its rebuild alone, one band (its degraded
		 * part is the seconds the fail command takes) */
		if (tl->nbands == max || (idle && strcmp(nb_jstr(p, "state"), "rebuilding")))
			continue;
		x0[tl->nbands] = json_number_value(json_object_get(p, "start_ms")) / 1e3;
		x1[tl->nbands] = json_number_value(json_object_get(p, "end_ms")) / 1e3;
		st[tl->nbands++] = idle ? "idle rebuild" : nb_jstr(p, "state");
	}
	json_array_foreach(json_object_get(f, "events"), i, p) {
		const char *w = nb_jstr(p, "what");

		if (tl->nevents == max || !strcmp(w, "degraded"))
			continue;
		ex[tl->nevents] = json_number_value(json_object_get(p, "t_ms")) / 1e3;
		en[tl->nevents++] = !strcmp(w, "fail") ? "disk failed" :
				    !strcmp(w, "replace") ? "replaced" : w;
	}
	return 0;
}

/* One timeline chart of DOC's walk into DIR, NAME; 0 or -errno. */
static int timeline(const struct nb_report *r, const json_t *doc,
		    const char *dir, const char *name, char *title, size_t tlen)
{
	const json_t *f = json_object_get(doc, "failure");
	struct series *all = NULL;
	size_t n = 0, np;
	double x0[16], x1[16], ex[16], *pt = malloc(8192 * sizeof(double));
	double *pp = malloc(8192 * sizeof(double));
	const char *st[16], *en[16], **names;
	struct nb_timeline tl = { .name = name, .title = title };
	int rc;

	snprintf(title, tlen, "Under failure: %s (pool %s)",
		 nb_report_cfg_of(r, doc), nb_jstr(f, "pool"));
	gather(doc, &all, &n);
	np = pt && pp ? percent(f, pt, pp, 8192) : 0;
	bands(f, &tl, x0, x1, st, ex, en, 16);
	names = calloc(n + 1, sizeof(*names));
	tl.n = calloc(n + 1, sizeof(size_t));
	tl.t = calloc(n + 1, sizeof(double *));
	tl.mbs = calloc(n + 1, sizeof(double *));
	tl.lat_ms = calloc(n + 1, sizeof(double *));
	for (size_t i = 0; i < n; i++) {
		names[i] = all[i].name;
		((size_t *)tl.n)[i] = all[i].n;
		((const double **)tl.t)[i] = all[i].t;
		((const double **)tl.mbs)[i] = all[i].mbs;
		((const double **)tl.lat_ms)[i] = all[i].lat;
	}
	tl.series = names, tl.nseries = n;
	tl.band_x0 = x0, tl.band_x1 = x1, tl.band_state = st;
	tl.event_x = ex, tl.event_name = en;
	tl.pct_t = pt, tl.pct = pp, tl.npct = np;
	rc = nb_chart_timeline(dir, &tl);
	for (size_t i = 0; i < n; i++)
		free(all[i].t), free(all[i].mbs), free(all[i].lat);
	free(all), free(names), free((void *)tl.n), free((void *)tl.t);
	free((void *)tl.mbs), free((void *)tl.lat_ms), free(pt), free(pp);
	return rc;
}

int nb_report_timeline_charts(struct nb_report *r, const char *dir)
{
	for (size_t d = 0; d < r->ndocs; d++) {
		char name[160], slug[128], title[256];
		struct nb_report_chart *c;
		int rc;

		if (!json_object_get(r->docs[d], "failure"))
			continue;
		nb_chart_slug(slug, sizeof(slug), nb_report_cfg_of(r, r->docs[d]));
		snprintf(name, sizeof(name), "timeline-%zu-%s", d + 1, slug);
		rc = timeline(r, r->docs[d], dir, name, title, sizeof(title));
		if (rc)
			return rc;
		r->charts = realloc(r->charts, (r->ncharts + 1) * sizeof(*r->charts));
		c = &r->charts[r->ncharts++];
		snprintf(c->name, sizeof(c->name), "%s", name);
		snprintf(c->title, sizeof(c->title), "%s", title);
		c->workload = NB_REPORT_CHART_FAILURE;
	}
	return 0;
}
