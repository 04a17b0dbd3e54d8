/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_capture_parse.c - the capture's parsers on recorded outputs of
 * Linux and zfs-fuse and on FreeBSD's and OpenZFS's formats as their
 * sources print them (tests/golden/capture/README says where each came
 * from); an unknown column layout is refused, with what and where.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "../../capture/capture_int.h"
#include "../../core/err.h"

#define G "tests/golden/capture/"

static struct nb_cp_devs *devs(void)
{
	struct nb_cp_devs *d = calloc(1, sizeof(*d));

	assert_non_null(d);
	return d;
}

static const struct nb_cp_dev *dev(const struct nb_cp_devs *d, const char *n)
{
	const struct nb_cp_dev *k = nb_cp_dev_find(d, n);

	if (!k)
		fail_msg("no device '%s'", n);
	return k;
}

/* Two answers 10.04 s apart while fio issued 100, 200 and 50 IOPS of 8 KiB
 * (70% reads) on loop8, loop9, loop10. */
static void linux_diskstats(void **state)
{
	char *a = test_slurp(G "linux-answer.1"), *b = test_slurp(G "linux-answer.2");
	struct cp_answer *x = calloc(2, sizeof(*x));
	static const char *const names[] = { "loop8", "loop9", "loop10" };
	static const double want[] = { 100, 200, 50 };

	(void)state;
	assert_int_equal(cp_answer_parse(a, &x[0]), 0);
	assert_int_equal(cp_answer_parse(b, &x[1]), 0);
	assert_true(x[0].have_devs);
	assert_true(x[0].devs.totals);
	assert_true(x[0].t > 3534.13 && x[0].t < 3534.15);
	assert_true(x[1].t - x[0].t > 10.03 && x[1].t - x[0].t < 10.05);
	/* partitions and idle devices are lines as any other: all kept */
	assert_int_equal(x[0].devs.n, 18);
	for (int i = 0; i < 3; i++) {
		const struct nb_cp_dev *p = dev(&x[0].devs, names[i]);
		const struct nb_cp_dev *q = dev(&x[1].devs, names[i]);
		double dt = x[1].t - x[0].t, r = q->reads - p->reads;
		double w = q->writes - p->writes;

		assert_true((r + w) / dt > want[i] * 0.9 && (r + w) / dt < want[i] * 1.1);
		assert_true(r / (r + w) > 0.65 && r / (r + w) < 0.75);
		/* 8 KiB a request, as fio issued them */
		assert_true(q->rbytes - p->rbytes == r * 8192);
		assert_true(q->wbytes - p->wbytes == w * 8192);
		assert_true(q->rmerged - p->rmerged == 0);
	}
	/* loop8: reads 9162, 1 merged, 147112 sectors */
	assert_true(dev(&x[0].devs, "loop8")->reads == 9162);
	assert_true(dev(&x[0].devs, "loop8")->rmerged == 1);
	assert_true(dev(&x[0].devs, "loop8")->rbytes == 147112.0 * 512);
	free(a);
	free(b);
	free(x);
}

static void linux_sysblock(void **state)
{
	char *t = test_slurp(G "linux-sysblock");
	struct nb_cp_info *in = calloc(1, sizeof(*in));

	(void)state;
	assert_int_equal(nb_cp_sysblock(t, in), 13);
	assert_string_equal(in->d[0].name, "dm-0");
	assert_string_equal(in->d[0].alias, "vg0/vm01");
	assert_true(in->d[0].lv && in->d[0].whole);
	assert_true(in->d[0].size == 83886080ULL * 512);
	/* LVM doubles a '-' of a name */
	assert_string_equal(in->d[1].alias, "vg0/web-frontend");
	/* dm-crypt: a device-mapper name, not a volume */
	assert_string_equal(in->d[2].alias, "luks-0c1d2e3f");
	assert_false(in->d[2].lv);
	assert_string_equal(in->d[3].alias, "");
	assert_string_equal(in->d[6].name, "zd0");
	assert_string_equal(in->d[6].alias, "tank/vm03");
	assert_string_equal(in->d[7].alias, "tank/vm04");
	/* a thin pool's own device is LVM's, not a VM's volume */
	assert_string_equal(in->d[9].name, "dm-3");
	assert_string_equal(in->d[9].alias, "vg0-pool-tpool");
	assert_false(in->d[9].lv);
	/* the partition's link makes an entry, not a device of its own */
	assert_string_equal(in->d[10].name, "zd0p1");
	assert_false(in->d[10].whole);
	free(t);
	free(in);
}

