/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_capture.c - a box's answers into buckets and figures (capture/acc.c,
 * capture/derive.c) on made-up answers whose figures are known: spans that
 * straddle buckets, rates of a tool, a counter that went back, the
 * busiest-hour level, the peak, burstiness, the sequential share from
 * merges or assumed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../capture/capture_int.h"
#include "../../loadfile/loadfile.h"

#define NEAR(x, want, tol) assert_true(fabs((x) - (want)) <= (tol))

/* Two devices: "a" merges requests (a loop device), "b" does not (an LV). */
static struct cp_box *box(void)
{
	struct cp_box *b = calloc(1, sizeof(*b));

	assert_non_null(b);
	b->nsel = 2;
	strcpy(b->sel[0].name, "loop0");
	strcpy(b->sel[0].vm, "loop0");
	b->sel[0].merges = 1;
	b->sel[0].size = 3ULL << 30;
	strcpy(b->sel[1].name, "dm-1");
	strcpy(b->sel[1].vm, "vg0/vm01");
	b->sel[1].size = 1ULL << 30;
	return b;
}

/* Totals at T of "a": 7 reads (1 of them merged) and 3 writes a second,
 * 8 KiB reads, 4 KiB writes; of "b": 20 I/Os a second (all writes of
 * 16 KiB), 60 in [30, 40). */
static void totals(struct cp_answer *ans, double t)
{
	struct nb_cp_devs *d = &ans->devs;
	double b = 20 * t + (t > 30 ? 40 * (fmin(t, 40) - 30) : 0);

	memset(ans, 0, sizeof(*ans));
	ans->t = t;
	ans->have_devs = 1;
	d->totals = 1;
	d->n = 3;
	strcpy(d->d[0].name, "sda");
	strcpy(d->d[1].name, "loop0");
	d->d[1].reads = 6 * t, d->d[1].rmerged = 1 * t;
	d->d[1].writes = 3 * t, d->d[1].wmerged = 0;
	d->d[1].rbytes = 7 * t * 8192, d->d[1].wbytes = 3 * t * 4096;
	strcpy(d->d[2].name, "dm-1");
	d->d[2].writes = b, d->d[2].wbytes = b * 16384;
	d->d[2].rmerged = d->d[2].wmerged = 0;
}

static struct nb_capture_cfg cfg(void)
{
	struct nb_capture_cfg c = { .interval_us = 1000000, .bucket_us = 10000000,
				    .for_us = 60000000, .busy_pct = 95,
				    .sequential = -1 };
	return c;
}

/* Answers at uneven times (spans straddle buckets; b's rate changes at
 * answers, or its change would be spread over the span), figures. */
