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
