/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_telem_parse.c - the telemetry parsers on recorded outputs of Linux
 * and zfs-fuse, and on FreeBSD's formats as its manuals give them
 * (tests/golden/telemetry/README says where each file came from).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "../../telemetry/telem_pool.h"
#include "../../telemetry/telem_rt.h"

#define G "tests/golden/telemetry/"

static void linux_stat(void **state)
{
	char *a = test_slurp(G "linux-stat.1"), *b = test_slurp(G "linux-stat.2");
	struct nb_tp_cpu x, y;

	(void)state;
	/* "cpu" (the sum) is not a CPU; cpu0 and cpu1 are */
	assert_int_equal(nb_tp_linux_stat(a, &x), 2);
	assert_int_equal(nb_tp_linux_stat(b, &y), 2);
	assert_int_equal(x.n, 2);
	/* cpu0: user 10109 system 7371 irq 426 busy; idle 20464, iowait 1327,
	 * steal 191 are not; guest columns are in user already */
	assert_int_equal(x.busy[0], 10109 + 7371 + 426);
	assert_int_equal(x.total[0], 10109 + 7371 + 20464 + 1327 + 426 + 191);
	/* one second later both cores were busy all the time (a loaded VM) */
	assert_int_equal(y.busy[1] - x.busy[1], y.total[1] - x.total[1]);
	assert_int_equal(y.total[1] - x.total[1], 92 + 32);
	free(a);
	free(b);
}

static void linux_meminfo_vmstat(void **state)
{
	char *m = test_slurp(G "linux-meminfo"), *v = test_slurp(G "linux-vmstat");
	struct nb_tp_mem mem = { 0 };

	(void)state;
	assert_int_equal(nb_tp_linux_meminfo(m, &mem), 5);
	assert_int_equal(mem.total, 24683664ULL * 1024);
	assert_int_equal(mem.avail, 23457296ULL * 1024);
	assert_int_equal(mem.cached, 1236488ULL * 1024);
	assert_true(mem.have_swap);
	assert_int_equal(mem.swap_total, 0);
	assert_int_equal(nb_tp_linux_vmstat(v, &mem), 2);
	assert_int_equal(mem.swap_out, 0);
	assert_int_equal(mem.page_size, 4096);
	/* swap in use: total - free */
	assert_int_equal(nb_tp_linux_meminfo("SwapTotal: 4194304 kB\n"
					     "SwapFree:  1048576 kB\n", &mem), 2);
	assert_int_equal(mem.swap_used, 3145728ULL * 1024);
	assert_int_equal(nb_tp_linux_vmstat("pswpin 12\npswpout 1003520\n", &mem), 2);
	assert_int_equal(mem.swap_out, 1003520);
	free(m);
	free(v);
}

static void linux_diskstats(void **state)
{
	char *a = test_slurp(G "linux-diskstats.1"), *b = test_slurp(G "linux-diskstats.2");
	struct nb_tp_disks x, y;
	const struct nb_tp_disk *d;

	(void)state;
	/* the lab's loop0-5 and vda; idle loop6, loop7 and zram0 left out */
	assert_int_equal(nb_tp_linux_diskstats(a, &x), 7);
	assert_null(nb_tp_disk_find(&x, "loop6"));
	assert_null(nb_tp_disk_find(&x, "zram0"));
	assert_int_equal(nb_tp_linux_diskstats(b, &y), 7);
	d = nb_tp_disk_find(&y, "loop4");
	assert_non_null(d);
	assert_int_equal(d->io_ms, 3160);
	assert_int_equal(d->ios, 641 + 7265 + 47);
	assert_int_equal(d->read_bytes, 51328ULL * 512);
	assert_true(d->busy_pct < 0);
	/* partitions are not disks */
	assert_int_equal(nb_tp_linux_diskstats(
		"   8 0 sda 10 0 80 1 5 0 40 1 0 7 2 0 0 0 0\n"
		"   8 1 sda1 10 0 80 1 5 0 40 1 0 7 2 0 0 0 0\n"
		" 259 0 nvme0n1 4 0 8 1 2 0 4 1 0 3 2 0 0 0 0\n"
		" 259 1 nvme0n1p1 4 0 8 1 2 0 4 1 0 3 2 0 0 0 0\n", &x), 2);
	assert_string_equal(x.d[1].name, "nvme0n1");
	/* loop10 is a disk beside loop1, not its partition */
	assert_int_equal(nb_tp_linux_diskstats(
		"   7 1 loop1 10 0 80 1 5 0 40 1 0 7 2 0 0 0 0\n"
		"   7 10 loop10 10 0 80 1 5 0 40 1 0 9 2 0 0 0 0\n"
		" 259 2 loop1p1 4 0 8 1 2 0 4 1 0 3 2 0 0 0 0\n", &x), 2);
	assert_string_equal(x.d[1].name, "loop10");
	free(a);
	free(b);
}

