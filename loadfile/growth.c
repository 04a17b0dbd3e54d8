/* SPDX-License-Identifier: GPL-2.0-or-later */
/* growth.c - a load's growth rate, and the years a box holds under it. */
#include "growth.h"
#include "../core/err.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What may follow the number's unit: nothing, or "/year" and its
 * spellings ("/yr", "/y", " a year", " per year"). */
static int per_year(const char *s)
{
	static const char *const ok[] = { "", "/year", "/yr", "/y", "/a",
					  "a year", "per year", "/ year" };

	while (isspace((unsigned char)*s))
		s++;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcasecmp(s, ok[i]))
			return 1;
	return 0;
}

static int bad(const char *s, const char *why)
{
	return nb_err(-EINVAL, "invalid growth '%s': %s", s, why);
}

int nb_growth_parse(const char *s, struct nb_growth *g)
{
	const char *p;
	char *e;
	double v;

	g->kind = NB_GROWTH_NONE;
	g->value = 0;
	if (!s || !*s)
		return bad(s ? s : "", "expected a rate such as 25%/year or VMs a "
			   "year such as 4vms/year");
	v = strtod(s, &e);
	if (e == s || !isfinite(v))
		return bad(s, "expected a rate such as 25%/year or VMs a year "
			   "such as 4vms/year");
	p = e;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '%') {
		if (!per_year(p + 1))
			return bad(s, "a rate is per year: 25%/year");
		if (v <= 0)
			return bad(s, "the rate must be above 0%/year (a load that "
				   "does not grow is held as long as the headroom "
				   "is 1 or more)");
		if (v > NB_GROWTH_MAX_PCT)
			return bad(s, "more than 1000%/year");
		g->kind = NB_GROWTH_RATE;
		g->value = v / 100.0;
		return 0;
	}
	if (!strncasecmp(p, "vms", 3) || !strncasecmp(p, "vm", 2)) {
		p += strncasecmp(p, "vms", 3) ? 2 : 3;
		if (!per_year(p))
			return bad(s, "VMs are per year: 4vms/year");
		if (v <= 0)
			return bad(s, "the VMs a year must be above 0");
		if (v > NB_GROWTH_MAX_VMS)
			return bad(s, "more than a million VMs a year");
		g->kind = NB_GROWTH_VMS;
		g->value = v;
		return 0;
	}
	return bad(s, "expected a rate such as 25%/year or VMs a year such as "
		   "4vms/year (a number alone says neither)");
}

int nb_growth_check(const char *s)
{
	struct nb_growth g;

	return nb_growth_parse(s, &g);
}

double nb_growth_years(const struct nb_growth *g, double headroom, double vms)
{
	if (!(headroom > 1))
		return 0;
	switch (g->kind) {
	case NB_GROWTH_RATE:
		return log(headroom) / log1p(g->value);
	case NB_GROWTH_VMS:
		if (!(vms > 0))
			return -1;
		return (headroom - 1) * vms / g->value;
	default:
		return HUGE_VAL;
	}
}

double nb_growth_headroom(const struct nb_growth *g, double years, double vms)
{
	if (!(years > 0))
		return 1;
	switch (g->kind) {
	case NB_GROWTH_RATE:
		return exp(years * log1p(g->value));
	case NB_GROWTH_VMS:
		return vms > 0 ? 1 + years * g->value / vms : -1;
	default:
		return 1;
	}
}

char *nb_growth_fmt(const struct nb_growth *g, char *buf, size_t len)
{
	switch (g->kind) {
	case NB_GROWTH_RATE:
		snprintf(buf, len, "%.6g%%/year", g->value * 100);
		break;
	case NB_GROWTH_VMS:
		snprintf(buf, len, "%.6g VMs/year", g->value);
		break;
	default:
		snprintf(buf, len, "none");
	}
	return buf;
}
