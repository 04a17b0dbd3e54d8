/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fio_remote.c - fio's nfs and libiscsi engines: their job files
 * (golden, and read by a fio that has the engines), the check that the
 * fio found has them (a stand-in program that prints an engine list as
 * 'fio --enghelp' does), and the clients' spans: who started late, who
 * finished early, from bandwidth logs as fio's client writes them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "files.h"
#include "scratch.h"
#include "../../core/err.h"
#include "../../fio/engines.h"
#include "../../fio/job.h"
#include "../../fio/overlap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* The fio ci/fio-engines builds (quiet and offline once built, as make
 * check has it built) into BUF; a failure says which of its steps failed
 * (its own words: the dpkg lock waited for too long, the source, the
 * build), not only that no line came. */
static void fio_with_engines(char *buf, size_t len)
{
	char cmd[512], err[2048] = "";
	size_t n;
	FILE *p, *e;
	int st, got;

	snprintf(cmd, sizeof(cmd), "ci/fio-engines 2>%s/fio-engines.err",
		 test_scratch);
	p = popen(cmd, "r");
	if (!p)
		fail_msg("cannot run ci/fio-engines: %s", strerror(errno));
	got = 0;
	while (fgets(buf, (int)len, p))
		got = 1;                 /* the path is the last line */
	st = pclose(p);
	snprintf(cmd, sizeof(cmd), "%s/fio-engines.err", test_scratch);
	e = fopen(cmd, "r");
	n = e ? fread(err, 1, sizeof(err) - 1, e) : 0;
	err[n] = '\0';
	if (e)
		fclose(e);
	if (st != 0 || !got)
		fail_msg("ci/fio-engines failed (exit status %d%s): %s",
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1,
			 got ? "" : ", no fio path printed",
			 n ? err : "it said nothing on stderr");
	buf[strcspn(buf, "\n")] = '\0';
}

static void test_jobfile_nfs_iscsi(void **state)
{
	struct nb_fio_job nfs = {
		.s = { .pattern = NB_PAT_SEQ, .rw = NB_RW_WRITE, .bs = 524288,
		       .qd = 16, .size = 256 << 20, .sync = NB_SYNC_END,
		       .direct = 1, .runtime_us = 2000000 },
		.ioengine = "nfs", .nfs_url = "nfs://127.0.0.1/srv/export",
		.filename = "bench/nasbench.R/data", .unlink = 1,
		.comment = "nasbench test: seq512k-write over nfs" };
	struct nb_fio_job iscsi = {
		.s = { .pattern = NB_PAT_RAND, .rw = NB_RW_READ, .bs = 4096,
		       .qd = 32, .size = 64 << 20, .direct = 1, .seed = 5 },
		.ioengine = "libiscsi",
		.filename = "iscsi://127.0.0.1:3262/iqn.2026-11.org.nasbench:wb/1",
		.initiator = "iqn.2026-11.org.nasbench:fio-c2", .offset = 1 << 20,
		.span_log = "/tmp/nasbench-fio.X/client2" };
	char buf[4096], cmd[8192];

	(void)state;
	assert_true(nb_fio_jobfile(&nfs, buf, sizeof(buf)) > 0);
	/* no end_fsync (the nfs engine fails it), no direct, no unlink */
	assert_null(strstr(buf, "end_fsync"));
	assert_null(strstr(buf, "direct="));
	assert_null(strstr(buf, "unlink"));
	test_golden(buf, "tests/golden/remote-nfs.fio");
	assert_true(nb_fio_jobfile(&iscsi, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "filename=iscsi\\://127.0.0.1\\:3262/"
			       "iqn.2026-11.org.nasbench\\:wb/1\n"));
	test_golden(buf, "tests/golden/remote-iscsi.fio");
	/* a fio with the engines reads both (ci/fio-engines: quiet, offline
	 * once built, as make check has it built) */
	fio_with_engines(buf, sizeof(buf));
	snprintf(cmd, sizeof(cmd), "%s --parse-only tests/golden/remote-nfs.fio "
		 "tests/golden/remote-iscsi.fio >/dev/null", buf);
	assert_int_equal(system(cmd), 0);
	/* a colon stays refused where fio would split the name there */
	nfs.filename = "a:b";
	assert_int_equal(nb_fio_jobfile(&nfs, buf, sizeof(buf)), -EINVAL);
}

/* A stand-in for fio: prints ENGINES as 'fio --enghelp' lists them. */
static void fake_fio(const char *name, const char *engines)
{
	char path[256], text[512];

	snprintf(path, sizeof(path), "%s/%s", test_scratch, name);
	snprintf(text, sizeof(text), "#!/bin/sh\necho 'Available IO engines:'\n"
		 "for e in %s; do printf '\\t%%s\\n' $e; done\n", engines);
	test_write_file(path, text);
	assert_int_equal(chmod(path, 0755), 0);
	setenv("NASBENCH_FIO", path, 1);
}