static void arc_linux_and_zfsfuse(void **state)
{
	char *k = test_slurp(G "openzfs-arcstats"), *f = test_slurp(G "zfsfuse-arcstats.1");
	char *f2 = test_slurp(G "zfsfuse-arcstats.2");
	struct nb_tp_arc a = { 0 }, b = { 0 }, c = { 0 };

	(void)state;
	/* the kstat header lines ("13 1 0x01 ...", "name type data") are skipped */
	assert_int_equal(nb_tp_arc_kstat(k, &a), 6);
	assert_int_equal(a.hits, 5512001);
	assert_int_equal(a.misses, 604400);
	assert_int_equal(a.demand_data_misses, 501200);
	assert_int_equal(a.c_max, 8589934592ULL);
	assert_int_equal(nb_tp_arc_kv(f, &b), 6);
	assert_true(b.have);
	assert_int_equal(b.hits, 1169);
	assert_int_equal(b.misses, 40);
	assert_int_equal(b.demand_data_hits, 0);
	assert_int_equal(b.c_max, 64ULL << 20);
	/* a 64 MiB file read back from the lab's 64 MiB ARC: 498 of 506
	 * demand reads were hits */
	assert_int_equal(nb_tp_arc_kv(f2, &c), 6);
	assert_int_equal(c.demand_data_hits - b.demand_data_hits, 498);
	assert_int_equal(c.demand_data_misses - b.demand_data_misses, 8);
	free(k);
	free(f);
	free(f2);
}

static void freebsd_sysctl(void **state)
{
	char *s = test_slurp(G "freebsd-sysctl");
	struct nb_tp_cpu cpu = { 0 };
	struct nb_tp_mem mem = { 0 };
	struct nb_tp_arc arc = { 0 };

	(void)state;
	assert_true(nb_tp_bsd_sysctl(s, &cpu, &mem, &arc) >= 16);
	assert_int_equal(arc.hits, 9120344);
	assert_int_equal(arc.demand_data_misses, 802233);
	assert_int_equal(arc.size, 25769803776ULL);
	/* kern.cp_times: user nice sys intr idle, twice */
	assert_int_equal(cpu.n, 2);
	assert_int_equal(cpu.busy[0], 120 + 310 + 5);
	assert_int_equal(cpu.total[0], 120 + 310 + 5 + 9565);
	assert_int_equal(cpu.busy[1], 2300 + 7500 + 200);
	assert_int_equal(mem.page_size, 4096);
	assert_int_equal(mem.total, 8122153ULL * 4096);
	/* free + inactive pages; laundry must be written first */
	assert_int_equal(mem.avail, (262144ULL + 131072) * 4096);
	assert_int_equal(mem.swap_out, 1003520);
	free(s);
}

