/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_journal.c - workloads/crash/crashlog.c's self-checking lines (a torn tail
 * ignored, damage refused) and crashcheck's journal and verdict on top.
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
#include "../../core/err.h"
#include "../../core/fsutil.h"
#include "../../workloads/crash/crashlog.h"
#include "../../workloads/crash/crashrun.h"
#include "../../workloads/crash/crashcheck.h"

struct seen {
	int n;
	char text[8][64];
};

static int collect(const char *text, int line, void *payload)
{
	struct seen *s = payload;

	assert_int_equal(line, s->n + 1);
	snprintf(s->text[s->n++], sizeof(s->text[0]), "%s", text);
	return 0;
}

static void journal_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", test_scratch, name);
	unlink(buf);
}

static void append_read(void **state)
{
	struct nb_journal j;
	struct seen s = { 0 };
	char path[128];
	int torn = -1;

	(void)state;
	journal_path(path, sizeof(path), "j1");
	assert_int_equal(nb_journal_create(&j, path, "h first"), 0);
	assert_int_equal(nb_journal_append(&j, "a 0 1"), 0);
	assert_int_equal(nb_journal_append(&j, "a 4096 1"), 0);
	nb_journal_close(&j);
	assert_int_equal(nb_journal_read(path, collect, &s, &torn), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.text[0], "h first");
	assert_string_equal(s.text[2], "a 4096 1");
	assert_int_equal(torn, 0);
	/* it exists: never overwritten */
	assert_int_equal(nb_journal_create(&j, path, "h again"), -EEXIST);
	assert_non_null(strstr(nb_err_last(), "cannot create the journal"));
	/* a newline in a record would make two */
	assert_int_equal(nb_journal_open(&j, path), 0);
	assert_int_equal(nb_journal_append(&j, "a\n0 1"), -EINVAL);
	nb_journal_close(&j);
}

/* The file cut to LEN bytes (a crash during an append). */
static void cut(const char *path, long len)
{
	assert_int_equal(truncate(path, len), 0);
}

