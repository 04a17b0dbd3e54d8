/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "../../core/err.h"
#include "../../core/units.h"

/* the parsers into a uint64_t: a text, what they return and the value */
static const struct {
	int (*parse)(const char *, uint64_t *);
	const char *text;
	int rc;
	uint64_t want;
} u64s[] = {
	{ nb_parse_size, "512k", 0, 524288 },
	{ nb_parse_size, "512KiB", 0, 524288 },
	{ nb_parse_size, "3TB", 0, 3000000000000ULL },
	{ nb_parse_size, "100G", 0, 100ULL << 30 },
	{ nb_parse_size, "1.5M", 0, 1572864 },
	{ nb_parse_size, "4096", 0, 4096 },
	{ nb_parse_size, " 8 MiB ", 0, 8 << 20 },
	{ nb_parse_size, "-1G", -EINVAL, 0 },
	{ nb_parse_size, "", -EINVAL, 0 },
	{ nb_parse_size, "G", -EINVAL, 0 },
	{ nb_parse_size, "3XB", -EINVAL, 0 },
	{ nb_parse_size, "99999999999P", -EINVAL, 0 },
	{ nb_parse_duration_us, "10s", 0, 10000000 },
	{ nb_parse_duration_us, "500ms", 0, 500000 },
	{ nb_parse_duration_us, "2m", 0, 120000000 },
	{ nb_parse_duration_us, "3", 0, 3000000 },
	{ nb_parse_duration_us, "0.2ms", 0, 200 },
	{ nb_parse_rate, "800mbit", 0, 800000000 },
	{ nb_parse_rate, "1gbit", 0, 1000000000 },
	{ nb_parse_rate, "fast", -EINVAL, 0 },
};

static void parse_u64(void **state)
{
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++) {
		assert_int_equal(u64s[i].parse(u64s[i].text, &v), u64s[i].rc);
		if (!u64s[i].rc)
			assert_int_equal(v, u64s[i].want);
	}
}

static void messages(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(nb_parse_size("12Q", &v), -EINVAL);
	assert_string_equal(nb_err_last(),
			    "invalid size '12Q' (use a number with K, M, G, T, KiB, GB...)");
	assert_int_equal(nb_parse_duration_us("10 parsecs", &v), -EINVAL);
	assert_string_equal(nb_err_last(),
			    "invalid duration '10 parsecs' (use e.g. 30s, 500ms, 2m, 1h)");
	assert_int_equal(nb_parse_uint("70", 1, 10, &v), -ERANGE);
	assert_string_equal(nb_err_last(), "value '70' out of range (1 to 10)");
}

static void others(void **state)
{
	uint64_t v;
	double d;
	int b;

	(void)state;
	assert_int_equal(nb_parse_bool("Yes", &b), 0);
	assert_int_equal(b, 1);
	assert_int_equal(nb_parse_bool("off", &b), 0);
	assert_int_equal(b, 0);
	assert_int_equal(nb_parse_bool("maybe", &b), -EINVAL);
	assert_int_equal(nb_parse_percent("5%", &d), 0);
	assert_true(d == 5.0);
	assert_int_equal(nb_parse_percent("5x", &d), -EINVAL);
	assert_int_equal(nb_parse_uint("7", 1, 10, &v), 0);
	assert_int_equal(nb_parse_uint("7x", 1, 10, &v), -EINVAL);
}

static void format(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(nb_fmt_size(512, buf, sizeof(buf)), "512 B");
	assert_string_equal(nb_fmt_size(524288, buf, sizeof(buf)), "512 KiB");
	assert_string_equal(nb_fmt_size(1536ULL << 20, buf, sizeof(buf)), "1.50 GiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_u64), cmocka_unit_test(messages),
		cmocka_unit_test(others), cmocka_unit_test(format),
	};

	return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
