/* SPDX-License-Identifier: GPL-2.0-or-later */
/* judge.c - steady-state criteria on a window of rounds. */
#include "judge.h"
#include "../core/err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char nb_steady_help[] = "snia, snia:bw, snia:iops, bw:P%, iops:P%, "
			     "bw_slope:P% or iops_slope:P% (P in (0, 100])";

static const char *const metric_names[] = { "bw", "iops" };

/* "20%", "20", "2.5%": a limit in (0, 100]; 0 or -EINVAL. */
static int parse_pct(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s)
		return -EINVAL;
	v = strtod(s, &end);
	if (*end == '%')
		end++;
	if (end == s || *end || !(v > 0) || v > 100)
		return -EINVAL;
	*out = v;
	return 0;
}

static int find_metric(const char *s, size_t n)
{
	for (int i = 0; i < 2; i++)
		if (strlen(metric_names[i]) == n && !strncmp(s, metric_names[i], n))
			return i;
	return -1;
}

static int bad(const char *crit)
{
	return nb_err(-EINVAL, "unknown steady-state criterion '%s': one of %s",
		      crit, nb_steady_help);
}

int nb_steady_parse(const char *crit, struct nb_steady_crit *out)
{
	struct nb_steady_crit c = { .kind = NB_SS_SNIA, .metric = NB_SS_BW,
				    .range_pct = NB_STEADY_SNIA_RANGE,
				    .slope_pct = NB_STEADY_SNIA_SLOPE };
	const char *colon = strchr(crit, ':');
	size_t head = colon ? (size_t)(colon - crit) : strlen(crit);

	if (head == 4 && !strncmp(crit, "snia", 4)) {
		if (colon && (c.metric = find_metric(colon + 1,
						     strlen(colon + 1))) < 0)
			return bad(crit);
		*out = c;
		return 0;
	}
	if (!colon)
		return bad(crit);
	if (head > 6 && !strncmp(crit + head - 6, "_slope", 6)) {
		c.kind = NB_SS_SLOPE;
		c.metric = find_metric(crit, head - 6);
		if (c.metric < 0 || parse_pct(colon + 1, &c.slope_pct))
			return bad(crit);
	} else {
		c.kind = NB_SS_DEV;
		c.metric = find_metric(crit, head);
		if (c.metric < 0 || parse_pct(colon + 1, &c.dev_pct))
			return bad(crit);
	}
	*out = c;
	return 0;
}

int nb_steady_check(const char *crit)
{
	struct nb_steady_crit c;

	return nb_steady_parse(crit, &c);
}

const char *nb_steady_name(const struct nb_steady_crit *c, char *buf,
			   size_t len)
{
	const char *m = metric_names[c->metric ? 1 : 0];

	if (c->kind == NB_SS_SNIA)
		snprintf(buf, len, "snia:%s", m);
	else if (c->kind == NB_SS_SLOPE)
		snprintf(buf, len, "%s_slope:%g%%", m, c->slope_pct);
	else
		snprintf(buf, len, "%s:%g%%", m, c->dev_pct);
	return buf;
}

const char *nb_steady_metric_name(const struct nb_steady_crit *c)
{
	return c->metric == NB_SS_IOPS ? "iops" : "bw_bytes";
}

/* Mean, extremes, the largest deviation from the mean and the slope of
 * the least-squares line through (i, V[i]). */
static void window_stats(const double *v, unsigned n,
			 struct nb_steady_verdict *o)
{
	double sxy = 0, sxx = 0, xm = (n - 1) / 2.0, dev = 0;

	o->min = o->max = v[0];
	o->mean = 0;
	for (unsigned i = 0; i < n; i++) {
		o->mean += v[i];
		o->min = v[i] < o->min ? v[i] : o->min;
		o->max = v[i] > o->max ? v[i] : o->max;
	}
	o->mean /= n;
	for (unsigned i = 0; i < n; i++) {
		sxy += (i - xm) * (v[i] - o->mean);
		sxx += (i - xm) * (i - xm);
		if (fabs(v[i] - o->mean) > dev)
			dev = fabs(v[i] - o->mean);
	}
	o->range = o->max - o->min;
	o->slope = sxx > 0 ? sxy / sxx : 0;
	o->excursion = fabs(o->slope) * (n - 1);
	if (o->mean > 0) {
		o->range_pct = 100 * o->range / o->mean;
		o->excursion_pct = 100 * o->excursion / o->mean;
		o->dev_pct = 100 * dev / o->mean;
	}
}

static void decide(const struct nb_steady_crit *c, struct nb_steady_verdict *o)
{
	o->steady = 1;
	if (c->kind == NB_SS_SNIA && o->range_pct > c->range_pct)
		snprintf(o->why, sizeof(o->why), "the range is %.1f%% of the "
			 "mean, more than %g%%", o->range_pct, c->range_pct);
	else if (c->kind != NB_SS_DEV && o->excursion_pct > c->slope_pct)
		snprintf(o->why, sizeof(o->why), "the best-fit line moves %.1f%% "
			 "of the mean over the window, more than %g%%",
			 o->excursion_pct, c->slope_pct);
	else if (c->kind == NB_SS_DEV && o->dev_pct > c->dev_pct)
		snprintf(o->why, sizeof(o->why), "a round is %.1f%% from the "
			 "mean, more than %g%%", o->dev_pct, c->dev_pct);
	else
		return;
	o->steady = 0;
}

void nb_steady_judge(const struct nb_steady_crit *c, const double *v,
		     unsigned n, unsigned window, struct nb_steady_verdict *o)
{
	memset(o, 0, sizeof(*o));
	o->n = n < window ? n : window;
	o->first = n - o->n;
	if (!o->n)
		snprintf(o->why, sizeof(o->why), "no round finished");
	else
		window_stats(v + o->first, o->n, o);
	if (!o->n)
		return;
	if (o->n < window || window < 2) {
		snprintf(o->why, sizeof(o->why), "%u of the %u rounds of a window "
			 "finished", o->n, window);
		return;
	}
	if (!(o->mean > 0)) {
		snprintf(o->why, sizeof(o->why), "the window's mean is 0");
		return;
	}
	decide(c, o);
}

unsigned nb_steady_rounds(const double *sec, unsigned n, unsigned round_s,
			  double *rounds, unsigned max)
{
	unsigned whole = round_s ? n / round_s : 0, skip, k = 0;

	if (whole > max)
		whole = max;
	/* the last WHOLE rounds, ending at the last second */
	skip = n - whole * round_s;
	for (unsigned r = 0; r < whole; r++) {
		double sum = 0;

		for (unsigned i = 0; i < round_s; i++)
			sum += sec[skip + r * round_s + i];
		rounds[k++] = sum / round_s;
	}
	return k;
}
