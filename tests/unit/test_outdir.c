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
#include <sys/stat.h>
#include <unistd.h>

#include "../../core/err.h"
#include "../../core/fsutil.h"
#include "../../core/outdir.h"
#include "scratch.h"

static void put(const char *dir, const char *name, const char *text)
{
	char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int exists(const char *dir, const char *name)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, F_OK);
}

/* entries of the scratch directory whose name starts with PREFIX */
static int siblings(const char *prefix)
{
	DIR *d = opendir(test_scratch);
	struct dirent *de;
	int n = 0;

	while ((de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

/* One report made into DIR: a file A (and B when given). */
static int make(const char *dir, const char *kind, const char *a, const char *b)
{
	char tmp[4200];
	int rc = nb_outdir_check(dir, kind);

	if (!rc)
		rc = nb_outdir_begin(dir, tmp, sizeof(tmp));
	if (rc)
		return rc;
	put(tmp, a, "a");
	if (b)
		put(tmp, b, "b");
	rc = nb_outdir_commit(tmp, dir, kind);
	if (rc)
		nb_outdir_abort(tmp, dir);
	return rc;
}

static void fresh_then_replaced(void **state)
{
	char dir[128], marker[300], *text;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/rep", test_scratch);
	assert_int_equal(make(dir, "report", "report.html", "chart.svg"), 0);
	snprintf(marker, sizeof(marker), "%s/.nasbench", dir);
	assert_int_equal(nb_read_file(marker, &text, NULL), 0);
	assert_non_null(strstr(text, "nasbench output directory: report\n"));
	assert_non_null(strstr(text, "\nreport.html\n"));
	assert_non_null(strstr(text, "\nchart.svg\n"));
	free(text);
	/* replaced whole: the old chart is gone, the new file is there */
	assert_int_equal(make(dir, "report", "report.html", NULL), 0);
	assert_true(exists(dir, "report.html"));
	assert_false(exists(dir, "chart.svg"));
	assert_int_equal(siblings("rep."), 0);     /* no tmp, no old left */
	/* a trailing slash names the same directory */
	snprintf(dir, sizeof(dir), "%s/rep/", test_scratch);
	assert_int_equal(make(dir, "report", "report.html", NULL), 0);
	assert_int_equal(siblings("rep."), 0);
}

/* A directory that is not a report (a report.html of someone else's is
 * not a marker) is refused and left as it was */
static void foreign_dir_refused(void **state)
{
	char dir[128], msg[512];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/docs", test_scratch);
	assert_int_equal(mkdir(dir, 0755), 0);
	put(dir, "report.html", "mine");
	assert_int_equal(make(dir, "report", "report.html", NULL), -EEXIST);
	snprintf(msg, sizeof(msg), "'%s' is not empty and is not a nasbench report "
		 "(it has no .nasbench marker): not writing into it; give a new or "
		 "empty directory", dir);
	assert_string_equal(nb_err_last(), msg);
	assert_true(exists(dir, "report.html"));
	assert_int_equal(siblings("docs."), 0);
	/* an empty directory is taken */
	snprintf(dir, sizeof(dir), "%s/empty", test_scratch);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(make(dir, "report", "report.html", NULL), 0);
}

/* A report someone added a file to: the file is theirs, the directory is
 * not replaced; a marker of another kind is not this kind's */
static void added_file_and_other_kind(void **state)
{
	char dir[128], msg[512];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/rep2", test_scratch);
	assert_int_equal(make(dir, "report", "report.html", NULL), 0);
	put(dir, "notes.txt", "mine");
	assert_int_equal(make(dir, "report", "report.html", NULL), -EEXIST);
	snprintf(msg, sizeof(msg), "'%s' holds 'notes.txt', which nasbench did not "
		 "write there: not replacing the directory; move it away or give "
		 "another directory", dir);
	assert_string_equal(nb_err_last(), msg);
	assert_true(exists(dir, "notes.txt"));
	assert_int_equal(make(dir, "history trend", "trend.html", NULL), -EEXIST);
	snprintf(msg, sizeof(msg), "'%s' holds a nasbench report, not a nasbench "
		 "history trend: not replacing it; give a new or empty directory",
		 dir);
	assert_string_equal(nb_err_last(), msg);
}

/* A symbolic link or a file as DIR: refused */
static void link_and_file_refused(void **state)
{
	char dir[128], link[160], msg[512];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/real", test_scratch);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(link, sizeof(link), "%s/link", test_scratch);
	assert_int_equal(symlink(dir, link), 0);
	assert_int_equal(nb_outdir_check(link, "report"), -EEXIST);
	snprintf(msg, sizeof(msg), "'%s' is a symbolic link: not writing through "
		 "it; give the directory itself", link);
	assert_string_equal(nb_err_last(), msg);
	put(test_scratch, "afile", "x");
	snprintf(link, sizeof(link), "%s/afile", test_scratch);
	assert_int_equal(nb_outdir_check(link, "report"), -EEXIST);
	snprintf(msg, sizeof(msg), "'%s' exists and is not a directory", link);
	assert_string_equal(nb_err_last(), msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fresh_then_replaced),
		cmocka_unit_test(foreign_dir_refused),
		cmocka_unit_test(added_file_and_other_kind),
		cmocka_unit_test(link_and_file_refused),
	};

	return cmocka_run_group_tests_name("outdir", tests, test_scratch_setup,
					   test_scratch_teardown);
}