static void test_engine_check(void **state)
{
	char want[1024];

	(void)state;
	fake_fio("fio-plain", "psync libaio io_uring");
	assert_int_equal(nb_fio_has_engine("nfs"), 0);
	assert_int_equal(nb_fio_has_engine("psync"), 1);
	assert_int_equal(nb_fio_check_engine("nas", "nfs", "engine = fio"), -EINVAL);
	snprintf(want, sizeof(want), "target 'nas': engine = fio on 'nfs://' "
		 "needs fio's nfs engine, and '%s/fio-plain' has none ('fio "
		 "--enghelp' does not list it; Debian's fio is built without it): "
		 "build one with ci/fio-engines and set NASBENCH_FIO to the path "
		 "it prints", test_scratch);
	assert_string_equal(nb_err_last(), want);
	assert_int_equal(nb_fio_check_engine("lun", "iscsi", "engine = fio"),
			 -EINVAL);
	assert_non_null(strstr(nb_err_last(), "needs fio's libiscsi engine"));
	assert_int_equal(nb_fio_check_engine("local", "file", "engine = fio"), 0);
	/* another program: asked again ("nfsv4" is not "nfs") */
	fake_fio("fio-engines", "psync nfsv4 nfs libiscsi");
	assert_int_equal(nb_fio_check_engine("nas", "nfs", "engine = fio"), 0);
	assert_int_equal(nb_fio_check_engine("lun", "iscsi", "engine = fio"), 0);
	fake_fio("fio-v4", "psync nfsv4");
	assert_int_equal(nb_fio_has_engine("nfs"), 0);
	setenv("NASBENCH_FIO", "/nonexistent/fio", 1);
	assert_int_equal(nb_fio_check_engine("nas", "nfs", "engine = fio"), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'nas': engine = fio on "
			    "'nfs://' needs fio's nfs engine: cannot run "
			    "'/nonexistent/fio': No such file or directory (engine "
			    "= fio needs fio: apt-get install fio)");
	unsetenv("NASBENCH_FIO");
}

/* A bandwidth log as fio's client writes it: one "MS, BW, DIR, BS, PRIO"
 * line per period from START to END (ms since the epoch). */
static void bw_log(const char *name, uint64_t start, uint64_t end)
{
	char path[256], text[8192];
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", test_scratch, name);
	for (uint64_t t = start + NB_FIO_SPAN_AVG_MS; t <= end;
	     t += NB_FIO_SPAN_AVG_MS)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "%llu, 19113816, 1, 0, 0\n",
				      (unsigned long long)t);
	text[n] = '\0';
	test_write_file(path, text);
}

static void test_spans(void **state)
{
	const uint64_t t0 = 1796284044400ULL;
	struct nb_fio_span sp[3];
	int late[3], early[3];
	uint64_t common;
	char path[512];

	(void)state;
	bw_log("client1_bw.1.log.127.0.0.2", t0, t0 + 5000);
	bw_log("client2_bw.1.log.127.0.0.3", t0 + 100, t0 + 5100);
	bw_log("client3_bw.1.log.host-c", t0 + 1500, t0 + 4000);
	assert_int_equal(nb_fio_span_find(test_scratch, "client3", path,
					  sizeof(path)), 0);
	assert_non_null(strstr(path, "/client3_bw.1.log.host-c"));
	assert_int_equal(nb_fio_span_find(test_scratch, "client4", path,
					  sizeof(path)), -ENOENT);
	for (int i = 0; i < 3; i++) {
		char prefix[32];

		snprintf(prefix, sizeof(prefix), "client%d", i + 1);
		assert_int_equal(nb_fio_span_find(test_scratch, prefix, path,
						  sizeof(path)), 0);
		assert_int_equal(nb_fio_span_read(path, NB_FIO_SPAN_AVG_MS,
						  &sp[i]), 0);
	}
	assert_true(sp[0].start_ms == t0 && sp[0].end_ms == t0 + 5000);
	/* 5 s runs: 500 ms tolerance; 100 ms apart is together */
	assert_int_equal(nb_fio_overlap_tol(5000), 500);
	assert_int_equal(nb_fio_overlap_tol(1000), 2 * NB_FIO_SPAN_AVG_MS);
	assert_int_equal(nb_fio_overlap(sp, 2, 500, late, early, &common), 0);
	assert_int_equal(common, 4900);
	/* the third started 1.5 s late and ended 1.1 s before the last */
	assert_int_equal(nb_fio_overlap(sp, 3, 500, late, early, &common), 1);
	assert_true(!late[0] && !late[1] && late[2]);
	assert_true(!early[0] && !early[1] && early[2]);
	assert_int_equal(common, 2500);
	/* a span not known is neither late nor early */
	sp[2].ok = 0;
	assert_int_equal(nb_fio_overlap(sp, 3, 500, late, early, &common), 0);
	/* an empty log is no span */
	test_write_file(path, "");
	assert_int_equal(nb_fio_span_read(path, NB_FIO_SPAN_AVG_MS, &sp[0]),
			 -EINVAL);
	assert_int_equal(sp[0].ok, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobfile_nfs_iscsi),
		cmocka_unit_test(test_engine_check),
		cmocka_unit_test(test_spans),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup,
				      test_scratch_teardown);
}
