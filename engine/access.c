/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "access.h"
#include "../core/err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THETA_MAX 10.0

static int bad(const char *s, const char *why)
{
	return nb_err(-EINVAL, "random distribution '%s': %s", s, why);
}

/* "IO/SIZE" at *P into the zone I of A; *P past it. */
static int zone_parse(const char *s, const char **p, struct nb_access *a)
{
	char *end;
	double io, size;

	if (a->nzones == NB_ACCESS_ZONES)
		return bad(s, "at most 16 zones");
	errno = 0;
	io = strtod(*p, &end);
	if (end == *p || *end != '/' || errno)
		return bad(s, "each zone is IO/SIZE, percents (zoned:80/20)");
	*p = end + 1;
	size = strtod(*p, &end);
	if (end == *p || (*end && *end != ':') || errno)
		return bad(s, "each zone is IO/SIZE, percents (zoned:80/20)");
	if (!(io >= 0 && io <= 100 && size > 0 && size <= 100))
		return bad(s, "a zone's I/Os 0..100%, its size above 0 up to 100%");
	a->zone_io[a->nzones] = io;
	a->zone_size[a->nzones++] = size;
	*p = *end ? end + 1 : end;
	return 0;
}

static int zoned_parse(const char *s, const char *p, struct nb_access *a)
{
	double io = 0, size = 0;
	int rc;

	while (*p) {
		rc = zone_parse(s, &p, a);
		if (rc)
			return rc;
	}
	for (unsigned i = 0; i < a->nzones; i++)
		io += a->zone_io[i], size += a->zone_size[i];
	if (a->nzones == 1 && io <= 100 && size < 100) {
		/* one zone: the rest of the region takes the rest */
		a->zone_io[1] = 100 - io;
		a->zone_size[1] = 100 - size;
		a->nzones = 2;
		return 0;
	}
	if (fabs(io - 100) > 1e-6 || fabs(size - 100) > 1e-6)
		return bad(s, "the zones' I/Os and sizes must each add up to 100%");
	return 0;
}

int nb_access_parse(const char *s, struct nb_access *out)
{
	struct nb_access a = { 0 };
	const char *colon = strchr(s, ':');
	size_t kind = colon ? (size_t)(colon - s) : strlen(s);
	char *end;
	int rc;

	if (!strcmp(s, "uniform") || !strcmp(s, "random")) {
		*out = a;
		return 0;
	}
	if (kind == 5 && !strncmp(s, "zoned", 5) && colon[1]) {
		a.dist = NB_DIST_ZONED;
		rc = zoned_parse(s, colon + 1, &a);
		if (rc)
			return rc;
		*out = a;
		return 0;
	}
	if (colon && ((kind == 4 && !strncmp(s, "zipf", 4)) ||
		      (kind == 6 && !strncmp(s, "pareto", 6)))) {
		a.dist = kind == 4 ? NB_DIST_ZIPF : NB_DIST_PARETO;
		errno = 0;
		a.param = strtod(colon + 1, &end);
		if (end == colon + 1 || *end || errno || !isfinite(a.param))
			return bad(s, "a number after the colon (zipf:1.2, pareto:0.2)");
		if (a.dist == NB_DIST_ZIPF && !(a.param > 0 && a.param <= THETA_MAX))
			return bad(s, "zipf's theta above 0, at most 10");
		if (a.dist == NB_DIST_PARETO && !(a.param > 0 && a.param < 1))
			return bad(s, "pareto's H between 0 and 1 (0.2: 80% of the "
				   "I/Os on 20% of the data)");
		*out = a;
		return 0;
	}
	return bad(s, "uniform, zipf:THETA, pareto:H or zoned:IO/SIZE[:IO/SIZE...]");
}

int nb_access_check(const char *s)
{
	struct nb_access a;

	return nb_access_parse(s, &a);
}

char *nb_access_str(const struct nb_access *a, char *buf, size_t len)
{
	size_t n;

	if (a->dist == NB_DIST_ZIPF || a->dist == NB_DIST_PARETO) {
		snprintf(buf, len, "%s:%g", a->dist == NB_DIST_ZIPF ? "zipf" :
			 "pareto", a->param);
		return buf;
	}
	if (a->dist != NB_DIST_ZONED) {
		snprintf(buf, len, "uniform");
		return buf;
	}
	n = (size_t)snprintf(buf, len, "zoned");
	for (unsigned i = 0; i < a->nzones && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, ":%g/%g", a->zone_io[i],
				      a->zone_size[i]);
	return buf;
}

const char *nb_access_fio(const struct nb_access *a, char *buf, size_t len)
{
	if (a->dist == NB_DIST_UNIFORM)
		return NULL;
	return nb_access_str(a, buf, len);
}

/* ---- the laws ---- */

/* sum of k^-theta for k = 1..m: exact up to a point, then Euler-Maclaurin */
static double zeta_sum(double theta, uint64_t m)
{
	const uint64_t exact = 100000;
	double s = 0, a, f_a, f_m, integral;

	for (uint64_t k = 1; k <= m && k <= exact; k++)
		s += pow((double)k, -theta);
	if (m <= exact)
		return s;
	a = (double)exact + 1;
	f_a = pow(a, -theta);
	f_m = pow((double)m, -theta);
	integral = fabs(theta - 1) < 1e-12 ? log((double)m / a) :
		   (pow((double)m, 1 - theta) - pow(a, 1 - theta)) / (1 - theta);
	return s + integral + (f_a + f_m) / 2 +
	       (-theta * f_m / (double)m + theta * f_a / a) / 12;
}

