/* SPDX-License-Identifier: GPL-2.0-or-later */
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

/* Spread and location: the MAD scaled to a normal sd, untouched by one
 * wild value where the sd is not. */
static void spread(void **state)
{
	const double v[] = { 1, 2, 3, 4, 100 }, w[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	(void)state;
	assert_true(nb_stats_mean(v, 5) == 22);
	assert_true(nb_stats_mean(v, 0) == 0);
	assert_true(nb_stats_ss(w, 8) == 32);       /* mean 5: 9+1+1+1+0+0+4+16 */
	assert_true(fabs(nb_stats_mad(v, 5) - 1.4826) < 1e-12);    /* devs 2 1 0 1 97 */
	assert_true(nb_stats_mad(v, 0) == 0);
	assert_true(v[4] == 100);                   /* input untouched */
}

/* R: qt(0.975, 4) = 2.776445, so its two-sided p is 0.05; t.test(c(1,2,3),
 * c(4,5,6), var.equal = TRUE): t = -3.6742, df = 4, p = 0.02131. */
static void student_t(void **state)
{
	(void)state;
	assert_true(fabs(nb_stats_t_p(2.7764451052, 4) - 0.05) < 1e-6);
	assert_true(fabs(nb_stats_t_p(-3.6742346142, 4) - 0.0213116411) < 1e-8);
	assert_true(nb_stats_t_p(INFINITY, 4) == 0);
	assert_true(nb_stats_t_p(0, 4) == 1);
	assert_true(fabs(nb_stats_t_crit(0.05, 4) - 2.7764451052) < 1e-6);
	assert_true(fabs(nb_stats_betai(2, 0.5, 4.0 / (4 + 2.7764451052 * 2.7764451052)) /* t(.975, 4) */
			 - 0.05) < 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(summary), cmocka_unit_test(spread),
		cmocka_unit_test(student_t) };

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
