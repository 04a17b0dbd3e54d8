/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_failure.c - a failure walk's result read (formats/failure.c), its
 * criteria (accept/failure_crit.c: max_rebuild_time, STATE_keeps, a
 * figure in a state, min_vms_degraded) passing and failing where they
 * should, an entry found in its state, two walks compared state by state.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../core/err.h"
#include "../../core/result.h"
#include "../../accept/accept.h"
#include "../../compare/compare.h"
#include "../../formats/failure.h"

/* A walk's result: rand4k-read on nfs at HEALTHY, DEGRADED, REBUILDING
 * IOPS (three iterations each, +-1), seq512k-read healthy only, vm swept
 * to VMS healthy and VMS/2 degraded; the rebuild REBUILD_S under load. */
static json_t *walk(const char *layout, double healthy, double degraded,
		    double rebuilding, double rebuild_s, double vms)
{
	json_t *doc = nb_result_new("run", "nasbench run");
	const char *st[] = { "healthy", "degraded", "rebuilding" };
	double iops[] = { healthy, degraded, rebuilding };

	json_object_set_new(json_object_get(doc, "labels"), "layout",
			    json_string(layout));
	for (int s = 0; s < 3; s++) {
		json_t *e = nb_result_add(doc, "nfs", "rand4k-read");

		json_object_set_new(e, "state", json_string(st[s]));
		for (int i = -1; i <= 1; i++)
			nb_result_iteration(e, json_pack("{s:f, s:f}", "iops", iops[s] + i,
							 "lat_p99_us", 1e6 / iops[s]),
					    json_pack("{s:s}", "box_state", st[s]));
	}
	for (int s = 0; s < 2; s++) {
		json_t *e = nb_result_add(doc, "nfs", "vm");

		json_object_set_new(e, "state", json_string(st[s]));
		nb_result_iteration(e, json_pack("{s:f}", "vms", s ? vms / 2 : vms),
				    json_pack("{s:{}}", "sweep"));
	}
	json_t *e = nb_result_add(doc, "nfs", "seq512k-read");

	json_object_set_new(e, "state", json_string("healthy"));
	nb_result_iteration(e, json_pack("{s:f}", "bw_bytes", 100e6), NULL);
	json_object_set_new(doc, "failure", json_pack(
		"{s:s, s:s, s:b, s:{s:f, s:b}, s:[{s:s, s:I}]}", "pool", "tank",
		"rebuild_mode", "load", "complete", 1, "rebuild", "seconds", rebuild_s,
		"load", 1, "records", "target", "nfs", "lost", (json_int_t)0));
	nb_result_finish(doc, 1);
	return doc;
}

static void rows_and_keeps(void **state)
{
	json_t *doc = walk("raidz1", 236, 97, 71, 83.2, 20);
	struct nb_failure_row rows[8];
	int n = nb_failure_rows(doc, rows, 8);

	(void)state;
	assert_int_equal(n, 3);
	assert_string_equal(rows[0].workload, "rand4k-read");
	assert_string_equal(rows[0].metric, "iops");
	assert_true(rows[0].v[1] == 97);
	assert_true(fabs(nb_failure_keeps(&rows[0], 1) - 97.0 / 236) < 1e-9);
	assert_true(fabs(nb_failure_keeps(&rows[0], 2) - 71.0 / 236) < 1e-9);
	assert_true(isnan(nb_failure_keeps(&rows[0], 3)));   /* not measured */
	/* a swept vm's figure is its VMs */
	assert_string_equal(rows[1].metric, "vms");
	assert_true(fabs(nb_failure_keeps(&rows[1], 1) - 0.5) < 1e-9);
	assert_true(nb_failure_rebuild_s(doc, 0) == 83.2);
	assert_true(isnan(nb_failure_rebuild_s(doc, 1)));
	assert_int_equal(nb_failure_records_lost(doc), 0);
	/* the healthy entry is what a reader without states finds */
	assert_string_equal(nb_jstr(nb_result_find(doc, "nfs", "rand4k-read"), "state"),
			    "healthy");
	assert_string_equal(nb_jstr(nb_result_find_state(doc, "nfs", "rand4k-read",
							 "rebuilding"), "state"),
			    "rebuilding");
	assert_null(nb_result_find_state(doc, "nfs", "seq512k-read", "degraded"));
	assert_int_equal(nb_box_state("rebuilt"), 3);
	assert_int_equal(nb_box_state("broken"), -1);
	json_decref(doc);
}

