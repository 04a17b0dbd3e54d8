/* SPDX-License-Identifier: GPL-2.0-or-later */
/* files.c - the test file helpers of files.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

void test_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fail_msg("cannot write '%s'", path);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

char *test_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	if (!f)
		fail_msg("cannot read '%s' (tests run from the repository root)", path);
	if (getdelim(&buf, &cap, '\0', f) <= 0)
		fail_msg("'%s' is empty", path);
	fclose(f);
	return buf;
}

void test_golden(const char *got, const char *path)
{
	char *want;

	if (getenv("NASBENCH_UPDATE_GOLDEN"))
		test_write_file(path, got);
	want = test_slurp(path);
	if (strcmp(want, got))
		fail_msg("output differs from %s:\n--- want\n%s--- got\n%s", path,
			 want, got);
	free(want);
}
