/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_out.c - what the replay found, into the iteration (replay.h has
 *                the object's shape; docs/replay.md).
 */
#include "replay.h"
#include "../../core/result.h"
#include "../../core/escape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sums of a step's per-source counts for one section of the load file. */
struct vm_sum {
	double asked, reads, writes;
	long n;
};

static json_t *per_vm_row(const struct nb_wl_replay *r,
			  const struct nb_replay_pop *pop, int i,
			  const struct vm_sum *v, double secs, double *worst_iops,
			  double *worst_read)
{
	double asked = v->asked / (double)v->n;
	double issued = (v->reads + v->writes) / secs / (double)v->n;
	double rd = v->reads + v->writes > 0 ? 100 * v->reads /
		    (v->reads + v->writes) : 0;
	double di = asked > 0 ? 100 * (issued - asked) / asked : 0;
	double dr = rd - pop->vms[i].read_pct;

	if (fabs(di) > fabs(*worst_iops))
		*worst_iops = di;
	if (fabs(dr) > fabs(*worst_read))
		*worst_read = dr;
	return json_pack("{s:s, s:i, s:f, s:f, s:f, s:f, s:I}", "name",
			 r->l.vms[i].name, "count", pop->vms[i].count,
			 "asked_iops", asked, "issued_iops", issued,
			 "asked_read_pct", pop->vms[i].read_pct,
			 "issued_read_pct", rd, "ios", (json_int_t)(v->reads + v->writes));
}

json_t *nb_wl_replay_per_vm(const struct nb_wl_replay *r,
			 const struct nb_replay_pop *pop, json_t *step)
{
	const json_t *ps = json_object_get(step, "per_source");
	const json_t *asked = json_object_get(ps, "asked");
	const json_t *reads = json_object_get(ps, "reads");
	const json_t *writes = json_object_get(ps, "writes");
	double secs = json_number_value(json_object_get(ps, "seconds"));
	double wi = 0, wr = 0;
	struct vm_sum *sum;
	json_t *out;

	if (!ps || json_array_size(asked) != pop->nsrc || !(secs > 0) ||
	    !(sum = calloc((size_t)pop->nvms, sizeof(*sum)))) {
		json_object_del(step, "per_source");
		return NULL;
	}
	for (uint32_t k = 0; k < pop->nsrc; k++) {
		struct vm_sum *v = &sum[pop->src_vm[k]];

		v->asked += json_number_value(json_array_get(asked, k));
		v->reads += (double)json_integer_value(json_array_get(reads, k));
		v->writes += (double)json_integer_value(json_array_get(writes, k));
		v->n++;
	}
	out = json_array();
	for (int i = 0; i < pop->nvms; i++)
		if (sum[i].n)
			json_array_append_new(out, per_vm_row(r, pop, i, &sum[i], secs,
							      &wi, &wr));
	free(sum);
	json_object_del(step, "per_source");
	json_object_set_new(step, "worst_iops_pct", json_real(wi));
	json_object_set_new(step, "worst_read_points", json_real(wr));
	return out;
}

/* ---- the replay object -------------------------------------------------- */

static json_t *vms_json(const struct nb_wl_replay *r)
{
	json_t *a = json_array();

	for (int i = 0; i < r->l.nvms; i++) {
		const struct nb_load_vm *v = &r->l.vms[i];
		const struct nb_replay_vm *p = &r->pop.vms[i];

		json_array_append_new(a, json_pack(
			"{s:s, s:i, s:f, s:f, s:f, s:f, s:i, s:i, s:f, s:f, s:I, s:I, s:f}",
			"name", v->name, "count", v->count, "iops", p->iops,
			"read_pct", p->read_pct, "bs_read", v->f.bs_read,
			"bs_write", v->f.bs_write, "bs_read_replayed", (int)p->bs,
			"bs_write_replayed", (int)p->bs_write,
			"sequential_pct", v->sequential, "share_pct", 100 * p->share,
			"region_bytes", (json_int_t)p->region,
			"region_base", (json_int_t)p->base,
			"iops_peak", v->f.iops_peak));
	}
	return a;
}

/* The total's series, bucket by bucket (the VMs' summed, each class
 * counted COUNT times), or null when a VM has none. */
static json_t *series_json(const struct nb_load *l)
{
	json_t *rd, *wr;
	int n = l->nvms ? l->vms[0].nbuckets : 0;

	for (int i = 0; i < l->nvms; i++) {
		if (!l->vms[i].series)
			return json_null();
		if (l->vms[i].nbuckets < n)
			n = l->vms[i].nbuckets;
	}
	if (n <= 0)
		return json_null();
	rd = json_array();
	wr = json_array();
	for (int b = 0; b < n; b++) {
		double r = 0, w = 0;

		for (int i = 0; i < l->nvms; i++) {
			r += l->vms[i].series[b].r_iops * l->vms[i].count;
			w += l->vms[i].series[b].w_iops * l->vms[i].count;
		}
		json_array_append_new(rd, json_real(r));
		json_array_append_new(wr, json_real(w));
	}
	return json_pack("{s:f, s:o, s:o, s:f}", "bucket_s", l->bucket_s,
			 "read_iops", rd, "write_iops", wr, "busy_iops",
			 l->have_total ? l->total.iops : NAN);
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* "headroom 2.31x today's load (24 VMs, 2385 IOPS) at p99 <= 20 ms: 3.7
 * years at 25%/year". */
static void text(const struct nb_wl_replay *r, const char *obj, double years,
		 char *buf, size_t len)
{
	char g[64];
	size_t n;

	if (!r->found) {
		snprintf(buf, len, "no scale of today's load (%u VMs, %.0f IOPS at "
			 "their busiest hour) meets %s", r->pop.population,
			 r->pop.iops, obj);
		return;
	}
	n = (size_t)snprintf(buf, len, "headroom %s%.2fx today's load (%u VMs, "
			     "%.0f IOPS at their busiest hour) at %s%s",
			     r->lower_bound ? "at least " : "", r->headroom,
			     r->pop.population, r->pop.iops, obj,
			     r->headroom < 1 - NB_WL_REPLAY_SAME ?
			     ": it does not hold today's load" : "");
	if (n >= len)
		return;
	if (!r->growth_from)
		snprintf(buf + n, len - n, "; give --growth for the years it holds");
	else if (years < 0)
		snprintf(buf + n, len - n, "; the years at %s cannot be said",
			 nb_growth_fmt(&r->g, g, sizeof(g)));
	else
		snprintf(buf + n, len - n, "; %s%.1f years at %s", r->lower_bound &&
			 years > 0 ? "at least " : "", years,
			 nb_growth_fmt(&r->g, g, sizeof(g)));
}

/* "the busiest minute (bucket 562, 3902 IOPS, 1.64x the busy hour) as it
 * was: meets p99 <= 20 ms, response p99 12.3 ms". */
static void peak_text(json_t *pk, double bucket_s, const char *obj)
{
	char b[400];

	snprintf(b, sizeof(b), "the busiest %s (bucket %lld, %.0f IOPS, %.2fx the "
		 "busiest hour) as it was: %s %s%s, response p99 %.1f ms",
		 bucket_s == 60 ? "minute" : "bucket",
		 (long long)json_integer_value(json_object_get(pk, "bucket")),
		 json_number_value(json_object_get(pk, "rate_iops")),
		 json_number_value(json_object_get(pk, "of_busy")),
		 json_is_true(json_object_get(pk, "slo_met")) ? "meets" : "breaks",
		 obj, json_is_true(json_object_get(pk, "valid")) ? "" :
		 " (not achieved: below 98% of its rate)",
		 json_number_value(json_object_get(pk, "resp_p99_us")) / 1e3);
	json_object_set_new(pk, "text", json_string(b));
}

static json_t *capture_json(const struct nb_wl_replay *r)
{
	char busy[16];

	snprintf(busy, sizeof(busy), "p%g", r->l.busy_pct);
	return json_pack("{s:s, s:s, s:s, s:f, s:f, s:s, s:b, s:s}", "load", r->path,
			 "source", r->l.source, "start", r->l.start,
			 "duration_s", r->l.duration_s, "bucket_s", r->l.bucket_s,
			 "busy", busy, "complete", r->l.complete, "stopped",
			 r->l.stopped);
}

void nb_wl_replay_put(struct nb_wl_replay *r)
{
	struct nb_wl_ctx *c = r->c;
	const json_t *sw = json_object_get(c->extra, "sweep");
	const char *obj = nb_jstr(sw, "objective_text");
	double years = r->growth_from ? nb_growth_years(&r->g, r->found ?
			r->headroom : 0, r->pop.population) : NAN;
	char t[600], g[64];
	json_t *o = capture_json(r);
	uint64_t data = 0;

	for (int i = 0; i < r->l.nvms; i++)
		data += r->l.vms[i].size * (uint64_t)r->l.vms[i].count;

	text(r, obj, years, t, sizeof(t));
	if (r->peak)
		peak_text(r->peak, r->l.bucket_s, obj);
	json_object_update_new(o, json_pack(
		"{s:i, s:i, s:i, s:f, s:f, s:f, s:f, s:I, s:I, s:o, s:s, s:s, s:f,"
		" s:b, s:b, s:b, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"population", (int)r->pop.population, "idle", (int)r->pop.idle,
		"classes", r->l.nvms, "today_iops", r->pop.iops,
		"read_pct", r->pop.read_pct, "sequential_pct", r->pop.seq_pct,
		"mean_bytes", r->pop.mean_bytes,
		"data_set_bytes", (json_int_t)r->s.size, "captured_bytes",
		(json_int_t)data, "vms", vms_json(r), "objective", nb_jstr(sw, "objective"),
		"scales", c->p->replay_scale[0] ? c->p->replay_scale : "auto",
		"headroom", r->headroom, "found", r->found, "lower_bound",
		r->lower_bound, "interpolated", r->interpolated, "text", t,
		"growth", r->growth_from ? json_string(nb_growth_fmt(&r->g, g,
			sizeof(g))) : json_null(),
		"growth_from", r->growth_from ? nb_json_text(r->growth_from) : json_null(),
		"years", r->growth_from ? num(years) : json_null(),
		"today", r->today ? json_incref(r->today) : json_null(),
		"peak", r->peak ? json_incref(r->peak) : json_null(),
		"peak_why", r->peak ? json_null() : json_string(r->peak_why),
		"series", series_json(&r->l)));
	json_object_set_new(c->extra, "replay", o);
	if (!json_array_size(json_object_get(sw, "steps")))
		return;
	nb_wl_metric(c, "headroom", r->headroom);
	if (r->growth_from && isfinite(years) && years >= 0)
		nb_wl_metric(c, "years", years);
	if (r->found && r->headroom < 1 - NB_WL_REPLAY_SAME)
		nb_wl_warn(c, "replay: %s", t);
}
