/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/atomic_file.h"
#include "../../core/err.h"

static void replaces_whole(void **state)
{
	char dir[] = "/tmp/nb-unit-atomic.XXXXXX", path[64], buf[64] = { 0 };
	FILE *f;
	DIR *d;
	struct dirent *de;
	int n = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(nb_atomic_check(path), 0);
	assert_int_equal(nb_atomic_write(path, "old", 3), 0);
	assert_int_equal(nb_atomic_write(path, "new!", 4), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, sizeof(buf), f), 4);
	fclose(f);
	assert_string_equal(buf, "new!");
	d = opendir(dir);          /* no temporary file left */
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	assert_int_equal(n, 1);
	unlink(path);
	rmdir(dir);
}

static void missing_dir(void **state)
{
	(void)state;
	assert_int_equal(nb_atomic_check("/nonexistent/dir/r.json"), -ENOENT);
	assert_string_equal(nb_err_last(),
			    "unable to write '/nonexistent/dir/r.json': No such file or directory");
	assert_int_equal(nb_atomic_write("/nonexistent/dir/r.json", "x", 1), -ENOENT);
	assert_string_equal(nb_err_last(),
			    "unable to write '/nonexistent/dir/r.json': No such file or directory");
}

/* '-' is standard output; a parent that is a file is "Not a directory" */
static void dash_and_not_a_dir(void **state)
{
	char dir[] = "/tmp/nb-unit-atomic.XXXXXX", path[96], buf[16] = { 0 };
	int pipefd[2], saved;

	(void)state;
	assert_int_equal(nb_atomic_check("-"), 0);
	assert_int_equal(pipe(pipefd), 0);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(pipefd[1], STDOUT_FILENO);
	assert_int_equal(nb_atomic_write("-", "data", 4), 0);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(pipefd[1]);
	assert_int_equal(read(pipefd[0], buf, sizeof(buf) - 1), 4);
	close(pipefd[0]);
	assert_string_equal(buf, "data");
	assert_int_equal(access("-", F_OK), -1);

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/file", dir);
	assert_int_equal(nb_atomic_write(path, "x", 1), 0);
	snprintf(path, sizeof(path), "%s/file/r.json", dir);
	assert_int_equal(nb_atomic_check(path), -ENOTDIR);
	assert_non_null(strstr(nb_err_last(), "/file/r.json': Not a directory"));
	snprintf(path, sizeof(path), "%s/file", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(replaces_whole), cmocka_unit_test(missing_dir),
		cmocka_unit_test(dash_and_not_a_dir),
	};

	return cmocka_run_group_tests_name("atomic_file", tests, NULL, NULL);
}