static double pareto_pow(double h)
{
	return log(h) / log(1 - h);
}

double nb_access_share(const struct nb_access *a, uint64_t n, double frac)
{
	double m = floor(frac * (double)n + 1e-9), got = 0;

	if (frac <= 0 || !n)
		return 0;
	if (frac >= 1)
		return 1;
	switch (a->dist) {
	case NB_DIST_ZIPF:
		return m < 1 ? 0 : zeta_sum(a->param, (uint64_t)m) /
		       zeta_sum(a->param, n);
	case NB_DIST_PARETO:
		/* block floor((N - 1) U^p) < m */
		return n < 2 ? 1 : fmin(1, pow(m / (double)(n - 1),
					       1 / pareto_pow(a->param)));
	case NB_DIST_ZONED: {
		double lo = 0;

		for (unsigned i = 0; i < a->nzones; i++) {
			double hi = lo + a->zone_size[i] / 100;

			if (frac > lo)
				got += a->zone_io[i] / 100 *
				       (fmin(frac, hi) - lo) / (hi - lo);
			lo = hi;
		}
		return got;
	}
	default:
		return m / (double)n;
	}
}

double nb_access_hot(const struct nb_access *a, uint64_t n, double share)
{
	double lo = 0, hi = 1;

	/* the share is monotonic in the fraction: bisect to a block */
	for (int i = 0; i < 64 && (hi - lo) * (double)n > 0.5; i++) {
		double mid = (lo + hi) / 2;

		if (nb_access_share(a, n, mid) >= share)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* ---- drawing ---- */

/* Rejection-inversion (Hoermann and Derflinger, 1996): H is the integral
 * of h(x) = x^-theta, written with expm1 and log1p so theta = 1 is no
 * special case. */
static double helper1(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x / 2;
}

static double helper2(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x / 2;
}

static double zh(const struct nb_access_gen *g, double x)
{
	return exp(-g->theta * log(x));
}

static double zH(const struct nb_access_gen *g, double x)
{
	double lx = log(x);

	return helper2((1 - g->theta) * lx) * lx;
}

static double zHinv(const struct nb_access_gen *g, double y)
{
	double t = y * (1 - g->theta);

	if (t < -1)
		t = -1;         /* rounding at the edge */
	return exp(helper1(t) * y);
}

void nb_access_init(struct nb_access_gen *g, const struct nb_access *a,
		    uint64_t n)
{
	double lo = 0;

	memset(g, 0, sizeof(*g));
	g->dist = a->dist;
	g->n = n ? n : 1;
	if (g->dist == NB_DIST_ZIPF) {
		g->theta = a->param;
		g->hx1 = zH(g, 1.5) - 1;
		g->hn = zH(g, (double)g->n + 0.5);
		g->s = 2 - zHinv(g, zH(g, 2.5) - zh(g, 2));
	} else if (g->dist == NB_DIST_PARETO) {
		g->pow = pareto_pow(a->param);
	} else if (g->dist == NB_DIST_ZONED) {
		g->nzones = a->nzones;
		for (unsigned i = 0; i < a->nzones; i++) {
			g->cum[i] = (i ? g->cum[i - 1] : 0) + a->zone_io[i] / 100;
			g->lo[i] = (uint64_t)llround(lo / 100 * (double)g->n);
			lo += a->zone_size[i];
			g->hi[i] = i + 1 == a->nzones ? g->n :
				   (uint64_t)llround(lo / 100 * (double)g->n);
		}
	}
}

/* A uniform double in [0, 1). */
static double unit(struct nb_rng *r)
{
	return (double)(nb_rng_next(r) >> 11) * 0x1.0p-53;
}

static uint64_t zipf_next(struct nb_access_gen *g, struct nb_rng *r)
{
	for (;;) {
		double u = g->hn + unit(r) * (g->hx1 - g->hn);
		double x = zHinv(g, u);
		double k = floor(x + 0.5);

		if (k < 1)
			k = 1;
		if (k > (double)g->n)
			k = (double)g->n;
		if (k - x <= g->s || u >= zH(g, k + 0.5) - zh(g, k))
			return (uint64_t)k - 1;
	}
}

uint64_t nb_access_next(struct nb_access_gen *g, struct nb_rng *r)
{
	double u;

	switch (g->dist) {
	case NB_DIST_ZIPF:
		return zipf_next(g, r);
	case NB_DIST_PARETO: {
		uint64_t b = (uint64_t)((double)(g->n - 1) * pow(unit(r), g->pow));

		return b < g->n ? b : g->n - 1;
	}
	case NB_DIST_ZONED:
		u = unit(r);
		for (unsigned i = 0; i < g->nzones; i++)
			if ((u < g->cum[i] || i + 1 == g->nzones) && g->hi[i] > g->lo[i])
				return g->lo[i] + nb_rng_below(r, g->hi[i] - g->lo[i]);
		/* a tiny region whose zones round to no block */
		return nb_rng_below(r, g->n);
	default:
		return nb_rng_below(r, g->n);
	}
}
