/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "../../decision/bands.h"
#include "../../core/err.h"
#include "../../core/metrics.h"

#define FORMS "(use VIABLE,NOT-VIABLE, each a loss 'N%' (0 < N < 100) or a " \
	"time factor 'Nx' (N > 1), the first below the second, e.g. '10%,2x')"

static void parse_forms(void **state)
{
	struct nb_bands b;

	(void)state;
	assert_int_equal(nb_bands_parse("--bands", "10%,2x", &b), 0);
	assert_true(fabs(b.viable - 1 / 0.9) < 1e-12 && b.not_viable == 2);
	assert_string_equal(b.text, "10%,2x");
	assert_int_equal(nb_bands_parse("--bands", " 1.2x , 50% ", &b), 0);
	assert_true(b.viable == 1.2 && fabs(b.not_viable - 2) < 1e-12);
	assert_string_equal(b.text, "1.2x,50%");
	assert_int_equal(nb_bands_parse("--bands", "5%,10%", &b), 0);
	assert_int_equal(nb_bands_parse("--bands", "1.5X,3X", &b), 0);
}

static void expect_bad(const char *s, const char *msg)
{
	struct nb_bands b;

	nb_err_clear();
	assert_int_equal(nb_bands_parse("--bands", s, &b), -EINVAL);
	assert_string_equal(nb_err_last(), msg);
}

static void parse_bad(void **state)
{
	(void)state;
	expect_bad("2x,10%", "--bands: invalid bands '2x,10%': the first limit "
		   "(2x the time) must be below the second (1.11x) " FORMS);
	expect_bad("0", "--bands: invalid bands '0': two limits are needed, "
		   "separated by a comma " FORMS);
	expect_bad("0,2x", "--bands: invalid bands '0,2x': '0' has no unit "
		   "(% or x) " FORMS);
	expect_bad("10q,2x", "--bands: invalid bands '10q,2x': unknown unit "
		   "'q' in '10q' " FORMS);
	expect_bad("10%,2s", "--bands: invalid bands '10%,2s': unknown unit "
		   "'s' in '2s' " FORMS);
	expect_bad("0%,2x", "--bands: invalid bands '0%,2x': '0%' is not a loss "
		   "between 0% and 100% " FORMS);
	expect_bad("10%,100%", "--bands: invalid bands '10%,100%': '100%' is not "
		   "a loss between 0% and 100% " FORMS);
	expect_bad("10%,1x", "--bands: invalid bands '10%,1x': '1x' is not a "
		   "time factor above 1x " FORMS);
	expect_bad("10%,2x,3x", "--bands: invalid bands '10%,2x,3x': two limits "
		   "are needed, separated by a comma " FORMS);
	expect_bad("x,2x", "--bands: invalid bands 'x,2x': 'x' is not a number "
		   "with a unit " FORMS);
	expect_bad("5x,5x", "--bands: invalid bands '5x,5x': the first limit "
		   "(5x the time) must be below the second (5x) " FORMS);
	expect_bad(",", "--bands: invalid bands ',': a limit is empty or too "
		   "long " FORMS);
}

/* The second user story: put_block 343719 -> 217553 K/s is 1.58x the
 * time, between 10% and 2x: decide. */
static void seed_verdicts(void **state)
{
	struct nb_bands b;
	char buf[32];
	double t;

	(void)state;
	nb_bands_parse("--bands", "10%,2x", &b);
	t = nb_bands_time(343719, 217553, NB_HIGHER);
	assert_true(fabs(t - 1.5799) < 1e-3);
	assert_int_equal(nb_bands_judge(&b, t), NB_BAND_DECIDE);
	assert_string_equal(nb_bands_fmt_time(t, buf, sizeof(buf)), "1.58x the time");
	/* reads 10% slower: exactly the band, viable; 15%: decide */
	assert_int_equal(nb_bands_judge(&b, nb_bands_time(100, 90, NB_HIGHER)),
			 NB_BAND_VIABLE);
	assert_int_equal(nb_bands_judge(&b, nb_bands_time(100, 85, NB_HIGHER)),
			 NB_BAND_DECIDE);
	/* half the MB/s, twice the latency: not viable (the limit counts) */
	assert_int_equal(nb_bands_judge(&b, nb_bands_time(100, 50, NB_HIGHER)),
			 NB_BAND_NOT_VIABLE);
	assert_int_equal(nb_bands_judge(&b, nb_bands_time(100, 200, NB_LOWER)),
			 NB_BAND_NOT_VIABLE);
	assert_int_equal(nb_bands_judge(&b, nb_bands_time(100, 105, NB_LOWER)),
			 NB_BAND_VIABLE);
	/* a gain is viable */
	assert_int_equal(nb_bands_judge(&b, nb_bands_time(100, 300, NB_HIGHER)),
			 NB_BAND_VIABLE);
	/* no figure, no direction: no verdict */
	assert_true(nb_bands_time(0, 5, NB_HIGHER) == 0);
	assert_true(nb_bands_time(5, 5, NB_NEITHER) == 0);
	assert_int_equal(nb_bands_judge(&b, 0), NB_BAND_NONE);
	assert_int_equal(nb_bands_judge(NULL, 1.5), NB_BAND_NONE);
	assert_string_equal(nb_bands_fmt_time(0, buf, sizeof(buf)), "");
}