static void linux_nfsd(void **state)
{
	char *a = test_slurp(G "linux-nfsd.1"), *b = test_slurp(G "linux-nfsd.2");
	struct nb_cp_nfs x, y;

	(void)state;
	assert_int_equal(nb_cp_nfsd(a, &x), 3);      /* io, proc3, proc4ops */
	assert_int_equal(nb_cp_nfsd(b, &y), 3);
	assert_true(y.ops[NB_NFS_READ] - x.ops[NB_NFS_READ] == 10000);
	assert_true(y.ops[NB_NFS_WRITE] - x.ops[NB_NFS_WRITE] == 10000);
	assert_true(y.ops[NB_NFS_GETATTR] - x.ops[NB_NFS_GETATTR] == 4000);
	assert_true(y.ops[NB_NFS_COMMIT] - x.ops[NB_NFS_COMMIT] == 2000);
	assert_true(y.ops[NB_NFS_OTHER] - x.ops[NB_NFS_OTHER] == 0);
	assert_true(y.rbytes - x.rbytes == 327680000.0);
	/* NFSv3 reads 9012234 and NFSv4 READs (op 25) 40312; NULL and the
	 * compound's PUTFH (212000) and SEQUENCE (211996) are no operation */
	assert_true(x.ops[NB_NFS_READ] == 9012234.0 + 40312);
	assert_true(x.ops[NB_NFS_WRITE] == 8105320.0 + 50200);
	assert_true(x.ops[NB_NFS_OTHER] < 300000);
	free(a);
	free(b);
}

static void freebsd_gstat(void **state)
{
	char *t = test_slurp(G "freebsd-gstat-b"), *o = test_slurp(G "freebsd-gstat-dos");
	char *u = test_slurp(G "freebsd-gstat-unknown");
	char *tel = test_slurp("tests/golden/telemetry/freebsd-gstat");
	struct nb_cp_devs *d = devs();

	(void)state;
	assert_int_equal(nb_cp_gstat(t, d), 6);
	assert_false(d->totals);
	assert_true(d->dt > 10.002 && d->dt < 10.004);
	assert_true(dev(d, "zvol/tank/vm02")->reads == 140);
	assert_true(dev(d, "zvol/tank/vm02")->writes == 60);
	assert_true(dev(d, "zvol/tank/vm02")->rbytes == 1120.0 * 1024);
	assert_true(dev(d, "zvol/tank/vm03")->wbytes == 960.0 * 1024);
	assert_true(dev(d, "zvol/tank/vm03")->rmerged < 0);  /* not told */
	/* -d -o -s: the kBps after w/s is the writes' */
	assert_int_equal(nb_cp_gstat(o, d), 6);
	assert_true(dev(d, "zvol/tank/vm03")->rbytes == 1120.0 * 1024);
	assert_true(dev(d, "zvol/tank/vm03")->wbytes == 960.0 * 1024);
	assert_true(dev(d, "zvol/tank/vm03")->reads == 35);
	/* the interactive display's '|' */
	assert_int_equal(nb_cp_gstat(tel, d), 7);
	assert_true(dev(d, "ada3")->writes == 202);
	nb_err_clear();
	assert_int_equal(nb_cp_gstat(u, d), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "gstat: unknown column 'bp/s' in its "
			       "header ' L(q)  ops/s"));
	assert_non_null(strstr(nb_err_last(), "a layout nasbench does not read"));
	free(t);
	free(o);
	free(u);
	free(tel);
	free(d);
}