/* The verdicts of criteria TEXTS on DOC: "pass"/"fail" joined by ','. */
static void verdicts(json_t *doc, const char *const *texts, int n, char *out,
		     size_t len)
{
	struct nb_accept a;
	json_t *acc, *c;
	size_t i, k = 0;
	int failed;

	nb_accept_init(&a);
	for (int j = 0; j < n; j++) {
		struct nb_criterion cr;

		if (nb_accept_parse(&cr, texts[j], "t:1"))
			fail_msg("'%s': %s", texts[j], nb_err_last());
		nb_accept_add(&a, &cr);
	}
	nb_accept_finish(&a, doc, 0);
	acc = json_object_get(doc, "accept");
	out[0] = 0;
	json_array_foreach(json_object_get(acc, "criteria"), i, c)
		k += (size_t)snprintf(out + k, len - k, "%s%s", i ? "," : "",
				      nb_jstr(c, "verdict"));
	(void)failed;
	nb_accept_free(&a);
}

static void rebuild_time(void **state)
{
	json_t *slow = walk("raidz1", 236, 97, 71, 83.2, 20);
	json_t *fast = walk("raid10", 683, 566, 500, 41.0, 40);
	const char *const t[] = { "max_rebuild_time = 1m", "max_rebuild_time = 90s",
				  "max_rebuild_time_idle = 1h" };
	char v[256];

	(void)state;
	/* 83.2 s: over a minute, under 90 s; raid10's 41 s under both */
	verdicts(slow, t, 2, v, sizeof(v));
	assert_string_equal(v, "fail,pass");
	verdicts(fast, t, 2, v, sizeof(v));
	assert_string_equal(v, "pass,pass");
	/* no idle rebuild was timed: never a pass by default */
	verdicts(fast, t + 2, 1, v, sizeof(v));
	assert_string_equal(v, "fail");
	assert_string_equal(nb_jstr(json_array_get(json_object_get(json_object_get(
		fast, "accept"), "criteria"), 0), "reason"),
		"no rebuild was timed idle (--rebuild idle or both; was the walk "
		"stopped?)");
	json_decref(slow);
	json_decref(fast);
}

static void keeps_floors(void **state)
{
	json_t *z = walk("raidz1", 236, 97, 71, 83.2, 20);
	json_t *m = walk("raid10", 683, 566, 500, 41.0, 40);
	const char *const floor[] = { "degraded_keeps = 50%" };
	const char *const one[] = { "rand4k-read@nfs rebuilding_keeps >= 30%",
				    "rand4k-read@nfs rebuilding_keeps >= 80%" };
	const char *const fig[] = { "rand4k-read@nfs:degraded iops >= 200",
				    "min_vms_degraded = 10", "min_vms_rebuilding = 1" };
	char v[256];
	json_t *c;

	(void)state;
	/* raidz1 keeps 41% of its random reads degraded (fails 50%), its vm
	 * 50% (passes); raid10 83% and 50%; seq512k-read has no degraded figure */
	verdicts(z, floor, 1, v, sizeof(v));
	assert_string_equal(v, "fail,pass,fail");
	c = json_array_get(json_object_get(json_object_get(z, "accept"), "criteria"), 0);
	assert_string_equal(nb_jstr(c, "criterion"), "degraded_keeps = 50% (rand4k-read@nfs)");
	assert_true(json_number_value(json_object_get(c, "measured")) == 41.1);
	c = json_array_get(json_object_get(json_object_get(z, "accept"), "criteria"), 2);
	assert_string_equal(nb_jstr(c, "reason"), "'seq512k-read' on 'nfs' has no "
			    "degraded figure (the walk did not measure it there)");
	verdicts(m, floor, 1, v, sizeof(v));
	assert_string_equal(v, "pass,pass,fail");
	/* 71 of 236 is 30.1%: a pass at 30, a fail at 80 */
	verdicts(z, one, 2, v, sizeof(v));
	assert_string_equal(v, "pass,fail");
	/* a figure in a state; min_vms in a state (vm@nfs degraded: 10 and
	 * 20 VMs); a state the vm workload was not measured in */
	verdicts(z, fig, 3, v, sizeof(v));
	assert_string_equal(v, "fail,pass,fail");
	verdicts(m, fig, 2, v, sizeof(v));
	assert_string_equal(v, "pass,pass");
	c = json_array_get(json_object_get(json_object_get(m, "accept"), "criteria"), 1);
	assert_string_equal(nb_jstr(c, "criterion"), "min_vms_degraded = 10 (vm@nfs:degraded)");
	assert_true(json_number_value(json_object_get(c, "measured")) == 20);
	json_decref(z);
	json_decref(m);
}

