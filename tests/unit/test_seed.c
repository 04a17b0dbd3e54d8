/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seed workloads' pure logic: syncprobe's verdict, suite items and
 * estimates, which runners can serve them, and the block checksum that
 * bigfile's verify trusts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/datagen.h"
#include "../../core/err.h"
#include "../../workloads/seed/seed.h"

static void verdict(void **state)
{
	struct nb_sync_verdict v;

	(void)state;
	/* tmpfs: sync as cheap as a round trip */
	nb_syncprobe_judge(NULL, NULL, 7, 6, 6, &v);
	assert_false(v.durable);
	/* ratio above K but only 4 us more: no medium commits that fast */
	nb_syncprobe_judge(NULL, NULL, 6, 2, 3, &v);
	assert_true(v.cost >= v.k);
	assert_false(v.durable);
	/* this machine's disk: 157 us vs 49 us */
	nb_syncprobe_judge(NULL, NULL, 157, 49, 49, &v);
	assert_true(v.durable);
	assert_true(v.baseline_us == 49);
	/* the same figures from a box declared rotational without a slog */
	nb_syncprobe_judge("hdd", "none", 157, 49, 49, &v);
	assert_false(v.durable);
	assert_true(v.floor_us == 2000);
	/* ... with a slog the floor goes and K is 1.2 */
	nb_syncprobe_judge("hdd", "Intel DC S3700", 157, 49, 49, &v);
	assert_true(v.durable);
	assert_true(v.floor_us == 0 && v.k == 1.2);
	/* a write-through LUN: async as slow as sync, reads cached */
	nb_syncprobe_judge(NULL, NULL, 900, 880, 120, &v);
	assert_true(v.durable);
	assert_true(v.baseline_us == 120);
	/* NFS on a sync=disabled dataset: FILE_SYNC costs what UNSTABLE does */
	nb_syncprobe_judge("ssd", NULL, 210, 200, 190, &v);
	assert_false(v.durable);
	/* a sync LUN behind a busy tgtd: reads 400 us, a flush +160 us */
	nb_syncprobe_judge(NULL, NULL, 560, 700, 400, &v);
	assert_true(v.cost < v.k);
	assert_true(v.durable);
	/* ... and its tmpfs LUN: sync no dearer than the round trips */
	nb_syncprobe_judge(NULL, NULL, 46, 338, 457, &v);
	assert_false(v.durable);
	/* ganesha on tmpfs: FILE_SYNC 9 us of bookkeeping over 35 us */
	nb_syncprobe_judge(NULL, NULL, 44, 35, 36, &v);
	assert_false(v.durable);
	/* nvme floor */
	nb_syncprobe_judge("nvme", NULL, 8, 2, 2, &v);
	assert_false(v.durable);
	assert_true(v.floor_us == 10);
}

static void decide(void **state)
{
	struct nb_sync_verdict v;

	(void)state;
	/* a clear median decides (this machine's disk: the fastest tenth
	 * shows the flush too) */
	assert_int_equal(nb_syncprobe_decide(NULL, NULL, (double[3]){ 157, 49, 49 },
					     (double[3]){ 140, 45, 45 }, &v), 50);
	assert_true(v.durable);
	assert_false(v.unshifted);
	/* a tmpfs LUN whose latency flips between two modes (65 or 170 us,
	 * a server thread on this CPU or the other) with the median of sync
	 * writes in the slow one: a 105 us gap at p50, none at p10 */
	assert_int_equal(nb_syncprobe_decide(NULL, NULL, (double[3]){ 171, 66, 65 },
					     (double[3]){ 60, 59, 57 }, &v), 50);
	assert_false(v.durable);
	assert_true(v.unshifted);
	assert_true(v.p10_gap_us == 3);
	nb_syncprobe_judge(NULL, NULL, 171, 66, 65, &v);
	assert_true(v.durable);     /* what the medians alone would say */
	/* a sync LUN behind a busy tgtd: +60 us at the median (ratio 1.07),
	 * the fastest tenth shows the flush (300 vs 150 us) */
	assert_int_equal(nb_syncprobe_decide(NULL, NULL, (double[3]){ 620, 700, 560 },
					     (double[3]){ 300, 280, 150 }, &v), 10);
	assert_true(v.durable);
	assert_true(v.baseline_us == 150);
	/* a tmpfs LUN with jitter: the same cost at the median, a 25 us gap
	 * and a 1.55 ratio at p10 from a small sample: not durable */
	assert_int_equal(nb_syncprobe_decide(NULL, NULL, (double[3]){ 80, 80, 82 },
					     (double[3]){ 70, 45, 48 }, &v), 50);
	assert_false(v.durable);
	nb_syncprobe_judge(NULL, NULL, 70, 45, 48, &v);
	assert_true(v.durable);     /* what p10 alone would have said */
	/* the median gap is there but p10 shows no commit either */
	assert_int_equal(nb_syncprobe_decide(NULL, NULL, (double[3]){ 230, 200, 205 },
					     (double[3]){ 50, 45, 48 }, &v), 50);
	assert_false(v.durable);
}

