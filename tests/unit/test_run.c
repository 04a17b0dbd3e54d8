/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run pipeline (run/runplan.c, run/exec.c) through the in-memory runner:
 * plans from config and overrides, the space check, every status, an
 * interrupt, partial results. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem_runner.h"
#include "../../core/err.h"
#include "../../core/result.h"
#include "../../core/samples.h"
#include "../../run/exec.h"

static struct nb_config cfg;
static struct nb_runplan pl;
static volatile sig_atomic_t stop;

NB_MEM_FIXTURE(cfg, stop)

static void set(const char *key, const char *value)
{
	char where[64];

	snprintf(where, sizeof(where), "--%s", key);
	assert_int_equal(nb_config_override(&cfg, "suite", key, value, where), 0);
}

static const char *names(const struct nb_runplan *p)
{
	static char buf[512];
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < p->nwl; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s*%d",
					i ? "," : "", p->wl[i]->name,
					nb_runplan_iters(p, i));
	return buf;
}

static void plan_default(void **state)
{
	(void)state;
	assert_int_equal(nb_runplan_make(&pl, &cfg, NULL, NULL, 0), 0);
	assert_string_equal(names(&pl), "seq512k-write*3,seq512k-read*3,"
			    "rand4k-write*3,rand4k-read*3");
	assert_null(pl.suite);
	assert_int_equal(pl.p.size, 0);
}

static void plan_suite_under_overrides(void **state)
{
	(void)state;
	set("suite", "quick");
	set("size", "64M");
	assert_int_equal(nb_config_apply(&cfg, 0), 0);
	assert_int_equal(nb_runplan_make(&pl, &cfg, NULL, NULL, 0), 0);
	assert_string_equal(pl.suite->name, "quick");
	/* the user's size, the suite's runtime where the user set none */
	assert_int_equal(pl.p.size, 64 << 20);
	assert_int_equal(pl.p.runtime_us, 2000000);
	assert_int_equal(pl.p.direct, -1);
	assert_int_equal(nb_runplan_space(&pl), 64 << 20);
}

static void plan_items_and_iterations(void **state)
{
	(void)state;
	set("suite", "seed2");
	assert_int_equal(nb_config_apply(&cfg, 0), 0);
	assert_int_equal(nb_runplan_make(&pl, &cfg, NULL, NULL, 0), 0);
	assert_string_equal(names(&pl), "bonnie*5,bigfile*1,xz*1");
	/* -i overrides NAME*N */
	set("iterations", "2");
	assert_int_equal(nb_config_apply(&cfg, 0), 0);
	assert_int_equal(nb_runplan_make(&pl, &cfg, NULL, NULL, 0), 0);
	assert_string_equal(names(&pl), "bonnie*2,bigfile*2,xz*2");
	/* --workload wins over the suite */
	assert_int_equal(nb_runplan_make(&pl, &cfg, "xz,rand4k-read*4", NULL, 0), 0);
	assert_string_equal(names(&pl), "xz*2,rand4k-read*2");
}

static void plan_accept_runs_what_criteria_name(void **state)
{
	const char *extra[] = { "seq512k-read", "integrity" };

	(void)state;
	set("suite", "accept");
	assert_int_equal(nb_config_apply(&cfg, 0), 0);
	assert_int_equal(nb_runplan_make(&pl, &cfg, NULL, extra, 2), 0);
	assert_string_equal(names(&pl), "integrity*3,syncprobe*3,conform*3,"
			    "seq512k-read*3");
	assert_int_equal(nb_runplan_make(&pl, &cfg, "syncprobe", extra, 2), 0);
	assert_string_equal(names(&pl), "syncprobe*3");
}

