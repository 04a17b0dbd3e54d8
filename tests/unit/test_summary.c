/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_summary.c - the decision summary on hand-made results in the
 * documented shapes (README's result, docs/result.md's steady state and crash
 * check): the winner of each question and by how much, before -> after,
 * acceptance, crash losses, not steady, doubtful figures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../decision/summary.h"

/* A result: LABELS (JSON text), the entries (JSON text of "results"). */
static json_t *doc(const char *labels, const char *results)
{
	char buf[8192];
	json_error_t e;
	json_t *d;

	snprintf(buf, sizeof(buf), "{\"schema\": 1, \"tool\": \"nasbench\", "
		 "\"complete\": true, \"labels\": %s, \"results\": %s}", labels,
		 results);
	d = json_loads(buf, 0, &e);
	if (!d)
		fail_msg("bad test JSON: %s: %s", e.text, buf);
	return d;
}

/* An entry of WORKLOAD on TARGET with bw_bytes B1, B2, B3 (MB/s). */
static void entry(char *out, size_t len, const char *workload, const char *target,
		  const char *rw, const char *sync, double b1, double b2, double b3)
{
	snprintf(out, len, "{\"target\": \"%s\", \"workload\": \"%s\", \"status\": "
		 "\"ok\", \"spec\": {\"pattern\": \"seq\", \"rw\": \"%s\", \"sync\": "
		 "\"%s\"}, \"warnings\": [], \"iterations\": ["
		 "{\"metrics\": {\"bw_bytes\": %g}}, {\"metrics\": {\"bw_bytes\": %g}}, "
		 "{\"metrics\": {\"bw_bytes\": %g}}]}", target, workload, rw, sync,
		 b1 * 1e6, b2 * 1e6, b3 * 1e6);
}

/* Line I's text, or "" past the end. */
static const char *line(const json_t *l, size_t i)
{
	return json_string_value(json_object_get(json_array_get(l, i), "text")) ?: "";
}

static int has(const json_t *l, const char *text)
{
	for (size_t i = 0; i < json_array_size(l); i++)
		if (strstr(line(l, i), text))
			return 1;
	return 0;
}

static void dump(const json_t *l)
{
	for (size_t i = 0; i < json_array_size(l); i++)
		print_message("  %s\n", line(l, i));
}

/* The lab's four: raidz1 / raid10 x SLOG or not; sync writes on NFS. */
static void four_configurations(void **state)
{
	static const char *lab[4][2] = { { "raidz1", "none" }, { "raidz1", "ssd" },
					 { "raid10", "none" }, { "raid10", "ssd" } };
	static const double sync_mbs[4] = { 20, 30, 40, 62 };
	json_t *docs[4], *l;
	const char *paths[4] = { "raidz1.json", "raidz1-slog.json", "raid10.json",
				 "raid10-slog.json" };
	char labels[256], e1[1024], e2[1024], results[2100];

	(void)state;
	for (int i = 0; i < 4; i++) {
		double s = sync_mbs[i];

		snprintf(labels, sizeof(labels), "{\"name\": \"lab-%s\", \"layout\": "
			 "\"%s\", \"slog\": \"%s\", \"disks\": \"%s\"}", lab[i][0],
			 lab[i][0], lab[i][1], i < 2 ? "5x2G" : "4x2G");
		entry(e1, sizeof(e1), "seq512k-write-sync", "lab-nfs", "write", "always",
		      s * 0.98, s, s * 1.02);
		entry(e2, sizeof(e2), "seq512k-read", "lab-nfs", "read", "none",
		      100, 101, 99);
		snprintf(results, sizeof(results), "[%s, %s]", e1, e2);
		docs[i] = doc(labels, results);
	}
	l = nb_summary_new(docs, paths, 4);
	dump(l);
	/* the best of the four, and by how much each other takes longer */
	assert_string_equal(line(l, 0), "sync writes (seq512k-write-sync), best "
			    "configuration: layout=raid10 slog=ssd wins with 62.0 MB/s; "
			    "the others take layout=raid10 slog=none 1.55x, layout=raidz1 "
			    "slog=ssd 2.07x, layout=raidz1 slog=none 3.10x the time");
	/* raid10 wins sync writes in both SLOG settings: 2.00x (40 vs 20)
	 * without, 2.07x (62 vs 30) with */
	assert_true(has(l, "sync writes (seq512k-write-sync), layout: raid10 wins by "
			"2.00x over raidz1 (40.0 vs 20.0 MB/s; 2 comparisons, 2.00x "
			"to 2.07x)"));
	assert_true(has(l, "sync writes (seq512k-write-sync), slog: ssd wins by "
			"1.50x over none (30.0 vs 20.0 MB/s; 2 comparisons, 1.50x to "
			"1.55x)"));
	/* reads: the same everywhere */
	assert_true(has(l, "sequential reads (seq512k-read), layout: raidz1 and "
			"raid10 about the same (within 5%: 100.0 vs 100.0 MB/s; 2 "
			"comparisons)"));
	/* name and disks describe the box: no question of their own */
	assert_false(has(l, ", name:"));
	assert_false(has(l, ", disks:"));
	assert_false(has(l, "low confidence"));
	json_decref(l);
	for (int i = 0; i < 4; i++)
		json_decref(docs[i]);
}