static void torn_tail(void **state)
{
	struct nb_journal j;
	struct seen s = { 0 };
	char path[128], *buf;
	size_t len;
	int torn = 0;
	FILE *f;

	(void)state;
	journal_path(path, sizeof(path), "j2");
	assert_int_equal(nb_journal_create(&j, path, "h x"), 0);
	assert_int_equal(nb_journal_append(&j, "a 0 1"), 0);
	assert_int_equal(nb_journal_append(&j, "a 4096 1"), 0);
	nb_journal_close(&j);
	assert_int_equal(nb_read_file(path, &buf, &len), 0);
	free(buf);
	/* the last line without its newline and part of its sum */
	cut(path, (long)len - 5);
	assert_int_equal(nb_journal_read(path, collect, &s, &torn), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(torn, 1);
	/* a whole last line whose sum does not check out: torn too */
	f = fopen(path, "a");
	fputs("\na 8192 1 #0000000000000000\n", f);
	fclose(f);
	memset(&s, 0, sizeof(s));
	torn = 0;
	/* ... but now the line cut before is in the middle: damage, refused */
	assert_int_equal(nb_journal_read(path, collect, &s, &torn), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "j2:3: the record does not check out"));
	/* after sound lines, the bad last line alone is a torn tail */
	unlink(path);
	assert_int_equal(nb_journal_create(&j, path, "h x"), 0);
	assert_int_equal(nb_journal_append(&j, "a 0 1"), 0);
	assert_int_equal(nb_journal_append(&j, "a 4096 1"), 0);
	nb_journal_close(&j);
	f = fopen(path, "a");
	fputs("a 8192 1 #0000000000000000\n", f);
	fclose(f);
	memset(&s, 0, sizeof(s));
	assert_int_equal(nb_journal_read(path, collect, &s, &torn), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(torn, 1);
}

static void write_journal(const char *path, const char *const *lines, int n)
{
	struct nb_journal j;

	assert_int_equal(nb_journal_create(&j, path, lines[0]), 0);
	for (int i = 1; i < n; i++)
		assert_int_equal(nb_journal_append(&j, lines[i]), 0);
	nb_journal_close(&j);
}

#define HDR "h {\"run_id\":\"R\",\"target\":\"lun\",\"url\":\"iscsi://h/iqn/1\"," \
	"\"runner\":\"iscsi\",\"block\":true,\"capacity\":1048576," \
	"\"window_offset\":0,\"region\":16384,\"bs\":4096}"

static void crash_journal(void **state)
{
	/* version 1's records: durable (the header has no sync: always) */
	static const char *const lines[] = {
		HDR, "i 1 0", "a 0 1", "a 4096 1", "a 8192 1", "a 12288 1",
		"a 0 2", "c 1 5", "i 2 5", "a 4096 2",
	};
	static const char *const outside[] = { HDR, "i 1 0", "a 16384 1" };
	struct nb_crash_journal j;
	char path[128];

	(void)state;
	journal_path(path, sizeof(path), "c1");
	write_journal(path, lines, 10);
	assert_int_equal(nb_crash_journal_load(&j, path), 0);
	assert_string_equal(j.target, "lun");
	assert_int_equal(j.nblocks, 4);
	/* only the last iteration's writes are kept: crash 2 judges its own */
	assert_int_equal(j.loc[1].last, 2);
	assert_int_equal(j.loc[1].promised, 2);
	assert_int_equal(j.loc[0].last, 0);
	assert_int_equal(j.loc[3].last, 0);
	assert_int_equal(j.writes, 6);
	assert_int_equal(j.next, 6);
	assert_int_equal(j.iterations, 2);
	assert_int_equal(j.iter_acked, 1);
	assert_int_equal(j.acked[NB_CC_DURABLE], 1);
	assert_int_equal(j.crashed, 0);
	nb_crash_journal_free(&j);
	journal_path(path, sizeof(path), "c2");
	write_journal(path, outside, 3);
	assert_int_equal(nb_crash_journal_load(&j, path), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "line 3: a write outside the "
			       "journal's region"));
	journal_path(path, sizeof(path), "c3");
	write_journal(path, (const char *const[]){ "h {\"run_id\":\"R\"}" }, 1);
	assert_int_equal(nb_crash_journal_load(&j, path), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "line 1: the header lacks"));
	journal_path(path, sizeof(path), "c4");
	write_journal(path, (const char *const[]){ HDR, "b" }, 2);
	assert_int_equal(nb_crash_journal_load(&j, path), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "line 2: not a record"));
}

#define HDR_END "h {\"run_id\":\"R\",\"target\":\"nfs\",\"url\":\"nfs://h/x\"," \
	"\"runner\":\"nfs\",\"block\":false,\"capacity\":0,\"window_offset\":0," \
	"\"region\":16384,\"bs\":4096,\"qd\":2,\"sync\":\"end\",\"nasbench_journal\":2}"

/* Version 2: what each write was promised.  UNSTABLE writes (c) become
 * flushed by a COMMIT of the same verifier (f), not by another's; a write
 * in flight (p) is past every number sent; the identity before (b). */
static void crash_promises(void **state)
{
	static const char *const lines[] = {
		HDR_END, "i 1 0", "b boot 1b2c", "b verf abc", "a 0 1 c abc",
		"a 4096 1 c abc", "f abc", "a 8192 1 c abc", "a 12288 1 d abc",
		"a 0 2 c abd", "f abd", "p 4096 2", "c 1 6",
	};
	struct nb_crash_journal j;
	char path[128];

	(void)state;
	journal_path(path, sizeof(path), "p1");
	write_journal(path, lines, 13);
	assert_int_equal(nb_crash_journal_load(&j, path), 0);
	assert_int_equal(j.qd, 2);
	assert_string_equal(j.sync, "end");
	assert_string_equal(j.boot, "1b2c");
	assert_true(j.has_verf && j.verf == 0xabc);
	/* 0: flushed at gen 1 under abc; then gen 2 under abd, flushed by abd */
	assert_int_equal(j.loc[0].last, 2);
	assert_int_equal(j.loc[0].promised, 2);
	assert_int_equal(j.loc[0].last_cls, NB_CC_FLUSHED);
	/* 2: cached under abc, the flush of abd does not promise it */
	assert_int_equal(j.loc[2].last, 1);
	assert_int_equal(j.loc[2].promised, 0);
	assert_int_equal(j.loc[2].last_cls, NB_CC_CACHED);
	/* 3: durable on its own */
	assert_int_equal(j.loc[3].promised, 1);
	assert_int_equal(j.loc[3].promised_cls, NB_CC_DURABLE);
	/* 1: flushed gen 1, gen 2 in flight */
	assert_int_equal(j.loc[1].promised, 1);
	assert_int_equal(j.loc[1].flying, 2);
	assert_int_equal(j.acked[NB_CC_DURABLE], 1);
	assert_int_equal(j.acked[NB_CC_FLUSHED], 3);
	assert_int_equal(j.acked[NB_CC_CACHED], 1);
	assert_int_equal(j.inflight, 1);
	/* write 5 (4096, gen 2) was sent: the next is 6 */
	assert_int_equal(j.next, 6);
	assert_int_equal(j.crashed, 1);
	nb_crash_journal_free(&j);
}

