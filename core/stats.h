/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - the statistics of small samples (the iterations of a run):
 *           summaries, robust spread, and Student's t for compare's
 *           run-level test (compare/compare.c) and the trend's band.
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

/* The mean of N values (0 when N is 0), and the sum of their squared
 * deviations from it. */
double nb_stats_mean(const double *v, size_t n);
double nb_stats_ss(const double *v, size_t n);

/* The median absolute deviation of N values, scaled by NB_STATS_MAD_SD to
 * estimate a normal standard deviation: a spread that single collapsed
 * iterations (noise on a shared machine) do not blow up.  0 when N is 0. */
#define NB_STATS_MAD_SD 1.4826
double nb_stats_mad(const double *v, size_t n);

/* Two figures within this many percent are about the same (the decision
 * summary's words, the report grid's colours). */
#define NB_SAME_PCT 5.0
/* Fewer iterations than this on a side: low confidence, noise cannot be
 * told apart (compare's verdicts, the decision summary). */
#define NB_FEW_ITERATIONS 3

/* Student's t: the two-sided p of T with DF degrees of freedom (0 for an
 * infinite T), and the T beyond which that p falls below ALPHA. */
double nb_stats_t_p(double t, double df);
double nb_stats_t_crit(double alpha, double df);

/* Regularised incomplete beta function I_x(a, b) (for the t distribution). */
double nb_stats_betai(double a, double b, double x);

#endif
