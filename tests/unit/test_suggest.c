/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_suggest.c - the nearest name to a mistyped one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../../core/suggest.h"

static void nearest(void **state)
{
	static const char *const cands[] = { "run", "compare", NULL, "report" };

	(void)state;
	assert_int_equal(nb_edit_distance("raidz9", "raidz1"), 1);
	assert_int_equal(nb_edit_distance("", "abc"), 3);
	assert_string_equal(nb_suggest("rnu", cands, 4), "run");
	assert_string_equal(nb_suggest("reprot", cands, 4), "report");
	assert_null(nb_suggest("zzzzzz", cands, 4));
}

static void choices(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(nb_suggest_choice("alway", "none|end|always", buf,
					      sizeof(buf)), "always");
	assert_string_equal(nb_suggest_choice("miror", "raidz1|mirror|raid10", buf,
					      sizeof(buf)), "mirror");
	/* the first of equally near ones */
	assert_string_equal(nb_suggest_choice("raidz9", "raidz1|raidz2", buf,
					      sizeof(buf)), "raidz1");
	assert_null(nb_suggest_choice("qqqqqqq", "none|end|always", buf, sizeof(buf)));
	assert_null(nb_suggest_choice("x", NULL, buf, sizeof(buf)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nearest), cmocka_unit_test(choices),
	};

	return cmocka_run_group_tests_name("suggest", tests, NULL, NULL);
}
