/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_summary.c - the decision summary: the decision sentences of real
 * runs kept as fixtures (tests/fixtures/: the lab demo's four results,
 * small runs on this machine, the second story's two platforms, a
 * capacity sweep walked through a failed disk and a replay), and on
 * hand-made results in the documented shapes (docs/result.md's steady
 * state and crash check) acceptance, crash losses, not steady, doubtful
 * figures; the renderers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../decision/bands.h"
#include "../../decision/summary.h"

/* Line I's text, or "" past the end. */
static const char *line(const json_t *l, size_t i)
{
	return json_string_value(json_object_get(json_array_get(l, i), "text")) ?: "";
}

/* Whether a line says TEXT, short or in its detail. */
static int has(const json_t *l, const char *text)
{
	for (size_t i = 0; i < json_array_size(l); i++) {
		const char *d = json_string_value(json_object_get(json_array_get(l, i),
								  "detail"));

		if (strstr(line(l, i), text) || (d && strstr(d, text)))
			return 1;
	}
	return 0;
}

static void dump(const json_t *l)
{
	for (size_t i = 0; i < json_array_size(l); i++)
		print_message("  %s\n", line(l, i));
}

/* The results of FILES (under tests/fixtures/), loaded into DOCS. */
static void load(const char *const *files, size_t n, json_t **docs)
{
	json_error_t e;

	for (size_t i = 0; i < n; i++) {
		docs[i] = json_load_file(files[i], 0, &e);
		if (!docs[i])
			fail_msg("fixture %s: %s", files[i], e.text);
	}
}

static void unload(json_t **docs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_decref(docs[i]);
}

static const char *kind(const json_t *l, size_t i)
{
	return json_string_value(json_object_get(json_array_get(l, i), "kind")) ?: "";
}

static int folded(const json_t *l, size_t i)
{
	return json_is_true(json_object_get(json_array_get(l, i), "fold"));
}

/* The lab demo's four results (make lab-demo: raidz1 and raid10, each with
 * and without a SLOG, NFS and iSCSI; tests/fixtures/seed1, trimmed by
 * tests/support/trim_result.py): a sentence per dimension, its figure, its
 * condition and its confidence, the largest first; the rest folded. */
static void lab_demo(void **state)
{
	static const char *const files[] = {
		"tests/fixtures/seed1/raid10-slog.json", "tests/fixtures/seed1/raid10.json",
		"tests/fixtures/seed1/raidz1-slog.json", "tests/fixtures/seed1/raidz1.json",
	};
	json_t *docs[4], *l;
	size_t decisions = 0, shown = 0;

	(void)state;
	load(files, 4, docs);
	l = nb_summary_new(docs, files, 4, NULL);
	dump(l);
	/* syncprobe's sync IOPS 4.6x (raid10, iSCSI) to 15x (raidz1, iSCSI);
	 * seq512k-write-sync: ssd ahead on raid10/NFS (1.70x, p=0.048),
	 * raidz1/NFS 1.31x and raidz1/iSCSI 1.15x, about the same on
	 * raid10/iSCSI (1.13x within its spread of 21%) */
	assert_string_equal(line(l, 0), "A SLOG: 4.6-15x the sync IOPS on both "
			    "layouts (n=3 each, ±64%); 1.15-1.70x the sequential sync "
			    "writes in 3 of 4 comparisons (n=3 each, ±20%; 1 of 3 "
			    "significant)");
	/* seq512k-read 72.1/26.1 = 2.8x to 81.9/21.8 = 3.7x; seq512k-write
	 * raidz1 39.4/29.3 = 1.34x to 44.3/24.9 = 1.78x */
	assert_string_equal(line(l, 1), "raid10 over raidz1 for sequential reads: "
			    "2.8-3.7x with and without a SLOG (n=3 each, ±25%); raidz1 "
			    "for sequential writes: 1.34-1.78x with and without a SLOG "
			    "(n=3 each, ±7%; 2 of 4 significant)");
	/* iSCSI's sequential sync writes without a SLOG: 24.8/14.1 on raid10,
	 * 23.8/18.1 on raidz1; with one, within the spread */
	assert_string_equal(line(l, 2), "iSCSI over NFS for sequential sync writes: "
			    "1.31-1.76x without a SLOG, nothing with a SLOG (n=3 each, "
			    "±21%; 1 of 2 significant)");
	assert_string_equal(line(l, 3), "3 figures doubtful: sync writes not proven "
			    "durable; run the crash check (crashcheck), or declare plp = "
			    "yes if the box has power-loss protection");
	for (size_t i = 0; i < json_array_size(l); i++) {
		decisions += !strcmp(kind(l, i), "decision");
		shown += !folded(l, i);
	}
	assert_int_equal(decisions, 3);
	assert_int_equal(shown, 4);
	/* one statement of each fact: no per-workload winner line above the
	 * fold; each comparison once in the detail, with its figures */
	assert_true(has(l, "sequential reads (seq512k-read) on iSCSI, slog=ssd: raid10 "
			"81.9 vs raidz1 21.8 MB/s, 3.7x; n=3/3, ±5%/±25%, p=0.0018"));
	assert_true(has(l, "doubtful (durability not proven): 3 figures: syncprobe on "
			"lab-nfs (raid10-slog.json)"));
	assert_false(has(l, "best configuration"));
	json_decref(l);
	unload(docs, 4);
}

