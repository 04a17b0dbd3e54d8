/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_spawn.c - the one process spawner (core/spawn.c), on /bin/sh and
 * friends: exit status and signals decoded, output captured (buffers,
 * files, merged), standard input fed (also to a child that never reads
 * it), stop and time limit ending the whole process group, a missing
 * program as a clear error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"
#include "../../core/err.h"
#include "../../core/fsutil.h"
#include "../../core/spawn.h"


static int sh(struct nb_spawn *sp, const char *script)
{
	static char *argv[4];

	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = (char *)script;
	argv[3] = NULL;
	sp->argv = argv;
	return nb_spawn_run(sp);
}

static void exit_status_and_output(void **state)
{
	struct nb_spawn sp = { 0 };

	(void)state;
	assert_int_equal(sh(&sp, "echo out; echo err >&2; exit 3"), 0);
	assert_int_equal(sp.status, 3);
	assert_int_equal(sp.signal, 0);
	assert_string_equal(sp.out, "out\n");
	assert_int_equal(sp.out_len, 4);
	assert_string_equal(sp.err, "err\n");
	assert_false(sp.timed_out);
	assert_false(sp.stopped);
	nb_spawn_free(&sp);

	memset(&sp, 0, sizeof(sp));
	assert_int_equal(sh(&sp, "kill -SEGV $$"), 0);
	assert_int_equal(sp.signal, SIGSEGV);
	assert_int_equal(sp.status, 128 + SIGSEGV);
	nb_spawn_free(&sp);

	/* much more output than a pipe holds, all of it kept */
	memset(&sp, 0, sizeof(sp));
	assert_int_equal(sh(&sp, "head -c 1000000 /dev/zero | tr '\\0' x"), 0);
	assert_int_equal(sp.status, 0);
	assert_int_equal(sp.out_len, 1000000);
	assert_int_equal(strlen(sp.out), 1000000);
	nb_spawn_free(&sp);
}

static void err_tail_and_merge(void **state)
{
	struct nb_spawn sp = { .err_keep = 8 };

	(void)state;
	/* the last ERR_KEEP bytes of standard error */
	assert_int_equal(sh(&sp, "printf 0123456789abcdef >&2"), 0);
	assert_string_equal(sp.err, "89abcdef");
	nb_spawn_note(&sp, "XY");
	assert_string_equal(sp.err, "abcdefXY");
	nb_spawn_free(&sp);

	memset(&sp, 0, sizeof(sp));
	sp.err_to_out = 1;
	assert_int_equal(sh(&sp, "echo a; echo b >&2; echo c"), 0);
	assert_string_equal(sp.out, "a\nb\nc\n");
	assert_string_equal(sp.err, "");
	nb_spawn_free(&sp);
}

