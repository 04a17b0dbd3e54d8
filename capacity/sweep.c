/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sweep.h"
#include "../core/err.h"
#include "../core/hist.h"
#include "../core/samples.h"
#include "../core/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the latency objective ---- */

static const struct {
	const char *name, *metric;
} slo_stats[NB_SLO_NSTAT] = {
	[NB_SLO_MEAN] = { "mean", "lat_mean_us" },
	[NB_SLO_P50] = { "p50", "lat_p50_us" },
	[NB_SLO_P90] = { "p90", "lat_p90_us" },
	[NB_SLO_P99] = { "p99", "lat_p99_us" },
	[NB_SLO_P999] = { "p99.9", "lat_p99.9_us" },
};

const char *nb_slo_stat_name(int stat)
{
	return stat >= 0 && stat < NB_SLO_NSTAT ? slo_stats[stat].name : "?";
}

const char *nb_slo_stat_metric(int stat)
{
	return stat >= 0 && stat < NB_SLO_NSTAT ? slo_stats[stat].metric : "?";
}

/* The percentile a statistic is (the mean: 0). */
static const double stat_pct[NB_SLO_NSTAT] = {
	[NB_SLO_MEAN] = 0, [NB_SLO_P50] = 50, [NB_SLO_P90] = 90,
	[NB_SLO_P99] = 99, [NB_SLO_P999] = 99.9,
};

double nb_slo_stat_pct(int stat)
{
	return stat >= 0 && stat < NB_SLO_NSTAT ? stat_pct[stat] : 0;
}

uint64_t nb_slo_min_samples(const struct nb_slo *slo)
{
	uint64_t most = 0;

	for (unsigned i = 0; i < slo->n; i++) {
		int st = slo->t[i].stat;
		uint64_t need = st == NB_SLO_MEAN ? NB_MEAN_MIN_SAMPLES :
				nb_hist_min_samples(stat_pct[st]);

		if (need > most)
			most = need;
	}
	return most;
}

static int slo_stat_find(const char *name, size_t len)
{
	for (int i = 0; i < NB_SLO_NSTAT; i++)
		if (strlen(slo_stats[i].name) == len &&
		    !strncasecmp(slo_stats[i].name, name, len))
			return i;
	return -1;
}

/* One "STAT=LATENCY" term of S (LEN bytes, trimmed by the caller). */
static int slo_term_parse(const char *s, size_t len, struct nb_slo_term *t)
{
	char term[64], *eq;
	uint64_t us;
	int stat;

	if (len == 0 || len >= sizeof(term))
		return nb_err(-EINVAL, "empty or overlong term");
	memcpy(term, s, len);
	term[len] = '\0';
	eq = strchr(term, '=');
	if (!eq)
		return nb_err(-EINVAL, "'%s' is not STAT=LATENCY", term);
	for (len = (size_t)(eq - term); len && term[len - 1] == ' '; len--)
		;
	stat = slo_stat_find(term, len);
	while (eq[1] == ' ')
		eq++;
	if (stat < 0)
		return nb_err(-EINVAL, "unknown statistic in '%s' (use mean, p50, "
			      "p90, p99 or p99.9)", term);
	len = strlen(eq + 1);
	/* a bare number would be seconds: ask for the unit */
	if (!len || strchr("0123456789.", eq[len]) ||
	    nb_parse_duration_us(eq + 1, &us) || us == 0)
		return nb_err(-EINVAL, "invalid latency in '%s' (use e.g. 20ms, "
			      "500us, 1s)", term);
	t->stat = stat;
	t->limit_us = (double)us;
	return 0;
}

