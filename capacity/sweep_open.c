/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sweep_open.h"
#include "../core/err.h"
#include "../core/samples.h"
#include "../core/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const resp_metrics[NB_SLO_NSTAT] = {
	[NB_SLO_MEAN] = "resp_mean_us",
	[NB_SLO_P50] = "resp_p50_us",
	[NB_SLO_P90] = "resp_p90_us",
	[NB_SLO_P99] = "resp_p99_us",
	[NB_SLO_P999] = "resp_p99.9_us",
};

const char *nb_slo_stat_resp_metric(int stat)
{
	return stat >= 0 && stat < NB_SLO_NSTAT ? resp_metrics[stat] : "?";
}

void nb_osweep_init(struct nb_osweep *sw, const struct nb_slo *slo,
		    double max_rate, double vm_iops)
{
	memset(sw, 0, sizeof(*sw));
	sw->slo = *slo;
	sw->max_rate = max_rate;
	sw->vm_iops = vm_iops;
	sw->lo = sw->hi = -1;
}

/* One entry of a rate list: "400" or "25%" (of *MAX, when it is > 0). */
static int rate_entry(const char *s, void *max, double *out)
{
	double v, of = *(const double *)max;
	char *end;

	v = strtod(s, &end);
	if (end == s || !(v > 0) || !isfinite(v))
		return -EINVAL;
	if (*end == '%' && !end[1]) {
		if (v > 100)
			return -EINVAL;
		v = of > 0 ? of * v / 100 : v;
	} else if (*end) {
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int rates_parse(const char *s, double max, double *list, size_t *n)
{
	const struct nb_rising how = {
		.what = "rates",
		.give = "rising I/Os per second (200,400,600) or shares of "
			"the maximum (25%,50%,90%)",
		.entry = rate_entry,
		.arg = &max,
	};

	return nb_parse_rising(s, list, NB_OSWEEP_LIST, n, &how);
}

int nb_osweep_rates_parse(struct nb_osweep *sw, const char *s)
{
	return rates_parse(s, sw->max_rate, sw->list, &sw->nlist);
}

int nb_osweep_rates_check(const char *s)
{
	double list[NB_OSWEEP_LIST];
	size_t n;

	return rates_parse(s, 0, list, &n);
}

static double step_rate(const struct nb_osweep *sw, int i)
{
	return i >= 0 ? sw->step[i].rate : 0;
}

/* RATE as the sweep runs it: a whole population for VM sweeps. */
static double as_run(const struct nb_osweep *sw, double rate, uint32_t *vms)
{
	if (sw->vm_iops <= 0) {
		*vms = 0;
		return rate;
	}
	*vms = (uint32_t)llround(rate / sw->vm_iops);
	if (*vms < 1)
		*vms = 1;
	return *vms * sw->vm_iops;
}

/* How many judged steps ran at RATE, and (ANY) how many ran at all. */
static int ran_at(const struct nb_osweep *sw, double rate, int any)
{
	int n = 0;

	for (size_t i = 0; i < sw->n; i++)
		if (fabs(sw->step[i].rate - rate) < 1e-9 * (rate + 1) &&
		    (any || sw->step[i].judged))
			n++;
	return n;
}

/* Whether a step at RATE was too thin to judge. */
static int thin_at(const struct nb_osweep *sw, double rate)
{
	for (size_t i = 0; i < sw->n; i++)
		if (fabs(sw->step[i].rate - rate) < 1e-9 * (rate + 1) &&
		    !sw->step[i].judged && !sw->step[i].enough)
			return 1;
	return 0;
}

static int ran(const struct nb_osweep *sw, double rate)
{
	return ran_at(sw, rate, 0);
}

/* The bisection's next rate, or a reason to stop. */
static int bisect(const struct nb_osweep *sw, double *rate)
{
	double tol = NB_OSWEEP_TOL * sw->max_rate;
	double lo = step_rate(sw, sw->lo), hi = step_rate(sw, sw->hi);

	if (sw->vm_iops > 0 && tol < sw->vm_iops)
		tol = sw->vm_iops;
	if (sw->lo < 0 && sw->hi < 0) {  /* nothing judged yet */
		*rate = sw->first > 0 ? sw->first : sw->max_rate / 2;
	} else if (sw->lo < 0) {
		*rate = hi / 2;
		if (*rate < sw->max_rate * NB_OSWEEP_MIN_FRAC)
			return NB_SWEEP_STOP_SLO;
	} else if (sw->hi < 0) {
		if (sw->max_rate - lo <= tol)
			return NB_SWEEP_STOP_CONVERGED;
		*rate = (lo + sw->max_rate) / 2;
	} else {
		if (hi - lo <= tol)
			return NB_SWEEP_STOP_CONVERGED;
		*rate = (lo + hi) / 2;
	}
	return NB_SWEEP_GO;
}

int nb_osweep_next(const struct nb_osweep *sw, uint64_t elapsed_us,
		   double *rate, uint32_t *vms)
{
	unsigned max = sw->max_steps && sw->max_steps < NB_SWEEP_MAX ?
		       sw->max_steps : NB_SWEEP_MAX;
	double r;
	int why;

	if (sw->n >= max)
		return NB_SWEEP_STOP_STEPS;
	if (sw->max_us && elapsed_us >= sw->max_us)
		return NB_SWEEP_STOP_TIME;
	if (sw->nlist) {
		if (sw->n >= sw->nlist)
			return NB_SWEEP_STOP_END;
		*rate = as_run(sw, sw->list[sw->n], vms);
		return NB_SWEEP_GO;
	}
	/* noise may have put a broken step below a met one: nothing to
	 * bisect then */
	if (sw->lo >= 0 && sw->hi >= 0 && step_rate(sw, sw->hi) <= step_rate(sw, sw->lo))
		return NB_SWEEP_STOP_CONVERGED;
	why = bisect(sw, &r);
	if (why != NB_SWEEP_GO)
		return why;
	r = as_run(sw, r, vms);
	if (ran(sw, r))
		return sw->lo < 0 ? NB_SWEEP_STOP_SLO : NB_SWEEP_STOP_CONVERGED;
	/* a step too thin to judge, run as long as a step may run: again
	 * would be no thicker */
	if (thin_at(sw, r))
		return NB_SWEEP_STOP_THIN;
	*rate = r;
	return NB_SWEEP_GO;
}

static int enough_samples(const struct nb_slo *slo, uint64_t samples)
{
	return samples >= nb_slo_min_samples(slo);
}

/* Whether the client's own late issues could fill the tail that decides
 * a term of SLO: 1 - p of the samples, 1% for a mean. */
static int client_disturbed(const struct nb_slo *slo, const struct nb_ostep *st)
{
	for (unsigned i = 0; i < slo->n; i++) {
		int t = slo->t[i].stat;
		double tail = t == NB_SLO_MEAN ? 0.01 : 1 - nb_slo_stat_pct(t) / 100;

		if ((double)st->client_late > tail * (double)st->samples)
			return 1;
	}
	return 0;
}

int nb_osweep_add(struct nb_osweep *sw, const struct nb_ostep *in)
{
	struct nb_ostep st = *in;
	int met = 1;

	if (sw->n >= NB_SWEEP_MAX)
		return -ENOSPC;
	st.enough = enough_samples(&sw->slo, st.samples);
	/* too few samples for the objective: it breaks nothing and meets
	 * nothing (core/samples.h), unless the box fell behind on enough
	 * offered I/Os, which breaks it whatever the latency */
	if (!st.enough && (st.valid || st.arrivals < NB_MEAN_MIN_SAMPLES)) {
		st.slo_met = st.disturbed = st.judged = 0;
		sw->step[sw->n++] = st;
		return 0;
	}
	for (unsigned i = 0; i < sw->slo.n; i++) {
		double v = st.resp[sw->slo.t[i].stat];

		if (!(v <= sw->slo.t[i].limit_us))
			met = 0;
	}
	st.slo_met = met && st.valid && st.enough;
	st.disturbed = !st.slo_met && client_disturbed(&sw->slo, &st);
	/* once a rate: a bisection runs it again (a list runs as given) */
	st.judged = !st.disturbed || sw->nlist || ran_at(sw, st.rate, 1);
	if (!st.judged) {
		sw->step[sw->n++] = st;
		return 0;
	}
	if (st.slo_met) {
		if (sw->lo < 0 || st.rate > step_rate(sw, sw->lo))
			sw->lo = (int)sw->n;
	} else if (sw->hi < 0 || st.rate < step_rate(sw, sw->hi)) {
		sw->hi = (int)sw->n;
	}
	sw->step[sw->n++] = st;
	return 0;
}

/* Where latency crosses the objective between steps LO and HI (HI broke
 * it on latency alone), or LO's rate. */
static double interpolate(const struct nb_osweep *sw, int lo, int hi, int *done)
{
	const struct nb_ostep *a = &sw->step[lo], *b = &sw->step[hi];
	double best = b->rate;

	*done = 0;
	if (!b->valid || !b->enough)
		return a->rate;
	for (unsigned i = 0; i < sw->slo.n; i++) {
		int st = sw->slo.t[i].stat;
		double lim = sw->slo.t[i].limit_us, l1 = a->resp[st], l2 = b->resp[st];
		double r;

		if (!(l2 > lim) || !(l2 > l1))
			continue;
		r = a->rate + (b->rate - a->rate) * (lim - l1) / (l2 - l1);
		if (r < best)
			best = r;
		*done = 1;
	}
	return *done ? best : a->rate;
}

void nb_osweep_answer(const struct nb_osweep *sw, struct nb_ocapacity *c)
{
	int lo = -1, hi = -1;

	memset(c, 0, sizeof(*c));
	c->max_rate = sw->max_rate;
	/* the lowest rate that broke it bounds every answer */
	for (size_t i = 0; i < sw->n; i++) {
		c->invalid += !sw->step[i].valid;
		c->thin += !sw->step[i].enough;
		c->disturbed += sw->step[i].disturbed;
		if (sw->step[i].judged && !sw->step[i].slo_met &&
		    (hi < 0 || sw->step[i].rate < sw->step[hi].rate))
			hi = (int)i;
	}
	for (size_t i = 0; i < sw->n; i++)
		if (sw->step[i].slo_met && (hi < 0 || sw->step[i].rate < sw->step[hi].rate) &&
		    (lo < 0 || sw->step[i].rate > sw->step[lo].rate))
			lo = (int)i;
	c->lo = lo;
	c->hi = hi;
	/* nothing met it, and a step below the lowest that broke it (or
	 * any, when none did) was too thin to judge: the answer is not
	 * measured, not "none meets" */
	for (size_t i = 0; lo < 0 && i < sw->n; i++)
		if (!sw->step[i].judged && !sw->step[i].enough &&
		    (hi < 0 || sw->step[i].rate < sw->step[hi].rate))
			c->unmeasured = 1;
	if (lo < 0)
		return;
	c->found = 1;
	c->lower_bound = hi < 0;
	if (sw->vm_iops > 0) {
		c->vms = sw->step[lo].vms;
		c->iops = sw->step[lo].rate;
		return;
	}
	c->iops = hi >= 0 ? interpolate(sw, lo, hi, &c->interpolated) :
		  sw->step[lo].rate;
}

char *nb_ocapacity_fmt(const struct nb_osweep *sw,
		       const struct nb_ocapacity *c, char *buf, size_t len)
{
	char slo[160];
	size_t n;

	nb_slo_fmt(&sw->slo, slo, sizeof(slo));
	if (!c->found) {
		if (!sw->n)
			snprintf(buf, len, "no step ran");
		else if (c->unmeasured)
			snprintf(buf, len, "unmeasured: %zu step%s had too few "
				 "samples for %s (%llu): no rate was seen to meet "
				 "it%s", c->thin, c->thin == 1 ? "" : "s", slo,
				 (unsigned long long)nb_slo_min_samples(&sw->slo),
				 c->hi >= 0 ? " below the lowest that broke it" : "");
		else
			snprintf(buf, len, "no offered rate meets %s (the lowest "
				 "tried: %.0f IOPS%s)", slo, sw->step[c->hi].rate,
				 sw->step[c->hi].valid ? "" : ", not achieved");
		return buf;
	}
	if (sw->vm_iops > 0)
		n = (size_t)snprintf(buf, len, "%.0f VMs (%.0f IOPS offered) at %s",
				     c->vms, c->iops, slo);
	else
		n = (size_t)snprintf(buf, len, "%.0f IOPS offered at %s", c->iops,
				     slo);
	if (n >= len)
		return buf;
	if (c->interpolated)
		snprintf(buf + n, len - n, ", interpolated between %.0f and %.0f",
			 sw->step[c->lo].rate, sw->step[c->hi].rate);
	else if (c->hi >= 0 && sw->vm_iops > 0)
		snprintf(buf + n, len - n, "; %u VMs break it", sw->step[c->hi].vms);
	else if (c->hi >= 0)
		snprintf(buf + n, len - n, "; %.0f IOPS breaks it", sw->step[c->hi].rate);
	else
		snprintf(buf + n, len - n, " (a lower bound: no rate up to %.0f "
			 "IOPS broke it)", sw->step[c->lo].rate);
	return buf;
}
