/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_sweep_open.c - an I/O workload's capacity from the open loop
 * (docs/capacity.md; the arithmetic is capacity/sweep_open.c).
 *
 * One iteration: a short closed-loop probe for the box's maximum rate,
 * then steps at offered rates (a bisection to the objective, or the
 * rates given), each an open loop through whatever carries a single run
 * (nasbench's engine; fio's rate_iops with rate_process=poisson, which
 * times from the submission, said in every step), each with a fresh
 * random sequence.  For the vm workload a step is a population of N VMs,
 * each its own Poisson source at the profile's rate over its own slice
 * of the data set.  A step runs step-time, longer when its percentiles
 * need more samples (up to ten times).
 */
#include "io_sweep.h"
#include "sweep_step.h"
#include "../data.h"
#include "openload.h"
#include "../../core/clock.h"
#include "../../core/err.h"
#include "../../core/hook.h"
#include "../../core/knobs.h"
#include "../../capacity/sweep_open.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define PROBE_MIN_US 1000000ULL
#define PROBE_MAX_US 5000000ULL
#define PROBE_QD 32
#define STEP_STRETCH 10          /* a step may run this many step-times */

struct osweep_run {
	struct nb_wl_ctx *c;
	const struct nb_iospec *s;
	nb_wl_io_fn once;
	struct nb_osweep sw;
	json_t *steps, *probe;
	int fio;                 /* fio carries the steps: timed from submission */
};

/* The box's maximum rate: a closed loop at the workload's depth (at least
 * PROBE_QD) for a fifth of a step, within 1..5 s.  0 or -errno. */
static int probe(struct osweep_run *r)
{
	struct nb_wl_ctx sc = *r->c;
	struct nb_iospec ps = *r->s;
	uint64_t us = nb_wl_step_us(r->c->p) / 5;
	int rc;

	ps.rate = 0;
	ps.qd = r->c->p->iodepth ? r->c->p->iodepth :
		(ps.qd < PROBE_QD ? PROBE_QD : ps.qd);
	ps.bytes = 0;
	ps.runtime_us = us < PROBE_MIN_US ? PROBE_MIN_US :
			us > PROBE_MAX_US ? PROBE_MAX_US : us;
	ps.seed = nb_wl_mix_seed(r->s->seed, 0x70726f6265ULL);
	sc.phase = "probing the maximum rate";
	sc.metrics = json_object();
	sc.extra = json_object();
	sc.spec = NULL;
	rc = r->once(&sc, &ps);
	if (sc.spec)
		json_decref(sc.spec);
	if (!rc) {
		double iops = nb_wl_step_metric(sc.metrics, "iops");

		r->sw.max_rate = iops;
		r->probe = json_pack("{s:i, s:o, s:o, s:f}", "qd", (int)ps.qd,
				     "iops", nb_wl_json_num(iops), "lat_mean_us",
				     nb_wl_json_num(nb_wl_step_metric(sc.metrics, "lat_mean_us")),
				     "seconds", (double)ps.runtime_us / 1e6);
		if (!(iops > 0))
			rc = nb_err(-EIO, "target '%s': the probe completed no I/O",
				    r->c->t->cfg->name);
	}
	json_decref(sc.metrics);
	json_decref(sc.extra);
	return rc;
}

/* How long a step at RATE runs: step-time, or long enough that a Poisson
 * count of arrivals falls short of the samples the objective needs only
 * 4 standard deviations below its mean (about 3 in 100000 steps), up to
 * STEP_STRETCH step-times. */
static uint64_t step_len(const struct osweep_run *r, double rate)
{
	uint64_t base = nb_wl_step_us(r->c->p), need;
	double n = (double)nb_slo_min_samples(&r->sw.slo);
	/* the mean count L with L - 4 sqrt(L) = n */
	double root = (4.0 + sqrt(16.0 + 4.0 * n)) / 2.0;

	need = (uint64_t)(1e6 * root * root / rate);
	if (need > base * STEP_STRETCH)
		need = base * STEP_STRETCH;
	return need > base ? need : base;
}