static void freebsd_iostat(void **state)
{
	char *x = test_slurp(G "freebsd-iostat-x"), *old = test_slurp(G "freebsd-iostat-x-old");
	char *i1 = test_slurp(G "freebsd-iostat-xI.1"), *i2 = test_slurp(G "freebsd-iostat-xI.2");
	char *u = test_slurp(G "freebsd-iostat-unknown");
	struct nb_cp_devs *d = devs(), *e = devs();

	(void)state;
	/* the second report, the interval's, counts; rates as printed */
	assert_int_equal(nb_cp_iostat(x, d), 4);
	assert_false(d->totals);
	assert_true(dev(d, "ada0")->reads == 151);
	assert_true(dev(d, "nvd0")->wbytes == 39000.0 * 1024);
	assert_int_equal(nb_cp_iostat(old, d), 4);
	assert_true(dev(d, "ada0")->reads > 151.2 && dev(d, "ada0")->reads < 151.4);
	assert_true(dev(d, "ada1")->rbytes > 1198.3 * 1024 &&
		    dev(d, "ada1")->rbytes < 1198.5 * 1024);
	/* -I: totals since boot, whose differences are the interval's */
	assert_int_equal(nb_cp_iostat(i1, d), 4);
	assert_int_equal(nb_cp_iostat(i2, e), 4);
	assert_true(d->totals && e->totals);
	assert_true(dev(e, "ada0")->reads - dev(d, "ada0")->reads == 1513);
	assert_true(dev(e, "ada1")->wbytes - dev(d, "ada1")->wbytes == 5216.0 * 1024);
	nb_err_clear();
	assert_int_equal(nb_cp_iostat(u, d), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "iostat -x: unknown column '%q'"));
	/* a header without the writes' column */
	assert_int_equal(nb_cp_iostat("device r/s kr/s kw/s %b\nada0 1 2 3 4\n", d),
			 -EINVAL);
	assert_non_null(strstr(nb_err_last(), "no column of writes"));
	free(x);
	free(old);
	free(i1);
	free(i2);
	free(u);
	free(d);
	free(e);
}

static void freebsd_nfsstat(void **state)
{
	char *a = test_slurp(G "freebsd-nfsstat-s.1"), *b = test_slurp(G "freebsd-nfsstat-s.2");
	char *r = test_slurp(G "freebsd-nfsstat-s-rpc"), *u = test_slurp(G "freebsd-nfsstat-unknown");
	struct nb_cp_nfs x, y, z;

	(void)state;
	assert_int_equal(nb_cp_nfsstat(a, &x), 46);
	assert_int_equal(nb_cp_nfsstat(b, &y), 46);
	assert_true(y.ops[NB_NFS_READ] - x.ops[NB_NFS_READ] == 10000);
	assert_true(y.ops[NB_NFS_LOOKUP] - x.ops[NB_NFS_LOOKUP] == 2000);
	/* PutFH is the compound's plumbing, not an operation */
	assert_true(y.ops[NB_NFS_OTHER] - x.ops[NB_NFS_OTHER] == 0);
	/* Server: and Server Cache Stats: count no operation */
	assert_true(x.ops[NB_NFS_OTHER] < 1e6);
	assert_true(x.rbytes < 0);
	assert_int_equal(nb_cp_nfsstat(r, &z), 46);
	assert_true(z.ops[NB_NFS_WRITE] == x.ops[NB_NFS_WRITE]);
	nb_err_clear();
	assert_int_equal(nb_cp_nfsstat(u, &z), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "nfsstat -s: its server counts name "
			       "no Getattr, Read and Write"));
	free(a);
	free(b);
	free(r);
	free(u);
}

static void freebsd_diskinfo(void **state)
{
	char *t = test_slurp(G "freebsd-diskinfo");
	struct nb_cp_info *in = calloc(1, sizeof(*in));

	(void)state;
	assert_int_equal(nb_cp_diskinfo(t, in), 5);
	assert_string_equal(in->d[0].name, "ada0");
	assert_true(in->d[0].size == 2000398934016ULL);
	assert_string_equal(in->d[2].name, "zvol/tank/vm01");
	assert_string_equal(in->d[2].alias, "tank/vm01");
	assert_true(in->d[2].size == 42949672960ULL);
	free(t);
	free(in);
}