static enum nb_sync_class classify(const double w[3], const double a[3],
				   const double b[3], uint64_t ios, int *pct)
{
	double p50[3][3], p10[3][3];
	struct nb_sync_verdict v;

	for (int i = 0; i < 3; i++) {
		p50[0][i] = p10[0][i] = w[i];
		p50[1][i] = p10[1][i] = a[i];
		p50[2][i] = p10[2][i] = b[i];
	}
	return nb_syncprobe_classify(NULL, NULL, (const double(*)[3])p50,
				     (const double(*)[3])p10, ios, &v, pct);
}

static void three_way(void **state)
{
	int pct;

	(void)state;
	/* a disk's flush in both halves: seen */
	assert_int_equal(classify((double[3]){ 157, 49, 49 }, (double[3]){ 150, 48, 49 },
				  (double[3]){ 160, 50, 49 }, 1000, &pct),
			 NB_SYNC_COST_SEEN);
	assert_int_equal(pct, 50);
	/* tmpfs: no half shows a cost */
	assert_int_equal(classify((double[3]){ 100, 101, 99 }, (double[3]){ 98, 99, 97 },
				  (double[3]){ 102, 103, 101 }, 1000, &pct),
			 NB_SYNC_NO_COST);
	/* a cost in the first half only (the box got busy, or calm): the
	 * whole probe says seen, the halves disagree: inconclusive */
	assert_int_equal(classify((double[3]){ 140, 90, 90 }, (double[3]){ 190, 90, 90 },
				  (double[3]){ 95, 90, 90 }, 1000, &pct),
			 NB_SYNC_INCONCLUSIVE);
	/* ... and a whole probe without one but a half with it */
	assert_int_equal(classify((double[3]){ 100, 95, 95 }, (double[3]){ 100, 95, 95 },
				  (double[3]){ 160, 95, 95 }, 1000, &pct),
			 NB_SYNC_INCONCLUSIVE);
	/* a clear cost from too few writes */
	assert_int_equal(classify((double[3]){ 157, 49, 49 }, (double[3]){ 157, 49, 49 },
				  (double[3]){ 157, 49, 49 }, NB_SYNCPROBE_MIN_IOS - 1,
				  &pct),
			 NB_SYNC_INCONCLUSIVE);
	assert_string_equal(nb_sync_class_names[NB_SYNC_INCONCLUSIVE], "inconclusive");
	assert_string_equal(nb_sync_class_names[NB_SYNC_NO_COST], "no-commit-cost");
	assert_string_equal(nb_sync_class_names[NB_SYNC_COST_SEEN], "commit-cost-seen");
	assert_string_equal(nb_sync_class_names[NB_SYNC_NOT_PROVEN], "cost-below-media");
	/* what a durable verdict needs beyond a commit: stable media's cost
	 * (a disk turning, flash programming a page), or plp = yes */
	assert_true(nb_syncprobe_media_floor("hdd", "none", 0) == NB_SYNC_DISK_COMMIT_US);
	assert_true(nb_syncprobe_media_floor("hdd", "Intel DC S3700", 0) ==
		    NB_SYNC_FLASH_COMMIT_US);
	assert_true(nb_syncprobe_media_floor(NULL, NULL, 0) == NB_SYNC_FLASH_COMMIT_US);
	assert_true(nb_syncprobe_media_floor("nvme", NULL, 0) == NB_SYNC_FLASH_COMMIT_US);
	assert_true(nb_syncprobe_media_floor("nvme", NULL, 1) < 50);
}