/* A step's figures from its run's metrics and "open" object. */
static void ostep_from(struct osweep_run *r, struct nb_ostep *st,
		       const json_t *m, const json_t *open)
{
	static const char *lat[NB_SLO_NSTAT] = {
		"lat_mean_us", "lat_p50_us", "lat_p90_us", "lat_p99_us",
		"lat_p99.9_us",
	};

	for (int i = 0; i < NB_SLO_NSTAT; i++)
		st->resp[i] = nb_wl_step_metric(m, r->fio ? lat[i] : nb_slo_stat_resp_metric(i));
	if (open && !r->fio) {
		st->offered = nb_wl_step_metric(m, "offered_iops");
		st->achieved = nb_wl_step_metric(m, "achieved_iops");
		st->valid = json_is_true(json_object_get(open, "valid"));
		st->samples = (uint64_t)json_integer_value(json_object_get(open,
								       "samples"));
		st->arrivals = (uint64_t)json_integer_value(json_object_get(open,
									"arrivals"));
		st->client_late = (uint64_t)json_integer_value(
			json_object_get(open, "late_free"));
		return;
	}
	/* fio: what it did against what it was asked */
	st->offered = st->rate;
	st->achieved = nb_wl_step_metric(m, "iops");
	st->valid = st->achieved >= NB_OPEN_VALID * st->rate;
	st->samples = (uint64_t)(st->achieved * nb_wl_step_metric(m, "seconds"));
	st->arrivals = (uint64_t)(st->rate * nb_wl_step_metric(m, "seconds"));
}