/* A figure marked not ok (an iteration whose samples cannot carry it,
 * "status" other than ok) decides nothing: raidz1-slog's sync IOPS
 * marked, the SLOG's sync IOPS rest on raid10 alone. */
static void marked_figures(void **state)
{
	static const char *const files[] = {
		"tests/fixtures/seed1/raid10-slog.json", "tests/fixtures/seed1/raid10.json",
		"tests/fixtures/seed1/raidz1-slog.json", "tests/fixtures/seed1/raidz1.json",
	};
	json_t *docs[4], *l, *e, *it;
	size_t i, j;

	(void)state;
	load(files, 4, docs);
	json_array_foreach(json_object_get(docs[2], "results"), i, e)
		if (!strcmp(json_string_value(json_object_get(e, "workload")), "syncprobe"))
			json_array_foreach(json_object_get(e, "iterations"), j, it)
				json_object_set_new(it, "status", json_string("too-few-samples"));
	l = nb_summary_new(docs, files, 4, NULL);
	dump(l);
	/* raid10: 832.3 vs 78.5 on NFS (11x), 508.0 vs 111.1 on iSCSI (4.6x) */
	assert_string_equal(line(l, 0), "A SLOG: 4.6-11x the sync IOPS on both targets "
			    "(n=3 each, ±64%); 1.15-1.70x the sequential sync writes in 3 "
			    "of 4 comparisons (n=3 each, ±20%; 1 of 3 significant)");
	json_decref(l);
	unload(docs, 4);
}

/* Two small real runs on this machine (tests/fixtures/local: a scratch
 * directory in /dev/shm and one on disk, labelled compression=off and
 * lz4 - a label the runs did not act on): the target decided something,
 * the compression nothing, said once and last. */
static void nothing_decided(void **state)
{
	static const char *const files[] = {
		"tests/fixtures/local/compression-off.json",
		"tests/fixtures/local/compression-lz4.json",
	};
	json_t *docs[2], *l;

	(void)state;
	load(files, 2, docs);
	l = nb_summary_new(docs, files, 2, NULL);
	dump(l);
	/* 1068 vs 339.7 MB/s (p=0.036); with lz4 578.2 vs 409.4 is within
	 * the spread (±69%), and the compression decided nothing: no
	 * condition of it */
	assert_string_equal(line(l, 0), "shm over disk for sequential reads: 3.1x in "
			    "1 of 2 comparisons (n=3 each, ±37%)");
	/* the largest difference of the compression 1068/578.2 = 1.85x,
	 * p=0.29 */
	assert_string_equal(line(l, 1), "Compression (lz4): within the noise (up to "
			    "1.85x, not significant; n=3 each, ±134%)");
	assert_string_equal(kind(l, 1), "decision");
	assert_string_equal(kind(l, 2), "warning");
	json_decref(l);
	unload(docs, 2);
}

