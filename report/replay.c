/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.c - the report's "Replay" section (docs/replay.md): each
 * configuration's headroom over the captured load and the years it holds,
 * today's load and the busiest minute replayed, the population replayed,
 * and the captured load over time with what each configuration holds
 * drawn across it.  The replay's response-time curve is the capacity
 * curve of charts.c, beside it.
 */
#include "model.h"
#include "../core/result.h"
#include "../core/stats.h"
#include "../formats/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PATH's last part. */
static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The replay of entry E's last iteration, or NULL. */
static const json_t *replay_of(const json_t *e)
{
	return json_object_get(nb_result_last(e), "replay");
}

/* Run the block on each counted entry E of result D with a replay. */
#define FOR_REPLAYS(r, d, e, ...)                                             \
	for (size_t d_ = 0; d_ < (r)->ndocs; d_++) {                           \
		const json_t *d = (r)->docs[d_], *e;                           \
		size_t j_;                                                     \
		json_array_foreach(json_object_get(d, "results"), j_, e)       \
			if (nb_report_entry_counts(e) && replay_of(e)) {       \
				__VA_ARGS__                                    \
			}                                                      \
	}

int nb_report_has_replay(const struct nb_report *r)
{
	FOR_REPLAYS(r, d, e, { (void)d; (void)e; return 1; });
	return 0;
}

/* The median of METRIC over E's iterations, as "PRE2.31SUF (n=3)", or "-". */
static json_t *median_cell(const json_t *e, const char *metric, const char *pre,
			   const char *suf)
{
	double v[256], med;
	int n = nb_result_values(e, metric, v, 256);
	char b[128];

	if (n <= 0)
		return json_string("-");
	med = nb_stats_median(v, (size_t)n);
	snprintf(b, sizeof(b), "%s%.2f%s", pre, med, suf);
	if (n > 1)
		snprintf(b + strlen(b), sizeof(b) - strlen(b), " (n=%d)", n);
	return json_string(b);
}

static json_t *step_cell(const json_t *st)
{
	char b[96];

	if (!json_is_object(st))
		return json_string("-");
	snprintf(b, sizeof(b), "%s, p99 %.1f ms", json_is_true(json_object_get(
		 st, "slo_met")) ? "meets" : json_is_true(json_object_get(st, "valid")) ?
		 "breaks" : "not achieved",
		 json_number_value(json_object_get(st, "resp_p99_us")) / 1e3);
	return json_string(b);
}

static json_t *headroom_table(const struct nb_report *r)
{
	json_t *rows = json_array();

	FOR_REPLAYS(r, d, e, {
		const json_t *rp = replay_of(e);
		int lb = json_is_true(json_object_get(rp, "lower_bound"));
		char load[96], years[64];

		snprintf(load, sizeof(load), "%d VMs, %.0f IOPS",
			 (int)json_integer_value(json_object_get(rp, "population")),
			 json_number_value(json_object_get(rp, "today_iops")));
		snprintf(years, sizeof(years), " at %s", nb_jstr(rp, "growth"));
		json_array_append_new(rows, json_pack("[s, s, s, s, o, o, o, o]",
			nb_report_cfg_of(r, d), nb_jstr(e, "target"), load,
			nb_jstr(rp, "objective"),
			median_cell(e, "headroom", lb ? ">= " : "", "x"),
			median_cell(e, "years", lb ? ">= " : "", years),
			step_cell(json_object_get(rp, "today")),
			step_cell(json_object_get(rp, "peak"))));
	});
	return json_pack("{s:[s, s, s, s, s, s, s, s], s:o}", "head",
			 "configuration", "target", "today's load (busiest hour)",
			 "objective", "headroom", "years", "today's load (1x)",
			 "busiest minute as it was", "rows", rows);
}

/* O's number KEY as a cell of text. */
static json_t *fig(const json_t *o, const char *key, const char *fmt)
{
	char b[48];

	snprintf(b, sizeof(b), fmt, json_number_value(json_object_get(o, key)));
	return json_string(b);
}

/* The population of the first replay: its VMs as replayed, and what
 * each issued at 1x. */
static json_t *population_table(const struct nb_report *r)
{
	json_t *rows = json_array();

	FOR_REPLAYS(r, d, e, {
		const json_t *rp = replay_of(e), *v, *pv;
		size_t i;

		(void)d;
		pv = json_object_get(json_object_get(rp, "today"), "per_vm");
		json_array_foreach(json_object_get(rp, "vms"), i, v) {
			const json_t *got = NULL, *x;
			size_t k;
			char sz[64], is[48] = "-";

			json_array_foreach(pv, k, x)
				if (!strcmp(nb_jstr(x, "name"), nb_jstr(v, "name")))
					got = x;
			snprintf(sz, sizeof(sz), "%d / %d",
				 (int)json_integer_value(json_object_get(v, "bs_read_replayed")),
				 (int)json_integer_value(json_object_get(v, "bs_write_replayed")));
			if (got)
				snprintf(is, sizeof(is), "%.1f", json_number_value(
					 json_object_get(got, "issued_iops")));
			json_array_append_new(rows, json_pack("[s, I, o, o, s, o, o, s]",
				nb_jstr(v, "name"), json_integer_value(json_object_get(v, "count")),
				fig(v, "iops", "%.1f"), fig(v, "read_pct", "%.1f"), sz,
				fig(v, "sequential_pct", "%.0f"), fig(v, "share_pct", "%.2f"),
				is));
		}
		return json_pack("{s:[s, s, s, s, s, s, s, s], s:o}", "head", "VM",
				 "count", "IOPS (busiest hour)", "read %",
				 "read / write bytes", "sequential %", "share of the data %",
				 "issued at 1x (IOPS each)", "rows", rows);
	});
	return json_pack("{s:[], s:o}", "head", "rows", rows);
}