static void buckets_and_figures(void **state)
{
	static const double at[] = { 0, 7, 19, 26, 30, 33, 40, 47, 53, 60, 61 };
	struct cp_box *b = box();
	struct cp_acc a;
	struct cp_answer *ans = malloc(sizeof(*ans));
	struct nb_capture_cfg c = cfg();
	struct nb_load l;
	const struct nb_load_vm *x, *y;

	(void)state;
	assert_int_equal(cp_acc_init(&a, b, 6, 10), 0);
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		totals(ans, at[i]);
		cp_acc_add(&a, b, CP_COUNTERS, ans, at[i], 1);
		assert_int_equal(cp_acc_whole(&a, 0), at[i] >= 10);
	}
	for (int k = 0; k < 6; k++)
		assert_true(cp_acc_whole(&a, k));
	assert_false(cp_acc_whole(&a, 6));
	nb_load_init(&l);
	assert_int_equal(cp_derive(&l, &a, b, &c, 6), 0);
	assert_int_equal(l.nvms, 2);
	x = &l.vms[0];
	y = &l.vms[1];
	/* a: 10 I/Os a second issued (a merged read was one), 70% reads */
	for (int k = 0; k < 6; k++) {
		NEAR(x->series[k].r_iops, 7, 1e-9);
		NEAR(x->series[k].w_iops, 3, 1e-9);
		NEAR(x->series[k].r_mbps, 7 * 8192 / 1e6, 1e-9);
		NEAR(x->series[k].seq, 10, 1e-9);
	}
	NEAR(x->f.iops_mean, 10, 1e-9);
	NEAR(x->f.iops, 10, 1e-9);
	NEAR(x->f.read, 70, 1e-9);
	NEAR(x->f.bs_read, 8192, 1e-6);
	NEAR(x->f.bs_write, 4096, 1e-6);
	NEAR(x->sequential, 10, 1e-9);
	assert_int_equal(x->seq_from, NB_SEQ_MERGES);
	NEAR(x->share, 75, 1e-9);
	/* b: 20 a second, 60 in bucket 3 */
	NEAR(y->series[3].w_iops, 60, 1e-9);
	NEAR(y->series[2].w_iops, 20, 1e-9);
	assert_true(y->series[3].seq < 0);   /* dm does not merge: unknown */
	NEAR(y->f.iops_mean, (20 * 50 + 60 * 10) / 60.0, 1e-9);
	NEAR(y->f.iops_peak, 60, 1e-9);
	assert_int_equal(y->f.peak_bucket, 3);
	/* p95 of 20 20 20 20 20 60: 20 + 0.75 * 40 */
	NEAR(y->f.iops, 50, 1e-9);
	NEAR(y->f.burstiness, 60 / ((20 * 50 + 60 * 10) / 60.0), 1e-9);
	NEAR(y->f.read, 0, 1e-9);
	NEAR(y->f.bs_write, 16384, 1e-6);
	/* assumed: the [vm] profile's 80% random */
	NEAR(y->sequential, 20, 1e-9);
	assert_int_equal(y->seq_from, NB_SEQ_ASSUMED);
	/* the total: bucket by bucket */
	NEAR(l.total.iops_peak, 70, 1e-9);
	assert_int_equal(l.total.peak_bucket, 3);
	NEAR(l.total.iops_mean, 10 + (20 * 50 + 60 * 10) / 60.0, 1e-9);
	assert_int_equal(l.buckets, 6);
	NEAR(l.duration_s, 60, 1e-9);
	nb_load_free(&l);
	cp_acc_free(&a);
	free(ans);
	free(b);
}

/* A tool's rates (gstat): each report the interval before it; a counter
 * that went back (a device made anew) is left out, not a negative rate. */
static void rates_and_resets(void **state)
{
	struct cp_box *b = box();
	struct cp_acc a;
	struct cp_answer *ans = calloc(1, sizeof(*ans));
	struct nb_capture_cfg c = cfg();
	struct nb_load l;

	(void)state;
	c.sequential = 35;
	assert_int_equal(cp_acc_init(&a, b, 3, 10), 0);
	for (int t = 5; t <= 30; t += 5) {
		struct nb_cp_devs *d = &ans->devs;

		memset(ans, 0, sizeof(*ans));
		ans->have_devs = 1;
		d->dt = 5;
		d->n = 2;
		strcpy(d->d[0].name, "loop0");
		d->d[0].reads = 100, d->d[0].rbytes = 100 * 4096.0;
		d->d[0].rmerged = d->d[0].wmerged = -1;
		strcpy(d->d[1].name, "dm-1");
		d->d[1].writes = t <= 10 ? 10 : 30, d->d[1].wbytes = d->d[1].writes * 512;
		cp_acc_add(&a, b, CP_COUNTERS, ans, t, 5);
	}
	nb_load_init(&l);
	assert_int_equal(cp_derive(&l, &a, b, &c, 3), 0);
	NEAR(l.vms[0].f.iops_mean, 100, 1e-9);
	NEAR(l.vms[0].f.bs_read, 4096, 1e-9);
	NEAR(l.vms[1].series[0].w_iops, 10, 1e-9);
	NEAR(l.vms[1].series[1].w_iops, 30, 1e-9);
	NEAR(l.vms[1].sequential, 35, 1e-9);          /* --sequential */
	nb_load_free(&l);
	cp_acc_free(&a);

	/* totals: loop0 made anew at t = 20 */
	assert_int_equal(cp_acc_init(&a, b, 3, 10), 0);
	for (int t = 0; t <= 30; t += 5) {
		totals(ans, t);
		if (t >= 20)
			ans->devs.d[1].reads = ans->devs.d[1].writes = 6 * (t - 20);
		cp_acc_add(&a, b, CP_COUNTERS, ans, t, 5);
	}
	nb_load_init(&l);
	assert_int_equal(cp_derive(&l, &a, b, &c, 3), 0);
	/* the span 15-20 is lost: bucket 1 is the 5 s it saw */
	for (int k = 0; k < 3; k++)
		assert_true(l.vms[0].series[k].r_iops >= 0);
	NEAR(l.vms[0].series[2].r_iops, 6 + 1, 1e-9);   /* and 1 merged */
	nb_load_free(&l);
	cp_acc_free(&a);
	free(ans);
	free(b);
}

