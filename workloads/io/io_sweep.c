/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_sweep.c - an I/O workload as a load sweep (--sweep, [capacity];
 *           docs/capacity.md; the arithmetic is capacity/sweep.c).
 *
 * One iteration is one sweep: the workload runs at each step's
 * outstanding I/O for step-time, through whatever carries a single run
 * (nasbench's engine, fio, fio clients), so a step costs what a fixed
 * run of that depth costs.  Over fio clients a step's outstanding I/O is
 * spread across them (queue depth = outstanding / clients each) and each
 * client's figures are kept.  The iteration's "sweep" object holds the
 * curve (shape in docs/result.md, docs/capacity.md); its metrics are
 * the answers (vms, iops_at_slo, sat_iops...).
 */
#include "io_sweep.h"
#include "sweep_step.h"
#include "../data.h"
#include "../../core/clock.h"
#include "../../core/err.h"
#include "../../core/hook.h"
#include "../../core/knobs.h"
#include "../../core/result.h"
#include "../../capacity/sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

static double cpu_s(void)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec +
			kids.ru_utime.tv_sec + kids.ru_stime.tv_sec) +
	       (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec +
			kids.ru_utime.tv_usec + kids.ru_stime.tv_usec) / 1e6;
}

static void step_from_metrics(struct nb_sweep_step *st, const json_t *m)
{
	st->iops = nb_wl_step_metric(m, "iops");
	st->bw_bytes = nb_wl_step_metric(m, "bw_bytes");
	st->lat_mean_us = nb_wl_step_metric(m, "lat_mean_us");
	st->lat_p50_us = nb_wl_step_metric(m, "lat_p50_us");
	st->lat_p90_us = nb_wl_step_metric(m, "lat_p90_us");
	st->lat_p99_us = nb_wl_step_metric(m, "lat_p99_us");
	st->lat_p999_us = nb_wl_step_metric(m, "lat_p99.9_us");
}

/* A finished step as the result holds it. */
static json_t *step_json(const struct nb_sweep_step *st, uint32_t qd,
			 unsigned clients, double secs, json_t *extra)
{
	json_t *j = json_pack("{s:i, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
			      " s:f, s:o, s:b, s:b, s:I, s:f, s:b, s:b}",
			      "outstanding", (int)st->outstanding, "qd", (int)qd,
			      "clients", (int)clients, "bw_bytes", nb_wl_json_num(st->bw_bytes),
			      "iops", nb_wl_json_num(st->iops), "lat_mean_us", nb_wl_json_num(st->lat_mean_us),
			      "lat_p50_us", nb_wl_json_num(st->lat_p50_us),
			      "lat_p90_us", nb_wl_json_num(st->lat_p90_us),
			      "lat_p99_us", nb_wl_json_num(st->lat_p99_us),
			      "lat_p99.9_us", nb_wl_json_num(st->lat_p999_us), "seconds", secs,
			      "cpu_per_thread", st->cpu_per_thread >= 0 ?
			      json_real(st->cpu_per_thread) : json_null(),
			      "slo_met", st->slo_met, "enough_samples", st->enough,
			      "samples", (json_int_t)st->samples,
			      "little", st->little,
			      "little_ok", st->little_ok,
			      "client_bound", st->client_bound);
	json_t *per = json_object_get(extra, "clients");
	json_t *ios = json_object_get(extra, "ios");

	if (ios)
		json_object_set(j, "ios", ios);
	if (per)
		json_object_set(j, "per_client", per);
	return j;
}

struct sweep_run {
	struct nb_wl_ctx *c;
	const struct nb_iospec *s;
	nb_wl_io_fn once;
	unsigned clients;        /* fio clients (1: this host alone) */
	struct nb_sweep sw;
	json_t *steps;
};

static void step_line(const struct sweep_run *r, const struct nb_sweep_step *st)
{
	struct nb_progress *pr = r->c->progress;

	if (!pr || pr->mode == NB_PROGRESS_QUIET || !pr->out)
		return;
	fprintf(pr->out, "  %s on %s: %4u outstanding  %9.0f IOPS  %8.1f MB/s  "
		"mean %8.0f us  p99 %8.0f us  %s%s%s\n", r->c->wl->name,
		r->c->t->cfg->name, st->outstanding, st->iops,
		st->bw_bytes / 1e6, st->lat_mean_us, st->lat_p99_us,
		!st->enough ? "too few samples" : st->slo_met ? "meets" : "breaks",
		st->little_ok ? "" : "  LITTLE'S LAW OFF",
		st->client_bound ? "  CLIENT-BOUND" : "");
}

/* Run the next step, OUT outstanding (a multiple of the clients): 0,
 * -EINTR or -errno. */
