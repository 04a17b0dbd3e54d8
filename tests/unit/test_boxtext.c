/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_boxtext.c - a box's text made safe to carry (core/boxtext.h): what
 * is not UTF-8 and the control characters as \xNN, the rest kept, never
 * a character or an escape cut in two, a second pass changing nothing,
 * and whatever comes out taken by jansson (which refuses what is not
 * UTF-8: the use after free of issue 45 began there).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/boxtext.h"

static void check(const char *in, const char *want, int bad)
{
	char out[256];

	assert_int_equal(nb_boxtext(out, sizeof(out), in), bad);
	assert_string_equal(out, want);
	assert_int_equal(nb_boxtext_clean(in), bad == 0);
}

static void kept_and_escaped(void **state)
{
	(void)state;
	check("sda", "sda", 0);
	check("", "", 0);
	check("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe", 0);
	/* Latin-1, as a box in another locale names a disk */
	check("caf\xe9", "caf\\xe9", 1);
	/* a terminal's escape, a newline, DEL */
	check("a\x1b[31mb\nc\x7f", "a\\x1b[31mb\\x0ac\\x7f", 3);
	/* shell metacharacters are text, not escaped: they are a sink's */
	check("$(touch x);`y`", "$(touch x);`y`", 0);
	/* a backslash is kept: a second pass changes nothing */
	check("a\\x41", "a\\x41", 0);
	/* overlong '/', a surrogate, past U+10FFFF, a lone continuation, a
	 * sequence cut short */
	check("\xc0\xaf", "\\xc0\\xaf", 2);
	check("\xed\xa0\x80", "\\xed\\xa0\\x80", 3);
	check("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80", 4);
	check("\x80x", "\\x80x", 1);
	check("\xe2\x82", "\\xe2\\x82", 2);
}

/* Cut to the buffer before a character or an escape that does not fit. */
static void cut_whole(void **state)
{
	char out[8];

	(void)state;
	assert_int_equal(nb_boxtext(out, sizeof(out), "abc\xe9\xe9xyz"), 2);
	assert_string_equal(out, "abc\\xe9");
	assert_int_equal(nb_boxtext(out, sizeof(out), "abcdef\xc3\xa9"), 0);
	assert_string_equal(out, "abcdef");
	assert_int_equal(nb_boxtext(out, 1, "abc"), 0);
	assert_string_equal(out, "");
	/* N bytes, NUL among them */
	assert_int_equal(nb_boxtextn(out, sizeof(out), "a\0b", 3), 1);
	assert_string_equal(out, "a\\x00b");
}

/* Any bytes at all: what comes out is taken by jansson as a string and a
 * key, and escaping it again changes nothing (a fixed seed: the same
 * inputs every run). */
static void anything_goes_into_json(void **state)
{
	unsigned seed = 45;
	char in[64], out[300], again[300];

	(void)state;
	for (int i = 0; i < 20000; i++) {
		size_t n = (size_t)(rand_r(&seed) % 63);
		json_t *o, *s;

		for (size_t k = 0; k < n; k++)
			in[k] = (char)(rand_r(&seed) % 255 + 1);
		in[n] = 0;
		nb_boxtext(out, sizeof(out), in);
		assert_true(nb_boxtext_clean(out));
		assert_int_equal(nb_boxtext(again, sizeof(again), out), 0);
		assert_string_equal(again, out);
		s = json_string(out);
		assert_non_null(s);
		o = json_object();
		assert_int_equal(json_object_set_new(o, out, s), 0);
		json_decref(o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kept_and_escaped),
		cmocka_unit_test(cut_whole),
		cmocka_unit_test(anything_goes_into_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