int nb_slo_parse(const char *s, struct nb_slo *out)
{
	struct nb_slo slo = { 0 };
	const char *p = s ? s : "";

	while (*p) {
		size_t len = strcspn(p, ",");
		const char *a = p, *b = p + len;
		struct nb_slo_term t;

		while (a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (slo_term_parse(a, (size_t)(b - a), &t))
			goto bad;
		/* a statistic once: so at most NB_SLO_MAX terms */
		for (unsigned i = 0; i < slo.n; i++)
			if (slo.t[i].stat == t.stat) {
				nb_err_set("'%s' given twice", nb_slo_stat_name(t.stat));
				goto bad;
			}
		slo.t[slo.n++] = t;
		p += len + (p[len] == ',');
		if (p[-1] == ',' && !*p) {
			nb_err_set("empty term");
			goto bad;
		}
	}
	if (!slo.n)
		return nb_err(-EINVAL, "invalid objective '%s': empty (use e.g. "
			      "p99=20ms or mean=5ms,p99.9=50ms)", s ? s : "");
	*out = slo;
	return 0;
bad:
	nb_err_prefix("invalid objective '%s'", s);
	return -EINVAL;
}

int nb_slo_check(const char *s)
{
	struct nb_slo slo;

	return nb_slo_parse(s, &slo);
}

/* 20000 us -> "20ms", 500 -> "500us", 1500 -> "1.5ms" (parseable);
 * SPACED, for a person: "20 ms", "12.35 ms", "500 us". */
static void fmt_latency(double us, int spaced, char *buf, size_t len)
{
	if (spaced)
		snprintf(buf, len, us >= 1e3 ? "%.4g ms" : "%.0f us",
			 us >= 1e3 ? us / 1e3 : us);
	else if (us >= 1e6 && fmod(us, 1e5) == 0)
		snprintf(buf, len, "%gs", us / 1e6);
	else if (us >= 1e3 && fmod(us, 10) == 0)
		snprintf(buf, len, "%gms", us / 1e3);
	else
		snprintf(buf, len, "%.0fus", us);
}

static char *slo_join(const struct nb_slo *slo, int human, char *buf,
		      size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; slo && i < slo->n && off < len; i++) {
		char lat[32];

		fmt_latency(slo->t[i].limit_us, human, lat, sizeof(lat));
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s%s",
					i ? (human ? ", " : ",") : "",
					nb_slo_stat_name(slo->t[i].stat),
					human ? " <= " : "=", lat);
	}
	return buf;
}

char *nb_slo_str(const struct nb_slo *slo, char *buf, size_t len)
{
	return slo_join(slo, 0, buf, len);
}

char *nb_slo_fmt(const struct nb_slo *slo, char *buf, size_t len)
{
	return slo_join(slo, 1, buf, len);
}

/* ---- the steps ---- */

double nb_sweep_step_stat(const struct nb_sweep_step *st, int stat)
{
	switch (stat) {
	case NB_SLO_MEAN: return st->lat_mean_us;
	case NB_SLO_P50: return st->lat_p50_us;
	case NB_SLO_P90: return st->lat_p90_us;
	case NB_SLO_P99: return st->lat_p99_us;
	case NB_SLO_P999: return st->lat_p999_us;
	}
	return NAN;
}

void nb_sweep_steps_default(uint32_t *steps, size_t *n)
{
	*n = 0;
	for (uint32_t q = 1; q <= 256; q *= 2)
		steps[(*n)++] = q;
}

/* "A..B": doubling from A, B the last. */
static int steps_range(const char *s, const char *dots, uint32_t max,
		       uint32_t *steps, size_t *n)
{
	char a[24];
	uint64_t lo, hi;
	size_t len = (size_t)(dots - s);

	if (len >= sizeof(a))
		return nb_err(-EINVAL, "invalid step range '%s'", s);
	memcpy(a, s, len);
	a[len] = '\0';
	if (nb_parse_uint(a, 1, max, &lo) || nb_parse_uint(dots + 2, 1, max, &hi)) {
		nb_err_prefix("invalid step range '%s'", s);
		return -EINVAL;
	}
	if (hi <= lo)
		return nb_err(-EINVAL, "invalid step range '%s': the last step "
			      "must be above the first", s);
	*n = 0;
	for (uint64_t q = lo; q < hi && *n < NB_SWEEP_MAX - 1; q *= 2)
		steps[(*n)++] = (uint32_t)q;
	steps[(*n)++] = (uint32_t)hi;
	return 0;
}