static void freebsd_swapinfo_vmstat(void **state)
{
	char *s = test_slurp(G "freebsd-swapinfo"), *n = test_slurp(G "freebsd-swapinfo-none");
	char *v = test_slurp(G "freebsd-vmstat");
	struct nb_tp_mem mem = { 0 };
	struct nb_tp_cpu cpu = { .pct_all = -1 };

	(void)state;
	assert_int_equal(nb_tp_bsd_swapinfo(s, &mem), 1);
	assert_int_equal(mem.swap_total, 4194304ULL * 1024);
	assert_int_equal(mem.swap_used, 2097152ULL * 1024);
	/* a box without swap: none used, and said so */
	assert_int_equal(nb_tp_bsd_swapinfo(n, &mem), 1);
	assert_int_equal(mem.swap_used, 0);
	assert_int_equal(nb_tp_bsd_swapinfo("", &mem), 0);
	assert_int_equal(nb_tp_bsd_vmstat(v, &cpu, &mem), 2);
	assert_int_equal(mem.avail, (uint64_t)(1.5 * 1024 * 1024 * 1024));
	assert_true(cpu.pct_all > 37.9 && cpu.pct_all < 38.1);
	free(s);
	free(n);
	free(v);
}

static void freebsd_iostat_gstat(void **state)
{
	char *i = test_slurp(G "freebsd-iostat-x"), *g = test_slurp(G "freebsd-gstat");
	struct nb_tp_disks d;

	(void)state;
	/* the second report (the interval's), not the first (since boot) */
	assert_int_equal(nb_tp_bsd_iostat(i, &d), 5);
	assert_string_equal(d.d[3].name, "ada3");
	assert_true(d.d[3].busy_pct == 93);
	assert_true(d.d[0].busy_pct == 41);
	assert_true(d.d[0].read_rate == 19328.0 * 1024);
	assert_true(d.d[3].ms_per_io == 26);
	/* gstat: partitions and labels are not disks */
	assert_int_equal(nb_tp_bsd_gstat(g, &d), 4);
	assert_non_null(nb_tp_disk_find(&d, "ada1"));
	assert_null(nb_tp_disk_find(&d, "ada0p1"));
	assert_null(nb_tp_disk_find(&d, "gpt/boot0"));
	assert_true(nb_tp_disk_find(&d, "ada3")->busy_pct == 93.0);
	free(i);
	free(g);
}

/* A gstat line with more columns than the parser holds is skipped, not
 * written past the token array (found by ci/fuzz). */
static void gstat_too_many_columns(void **state)
{
	char text[512] = "";
	struct nb_tp_disks d;

	(void)state;
	for (int i = 0; i < 60; i++)
		strcat(text, "1 ");
	strcat(text, "| ada9\n 0 1 2 3 4 5 6 7 8 9.5| ada1\n");
	assert_int_equal(nb_tp_bsd_gstat(text, &d), 1);
	assert_non_null(nb_tp_disk_find(&d, "ada1"));
	assert_null(nb_tp_disk_find(&d, "ada9"));
	assert_true(nb_tp_disk_find(&d, "ada1")->busy_pct == 9.5);
}