static void zpool_v_and_r(void **state)
{
	char *f = test_slurp(G "zfsfuse-zpool-iostat-v");
	char *bsd = test_slurp("tests/golden/telemetry/freebsd-zpool-iostat-v");
	char *r = test_slurp(G "openzfs-zpool-iostat-r");
	char *u = test_slurp(G "openzfs-zpool-iostat-r-unknown");
	struct nb_cp_pools *p = calloc(1, sizeof(*p));

	(void)state;
	/* the last report counts: an idle second */
	assert_int_equal(nb_cp_zpool(f, p), 1);
	assert_string_equal(p->p[0].name, "nblab");
	assert_true(p->p[0].wops == 0);
	/* one report: since import, 18 reads 646 writes, 31.5M written */
	*strstr(f, "\n\n") = 0;
	assert_int_equal(nb_cp_zpool(f, p), 1);
	assert_true(p->p[0].rops == 18 && p->p[0].wops == 646);
	assert_true(p->p[0].wbw == 31.5 * 1024 * 1024);
	/* a pool's vdevs and its log device are not pools */
	assert_int_equal(nb_cp_zpool(bsd, p), 1);
	assert_true(p->p[0].wops == 1.05 * 1024);
	assert_true(p->p[0].rbw == 76.5 * 1024 * 1024);
	/* -r: the second report; scrub is not the clients'; added to the
	 * pool of the same name */
	assert_int_equal(nb_cp_zpool_hist(r, p), 2);
	assert_int_equal(p->n, 1);
	assert_true(p->p[0].have_hist);
	assert_string_equal(p->p[0].name, "tank");
	assert_true(p->p[0].h_rreq == 1550);
	assert_true(p->p[0].h_rbytes == 1500.0 * 8192 + 50.0 * 65536);
	assert_true(p->p[0].h_wreq == 600);
	assert_true(p->p[0].h_wbytes == 300.0 * 8192 + 300.0 * 65536);
	assert_true(p->p[0].h_agg == 350);
	nb_err_clear();
	assert_int_equal(nb_cp_zpool_hist(u, p), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "zpool iostat -r: unknown column "
			       "'decompress'"));
	free(f);
	free(bsd);
	free(r);
	free(u);
	free(p);
}

/* A box's answer: sections split cleanly, a refused layout is the
 * answer's error. */
static void answers(void **state)
{
	char *g = test_slurp(G "freebsd-gstat-b"), *n = test_slurp(G "freebsd-nfsstat-s.1");
	char *u = test_slurp(G "freebsd-gstat-unknown");
	size_t len = strlen(g) + strlen(n) + strlen(u) + 64;
	char *text = malloc(len);
	struct cp_answer *a = calloc(1, sizeof(*a));

	(void)state;
	snprintf(text, len, "@t\n@nfsstat\n%s@gstat\n%s", n, g);
	assert_int_equal(cp_answer_parse(text, a), 0);
	assert_true(a->t < 0);               /* no time of the box's: ours */
	assert_true(a->have_devs && a->have_nfs);
	assert_int_equal(a->devs.n, 6);
	assert_true(a->nfs.ops[NB_NFS_READ] == 9012234);
	snprintf(text, len, "@t 12.5\n@gstat\n%s", u);
	nb_err_clear();
	assert_int_equal(cp_answer_parse(text, a), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "unknown column 'bp/s'"));
	assert_int_equal(cp_answer_parse("@t 12.5\n", a), 0);
	assert_true(a->t == 12.5 && !a->have_devs);
	free(g);
	free(n);
	free(u);
	free(text);
	free(a);
}

/* A hostile box's counters: a 400-digit one, one past 2^64, 1e999,
 * inf, nan: the device (or the NFS counter, the pool's row) refused and
 * counted, never an infinite or a wrapped figure; its names carried as
 * text (core/boxtext.h). */