int nb_sweep_steps_parse(const char *s, uint32_t max, uint32_t *steps,
			 size_t *n)
{
	uint32_t tmp[NB_SWEEP_MAX];
	size_t k = 0;
	const char *p = s, *dots;

	if (!s || !*s || !strcasecmp(s, "auto")) {
		nb_sweep_steps_default(steps, n);
		for (size_t i = 0; i < *n; i++)
			if (steps[i] > max)
				*n = i;
		return 0;
	}
	dots = strstr(s, "..");
	if (dots)
		return steps_range(s, dots, max, steps, n);
	while (*p) {
		char one[24];
		size_t len = strcspn(p, ",");
		uint64_t v;

		if (k == NB_SWEEP_MAX)
			return nb_err(-EINVAL, "invalid steps '%s': more than %d",
				      s, NB_SWEEP_MAX);
		if (len == 0 || len >= sizeof(one))
			return nb_err(-EINVAL, "invalid steps '%s'", s);
		memcpy(one, p, len);
		one[len] = '\0';
		if (nb_parse_uint(one, 1, max, &v)) {
			nb_err_prefix("invalid steps '%s'", s);
			return -EINVAL;
		}
		if (k && v <= tmp[k - 1])
			return nb_err(-EINVAL, "invalid steps '%s': each step must "
				      "be above the one before", s);
		tmp[k++] = (uint32_t)v;
		p += len + (p[len] == ',');
	}
	memcpy(steps, tmp, k * sizeof(*tmp));
	*n = k;
	return 0;
}

int nb_sweep_steps_check(const char *s)
{
	uint32_t steps[NB_SWEEP_MAX];
	size_t n;

	return nb_sweep_steps_parse(s, NB_SWEEP_MAX_OUTSTANDING, steps, &n);
}

char *nb_sweep_steps_str(const uint32_t *steps, size_t n, char *buf,
			 size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%u", i ? "," : "",
					steps[i]);
	return buf;
}

/* ---- a sweep ---- */

void nb_sweep_init(struct nb_sweep *sw, const uint32_t *steps, size_t n,
		   const struct nb_slo *slo)
{
	memset(sw, 0, sizeof(*sw));
	if (slo)
		sw->slo = *slo;
	if (steps && n) {
		sw->nplan = n > NB_SWEEP_MAX ? NB_SWEEP_MAX : n;
		memcpy(sw->plan, steps, sw->nplan * sizeof(*steps));
	} else {
		nb_sweep_steps_default(sw->plan, &sw->nplan);
	}
}

static int objective_met(const struct nb_slo *slo, const struct nb_sweep_step *st)
{
	for (unsigned i = 0; i < slo->n; i++) {
		double v = nb_sweep_step_stat(st, slo->t[i].stat);

		if (!(v <= slo->t[i].limit_us))
			return 0;
	}
	return 1;
}

int nb_sweep_add(struct nb_sweep *sw, const struct nb_sweep_step *in)
{
	struct nb_sweep_step *st;
	uint64_t need;

	if (sw->n >= NB_SWEEP_MAX)
		return -ENOSPC;
	st = &sw->step[sw->n++];
	*st = *in;
	need = nb_slo_min_samples(&sw->slo);
	st->enough = st->samples >= (need > NB_MEAN_MIN_SAMPLES ? need :
				     NB_MEAN_MIN_SAMPLES);
	st->slo_met = st->enough && objective_met(&sw->slo, st);
	st->little = st->outstanding ?
		st->iops * st->lat_mean_us / 1e6 / st->outstanding : 0;
	st->little_ok = fabs(st->little - 1) <= NB_SWEEP_LITTLE_TOL;
	st->client_bound = st->cpu_per_thread >= NB_SWEEP_CLIENT_BOUND;
	return 0;
}

/* A step judged, and breaking the objective. */
static int broke(const struct nb_sweep_step *st)
{
	return st->enough && !st->slo_met;
}

/* Step I gained less than 5% of throughput over step I - 1. */
static int flat_at(const struct nb_sweep *sw, size_t i)
{
	return sw->step[i].iops < sw->step[i - 1].iops * (1 + NB_SWEEP_GAIN);
}