/* The second story (examples/seed2/run: bonnie x5, a big file and xz on
 * the lab's RAIDZ2 of SSDs, against ext4 of this machine; tests/fixtures/
 * seed2) against its own bands, a 10% loss viable, twice the time not:
 * one decision, the figures grouped by verdict, the worst first; without
 * bands, the two platforms (their labels change together: one question,
 * named by the boxes' names) as a choice. */
static void seed2_bands(void **state)
{
	static const char *const files[] = {
		"tests/fixtures/seed2/ext4.json", "tests/fixtures/seed2/raidz2-ssd.json",
	};
	struct nb_bands b;
	json_t *docs[2], *l;

	(void)state;
	assert_int_equal(nb_bands_parse("--bands", "10%,2x", &b), 0);
	load(files, 2, docs);
	l = nb_summary_new(docs, files, 2, &b);
	dump(l);
	/* get_block 241.1 -> 82.4 MB/s 2.9x, put_block 126.1 -> 37.5 3.4x,
	 * rewrite 207.7 -> 35.6 5.8x, the big file 139.3 -> 32.6 4.3x; xz
	 * 0.209 -> 0.115 MB/s 1.82x, between the bands */
	assert_string_equal(line(l, 0), "lab-raidz2-ssd against this-machine-ext4 "
			    "(bands 10%,2x): not viable: bonnie++ block reads, block "
			    "writes, rewrites and big file writes 2.9-5.8x the time "
			    "(n=1-5, ±156%; 2 of 4 significant); decide: xz compression "
			    "1.82x the time (n=1 each, ±0%; too few iterations to test)");
	assert_string_equal(json_string_value(json_object_get(json_array_get(l, 0),
							      "level")), "fail");
	assert_string_equal(kind(l, 1), "steady");
	/* each figure against the bands in the detail, as before */
	assert_true(has(l, "bands 10%,2x, raidz2-ssd.json against ext4.json: bonnie "
			"on local, put_block MB/s 126.1 -> 37.5 (3.36x the time): not "
			"viable"));
	json_decref(l);
	l = nb_summary_new(docs, files, 2, NULL);
	dump(l);
	assert_string_equal(line(l, 0), "this-machine-ext4 over lab-raidz2-ssd for "
			    "bonnie++ block writes: 3.4x (n=5 each, ±63%); big file "
			    "writes: 4.3x (n=1 each, ±0%; too few iterations to test); xz "
			    "compression: 1.82x (n=1 each, ±0%; too few iterations to "
			    "test)");
	json_decref(l);
	unload(docs, 2);
}

/* A capacity sweep walked through a failed disk and a replay of today's
 * load on the same box and target (tests/fixtures/life: the lab's raidz1
 * of SSDs, NFS): one decision, "this box carries N VMs like yours; with a
 * dead disk M; today's load grows into it in Y years"; and a replay that
 * does not fit. */
static void capacity_failure_replay(void **state)
{
	static const char *const files[] = {
		"tests/fixtures/life/vms.json", "tests/fixtures/life/replay.json",
		"tests/fixtures/life/replay-breaks.json",
	};
	json_t *docs[3], *l;

	(void)state;
	load(files, 3, docs);
	l = nb_summary_new(docs, files, 2, NULL);
	dump(l);
	/* 41.5 VMs healthy is 41 whole ones; degraded 17.0; no step of the
	 * rebuild met the objective; the replay's headroom 50.13x at 25%/year
	 * lasts 17.5 years (judged at p99 <= 250 ms: said) */
	assert_string_equal(line(l, 0), "lab-raidz1 on NFS carries 41 VMs like yours "
			    "at p99 \u2264 20 ms; with a dead disk 17, while it rebuilds "
			    "none; today's load grows into it at p99 \u2264 250 ms in 17.5 "
			    "years (50.1x headroom, 25%/year)");
	assert_string_equal(kind(l, 0), "decision");
	/* what each state keeps is the detail's */
	assert_true(has(l, "vm on lab-nfs (vms.json): keeps 41% of its healthy VMs at "
			"the objective degraded"));
	assert_true(folded(l, json_array_size(l) - 1));
	json_decref(l);
	l = nb_summary_new(docs + 2, files + 2, 1, NULL);
	dump(l);
	/* no capacity said its objective: the replay says its own */
	assert_string_equal(line(l, 0), "lab-raidz1 on NFS: today's load does not fit: "
			    "it breaks p99 \u2264 20 ms");
	json_decref(l);
	unload(docs, 3);
}

