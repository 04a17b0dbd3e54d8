/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../core/atomic_file.h"
#include "../../core/err.h"
#include "scratch.h"

static int abc_ours(const char *head, size_t len)
{
	return nb_out_starts(head, len, "abc");
}

static const struct nb_out_kind abc = { "an abc file", abc_ours };

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static char *get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* entries of DIR other than . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void mkdir_fresh(char *dir, size_t len, const char *name)
{
	snprintf(dir, len, "%s/%s", test_scratch, name);
	assert_int_equal(mkdir(dir, 0755), 0);
}

static void replaces_whole(void **state)
{
	char dir[128], path[160];

	(void)state;
	mkdir_fresh(dir, sizeof(dir), "whole");
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(nb_atomic_check(path, &abc), 0);
	assert_int_equal(nb_atomic_write(path, "abc old", 7, &abc), 0);
	assert_int_equal(nb_atomic_write(path, "abc new!", 8, &abc), 0);
	assert_string_equal(get(path), "abc new!");
	assert_int_equal(entries(dir), 1);     /* no temporary file left */
}

static void missing_dir(void **state)
{
	(void)state;
	assert_int_equal(nb_atomic_check("/nonexistent/dir/r.json", NULL), -ENOENT);
	assert_string_equal(nb_err_last(),
			    "unable to write '/nonexistent/dir/r.json': No such file or directory");
	assert_int_equal(nb_atomic_write("/nonexistent/dir/r.json", "x", 1, NULL),
			 -ENOENT);
	assert_string_equal(nb_err_last(),
			    "unable to write '/nonexistent/dir/r.json': No such file or directory");
}

/* '-' is standard output; a parent that is a file is "Not a directory" */
static void dash_and_not_a_dir(void **state)
{
	char dir[128], path[192], buf[16] = { 0 };
	int pipefd[2], saved;

	(void)state;
	assert_int_equal(nb_atomic_check("-", NULL), 0);
	assert_int_equal(pipe(pipefd), 0);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(pipefd[1], STDOUT_FILENO);
	assert_int_equal(nb_atomic_write("-", "data", 4, NULL), 0);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(pipefd[1]);
	assert_int_equal(read(pipefd[0], buf, sizeof(buf) - 1), 4);
	close(pipefd[0]);
	assert_string_equal(buf, "data");
	assert_int_equal(access("-", F_OK), -1);

	mkdir_fresh(dir, sizeof(dir), "notdir");
	snprintf(path, sizeof(path), "%s/file", dir);
	assert_int_equal(nb_atomic_write(path, "x", 1, NULL), 0);
	snprintf(path, sizeof(path), "%s/file/r.json", dir);
	assert_int_equal(nb_atomic_check(path, NULL), -ENOTDIR);
	assert_non_null(strstr(nb_err_last(), "/file/r.json': Not a directory"));
}

/* A file nasbench did not write is never replaced: the check and the
 * write refuse it with -EEXIST, say what to do, and leave it as it was */
static void foreign_file_kept(void **state)
{
	char dir[128], path[160], msg[512];

	(void)state;
	mkdir_fresh(dir, sizeof(dir), "foreign");
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	put(path, "my notes\n");
	snprintf(msg, sizeof(msg), "'%s' exists and is not an abc file: not "
		 "replacing it; remove it or choose another name", path);
	assert_int_equal(nb_atomic_check(path, &abc), -EEXIST);
	assert_string_equal(nb_err_last(), msg);
	assert_int_equal(nb_atomic_write(path, "abc", 3, &abc), -EEXIST);
	assert_string_equal(nb_err_last(), msg);
	/* no kind: only an absent or empty file may be written */
	assert_int_equal(nb_atomic_write(path, "abc", 3, NULL), -EEXIST);
	assert_string_equal(get(path), "my notes\n");
	assert_int_equal(entries(dir), 1);
}

/* An empty file (mktemp's) is replaced, and keeps its mode */
static void empty_file_replaced_mode_kept(void **state)
{
	char dir[128], path[160];
	struct stat st;

	(void)state;
	mkdir_fresh(dir, sizeof(dir), "empty");
	snprintf(path, sizeof(path), "%s/out.json", dir);
	put(path, "");
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(nb_atomic_write(path, "xyz", 3, NULL), 0);
	assert_string_equal(get(path), "xyz");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
}

