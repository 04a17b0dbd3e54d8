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
#include "../../capture/parse.h"
#include "../../telemetry/telem_parse.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(diskstats_recorded),
		cmocka_unit_test(diskstats_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