static void items(void **state)
{
	char name[64];
	int it;

	(void)state;
	assert_int_equal(nb_suite_item("bonnie*5", name, sizeof(name), &it), 0);
	assert_string_equal(name, "bonnie");
	assert_int_equal(it, 5);
	assert_int_equal(nb_suite_item("xz", name, sizeof(name), &it), 0);
	assert_string_equal(name, "xz");
	assert_int_equal(it, 0);
	assert_int_equal(nb_suite_item("bonnie*0", name, sizeof(name), &it), -EINVAL);
	assert_string_equal(nb_err_last(), "workload item 'bonnie*0': expected "
			    "NAME*N with N from 1 to 1000");
	assert_int_equal(nb_suite_item("bonnie*x", name, sizeof(name), &it), -EINVAL);
	assert_int_equal(nb_suite_item("*3", name, sizeof(name), &it), -EINVAL);
}

static void estimates(void **state)
{
	struct nb_params p = NB_PARAMS_INIT;
	struct nb_estimate e;
	char buf[32];

	(void)state;
	p.size = 1000000000ULL;
	nb_estimate_workload(nb_workload_find("bigfile"), &p, &e);
	assert_true(e.written == 1000000000ULL);
	assert_true(e.seconds > 9.9 && e.seconds < 10.1);
	p.verify = 1;
	nb_estimate_workload(nb_workload_find("bigfile"), &p, &e);
	assert_true(e.seconds > 19.9 && e.seconds < 20.1);
	/* bonnie: put_block and rewrite write the file, put_char 3 MiB */
	nb_estimate_workload(nb_workload_find("bonnie"), &p, &e);
	assert_true(e.written == 2000000000ULL + (3 << 20));
	p.fast = 1;
	nb_estimate_workload(nb_workload_find("bonnie"), &p, &e);
	assert_true(e.written == 2000000000ULL);
	/* xz: size at ~3 MB/s, or the runtime when shorter */
	nb_estimate_workload(nb_workload_find("xz"), &p, &e);
	assert_true(e.seconds > 333 && e.seconds < 334 && e.written == 0);
	p.runtime_us = 30000000;
	nb_estimate_workload(nb_workload_find("xz"), &p, &e);
	assert_true(e.seconds == 30);
	assert_string_equal(nb_estimate_fmt_secs(59.6, buf, sizeof(buf)), "~60s");
	assert_string_equal(nb_estimate_fmt_secs(600, buf, sizeof(buf)), "~10m");
	assert_string_equal(nb_estimate_fmt_secs(3 * 3600 + 25 * 60, buf, sizeof(buf)),
			    "~3h25m");
}

static const struct nb_runner_ops fake = { .name = "fake" };

static void unsupported(void **state)
{
	struct nb_target t = { .ops = &fake };
	char why[256];

	(void)state;
	/* a LUN: everything runs (bonnie only its block phases) */
	t.caps = NB_CAP_BLOCK | NB_CAP_ASYNC | NB_CAP_SYNC;
	assert_null(nb_workload_unsupported(nb_workload_find("bonnie"), &t, why,
					    sizeof(why)));
	assert_null(nb_workload_unsupported(nb_workload_find("syncprobe"), &t, why,
					    sizeof(why)));
	/* a runner without durable writes cannot probe them */
	t.caps = NB_CAP_FILES | NB_CAP_META | NB_CAP_ASYNC;
	assert_string_equal(nb_workload_unsupported(nb_workload_find("syncprobe"),
						    &t, why, sizeof(why)),
			    "the fake runner on this target has no durable (sync) "
			    "writes");
	assert_null(nb_workload_unsupported(nb_workload_find("xz"), &t, why,
					    sizeof(why)));
	/* neither files nor a block space: nothing to write to */
	t.caps = NB_CAP_ASYNC | NB_CAP_SYNC;
	assert_string_equal(nb_workload_unsupported(nb_workload_find("bigfile"),
						    &t, why, sizeof(why)),
			    "the fake runner on this target has no files and "
			    "directories");
}