/* An iteration's figures: crash observed, promised losses, checked. */
static json_t *iteration(int observed, int lost, int checked)
{
	json_t *m = json_pack("{s:i, s:i, s:i, s:i}", "crash_observed", observed,
			      "crash_checked", checked, "crash_acked", 100,
			      "crash_acked_durable", 100);

	if (observed || lost)
		json_object_update_new(m, json_pack("{s:i, s:i, s:i, s:i, s:i, s:i}",
			"crash_lost", lost, "crash_lost_durable", lost,
			"crash_lost_flushed", 0, "crash_lost_cached", 0,
			"crash_stale", lost, "crash_missing", 0));
	return json_pack("{s:o, s:{s:{s:{s:s}, s:{s:s}, s:{s:s}}, s:i, s:{s:s}}}",
			 "metrics", m, "crash", "classes", "durable", "name",
			 "FILE_SYNC", "flushed", "name", "UNSTABLE + COMMIT",
			 "cached", "name", "UNSTABLE", "promised_locations", checked,
			 "evidence", "how", "boot id unchanged (x)");
}

static void verdict(void **state)
{
	json_t *e = json_pack("{s:[o,o]}", "iterations", iteration(1, 0, 64),
			      iteration(1, 0, 64));
	json_t *it = iteration(1, 0, 64), *v;
	json_t *cur = json_object_get(it, "metrics"), *cc = json_object_get(it, "crash");

	(void)state;
	v = nb_crash_verdict(e, cur, cc, "");
	assert_string_equal(json_string_value(json_object_get(v, "summary")),
			    "3 of 3 crashes observed: 0 promised-durable writes lost "
			    "(192 locations held one; acknowledged: FILE_SYNC 300; 0 "
			    "never promised lost)");
	assert_true(json_is_null(json_object_get(v, "first_losing")));
	json_decref(v);
	json_array_set_new(json_object_get(e, "iterations"), 0, iteration(1, 412, 512));
	v = nb_crash_verdict(e, cur, cc, "disabled");
	assert_string_equal(json_string_value(json_object_get(v, "summary")),
			    "sync=disabled: 412 promised-durable writes lost in 1 of 3 "
			    "crashes (412 in crash 1; FILE_SYNC 412, UNSTABLE + COMMIT 0; "
			    "0 writes never promised lost too)");
	assert_int_equal(json_integer_value(json_object_get(v, "lost")), 412);
	assert_int_equal(json_integer_value(json_object_get(v, "first_losing")), 1);
	json_decref(v);
	/* no crash observed, nothing lost: not proven, never "0 lost" */
	json_array_set_new(json_object_get(e, "iterations"), 0, iteration(0, 0, 64));
	json_array_set_new(json_object_get(e, "iterations"), 1, iteration(0, 0, 64));
	v = nb_crash_verdict(e, NULL, NULL, NULL);
	assert_string_equal(json_string_value(json_object_get(v, "summary")),
			    "no crash observed in 2 of 2 iterations (boot id unchanged "
			    "(x)): not proven");
	assert_int_equal(json_integer_value(json_object_get(v, "unproven")), 2);
	json_decref(v);
	/* a loss without a crash observed is a loss all the same */
	json_array_set_new(json_object_get(e, "iterations"), 1, iteration(0, 8, 64));
	v = nb_crash_verdict(e, NULL, NULL, NULL);
	assert_int_equal(json_integer_value(json_object_get(v, "lost")), 8);
	assert_int_equal(json_integer_value(json_object_get(v, "unproven")), 1);
	json_decref(v);
	json_decref(it);
	json_decref(e);
}

