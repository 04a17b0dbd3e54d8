/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "arrival.h"
#include "../core/err.h"
#include "../core/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const names[] = { "poisson", "uniform", "onoff" };

const char *nb_arrival_name(int kind)
{
	return kind >= 0 && kind < (int)(sizeof(names) / sizeof(*names)) ?
	       names[kind] : NULL;
}

int nb_arrival_find(const char *name)
{
	for (int i = 0; i < (int)(sizeof(names) / sizeof(*names)); i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

double nb_rng_unit(struct nb_rng *r)
{
	return (double)(nb_rng_next(r) >> 11) * 0x1.0p-53;
}

double nb_rng_exp(struct nb_rng *r, double mean)
{
	/* 1 - U is in (0, 1]: the logarithm is finite */
	return -log(1.0 - nb_rng_unit(r)) * mean;
}

/* onoff in whole cycles: a cycle starts at START, its burst and its
 * pause drawn now; one that would end past the horizon is not run (the
 * schedule ends at START), save the first, cut there.  The next
 * cycle's start, or -1 when there is none. */
static double cycle_begin(struct nb_arrivals *a, double start)
{
	a->on_end = start + nb_rng_exp(&a->rng, a->on_ns);
	a->cycle_end = a->on_end + nb_rng_exp(&a->rng, a->off_ns);
	if (a->cycle_end <= a->horizon) {
		a->cycles++;
		return a->cycle_end;
	}
	if (a->cycles) {
		a->end = start;
		a->done = 1;
		return -1;
	}
	a->cut = 1;
	a->end = a->horizon;
	return a->cycle_end;
}

/* onoff: from time T (inside a pause or past a burst), the next burst's
 * start; sets its end. */
static double next_burst(struct nb_arrivals *a, double t)
{
	double start;

	if (a->horizon > 0) {
		/* T is past the burst: the next cycle starts where this
		 * one's pause ends */
		start = a->cycle_end;
		if (a->cut || cycle_begin(a, start) < 0)
			a->done = 1;
		return start;
	}
	start = t + nb_rng_exp(&a->rng, a->off_ns);
	a->on_end = start + nb_rng_exp(&a->rng, a->on_ns);
	return start;
}

int nb_arrivals_init(struct nb_arrivals *a, int kind, double rate,
		     uint64_t on_us, uint64_t off_us, uint64_t seed)
{
	memset(a, 0, sizeof(*a));
	if (!(rate > 0) || !isfinite(rate) || !nb_arrival_name(kind))
		return -EINVAL;
	if (kind == NB_ARR_ONOFF && (!on_us || !off_us))
		return -EINVAL;
	a->kind = kind;
	a->gap_ns = 1e9 / rate;
	nb_rng_seed(&a->rng, seed);
	switch (kind) {
	case NB_ARR_UNIFORM:
		a->next = nb_rng_unit(&a->rng) * a->gap_ns;
		break;
	case NB_ARR_ONOFF:
		a->on_ns = (double)on_us * 1e3;
		a->off_ns = (double)off_us * 1e3;
		/* inside a burst the rate that keeps the mean */
		a->gap_ns *= a->on_ns / (a->on_ns + a->off_ns);
		/* the stationary start: in a burst with its long-run share;
		 * both lengths are memoryless, so what is left of either is
		 * exponential with the same mean */
		if (nb_rng_unit(&a->rng) < a->on_ns / (a->on_ns + a->off_ns)) {
			a->on_end = nb_rng_exp(&a->rng, a->on_ns);
			a->next = 0;
		} else {
			a->next = next_burst(a, 0);
		}
		a->next += nb_rng_exp(&a->rng, a->gap_ns);
		while (a->next > a->on_end)
			a->next = next_burst(a, a->on_end) +
				  nb_rng_exp(&a->rng, a->gap_ns);
		break;
	default:
		a->next = nb_rng_exp(&a->rng, a->gap_ns);
		break;
	}
	return 0;
}

void nb_arrivals_cycles(struct nb_arrivals *a, double horizon_ns)
{
	if (a->kind != NB_ARR_ONOFF || !(horizon_ns > 0))
		return;
	a->horizon = horizon_ns;
	a->cycles = 0;
	a->cut = a->done = 0;
	a->end = 0;
	cycle_begin(a, 0);
	/* the burst starts with its first I/O */
	a->next = 0;
}

uint64_t nb_arrivals_next(struct nb_arrivals *a)
{
	double now = a->next;

	if (a->done)
		return UINT64_MAX;

	switch (a->kind) {
	case NB_ARR_UNIFORM:
		a->next += a->gap_ns;
		break;
	case NB_ARR_ONOFF:
		a->next += nb_rng_exp(&a->rng, a->gap_ns);
		/* past the burst's end: the rest of the gap is in the next
		 * burst (memoryless), so draw it afresh from there */
		while (a->next > a->on_end && !a->done)
			a->next = next_burst(a, a->on_end) +
				  nb_rng_exp(&a->rng, a->gap_ns);
		/* a cut first cycle: nothing after the horizon */
		if (a->horizon > 0 && a->cut && a->next >= a->horizon)
			a->done = 1;
		break;
	default:
		a->next += nb_rng_exp(&a->rng, a->gap_ns);
		break;
	}
	return (uint64_t)now;
}

/* "20MB/s": the size before "/s" in bytes per second. */
static int parse_bps(const char *s, size_t n, double *bps)
{
	char num[64], *end;
	double v, unit = 1;
	static const struct { const char *u; double f; } units[] = {
		{ "B", 1 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 },
		{ "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
	};

	if (n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = 0;
	v = strtod(num, &end);
	if (end == num)
		return -EINVAL;
	while (*end == ' ')
		end++;
	if (*end) {
		size_t i;

		for (i = 0; i < sizeof(units) / sizeof(*units); i++)
			if (!strcasecmp(end, units[i].u))
				break;
		if (i == sizeof(units) / sizeof(*units))
			return -EINVAL;
		unit = units[i].f;
	}
	*bps = v * unit;
	return 0;
}

int nb_arrival_rate_parse(const char *s, double *iops, double *bps)
{
	const char *slash = strstr(s, "/s");
	char *end;
	double v;

	*iops = *bps = 0;
	if (slash && !slash[2]) {
		if (parse_bps(s, (size_t)(slash - s), bps) || !(*bps > 0) ||
		    !isfinite(*bps))
			goto bad;
		return 0;
	}
	v = strtod(s, &end);
	if (end == s || (*end && strcasecmp(end, "iops")) || !(v > 0) ||
	    !isfinite(v) || v > 1e9)
		goto bad;
	*iops = v;
	return 0;
bad:
	*iops = *bps = 0;
	return nb_err(-EINVAL, "invalid rate '%s': give I/Os per second (500, "
		      "500iops) or a throughput (20MB/s, 20MiB/s), above 0", s);
}

int nb_arrival_rate_check(const char *s)
{
	double iops, bps;

	return nb_arrival_rate_parse(s, &iops, &bps);
}

int nb_burst_parse(const char *s, uint64_t *on_us, uint64_t *off_us)
{
	const char *slash = strchr(s, '/');
	char on[64];

	if (!slash || (size_t)(slash - s) >= sizeof(on))
		goto bad;
	memcpy(on, s, (size_t)(slash - s));
	on[slash - s] = 0;
	if (!strpbrk(on, "smu") || !strpbrk(slash + 1, "smu") ||
	    nb_parse_duration_us(on, on_us) ||
	    nb_parse_duration_us(slash + 1, off_us) || !*on_us || !*off_us)
		goto bad;
	return 0;
bad:
	return nb_err(-EINVAL, "invalid burst '%s': give the mean burst and pause "
		      "lengths with their units, ON/OFF (100ms/400ms)", s);
}

int nb_burst_check(const char *s)
{
	uint64_t on, off;

	return nb_burst_parse(s, &on, &off);
}
