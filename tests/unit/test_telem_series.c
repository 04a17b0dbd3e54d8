/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_telem_series.c - a box's snapshots into the iteration's series
 * (telemetry/telem_series.c) when the box is not to be trusted: a disk
 * name that is not UTF-8 (jansson refused the key and freed the series,
 * which was then appended to: the use after free of issue 45), counters
 * that go back (a restart, a wrap) or jump beyond any box: a gap (null),
 * counted and said, never a negative, wrapped or absurd figure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../telemetry/telem_rt.h"

static struct nb_telem *series_of(void)
{
	struct nb_telem *tm = calloc(1, sizeof(*tm));

	assert_non_null(tm);
	pthread_mutex_init(&tm->mu, NULL);
	snprintf(tm->source, sizeof(tm->source), "ssh://box");
	tm->interval_ns = 1000000000ULL;
	assert_int_equal(nb_telem_series_new(tm), 0);
	return tm;
}

static void series_free(struct nb_telem *tm)
{
	nb_telem_series_free(tm);
	pthread_mutex_destroy(&tm->mu);
	free(tm);
}

/* The box's answer TEXT at second T: the first snapshot, or the next. */
static void answer(struct nb_telem *tm, int t, const char *text)
{
	static struct nb_telem_snap s;

	memset(&s, 0, sizeof(s));
	s.cpu.pct_all = -1;
	s.t_ns = (uint64_t)t * 1000000000ULL + 1;
	nb_telem_parse_answer(text, NB_TELEM_LINUX, &s);
	if (!tm->have_first) {
		tm->first = tm->prev = s;
		tm->t0 = s.t_ns;
		tm->have_first = 1;
		return;
	}
	nb_telem_add(tm, &s);
}

static const json_t *at(const json_t *j, const char *a, const char *b)
{
	return json_object_get(json_object_get(j, a), b);
}

static void nulls(const json_t *j, const char *series, const char *want)
{
	const json_t *a = json_object_get(json_object_get(j, "series"), series);
	char got[64] = "";
	size_t i, n = 0;
	json_t *v;

	json_array_foreach(a, i, v) {
		if (json_is_null(v))
			n += (size_t)snprintf(got + n, sizeof(got) - n, "- ");
		else
			n += (size_t)snprintf(got + n, sizeof(got) - n, "%g ",
					      json_number_value(v));
	}
	if (strcmp(got, want))
		fail_msg("%s: '%s', expected '%s'", series, got, want);
}

/* A disk named in Latin-1 (0xe9): its series kept under its name as
 * carried, "caf\xe9" (backslash, x, e, 9), with a figure a sample. */
static void name_not_utf8(void **state)
{
	struct nb_telem *tm = series_of();
	char text[200];
	json_t *j;

	(void)state;
	for (int t = 0; t < 4; t++) {
		snprintf(text, sizeof(text), "@diskstats\n   8 0 caf\xe9 %d 0 8 0 %d 0 "
			 "8 0 0 %d 0\n   8 16 sdb 1 0 8 0 1 0 8 0 0 %d 0\n",
			 100 * (t + 1), 100 * (t + 1), 500 * t, 250 * t);
		answer(tm, t, text);
	}
	j = nb_telem_series_end(tm);
	assert_non_null(j);
	nulls(j, "t_ms", "1000 2000 3000 ");
	assert_int_equal(json_array_size(json_object_get(at(j, "series",
		"disk_busy_pct"), "caf\\xe9")), 3);
	assert_true(json_real_value(json_array_get(json_object_get(at(j, "series",
		"disk_busy_pct"), "caf\\xe9"), 2)) == 50.0);
	assert_true(json_real_value(json_object_get(at(j, "summary",
		"disk_busy_pct"), "caf\\xe9")) == 50.0);
	assert_string_equal(json_string_value(at(j, "summary", "disk_busiest")),
			    "caf\\xe9");
	assert_string_equal(nb_telem_warning(tm), "");
	json_decref(j);
	series_free(tm);
}