int nb_sweep_next(const struct nb_sweep *sw, uint64_t elapsed_us)
{
	size_t n = sw->n;

	if (sw->slo.n && n >= 2 && broke(&sw->step[n - 1]) &&
	    broke(&sw->step[n - 2]))
		return NB_SWEEP_STOP_SLO;
	if (n >= 3 && flat_at(sw, n - 1) && flat_at(sw, n - 2))
		return NB_SWEEP_STOP_FLAT;
	if (sw->max_steps && n >= sw->max_steps)
		return NB_SWEEP_STOP_STEPS;
	if (sw->max_us && elapsed_us >= sw->max_us)
		return NB_SWEEP_STOP_TIME;
	if (n >= sw->nplan)
		return NB_SWEEP_STOP_END;
	return NB_SWEEP_GO;
}

const char *nb_sweep_stop_name(int why)
{
	static const char *const names[] = {
		[NB_SWEEP_GO] = "",
		[NB_SWEEP_STOP_SLO] = "objective-broken",
		[NB_SWEEP_STOP_FLAT] = "throughput-flat",
		[NB_SWEEP_STOP_STEPS] = "step-limit",
		[NB_SWEEP_STOP_TIME] = "time-limit",
		[NB_SWEEP_STOP_END] = "steps-done",
		[NB_SWEEP_STOP_INTR] = "interrupted",
		[NB_SWEEP_STOP_ERROR] = "error",
		[NB_SWEEP_STOP_CONVERGED] = "converged",
		[NB_SWEEP_STOP_THIN] = "too-few-samples",
	};

	return why >= 0 && why <= NB_SWEEP_STOP_THIN ? names[why] : "?";
}

/* ---- the answers ---- */

/* How far from step LO to step LO + 1 the objective still holds, 0..1:
 * the smallest crossing over the terms the upper step breaks, each read
 * linearly between the two steps' latencies. */
static double crossing(const struct nb_slo *slo, const struct nb_sweep_step *a,
		       const struct nb_sweep_step *b)
{
	double f = 1;

	for (unsigned i = 0; i < slo->n; i++) {
		double lim = slo->t[i].limit_us;
		double va = nb_sweep_step_stat(a, slo->t[i].stat);
		double vb = nb_sweep_step_stat(b, slo->t[i].stat);

		if (vb <= lim)
			continue;
		f = fmin(f, vb > va ? (lim - va) / (vb - va) : 0);
	}
	return fmax(f, 0);
}

static void answer_capacity(const struct nb_sweep *sw, struct nb_capacity *c)
{
	const struct nb_sweep_step *lo, *hi;
	double f;

	for (size_t i = 0; i < sw->n; i++)
		if (sw->step[i].slo_met &&
		    (!c->found || sw->step[i].iops > sw->step[c->lo].iops)) {
			c->found = 1;
			c->lo = i;
		}
	for (size_t i = c->found ? c->lo + 1 : 0; i < sw->n; i++)
		if (broke(&sw->step[i]))
			c->objective_broken = 1;
	for (size_t i = 0; i < sw->n; i++)
		c->thin += !sw->step[i].enough;
	c->unmeasured = !c->found && c->thin;
	if (!c->found)
		return;
	lo = &sw->step[c->lo];
	hi = c->lo + 1 < sw->n && broke(&sw->step[c->lo + 1]) ?
		&sw->step[c->lo + 1] : NULL;
	c->iops = lo->iops;
	c->bw_bytes = lo->bw_bytes;
	c->outstanding = lo->outstanding;
	c->flagged = !lo->little_ok || (hi && !hi->little_ok);
	c->client_bound = lo->client_bound || (hi && hi->client_bound);
	if (!hi || hi->iops <= lo->iops)
		return;
	f = crossing(&sw->slo, lo, hi);
	if (f <= 0)
		return;
	c->interpolated = 1;
	c->iops = lo->iops + f * (hi->iops - lo->iops);
	c->bw_bytes = lo->bw_bytes + f * (hi->bw_bytes - lo->bw_bytes);
	c->outstanding = lo->outstanding + f * (hi->outstanding - lo->outstanding);
}

