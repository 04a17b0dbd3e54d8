/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bands.c - the viability bands (viable / decide / not viable). */
#include "bands.h"
#include "../core/err.h"
#include "../core/metrics.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(const char *what, const char *s, const char *why)
{
	return nb_err(-EINVAL, "%s: invalid bands '%s': %s (use %s)", what, s, why,
		      NB_BANDS_FORMS);
}

/* One limit, "10%" or "2x", of length LEN at P, into *T (a time factor);
 * 0, or -1 with WHY filled. */
static int limit(const char *p, size_t len, double *t, char *why, size_t wlen)
{
	char part[32], *end;
	double v;

	while (len && isspace((unsigned char)*p))
		p++, len--;
	while (len && isspace((unsigned char)p[len - 1]))
		len--;
	if (!len || len >= sizeof(part)) {
		snprintf(why, wlen, "a limit is empty or too long");
		return -1;
	}
	memcpy(part, p, len);
	part[len] = '\0';
	v = strtod(part, &end);
	if (end == part || !isfinite(v)) {
		snprintf(why, wlen, "'%s' is not a number with a unit", part);
		return -1;
	}
	if (!strcmp(end, "%")) {
		if (!(v > 0 && v < 100)) {
			snprintf(why, wlen, "'%s' is not a loss between 0%% and 100%%",
				 part);
			return -1;
		}
		*t = 1 / (1 - v / 100);
		return 0;
	}
	if (!strcmp(end, "x") || !strcmp(end, "X")) {
		if (!(v > 1)) {
			snprintf(why, wlen, "'%s' is not a time factor above 1x", part);
			return -1;
		}
		*t = v;
		return 0;
	}
	if (!*end)
		snprintf(why, wlen, "'%s' has no unit (%% or x)", part);
	else
		snprintf(why, wlen, "unknown unit '%s' in '%s'", end, part);
	return -1;
}

int nb_bands_parse(const char *what, const char *s, struct nb_bands *out)
{
	const char *comma = s ? strchr(s, ',') : NULL;
	char why[160];
	size_t n = 0;

	if (!s)
		return bad(what, "", "no limits");
	if (!comma || strchr(comma + 1, ','))
		return bad(what, s, "two limits are needed, separated by a comma");
	if (limit(s, (size_t)(comma - s), &out->viable, why, sizeof(why)) ||
	    limit(comma + 1, strlen(comma + 1), &out->not_viable, why, sizeof(why)))
		return bad(what, s, why);
	if (!(out->viable < out->not_viable)) {
		snprintf(why, sizeof(why), "the first limit (%.3gx the time) must "
			 "be below the second (%.3gx)", out->viable, out->not_viable);
		return bad(what, s, why);
	}
	for (const char *p = s; *p && n + 1 < sizeof(out->text); p++)
		if (!isspace((unsigned char)*p))
			out->text[n++] = *p;
	out->text[n] = '\0';
	return 0;
}

void nb_bands_set_init(struct nb_bands_set *set)
{
	memset(set, 0, sizeof(*set));
}

int nb_bands_set_rule(struct nb_bands_set *set, const char *workload,
		      const char *metric, const char *what, const char *s)
{
	struct nb_bands_rule *r;
	const char *stored = metric;
	double factor;

	if (set->nrules >= NB_BANDS_MAX_RULES)
		return nb_err(-EINVAL, "%s: more than %d band rules", what,
			      NB_BANDS_MAX_RULES);
	r = &set->rules[set->nrules];
	memset(r, 0, sizeof(*r));
	if (nb_bands_parse(what, s, &r->b))
		return -EINVAL;
	if (metric && *metric)
		nb_metric_alias(metric, &stored, &factor);
	snprintf(r->workload, sizeof(r->workload), "%s", workload ? workload : "");
	snprintf(r->metric, sizeof(r->metric), "%s", stored ? stored : "");
	set->nrules++;
	return 0;
}

/* Rank of rule R for WORKLOAD + METRIC: -1 no match; higher wins. */
static int rank(const struct nb_bands_rule *r, const char *workload,
		const char *metric)
{
	if (*r->workload && strcmp(r->workload, workload))
		return -1;
	if (*r->metric && strcmp(r->metric, metric))
		return -1;
	return (*r->workload ? 2 : 0) + (*r->metric ? 1 : 0);
}

const struct nb_bands *nb_bands_for(struct nb_bands_set *set,
				    const char *workload, const char *metric,
				    int *named)
{
	struct nb_bands_rule *best = NULL;
	int best_rank = -1;

	if (named)
		*named = 0;
	for (int i = 0; i < set->nrules; i++) {
		int k = rank(&set->rules[i], workload, metric);

		if (k > best_rank) {
			best_rank = k;
			best = &set->rules[i];
		}
	}
	if (best) {
		best->used = 1;
		if (named)
			*named = *best->metric != '\0';
		return &best->b;
	}
	return set->on ? &set->def : NULL;
}

double nb_bands_time(double base, double new_value, int better)
{
	if (!(base > 0) || !(new_value > 0) || !isfinite(base) ||
	    !isfinite(new_value))
		return 0;
	if (better == NB_HIGHER)
		return base / new_value;
	if (better == NB_LOWER)
		return new_value / base;
	return 0;
}

enum nb_band nb_bands_judge(const struct nb_bands *b, double t)
{
	if (!b || !(t > 0))
		return NB_BAND_NONE;
	if (t <= b->viable)
		return NB_BAND_VIABLE;
	if (t >= b->not_viable)
		return NB_BAND_NOT_VIABLE;
	return NB_BAND_DECIDE;
}

enum nb_band nb_bands_worst(enum nb_band a, enum nb_band b)
{
	return a > b ? a : b;
}

const char *nb_bands_word(enum nb_band v)
{
	switch (v) {
	case NB_BAND_VIABLE: return "viable";
	case NB_BAND_DECIDE: return "decide";
	case NB_BAND_NOT_VIABLE: return "not viable";
	default: return "";
	}
}

int nb_bands_exit(enum nb_band v)
{
	switch (v) {
	case NB_BAND_NOT_VIABLE: return NB_EXIT_FAIL;
	case NB_BAND_DECIDE: return NB_EXIT_DECIDE;
	default: return NB_EXIT_OK;
	}
}

char *nb_bands_fmt_time(double t, char *buf, size_t len)
{
	if (!(t > 0))
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%.2fx the time", t);
	return buf;
}

int nb_bands_judged(const char *metric, const char *primary)
{
	size_t n = strlen(metric), k = strlen("_bw_bytes");

	if (primary && !strcmp(metric, primary))
		return 1;
	if (!strcmp(metric, "datagen_bw_bytes"))
		return 0;
	return n > k && !strcmp(metric + n - k, "_bw_bytes");
}