static void hostile_numbers_and_names(void **state)
{
	char big[420], text[1500];
	struct nb_cp_devs *d = devs();
	struct nb_cp_nfs n;
	static struct nb_cp_pools p;
	static struct nb_cp_info info;

	(void)state;
	memset(big, '9', 400);
	big[400] = 0;
	snprintf(text, sizeof(text),
		 "   7 0 loop0 %s 0 8 0 1 0 8 0 0 1 1\n"
		 "   7 1 loop1 18446744073709551616 0 8 0 1 0 8 0 0 1 1\n"
		 "   7 2 caf\xe9 10 0 80 0 5 0 40 0 0 1 1\r\n"
		 "   7 3 loop3 10 0 80 0 5 0 40 0 0 1 1", big);
	assert_int_equal(nb_cp_diskstats(text, d), 2);
	assert_int_equal(d->refused, 2);
	assert_string_equal(d->refused_name, "loop0");
	assert_true(dev(d, "caf\\xe9")->reads == 10);
	assert_true(dev(d, "loop3")->wbytes == 40 * 512);

	assert_int_equal(nb_cp_gstat(
		"dT: 1e999s  w: 1.000s\n"
		" L(q)  ops/s    r/s   kBps   ms/r    w/s   kBps   ms/w   %busy Name\n"
		"    0      1      1   1e999    0.1      0      0    0.0    0.0| ada0\n"
		"    0      1    inf      4    0.1      0      0    0.0    0.0| ada1\n"
		"    0      1    nan      4    0.1      0      0    0.0    0.0| ada2\n"
		"    0      1      1      4    0.1      0      0    0.0    0.0| ada3\n", d), 1);
	assert_int_equal(d->refused, 3);
	assert_true(d->dt == 0);                 /* an interval that is none */
	assert_true(dev(d, "ada3")->rbytes == 4096);

	snprintf(text, sizeof(text), "io %s 10\nproc3 22 0 1 0 %s 0 0 5 9 0 0 0 0 0 0 "
		 "0 0 0 0 0 0 0 0\n", big, big);
	assert_int_equal(nb_cp_nfsd(text, &n), 1);
	assert_int_equal(n.refused, 2);
	assert_true(n.rbytes == -1);             /* not read */
	assert_true(n.ops[NB_NFS_READ] == 5 && n.ops[NB_NFS_WRITE] == 9);

	assert_int_equal(nb_cp_zpool(
		"              capacity     operations     bandwidth\n"
		"pool        alloc   free   read  write   read  write\n"
		"----------  -----  -----  -----  -----  -----  -----\n"
		"tank        1G     1G     1e999  0      0      0\n"
		"t\xe9nk     1G     1G     5      0      0      -\n", &p), 1);
	assert_int_equal(p.refused, 1);
	/* a pool's name stays the box's own: it goes back to zpool */
	assert_string_equal(p.p[0].name, "t\xe9nk");
	assert_true(p.p[0].rops == 5 && p.p[0].wbw == 0);

	memset(&info, 0, sizeof(info));
	assert_int_equal(nb_cp_sysblock("dm-3 2048 vg0-caf\xe9 LVM-abc\n"
					"dm-4 99999999999999999999 vg0-big LVM-abd\n"
					"\x1b[2J 8 - -\n", &info), 3);
	assert_string_equal(info.d[0].alias, "vg0/caf\\xe9");
	assert_int_equal(info.d[0].size, 2048 * 512);
	assert_int_equal(info.d[1].size, 0);    /* 2^64 sectors: none known */
	assert_string_equal(info.d[2].name, "\\x1b[2J");
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(linux_diskstats),
		cmocka_unit_test(linux_sysblock),
		cmocka_unit_test(linux_nfsd),
		cmocka_unit_test(freebsd_gstat),
		cmocka_unit_test(freebsd_iostat),
		cmocka_unit_test(freebsd_nfsstat),
		cmocka_unit_test(freebsd_diskinfo),
		cmocka_unit_test(zpool_v_and_r),
		cmocka_unit_test(answers),
		cmocka_unit_test(hostile_numbers_and_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