static void plan_errors(void **state)
{
	(void)state;
	assert_int_equal(nb_runplan_make(&pl, &cfg, "seq512k-wirte", NULL, 0), -EINVAL);
	assert_string_equal(nb_err_last(), "unknown workload 'seq512k-wirte'; did "
			    "you mean 'seq512k-write'?");
	assert_int_equal(nb_runplan_make(&pl, &cfg, "zzzzzzzz", NULL, 0), -EINVAL);
	assert_string_equal(nb_err_last(), "unknown workload 'zzzzzzzz' (see "
			    "'nasbench list workloads')");
	assert_int_equal(nb_runplan_make(&pl, &cfg, "xz*0", NULL, 0), -EINVAL);
	assert_string_equal(nb_err_last(), "workload item 'xz*0': expected NAME*N "
			    "with N from 1 to 1000");
	set("suite", "quik");
	assert_int_equal(nb_config_apply(&cfg, 0), 0);
	assert_int_equal(nb_runplan_make(&pl, &cfg, NULL, NULL, 0), -EINVAL);
	assert_string_equal(nb_err_last(), "unknown suite 'quik'; did you mean "
			    "'quick'?");
	/* a bad value names the option it came from */
	set("size", "12Q");
	assert_int_equal(nb_config_apply(&cfg, 0), -EINVAL);
	assert_string_equal(nb_err_last(), "--size: invalid size '12Q' (use a "
			    "number with K, M, G, T, KiB, GB...)");
}

/* Run WORKLOADS (ITERATIONS of SIZE; NULL: the default count) on one
 * target "m" served by OPS; the run must exit with CODE. The result. */
static json_t *run_on(const struct nb_runner_ops *ops, const char *workloads,
		      const char *iterations, const char *size, int code)
{
	json_t *doc;

	set("size", size);
	if (iterations)
		set("iterations", iterations);
	doc = nb_mem_run(&cfg, &pl, &stop, ops, workloads, code);
	nb_result_finish(doc, !stop);
	return doc;
}

/* the same on the in-memory runner, files of SIZE (run: 1M) */
static json_t *run_sized(const char *workloads, const char *iterations,
			 const char *size, int code)
{
	return run_on(&nb_runner_mem, workloads, iterations, size, code);
}

static json_t *run(const char *workloads, const char *iterations, int code)
{
	return run_sized(workloads, iterations, "1M", code);
}

static const json_t *entry(const json_t *doc, int i)
{
	return json_array_get(json_object_get(doc, "results"), (size_t)i);
}

/* the status and reason of result I, the error of the target */
static const char *status(const json_t *doc, int i)
{
	return nb_jstr(entry(doc, i), "status");
}

static const char *reason(const json_t *doc, int i)
{
	return nb_jstr(entry(doc, i), "reason");
}

static const char *target_error(const json_t *doc)
{
	return nb_jstr(json_array_get(json_object_get(doc, "targets"), 0), "error");
}

static size_t iterations(const json_t *doc, int i)
{
	return json_array_size(json_object_get(entry(doc, i), "iterations"));
}

static void exec_ok(void **state)
{
	json_t *doc = run("rand4k-write,rand4k-read", "2", NB_EXIT_OK);
	const json_t *t = json_array_get(json_object_get(doc, "targets"), 0);

	(void)state;
	assert_string_equal(nb_jstr(t, "runner"), "mem");
	assert_string_equal(nb_jstr(t, "url"), "/mem");
	assert_string_equal(json_string_value(json_array_get(
		json_object_get(t, "runner_caps"), 1)), "async");
	assert_string_equal(status(doc, 0), "ok");
	assert_int_equal(iterations(doc, 0), 2);
	assert_int_equal(iterations(doc, 1), 2);
	assert_true(json_is_true(json_object_get(doc, "complete")));
	json_decref(doc);
}

static void exec_space_check(void **state)
{
	json_t *doc;

	(void)state;
	nb_mem_faults.space = 1000;
	doc = run("seq512k-write", "1", NB_EXIT_TARGET);
	assert_string_equal(target_error(doc), "target 'm' has 1000 B free, but the "
			    "workloads need 1 MiB: lower the size (--size)");
	assert_int_equal(json_array_size(json_object_get(doc, "results")), 0);
	json_decref(doc);
}

static void exec_open_error(void **state)
{
	json_t *doc;

	(void)state;
	nb_mem_faults.open_error = -ECONNREFUSED;
	doc = run("seq512k-write", "1", NB_EXIT_TARGET);
	assert_string_equal(target_error(doc), "target 'm': cannot connect");
	json_decref(doc);
}

static void exec_skipped(void **state)
{
	json_t *doc = run("syncprobe,conform,rand4k-read", "1", NB_EXIT_OK);

	(void)state;
	assert_string_equal(status(doc, 0), "skipped");
	assert_string_equal(reason(doc, 0), "the mem runner on "
			    "this target has no durable (sync) writes");
	assert_string_equal(reason(doc, 1), "it serves nfs,iscsi "
			    "targets only, not mem");
	assert_string_equal(status(doc, 2), "ok");
	json_decref(doc);
}