/* syncprobe's verdict beside crashcheck's where both ran on a target */
static void durability(void **state)
{
	json_t *doc = json_pack(
		"{s:[{s:s, s:s, s:[{s:{s:i}, s:s}]}, {s:s, s:s, s:{s:i, s:s}},"
		" {s:s, s:s, s:{s:i, s:s}}]}", "results",
		"target", "nfs", "workload", "syncprobe", "iterations", "metrics",
		"durable", 0, "verdict_class", "no-commit-cost",
		"target", "nfs", "workload", "crashcheck", "crash_verdict", "lost",
		412, "summary", "sync=disabled: 412 acknowledged writes lost in crash 1 of 3",
		"target", "lun", "workload", "crashcheck", "crash_verdict", "lost", 0,
		"summary", "3 of 3 crashes: 0 acknowledged writes lost");
	json_t *d;

	(void)state;
	nb_crash_durability(doc);
	d = json_object_get(doc, "durability");
	/* only where both ran */
	assert_int_equal(json_array_size(d), 1);
	d = json_array_get(d, 0);
	assert_string_equal(json_string_value(json_object_get(d, "target")), "nfs");
	assert_string_equal(json_string_value(json_object_get(d, "syncprobe")),
			    "no-commit-cost");
	assert_true(json_is_false(json_object_get(d, "syncprobe_durable")));
	assert_int_equal(json_integer_value(json_object_get(d, "crash_lost")), 412);
	assert_true(json_is_true(json_object_get(d, "agree")));
	json_decref(doc);
}

/* Timing never proves durable (issue 46); a crash observed that lost
 * nothing promised does: the probe's commit cost becomes durable, said
 * where from.  A crash check that saw no crash proves nothing. */
static void durability_evidence(void **state)
{
	for (int seen = 0; seen < 2; seen++) {
		json_t *doc = json_pack(
			"{s:[{s:s, s:s, s:[{s:{s:f}, s:s}]}, {s:s, s:s, s:{s:i, s:i, s:s}}]}",
			"results", "target", "lun", "workload", "syncprobe",
			"iterations", "metrics", "durable", 0.0, "verdict_class",
			"commit-cost-seen", "target", "lun", "workload", "crashcheck",
			"crash_verdict", "lost", 0, "unproven", seen ? 0 : 1,
			"summary", "1 of 1 crash observed: 0 promised-durable writes lost");
		const json_t *it = json_array_get(json_object_get(json_array_get(
			json_object_get(doc, "results"), 0), "iterations"), 0);
		const json_t *d;

		(void)state;
		nb_crash_durability(doc);
		d = json_array_get(json_object_get(doc, "durability"), 0);
		assert_true(json_is_true(json_object_get(d, "syncprobe_durable")));
		assert_true(json_boolean_value(json_object_get(d, "agree")) == seen);
		assert_true(json_number_value(json_object_get(json_object_get(it,
			"metrics"), "durable")) == (seen ? 1 : 0));
		if (seen)
			assert_string_equal(json_string_value(json_object_get(it,
				"durable_evidence")), "crashcheck: a crash observed, no "
				"promised-durable write lost");
		else
			assert_null(json_object_get(it, "durable_evidence"));
		/* the probe said none: the crash check's replaces it */
		json_decref(doc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(append_read),
		cmocka_unit_test(crash_promises),
		cmocka_unit_test(torn_tail),
		cmocka_unit_test(crash_journal),
		cmocka_unit_test(verdict),
		cmocka_unit_test(durability),
		cmocka_unit_test(durability_evidence),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