/* Acceptance, crash check (its shape), not steady (its shape),
 * warnings by class, few iterations, not measured, incomplete. */
static void doubts_and_verdicts(void **state)
{
	json_t *docs[1], *l;
	const char *paths[1] = { "/r/box.json" };

	(void)state;
	docs[0] = json_loads("{\"schema\": 1, \"tool\": \"nasbench\", \"complete\": false, "
		"\"labels\": {}, \"results\": ["
		"{\"target\": \"nfs\", \"workload\": \"seq512k-read\", \"status\": \"ok\", "
		" \"warnings\": [\"read 1.2 GB/s through the client's page cache: not the box\"], "
		" \"steady\": {\"reached\": false, \"why\": \"the range is 31.0% of the mean, more than 20%\"}, "
		" \"iterations\": [{\"metrics\": {\"bw_bytes\": 1e9}}]},"
		"{\"target\": \"nfs\", \"workload\": \"crashcheck\", \"status\": \"ok\", "
		" \"iterations\": [{\"metrics\": {\"crash_lost\": 412}}], "
		" \"crash_verdict\": {\"crashes\": 3, \"crashes_losing\": 1, \"lost\": 412, "
		"  \"stale\": 0, \"torn\": 0, \"summary\": \"sync=disabled: 412 acknowledged "
		"writes lost in crash 1 (3 crashes)\"}},"
		"{\"target\": \"iscsi\", \"workload\": \"rand4k-read\", \"status\": \"skipped\", "
		" \"reason\": \"no such LUN\"}],"
		"\"durability\": [{\"target\": \"nfs\", \"syncprobe\": \"durable\", "
		" \"crash\": \"sync=disabled: 412 lost\", \"agree\": false}],"
		"\"accept\": {\"verdict\": \"fail\", \"passed\": 1, \"failed\": 1, \"criteria\": ["
		" {\"criterion\": \"seq512k-read@nfs mb_s >= 2000\", \"measured\": 1000, "
		"  \"unit\": \"MB/s\", \"verdict\": \"fail\"},"
		" {\"criterion\": \"crashcheck@nfs crash_lost = 0\", \"measured\": 0, "
		"  \"verdict\": \"pass\"}]}}", 0, NULL);
	assert_non_null(docs[0]);
	l = nb_summary_new(docs, paths, 1, NULL);
	dump(l);
	/* what happened and what to do, the words in the detail */
	assert_true(has(l, "acceptance of box.json: FAIL: seq512k-read@nfs mb_s >= "
			"2000 (measured 1000 MB/s)"));
	assert_true(has(l, "1 figure never reached steady state: run longer "
			"(--runtime, or --steady-state's rounds)"));
	assert_true(has(l, "1 figure doubtful: the box's cache, not its disks, may "
			"set them; use a data set of twice its RAM (--size auto)"));
	assert_true(has(l, "low confidence: 2 figures from fewer than 3 iterations; "
			"run 5 or more"));
	assert_true(has(l, "not measured: rand4k-read on iscsi (box.json): skipped"));
	assert_true(has(l, "crash check on nfs (box.json): sync=disabled: 412 "
			"acknowledged writes lost in crash 1 (3 crashes)"));
	assert_true(has(l, "durability on nfs (box.json): syncprobe says durable, "
			"the crash check 'sync=disabled: 412 lost': they disagree"));
	assert_true(has(l, "not steady: seq512k-read on nfs (box.json): the range "
			"is 31.0% of the mean, more than 20%"));
	assert_true(has(l, "doubtful (a cache): 1 figure: seq512k-read on nfs "
			"(box.json)"));
	assert_true(has(l, "incomplete: box.json was interrupted"));
	assert_true(has(l, "not measured: rand4k-read on iscsi (box.json): skipped: "
			"no such LUN"));
	assert_true(has(l, "low confidence: 2 of 2 figures rest on fewer than 3 "
			"iterations (n=1)"));
	/* levels: the failures are "fail", the doubts "warn" */
	for (size_t i = 0; i < json_array_size(l); i++) {
		const json_t *x = json_array_get(l, i);
		const char *lv = json_string_value(json_object_get(x, "level"));

		if (strstr(line(l, i), "FAIL") || strstr(line(l, i), "412 acknowledged"))
			assert_string_equal(lv, "fail");
		if (strstr(line(l, i), "not steady") || strstr(line(l, i), "doubtful"))
			assert_string_equal(lv, "warn");
	}
	json_decref(l);
	json_decref(docs[0]);
}