static void zpool_iostat(void **state)
{
	char *z = test_slurp(G "freebsd-zpool-iostat-v");
	char *f = test_slurp(G "zfsfuse-zpool-iostat-v");
	struct nb_tp_vdevs v;

	(void)state;
	assert_int_equal(nb_tp_zpool_iostat(z, &v), 3);
	assert_string_equal(v.v[0].pool, "tank");
	assert_string_equal(v.v[0].name, "raidz1-0");
	assert_int_equal(v.v[0].ndisks, 3);
	assert_string_equal(v.v[0].disks[2], "ada2");
	assert_true(v.v[0].ops_write == 538);
	assert_string_equal(v.v[1].name, "mirror-1");
	assert_int_equal(v.v[1].ndisks, 2);
	/* the log device: a vdev of one disk, marked special */
	assert_string_equal(v.v[2].name, "nvd0");
	assert_int_equal(v.v[2].ndisks, 1);
	assert_true(v.v[2].special);
	assert_false(v.v[0].special);
	/* zfs-fuse, recorded in the lab: two reports, /dev/ names */
	assert_true(nb_tp_zpool_iostat(f, &v) >= 1);
	assert_int_equal(v.v[0].ndisks, 5);
	assert_string_equal(v.v[0].disks[0], "loop0");
	/* zfs-fuse's "raidz1" named as zpool status names it */
	assert_string_equal(v.v[0].name, "raidz1-0");
	assert_int_equal(nb_tp_zpool_iostat(
		"pool alloc free read write read write\n"
		"tank 1G 1G 0 0 0 0\n"
		"  mirror 1G 1G 0 0 0 0\n"
		"    loop3 - - 0 0 0 0\n"
		"    loop4 - - 0 0 0 0\n"
		"  mirror 1G 1G 0 0 0 0\n"
		"    loop5 - - 0 0 0 0\n"
		"    loop6 - - 0 0 0 0\n", &v), 2);
	assert_string_equal(v.v[1].name, "mirror-1");
	assert_string_equal(v.v[1].disks[1], "loop6");
	free(z);
	free(f);
}

static void zfs_pool_of(void **state)
{
	static const char list[] =
		"nblab\t/var/tmp/nasbench-lab/mnt\n"
		"nblab/nfs\t/var/tmp/nasbench-lab/mnt/nfs\n"
		"tank\t/mnt/tank\n"
		"tank/vm\tlegacy\n"
		"other\t/var/tmp/nasbench-lab/mnt/nfsx\n";
	char pool[48] = "";

	(void)state;
	assert_int_equal(nb_tp_zfs_pool_of(list, "/var/tmp/nasbench-lab/mnt/nfs/nasbench.x",
					   pool, sizeof(pool)), 1);
	assert_string_equal(pool, "nblab");
	assert_int_equal(nb_tp_zfs_pool_of(list, "/mnt/tank", pool, sizeof(pool)), 1);
	assert_string_equal(pool, "tank");
	/* /mnt/tankx is not below /mnt/tank; /tmp is on no pool */
	assert_int_equal(nb_tp_zfs_pool_of(list, "/mnt/tankx/a", pool, sizeof(pool)), 0);
	assert_int_equal(nb_tp_zfs_pool_of(list, "/tmp/x", pool, sizeof(pool)), 0);
}

static void answer_sections(void **state)
{
	char *st = test_slurp(G "linux-stat.1"), *mi = test_slurp(G "linux-meminfo");
	char *ds = test_slurp(G "linux-diskstats.1"), *ar = test_slurp(G "zfsfuse-arcstats.1");
	size_t n = strlen(st) + strlen(mi) + strlen(ds) + strlen(ar) + 200;
	char *text = malloc(n);
	struct nb_telem_snap s;

	(void)state;
	snprintf(text, n, "@stat\n%s@meminfo\n%s@vmstat\npswpin 3\npswpout 9\n"
		 "@diskstats\n%s@arc-kv\n%s", st, mi, ds, ar);
	memset(&s, 0, sizeof(s));
	assert_true(nb_telem_parse_answer(text, NB_TELEM_LINUX, &s) > 0);
	assert_int_equal(s.cpu.n, 2);
	assert_int_equal(s.mem.total, 24683664ULL * 1024);
	assert_int_equal(s.mem.swap_out, 9);
	assert_int_equal(s.disks.n, 7);
	assert_int_equal(s.arc.hits, 1169);
	memset(&s, 0, sizeof(s));
	assert_int_equal(nb_telem_parse_answer("nothing\n", NB_TELEM_LINUX, &s), 0);
	free(text);
	free(st);
	free(mi);
	free(ds);
	free(ar);
}

/* A 400-digit counter, one past 2^64, "1e30", "nan", "-5", "abc": not
 * numbers a box gives.  The item (a CPU, a disk, a key) is refused and
 * counted, never read as a wrapped, saturated or zero value. */