static void overall_and_exit(void **state)
{
	(void)state;
	assert_int_equal(nb_bands_worst(NB_BAND_VIABLE, NB_BAND_DECIDE), NB_BAND_DECIDE);
	assert_int_equal(nb_bands_worst(NB_BAND_NOT_VIABLE, NB_BAND_DECIDE),
			 NB_BAND_NOT_VIABLE);
	assert_int_equal(nb_bands_worst(NB_BAND_NONE, NB_BAND_VIABLE), NB_BAND_VIABLE);
	assert_int_equal(nb_bands_exit(NB_BAND_VIABLE), 0);
	assert_int_equal(nb_bands_exit(NB_BAND_NONE), 0);
	assert_int_equal(nb_bands_exit(NB_BAND_NOT_VIABLE), 1);
	assert_int_equal(nb_bands_exit(NB_BAND_DECIDE), 4);
	assert_string_equal(nb_bands_word(NB_BAND_VIABLE), "viable");
	assert_string_equal(nb_bands_word(NB_BAND_DECIDE), "decide");
	assert_string_equal(nb_bands_word(NB_BAND_NOT_VIABLE), "not viable");
	assert_string_equal(nb_bands_word(NB_BAND_NONE), "");
}

/* workload > metric > default; a user metric name is resolved */
static void rules(void **state)
{
	struct nb_bands_set set;
	const struct nb_bands *b;
	int named;

	(void)state;
	nb_bands_set_init(&set);
	assert_null(nb_bands_for(&set, "bonnie", "put_block_bw_bytes", NULL));
	set.on = 1;
	nb_bands_parse("--bands", "10%,2x", &set.def);
	assert_int_equal(nb_bands_set_rule(&set, "", "p99_us", "g.ini:3: p99_us",
					   "20%,3x"), 0);
	assert_int_equal(nb_bands_set_rule(&set, "bonnie", "", "g.ini:6: bands",
					   "5%,1.5x"), 0);
	b = nb_bands_for(&set, "rand4k-read", "lat_p99_us", &named);
	assert_string_equal(b->text, "20%,3x");
	assert_true(named);
	b = nb_bands_for(&set, "rand4k-read", "iops", &named);
	assert_string_equal(b->text, "10%,2x");
	assert_false(named);
	b = nb_bands_for(&set, "bonnie", "lat_p99_us", &named);
	assert_string_equal(b->text, "5%,1.5x");
	assert_true(set.rules[0].used && set.rules[1].used);
	nb_err_clear();
	assert_int_equal(nb_bands_set_rule(&set, "", "iops", "g.ini:9: iops", "2x"),
			 -EINVAL);
	assert_true(strstr(nb_err_last(), "g.ini:9: iops: invalid bands '2x'") != NULL);
	assert_int_equal(set.nrules, 2);
}

static void judged(void **state)
{
	(void)state;
	assert_true(nb_bands_judged("put_block_bw_bytes", "put_block_bw_bytes"));
	assert_true(nb_bands_judged("get_block_bw_bytes", "put_block_bw_bytes"));
	assert_true(nb_bands_judged("verify_bw_bytes", "bw_bytes"));
	assert_true(nb_bands_judged("iops", "iops"));
	assert_false(nb_bands_judged("datagen_bw_bytes", "bw_bytes"));
	assert_false(nb_bands_judged("put_block_kps", "put_block_bw_bytes"));
	assert_false(nb_bands_judged("lat_p99_us", "iops"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_forms),
		cmocka_unit_test(parse_bad),
		cmocka_unit_test(seed_verdicts),
		cmocka_unit_test(overall_and_exit),
		cmocka_unit_test(rules),
		cmocka_unit_test(judged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
