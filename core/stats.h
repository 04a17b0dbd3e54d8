/*
 * stats.h - summary statistics over a small sample (iterations of a run).
 */
#ifndef NB_STATS_H
#define NB_STATS_H

#include <stddef.h>

struct nb_summary {
	size_t n;
	double median, mean, min, max;
	double stddev;            /* sample standard deviation (n - 1); 0 when n < 2 */
};

/* Summarise N values (the array is not modified).  N may be 0. */
void nb_stats_summary(const double *v, size_t n, struct nb_summary *out);
double nb_stats_median(const double *v, size_t n);

#endif
