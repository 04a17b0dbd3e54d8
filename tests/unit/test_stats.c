#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(summary) };

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
