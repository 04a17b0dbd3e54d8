/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * openload.c - the open loop in a workload (openload.h): the spec from
 * the knobs, the figures, the verdict.
 */
#include "openload.h"
#include "../../core/knobs.h"
#include "../../core/samples.h"
#include "../../core/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void nb_iospec_arrivals(struct nb_iospec *s, const struct nb_params *p)
{
	const char *burst = p->burst[0] ? p->burst :
			    nb_knob_find("suite", "burst")->def;

	s->arrival = p->arrival >= 0 ? p->arrival :
		     (int)nb_knob_default("suite", "arrival");
	/* checked when the knob was set; the row's default parses */
	nb_burst_parse(burst, &s->burst_on_us, &s->burst_off_us);
}

void nb_iospec_load(struct nb_iospec *s, const struct nb_params *p)
{
	double iops = 0, bps = 0;

	nb_iospec_arrivals(s, p);
	if (!p->rate[0] || nb_arrival_rate_parse(p->rate, &iops, &bps))
		return;
	s->rate = iops > 0 ? iops : bps / s->bs;
	if (!p->iodepth)
		s->qd = NB_MAX_QD;
	if (!p->runtime_us && !s->bytes)
		s->runtime_us = nb_wl_step_us(p);
}

int nb_wl_capacity_run(const struct nb_params *p)
{
	return p->sweep > 0 || (p->sweep < 0 && (p->steps[0] || p->rates[0])) ||
	       p->vm_count || p->rate[0];
}

uint64_t nb_wl_capacity_bytes(const struct nb_params *p, uint64_t def)
{
	if (p->size || !p->ram || !nb_wl_capacity_run(p))
		return def;
	return NB_RAM_FACTOR * p->ram;
}