static void hostile_counters(void **state)
{
	char big[420];
	char text[1200];
	struct nb_tp_cpu cpu;
	struct nb_tp_mem mem = { 0 };
	struct nb_tp_disks d;
	struct nb_tp_arc arc = { 0 };

	(void)state;
	memset(big, '9', 400);
	big[400] = 0;
	snprintf(text, sizeof(text), "cpu0 10 0 10 80 0 0 0 0\ncpu1 %s 0 10 80 0 0 "
		 "0 0\ncpu2 abc 0 10 80 0 0 0 0\ncpu3 -5 0 10 80 0 0 0 0\n", big);
	assert_int_equal(nb_tp_linux_stat(text, &cpu), 1);
	assert_int_equal(cpu.n, 1);
	assert_int_equal(cpu.refused, 3);
	assert_int_equal(cpu.busy[0], 20);

	snprintf(text, sizeof(text), "MemTotal: 1000 kB\nMemAvailable: %s kB\n"
		 "Cached: 18446744073709551615 kB\n", big);
	assert_int_equal(nb_tp_linux_meminfo(text, &mem), 1);
	assert_int_equal(mem.total, 1024000);
	assert_int_equal(mem.avail, 0);          /* as it was: not read */
	assert_int_equal(mem.cached, 0);         /* 2^64 - 1 kB: past 2^60 B */
	assert_int_equal(mem.refused, 2);
	assert_int_equal(nb_tp_linux_vmstat("pswpin 18446744073709551616\n"
					    "pswpout 7\n", &mem), 1);
	assert_int_equal(mem.swap_in, 0);
	assert_int_equal(mem.swap_out, 7);
	assert_int_equal(mem.refused, 3);

	/* one past 2^64 reads, 31 digits of sectors, io_ticks not a number;
	 * sdd is a disk to keep */
	assert_int_equal(nb_tp_linux_diskstats(
		"   8 0 sda 18446744073709551616 0 80 1 5 0 40 1 0 7 2\n"
		"   8 16 sdb 10 0 1000000000000000000000000000000 1 5 0 40 1 0 7 2\n"
		"   8 32 sdc 10 0 80 1 5 0 40 1 0 1e30 2\n"
		"   8 48 sdd 10 0 80 1 5 0 40 1 0 7 2\n", &d), 1);
	assert_string_equal(d.d[0].name, "sdd");
	assert_int_equal(d.refused, 3);
	assert_string_equal(d.refused_name, "sda");
	/* 2^55 sectors are more bytes than 64 bits hold */
	assert_int_equal(nb_tp_linux_diskstats(
		"   8 0 sda 10 0 36028797018963968 1 5 0 40 1 0 7 2\n", &d), 0);
	assert_int_equal(d.refused, 1);

	assert_int_equal(nb_tp_arc_kv("hits 5\nmisses 1e30\nsize 18446744073709551615\n"
				      "c_max 1024\n", &arc), 2);
	assert_int_equal(arc.hits, 5);
	assert_int_equal(arc.misses, 0);
	assert_int_equal(arc.size, 0);           /* more bytes than a box has */
	assert_int_equal(arc.refused, 2);

	/* FreeBSD: a busy share, a rate or a time that is no figure */
	assert_int_equal(nb_tp_bsd_iostat(
		"                        extended device statistics\n"
		"device       r/s     w/s     kr/s     kw/s  ms/r  ms/w  ms/o  ms/t qlen  %b\n"
		"ada0           1       1      1e30       0     1     1     0     1    0  41\n"
		"ada1           1       1        10       0     1     1     0   nan    0  41\n"
		"ada2           1       1        10       0     1     1     0     1    0 inf\n"
		"ada3           1       1        10       0     1     1     0     1    0  93\n", &d), 1);
	assert_string_equal(d.d[0].name, "ada3");
	assert_int_equal(d.refused, 3);
	assert_int_equal(nb_tp_bsd_gstat(" 0 1 2 3 4 5 6 7 8 -3| ada0\n"
					 " 0 1 2 3 4 5 6 7 8 1e300| ada1\n"
					 " 0 1 2 3 4 5 6 7 8 101.5| ada2\n", &d), 1);
	assert_true(d.d[0].busy_pct == 100);     /* a little over: full */
	assert_int_equal(d.refused, 2);
	mem = (struct nb_tp_mem){ 0 };
	cpu = (struct nb_tp_cpu){ .pct_all = -1 };
	assert_int_equal(nb_tp_bsd_vmstat(" r b w avm fre flt re pi po fr sr us sy id\n"
					  " 0 0 0 1G 1e30 0 0 0 0 0 0 1 1 nan\n", &cpu, &mem), 0);
	assert_int_equal(mem.avail, 0);
	assert_true(cpu.pct_all == -1);
	assert_int_equal(mem.refused + cpu.refused, 2);
}