static int run_step(struct sweep_run *r, uint32_t out)
{
	struct nb_wl_ctx sc = *r->c;
	struct nb_iospec ss = *r->s;
	struct nb_sweep_step st = { 0 };
	uint32_t qd = out / r->clients ? out / r->clients : 1;
	char phase[48];
	double c0, secs;
	int rc;

	ss.qd = qd;
	ss.rate = 0;
	ss.bytes = 0;
	ss.runtime_us = nb_wl_step_us(r->c->p);
	/* a fresh sequence each step (the open sweep's reasons) */
	ss.seed = nb_wl_mix_seed(r->s->seed, r->sw.n + 1);
	/* a test build may stop before a step: "sweep:vm:2" */
	snprintf(phase, sizeof(phase), "sweep:%s:%zu", r->c->wl->name, r->sw.n + 1);
	rc = nb_hook(phase, NULL, r->c->stop);
	if (rc)
		return rc;
	snprintf(phase, sizeof(phase), "step %zu, %u outstanding", r->sw.n + 1,
		 qd * r->clients);
	c0 = cpu_s();
	rc = nb_wl_sweep_once(r->once, &sc, &ss, phase, &secs);
	if (!rc) {
		st.outstanding = qd * r->clients;
		st.threads = 1;
		step_from_metrics(&st, sc.metrics);
		st.samples = (uint64_t)json_integer_value(json_object_get(sc.extra,
									  "timed"));
		/* this host's CPU: meaningful when it is the only client */
		st.cpu_per_thread = r->clients == 1 && secs > 0 ?
				    (cpu_s() - c0) / secs : -1;
		nb_sweep_add(&r->sw, &st);
		st = r->sw.step[r->sw.n - 1];
		json_array_append_new(r->steps, step_json(&st, qd, r->clients,
							  secs, sc.extra));
		step_line(r, &st);
		nb_wl_data_keep(r->c, &sc);
	}
	json_decref(sc.metrics);
	json_decref(sc.extra);
	return rc;
}

/* Each step's outstanding I/O as it can be spread over CLIENTS (queue
 * depth outstanding / clients, at least 1, each): rounded, repeats
 * dropped. */
static void spread(struct nb_sweep *sw, unsigned clients)
{
	size_t k = 0;

	for (size_t i = 0; i < sw->nplan; i++) {
		uint32_t qd = sw->plan[i] / clients ? sw->plan[i] / clients : 1;

		if (k && sw->plan[k - 1] == qd * clients)
			continue;
		sw->plan[k++] = qd * clients;
	}
	sw->nplan = k;
}

static json_t *capacity_json(const struct nb_sweep *sw,
			     const struct nb_capacity *cap)
{
	char text[512];

	nb_capacity_fmt(sw, cap, text, sizeof(text));
	return json_pack("{s:b, s:b, s:i, s:f, s:f, s:f, s:o, s:b, s:b, s:b, s:b, "
			 "s:b, s:o, s:s}", "found", cap->found, "unmeasured",
			 cap->unmeasured, "thin_steps", (int)cap->thin,
			 "iops", cap->iops,
			 "bw_bytes", cap->bw_bytes, "outstanding", cap->outstanding,
			 "vms", cap->vm_iops > 0 ? json_real(cap->vms) : json_null(),
			 "interpolated", cap->interpolated,
			 "lower_bound", cap->lower_bound,
			 "objective_broken", cap->objective_broken,
			 "flagged", cap->flagged, "client_bound", cap->client_bound,
			 "step", cap->found ? json_integer((json_int_t)cap->lo) :
			 json_null(), "text", text);
}

static json_t *curve_json(const struct sweep_run *r, int why,
			  const struct nb_capacity *cap, json_t *vm)
{
	const struct nb_sweep *sw = &r->sw;
	char slo[160], human[160], plan[256];
	json_t *knee = json_null();

	if (cap->knee >= 0)
		knee = json_pack("{s:i, s:i, s:f, s:f, s:o}", "step", cap->knee,
				 "outstanding", (int)cap->knee_outstanding,
				 "iops", cap->knee_iops, "bw_bytes", cap->knee_bw,
				 "vms", cap->vm_iops > 0 ? json_real(cap->knee_vms) :
				 json_null());
	return json_pack("{s:s, s:s, s:s, s:s, s:f, s:b, s:s, s:i, s:o, s:o, s:o, "
			 "s:o, s:{s:f, s:b, s:o}, s:{s:i, s:f}, s:i}", "loop", "closed",
			 "objective", nb_slo_str(&sw->slo, slo, sizeof(slo)),
			 "objective_text", nb_slo_fmt(&sw->slo, human, sizeof(human)),
			 "plan", nb_sweep_steps_str(sw->plan, sw->nplan, plan,
						    sizeof(plan)),
			 "step_s", (double)nb_wl_step_us(r->c->p) / 1e6,
			 "complete", why != NB_SWEEP_STOP_INTR &&
				     why != NB_SWEEP_STOP_ERROR,
			 "stop", nb_sweep_stop_name(why), "clients", (int)r->clients,
			 "vm", vm ? json_incref(vm) : json_null(),
			 "steps", json_incref(r->steps),
			 "capacity", capacity_json(sw, cap), "knee", knee,
			 "saturation", "iops", cap->sat_iops, "saturated",
			 cap->saturated, "vms", cap->vm_iops > 0 ?
			 json_real(cap->sat_vms) : json_null(),
			 "little", "failed", (int)cap->little_failed, "tolerance",
			 NB_SWEEP_LITTLE_TOL, "client_bound_steps",
			 (int)cap->client_bound_steps);
}