static void exec_failed_then_skipped(void **state)
{
	json_t *doc;

	(void)state;
	nb_mem_faults.fail_after = 3;
	doc = run("seq512k-write,rand4k-read", "2", NB_EXIT_TARGET);
	assert_string_equal(status(doc, 0), "failed");
	assert_non_null(strstr(reason(doc, 0), "Input/output error"));
	assert_int_equal(iterations(doc, 0), 1);     /* the finished one */
	assert_string_equal(status(doc, 1), "skipped");
	assert_string_equal(reason(doc, 1), "an earlier workload "
			    "on this target failed");
	json_decref(doc);
}

static void exec_interrupt_keeps_what_finished(void **state)
{
	json_t *doc;

	(void)state;
	/* 1 MiB of 512 KiB writes: 2 I/Os an iteration; stop in the second */
	nb_mem_faults.stop_after = 3;
	doc = run("seq512k-write,rand4k-read", "3", NB_EXIT_OK);
	assert_true(stop);
	assert_string_equal(status(doc, 0), "interrupted");
	assert_int_equal(iterations(doc, 0), 1);
	/* nothing more ran, and the document says it is incomplete */
	assert_int_equal(json_array_size(json_object_get(doc, "results")), 1);
	assert_true(json_is_false(json_object_get(doc, "complete")));
	json_decref(doc);
}

/* A workload refused on the target's runner: exit 2 before any target is
 * opened, nothing in the result (the runner here has no open at all) */
static void exec_refused(void **state)
{
	static const struct nb_runner_ops fake_nfs = { .name = "nfs" };
	json_t *doc;

	(void)state;
	doc = run_on(&fake_nfs, "seq512k-write,bonnie", NULL, "1M", NB_EXIT_USAGE);
	assert_int_equal(json_array_size(json_object_get(doc, "results")), 0);
	assert_int_equal(json_array_size(json_object_get(doc, "targets")), 0);
	json_decref(doc);
}

static double metric(const json_t *doc, const char *name)
{
	const json_t *it = json_array_get(json_object_get(entry(doc, 0),
							  "iterations"), 0);

	return json_number_value(json_object_get(json_object_get(it, "metrics"),
						 name));
}

/* bonnie's per-char phases as bonnie++ 2.00's: one I/O per byte over the
 * first 3 MiB (DefaultByteIO), not the whole file through a buffer */
static void exec_bonnie_per_char(void **state)
{
	const long blocks = (4 << 20) / 8192, chars = 3 << 20;
	json_t *doc;

	(void)state;
	doc = run_sized("bonnie", "1", "4M", NB_EXIT_OK);
	assert_string_equal(status(doc, 0), "ok");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		entry(doc, 0), "spec"), "char_size")), chars);
	assert_true(metric(doc, "put_char_kps") > 0 && metric(doc, "get_char_kps") > 0);
	/* put_char and get_char a byte each; put_block, get_block one chunk
	 * each, rewrite two; 8192 seeks, of which about one in ten writes */
	assert_true(nb_mem_faults.ios >= 2 * chars + 4 * blocks + 8192);
	assert_true(nb_mem_faults.ios <= 2 * chars + 4 * blocks + 2 * 8192);
	json_decref(doc);
}

/* bonnie's block data does not compress: fresh data in every chunk (one
 * 8 KiB chunk reused, as before, compresses about 9x) */
static void exec_bonnie_incompressible(void **state)
{
	size_t len, out_len, out_pos = 0;
	unsigned char *out;
	json_t *doc;

	(void)state;
	set("fast", "yes");
	doc = run_sized("bonnie", "1", "4M", NB_EXIT_OK);
	/* the seeks phase removes the file: its last contents */
	len = nb_mem_faults.removed_size;
	assert_int_equal(len, 4 << 20);
	out_len = len + len / 2;
	out = malloc(out_len);
	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_NONE, NULL,
						 nb_mem_faults.removed, len, out,
						 &out_pos, out_len), LZMA_OK);
	assert_true((double)len / (double)out_pos <= 1.02);
	free(out);
	free(nb_mem_faults.removed);
	nb_mem_faults.removed = NULL;
	json_decref(doc);
}

/* every iteration of a sequential write does the same work: a new file
 * each time, not one allocation then overwrites */
