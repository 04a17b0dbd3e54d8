/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The load sweep and the vm workload through the run pipeline, on the
 * in-memory runner: the spec the [vm] profile implies, the sweep's JSON
 * shape, an interrupt between steps.  (The curve arithmetic is
 * test_sweep.c; figures against real devices are test_capacity.sh.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem_runner.h"
#include "../../core/err.h"
#include "../../core/result.h"
#include "../../run/exec.h"

static struct nb_config cfg;
static struct nb_runplan pl;
static volatile sig_atomic_t stop;

NB_MEM_FIXTURE(cfg, stop)

static void set(const char *section, const char *key, const char *value)
{
	char where[64];

	snprintf(where, sizeof(where), "--%s", key);
	assert_int_equal(nb_config_override(&cfg, section, key, value, where), 0);
}

/* WORKLOADS once each on the in-memory target "m"; the run exits CODE. */
static json_t *run(const char *workloads, int code)
{
	json_t *doc;

	set("suite", "size", "1M");
	set("suite", "iterations", "1");
	doc = nb_mem_run(&cfg, &pl, &stop, NULL, workloads, code);
	nb_result_finish(doc, !stop);
	return doc;
}

static const json_t *first(const json_t *doc, const char *key)
{
	const json_t *e = json_array_get(json_object_get(doc, "results"), 0);

	if (!strcmp(key, "entry"))
		return e;
	return json_object_get(json_array_get(json_object_get(e, "iterations"), 0),
			       key);
}

static const char *spec_str(const json_t *doc, const char *key)
{
	return nb_jstr(json_object_get(first(doc, "entry"), "spec"), key);
}

static long spec_int(const json_t *doc, const char *key)
{
	return (long)json_integer_value(json_object_get(
		json_object_get(first(doc, "entry"), "spec"), key));
}

static void vm_default_profile(void **state)
{
	json_t *doc;

	(void)state;
	set("suite", "runtime", "20ms");
	doc = run("vm", NB_EXIT_OK);
	assert_string_equal(nb_jstr(first(doc, "entry"), "status"), "ok");
	assert_string_equal(spec_str(doc, "rw"), "mix");
	assert_string_equal(spec_str(doc, "pattern"), "rand");
	assert_int_equal(spec_int(doc, "read_pct"), 70);
	assert_int_equal(spec_int(doc, "rand_pct"), 80);
	assert_int_equal(spec_int(doc, "bs"), 8192);
	assert_string_equal(spec_str(doc, "sync"), "end");
	/* not swept: no sweep, the usual figures */
	assert_null(first(doc, "sweep"));
	assert_non_null(json_object_get(first(doc, "metrics"), "iops"));
	json_decref(doc);
}

static void vm_profile_sets_the_spec(void **state)
{
	json_t *doc;

	(void)state;
	set("suite", "runtime", "20ms");
	set("vm", "bs", "4K");
	set("vm", "read", "0");
	set("vm", "random", "0");
	set("vm", "sync", "yes");
	doc = run("vm", NB_EXIT_OK);
	assert_string_equal(spec_str(doc, "rw"), "write");
	assert_string_equal(spec_str(doc, "pattern"), "seq");
	assert_string_equal(spec_str(doc, "sync"), "always");
	assert_int_equal(spec_int(doc, "bs"), 4096);
	assert_true(json_is_true(json_object_get(json_object_get(
		json_object_get(first(doc, "entry"), "spec"), "vm"), "sync")));
	json_decref(doc);
}

static void sweep_shape(void **state)
{
	const json_t *sw, *st, *m;
	json_t *doc;
	size_t i;

	(void)state;
	set("capacity", "steps", "1,2,4");
	set("capacity", "step-time", "100ms");
	/* a mean's 100 samples: every 100 ms step has them on memory (a
	 * p99.9's 10000 it may not: a thin step meets nothing) */
	set("capacity", "slo", "mean=10s");
	set("vm", "iops", "10");
	doc = run("vm", NB_EXIT_OK);
	sw = first(doc, "sweep");
	m = first(doc, "metrics");
	assert_non_null(sw);
	assert_string_equal(nb_jstr(sw, "objective"), "mean=10s");
	assert_true(json_is_true(json_object_get(sw, "complete")));
	assert_true(json_array_size(json_object_get(sw, "steps")) >= 3 ||
		    !strcmp(nb_jstr(sw, "stop"), "throughput-flat"));
	json_array_foreach(json_object_get(sw, "steps"), i, st) {
		assert_int_equal(json_integer_value(json_object_get(st, "outstanding")),
				 1 << i);
		assert_true(json_number_value(json_object_get(st, "iops")) > 0);
		assert_true(json_is_boolean(json_object_get(st, "little_ok")));
		assert_true(json_is_true(json_object_get(st, "slo_met")));
		assert_true(json_is_true(json_object_get(st, "enough_samples")));
	}
	assert_true(json_is_true(json_object_get(json_object_get(sw, "capacity"),
						 "found")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(sw, "vm"),
							    "iops")), 10);
	/* the answers as metrics, VMs of 10 IOPS */
	assert_true(fabs(json_number_value(json_object_get(m, "vms")) * 10 -
			 json_number_value(json_object_get(m, "iops_at_slo"))) < 1e-6);
	assert_non_null(json_object_get(m, "sat_iops"));
	assert_string_equal(spec_str(doc, "sweep"), "1,2,4");
	json_decref(doc);
}

/* Stopped inside the first step: no step finished, the sweep is kept
 * incomplete (test_capacity.sh stops one between steps: the first kept). */
static void sweep_interrupted(void **state)
{
	const json_t *sw;
	json_t *doc;

	(void)state;
	set("capacity", "steps", "1,2");
	set("capacity", "step-time", "10s");
	/* the prefill is one 1 MiB write; the 200th I/O is in step 1 */
	nb_mem_faults.stop_after = 200;
	doc = run("rand4k-read", NB_EXIT_OK);
	assert_true(stop);
	assert_string_equal(nb_jstr(first(doc, "entry"), "status"), "interrupted");
	sw = first(doc, "sweep");
	assert_non_null(sw);
	assert_true(json_is_true(first(doc, "partial")));
	assert_true(json_is_false(json_object_get(sw, "complete")));
	assert_string_equal(nb_jstr(sw, "stop"), "interrupted");
	assert_int_equal(json_array_size(json_object_get(sw, "steps")), 0);
	assert_true(json_is_false(json_object_get(doc, "complete")));
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(vm_default_profile, setup, teardown),
		cmocka_unit_test_setup_teardown(vm_profile_sets_the_spec, setup, teardown),
		cmocka_unit_test_setup_teardown(sweep_shape, setup, teardown),
		cmocka_unit_test_setup_teardown(sweep_interrupted, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
