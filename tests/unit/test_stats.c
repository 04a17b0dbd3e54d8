#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>

#include "../../core/stats.h"

static void summary(void **state)
{
	const double v[] = { 5, 1, 4, 2, 3 };
	struct nb_summary s;

	(void)state;
	nb_stats_summary(v, 5, &s);
	assert_int_equal(s.n, 5);
	assert_true(s.median == 3 && s.mean == 3 && s.min == 1 && s.max == 5);
	assert_true(fabs(s.stddev - sqrt(2.5)) < 1e-12);
	assert_true(v[0] == 5);               /* input untouched */
	nb_stats_summary(v, 4, &s);
	assert_true(s.median == 3);           /* (2 + 4) / 2 of 5 1 4 2 */
	nb_stats_summary(v, 1, &s);
	assert_true(s.median == 5 && s.stddev == 0);
	nb_stats_summary(v, 0, &s);
	assert_int_equal(s.n, 0);
}

/* Reference values: R's wilcox.test example (Hollander & Wolfe 1973, p. 69:
 * W = 35, one-sided p = 0.1272, so two-sided 0.2544), and every figure
 * below checked by brute-force enumeration of all splits in Python. */
static void mann_whitney(void **state)
{
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	const double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 };
	const double a4[] = { 1, 2, 3, 4 }, b4[] = { 5, 6, 7, 8 };
	const double t1[] = { 1, 2, 2, 3 }, t2[] = { 2, 3, 3, 4, 5 };
	const double same[] = { 10, 10, 10 };
	struct nb_mw r;

	(void)state;
	assert_int_equal(nb_stats_mann_whitney(x, 10, y, 5, &r), 0);
	assert_true(r.exact && r.u == 35);
	assert_true(fabs(r.p - 0.2544122544) < 1e-9);
	nb_stats_mann_whitney(a3, 3, b3, 3, &r);     /* 3 vs 3: never below 0.1 */
	assert_true(r.u == 0 && fabs(r.p - 0.1) < 1e-12);
	nb_stats_mann_whitney(b3, 3, a3, 3, &r);
	assert_true(r.u == 9 && fabs(r.p - 0.1) < 1e-12);
	nb_stats_mann_whitney(a4, 4, b4, 4, &r);     /* 2/70 */
	assert_true(fabs(r.p - 2.0 / 70) < 1e-12);
	nb_stats_mann_whitney(t1, 4, t2, 5, &r);     /* ties: exact on mid-ranks */
	assert_true(r.u == 3 && fabs(r.p - 1.0 / 9) < 1e-12);
	nb_stats_mann_whitney(same, 3, same, 3, &r);
	assert_true(r.u == 4.5 && r.p == 1);
	assert_int_equal(nb_stats_mann_whitney(x, 0, y, 5, &r), -EINVAL);
	assert_true(fabs(nb_stats_mw_pmin(3, 3) - 0.1) < 1e-12);
	assert_true(fabs(nb_stats_mw_pmin(3, 4) - 2.0 / 35) < 1e-12);
	assert_true(fabs(nb_stats_mw_pmin(5, 5) - 2.0 / 252) < 1e-12);
}

/* Large samples switch to the normal approximation; it must agree with
 * the exact figure (Python's DP over all splits: 30 vs 30 U = 330,
 * p = 0.077179; 40 vs 40 U = 590, p = 0.043375). */
static void mann_whitney_normal(void **state)
{
	double x[40], y[40];
	struct nb_mw r;

	(void)state;
	for (int i = 0; i < 40; i++) {
		x[i] = sin(i * 1.7) * 10;
		y[i] = sin(i * 2.3 + 1) * 10 + 3;
	}
	nb_stats_mann_whitney(x, 30, y, 30, &r);
	assert_true(r.exact && r.u == 330);
	assert_true(fabs(r.p - 0.0771787501) < 1e-9);
	nb_stats_mann_whitney(x, 40, y, 40, &r);
	assert_false(r.exact);
	assert_true(r.u == 590);
	assert_true(fabs(r.p - 0.0433753414) < 0.002);
}

/* R: t.test(c(1,2,3), c(4,5,6)) -> t = -3.6742, df = 4, p = 0.02131; the
 * others by numerical integration of the t density in Python. */
static void welch(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	const double c[] = { 100, 102, 98, 101 }, d[] = { 90, 95, 93 };
	const double e[] = { 7, 7, 7 }, f[] = { 8, 8, 8 };

	(void)state;
	assert_true(fabs(nb_stats_welch_p(a, 3, b, 3) - 0.0213116411) < 1e-8);
	assert_true(fabs(nb_stats_welch_p(c, 4, d, 3) - 0.0161005283) < 1e-8);
	assert_true(nb_stats_welch_p(e, 3, f, 3) == 0);
	assert_true(nb_stats_welch_p(e, 3, e, 3) == 1);
	assert_true(fabs(nb_stats_betai(2, 0.5, 4.0 / (4 + 2.7764451052 * 2.7764451052)) /* t(.975, 4) */
			 - 0.05) < 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(summary), cmocka_unit_test(mann_whitney),
		cmocka_unit_test(mann_whitney_normal), cmocka_unit_test(welch) };

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
