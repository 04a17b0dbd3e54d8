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

/*
 * Significance of a difference between two small samples (the iterations
 * of a workload in two runs).  Both return a two-sided p-value in [0, 1].
 */

/* Mann-Whitney U: U of X (count of pairs x > y, ties half), and the
 * two-sided p-value P(|U' - nx*ny/2| >= |U - nx*ny/2|) under the
 * permutation distribution.  Exact (every split of the pooled mid-ranks,
 * so ties are handled exactly) when nx + ny <= NB_MW_EXACT_MAX; above that
 * the normal approximation with tie and continuity correction.  EXACT
 * says which.  0, or -EINVAL when a sample is empty. */
#define NB_MW_EXACT_MAX 60
struct nb_mw {
	double u;
	double p;
	int exact;
};
int nb_stats_mann_whitney(const double *x, size_t nx, const double *y,
			  size_t ny, struct nb_mw *out);

/* The smallest two-sided p the exact U test can reach with these sample
 * sizes (all of one sample beyond all of the other): 2 / C(nx+ny, nx).
 * 0.1 for 3 vs 3, 0.057 for 3 vs 4, 0.029 for 4 vs 4. */
double nb_stats_mw_pmin(size_t nx, size_t ny);

/* Welch's unequal-variance t-test; two-sided p.  Needs nx, ny >= 2.
 * Both variances 0: p = 0 when the means differ, 1 when they are equal. */
double nb_stats_welch_p(const double *x, size_t nx, const double *y, size_t ny);

/* Regularised incomplete beta function I_x(a, b) (for the t distribution). */
double nb_stats_betai(double a, double b, double x);

#endif
