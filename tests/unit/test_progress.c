/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/progress.h"

/* What a FILE has received so far, as a string (caller frees). */
static char *contents(FILE *f)
{
	long n = ftell(f);
	char *s = calloc(1, (size_t)n + 1);

	rewind(f);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	fseek(f, 0, SEEK_END);
	return s;
}

/* A plain line (off a terminal) into a temporary file, P's, drawn at
 * every update. */
static FILE *plain(struct nb_progress *p)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	nb_progress_init(p, f, 0);
	assert_int_equal(p->mode, NB_PROGRESS_PLAIN);
	p->every_ns = 1000;
	return f;
}

/* F has received WANT somewhere. */
static void has(FILE *f, const char *want)
{
	char *s = contents(f);

	if (!strstr(s, want))
		fail_msg("'%s' not in '%s'", want, s);
	free(s);
}

/* Off a terminal: a phase outside the timed work says so at once, before
 * any bytes move; the lines after it keep saying it. */
static void untimed_says_so_at_once(void **state)
{
	struct nb_progress p;
	FILE *f = plain(&p);
	char *s;

	(void)state;
	nb_progress_begin_untimed(&p, "preparing the xz input on local", 1 << 20);
	s = contents(f);
	assert_string_equal(s, "preparing the xz input on local (not timed)\n");
	free(s);
	nb_progress_update(&p, 1 << 19, 2000);
	has(f, "\npreparing the xz input on local (not timed) ");
	has(f, " 50%");
	/* the timed work that follows is not labelled so */
	nb_progress_begin(&p, "xz -6 on local (1/1)", 1 << 20, 0);
	nb_progress_update(&p, 1000000, 1000000000);
	has(f, "\nxz -6 on local (1/1)      ");
	has(f, "      1.0 MB/s");
	fclose(f);
}

/* A byte count that goes back (syncprobe's second half once reported its
 * own bytes only) shows no absurd rate: 198814036494293.4 MB/s before. */
static void count_going_back(void **state)
{
	struct nb_progress p;
	FILE *f = plain(&p);

	(void)state;
	nb_progress_begin(&p, "syncprobe on d (1/1)", 0, 0);
	nb_progress_update(&p, 4000000, 1000000000);
	nb_progress_update(&p, 1000000, 2000000000);
	has(f, "      4.0 MB/s");
	/* 0.6 x 4.0 + 0.4 x 0 */
	has(f, "      2.4 MB/s");
	fclose(f);
}

/* A phase of the timed work that moves no bytes is named on the line;
 * begin clears it. */
static void phase_named(void **state)
{
	struct nb_progress p;
	FILE *f = plain(&p);

	(void)state;
	nb_progress_begin(&p, "rand4k-write on nfs (1/3)", 0, 0);
	nb_progress_update(&p, 4096, 5000);
	nb_progress_phase(&p, "flushing");
	nb_progress_update(&p, 8192, 10000);
	has(f, "\nrand4k-write on nfs (1/3): flushing ");
	nb_progress_begin(&p, "rand4k-write on nfs (2/3)", 0, 0);
	assert_string_equal(p.phase, "");
	nb_progress_phase(NULL, "flushing");     /* no line: nothing happens */
	fclose(f);
}

/* Quiet: nothing at all, not even the untimed announcement. */
static void quiet_prints_nothing(void **state)
{
	FILE *f = tmpfile();
	struct nb_progress p;

	(void)state;
	nb_progress_init(&p, f, 1);
	nb_progress_begin_untimed(&p, "preparing", 100);
	nb_progress_phase(&p, "flushing");
	nb_progress_update(&p, 50, 1000000000);
	assert_int_equal(ftell(f), 0);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(untimed_says_so_at_once),
		cmocka_unit_test(phase_named),
		cmocka_unit_test(count_going_back),
		cmocka_unit_test(quiet_prints_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
