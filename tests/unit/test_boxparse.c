/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_boxparse.c - boxparse/'s parsers on the recorded outputs capture's
 * and telemetry's tests read (tests/golden/capture/, telemetry/), and the
 * two features' figures derived from the same rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "../../boxparse/diskstats.h"
#include "../../boxparse/zpool.h"
#include "../../capture/parse.h"
#include "../../telemetry/telem_parse.h"
#include "../../telemetry/telem_pool.h"

#define GC "tests/golden/capture/"
#define GT "tests/golden/telemetry/"

/* The row of NAME in TEXT, or fails (its name is not good after). */
static struct nb_bp_dsrow ds_row(const char *text, const char *name)
{
	struct nb_bp_ds ds;
	struct nb_bp_dsrow r;

	nb_bp_ds_open(&ds, text);
	while (nb_bp_ds_next(&ds, &r))
		if (!strcmp(r.name, name))
			return r;
	fail_msg("no row '%s'", name);
	return r;
}

static int ds_rows(const char *text)
{
	struct nb_bp_ds ds;
	struct nb_bp_dsrow r;
	int n = 0;

	nb_bp_ds_open(&ds, text);
	while (nb_bp_ds_next(&ds, &r))
		n++;
	return n;
}

/* The recorded /proc/diskstats: every device a row, its counters raw;
 * capture's devices and telemetry's disks are those rows. */
static void diskstats_recorded(void **state)
{
	char *t = test_slurp(GT "linux-diskstats.2");
	char *c = test_slurp(GC "linux-answer.1");
	static struct nb_cp_devs cp;
	struct nb_tp_disks tp;
	struct nb_bp_dsrow r;
	const struct nb_cp_dev *k;
	const struct nb_tp_disk *d;

	(void)state;
	/* "   7       4 loop4 671 0 51328 467 7282 529 457264 7266 0 3160 9403 ..." */
	r = ds_row(t, "loop4");
	assert_int_equal(r.bad, 0);
	assert_int_equal(r.v[NB_BP_DS_READS], 671);
	assert_int_equal(r.v[NB_BP_DS_RSECTORS], 51328);
	assert_int_equal(r.v[NB_BP_DS_WRITES], 7282);
	assert_int_equal(r.v[NB_BP_DS_WMERGED], 529);
	assert_int_equal(r.v[NB_BP_DS_WSECTORS], 457264);
	assert_int_equal(r.v[NB_BP_DS_IOMS], 3160);
	assert_int_equal(r.v[NB_BP_DS_WEIGHTED], 9403);
	/* capture keeps every row, telemetry the whole disks that did I/O */
	assert_int_equal(nb_cp_diskstats(t, &cp), ds_rows(t));
	assert_true(nb_tp_linux_diskstats(t, &tp) < ds_rows(t));
	k = nb_cp_dev_find(&cp, "loop4");
	d = nb_tp_disk_find(&tp, "loop4");
	assert_non_null(k);
	assert_non_null(d);
	assert_true(k->reads == 671 && k->writes == 7282);
	assert_true(k->rbytes == 51328.0 * 512 && k->wbytes == 457264.0 * 512);
	assert_int_equal(d->ios, 671 + 7282);
	assert_int_equal(d->read_bytes, 51328ULL * 512);
	assert_int_equal(d->io_ms, 3160);

	/* capture's answer: "@t" and "@diskstats" are no rows */
	r = ds_row(c, "loop8");
	assert_int_equal(r.v[NB_BP_DS_READS], 9162);
	assert_int_equal(r.v[NB_BP_DS_RMERGED], 1);
	assert_int_equal(r.v[NB_BP_DS_RSECTORS], 147112);
	free(t);
	free(c);
}

/* What is no counter is said per counter; what is no row is passed over. */
static void diskstats_hostile(void **state)
{
	char text[3000];
	struct nb_bp_dsrow r;

	(void)state;
	r = ds_row("   8 0 sda 10 x 80 1 5 0 40 1 0 1e30 2\n", "sda");
	assert_int_equal(r.bad, NB_BP_DS_BIT(NB_BP_DS_RMERGED) | NB_BP_DS_BIT(NB_BP_DS_IOMS));
	assert_int_equal(r.v[NB_BP_DS_RMERGED], 0);
	assert_int_equal(r.v[NB_BP_DS_READS], 10);
	r = ds_row("   8 0 sda 18446744073709551616 0 80 1 5 0 40 1 0 7 2\n", "sda");
	assert_int_equal(r.bad, NB_BP_DS_BIT(NB_BP_DS_READS));
	/* too few words, a major or minor not digits, a line cut */
	snprintf(text, sizeof(text),
		 "   8 0 sda 10 0 80 1 5 0 40 1 0 7\n"
		 "   x 0 sdb 10 0 80 1 5 0 40 1 0 7 2\n"
		 "   8 x sdc 10 0 80 1 5 0 40 1 0 7 2\n"
		 "   8 0 sdz 10 0 80 1 5 0 40 1 0 7 2 %01990d\r\n"
		 "   8 16 caf\xe9 1 0 8 1 1 0 4 1 0 3 2\r\n", 0);
	assert_int_equal(ds_rows(text), 1);
	r = ds_row(text, "caf\xe9");
	assert_int_equal(r.v[NB_BP_DS_WEIGHTED], 2);
}