static void parse_errors(void **state)
{
	struct nb_criterion c;

	(void)state;
	assert_int_equal(nb_accept_parse(&c, "max_rebuild_time = soon", "t:3"), -EINVAL);
	assert_string_equal(nb_err_last(), "t:3: max_rebuild_time: invalid duration "
			    "'soon' (use e.g. 30s, 500ms, 2m, 1h)");
	assert_int_equal(nb_accept_parse(&c, "degraded_keeps = lots", "t:4"), -EINVAL);
	assert_string_equal(nb_err_last(), "t:4: 'lots' is not a percentage (50%)");
	assert_int_equal(nb_accept_parse(&c, "max_rebuild_timeout = 1h", "t:5"), -EINVAL);
	assert_string_equal(nb_err_last(), "t:5: unknown criterion 'max_rebuild_timeout' "
			    "(max_rebuild_time, max_rebuild_time_idle)");
	assert_int_equal(nb_accept_parse(&c, "min_vms_broken = 3", "t:6"), -EINVAL);
	assert_int_equal(nb_accept_parse(&c, "max_rebuild_time <= 2h", "t:7"), 0);
	assert_int_equal(c.op, NB_OP_LE);
	assert_true(c.required == 7200);
	assert_int_equal(nb_accept_parse(&c, "rand4k-read@nfs:rebuilt p99_ms <= 20", "t:8"), 0);
	assert_string_equal(c.state, "rebuilt");
	assert_string_equal(c.target, "nfs");
}

static void compare_states(void **state)
{
	json_t *z = walk("raidz1", 236, 97, 71, 83.2, 20);
	json_t *m = walk("raid10", 683, 566, 500, 41.0, 40);
	struct nb_gate g;
	struct nb_compare_opts co;
	json_t *out, *v, *f;
	size_t i;
	int seen = 0;

	(void)state;
	nb_gate_init(&g);
	nb_compare_opts_init(&co);
	assert_int_equal(nb_compare(z, "z.json", m, "m.json", &g, &co, &out), 0);
	/* each state against its own: degraded 97 -> 566 */
	json_array_foreach(json_object_get(out, "verdicts"), i, v)
		if (!strcmp(nb_jstr(v, "state"), "degraded") &&
		    !strcmp(nb_jstr(v, "workload"), "rand4k-read")) {
			assert_true(json_number_value(json_object_get(v, "base")) == 97);
			assert_true(json_number_value(json_object_get(v, "new")) == 566);
			seen = 1;
		}
	assert_true(seen);
	f = json_object_get(out, "failure");
	assert_non_null(f);
	assert_string_equal(nb_jstr(json_object_get(f, "base"), "name"), "raidz1");
	json_decref(out);
	json_decref(z);
	json_decref(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_and_keeps),
		cmocka_unit_test(rebuild_time),
		cmocka_unit_test(keeps_floors),
		cmocka_unit_test(parse_errors),
		cmocka_unit_test(compare_states),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