/* Two layouts whose runs spread wider than the 5% band: the difference
 * is within their noise, and the line says so ("within 23%"
 * read as a promise of 23%). */
static void within_the_noise(void **state)
{
	json_t *docs[2], *l;
	const char *paths[2] = { "raidz1.json", "raid10.json" };
	char e[1024], r[1100];

	(void)state;
	entry(e, sizeof(e), "seq512k-read", "nas", "read", "none", 100, 140, 70);
	snprintf(r, sizeof(r), "[%s]", e);
	docs[0] = doc("{\"layout\": \"raidz1\"}", r);
	entry(e, sizeof(e), "seq512k-read", "nas", "read", "none", 110, 150, 75);
	snprintf(r, sizeof(r), "[%s]", e);
	docs[1] = doc("{\"layout\": \"raid10\"}", r);
	l = nb_summary_new(docs, paths, 2);
	dump(l);
	/* 110 vs 100 is 10%; the runs spread 35% (100, 140, 70) */
	assert_true(has(l, "sequential reads (seq512k-read), layout: raid10 and "
			"raidz1 about the same (within the noise, ±35%: 110.0 vs "
			"100.0 MB/s)"));
	assert_false(has(l, "(within 35%"));
	json_decref(l);
	json_decref(docs[0]);
	json_decref(docs[1]);
}

/* Two results, nothing differs but the file: before -> after. */
static void before_after(void **state)
{
	json_t *docs[2], *l;
	const char *paths[2] = { "/x/before.json", "/x/after.json" };
	char e[1024], r[1100];

	(void)state;
	entry(e, sizeof(e), "seq512k-write", "nas", "write", "end", 100, 100, 100);
	snprintf(r, sizeof(r), "[%s]", e);
	docs[0] = doc("{}", r);
	entry(e, sizeof(e), "seq512k-write", "nas", "write", "end", 80, 80, 80);
	snprintf(r, sizeof(r), "[%s]", e);
	docs[1] = doc("{}", r);
	l = nb_summary_new(docs, paths, 2);
	dump(l);
	assert_string_equal(line(l, 0), "sequential writes (seq512k-write): before "
			    "-> after: 100.0 -> 80.0 MB/s (-20.0%, 1.25x the time)");
	assert_string_equal(json_string_value(json_object_get(json_array_get(l, 0),
							      "kind")), "change");
	json_decref(l);
	json_decref(docs[0]);
	json_decref(docs[1]);
}

