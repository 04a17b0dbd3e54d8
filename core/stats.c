#include "stats.h"

#include <errno.h>
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

/* Mid-ranks of the pooled sample, doubled so that they are integers. */
static void ranks2(const double *x, size_t nx, const double *y, size_t ny,
		   long *r)
{
	size_t n = nx + ny;

	for (size_t i = 0; i < n; i++) {
		double v = i < nx ? x[i] : y[i - nx];
		long below = 0, same = 0;

		for (size_t j = 0; j < n; j++) {
			double w = j < nx ? x[j] : y[j - nx];

			below += w < v;
			same += w == v;
		}
		/* ranks below+1 .. below+same; mid-rank doubled */
		r[i] = 2 * below + same + 1;
	}
}

double nb_stats_mw_pmin(size_t nx, size_t ny)
{
	double c = 1;

	for (size_t i = 1; i <= nx; i++)
		c = c * (double)(ny + i) / (double)i;
	return c > 2 ? 2 / c : 1;
}

/* Exact: count the splits of the pooled doubled ranks by the sum of the
 * first sample's part (subset-sum DP, counts in doubles: exact to 2^53). */
static double mw_exact_p(const long *r, size_t nx, size_t n, long s_obs)
{
	long smax = 0;
	double *cnt, total = 0, hit = 0;
	long two_e = (long)nx * (long)(n + 1);      /* doubled expected sum */
	long dev = labs(s_obs - two_e);

	for (size_t i = 0; i < n; i++)
		smax += r[i];
	cnt = calloc((nx + 1) * (size_t)(smax + 1), sizeof(*cnt));
	if (!cnt)
		abort();
#define C(k, s) cnt[(size_t)(k) * (size_t)(smax + 1) + (size_t)(s)]
	C(0, 0) = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t k = (i + 1 < nx ? i + 1 : nx); k >= 1; k--)
			for (long s = smax; s >= r[i]; s--)
				C(k, s) += C(k - 1, s - r[i]);
	for (long s = 0; s <= smax; s++) {
		total += C(nx, s);
		if (labs(s - two_e) >= dev)
			hit += C(nx, s);
	}
#undef C
	free(cnt);
	return total > 0 ? hit / total : 1;
}

static double mw_normal_p(const long *r, size_t nx, size_t ny, double u)
{
	size_t n = nx + ny;
	double ties = 0, mean = (double)nx * (double)ny / 2, var, z;
	long *s = malloc(n * sizeof(*s));

	if (!s)
		abort();
	memcpy(s, r, n * sizeof(*s));
	/* tie correction: sum over tie groups of t^3 - t */
	for (size_t i = 0; i < n; i++) {
		size_t t = 0;

		if (s[i] < 0)
			continue;
		for (size_t j = i; j < n; j++)
			if (s[j] == r[i])
				t++, s[j] = -1;
		ties += (double)t * t * t - (double)t;
	}
	free(s);
	var = (double)nx * ny / 12.0 *
	      ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (var <= 0)
		return 1;
	z = (fabs(u - mean) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	return fmin(1, erfc(z / sqrt(2)));
}

int nb_stats_mann_whitney(const double *x, size_t nx, const double *y,
			  size_t ny, struct nb_mw *out)
{
	size_t n = nx + ny;
	long *r, s = 0;

	memset(out, 0, sizeof(*out));
	if (!nx || !ny)
		return -EINVAL;
	r = malloc(n * sizeof(*r));
	if (!r)
		abort();
	ranks2(x, nx, y, ny, r);
	for (size_t i = 0; i < nx; i++)
		s += r[i];
	out->u = (double)s / 2 - (double)nx * (double)(nx + 1) / 2;
	out->exact = n <= NB_MW_EXACT_MAX;
	out->p = out->exact ? mw_exact_p(r, nx, n, s) :
			      mw_normal_p(r, nx, ny, out->u);
	free(r);
	return 0;
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

double nb_stats_welch_p(const double *x, size_t nx, const double *y, size_t ny)
{
	struct nb_summary sx, sy;
	double vx, vy, se2, t, df;

	if (nx < 2 || ny < 2)
		return 1;
	nb_stats_summary(x, nx, &sx);
	nb_stats_summary(y, ny, &sy);
	vx = sx.stddev * sx.stddev / (double)nx;
	vy = sy.stddev * sy.stddev / (double)ny;
	se2 = vx + vy;
	if (se2 <= 0)
		return sx.mean == sy.mean ? 1 : 0;
	t = (sx.mean - sy.mean) / sqrt(se2);
	df = se2 * se2 / (vx * vx / (double)(nx - 1) + vy * vy / (double)(ny - 1));
	return nb_stats_betai(df / 2, 0.5, df / (df + t * t));
}