void nb_wl_capacity_size(struct nb_wl_ctx *c, struct nb_iospec *s)
{
	const struct nb_params *p = c->p;
	char a[32];

	if (p->size || !nb_wl_capacity_run(p))
		return;
	if (!p->ram) {
		if (c->iteration == 1)
			nb_wl_warn(c, "the box's RAM is not known ([box] ram, --label "
				   "ram=SIZE or an ssh:// monitor): the %s data set "
				   "may sit in its cache, and the capacity be that of "
				   "its RAM, not its disks",
				   nb_fmt_size(s->size, a, sizeof(a)));
		return;
	}
	s->size = NB_RAM_FACTOR * p->ram;
	if (c->t->capacity && s->size > c->t->capacity) {
		s->size = c->t->capacity;
		if (c->iteration == 1)
			nb_wl_warn(c, "the LUN or device holds less than twice the "
				   "box's RAM: its %s may sit in the box's cache",
				   nb_fmt_size(s->size, a, sizeof(a)));
	}
	s->size -= s->size % s->bs;
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

void nb_open_judge(const struct nb_iospec *s, const struct nb_io_result *r,
		   struct nb_open_verdict *v)
{
	const struct nb_open_result *o = &r->open;
	/* the engine thread's share of a core while the schedule ran */
	double cpu = o->sched_wall_ns ? (double)o->sched_cpu_ns /
		     (double)o->sched_wall_ns : 0, busy;
	size_t n;

	memset(v, 0, sizeof(*v));
	v->achieved_pct = o->offered_iops > 0 ?
			  100.0 * o->achieved_iops / o->offered_iops : 0;
	/* too few I/Os offered to carry a rate: nobody fell behind, nothing
	 * is judged (core/samples.h); a box that answered few of many is
	 * judged below */
	if (o->arrivals < NB_MEAN_MIN_SAMPLES) {
		snprintf(v->text, sizeof(v->text), "%llu I/Os offered, %llu timed: "
			 "fewer than the %d a rate needs, nothing to judge",
			 (unsigned long long)o->arrivals,
			 (unsigned long long)o->resp.count, NB_MEAN_MIN_SAMPLES);
		return;
	}
	v->valid = o->offered_iops > 0 && !o->abandoned &&
		   o->achieved_iops >= NB_OPEN_VALID * o->offered_iops;
	if (v->valid)
		return;
	n = (size_t)snprintf(v->text, sizeof(v->text), "achieved %.0f of the %.0f "
			     "I/Os per second offered (%.1f%%, below %.0f%%)",
			     o->achieved_iops, o->offered_iops, v->achieved_pct,
			     NB_OPEN_VALID * 100);
	if (o->abandoned && n < sizeof(v->text))
		n += (size_t)snprintf(v->text + n, sizeof(v->text) - n, ", %llu "
				      "never issued",
				      (unsigned long long)o->abandoned);
	if (n >= sizeof(v->text))
		return;
	/* a client that was never waiting, for the box or for the next
	 * arrival, was itself the limit (on a busy machine its thread may
	 * have had less than a core: its CPU alone cannot tell) */
	busy = o->sched_wall_ns ? 1.0 - (double)o->idle_ns /
				  (double)o->sched_wall_ns : 0;
	if (o->late_free * 100 > o->arrivals || busy >= 0.9) {
		v->behind = "client";
		snprintf(v->text + n, sizeof(v->text) - n, ": the client fell "
			 "behind (it was busy %.0f%% of the schedule, its thread "
			 "used %.0f%% of a core; %llu I/Os left more than 1 ms late "
			 "with a slot free): lower the rate or spread it over more "
			 "clients", busy * 100, cpu * 100,
			 (unsigned long long)o->late_free);
	} else if (o->queued && s->qd < NB_MAX_QD) {
		v->behind = "slots";
		snprintf(v->text + n, sizeof(v->text) - n, ": %llu arrivals waited "
			 "for one of the %u slots of --iodepth: raise it (at most "
			 "%d) or leave it out", (unsigned long long)o->queued, s->qd,
			 NB_MAX_QD);
	} else {
		v->behind = "box";
		snprintf(v->text + n, sizeof(v->text) - n, ": the box fell behind "
			 "(service time mean %.2f ms, p99 %.2f ms; %llu arrivals "
			 "waited for one of %u slots)", nb_hist_mean(&r->lat) / 1e6,
			 (double)nb_hist_percentile(&r->lat, 99) / 1e6,
			 (unsigned long long)o->queued, s->qd);
	}
}

/* The p99's 95% confidence interval, or null with too few samples. */
static json_t *ci_json(const struct nb_hist *h, double p)
{
	uint64_t lo, hi;
	int rc;

	if (h->count < nb_hist_min_samples(p))
		return json_null();
	rc = nb_hist_ci(h, p, &lo, &hi);
	if (rc < 0)
		return json_null();
	return json_pack("[f, f]", (double)lo / 1e3, (double)hi / 1e3);
}

static json_t *open_json(const struct nb_iospec *s, const struct nb_io_result *r,
			 const struct nb_open_verdict *v)
{
	const struct nb_open_result *o = &r->open;

	json_t *j = json_pack("{s:f, s:s, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I,"
			 " s:f, s:f, s:f, s:f, s:f, s:b, s:o, s:s, s:I, s:o, s:f,"
			 " s:s}",
			 "rate_iops", o->rate,
			 "arrival", nb_arrival_name(s->arrival),
			 "sources", (int)o->sources,
			 "arrivals", (json_int_t)o->arrivals,
			 "issued", (json_int_t)o->issued,
			 "queued", (json_int_t)o->queued,
			 "late", (json_int_t)o->late_ios,
			 "late_free", (json_int_t)o->late_free,
			 "abandoned", (json_int_t)o->abandoned,
			 "blocked_submits", (json_int_t)o->blocked,
			 "offered_iops", o->offered_iops,
			 "achieved_iops", o->achieved_iops,
			 "achieved_pct", v->achieved_pct,
			 "window_s", o->window_s,
			 "schedule_s", secs(o->sched_ns),
			 "valid", v->valid,
			 "behind", v->behind ? json_string(v->behind) : json_null(),
			 "text", v->text,
			 "samples", (json_int_t)o->resp.count,
			 "resp_p99_ci_us", ci_json(&o->resp, 99),
			 "client_cpu_s", secs(o->cpu_ns),
			 "timed_from", "intended");

	/* one ON/OFF source: whole cycles, or part of one (arrival.h) */
	if (j && o->cycles >= 0)
		json_object_set_new(j, "cycles", json_pack("{s:i, s:b}", "whole",
					o->cycles, "cut", o->cut));
	return j;
}

void nb_wl_open_metrics(struct nb_wl_ctx *c, const struct nb_iospec *s,
			const struct nb_io_result *r)
{
	const struct nb_open_result *o = &r->open;
	struct nb_open_verdict v;

	nb_open_judge(s, r, &v);
	/* an open loop's throughput is the window's, as achieved_iops (the
	 * fill before it and the drain after it are no rate of the box) */
	nb_wl_metric(c, "iops", o->achieved_iops);
	nb_wl_metric(c, "bw_bytes", o->achieved_bps);
	nb_wl_metric(c, "rate_iops", o->rate);
	nb_wl_metric(c, "offered_iops", o->offered_iops);
	nb_wl_metric(c, "achieved_iops", o->achieved_iops);
	nb_wl_metric(c, "achieved_pct", v.achieved_pct);
	nb_wl_hist_metrics(c, "resp", &o->resp);
	nb_wl_metric(c, "late_ios", (double)o->late_ios);
	nb_wl_metric(c, "late_p99_us", (double)nb_hist_percentile(&o->late, 99) / 1e3);
	nb_wl_metric(c, "late_max_us", o->late.count ? (double)o->late.max / 1e3 : 0);
	nb_wl_metric(c, "queued_ios", (double)o->queued);
	json_object_set_new(c->extra, "open", open_json(s, r, &v));
	if (o->resp.count)
		json_object_set_new(c->extra, "resp_hist_ns", nb_hist_json(&o->resp));
	/* too few to judge: the entry's status says it (run/exec.c) */
	if (!v.valid && o->arrivals >= NB_MEAN_MIN_SAMPLES)
		nb_wl_warn(c, "open loop at %.0f I/Os per second: %s", o->rate, v.text);
}

void nb_wl_open_fio_metrics(struct nb_wl_ctx *c, const struct nb_iospec *s)
{
	const json_t *v = json_object_get(c->metrics, "iops");
	double iops = json_is_number(v) ? json_number_value(v) : 0;
	double pct = s->rate > 0 ? 100 * iops / s->rate : 0;
	int valid = iops >= NB_OPEN_VALID * s->rate;
	char text[256] = "";

	if (!valid)
		snprintf(text, sizeof(text), "fio achieved %.0f of the %.0f I/Os per "
			 "second asked (%.1f%%, below %.0f%%)", iops, s->rate, pct,
			 NB_OPEN_VALID * 100);
	nb_wl_metric(c, "rate_iops", s->rate);
	nb_wl_metric(c, "offered_iops", s->rate);
	nb_wl_metric(c, "achieved_iops", iops);
	nb_wl_metric(c, "achieved_pct", pct);
	json_object_set_new(c->extra, "open", json_pack(
		"{s:f, s:s, s:i, s:f, s:f, s:f, s:b, s:s, s:s}", "rate_iops", s->rate,
		"arrival", nb_arrival_name(s->arrival), "sources", 1,
		"offered_iops", s->rate, "achieved_iops", iops, "achieved_pct", pct,
		"valid", valid, "text", text, "timed_from", "submission"));
	if (c->iteration == 1)
		nb_wl_warn(c, "fio's open loop (rate_iops, rate_process=poisson) times "
			   "each I/O from its submission, not from when it was due: "
			   "lat_* is its service time, and a stall of the box is "
			   "partly hidden");
	if (!valid)
		nb_wl_warn(c, "open loop: %s", text);
}

void nb_open_spec_json(json_t *spec, const struct nb_iospec *s)
{
	if (!nb_iospec_open(s))
		return;
	json_object_set_new(spec, "rate_iops", json_real(s->rate));
	json_object_set_new(spec, "arrival", json_string(nb_arrival_name(s->arrival)));
	if (s->arrival == NB_ARR_ONOFF)
		json_object_set_new(spec, "burst_ms", json_pack("[f, f]",
			(double)s->burst_on_us / 1e3, (double)s->burst_off_us / 1e3));
	json_object_set_new(spec, "sources", json_integer(s->sources ? s->sources : 1));
	json_object_set_new(spec, "loop", json_string("open"));
}

/* the open loop's rows: [suite] rate, arrival, burst (core/knobs.h). */
const struct nb_knob nb_wl_open_knobs[] = {
	{ .section = "suite", .name = "rate", .type = NB_KT_STR, NB_PRM(rate),
	  .unset = "",
	  .check = nb_arrival_rate_check,
	  .help = "open loop: issue the I/O workloads' I/Os on a schedule at "
	  "this rate, I/Os per second (500) or a throughput (20MB/s), each "
	  "timed from when it was due, for step-time unless a runtime is given "
	  "(docs/capacity.md); without it the loop is closed (iodepth I/Os "
	  "kept in flight)",
	  .opt = "rate", .metavar = "RATE",
	},
	{ .section = "suite", .name = "arrival", .type = NB_KT_CHOICE,
	  NB_PRM(arrival), .choices = "poisson|uniform|onoff", .def = "poisson",
	  .help = "open loop: the arrival process: poisson (independent "
	  "users), uniform (one I/O every 1/rate), onoff (bursts and pauses, "
	  "[suite] burst)",
	  .opt = "arrival", .metavar = "PROCESS",
	},
	{ .section = "suite", .name = "burst", .type = NB_KT_STR, NB_PRM(burst),
	  .def = "100ms/400ms", .check = nb_burst_check,
	  .help = "arrival onoff: the mean burst and pause lengths, ON/OFF (the "
	  "rate inside a burst is rate x (ON + OFF) / ON)",
	  .opt = "burst", .metavar = "ON/OFF",
	},
	{ NULL },
};