static void answer_knee(const struct nb_sweep *sw, struct nb_capacity *c)
{
	c->knee = -1;
	for (size_t i = 1; i < sw->n; i++) {
		const struct nb_sweep_step *a = &sw->step[i - 1], *b = &sw->step[i];

		if (a->lat_mean_us <= 0 || a->iops <= 0)
			continue;
		if (b->lat_mean_us / a->lat_mean_us > b->iops / a->iops) {
			c->knee = (int)i - 1;
			c->knee_iops = a->iops;
			c->knee_bw = a->bw_bytes;
			c->knee_outstanding = a->outstanding;
			return;
		}
	}
}

void nb_sweep_answer(const struct nb_sweep *sw, double vm_iops,
		     struct nb_capacity *c)
{
	memset(c, 0, sizeof(*c));
	answer_capacity(sw, c);
	answer_knee(sw, c);
	for (size_t i = 0; i < sw->n; i++) {
		const struct nb_sweep_step *st = &sw->step[i];

		if (st->enough && (!sw->step[c->sat].enough ||
				   st->iops > sw->step[c->sat].iops))
			c->sat = i;
		c->little_failed += !st->little_ok;
		c->client_bound_steps += st->client_bound;
		if (i >= 2 && flat_at(sw, i) && flat_at(sw, i - 1))
			c->saturated = 1;
	}
	if (sw->n) {
		c->sat_iops = sw->step[c->sat].iops;
		c->sat_bw = sw->step[c->sat].bw_bytes;
	}
	c->lower_bound = c->found &&
		((!c->objective_broken && !c->saturated) || c->client_bound);
	c->vm_iops = vm_iops > 0 ? vm_iops : 0;
	if (c->vm_iops > 0) {
		c->vms = c->iops / vm_iops;
		c->knee_vms = c->knee >= 0 ? c->knee_iops / vm_iops : 0;
		c->sat_vms = c->sat_iops / vm_iops;
	}
}

/* "20.0 VMs (2000 IOPS)" or "2000 IOPS (8.2 MB/s)". */
static void fmt_amount(double vm_iops, double iops, double bw, char *buf,
		       size_t len)
{
	if (vm_iops > 0)
		snprintf(buf, len, "%.1f VMs (%.0f IOPS)", iops / vm_iops, iops);
	else
		snprintf(buf, len, "%.0f IOPS (%.1f MB/s)", iops, bw / 1e6);
}

char *nb_capacity_fmt(const struct nb_sweep *sw, const struct nb_capacity *c,
		      char *buf, size_t len)
{
	char slo[96], amt[64], knee[96] = "no knee", lat[32];
	nb_slo_fmt(&sw->slo, slo, sizeof(slo));
	if (!sw->n)
		return snprintf(buf, len, "no step finished"), buf;
	if (c->unmeasured) {
		snprintf(buf, len, "unmeasured: %zu of %zu steps had too few "
			 "samples for %s and no other met it", c->thin, sw->n, slo);
		return buf;
	}
	if (!c->found) {
		const struct nb_sweep_step *s0 = &sw->step[0];
		int stat = sw->slo.t[0].stat;

		fmt_latency(nb_sweep_step_stat(s0, stat), 1, lat, sizeof(lat));
		snprintf(buf, len, "no step meets %s (the first, %u outstanding: "
			 "%s %s)", slo, s0->outstanding, nb_slo_stat_name(stat), lat);
		return buf;
	}
	fmt_amount(c->vm_iops, c->iops, c->bw_bytes, amt, sizeof(amt));
	if (c->knee >= 0) {
		char k[64];

		fmt_amount(c->vm_iops, c->knee_iops, c->knee_bw, k, sizeof(k));
		snprintf(knee, sizeof(knee), "knee at %s, %u outstanding", k,
			 c->knee_outstanding);
	}
	snprintf(buf, len, "%s%s at %s%s%s%s; %s; saturation "
		 "%.0f IOPS", c->lower_bound ? "at least " : "", amt, slo,
		 c->interpolated ? " (interpolated)" : "",
		 c->client_bound ? " (client-bound)" : "",
		 c->flagged ? " (rests on a step failing Little's law)" : "",
		 knee, c->sat_iops);
	return buf;
}
