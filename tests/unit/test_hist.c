/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>

#include "../../core/datagen.h"
#include "../../core/hist.h"

static struct nb_hist h;

/* every bucket is at most 1/64 of its value wide */
static void buckets(void **state)
{
	uint64_t lo, hi;

	(void)state;
	for (uint64_t v = 1; v < (1ULL << 62); v = v * 3 + 1) {
		unsigned i = nb_hist_index(v);

		assert_true(i < NB_HIST_BUCKETS);
		nb_hist_range(i, &lo, &hi);
		assert_true(lo <= v && v < hi);
		if (v >= 128)
			assert_true((double)(hi - lo) <= (double)lo / 64.0 + 1);
	}
	assert_true(nb_hist_index(UINT64_MAX) < NB_HIST_BUCKETS);
}

/* 1..100000 uniform: percentile p is p*1000 within 1.6% */
static void uniform(void **state)
{
	(void)state;
	nb_hist_init(&h);
	for (uint64_t v = 1; v <= 100000; v++)
		nb_hist_add(&h, v);
	assert_int_equal(h.count, 100000);
	assert_int_equal(h.min, 1);
	assert_int_equal(h.max, 100000);
	assert_true(fabs(nb_hist_mean(&h) - 50000.5) < 1e-6);
	const double ps[] = { 50, 90, 99, 99.9 };
	for (int i = 0; i < 4; i++) {
		double want = ps[i] * 1000, got = (double)nb_hist_percentile(&h, ps[i]);

		assert_true(fabs(got - want) / want < 0.016);
	}
	assert_int_equal(nb_hist_percentile(&h, 100), 100000);
	assert_int_equal(nb_hist_percentile(&h, 0), 1);
}

/* exponential latencies (mean 1 ms): p99 = ln(100) ms */
static void exponential(void **state)
{
	struct nb_rng r;

	(void)state;
	nb_rng_seed(&r, 42);
	nb_hist_init(&h);
	for (int i = 0; i < 1000000; i++) {
		double u = ((double)(nb_rng_next(&r) >> 11) + 0.5) / 9007199254740992.0;

		nb_hist_add(&h, (uint64_t)(-log(u) * 1e6));
	}
	double p50 = (double)nb_hist_percentile(&h, 50);
	double p99 = (double)nb_hist_percentile(&h, 99);

	assert_true(fabs(p50 - log(2) * 1e6) / (log(2) * 1e6) < 0.03);
	assert_true(fabs(p99 - log(100) * 1e6) / (log(100) * 1e6) < 0.03);
}

static void two_and_empty(void **state)
{
	static struct nb_hist a;

	(void)state;
	nb_hist_init(&a);
	assert_int_equal(nb_hist_percentile(&a, 99), 0);
	nb_hist_add(&a, 10);
	nb_hist_add(&a, 1000);
	assert_int_equal(a.count, 2);
	assert_int_equal(a.min, 10);
	assert_int_equal(a.max, 1000);
	assert_int_equal(nb_hist_percentile(&a, 50), 10);
	assert_true(labs((long)nb_hist_percentile(&a, 99) - 1000) <= 16);
}

/* p99.9 of 999 x 100 us + 1 x 50 ms is the 999th value, 100 us: the rank is
 * computed in integers (ceil(0.999 * 1000) is 1000 in floating point) */
static void rank_in_integers(void **state)
{
	(void)state;
	nb_hist_init(&h);
	for (int i = 0; i < 999; i++)
		nb_hist_add(&h, 100000);
	nb_hist_add(&h, 50000000);
	assert_true(labs((long)nb_hist_percentile(&h, 99.9) - 100000) <= 1600);
	assert_true(labs((long)nb_hist_percentile(&h, 99.95) - 50000000) <= 800000);
	assert_true(labs((long)nb_hist_percentile(&h, 99) - 100000) <= 1600);
	/* 10 values: p90 is the 9th, p91 the 10th */
	nb_hist_init(&h);
	for (uint64_t v = 1; v <= 10; v++)
		nb_hist_add(&h, v);
	assert_int_equal(nb_hist_percentile(&h, 90), 9);
	assert_int_equal(nb_hist_percentile(&h, 91), 10);
	assert_int_equal(nb_hist_percentile(&h, 10), 1);
	assert_int_equal(nb_hist_percentile(&h, 10.0001), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets), cmocka_unit_test(uniform),
		cmocka_unit_test(exponential), cmocka_unit_test(two_and_empty),
		cmocka_unit_test(rank_in_integers),
	};

	return cmocka_run_group_tests_name("hist", tests, NULL, NULL);
}