/* A symbolic link, a directory or a device at PATH: refused, untouched */
static void link_dir_device_refused(void **state)
{
	char dir[128], path[160], victim[160], msg[512];
	struct stat st;

	(void)state;
	mkdir_fresh(dir, sizeof(dir), "links");
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	put(victim, "abc precious\n");
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(symlink(victim, path), 0);
	snprintf(msg, sizeof(msg), "'%s' is a symbolic link: not replacing it; "
		 "remove it or choose another name", path);
	assert_int_equal(nb_atomic_check(path, &abc), -EEXIST);
	assert_string_equal(nb_err_last(), msg);
	assert_int_equal(nb_atomic_write(path, "abc new", 7, &abc), -EEXIST);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_string_equal(get(victim), "abc precious\n");

	assert_int_equal(nb_atomic_write(dir, "abc", 3, &abc), -EEXIST);
	assert_non_null(strstr(nb_err_last(), "' is a directory: not replacing it"));
	assert_int_equal(nb_atomic_check("/dev/null", &abc), -EEXIST);
	assert_string_equal(nb_err_last(), "'/dev/null' is not a regular file "
			    "(standard output is '-'): not replacing it; remove "
			    "it or choose another name");
	assert_int_equal(entries(dir), 2);
}

/* The temporary file is never opened through a link planted where the
 * old code put it (PATH.tmp.PID): the victim is untouched */
static void planted_tmp_link_not_followed(void **state)
{
	char dir[128], path[160], victim[160], plant[200];

	(void)state;
	mkdir_fresh(dir, sizeof(dir), "plant");
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	put(victim, "precious\n");
	snprintf(path, sizeof(path), "%s/r.json", dir);
	snprintf(plant, sizeof(plant), "%s.tmp.%ld", path, (long)getpid());
	assert_int_equal(symlink(victim, plant), 0);
	assert_int_equal(nb_atomic_write(path, "abc result", 10, &abc), 0);
	assert_string_equal(get(victim), "precious\n");
	assert_string_equal(get(path), "abc result");
	/* victim, r.json and the planted link, nothing else */
	assert_int_equal(entries(dir), 3);
}

/* nb_atomic_rescue: a new file in $TMPDIR, exclusively, said where */
static void rescue_in_tmpdir(void **state)
{
	char dir[128], where[4200], want[200];
	const char *old = getenv("TMPDIR");
	char *saved = old ? strdup(old) : NULL;

	(void)state;
	mkdir_fresh(dir, sizeof(dir), "rescue");
	setenv("TMPDIR", dir, 1);
	assert_int_equal(nb_atomic_rescue("nasbench-run1", ".json", "{}\n", 3,
					  where, sizeof(where)), 0);
	snprintf(want, sizeof(want), "%s/nasbench-run1-", dir);
	assert_memory_equal(where, want, strlen(want));
	assert_string_equal(where + strlen(where) - 5, ".json");
	assert_int_equal(strlen(where), strlen(want) + 6 + 5);
	assert_string_equal(get(where), "{}\n");
	assert_int_equal(nb_atomic_rescue("nasbench-run1", ".json", "{}\n", 3,
					  where, sizeof(where)), 0);
	assert_int_equal(entries(dir), 2);     /* a second name, not the first */
	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
}

static void out_helpers(void **state)
{
	(void)state;
	assert_true(nb_out_starts(" \n{\"a\"", 6, "{"));
	assert_false(nb_out_starts("ab", 2, "abc"));
	assert_true(nb_out_has("xx\"tool\": \"nasbench\"", 20, "\"tool\": \"nasbench\""));
	assert_false(nb_out_has("tool", 4, "tools"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(replaces_whole), cmocka_unit_test(missing_dir),
		cmocka_unit_test(dash_and_not_a_dir),
		cmocka_unit_test(foreign_file_kept),
		cmocka_unit_test(empty_file_replaced_mode_kept),
		cmocka_unit_test(link_dir_device_refused),
		cmocka_unit_test(planted_tmp_link_not_followed),
		cmocka_unit_test(rescue_in_tmpdir),
		cmocka_unit_test(out_helpers),
	};

	return cmocka_run_group_tests_name("atomic_file", tests,
					   test_scratch_setup, test_scratch_teardown);
}
