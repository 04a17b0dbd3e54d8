/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The samples a figure needs (core/samples.h): the one rule every run,
 * step and iteration is held to. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../../core/samples.h"

static void needs(void **state)
{
	(void)state;
	/* a mean or a rate */
	assert_int_equal(nb_samples_need("iops"), 100);
	assert_int_equal(nb_samples_need("bw_bytes"), 100);
	assert_int_equal(nb_samples_need("lat_mean_us"), 100);
	assert_int_equal(nb_samples_need("resp_mean_us"), 100);
	assert_int_equal(nb_samples_need("achieved_iops"), 100);
	/* a percentile: ten samples above it */
	assert_int_equal(nb_samples_need("lat_p50_us"), 20);
	assert_int_equal(nb_samples_need("lat_p90_us"), 100);
	assert_int_equal(nb_samples_need("resp_p99_us"), 1000);
	assert_int_equal(nb_samples_need("lat_p99.9_us"), 10000);
	assert_int_equal(nb_samples_need("late_p99_us"), 1000);
	/* a maximum is one sample */
	assert_int_equal(nb_samples_need("lat_max_us"), 1);
	/* no per-I/O figure: the rule does not apply */
	assert_int_equal(nb_samples_need("seconds"), 0);
	assert_int_equal(nb_samples_need("late_ios"), 0);
	assert_int_equal(nb_samples_need("put_block_bw_bytes"), 0);
	assert_int_equal(nb_samples_need("sync_lat_p50_us"), 0);
	assert_int_equal(nb_samples_need("vms"), 0);
	assert_int_equal(nb_samples_need("lat_pxx_us"), 0);
	assert_int_equal(nb_samples_need("lat_p100_us"), 0);
}

static json_t *iteration(void)
{
	return json_pack("{s:{s:f, s:f, s:f, s:f, s:f, s:f}}", "metrics",
			 "iops", 1.0, "lat_p50_us", 1.0, "lat_p99_us", 1.0,
			 "lat_max_us", 1.0, "seconds", 1.0, "lat_p99.9_us", 1.0);
}

static size_t listed(const json_t *it)
{
	return json_array_size(json_object_get(it, "unmeasured"));
}

static void marks(void **state)
{
	json_t *it = iteration(), *e;
	char why[128];

	(void)state;
	/* none: every figure short, even the maximum, the iteration too */
	assert_int_equal(nb_samples_mark(it, 0, 0), 1);
	assert_int_equal(json_integer_value(json_object_get(it, "timed")), 0);
	assert_int_equal(listed(it), 5);
	assert_true(nb_samples_short(it, "lat_max_us"));
	assert_false(nb_samples_short(it, "seconds"));
	/* 99: a maximum, still no mean */
	assert_int_equal(nb_samples_mark(it, 99, 0), 1);
	assert_false(nb_samples_short(it, "lat_max_us"));
	assert_true(nb_samples_short(it, "iops"));
	/* 100: a mean, a median; not the tail */
	assert_int_equal(nb_samples_mark(it, 100, 0), 0);
	assert_false(nb_samples_short(it, "iops"));
	assert_false(nb_samples_short(it, "lat_p50_us"));
	assert_true(nb_samples_short(it, "lat_p99_us"));
	assert_true(nb_samples_short(it, "lat_p99.9_us"));
	/* an open loop whose box answered 5 of 10000 offered: the rate is
	 * measured (the box fell behind), no latency but the maximum */
	assert_int_equal(nb_samples_mark(it, 5, 10000), 0);
	assert_false(nb_samples_short(it, "iops"));
	assert_true(nb_samples_short(it, "lat_p50_us"));
	assert_false(nb_samples_short(it, "lat_max_us"));
	/* 10000: everything; the list goes */
	assert_int_equal(nb_samples_mark(it, 10000, 0), 0);
	assert_null(json_object_get(it, "unmeasured"));
	e = json_pack("{s:[o, o]}", "iterations", it, iteration());
	nb_samples_mark(json_array_get(json_object_get(e, "iterations"), 1), 500, 0);
	assert_true(nb_samples_entry_short(e, "lat_p99_us"));
	assert_false(nb_samples_entry_short(e, "iops"));
	nb_samples_why(why, sizeof(why), 2, 1);
	assert_string_equal(why, "iteration 2 timed 1 I/O, fewer than the 100 a "
			    "mean needs");
	json_decref(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(needs),
		cmocka_unit_test(marks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