/* Names as a box may give them: not UTF-8, a terminal's escapes; lines
 * as it may end them: CR LF, without an end, longer than a parser reads
 * (refused whole, never read cut), a NUL made SUB (nb_telem_text). */
static void hostile_lines(void **state)
{
	char text[3000];
	struct nb_tp_disks d;
	struct nb_tp_mem mem = { 0 };
	struct nb_tp_vdevs v;

	(void)state;
	assert_int_equal(nb_tp_linux_diskstats(
		"   8 0 caf\xe9 10 0 80 1 5 0 40 1 0 7 2\r\n"
		"   8 16 \x1b[2Jx 10 0 80 1 5 0 40 1 0 7 2", &d), 2);
	assert_string_equal(d.d[0].name, "caf\\xe9");
	assert_string_equal(d.d[1].name, "\\x1b[2Jx");
	assert_int_equal(d.d[1].io_ms, 7);
	/* a line of 2000 bytes: its first 1023 would read as a disk of 10
	 * I/Os and 7 ms busy */
	snprintf(text, sizeof(text), "   8 0 sdz 10 0 80 1 5 0 40 1 0 7 2 %01990d\n"
		 "   8 16 sdy 1 0 8 1 1 0 4 1 0 3 2\n", 0);
	assert_int_equal(nb_tp_linux_diskstats(text, &d), 1);
	assert_string_equal(d.d[0].name, "sdy");
	assert_int_equal(nb_tp_linux_meminfo("MemTotal: 12\x1a kB\r\nMemAvailable: 8 kB\r\n",
					     &mem), 1);
	assert_int_equal(mem.avail, 8192);
	assert_int_equal(mem.total, 0);
	assert_int_equal(nb_tp_zpool_iostat(
		"pool alloc free read write read write\r\n"
		"t\xffnk 1G 1G 0 0 0 0\r\n"
		"  mirror 1G 1G 1e999 0 0 0\r\n"
		"    l\xe9oop3 - - 0 0 0 0\r\n", &v), 1);
	assert_string_equal(v.v[0].pool, "t\\xffnk");
	assert_string_equal(v.v[0].name, "mirror-0");
	assert_string_equal(v.v[0].disks[0], "l\\xe9oop3");
	assert_true(v.v[0].ops_read == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(linux_stat),
		cmocka_unit_test(linux_meminfo_vmstat),
		cmocka_unit_test(linux_diskstats),
		cmocka_unit_test(arc_linux_and_zfsfuse),
		cmocka_unit_test(freebsd_sysctl),
		cmocka_unit_test(freebsd_swapinfo_vmstat),
		cmocka_unit_test(freebsd_iostat_gstat),
		cmocka_unit_test(gstat_too_many_columns),
		cmocka_unit_test(zpool_iostat),
		cmocka_unit_test(zfs_pool_of),
		cmocka_unit_test(answer_sections),
		cmocka_unit_test(hostile_counters),
		cmocka_unit_test(hostile_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
