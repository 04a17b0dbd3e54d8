/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_boxfile.c - what 'nasbench init' writes from what a box says: a
 * pool's layout and disks read from 'zpool status' as zfs-fuse (the lab),
 * OpenZFS and FreeBSD print it (tests/golden/telemetry), and the box file
 * for each question.
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
#include "../../boxfile/boxfile.h"

#define G "tests/golden/telemetry/"

static void layout_of(const char *file, const char *pool, const char *want,
		      int disks, int logs)
{
	static struct nb_tp_pools ps;
	char *t = test_slurp(file), layout[32];
	int d, l;

	memset(&ps, 0, sizeof(ps));
	nb_tp_zpool_status(t, &ps);
	free(t);
	assert_non_null(nb_tp_pool_find(&ps, pool));
	nb_probe_pool_layout(nb_tp_pool_find(&ps, pool), layout, sizeof(layout),
			     &d, &l);
	assert_string_equal(layout, want);
	assert_int_equal(d, disks);
	assert_int_equal(l, logs);
}

static void pool_layouts(void **state)
{
	(void)state;
	/* the lab's raidz1 of 5, one disk offline and replaced */
	layout_of(G "zfsfuse-status-degraded", "nblab", "raidz1", 5, 0);
	/* a disk being replaced (replacing-2 holds two) counts once; a log
	 * and a spare are not data disks */
	layout_of(G "openzfs-status-resilver", "tank", "raidz1", 5, 2);
	layout_of(G "openzfs22-status-resilver", "tank", "raid10", 4, 0);
	layout_of(G "freebsd-zpool-status-resilver", "tank", "raidz1", 4, 0);
	layout_of(G "freebsd-zpool-status-resilver", "zroot", "single", 1, 0);
}

static char *written(const char *question, const struct nb_probe_box *b,
		     const struct nb_probe_target *t, int n, int *used)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*used = nb_boxfile_write(f, "box.ini", "n40l", nb_question_find(question),
				 b, t, n);
	fclose(f);
	return buf;
}

static void box_file(void **state)
{
	struct nb_target_cfg c[2] = { { .name = "nfs" }, { .name = "lun" } };
	struct nb_probe_target t[2] = {
		{ .cfg = &c[0], .state = NB_PROBE_OK, .desc = "nfs://nas/tank/vm",
		  .runner = "nfs", .avail = 1ull << 40 },
		{ .cfg = &c[1], .state = NB_PROBE_HOLDS_DATA,
		  .desc = "iscsi://nas/iqn.x:vm/0", .runner = "iscsi", .block = 1,
		  .holds = "a GPT partition table (a VMFS partition)" },
	};
	struct nb_probe_box b = { .monitor = "ssh://root@nas", .reached = 1,
				  .os = "freebsd", .ram = 16ull << 30, .npools = 1,
				  .pool = { "tank" }, .layout = { "2xraidz2" },
				  .disks = { 12 }, .logs = { 1 }, .state = { "ONLINE" } };
	int used;
	char *f;

	(void)state;
	assert_null(nb_question_find("bye"));
	f = written("buy", &b, t, 2, &used);
	assert_int_equal(used, 1);
	assert_non_null(strstr(f, "\n[target nfs]\n"));
	assert_non_null(strstr(f, "\nurl = nfs://nas/tank/vm\n"));
	assert_non_null(strstr(f, "; NOT USED: it holds a GPT partition table (a VMFS "
			       "partition); writing to it would destroy that,\n"));
	assert_non_null(strstr(f, "\n;[target lun]\n;url = iscsi://nas/iqn.x:vm/0\n"
			       ";destroy-data = yes\n"));
	assert_non_null(strstr(f, "\nmonitor = ssh://root@nas   ; reached: a freebsd box\n"));
	assert_non_null(strstr(f, "\nram = 16 GiB   ; its memory"));
	/* two raidz2 vdevs are not one of [box] layout's words: said, not set */
	assert_non_null(strstr(f, "\n; layout = raidz2   ; pool tank (ONLINE): 12 "
			       "disk(s) in 2 raidz2 vdevs\n"));
	assert_non_null(strstr(f, "\n[suite]\nsuite = io\niterations = 3\n"));
	assert_non_null(strstr(f, "\n[accept]\n"));
	free(f);
	f = written("tune", NULL, t, 1, &used);
	assert_non_null(strstr(f, "\nsuite = io\niterations = 5\n"));
	assert_null(strstr(f, "[accept]"));
	assert_null(strstr(f, "monitor"));
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pool_layouts),
		cmocka_unit_test(box_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
