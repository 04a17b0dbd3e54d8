#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "../../core/err.h"
#include "../../core/units.h"

static void sizes(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(nb_parse_size("512k", &v), 0);
	assert_int_equal(v, 524288);
	assert_int_equal(nb_parse_size("512KiB", &v), 0);
	assert_int_equal(v, 524288);
	assert_int_equal(nb_parse_size("3TB", &v), 0);
	assert_int_equal(v, 3000000000000ULL);
	assert_int_equal(nb_parse_size("100G", &v), 0);
	assert_int_equal(v, 100ULL << 30);
	assert_int_equal(nb_parse_size("1.5M", &v), 0);
	assert_int_equal(v, 1572864);
	assert_int_equal(nb_parse_size("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(nb_parse_size(" 8 MiB ", &v), 0);
	assert_int_equal(v, 8 << 20);
}

static void bad_sizes(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(nb_parse_size("12Q", &v), -EINVAL);
	assert_string_equal(nb_err_last(),
			    "invalid size '12Q' (use a number with K, M, G, T, KiB, GB...)");
	assert_int_equal(nb_parse_size("-1G", &v), -EINVAL);
	assert_int_equal(nb_parse_size("", &v), -EINVAL);
	assert_int_equal(nb_parse_size("G", &v), -EINVAL);
	assert_int_equal(nb_parse_size("3XB", &v), -EINVAL);
	assert_int_equal(nb_parse_size("99999999999P", &v), -EINVAL);
}

static void durations(void **state)
{
	uint64_t us;

	(void)state;
	assert_int_equal(nb_parse_duration_us("10s", &us), 0);
	assert_int_equal(us, 10000000);
	assert_int_equal(nb_parse_duration_us("500ms", &us), 0);
	assert_int_equal(us, 500000);
	assert_int_equal(nb_parse_duration_us("2m", &us), 0);
	assert_int_equal(us, 120000000);
	assert_int_equal(nb_parse_duration_us("3", &us), 0);
	assert_int_equal(us, 3000000);
	assert_int_equal(nb_parse_duration_us("0.2ms", &us), 0);
	assert_int_equal(us, 200);
	assert_int_equal(nb_parse_duration_us("10 parsecs", &us), -EINVAL);
	assert_string_equal(nb_err_last(),
			    "invalid duration '10 parsecs' (use e.g. 30s, 500ms, 2m, 1h)");
}

static void others(void **state)
{
	uint64_t v;
	double d;
	int b;

	(void)state;
	assert_int_equal(nb_parse_rate("800mbit", &v), 0);
	assert_int_equal(v, 800000000);
	assert_int_equal(nb_parse_rate("1gbit", &v), 0);
	assert_int_equal(v, 1000000000);
	assert_int_equal(nb_parse_rate("fast", &v), -EINVAL);
	assert_int_equal(nb_parse_bool("Yes", &b), 0);
	assert_int_equal(b, 1);
	assert_int_equal(nb_parse_bool("off", &b), 0);
	assert_int_equal(b, 0);
	assert_int_equal(nb_parse_bool("maybe", &b), -EINVAL);
	assert_int_equal(nb_parse_percent("5%", &d), 0);
	assert_true(d == 5.0);
	assert_int_equal(nb_parse_percent("5x", &d), -EINVAL);
	assert_int_equal(nb_parse_uint("7", 1, 10, &v), 0);
	assert_int_equal(nb_parse_uint("70", 1, 10, &v), -ERANGE);
	assert_string_equal(nb_err_last(), "value '70' out of range (1 to 10)");
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
		cmocka_unit_test(sizes), cmocka_unit_test(bad_sizes),
		cmocka_unit_test(durations), cmocka_unit_test(others),
		cmocka_unit_test(format),
	};

	return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