/* The answers as the iteration's metrics, and what a person must know. */
static void put_answers(struct sweep_run *r, const struct nb_capacity *cap)
{
	struct nb_wl_ctx *c = r->c;

	if (!r->sw.n)
		return;
	nb_wl_sweep_answers(c, r->sw.n, cap->iops, cap->bw_bytes,
			    cap->vm_iops > 0, cap->vms, cap->sat_iops);
	nb_wl_metric(c, "sat_bw_bytes", cap->sat_bw);
	nb_wl_metric(c, "little_failed", (double)cap->little_failed);
	if (cap->little_failed)
		nb_wl_warn(c, "%zu of %zu sweep steps fail Little's law (IOPS x "
			   "mean latency off the outstanding I/O by more than "
			   "10%%): a client that cannot keep its queue full, or a "
			   "clock problem", cap->little_failed, r->sw.n);
	if (cap->client_bound)
		nb_wl_warn(c, "the client used >= 90%% of a core per submitting "
			   "thread at the capacity's steps: the capacity is a lower "
			   "bound of the box's");
}

/* The data file made once, before the first step (its prefill is no
 * step's time or CPU); a sequential write makes its own file each step. */
static int prepare(struct nb_wl_ctx *c, const struct nb_iospec *s)
{
	struct nb_file *f;
	int rc;

	if (s->pattern == NB_PAT_SEQ && s->rw == NB_RW_WRITE)
		return 0;
	rc = nb_wl_io_open(c, s, &f);
	if (!rc)
		c->t->ops->fclose(f);
	return rc;
}

static unsigned fio_clients(const struct nb_wl_ctx *c)
{
	return c->t->cfg->clients && c->t->cfg->clients->n ?
	       (unsigned)c->t->cfg->clients->n : 1;
}

int nb_wl_sweep_closed(struct nb_wl_ctx *c, const struct nb_iospec *s,
		       nb_wl_io_fn once, json_t *vm, double vm_iops)
{
	struct sweep_run r = { .c = c, .s = s, .once = once,
			       .clients = fio_clients(c) };
	struct nb_capacity cap;
	uint64_t t0 = nb_now_ns();
	size_t dropped;
	int why, rc = 0;

	if (nb_wl_sweep_setup(c->p, r.clients, &r.sw, &dropped))
		return -EINVAL;
	if (dropped && c->iteration == 1)
		nb_wl_warn(c, "%zu step(s) above %u outstanding I/Os left out (%u a "
			   "client; more clients with --clients)", dropped,
			   NB_MAX_QD * r.clients, NB_MAX_QD);
	spread(&r.sw, r.clients);
	if (r.clients == 1 && (rc = prepare(c, s)))
		return rc;
	if (c->spec) {
		char plan[256];

		json_object_set_new(c->spec, "sweep", json_string(
			nb_sweep_steps_str(r.sw.plan, r.sw.nplan, plan, sizeof(plan))));
		json_object_set_new(c->spec, "step_s",
				    json_real((double)nb_wl_step_us(c->p) / 1e6));
	}
	r.steps = json_array();
	while ((why = nb_sweep_next(&r.sw, (nb_now_ns() - t0) / 1000)) ==
	       NB_SWEEP_GO) {
		rc = run_step(&r, r.sw.plan[r.sw.n]);
		if (rc) {
			why = rc == -EINTR ? NB_SWEEP_STOP_INTR : NB_SWEEP_STOP_ERROR;
			break;
		}
	}
	nb_sweep_answer(&r.sw, vm_iops, &cap);
	put_answers(&r, &cap);
	json_object_set_new(c->extra, "sweep", curve_json(&r, why, &cap, vm));
	/* an interrupted or failed sweep keeps the steps it finished */
	if (rc)
		json_object_set_new(c->extra, "partial", json_true());
	json_decref(r.steps);
	return rc;
}

int nb_wl_sweep_missed(const json_t *entry, char *buf, size_t len)
{
	const json_t *sw = json_object_get(nb_result_last(entry), "sweep");
	const json_t *cap = json_object_get(sw, "capacity");

	if (!cap || json_is_true(json_object_get(cap, "found")) ||
	    !json_array_size(json_object_get(sw, "steps")))
		return 0;
	snprintf(buf, len, "%s", json_string_value(json_object_get(cap, "text")));
	return json_is_true(json_object_get(cap, "unmeasured")) ? 2 : 1;
}