/* A capacity sweep  and the box's telemetry verdicts
 * : the load at the objective, swap and a slow disk. */
static void capacity_and_telemetry(void **state)
{
	json_t *docs[1], *l;
	const char *paths[1] = { "vm.json" };

	(void)state;
	docs[0] = json_loads("{\"schema\": 1, \"tool\": \"nasbench\", \"complete\": true, "
		"\"labels\": {}, \"results\": ["
		"{\"target\": \"nfs\", \"workload\": \"vm\", \"status\": \"ok\", "
		" \"iterations\": ["
		"  {\"metrics\": {\"vms\": 18}, \"sweep\": {\"capacity\": {\"found\": true, "
		"   \"text\": \"18.0 VMs (1800 IOPS) at mean <= 10 ms\"}}},"
		"  {\"metrics\": {\"vms\": 20}, \"sweep\": {\"capacity\": {\"found\": true, "
		"   \"text\": \"20.0 VMs (2001 IOPS) at mean <= 10 ms\"}}},"
		"  {\"metrics\": {\"vms\": 19}}]},"
		"{\"target\": \"nfs\", \"workload\": \"bonnie\", \"status\": \"ok\", "
		" \"warnings\": [\"the box swapped 3.9 GiB during bonnie iteration 4\", "
		"  \"the box was CPU-bound: compression, checksums or the file server's "
		"threads set the figure\"], "
		" \"box_verdicts\": [{\"kind\": \"memory\", \"iteration\": 4, \"text\": "
		"  \"the box swapped 3.9 GiB during bonnie iteration 4\"}, {\"kind\": "
		"  \"slow-disk\", \"disk\": \"loop3\", \"text\": \"loop3 was 92% busy, the "
		"others 41%\"}, {\"kind\": \"cpu\", \"text\": \"the box was CPU-bound: "
		"compression, checksums or the file server's threads set the figure\"}], "
		" \"iterations\": [{\"metrics\": {\"put_block_bw_bytes\": 1e8}}, "
		"  {\"metrics\": {\"put_block_bw_bytes\": 1e8}}, "
		"  {\"metrics\": {\"put_block_bw_bytes\": 1e8}}]}]}", 0, NULL);
	assert_non_null(docs[0]);
	l = nb_summary_new(docs, paths, 1, NULL);
	dump(l);
	assert_true(has(l, "capacity of vm on nfs (vm.json): 20.0 VMs (2001 IOPS) at "
			"mean <= 10 ms"));
	assert_true(has(l, "1 figure doubtful: one disk was slower than its peers and "
			"held its vdev back; check it (zpool iostat -v)"));
	assert_true(has(l, "doubtful (swap used): 1 figure: bonnie on nfs (vm.json) "
			"(\"the box swapped 3.9 GiB during bonnie iteration 4\")"));
	assert_true(has(l, "doubtful (a slow disk): 1 figure: bonnie on nfs (vm.json) "
			"(\"loop3 was 92% busy, the others 41%\")"));
	assert_false(has(l, "doubtful (a cache)"));
	/* the CPU verdict's words ("compression") are the CPU's doubt only */
	assert_true(has(l, "doubtful (a busy CPU): 1 figure: bonnie on nfs (vm.json) "
			"(\"the box was CPU-bound: compression, checksums or the file "
			"server's threads set the figure\")"));
	assert_false(has(l, "doubtful (compressible data)"));
	json_decref(l);
	json_decref(docs[0]);
}