/* A hostile box's counters (issue 45): a jump of 2^50 reads in 5 s, a
 * device's counters that went back, a device refused by the parser, a
 * pool at 10^12 operations a second, the NFS counters gone back.  Each
 * span is left out (a gap, counted and said), the buckets' figures are
 * over the seconds they saw: never 10^14 IOPS, and the load file reads
 * back. */
static void gaps_not_rates(void **state)
{
	struct cp_box *b = box();
	struct cp_acc a;
	struct cp_answer *ans = calloc(1, sizeof(*ans));
	struct nb_capture_cfg c = cfg();
	struct nb_load l, back;
	char said[600], *text;

	(void)state;
	b->npools = 1;
	strcpy(b->pools[0], "tank");
	assert_int_equal(cp_acc_init(&a, b, 6, 10), 0);
	for (int t = 0; t <= 60; t += 5) {
		totals(ans, t);
		if (t >= 20)             /* loop0: 2^50 reads at once */
			ans->devs.d[1].reads += 1125899906842624.0;
		if (t >= 40)             /* dm-1 made anew */
			ans->devs.d[2].writes -= 20 * 40, ans->devs.d[2].wbytes = 0;
		if (t == 50) {           /* dm-1's line refused */
			ans->devs.n = 2;
			ans->devs.refused = 1;
			strcpy(ans->devs.refused_name, "dm-1");
		}
		ans->have_nfs = 1;
		/* the NFS server restarted at 30 s: its counters from 0 */
		ans->nfs.ops[NB_NFS_READ] = t < 30 ? 100 * t : 100 * (t - 30);
		ans->nfs.rbytes = ans->nfs.wbytes = -1;
		cp_acc_add(&a, b, CP_COUNTERS, ans, t, 5);
		memset(ans, 0, sizeof(*ans));
		ans->have_zpool = 1;
		ans->zpool.n = 1;
		strcpy(ans->zpool.p[0].name, "tank");
		ans->zpool.p[0].rops = t == 30 ? 1e12 : 100;
		cp_acc_add(&a, b, CP_ZPOOL, ans, t, 5);
	}
	cp_acc_gaps(&a, said, sizeof(said));
	assert_string_equal(said, "spans left out of the buckets (each bucket's "
		"figures are over the seconds it saw): counters that went back (a "
		"device made anew, the box restarted, a counter wrapped): 2; "
		"counters that moved beyond what a device can do: 2; values that "
		"were not numbers: 1; the first: device 'loop0'");
	nb_load_init(&l);
	assert_int_equal(cp_derive(&l, &a, b, &c, 6), 0);
	/* loop0: 6 reads, 1 merged, 3 writes a second in every bucket, the
	 * jump's span left out */
	for (int k = 0; k < 6; k++)
		NEAR(l.vms[0].series[k].r_iops + l.vms[0].series[k].w_iops, 10, 1e-6);
	NEAR(l.vms[0].f.iops_peak, 10, 1e-6);
	NEAR(l.nfs.ops_peak, 100, 1e-6);
	NEAR(l.pools[0].f.iops_peak, 100, 1e-6);
	for (int k = 0; k < 6; k++)
		assert_true(isfinite(l.vms[1].series[k].w_iops) &&
			    l.vms[1].series[k].w_iops <= 60);
	/* the file reads back, as nasbench's own reader reads it */
	text = nb_load_format(&l);
	assert_non_null(text);
	nb_load_init(&back);
	assert_int_equal(nb_load_parse(&back, text, "load.ini"), 0);
	free(text);
	nb_load_free(&back);
	nb_load_free(&l);
	cp_acc_free(&a);
	free(ans);
	free(b);
}