/* bonnie on nfs:// and iscsi:// is refused, saying what to run instead;
 * elsewhere, and other workloads there, are not */
static void refused(void **state)
{
	const struct nb_workload *b = nb_workload_find("bonnie");
	char why[1024];

	(void)state;
	assert_non_null(nb_workload_refused(b, "nfs", why, sizeof(why)));
	assert_true(!strncmp(why, "bonnie is refused on nfs:// targets: ", 37));
	assert_non_null(strstr(why, "; instead, mount the export"));
	assert_non_null(nb_workload_refused(b, "iscsi", why, sizeof(why)));
	assert_true(!strncmp(why, "bonnie is refused on iscsi:// targets: ", 39));
	assert_non_null(strstr(why, "; instead, log in with iscsiadm"));
	assert_null(nb_workload_refused(b, "posix", why, sizeof(why)));
	assert_null(nb_workload_refused(nb_workload_find("seq512k-write"), "nfs",
					why, sizeof(why)));
	assert_null(nb_workload_refused(nb_workload_find("bigfile"), "iscsi",
					why, sizeof(why)));
}

/* every single-byte corruption anywhere in a block is seen */
static void checksum(void **state)
{
	static unsigned char b[4096], c[4096];

	(void)state;
	nb_block_fill(b, sizeof(b), 1 << 20, 99, 1);
	assert_int_equal(nb_block_check(b, sizeof(b), 1 << 20, 99, 1), NB_BLOCK_OK);
	for (size_t i = 0; i < sizeof(b); i++) {
		if (i < 8)
			continue;           /* the magic: FOREIGN, tested elsewhere */
		memcpy(c, b, sizeof(c));
		c[i] ^= 0xa5;
		assert_int_not_equal(nb_block_check(c, sizeof(c), 1 << 20, 99, 1),
				     NB_BLOCK_OK);
	}
	/* a block size that is not a multiple of 8 (the byte tail) */
	nb_block_fill(b, 4093, 0, 5, 2);
	assert_int_equal(nb_block_check(b, 4093, 0, 5, 2), NB_BLOCK_OK);
	b[4092] ^= 1;
	assert_int_equal(nb_block_check(b, 4093, 0, 5, 2), NB_BLOCK_CORRUPT);
}

/* How long the 4 KiB phase goes on: its runtime; past it while it has
 * fewer sync writes than can be judged (a box committing in 60 ms gave 49
 * in 3 s on a loaded disk), up to 4x the runtime; a short runtime on a
 * fast box never grows. */
static void probe_length(void **state)
{
	(void)state;
	assert_true(nb_syncprobe_more(0, 3000000, 0));
	assert_true(nb_syncprobe_more(2999999, 3000000, 5000));
	assert_false(nb_syncprobe_more(3000000, 3000000, 5000));
	assert_false(nb_syncprobe_more(3000000, 3000000, NB_SYNCPROBE_MIN_IOS));
	assert_true(nb_syncprobe_more(3000000, 3000000, 49));
	assert_true(nb_syncprobe_more(11999999, 3000000, NB_SYNCPROBE_MIN_IOS - 1));
	assert_false(nb_syncprobe_more(12000000, 3000000, NB_SYNCPROBE_MIN_IOS - 1));
	/* --runtime 0.001s: 4 ms at the most, then inconclusive */
	assert_false(nb_syncprobe_more(4000, 1000, 10));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verdict),
		cmocka_unit_test(decide), cmocka_unit_test(three_way),
		cmocka_unit_test(probe_length),
		cmocka_unit_test(items),
		cmocka_unit_test(estimates), cmocka_unit_test(unsupported),
		cmocka_unit_test(checksum), cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