/* The renderers: the decisions, then what must not be missed, then the
 * detail folded (Markdown and HTML) or left out (a terminal). */
static void renderers(void **state)
{
	json_t *l = json_array();
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	nb_summary_add(l, "decision", "info", "raid10 over raidz1 for sequential "
		       "reads: %.1fx", 3.1);
	nb_summary_add(l, "accept", "fail", "acceptance of a.json: FAIL <x>");
	nb_summary_short(l, "acceptance of a.json: FAIL, 1 of 1: mb_s > 9 <x>");
	nb_summary_fold(l, "detail", "info", "sequential reads (seq512k-read) on "
			"NFS: raid10 72.1 vs raidz1 23.0 MB/s");
	f = open_memstream(&buf, &len);
	nb_summary_markdown(f, l);
	fclose(f);
	assert_string_equal(buf, "## Summary\n\n- raid10 over raidz1 for sequential "
			    "reads: 3.1x\n- **FAIL:** acceptance of a.json: FAIL \\<x\\>\n\n"
			    "<details><summary>Detail: 1 comparison per workload and "
			    "target, 1 warning in full</summary>\n\n"
			    "- **FAIL:** acceptance of a.json: FAIL, 1 of 1: mb\\_s \\> 9 "
			    "\\<x\\>\n"
			    "- sequential reads (seq512k-read) on NFS: raid10 72.1 vs "
			    "raidz1 23.0 MB/s\n\n</details>\n\n");
	free(buf);
	f = open_memstream(&buf, &len);
	nb_summary_html(f, l);
	fclose(f);
	assert_non_null(strstr(buf, "<section id=\"summary\">\n<h2>Summary</h2>\n"
			       "<ul class=\"decisions\">\n<li class=\"info\">raid10 "
			       "over raidz1 for sequential reads: 3.1x</li>\n</ul>\n"
			       "<ul class=\"notes\">\n<li class=\"fail\"><strong>FAIL:"
			       "</strong> acceptance of a.json: FAIL &lt;x&gt;</li>\n</ul>\n"
			       "<details><summary>Detail: "));
	assert_true(strstr(buf, "seq512k-read) on NFS") > strstr(buf, "<details>"));
	free(buf);
	f = open_memstream(&buf, &len);
	nb_summary_text(f, l);
	fclose(f);
	assert_string_equal(buf, "decisions\n  raid10 over raidz1 for sequential "
			    "reads: 3.1x\n  FAIL: acceptance of a.json: FAIL <x>\n");
	free(buf);
	/* a label's control characters do not reach the terminal */
	json_decref(l);
	l = json_array();
	nb_summary_add(l, "decision", "info", "la\033[2Jyout: %s", "x");
	f = open_memstream(&buf, &len);
	nb_summary_text(f, l);
	fclose(f);
	assert_string_equal(buf, "decisions\n  la\\x1b[2Jyout: x\n");
	free(buf);
	json_decref(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lab_demo),
		cmocka_unit_test(marked_figures),
		cmocka_unit_test(nothing_decided),
		cmocka_unit_test(seed2_bands),
		cmocka_unit_test(capacity_failure_replay),
		cmocka_unit_test(doubts_and_verdicts),
		cmocka_unit_test(capacity_and_telemetry),
		cmocka_unit_test(renderers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
