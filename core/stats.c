/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double nb_stats_median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		abort();
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

void nb_stats_summary(const double *v, size_t n, struct nb_summary *out)
{
	double sum = 0, sq = 0;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	out->min = out->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < out->min)
			out->min = v[i];
		if (v[i] > out->max)
			out->max = v[i];
	}
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - out->mean) * (v[i] - out->mean);
	out->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	out->median = nb_stats_median(v, n);
}

/* One step of Lentz's method: fold coefficient AA into C, D and H. */
static void lentz(double aa, double *c, double *d, double *h)
{
	const double fpmin = 1e-300;

	*d = 1 + aa * *d;
	if (fabs(*d) < fpmin)
		*d = fpmin;
	*c = 1 + aa / *c;
	if (fabs(*c) < fpmin)
		*c = fpmin;
	*d = 1 / *d;
	*h *= *d * *c;
}

/* Continued fraction for the incomplete beta (Numerical Recipes, betacf). */
static double betacf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d, h;

	d = 1 - qab * x / qap;
	if (fabs(d) < 1e-300)
		d = 1e-300;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		int m2 = 2 * m;
		double before;

		lentz(m * (b - m) * x / ((qam + m2) * (a + m2)), &c, &d, &h);
		before = h;
		lentz(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &c, &d, &h);
		if (fabs(h / before - 1) < 1e-15)
			break;
	}
	return h;
}

double nb_stats_betai(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		 b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double nb_stats_mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

double nb_stats_ss(const double *v, size_t n)
{
	double m = nb_stats_mean(v, n), s = 0;

	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return s;
}

double nb_stats_mad(const double *v, size_t n)
{
	double *dev, m, mad;

	if (!n)
		return 0;
	dev = malloc(n * sizeof(*dev));
	if (!dev)
		abort();
	m = nb_stats_median(v, n);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(v[i] - m);
	mad = NB_STATS_MAD_SD * nb_stats_median(dev, n);
	free(dev);
	return mad;
}

double nb_stats_t_p(double t, double df)
{
	if (!isfinite(t))
		return 0;
	return nb_stats_betai(df / 2, 0.5, df / (df + t * t));
}

double nb_stats_t_crit(double alpha, double df)
{
	double lo = 0, hi = 1e3;

	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (nb_stats_t_p(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}