/* One result on four targets: a ranking, the others as time factors. */
static void targets_ranked(void **state)
{
	json_t *docs[1], *l;
	const char *paths[1] = { "demo.json" };
	char e[4][1024], r[4200];
	static const char *t[4] = { "local", "nfs", "iscsi", "iscsi-sync" };
	static const double v[4] = { 900, 300, 450, 90 };

	(void)state;
	for (int i = 0; i < 4; i++)
		entry(e[i], sizeof(e[i]), "seq512k-write", t[i], "write", "end", v[i],
		      v[i], v[i]);
	snprintf(r, sizeof(r), "[%s, %s, %s, %s]", e[0], e[1], e[2], e[3]);
	docs[0] = doc("{\"name\": \"demo\"}", r);
	l = nb_summary_new(docs, paths, 1);
	dump(l);
	assert_string_equal(line(l, 0), "sequential writes (seq512k-write), target: "
			    "local wins with 900.0 MB/s; the others take iscsi 2.00x, "
			    "nfs 3.00x, iscsi-sync 10.00x the time");
	json_decref(l);
	json_decref(docs[0]);
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
	l = nb_summary_new(docs, paths, 1);
	dump(l);
	assert_true(has(l, "acceptance of box.json: FAIL, 1 of 2 criteria: "
			"seq512k-read@nfs mb_s >= 2000 (measured 1000 MB/s)"));
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
	l = nb_summary_new(docs, paths, 1);
	dump(l);
	assert_true(has(l, "capacity of vm on nfs (vm.json): 20.0 VMs (2001 IOPS) at "
			"mean <= 10 ms"));
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

/* The renderers: Markdown a list, HTML a section with an id, levels. */
static void renderers(void **state)
{
	json_t *l = json_array();
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	nb_summary_add(l, "winner", "info", "sync writes: raid10 wins by %.2fx", 2.0);
	nb_summary_add(l, "accept", "fail", "acceptance of a.json: FAIL, 1 of 1 <x>");
	f = open_memstream(&buf, &len);
	nb_summary_markdown(f, l);
	fclose(f);
	assert_string_equal(buf, "## Summary\n\n- sync writes: raid10 wins by 2.00x\n"
			    "- **FAIL:** acceptance of a.json: FAIL, 1 of 1 \\<x\\>\n\n");
	free(buf);
	f = open_memstream(&buf, &len);
	nb_summary_html(f, l);
	fclose(f);
	assert_non_null(strstr(buf, "<section id=\"summary\">"));
	assert_non_null(strstr(buf, "<li class=\"fail\"><strong>FAIL:</strong> "
			       "acceptance of a.json: FAIL, 1 of 1 &lt;x&gt;</li>"));
	free(buf);
	/* past 14 lines the undecided comparisons fold, the rest stays */
	{
		json_t *many = json_array();
		char *h = NULL;
		size_t hl = 0;
		FILE *hf;

		for (int i = 0; i < 12; i++)
			nb_summary_add(many, "winner", "info", "w%d: a wins by 2.00x", i);
		for (int i = 0; i < 3; i++)
			nb_summary_add(many, "winner", "info", "u%d: a and b about the "
				       "same (within 5%%: 1 vs 1 MB/s)", i);
		nb_summary_add(many, "warning", "warn", "low confidence");
		hf = open_memstream(&h, &hl);
		nb_summary_html(hf, many);
		fclose(hf);
		assert_non_null(strstr(h, "<details><summary>3 comparisons that decided "
				       "nothing (about the same, or no consistent "
				       "winner)</summary>"));
		assert_true(strstr(h, "low confidence") < strstr(h, "<details>"));
		assert_true(strstr(h, "u0: a and b") > strstr(h, "<details>"));
		free(h);
		json_decref(many);
	}
	f = open_memstream(&buf, &len);
	nb_summary_text(f, l);
	fclose(f);
	assert_string_equal(buf, "summary\n  sync writes: raid10 wins by 2.00x\n"
			    "  FAIL: acceptance of a.json: FAIL, 1 of 1 <x>\n\n");
	free(buf);
	json_decref(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(four_configurations),
		cmocka_unit_test(within_the_noise),
		cmocka_unit_test(before_after),
		cmocka_unit_test(targets_ranked),
		cmocka_unit_test(doubts_and_verdicts),
		cmocka_unit_test(capacity_and_telemetry),
		cmocka_unit_test(renderers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