json_t *nb_report_replay_parts(const struct nb_report *r)
{
	json_t *parts = json_array();
	const json_t *first = NULL;
	char b[600];

	FOR_REPLAYS(r, d, e, { (void)d; if (!first) first = replay_of(e); });
	snprintf(b, sizeof(b), "The load of the box you have, captured ('%s'%s%s), "
		 "replayed on each configuration: each VM its own open-loop source at "
		 "its busiest-hour rate, read share, request sizes and sequential "
		 "share, over its share of the data set, scaled until the objective "
		 "breaks. The headroom is the largest scale that meets it; the years "
		 "are how long it holds at the load's growth (docs/replay.md).",
		 base(nb_jstr(first, "load")), *nb_jstr(first, "source") ? ", from " : "",
		 nb_jstr(first, "source"));
	json_array_append_new(parts, json_pack("{s:s}", "para", b));
	json_array_append_new(parts, json_pack("{s:o}", "table", headroom_table(r)));
	json_array_append_new(parts, json_pack("{s:s}", "caption",
					       "The population replayed"));
	json_array_append_new(parts, json_pack("{s:o}", "table", population_table(r)));
	return parts;
}

/* ---- the captured load over time ---- */

/* Series S of the chart: X minutes, Y IOPS (N points, malloc'd). */
struct line {
	char name[200];
	size_t n;
	double *x, *y;
};

static void level(struct line *l, const char *name, double x1, double y)
{
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->n = 2;
	l->x = malloc(2 * sizeof(double));
	l->y = malloc(2 * sizeof(double));
	l->x[0] = 0, l->x[1] = x1, l->y[0] = l->y[1] = y;
}

/* The load's read, write and total IOPS a bucket from SER; 3 lines. */
static size_t load_lines(const json_t *ser, struct line *l, double *x1)
{
	const json_t *rd = json_object_get(ser, "read_iops");
	const json_t *wr = json_object_get(ser, "write_iops");
	double bs = json_number_value(json_object_get(ser, "bucket_s"));
	size_t n = json_array_size(rd);
	static const char *const names[] = { "reads", "writes", "all I/O" };

	for (int k = 0; k < 3; k++) {
		snprintf(l[k].name, sizeof(l[k].name), "captured: %s", names[k]);
		l[k].n = n;
		l[k].x = malloc((n ? n : 1) * sizeof(double));
		l[k].y = malloc((n ? n : 1) * sizeof(double));
		for (size_t i = 0; i < n; i++) {
			double a = json_number_value(json_array_get(rd, i));
			double b = json_number_value(json_array_get(wr, i));

			l[k].x[i] = ((double)i + 0.5) * bs / 60;
			l[k].y[i] = k == 0 ? a : k == 1 ? b : a + b;
		}
	}
	*x1 = (double)n * bs / 60;
	return 3;
}

int nb_report_replay_charts(struct nb_report *r, const char *dir)
{
	struct line l[3 + 1 + 16];
	const json_t *ser = NULL, *first = NULL;
	size_t n = 0;
	double x1 = 0;
	char title[300];
	int rc;

	FOR_REPLAYS(r, d, e, {
		(void)d;
		if (!ser && json_is_object(json_object_get(replay_of(e), "series")))
			first = replay_of(e), ser = json_object_get(first, "series");
	});
	if (!ser || r->ncharts >= NB_REPORT_MAX_CHARTS)
		return 0;
	n = load_lines(ser, l, &x1);
	level(&l[n++], "today's busiest hour (1x)", x1,
	      json_number_value(json_object_get(first, "today_iops")));
	FOR_REPLAYS(r, d, e, {
		const json_t *rp = replay_of(e);
		char name[200];

		if (n < sizeof(l) / sizeof(*l) && json_is_true(json_object_get(rp, "found")) &&
		    !strcmp(nb_jstr(rp, "load"), nb_jstr(first, "load"))) {
			snprintf(name, sizeof(name), "%s holds %.2fx",
				 nb_report_cfg_of(r, d),
				 json_number_value(json_object_get(rp, "headroom")));
			level(&l[n++], name, x1, json_number_value(json_object_get(rp,
			      "headroom")) * json_number_value(json_object_get(rp,
			      "today_iops")));
		}
	});
	snprintf(title, sizeof(title), "Captured load over time (%s) and what each "
		 "configuration holds", base(nb_jstr(first, "load")));
	{
		const char *names[sizeof(l) / sizeof(*l)];
		size_t cnt[sizeof(l) / sizeof(*l)];
		const double *xs[sizeof(l) / sizeof(*l)], *ys[sizeof(l) / sizeof(*l)];
		struct nb_lines ln = { "replay_load", title, "minutes into the capture",
				       "IOPS", n, names, cnt, xs, ys };

		for (size_t i = 0; i < n; i++)
			names[i] = l[i].name, cnt[i] = l[i].n, xs[i] = l[i].x, ys[i] = l[i].y;
		rc = nb_chart_lines(dir, &ln);
	}
	for (size_t i = 0; i < n; i++)
		free(l[i].x), free(l[i].y);
	if (!rc)
		nb_report_add_chart(r, "replay_load", title, NB_REPORT_CHART_REPLAY);
	return rc;
}