static void files_dir_env(void **state)
{
	char out[128], err[128], buf[64] = "";
	char *envp[] = { "NASBENCH_SPAWN_X=42", NULL };
	struct nb_spawn sp = { .out_path = out, .err_path = err, .dir = test_scratch,
			       .envp = envp };
	FILE *f;

	(void)state;
	snprintf(out, sizeof(out), "%s/out.txt", test_scratch);
	snprintf(err, sizeof(err), "%s/err.txt", test_scratch);
	assert_int_equal(sh(&sp, "pwd; echo $NASBENCH_SPAWN_X >&2"), 0);
	assert_int_equal(sp.status, 0);
	assert_string_equal(sp.out, "");
	f = fopen(out, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_int_equal(strncmp(buf, test_scratch, strlen(test_scratch)), 0);
	f = fopen(err, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "42\n");
	nb_spawn_free(&sp);
}

static void standard_input(void **state)
{
	static char big[1 << 20];
	struct nb_spawn sp = { .in = "line one\nline two\n" };

	(void)state;
	assert_int_equal(sh(&sp, "wc -l; cat >/dev/null"), 0);
	assert_int_equal(atoi(sp.out), 2);
	nb_spawn_free(&sp);

	/* 1 MiB through the pipe */
	memset(big, 'x', sizeof(big));
	memset(&sp, 0, sizeof(sp));
	sp.in = big;
	sp.in_len = sizeof(big);
	assert_int_equal(sh(&sp, "wc -c"), 0);
	assert_int_equal(atol(sp.out), (long)sizeof(big));
	nb_spawn_free(&sp);

	/* a child that exits without reading: no SIGPIPE for us */
	memset(&sp, 0, sizeof(sp));
	sp.in = big;
	sp.in_len = sizeof(big);
	assert_int_equal(sh(&sp, "exit 0"), 0);
	assert_int_equal(sp.status, 0);
	nb_spawn_free(&sp);

	/* no input: /dev/null */
	memset(&sp, 0, sizeof(sp));
	assert_int_equal(sh(&sp, "cat; echo end"), 0);
	assert_string_equal(sp.out, "end\n");
	nb_spawn_free(&sp);
}

/* PID runs (exists and is not a zombie). */
static int alive(int pid)
{
	char path[64], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
		state = 0;
	fclose(f);
	return state && state != 'Z';
}

static void limit_kills_the_group(void **state)
{
	struct nb_spawn sp = { .limit_us = 200000, .grace_us = 5000000 };
	char pidfile[128], script[300];
	FILE *f;
	int grandchild = 0;

	(void)state;
	snprintf(pidfile, sizeof(pidfile), "%s/grandchild", test_scratch);
	/* the shell forks a sleep: SIGTERM to the group ends both */
	snprintf(script, sizeof(script), "sleep 60 & echo $! >%s; wait", pidfile);
	assert_int_equal(sh(&sp, script), 0);
	assert_true(sp.timed_out);
	assert_int_equal(sp.signal, SIGTERM);
	f = fopen(pidfile, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &grandchild), 1);
	fclose(f);
	/* the sleep was in the group: gone (or a zombie left to init) */
	for (int i = 0; i < 100 && alive(grandchild); i++)
		usleep(20000);
	assert_false(alive(grandchild));
	nb_spawn_free(&sp);

	/* a child that ignores SIGTERM: SIGKILL after the grace */
	memset(&sp, 0, sizeof(sp));
	sp.limit_us = 100000;
	sp.grace_us = 200000;
	assert_int_equal(sh(&sp, "trap '' TERM; sleep 30 & wait; sleep 30"), 0);
	assert_true(sp.timed_out);
	assert_int_equal(sp.signal, SIGKILL);
	nb_spawn_free(&sp);

	/* no grace: SIGKILL at once */
	memset(&sp, 0, sizeof(sp));
	sp.limit_us = 100000;
	assert_int_equal(sh(&sp, "sleep 30"), 0);
	assert_int_equal(sp.signal, SIGKILL);
	nb_spawn_free(&sp);
}

/* An answer without end (a box's, issue 45): cut at OUT_MAX, the group
 * killed at once, OUT_CUT said; not read until the time limit with all
 * it printed held in memory. */
static void output_without_end(void **state)
{
	struct nb_spawn sp = { .limit_us = 60000000, .out_max = 1 << 20 };

	(void)state;
	assert_int_equal(sh(&sp, "yes nasbench"), 0);
	assert_true(sp.out_cut);
	assert_false(sp.timed_out);
	assert_int_equal(sp.out_len, 1 << 20);
	assert_int_equal(strlen(sp.out), 1 << 20);
	assert_int_equal(memcmp(sp.out, "nasbench\nnasbench\n", 18), 0);
	assert_int_equal(sp.signal, SIGKILL);
	nb_spawn_free(&sp);
	/* within the most: all of it, nothing cut */
	memset(&sp, 0, sizeof(sp));
	sp.out_max = 1 << 20;
	assert_int_equal(sh(&sp, "echo short"), 0);
	assert_false(sp.out_cut);
	assert_string_equal(sp.out, "short\n");
	nb_spawn_free(&sp);
}