static const char *const samples[] = {
	/* 0 s */
	"@stat\ncpu0 100 0 0 100 0 0 0 0\n@vmstat\npswpin 10\npswpout 10\n"
	"@diskstats\n   8 0 sda 100 0 8 0 0 0 0 0 0 1000 0\n"
	"@arc-kv\nhits 100\nmisses 10\n",
	/* 1 s: half busy, 2 pages swapped, 100 of 110 ARC reads hits */
	"@stat\ncpu0 150 0 0 150 0 0 0 0\n@vmstat\npswpin 12\npswpout 10\n"
	"@diskstats\n   8 0 sda 200 0 8 0 0 0 0 0 0 1500 0\n"
	"@arc-kv\nhits 200\nmisses 20\n",
	/* 2 s: the box restarted, every counter went back */
	"@stat\ncpu0 10 0 0 10 0 0 0 0\n@vmstat\npswpin 0\npswpout 0\n"
	"@diskstats\n   8 0 sda 5 0 8 0 0 0 0 0 0 100 0\n"
	"@arc-kv\nhits 5\nmisses 1\n",
	/* 3 s: sda busy 2^64 - 1 ms in a second, the rest as it should */
	"@stat\ncpu0 20 0 0 20 0 0 0 0\n@vmstat\npswpin 1\npswpout 0\n"
	"@diskstats\n   8 0 sda 6 0 8 0 0 0 0 0 0 18446744073709551615 0\n"
	"@arc-kv\nhits 15\nmisses 1\n",
	/* 4 s: MemAvailable of 400 digits, a disk's counters "1e30" */
	"@stat\ncpu0 30 0 0 30 0 0 0 0\n@vmstat\npswpin 1\npswpout 0\n"
	"@meminfo\nMemTotal: 100 kB\nMemAvailable: "
	"99999999999999999999999999999999999999999999999999999999999999999999999999"
	"99999999999999999999999999999999999999999999999999999999999999999999999999"
	"99999999999999999999999999999999999999999999999999999999999999999999999999"
	"99999999999999999999999999999999999999999999999999999999999999999999999999"
	"99999999999999999999999999999999999999999999999999999999999999999999999999"
	"9999999999999999999999999 kB\n"
	"@diskstats\n   8 0 sda 7 0 8 0 0 0 0 0 0 1e30 0\n",
};

/* Counters that went back and jumped: each a gap (null), counted in the
 * warning; the samples around them as they were. */
static void counters_back_and_beyond(void **state)
{
	struct nb_telem *tm = series_of();
	json_t *j;
	char *dump;

	(void)state;
	for (int t = 0; t < 5; t++)
		answer(tm, t, samples[t]);
	j = nb_telem_series_end(tm);
	assert_non_null(j);
	nulls(j, "cpu_busy_max_pct", "50 - 50 50 ");
	nulls(j, "swap_io_pages", "2 - 1 0 ");
	nulls(j, "arc_hit_pct", "90.9 - 100 - ");
	json_t *sda = json_object_get(at(j, "series", "disk_busy_pct"), "sda");
	assert_int_equal(json_array_size(sda), 4);
	assert_true(json_real_value(json_array_get(sda, 0)) == 50.0);
	for (size_t i = 1; i < 4; i++)
		assert_true(json_is_null(json_array_get(sda, i)));
	/* the last sample's memory was not read: null, not 0 and not wrapped */
	nulls(j, "mem_avail_bytes", "- - - - ");
	assert_string_equal(nb_telem_warning(tm), "telemetry from 'ssh://box': gaps "
		"in the series (null where a sample was not read): counters that "
		"went back (the box restarted, or one wrapped): 4; counters that "
		"moved beyond what a box can do: 1; values that were not numbers a "
		"box gives: 2; the first: cpu0");
	dump = json_dumps(j, 0);
	assert_non_null(dump);
	assert_null(strstr(dump, "nan"));
	assert_null(strstr(dump, "inf"));
	assert_null(strstr(dump, "-"));
	free(dump);
	json_decref(j);
	series_free(tm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(name_not_utf8),
		cmocka_unit_test(counters_back_and_beyond),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
