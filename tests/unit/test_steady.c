/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "../../core/err.h"
#include "../../steady/judge.h"

static struct nb_steady_crit crit(const char *s)
{
	struct nb_steady_crit c;

	assert_int_equal(nb_steady_parse(s, &c), 0);
	return c;
}

/* Judge the first N of V with a window of 5; returns the round (1-based)
 * after which the criterion first held, 0 when it never did. */
static unsigned first_steady(const struct nb_steady_crit *c, const double *v,
			     unsigned n, struct nb_steady_verdict *o)
{
	for (unsigned k = 1; k <= n; k++) {
		nb_steady_judge(c, v, k, 5, o);
		if (o->steady)
			return k;
	}
	return 0;
}

static void parse(void **state)
{
	struct nb_steady_crit c;
	char buf[64];

	(void)state;
	c = crit("snia");
	assert_int_equal(c.kind, NB_SS_SNIA);
	assert_int_equal(c.metric, NB_SS_BW);
	assert_true(c.range_pct == 20 && c.slope_pct == 10);
	assert_string_equal(nb_steady_name(&c, buf, sizeof(buf)), "snia:bw");
	c = crit("snia:iops");
	assert_string_equal(nb_steady_metric_name(&c), "iops");
	c = crit("iops:20%");
	assert_int_equal(c.kind, NB_SS_DEV);
	assert_true(c.dev_pct == 20);
	assert_string_equal(nb_steady_name(&c, buf, sizeof(buf)), "iops:20%");
	c = crit("bw_slope:2.5");
	assert_int_equal(c.kind, NB_SS_SLOPE);
	assert_true(c.slope_pct == 2.5);
	assert_string_equal(nb_steady_name(&c, buf, sizeof(buf)), "bw_slope:2.5%");
	assert_string_equal(nb_steady_metric_name(&c), "bw_bytes");

	const char *badv[] = { "", "snias", "snia:lat", "bw", "bw:", "bw:0",
			       "bw:150%", "bw:-5", "lat:10%", "_slope:10%",
			       "iops_slope:x", "bw:10%%" };
	for (size_t i = 0; i < sizeof(badv) / sizeof(badv[0]); i++) {
		assert_int_equal(nb_steady_parse(badv[i], &c), -EINVAL);
		assert_non_null(strstr(nb_err_last(), "unknown steady-state criterion"));
		assert_non_null(strstr(nb_err_last(), "snia"));
	}
}

/* A constant series is steady after exactly the window's 5 rounds. */
static void constant(void **state)
{
	const double v[] = { 100, 100, 100, 100, 100, 100, 100 };
	struct nb_steady_crit c = crit("snia");
	struct nb_steady_verdict o;

	(void)state;
	nb_steady_judge(&c, v, 4, 5, &o);
	assert_false(o.steady);
	assert_non_null(strstr(o.why, "4 of the 5 rounds"));
	assert_int_equal(first_steady(&c, v, 7, &o), 5);
	assert_int_equal(o.first, 0);
	assert_int_equal(o.n, 5);
	assert_true(o.mean == 100 && o.range == 0 && o.slope == 0);
	c = crit("iops:1%");
	assert_int_equal(first_steady(&c, v, 7, &o), 5);
	c = crit("bw_slope:1%");
	assert_int_equal(first_steady(&c, v, 7, &o), 5);
}

/* 400 for 4 rounds, then 100: steady once the window holds only the 100s
 * (round 9: rounds 5..9), the mean 100, the first four the transient. */
static void step(void **state)
{
	const double v[] = { 400, 400, 400, 400, 101, 99, 100, 102, 98, 100, 100 };
	struct nb_steady_crit c = crit("snia");
	struct nb_steady_verdict o;

	(void)state;
	nb_steady_judge(&c, v, 5, 5, &o);
	assert_false(o.steady);
	assert_non_null(strstr(o.why, "range"));
	assert_int_equal(first_steady(&c, v, 11, &o), 9);
	assert_int_equal(o.first, 4);
	assert_true(fabs(o.mean - 100) < 1e-9);
	assert_true(fabs(o.range - 4) < 1e-9);
	assert_true(o.range_pct < 20 && o.excursion_pct < 10);
	c = crit("bw:5%");
	assert_int_equal(first_steady(&c, v, 11, &o), 9);
}

/* 100/300 alternating: never steady by range or deviation; the slope
 * alone is blind to it (a flat line through an oscillation), which is why
 * SNIA asks for both. */
static void oscillation(void **state)
{
	double v[25];
	struct nb_steady_crit c = crit("snia");
	struct nb_steady_verdict o;

	(void)state;
	for (int i = 0; i < 25; i++)
		v[i] = i % 2 ? 300 : 100;
	assert_int_equal(first_steady(&c, v, 25, &o), 0);
	assert_int_equal(o.first, 20);
	assert_true(o.range == 200);
	assert_non_null(strstr(o.why, "range is"));
	c = crit("bw:20%");
	assert_int_equal(first_steady(&c, v, 25, &o), 0);
	assert_non_null(strstr(o.why, "from the mean"));
	c = crit("bw_slope:10%");
	assert_int_equal(first_steady(&c, v, 25, &o), 5);
}

/* A slow drift: every round within range, but the line moves too far. */
static void drift(void **state)
{
	const double v[] = { 100, 103, 106, 109, 112 };
	struct nb_steady_crit c = crit("snia");
	struct nb_steady_verdict o;

	(void)state;
	nb_steady_judge(&c, v, 5, 5, &o);
	assert_true(fabs(o.slope - 3) < 1e-9);
	assert_true(fabs(o.excursion - 12) < 1e-9);
	assert_true(o.range_pct < 20);
	assert_false(o.steady);
	assert_non_null(strstr(o.why, "best-fit line moves 11.3%"));
	nb_steady_judge(&c, v, 0, 5, &o);
	assert_false(o.steady);
	assert_string_equal(o.why, "no round finished");
}

static void rounds(void **state)
{
	const double sec[] = { 9, 1, 2, 3, 4, 5, 6 };
	double r[4];

	(void)state;
	/* 7 seconds in rounds of 2: the first second dropped */
	assert_int_equal(nb_steady_rounds(sec, 7, 2, r, 4), 3);
	assert_true(r[0] == 1.5 && r[1] == 3.5 && r[2] == 5.5);
	assert_int_equal(nb_steady_rounds(sec, 7, 3, r, 1), 1);
	assert_true(r[0] == 5);
	assert_int_equal(nb_steady_rounds(sec, 1, 2, r, 4), 0);
	assert_int_equal(nb_steady_rounds(sec, 7, 0, r, 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
		cmocka_unit_test(constant),
		cmocka_unit_test(step),
		cmocka_unit_test(oscillation),
		cmocka_unit_test(drift),
		cmocka_unit_test(rounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