static void stop_request(void **state)
{
	static volatile sig_atomic_t stop = 1;
	struct nb_spawn sp = { .stop = &stop };

	(void)state;
	assert_int_equal(sh(&sp, "sleep 30"), 0);
	assert_true(sp.stopped);
	assert_false(sp.timed_out);
	assert_int_equal(sp.signal, SIGINT);
	nb_spawn_free(&sp);

	memset(&sp, 0, sizeof(sp));
	sp.stop = &stop;
	sp.stop_sig = SIGKILL;
	assert_int_equal(sh(&sp, "trap '' INT; sleep 30"), 0);
	assert_true(sp.stopped);
	assert_int_equal(sp.signal, SIGKILL);
	nb_spawn_free(&sp);
}

/* SP (with no argv: 'sh -c true') fails to run with RC and, unless NULL, MSG */
static void fails(struct nb_spawn *sp, int rc, const char *msg)
{
	static char *sh_true[] = { "sh", "-c", "true", NULL };

	if (!sp->argv)
		sp->argv = sh_true;
	assert_int_equal(nb_spawn_run(sp), rc);
	if (msg)
		assert_string_equal(nb_err_last(), msg);
	nb_spawn_free(sp);
}

static void missing_program(void **state)
{
	char *argv[] = { "nasbench-no-such-tool", NULL };
	char *abs[] = { "/nonexistent/tool", NULL };
	struct nb_spawn sp = { .argv = argv, .prog = "/bin/true" };
	char plain[128], want[200];

	(void)state;
	fails(&(struct nb_spawn){ .argv = argv }, -ENOENT,
	      "cannot run 'nasbench-no-such-tool': No such file or directory");
	fails(&(struct nb_spawn){ .argv = abs }, -ENOENT,
	      "cannot run '/nonexistent/tool': No such file or directory");

	/* PROG runs, with ARGV[0] as its name */
	assert_int_equal(nb_spawn_run(&sp), 0);
	assert_int_equal(sp.status, 0);
	nb_spawn_free(&sp);

	/* not executable */
	snprintf(plain, sizeof(plain), "%s/plain.txt", test_scratch);
	fclose(fopen(plain, "w"));
	chmod(plain, 0644);
	snprintf(want, sizeof(want), "cannot run '%s': Permission denied", plain);
	fails(&(struct nb_spawn){ .argv = argv, .prog = plain }, -EACCES, want);
	unlink(plain);

	/* a working directory that does not exist */
	fails(&(struct nb_spawn){ .dir = "/nonexistent/dir" }, -ENOENT, NULL);
	/* an output file that cannot be written */
	fails(&(struct nb_spawn){ .out_path = "/nonexistent/out" }, -ENOENT,
	      "cannot write '/nonexistent/out': No such file or directory");
}

static void side_by_side(void **state)
{
	char *a[] = { "sh", "-c", "sleep 0.2; echo a", NULL };
	char *b[] = { "sh", "-c", "echo b", NULL };
	struct nb_spawn x = { .argv = a }, y = { .argv = b };

	(void)state;
	assert_int_equal(nb_spawn_start(&x), 0);
	assert_int_equal(nb_spawn_start(&y), 0);
	assert_int_equal(nb_spawn_wait(&y), 0);
	assert_int_equal(nb_spawn_wait(&x), 0);
	assert_string_equal(x.out, "a\n");
	assert_string_equal(y.out, "b\n");
	nb_spawn_free(&x);
	nb_spawn_free(&y);

	/* freed while running: killed and reaped */
	memset(&x, 0, sizeof(x));
	a[2] = "sleep 30";
	x.argv = a;
	assert_int_equal(nb_spawn_start(&x), 0);
	nb_spawn_free(&x);
	assert_int_equal(kill(x.pid, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exit_status_and_output),
		cmocka_unit_test(err_tail_and_merge),
		cmocka_unit_test(files_dir_env),
		cmocka_unit_test(standard_input),
		cmocka_unit_test(limit_kills_the_group),
		cmocka_unit_test(output_without_end),
		cmocka_unit_test(stop_request),
		cmocka_unit_test(missing_program),
		cmocka_unit_test(side_by_side),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