static void busy_need(void **state)
{
	(void)state;
	assert_int_equal(nb_load_busy_need(95), 20);
	assert_int_equal(nb_load_busy_need(99), 100);
	assert_int_equal(nb_load_busy_need(90), 10);
	assert_int_equal(nb_load_busy_need(100), 1);
}

/* The old box's data and cache (capture/zdata.c): zfs-fuse's ARC files
 * and its tools' tables, two pools weighted by what they use; an ARC
 * whose counters went back (a reload) gives no hit rate. */
static void data_and_arc(void **state)
{
	struct cp_box *b = box();
	struct cp_zdata z0, z1;
	struct nb_load l;
	char t0[] = "@arc-kstat\n@arc-kv\nhits 1000\nmisses 1000\nsize 100\n"
		    "c_max 67108864\ndemand_data_hits 100\ndemand_data_misses 100\n"
		    "@zfs\n@dedup\n";
	char t1[] = "@arc-kstat\n@arc-kv\nhits 5000\nmisses 2000\nsize 60000000\n"
		    "c_max 67108864\ndemand_data_hits 1000\ndemand_data_misses 400\n"
		    "@zfs\ntank\tcompressratio\t2.00x\ntank\tused\t3000\n"
		    "fast\tcompressratio\t1.00x\nfast\tused\t1000\n"
		    "evil\tcompressratio\tnan\n"
		    "@dedup\nNAME  PROPERTY    VALUE  SOURCE\n"
		    "tank  dedupratio  1.50x  -\nfast  dedupratio  1.00x  -\n";
	char back[] = "@arc-kv\nhits 10\nmisses 10\ndemand_data_hits 1\n"
		      "demand_data_misses 1\n";

	(void)state;
	b->npools = 2;
	strcpy(b->pools[0], "tank");
	strcpy(b->pools[1], "fast");
	/* LVs and loop devices: their data is on no pool */
	assert_int_equal(cp_zdata_read(b, &z0), -ENOENT);
	/* no zvol picked, the box serves NFS: its pools hold the datastores */
	b->have_nfs = 1;
	memset(&z0, 0, sizeof(z0));
	memset(&z1, 0, sizeof(z1));
	cp_zdata_parse(b, t0, &z0);
	cp_zdata_parse(b, t1, &z1);
	assert_true(z1.arc.have);
	NEAR(z1.ratio[0], 2, 1e-12);
	NEAR(z1.used[1], 1000, 1e-9);
	nb_load_init(&l);
	cp_zdata_into(&l, b, &z0, &z1);
	assert_true(l.data.have);
	/* (3000 x 2 + 1000 x 1) / 4000: the data's bytes over the disks' */
	NEAR(l.data.compressratio, 1.75, 1e-12);
	NEAR(l.data.dedupratio, 1.375, 1e-12);
	/* demand reads: 900 hits, 300 misses */
	NEAR(l.data.arc_hit, 75, 1e-9);
	NEAR(l.data.arc_size, 60000000, 0.5);
	NEAR(l.data.arc_max, 67108864, 0.5);
	nb_load_free(&l);
	memset(&z0, 0, sizeof(z0));
	cp_zdata_parse(b, back, &z0);
	nb_load_init(&l);
	cp_zdata_into(&l, b, &z1, &z0);
	assert_true(isnan(l.data.arc_hit));
	nb_load_free(&l);
	/* a zvol of tank picked: tank's ratio alone */
	b->have_nfs = 0;
	strcpy(b->sel[1].name, "zd16");
	strcpy(b->sel[1].vm, "tank/vm01");
	nb_load_init(&l);
	cp_zdata_into(&l, b, &z0, &z1);
	NEAR(l.data.compressratio, 2, 1e-12);
	NEAR(l.data.dedupratio, 1.5, 1e-12);
	nb_load_free(&l);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(data_and_arc),
		cmocka_unit_test(buckets_and_figures),
		cmocka_unit_test(rates_and_resets),
		cmocka_unit_test(gaps_not_rates),
		cmocka_unit_test(busy_need),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
