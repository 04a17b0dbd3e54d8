/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where random I/Os fall: the distributions of engine/access.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/err.h"
#include "../../engine/access.h"

static void parse(void **state)
{
	struct nb_access a;
	char b[128];

	(void)state;
	assert_int_equal(nb_access_parse("uniform", &a), 0);
	assert_int_equal(a.dist, NB_DIST_UNIFORM);
	assert_null(nb_access_fio(&a, b, sizeof(b)));
	assert_int_equal(nb_access_parse("random", &a), 0);
	assert_int_equal(nb_access_parse("zipf:1.2", &a), 0);
	assert_int_equal(a.dist, NB_DIST_ZIPF);
	assert_true(a.param == 1.2);
	assert_string_equal(nb_access_str(&a, b, sizeof(b)), "zipf:1.2");
	assert_int_equal(nb_access_parse("pareto:0.2", &a), 0);
	assert_string_equal(nb_access_fio(&a, b, sizeof(b)), "pareto:0.2");
	/* one zone: the rest of the region takes the rest */
	assert_int_equal(nb_access_parse("zoned:80/20", &a), 0);
	assert_string_equal(nb_access_str(&a, b, sizeof(b)), "zoned:80/20:20/80");
	assert_int_equal(nb_access_parse("zoned:60/10:30/20:8/30:2/40", &a), 0);
	assert_int_equal(a.nzones, 4);
	assert_string_equal(nb_access_str(&a, b, sizeof(b)),
			    "zoned:60/10:30/20:8/30:2/40");

	assert_int_equal(nb_access_parse("zipf:0", &a), -EINVAL);
	assert_string_equal(nb_err_last(), "random distribution 'zipf:0': zipf's "
			    "theta above 0, at most 10");
	assert_int_equal(nb_access_parse("pareto:1", &a), -EINVAL);
	assert_string_equal(nb_err_last(), "random distribution 'pareto:1': pareto's "
			    "H between 0 and 1 (0.2: 80% of the I/Os on 20% of the data)");
	assert_int_equal(nb_access_parse("zoned:60/10:30/20", &a), -EINVAL);
	assert_string_equal(nb_err_last(), "random distribution 'zoned:60/10:30/20': "
			    "the zones' I/Os and sizes must each add up to 100%");
	assert_int_equal(nb_access_parse("zoned:80", &a), -EINVAL);
	assert_string_equal(nb_err_last(), "random distribution 'zoned:80': each "
			    "zone is IO/SIZE, percents (zoned:80/20)");
	assert_int_equal(nb_access_parse("zoned:80/0", &a), -EINVAL);
	assert_int_equal(nb_access_parse("zipf:", &a), -EINVAL);
	assert_int_equal(nb_access_parse("zipf:1.2x", &a), -EINVAL);
	assert_int_equal(nb_access_parse("normal:5", &a), -EINVAL);
	assert_string_equal(nb_err_last(), "random distribution 'normal:5': uniform, "
			    "zipf:THETA, pareto:H or zoned:IO/SIZE[:IO/SIZE...]");
	assert_int_equal(nb_access_parse("zoned:", &a), -EINVAL);
}

/* the expected shares: pareto:0.2 and zoned:80/20 are both 80% on the
 * first 20%; zipf's from its sum */
static void shares(void **state)
{
	struct nb_access a;
	double z = 0, all = 0;

	(void)state;
	nb_access_parse("pareto:0.2", &a);
	assert_true(fabs(nb_access_share(&a, 1000001, 0.2) - 0.8) < 0.001);
	nb_access_parse("zoned:80/20", &a);
	assert_true(fabs(nb_access_share(&a, 1000, 0.2) - 0.8) < 1e-9);
	assert_true(fabs(nb_access_share(&a, 1000, 0.6) - 0.9) < 1e-9);
	assert_true(fabs(nb_access_hot(&a, 100000, 0.8) - 0.2) < 1e-4);
	nb_access_parse("zipf:1.2", &a);
	for (int k = 1; k <= 300000; k++) {
		all += pow(k, -1.2);
		if (k <= 60000)
			z += pow(k, -1.2);
	}
	assert_true(fabs(nb_access_share(&a, 300000, 0.2) - z / all) < 1e-6);
	nb_access_parse("uniform", &a);
	assert_true(fabs(nb_access_share(&a, 1000, 0.25) - 0.25) < 1e-9);
}

/* drawn: the share on the first 20% (and 1%) within half a point of the
 * law, every block inside the region */
static void draws(void **state)
{
	static const char *laws[] = { "zipf:1.2", "zipf:0.8", "zipf:1",
				      "pareto:0.2", "pareto:0.4", "zoned:80/20",
				      "zoned:60/10:30/20:8/30:2/40", "uniform" };
	const uint64_t n = 50000, draws_n = 1000000;

	(void)state;
	for (size_t l = 0; l < sizeof(laws) / sizeof(laws[0]); l++) {
		struct nb_access a;
		struct nb_access_gen g;
		struct nb_rng r;
		uint64_t hot = 0, top = 0;

		assert_int_equal(nb_access_parse(laws[l], &a), 0);
		nb_access_init(&g, &a, n);
		nb_rng_seed(&r, 42 + l);
		for (uint64_t i = 0; i < draws_n; i++) {
			uint64_t b = nb_access_next(&g, &r);

			assert_true(b < n);
			hot += b < n / 5;
			top += b < n / 100;
		}
		print_message("%-28s first 20%%: %.2f%% (law %.2f%%), first 1%%: "
			      "%.2f%% (law %.2f%%)\n", laws[l],
			      100.0 * (double)hot / draws_n, 100 * nb_access_share(&a, n, 0.2),
			      100.0 * (double)top / draws_n, 100 * nb_access_share(&a, n, 0.01));
		assert_true(fabs((double)hot / draws_n - nb_access_share(&a, n, 0.2)) < 0.005);
		assert_true(fabs((double)top / draws_n - nb_access_share(&a, n, 0.01)) < 0.005);
	}
}

/* one block, two blocks: nothing outside the region */
static void tiny(void **state)
{
	static const char *laws[] = { "zipf:1.2", "pareto:0.2", "zoned:80/20" };
	struct nb_access a;
	struct nb_access_gen g;
	struct nb_rng r;

	(void)state;
	nb_rng_seed(&r, 1);
	for (size_t l = 0; l < 3; l++)
		for (uint64_t n = 1; n <= 3; n++) {
			nb_access_parse(laws[l], &a);
			nb_access_init(&g, &a, n);
			for (int i = 0; i < 1000; i++)
				assert_true(nb_access_next(&g, &r) < n);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse), cmocka_unit_test(shares),
		cmocka_unit_test(draws), cmocka_unit_test(tiny),
	};

	return cmocka_run_group_tests_name("access", tests, NULL, NULL);
}
