/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fsutil.c - nb_rmtree() and nb_read_file() on a scratch directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"
#include "../../core/fsutil.h"


static void rmtree(void **state)
{
	char root[128], path[256];
	struct stat st;

	(void)state;
	snprintf(root, sizeof(root), "%s/tree", test_scratch);
	assert_int_equal(mkdir(root, 0755), 0);
	snprintf(path, sizeof(path), "%s/a", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/a/f", root);
	fclose(fopen(path, "w"));
	/* a link to outside the tree is removed, not followed */
	snprintf(path, sizeof(path), "%s/a/up", root);
	assert_int_equal(symlink(test_scratch, path), 0);
	assert_int_equal(nb_rmtree(root), 0);
	assert_int_equal(lstat(root, &st), -1);
	assert_int_equal(stat(test_scratch, &st), 0);
	/* nothing there: nothing to do */
	assert_int_equal(nb_rmtree(root), 0);
	/* a plain file */
	snprintf(path, sizeof(path), "%s/plain", test_scratch);
	fclose(fopen(path, "w"));
	assert_int_equal(nb_rmtree(path), 0);
	assert_int_equal(access(path, F_OK), -1);
}

static void read_file(void **state)
{
	char path[128], *buf;
	size_t len = 99;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/text", test_scratch);
	f = fopen(path, "w");
	fputs("line one\nline two\n", f);
	fclose(f);
	assert_int_equal(nb_read_file(path, &buf, &len), 0);
	assert_string_equal(buf, "line one\nline two\n");
	assert_int_equal(len, 18);
	free(buf);
	/* empty: "" and 0 */
	fclose(fopen(path, "w"));
	assert_int_equal(nb_read_file(path, &buf, &len), 0);
	assert_string_equal(buf, "");
	assert_int_equal(len, 0);
	free(buf);
	assert_int_equal(nb_read_file(path, &buf, NULL), 0);
	free(buf);
	/* missing, a directory */
	assert_int_equal(nb_read_file("/nonexistent/x", &buf, &len), -ENOENT);
	assert_null(buf);
	assert_int_equal(nb_read_file(test_scratch, &buf, &len), -EISDIR);
	assert_null(buf);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rmtree),
		cmocka_unit_test(read_file),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