/* The kinds of the rows of TEXT, a letter a row (R report, P pool, C
 * class, V vdev, D disk) into OUT. */
static void zp_kinds(const char *text, char *out, size_t len)
{
	struct nb_bp_zp z;
	struct nb_bp_zrow r;
	size_t n = 0;

	nb_bp_zp_open(&z, text);
	while (nb_bp_zp_next(&z, &r) && n + 1 < len)
		out[n++] = "RPCVD"[r.kind];
	out[n] = 0;
}

/* The recorded 'zpool iostat -v': its rows and their figures; capture's
 * pool and telemetry's vdevs are those rows. */
static void zpool_recorded(void **state)
{
	char *bsd = test_slurp(GT "freebsd-zpool-iostat-v");
	char *fuse = test_slurp(GC "zfsfuse-zpool-iostat-v");
	static struct nb_cp_pools cp;
	struct nb_tp_vdevs tp;
	struct nb_bp_zp z;
	struct nb_bp_zrow r;
	char kinds[64];

	(void)state;
	zp_kinds(bsd, kinds, sizeof(kinds));
	assert_string_equal(kinds, "RPVDDDVDDCV");
	/* "tank        1.21T  9.67T    612  1.05K  76.5M   131M" */
	nb_bp_zp_open(&z, bsd);
	assert_true(nb_bp_zp_next(&z, &r) && r.kind == NB_BP_Z_REPORT);
	assert_true(nb_bp_zp_next(&z, &r) && r.kind == NB_BP_Z_POOL);
	assert_string_equal(r.name, "tank");
	assert_true(r.headed && r.words == 7);
	assert_true(r.fig[NB_BP_Z_ROPS] == 612);
	assert_true(r.fig[NB_BP_Z_WOPS] == 1.05 * 1024);
	assert_true(r.fig[NB_BP_Z_RBW] == 76.5 * 1024 * 1024);
	assert_true(r.fig[NB_BP_Z_WBW] == 131.0 * 1024 * 1024);
	assert_true(nb_bp_zp_next(&z, &r) && r.kind == NB_BP_Z_VDEV);
	assert_string_equal(r.name, "raidz1-0");
	assert_true(r.fig[NB_BP_Z_ROPS] == 306 && r.fig[NB_BP_Z_WOPS] == 538);
	assert_true(nb_bp_zp_next(&z, &r) && r.kind == NB_BP_Z_DISK);
	assert_true(r.fig[NB_BP_Z_ALLOC] == 0);          /* "-" */
	assert_int_equal(nb_cp_zpool(bsd, &cp), 1);
	assert_true(cp.p[0].rops == 612 && cp.p[0].wbw == 131.0 * 1024 * 1024);
	assert_int_equal(nb_tp_zpool_iostat(bsd, &tp), 3);
	assert_true(tp.v[0].ops_read == 306 && tp.v[0].ops_write == 538);
	assert_int_equal(tp.v[0].ndisks, 3);
	assert_true(tp.v[2].special);

	/* zfs-fuse, two reports: the last counts */
	zp_kinds(fuse, kinds, sizeof(kinds));
	assert_string_equal(kinds, "RPVDDDDDRPVDDDDD");
	assert_int_equal(nb_cp_zpool(fuse, &cp), 1);
	assert_true(cp.p[0].rops == 0 && cp.p[0].wops == 0);
	assert_int_equal(nb_tp_zpool_iostat(fuse, &tp), 1);
	assert_int_equal(tp.v[0].ndisks, 5);
	free(bsd);
	free(fuse);
}

static void zpool_figures(void **state)
{
	(void)state;
	assert_true(nb_bp_zsize("-") == 0);
	assert_true(nb_bp_zsize("1.5K") == 1536);
	assert_true(nb_bp_zsize("2E") == 2.0 * 1024 * 1024 * 1024 * 1024 * 1024 * 1024);
	assert_true(nb_bp_zsize("17E") == -1);       /* past 2^64 */
	assert_true(nb_bp_zsize("inf") == -1);
	assert_true(nb_bp_zsize("1e999") == -1);
	assert_true(nb_bp_zsize("x") == -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(diskstats_recorded),
		cmocka_unit_test(diskstats_hostile),
		cmocka_unit_test(zpool_recorded),
		cmocka_unit_test(zpool_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