/* No figure without the samples to carry it (core/samples.h): 1 MiB of
 * 512 KiB writes is two I/Os, no mean; 1 MiB of 4 KiB reads is 256, a
 * mean and a p50 but no p99.  The entry of the first is unmeasured and
 * the run exits 5; the second is ok, its p99 listed unmeasured. */
static void exec_unmeasured(void **state)
{
	json_t *doc = run("seq512k-write,rand4k-read", "2", NB_EXIT_INCONCLUSIVE);
	const json_t *it = json_array_get(json_object_get(entry(doc, 0),
							  "iterations"), 1);
	const json_t *rd = json_array_get(json_object_get(entry(doc, 1),
							  "iterations"), 0);
	const json_t *v;
	size_t i;
	int iops = 0, p99 = 0, p50 = 0, max = 0;

	(void)state;
	assert_string_equal(status(doc, 0), "unmeasured");
	assert_string_equal(reason(doc, 0), "iteration 1 timed 2 I/Os, fewer than "
			    "the 100 a mean needs: its figures are shown, not "
			    "measured (run longer: --runtime, --step-time)");
	assert_int_equal(iterations(doc, 0), 2);
	assert_int_equal(json_integer_value(json_object_get(it, "timed")), 2);
	json_array_foreach(json_object_get(it, "unmeasured"), i, v) {
		iops += !strcmp(json_string_value(v), "iops");
		p99 += !strcmp(json_string_value(v), "lat_p99_us");
		max += !strcmp(json_string_value(v), "lat_max_us");
	}
	assert_int_equal(iops + p99, 2);
	assert_int_equal(max, 0);
	assert_true(nb_samples_short(it, "bw_bytes"));
	assert_true(nb_samples_entry_short(entry(doc, 0), "lat_mean_us"));
	/* 256 reads: ok, only the tail unmeasured */
	assert_string_equal(status(doc, 1), "ok");
	assert_int_equal(json_integer_value(json_object_get(rd, "timed")), 256);
	json_array_foreach(json_object_get(rd, "unmeasured"), i, v) {
		p50 += !strcmp(json_string_value(v), "lat_p50_us");
		p99 += !strcmp(json_string_value(v), "lat_p99_us");
	}
	assert_int_equal(p50, 0);
	assert_int_equal(p99, 2);
	assert_false(nb_samples_short(rd, "iops"));
	json_decref(doc);
}

static void exec_iterations_alike(void **state)
{
	/* two I/Os an iteration: unmeasured (exec_unmeasured) */
	json_t *doc = run("seq512k-write", "3", NB_EXIT_INCONCLUSIVE);
	const json_t *its;

	(void)state;
	assert_int_equal(nb_mem_faults.grown, 3 << 20);
	its = json_object_get(entry(doc, 0), "iterations");
	for (size_t i = 0; i < 3; i++) {
		const json_t *it = json_array_get(its, i);

		assert_int_equal(json_integer_value(json_object_get(it, "bytes_written")),
				 1 << 20);
		assert_int_equal(json_integer_value(json_object_get(it, "prefilled_bytes")),
				 0);
	}
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(plan_default, setup, teardown),
		cmocka_unit_test_setup_teardown(plan_suite_under_overrides, setup,
						teardown),
		cmocka_unit_test_setup_teardown(plan_items_and_iterations, setup,
						teardown),
		cmocka_unit_test_setup_teardown(plan_accept_runs_what_criteria_name,
						setup, teardown),
		cmocka_unit_test_setup_teardown(plan_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(exec_ok, setup, teardown),
		cmocka_unit_test_setup_teardown(exec_space_check, setup, teardown),
		cmocka_unit_test_setup_teardown(exec_open_error, setup, teardown),
		cmocka_unit_test_setup_teardown(exec_skipped, setup, teardown),
		cmocka_unit_test_setup_teardown(exec_failed_then_skipped, setup,
						teardown),
		cmocka_unit_test_setup_teardown(exec_interrupt_keeps_what_finished,
						setup, teardown),
		cmocka_unit_test_setup_teardown(exec_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(exec_bonnie_per_char, setup, teardown),
		cmocka_unit_test_setup_teardown(exec_bonnie_incompressible, setup,
						teardown),
		cmocka_unit_test_setup_teardown(exec_iterations_alike, setup,
						teardown),
		cmocka_unit_test_setup_teardown(exec_unmeasured, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
