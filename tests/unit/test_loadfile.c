/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_loadfile.c - the load file (loadfile/loadfile.c): written and read back
 * to the same text, a hand-written one with its defaults, every refusal
 * with its FILE:LINE; and the growth rate and the years a box holds
 * (loadfile/growth.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/err.h"
#include "../../loadfile/growth.h"
#include "../../loadfile/loadfile.h"

#define NEAR(x, want, tol) assert_true(fabs((x) - (want)) <= (tol))

/* A load as a capture makes it: two VMs with series, a pool, NFS. */
static void sample(struct nb_load *l)
{
	struct nb_load_vm *v;
	struct nb_load_pool *p;

	nb_load_init(l);
	strcpy(l->source, "ssh://root@nas.example:22");
	strcpy(l->os, "linux");
	strcpy(l->counters, "/proc/diskstats, /proc/net/rpc/nfsd");
	strcpy(l->start, "2026-01-05T09:00:00Z");
	l->duration_s = 180, l->interval_s = 10, l->bucket_s = 60, l->buckets = 3;
	l->complete = 0;
	strcpy(l->stopped, "the box stopped answering (ssh: Broken pipe; x), after 3 of 60 buckets");
	nb_growth_parse("25%/year", &l->growth);
	l->have_total = 1;
	l->total = (struct nb_load_fig){ 352.25, 350.125, 371, 2.9, 2.875, 3.0625, 2,
					 70.25, 8192, 8192, 1.0596 };
	for (int i = 0; i < 2; i++) {
		v = nb_load_add_vm(l, i ? "vg0/web-frontend" : "vg0/vm01");
		assert_non_null(v);
		strcpy(v->device, i ? "dm-1" : "dm-0");
		v->size = i ? 20ULL << 30 : 40ULL << 30;
		v->share = i ? 33.3333 : 66.6667;
		v->f = (struct nb_load_fig){ 101.5 + i, 99.75, 112.375, 0.83, 0.8125,
					     0.92, 1, 70.125, 8192, 4096.5, 1.1265 };
		v->sequential = i ? 20 : 3.25;
		v->seq_from = i ? NB_SEQ_ASSUMED : NB_SEQ_MERGES;
		assert_int_equal(nb_load_series(v, 3), 0);
		for (int k = 0; k < 3; k++)
			v->series[k] = (struct nb_load_bucket){ 70.1 + k, 29.9, 0.574, 0.2455,
								i ? -1 : 2.5 };
	}
	l->nfs.have = 1;
	strcpy(l->nfs.source, "/proc/net/rpc/nfsd");
	l->nfs.ops = 1203, l->nfs.ops_mean = 1100.5, l->nfs.ops_peak = 1300;
	for (int i = 0; i < NB_NFS_N; i++)
		l->nfs.mix[i] = 100.0 / NB_NFS_N;
	l->nfs.read_mbps = 12.5, l->nfs.write_mbps = -1;
	p = nb_load_add_pool(l, "tank");
	strcpy(p->source, "zpool iostat -v, -r");
	p->f = (struct nb_load_fig){ 900, 850, 1000, 40, 38, 45, 0, 30, 32768,
				     131072, 1.18 };
	p->aggregated = 42.5;
	l->data.have = 1;
	l->data.compressratio = 1.62, l->data.dedupratio = 1;
	l->data.arc_hit = 87.5, l->data.arc_size = 17179869184.0;
}

static void round_trip(void **state)
{
	struct nb_load a, b;
	char *t1, *t2;

	(void)state;
	sample(&a);
	t1 = nb_load_format(&a);
	assert_non_null(t1);
	nb_load_init(&b);
	if (nb_load_parse(&b, t1, "load.ini"))
		fail_msg("%s\n%s", nb_err_last(), t1);
	t2 = nb_load_format(&b);
	assert_string_equal(t1, t2);
	/* what the replay reads */
	assert_int_equal(b.nvms, 2);
	assert_int_equal(nb_load_population(&b), 2);
	assert_string_equal(b.vms[1].name, "vg0/web-frontend");
	NEAR(b.vms[1].f.iops, 102.5, 1e-9);
	NEAR(b.vms[0].f.bs_write, 4097, 0.5);      /* whole bytes */
	NEAR(b.vms[0].sequential, 3.25, 1e-9);
	assert_int_equal(b.vms[0].seq_from, NB_SEQ_MERGES);
	assert_int_equal(b.vms[1].nbuckets, 3);
	assert_true(b.vms[1].series[2].seq < 0);
	NEAR(b.vms[0].series[2].r_iops, 72.1, 1e-9);
	assert_int_equal(b.total.peak_bucket, 2);
	assert_int_equal(b.growth.kind, NB_GROWTH_RATE);
	NEAR(b.growth.value, 0.25, 1e-12);
	assert_false(b.complete);
	/* a ';' of a value cannot start a comment when read back */
	assert_null(strstr(b.stopped, ";"));
	assert_true(b.vms[0].size == 40ULL << 30);
	NEAR(b.pools[0].aggregated, 42.5, 1e-9);
	assert_true(b.nfs.have && b.nfs.write_mbps < 0);
	/* the old box's data and cache (docs/data.md); what was not said
	 * stays unsaid */
	assert_true(b.data.have);
	NEAR(b.data.compressratio, 1.62, 1e-12);
	NEAR(b.data.arc_hit, 87.5, 1e-12);
	NEAR(b.data.arc_size, 17179869184.0, 0.5);
	assert_true(isnan(b.data.arc_max));
	assert_non_null(strstr(t1, "[data]\n"));
	/* every figure says what it is */
	assert_non_null(strstr(t1, "iops            = 101.5           ; busiest-hour "
			       "level: p95 of 3 buckets of 60s"));
	assert_non_null(strstr(t1, "; too short for a busiest-hour level: 3 buckets"));
	free(t1);
	free(t2);
	nb_load_free(&a);
	nb_load_free(&b);
}

/* A user's own: a class of ten VMs, the rest by default. */
static void hand_written(void **state)
{
	static const char text[] =
		"# two classes of VMs, by hand\n"
		"[population]\n"
		"growth = 4 VMs a year\n"
		"[vm web]\n"
		"  count = 10     ; ten like it\n"
		"  iops = 50\n"
		"  read = 70\n"
		"  bs_read = 8K\n"
		"  bs_write = 16KiB\n"
		"[vm db]\n"
		"iops = 400\n"
		"read = 100\n"
		"bs_read = 8192\n";
	struct nb_load l;

	(void)state;
	nb_load_init(&l);
	if (nb_load_parse(&l, text, "mine.ini"))
		fail_msg("%s", nb_err_last());
	assert_int_equal(nb_load_population(&l), 11);
	NEAR(l.vms[0].f.bs_write, 16384, 0);
	NEAR(l.vms[0].f.iops_mean, 50, 0);
	NEAR(l.vms[0].f.iops_peak, 50, 0);
	NEAR(l.vms[0].f.burstiness, 1, 0);
	NEAR(l.vms[0].sequential, 20, 0);          /* the [vm] profile's */
	assert_int_equal(l.vms[0].seq_from, NB_SEQ_ASSUMED);
	NEAR(l.vms[1].f.bs_write, 0, 0);           /* it never writes */
	NEAR(l.vms[0].f.mbps, 50 * (0.7 * 8192 + 0.3 * 16384) / 1e6, 1e-9);
	assert_null(l.vms[0].series);
	assert_int_equal(l.growth.kind, NB_GROWTH_VMS);
	nb_load_free(&l);
}

static void refused(const char *text, const char *want)
{
	struct nb_load l;

	nb_load_init(&l);
	nb_err_clear();
	if (nb_load_parse(&l, text, "load.ini") != -EINVAL)
		fail_msg("accepted: %s", text);
	if (strcmp(nb_err_last(), want))
		fail_msg("said '%s', not '%s'", nb_err_last(), want);
	nb_load_free(&l);
}

#define VM "[vm a]\niops = 5\nread = 50\nbs_read = 4K\nbs_write = 4K\n"

static void refusals(void **state)
{
	(void)state;
	refused(VM "iop = 5\n", "load.ini:6: unknown key 'iop' in [vm a]; did you "
		"mean 'iops'?");
	refused(VM "read = 120\n", "load.ini:6: 'read' in [vm a]: 120% is over 100%");
	refused(VM "iops = -1\n", "load.ini:6: 'iops' in [vm a]: '-1' is not a "
		"number from 0 to 10^15");
	refused(VM "bs_read = 9e99\n", "load.ini:6: 'bs_read' in [vm a]: invalid "
		"size '9e99' (bytes, or with K, M, KiB...)");
	refused(VM "bs_read = 4Q\n", "load.ini:6: 'bs_read' in [vm a]: invalid size "
		"'4Q' (bytes, or with K, M, KiB...)");
	refused(VM "count = 0\n", "load.ini:6: 'count' in [vm a]: '0' is not a whole "
		"number from 1 to 1000000");
	refused("[vm a]\nread = 50\n", "load.ini:1: [vm a] has no 'iops' (a VM needs "
		"iops, read, and the bs_read and bs_write its reads and writes use)");
	refused("[vm a]\niops = 5\nread = 50\nbs_read = 4K\n\n[vm b]\n",
		"load.ini:1: [vm a] has no 'bs_write' (a VM needs iops, read, and the "
		"bs_read and bs_write its reads and writes use)");
	refused(VM "[vm a]\n", "load.ini:6: [vm a] is defined twice");
	refused("[series a]\n0 = 1 1 1 1 1\n" VM,
		"load.ini:1: [series a] before (or without) its [vm a]");
	refused(VM "[series a]\n0 = 1 1 1 1 1\n2 = 1 1 1 1 1\n",
		"load.ini:8: bucket 2 in [series a] after bucket 0: a series is whole, "
		"from 0 up");
	refused(VM "[series a]\n0 = 1 1 1 1\n", "load.ini:7: bucket 0 in [series a]: "
		"expected 5 figures (read IOPS, write IOPS, read MB/s, write MB/s, "
		"sequential % or -)");
	refused("[capture]\nbuckets = 2\n" VM "[series a]\n0 = 1 1 1 1 -\n",
		"load.ini:3: [series a] has 1 buckets, [capture] says buckets = 2");
	refused("[vms a]\n", "load.ini:1: unknown section [vms]; did you mean [vm]?");
	refused("[vm]\n", "load.ini:1: a [vm] section needs a name: [vm NAME]");
	refused("[total x]\n", "load.ini:1: [total] takes no name");
	refused("iops = 5\n", "load.ini:1: 'iops' before any section");
	refused(VM "just words\n", "load.ini:6: expected 'key = value', a [section] "
		"or a comment");
	refused("[population]\ngrowth = 25\n" VM,
		"load.ini:2: 'growth' in [population]: invalid growth '25': expected "
		"a rate such as 25%/year or VMs a year such as 4vms/year (a number "
		"alone says neither)");
	refused("[capture]\nbusy = p20\n" VM, "load.ini:2: 'busy' in [capture]: p20 "
		"is below p50 (the busiest-hour level is a high percentile: p95)");
	refused("; nothing\n", "load.ini:1: no [vm NAME] section: the load has no VM");
	refused("", "load.ini:1: no [vm NAME] section: the load has no VM");
	refused("[capture]\nstart = 2026\n[capture]\n" VM,
		"load.ini:3: duplicate section [capture]");
	refused("[data]\ncompressratio = 0.5\n" VM, "load.ini:2: 'compressratio' in "
		"[data]: '0.5' is not a ratio from 1 to 1000");
	refused("[data]\ncompressratio = nan\n" VM, "load.ini:2: 'compressratio' in "
		"[data]: 'nan' is not a ratio from 1 to 1000");
	refused("[data]\narc_hit = 101\n" VM, "load.ini:2: 'arc_hit' in [data]: "
		"101% is over 100%");
	refused("[data]\n[data]\n" VM, "load.ini:2: duplicate section [data]");
	refused("[data]\narc_hits = 5\n" VM, "load.ini:2: unknown key 'arc_hits' in [data]; "
		"did you mean 'arc_hit'?");
}

static void file_io(void **state)
{
	char path[] = "/tmp/nbtest-load.XXXXXX", *t1, *t2;
	struct nb_load a, b;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	sample(&a);
	assert_int_equal(nb_load_write(&a, path), 0);
	nb_load_init(&b);
	assert_int_equal(nb_load_read(&b, path), 0);
	t1 = nb_load_format(&a);
	t2 = nb_load_format(&b);
	assert_string_equal(t1, t2);
	nb_load_free(&b);
	nb_load_init(&b);
	unlink(path);
	nb_err_clear();
	assert_int_equal(nb_load_read(&b, path), -ENOENT);
	assert_non_null(strstr(nb_err_last(), "cannot read load file '/tmp/nbtest-load."));
	nb_load_free(&a);
	nb_load_free(&b);
	free(t1);
	free(t2);
}

/* What nasbench's own reader refuses is never written (issue 45: a
 * capture wrote "iops = 8.36e+29" and "-nan", and 'capture --show'
 * refused the file): the writer reads its text back first. */
/* The line of L's text where TEXT begins (1 the first). */
static int line_of(const struct nb_load *l, const char *text)
{
	char *t = nb_load_format(l), *p = strstr(t, text);
	int n = 1;

	assert_non_null(p);
	for (char *q = t; q < p; q++)
		n += *q == '\n';
	free(t);
	return n;
}

static void writer_reads_back(void **state)
{
	char path[] = "/tmp/nbtest-load.XXXXXX", want[600];
	struct nb_load a;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	sample(&a);
	a.vms[1].f.iops = NAN;
	a.vms[0].series[2].w_mbps = 8.36e29;
	assert_int_equal(nb_load_write(&a, path), -EINVAL);
	snprintf(want, sizeof(want), "load file '%s' not written: nasbench's own "
		 "reader would refuse it (%s:%d: 'iops' in [vm vg0/web-frontend]: "
		 "'nan' is not a number from 0 to 10^15)", path, path, line_of(&a,
		 "[vm vg0/web-frontend]") + 5);
	assert_string_equal(nb_err_last(), want);
	assert_int_equal(access(path, F_OK), -1);
	a.vms[1].f.iops = 12;
	assert_int_equal(nb_load_write(&a, path), -EINVAL);
	assert_non_null(strstr(nb_err_last(), ": bucket 2 in [series vg0/vm01]: "
			       "'8.36e+29' is not a figure)"));
	assert_int_equal(access(path, F_OK), -1);
	nb_load_free(&a);
}

/* A box's names are anyone's bytes: written as text the reader takes
 * back (core/boxtext.h; no comment sign, no line break), the same name in
 * [vm] and [series]; a name that is not UTF-8 is refused on reading. */
static void box_names(void **state)
{
	struct nb_load a, b;
	char *t1, *t2;

	(void)state;
	sample(&a);
	strcpy(a.vms[0].name, " caf\xe9 ;x\n[vm y] #z");
	strcpy(a.vms[0].device, "dm-\x1b[2J");
	strcpy(a.pools[0].name, "t\xffnk");
	strcpy(a.gaps, "spans left out: 1; the first: device 'caf\xe9'");
	t1 = nb_load_format(&a);
	assert_non_null(strstr(t1, "\n[vm caf\\xe9 ,x\\x0a[vm y] ,z]\n"));
	assert_non_null(strstr(t1, "\n[series caf\\xe9 ,x\\x0a[vm y] ,z]\n"));
	assert_non_null(strstr(t1, "\n[pool t\\xffnk]\n"));
	assert_non_null(strstr(t1, "device          = dm-\\x1b[2J"));
	assert_non_null(strstr(t1, "gaps            = spans left out: 1, the first: "
			       "device 'caf\\xe9'\n"));
	nb_load_init(&b);
	assert_int_equal(nb_load_parse(&b, t1, "load.ini"), 0);
	assert_string_equal(b.vms[0].name, "caf\\xe9 ,x\\x0a[vm y] ,z");
	t2 = nb_load_format(&b);
	assert_string_equal(t1, t2);
	nb_load_free(&b);
	free(t2);
	free(t1);
	nb_load_free(&a);
	refused("[vm caf\xe9]\niops = 1\nread = 100\nbs_read = 4K\n",
		"load.ini:1: the name of [vm] is not UTF-8 text (a control "
		"character, or bytes of another encoding)");
	refused("[capture]\nsource = ssh://caf\xe9\n[vm a]\niops = 1\nread = 100\n"
		"bs_read = 4K\n", "load.ini:2: 'source' in [capture] is not UTF-8 "
		"text (a control character, or bytes of another encoding)");
}

static void growth_parse(void **state)
{
	static const struct { const char *s; int kind; double v; } ok[] = {
		{ "25%/year", NB_GROWTH_RATE, 0.25 }, { "25%", NB_GROWTH_RATE, 0.25 },
		{ "25 % per year", NB_GROWTH_RATE, 0.25 }, { "7.5%/yr", NB_GROWTH_RATE, 0.075 },
		{ "4vms/year", NB_GROWTH_VMS, 4 }, { "4 VMs a year", NB_GROWTH_VMS, 4 },
		{ "1 vm/year", NB_GROWTH_VMS, 1 }, { "1000%/year", NB_GROWTH_RATE, 10 },
	};
	static const char *const bad[] = { "", "25", "abc", "0%/year", "-5%/year",
					   "25%/month", "2000%/year", "0vms/year",
					   "4 disks/year", "nan%", "25%/year!" };
	struct nb_growth g;
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (nb_growth_parse(ok[i].s, &g))
			fail_msg("'%s' refused: %s", ok[i].s, nb_err_last());
		assert_int_equal(g.kind, ok[i].kind);
		NEAR(g.value, ok[i].v, 1e-12);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		nb_err_clear();
		if (nb_growth_parse(bad[i], &g) != -EINVAL)
			fail_msg("'%s' accepted", bad[i]);
		assert_non_null(strstr(nb_err_last(), "invalid growth '"));
	}
	assert_int_equal(nb_growth_check("0%"), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid growth '0%': the rate must be "
			    "above 0%/year (a load that does not grow is held as "
			    "long as the headroom is 1 or more)");
	nb_growth_parse("25%/year", &g);
	assert_string_equal(nb_growth_fmt(&g, buf, sizeof(buf)), "25%/year");
	nb_growth_parse("4 VMs/year", &g);
	assert_string_equal(nb_growth_fmt(&g, buf, sizeof(buf)), "4 VMs/year");
}