static json_t *ostep_json(const struct osweep_run *r, const struct nb_ostep *st,
			  const json_t *m, const json_t *open, double secs)
{
	json_t *j = json_pack("{s:f, s:o, s:o, s:o, s:o, s:b, s:I, s:b, s:b, s:f,"
			      " s:s, s:I, s:b, s:b}", "rate_iops", st->rate,
			      "vms", st->vms ? json_integer(st->vms) : json_null(),
			      "offered_iops", nb_wl_json_num(st->offered),
			      "achieved_iops", nb_wl_json_num(st->achieved),
			      "achieved_pct", nb_wl_json_num(st->offered > 0 ? 100 *
						   st->achieved / st->offered : NAN),
			      "valid", st->valid, "samples", (json_int_t)st->samples,
			      "enough_samples", st->enough, "slo_met", st->slo_met,
			      "seconds", secs,
			      "timed_from", r->fio ? "submission" : "intended",
			      "client_late", (json_int_t)st->client_late,
			      "disturbed", st->disturbed, "judged", st->judged);
	static const char *keys[] = {
		"resp_mean_us", "resp_p50_us", "resp_p90_us", "resp_p99_us",
		"resp_p99.9_us", "resp_max_us", "lat_mean_us", "lat_p50_us",
		"lat_p99_us", "late_ios", "late_p99_us", "queued_ios", "iops",
		"bw_bytes",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		if (json_object_get(m, keys[i]))
			json_object_set(j, keys[i], json_object_get(m, keys[i]));
	if (open) {
		json_object_set(j, "resp_p99_ci_us",
				json_object_get(open, "resp_p99_ci_us"));
		json_object_set(j, "behind", json_object_get(open, "behind"));
		if (json_object_get(open, "per_source"))
			json_object_set(j, "per_source",
					json_object_get(open, "per_source"));
	}
	return j;
}

static void step_line(const struct osweep_run *r, const struct nb_ostep *st)
{
	struct nb_progress *pr = r->c->progress;
	char who[32] = "";

	if (!pr || pr->mode == NB_PROGRESS_QUIET || !pr->out)
		return;
	if (st->vms)
		snprintf(who, sizeof(who), "%5u VMs ", st->vms);
	fprintf(pr->out, "  %s on %s: %s%8.0f IOPS offered  %8.0f achieved  "
		"resp mean %8.0f us  p99 %8.0f us  %s%s%s%s\n", r->c->wl->name,
		r->c->t->cfg->name, who, st->rate, st->achieved,
		st->resp[NB_SLO_MEAN], st->resp[NB_SLO_P99],
		st->slo_met ? "meets" : "breaks",
		st->valid ? "" : "  NOT ACHIEVED",
		st->enough ? "" : "  FEW SAMPLES",
		!st->disturbed ? "" : st->judged ? "  CLIENT LATE" :
		"  CLIENT LATE, RUN AGAIN");
}

/* Run the step at RATE (VMS: a population): 0, -EINTR or -errno. */
static int run_step(struct osweep_run *r, double rate, uint32_t vms)
{
	struct nb_wl_ctx sc = *r->c;
	struct nb_iospec ss = *r->s;
	struct nb_ostep st = { .rate = rate, .vms = vms };
	char phase[64];
	double secs;
	int rc;

	ss.rate = rate;
	ss.sources = vms ? vms : 1;
	ss.qd = r->c->p->iodepth ? r->c->p->iodepth : NB_MAX_QD;
	ss.bytes = 0;
	ss.runtime_us = step_len(r, rate);
	/* a fresh sequence each step: no step re-reads the offsets the one
	 * before it pulled into the box's cache */
	ss.seed = nb_wl_mix_seed(r->s->seed, r->sw.n + 1);
	snprintf(phase, sizeof(phase), "sweep:%s:%zu", r->c->wl->name, r->sw.n + 1);
	rc = nb_hook(phase, NULL, r->c->stop);
	if (rc)
		return rc;
	if (vms)
		snprintf(phase, sizeof(phase), "step %zu, %u VMs", r->sw.n + 1, vms);
	else
		snprintf(phase, sizeof(phase), "step %zu, %.0f IOPS offered",
			 r->sw.n + 1, rate);
	rc = nb_wl_sweep_once(r->once, &sc, &ss, phase, &secs);
	if (!rc) {
		const json_t *open = json_object_get(sc.extra, "open");

		ostep_from(r, &st, sc.metrics, open);
		nb_osweep_add(&r->sw, &st);
		st = r->sw.step[r->sw.n - 1];
		json_array_append_new(r->steps, ostep_json(r, &st, sc.metrics,
							   open, secs));
		step_line(r, &st);
		nb_wl_data_keep(r->c, &sc);
	}
	json_decref(sc.metrics);
	json_decref(sc.extra);
	return rc;
}

static json_t *ocapacity_json(const struct osweep_run *r,
			      const struct nb_ocapacity *cap)
{
	char text[512];

	nb_ocapacity_fmt(&r->sw, cap, text, sizeof(text));
	return json_pack("{s:b, s:b, s:f, s:f, s:o, s:b, s:b, s:o, s:i, s:i, s:s}",
			 "found", cap->found, "unmeasured", cap->unmeasured,
			 "iops", cap->iops,
			 "bw_bytes", cap->iops * r->s->bs,
			 "vms", r->sw.vm_iops > 0 && cap->found ? json_real(cap->vms) :
			 json_null(),
			 "interpolated", cap->interpolated,
			 "lower_bound", cap->lower_bound,
			 "step", cap->found ? json_integer(cap->lo) : json_null(),
			 "invalid_steps", (int)cap->invalid,
			 "thin_steps", (int)cap->thin, "text", text);
}

static json_t *ocurve_json(const struct osweep_run *r, int why,
			   const struct nb_ocapacity *cap, json_t *vm)
{
	const struct nb_osweep *sw = &r->sw;
	const char *rates = r->c->p->rates[0] ? r->c->p->rates : "auto";
	char slo[160], human[160];

	return json_pack("{s:s, s:s, s:s, s:s, s:f, s:f, s:b, s:s, s:s, s:o, "
			 "s:o, s:o, s:o, s:f}", "loop", "open",
			 "objective", nb_slo_str(&sw->slo, slo, sizeof(slo)),
			 "objective_text", nb_slo_fmt(&sw->slo, human, sizeof(human)),
			 "rates", rates, "step_s", (double)nb_wl_step_us(r->c->p) / 1e6,
			 "max_rate_iops", sw->max_rate,
			 "complete", why != NB_SWEEP_STOP_INTR &&
				     why != NB_SWEEP_STOP_ERROR,
			 "stop", nb_sweep_stop_name(why),
			 "timed_from", r->fio ? "submission" : "intended",
			 "vm", vm ? json_incref(vm) : json_null(),
			 "probe", r->probe ? json_incref(r->probe) : json_null(),
			 "steps", json_incref(r->steps),
			 "capacity", ocapacity_json(r, cap),
			 "valid_share", NB_OPEN_VALID);
}

static void put_oanswers(struct osweep_run *r, const struct nb_ocapacity *cap)
{
	struct nb_wl_ctx *c = r->c;

	if (!r->sw.n)
		return;
	nb_wl_sweep_answers(c, r->sw.n, cap->found ? cap->iops : 0,
			    cap->found ? cap->iops * r->s->bs : 0,
			    r->sw.vm_iops > 0, cap->found ? cap->vms : 0,
			    r->sw.max_rate);
	if (cap->invalid)
		nb_wl_warn(c, "%zu of %zu steps did not achieve 98%% of the rate they "
			   "offered: they break the objective whatever their "
			   "latency", cap->invalid, r->sw.n);
	if (cap->thin)
		nb_wl_warn(c, "%zu of %zu steps had too few samples for the "
			   "objective's percentiles even at %d step-times: not "
			   "judged", cap->thin, r->sw.n, STEP_STRETCH);
	if (cap->disturbed)
		nb_wl_warn(c, "%zu of %zu steps broke the objective while this "
			   "client itself issued I/Os over 1 ms late with a slot "
			   "free (more of them than the objective's tail): each "
			   "such rate ran again, and one that broke so twice "
			   "counts - the figure may be this machine's, not the "
			   "box's", cap->disturbed, r->sw.n);
	if (r->fio)
		nb_wl_warn(c, "fio's open loop (rate_iops, rate_process=poisson) "
			   "times each I/O from its submission, not from when it "
			   "was due: a stall the box causes is partly hidden");
}

/* The sweep's setup: objective and rate list (a list of absolute rates
 * needs no probe).  0, or -EINVAL with the detail set. */
static int osetup(struct osweep_run *r, double vm_iops, int *need_probe)
{
	const struct nb_params *p = r->c->p;
	struct nb_slo slo;

	if (nb_slo_parse(p->slo[0] ? p->slo : nb_knob_find("capacity", "slo")->def,
			 &slo))
		return -EINVAL;
	nb_osweep_init(&r->sw, &slo, 0, vm_iops);
	*need_probe = !p->rates[0] || !strcmp(p->rates, "auto") ||
		      strchr(p->rates, '%');
	if (!*need_probe && nb_osweep_rates_parse(&r->sw, p->rates))
		return -EINVAL;
	r->sw.max_us = p->sweep_us;
	return 0;
}

static int osweep(struct nb_wl_ctx *c, const struct nb_iospec *s,
		  nb_wl_io_fn once, json_t *vm, double vm_iops,
		  const struct nb_osweep_from *from)
{
	struct osweep_run r = { .c = c, .s = s, .once = once,
				.fio = nb_wl_fio_wanted(c) };
	struct nb_ocapacity cap;
	uint64_t t0 = nb_now_ns();
	int why = NB_SWEEP_STOP_ERROR, rc, need_probe;
	uint32_t vms;
	double rate;

	if (osetup(&r, vm_iops, &need_probe))
		return -EINVAL;
	r.steps = json_array();
	rc = need_probe ? probe(&r) : 0;
	if (!rc && need_probe && c->p->rates[0] &&
	    nb_osweep_rates_parse(&r.sw, c->p->rates))
		rc = -EINVAL;
	if (!need_probe)
		r.sw.max_rate = r.sw.list[r.sw.nlist - 1];
	if (from && !r.sw.nlist) {
		r.sw.first = from->first;
		if (r.sw.max_rate < from->max_floor)
			r.sw.max_rate = from->max_floor;
	}
	while (!rc && (why = nb_osweep_next(&r.sw, (nb_now_ns() - t0) / 1000,
					    &rate, &vms)) == NB_SWEEP_GO)
		rc = run_step(&r, rate, vms);
	if (rc)
		why = rc == -EINTR ? NB_SWEEP_STOP_INTR : NB_SWEEP_STOP_ERROR;
	nb_osweep_answer(&r.sw, &cap);
	put_oanswers(&r, &cap);
	json_object_set_new(c->extra, "sweep", ocurve_json(&r, why, &cap, vm));
	if (rc)
		json_object_set_new(c->extra, "partial", json_true());
	json_decref(r.steps);
	json_decref(r.probe);
	return rc;
}

int nb_wl_osweep_run(struct nb_wl_ctx *c, const struct nb_iospec *s,
		     nb_wl_io_fn once, json_t *vm, double vm_iops)
{
	return osweep(c, s, once, vm, vm_iops, NULL);
}

int nb_wl_osweep_run_from(struct nb_wl_ctx *c, const struct nb_iospec *s,
			  nb_wl_io_fn once, const struct nb_osweep_from *from)
{
	return osweep(c, s, once, NULL, 0, from);
}