static void growth_years(void **state)
{
	struct nb_growth g;

	(void)state;
	/* 25% a year: 2x headroom holds ln 2 / ln 1.25 = 3.106 years; the
	 * five years of the story need 1.25^5 = 3.05x */
	nb_growth_parse("25%/year", &g);
	NEAR(nb_growth_years(&g, 2, 0), log(2) / log(1.25), 1e-12);
	NEAR(nb_growth_years(&g, 2, 0), 3.1063, 1e-4);
	NEAR(nb_growth_headroom(&g, 5, 0), 3.0518, 1e-4);
	NEAR(nb_growth_years(&g, nb_growth_headroom(&g, 5, 0), 0), 5, 1e-9);
	NEAR(nb_growth_years(&g, 1, 0), 0, 0);
	NEAR(nb_growth_years(&g, 0.8, 0), 0, 0);      /* not even today's */
	/* 4 VMs a year on 24 VMs: 1.5x holds 12 more VMs, 3 years */
	nb_growth_parse("4vms/year", &g);
	NEAR(nb_growth_years(&g, 1.5, 24), 3, 1e-12);
	NEAR(nb_growth_headroom(&g, 3, 24), 1.5, 1e-12);
	NEAR(nb_growth_years(&g, 1.5, 0), -1, 0);     /* VMs today unknown */
	g.kind = NB_GROWTH_NONE;
	assert_true(isinf(nb_growth_years(&g, 1.5, 24)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(hand_written),
		cmocka_unit_test(refusals),
		cmocka_unit_test(file_io),
		cmocka_unit_test(writer_reads_back),
		cmocka_unit_test(box_names),
		cmocka_unit_test(growth_parse),
		cmocka_unit_test(growth_years),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
