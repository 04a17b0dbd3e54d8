/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_accept.c - criteria: parsing, units, statistics, verdicts, JUnit. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../core/err.h"
#include "../../core/result.h"
#include "../../accept/accept.h"
#include "files.h"

static void parse_ok(struct nb_criterion *c, const char *text)
{
	int rc = nb_accept_parse(c, text, "box.ini:7");

	if (rc)
		fail_msg("'%s': %s", text, nb_err_last());
}

static void parse_bad(const char *text, const char *msg)
{
	struct nb_criterion c;

	assert_int_equal(nb_accept_parse(&c, text, "box.ini:7"), -EINVAL);
	assert_string_equal(nb_err_last(), msg);
}

static void test_parse_units(void **state)
{
	struct nb_criterion c;

	(void)state;
	parse_ok(&c, "seq512k-write-sync@nfs mb_s >= 80");
	assert_string_equal(c.workload, "seq512k-write-sync");
	assert_string_equal(c.target, "nfs");
	assert_string_equal(c.stored, "bw_bytes");
	assert_int_equal(c.op, NB_OP_GE);
	assert_int_equal(c.stat, NB_ST_MEDIAN);
	assert_true(c.required == 80e6);
	assert_string_equal(c.unit, "MB/s");

	parse_ok(&c, "seq512k-write@nfs mb_s >= 1GiB/s");
	assert_true(c.required == 1073741824.0);
	parse_ok(&c, "rand4k-read@iscsi p99_us <= 5ms");
	assert_string_equal(c.stored, "lat_p99_us");
	assert_true(c.required == 5000);
	parse_ok(&c, "rand4k-read@iscsi p99_ms<2");      /* no blanks, alias in ms */
	assert_int_equal(c.op, NB_OP_LT);
	assert_true(c.required == 2000);
	assert_string_equal(c.unit, "ms");
	parse_ok(&c, "rand4k-read@iscsi iops > 1000iops  # comment");
	assert_true(c.required == 1000);
	assert_string_equal(c.text, "rand4k-read@iscsi iops > 1000iops");
	parse_ok(&c, "integrity@nfs corrupt_blocks = 0");
	assert_int_equal(c.stat, NB_ST_WORST);
	parse_ok(&c, "integrity@nfs stale_blocks:median != 3");
	assert_int_equal(c.stat, NB_ST_MEDIAN);
	assert_int_equal(c.op, NB_OP_NE);
	parse_ok(&c, "integrity@nfs durable = yes");
	assert_true(c.boolean && c.required == 1 && c.stat == NB_ST_WORST);
}

static void test_parse_errors(void **state)
{
	(void)state;
	parse_bad("seq512k-write@nfs mb_s >= 5ms",
		  "box.ini:7: '5ms' is a time (e.g. 5ms), but 'mb_s' is a "
		  "throughput (e.g. 80MB/s)");
	parse_bad("seq512k-write@nfs mb_s >= 80Mb/s",
		  "box.ini:7: unknown unit 'Mb/s' in '80Mb/s' (B/s, KB/s, MB/s, "
		  "GB/s, KiB/s, MiB/s, GiB/s, ns, us, ms, s, iops)");
	parse_bad("seq512k-write@nfs mb_s ~ 80",
		  "box.ini:7: unknown operator '~' (one of >= <= > < = !=)");
	parse_bad("seq512k-write@nfs mb_s == 80",
		  "box.ini:7: unknown operator '==' (one of >= <= > < = !=)");
	parse_bad("seq512k-write@nfs p99_uss <= 80",
		  "box.ini:7: unknown metric 'p99_uss'; did you mean 'p99_us'?");
	parse_bad("seq512k-writ@nfs mb_s >= 80",
		  "box.ini:7: unknown workload 'seq512k-writ'; did you mean "
		  "'seq512k-write'?");
	parse_bad("integrity@nfs durable >= yes",
		  "box.ini:7: 'durable' is yes or no: compare it with = or !=");
	parse_bad("integrity@nfs mb_s >= 80 90",
		  "box.ini:7: unexpected text after the value in "
		  "'integrity@nfs mb_s >= 80 90'");
	parse_bad("@nfs mb_s >= 80", "box.ini:7: '@nfs' is not WORKLOAD@TARGET");
	parse_bad("integrity@nfs mb_s >= abc",
		  "box.ini:7: invalid value 'abc' (a number, with a unit or not)");
}

/* A result with one entry: bw_bytes of three iterations, one status. */
static json_t *doc_with(const char *status, const double *bw, int n)
{
	json_t *doc = nb_result_new("r1", "test");
	json_t *wl = nb_result_add(doc, "nas", "seq512k-write");

	for (int i = 0; i < n; i++)
		nb_result_iteration(wl, json_pack("{s:f, s:f}", "bw_bytes", bw[i],
						  "corrupt_blocks", (double)i), NULL);
	if (strcmp(status, "ok"))
		nb_result_set_status(wl, status, "target 'nas': lost");
	nb_result_finish(doc, 1);
	return doc;
}

static const char *verdict(json_t *acc, int i, const char *key)
{
	json_t *v = json_object_get(json_array_get(json_object_get(acc, "criteria"),
						   (size_t)i), key);
	static char buf[64];

	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_null(v) || !v)
		return "null";
	snprintf(buf, sizeof(buf), "%g", json_number_value(v));
	return buf;
}

/* The result document TEXT, finished. */
static json_t *result_of(const char *text)
{
	json_t *doc = json_loads(text, 0, NULL);

	assert_non_null(doc);
	nb_result_finish(doc, 1);
	return doc;
}

/* The criteria TEXTS (NULL-ended) judged on DOC: accept exits CODE, N
 * criteria in DOC's "accept". */
static void judge(json_t *doc, const char *const *texts, int code, size_t n)
{
	struct nb_accept a;
	struct nb_criterion c;

	nb_accept_init(&a);
	for (; *texts; texts++) {
		parse_ok(&c, *texts);
		nb_accept_add(&a, &c);
	}
	assert_int_equal(nb_accept_finish(&a, doc, 0), code);
	assert_int_equal(json_array_size(json_object_get(json_object_get(doc,
				"accept"), "criteria")), n);
	nb_accept_free(&a);
}

/* DOC's criterion I reads CRITERION (NULL: not looked at) and its verdict
 * is V. */
static void said(json_t *doc, int i, const char *criterion, const char *v)
{
	json_t *acc = json_object_get(doc, "accept");

	if (criterion)
		assert_string_equal(verdict(acc, i, "criterion"), criterion);
	assert_string_equal(verdict(acc, i, "verdict"), v);
}

static void test_eval(void **state)
{
	const double bw[] = { 70e6, 90e6, 85e6 };
	struct nb_accept a;
	struct nb_criterion c;
	json_t *doc = doc_with("ok", bw, 3), *acc;
	int failed;

	(void)state;
	nb_accept_init(&a);
	parse_ok(&c, "seq512k-write@nas mb_s >= 80");            /* median 85 */
	nb_accept_add(&a, &c);
	parse_ok(&c, "seq512k-write@nas mb_s:worst >= 80");      /* 70 */
	nb_accept_add(&a, &c);
	parse_ok(&c, "seq512k-write@nas corrupt_blocks = 0");    /* worst 2 */
	nb_accept_add(&a, &c);
	parse_ok(&c, "seq512k-write@other mb_s >= 1");           /* not run */
	nb_accept_add(&a, &c);
	parse_ok(&c, "seq512k-write@nas iops >= 1");             /* no figure */
	nb_accept_add(&a, &c);
	acc = nb_accept_eval(&a, doc, &failed);
	assert_int_equal(failed, 4);
	assert_string_equal(verdict(acc, 0, "verdict"), "pass");
	assert_string_equal(verdict(acc, 0, "measured"), "85");
	assert_string_equal(verdict(acc, 1, "verdict"), "fail");
	assert_string_equal(verdict(acc, 1, "measured"), "70");
	assert_string_equal(verdict(acc, 2, "measured"), "2");
	assert_string_equal(verdict(acc, 3, "measured"), "null");
	assert_string_equal(verdict(acc, 3, "reason"),
			    "'seq512k-write' did not run on 'other' (not in the plan)");
	assert_string_equal(verdict(acc, 4, "reason"),
			    "'seq512k-write' on 'nas' has no figure 'iops'");
	assert_string_equal(json_string_value(json_object_get(acc, "verdict")), "fail");
	json_decref(acc);
	json_decref(doc);

	/* a figure without its samples proves nothing (core/samples.h): the
	 * entry unmeasured, or the metric listed short in an iteration */
	doc = doc_with("unmeasured", bw, 3);
	acc = nb_accept_eval(&a, doc, &failed);
	assert_string_equal(verdict(acc, 0, "verdict"), "fail");
	assert_string_equal(verdict(acc, 0, "reason"),
			    "'seq512k-write' on 'nas' unmeasured: target 'nas': lost");
	json_decref(acc);
	json_decref(doc);
	doc = doc_with("ok", bw, 3);
	json_object_set_new(json_array_get(json_object_get(json_array_get(
		json_object_get(doc, "results"), 0), "iterations"), 1),
		"unmeasured", json_pack("[s]", "bw_bytes"));
	acc = nb_accept_eval(&a, doc, &failed);
	assert_string_equal(verdict(acc, 0, "verdict"), "fail");
	assert_string_equal(verdict(acc, 0, "reason"), "unmeasured: "
			    "'seq512k-write' on 'nas' timed too few I/Os for "
			    "'bw_bytes' (it needs 100 an iteration): run longer");
	/* corrupt_blocks is no figure of samples: judged as it is */
	assert_string_equal(verdict(acc, 2, "measured"), "2");
	json_decref(acc);
	json_decref(doc);

	/* a failed workload fails its criteria even with figures */
	doc = doc_with("failed", bw, 2);
	acc = nb_accept_eval(&a, doc, &failed);
	assert_string_equal(verdict(acc, 0, "verdict"), "fail");
	assert_string_equal(verdict(acc, 0, "reason"),
			    "'seq512k-write' on 'nas' failed: target 'nas': lost");
	json_decref(acc);
	json_decref(doc);
	nb_accept_free(&a);
}

/* The floors of a sweep: min_vms, min_iops_at_slo, one criterion each
 * for every swept entry of the result. */
static void test_floors(void **state)
{
	static const char *text =
		"{\"results\": ["
		"{\"target\": \"a\", \"workload\": \"vm\", \"status\": \"ok\","
		" \"iterations\": [{\"metrics\": {\"vms\": 30, \"iops_at_slo\": 1500},"
		"  \"sweep\": {}}]},"
		"{\"target\": \"a\", \"workload\": \"rand4k-read\", \"status\": \"ok\","
		" \"iterations\": [{\"metrics\": {\"iops_at_slo\": 400}, \"sweep\": {}}]},"
		"{\"target\": \"a\", \"workload\": \"seq512k-read\", \"status\": \"ok\","
		" \"iterations\": [{\"metrics\": {\"iops\": 10}}]}]}";
	static const char *const floors[] = { "min_vms = 24",
					      "min_iops_at_slo = 500", NULL };
	struct nb_criterion c;
	json_t *doc = result_of(text);

	(void)state;
	parse_ok(&c, "min_vms = 24");
	assert_string_equal(c.workload, "vm");
	assert_string_equal(c.target, "*");
	assert_string_equal(c.stored, "vms");
	assert_true(c.op == NB_OP_GE && c.required == 24);
	assert_string_equal(c.text, "min_vms = 24");
	parse_ok(&c, "min_iops_at_slo=500");
	assert_string_equal(c.workload, "*");
	parse_bad("min_mb_s = 3", "box.ini:7: unknown floor 'min_mb_s' (min_vms, "
		  "min_iops_at_slo, min_years, min_vms_degraded, ...)");
	parse_bad("min_vms 24", "box.ini:7: expected 'min_vms = N', "
		  "'min_iops_at_slo = N' or 'min_years = N', not 'min_vms 24'");
	judge(doc, floors, NB_EXIT_FAIL, 3);
	said(doc, 0, "min_vms = 24 (vm@a)", "pass");
	said(doc, 1, NULL, "pass");
	said(doc, 2, "min_iops_at_slo = 500 (rand4k-read@a)", "fail");
	json_decref(doc);
}

/* min_years: a floor for every replay of a captured load (its iterations
 * carry a "replay" object and the years as a metric), none for a sweep. */
static void test_min_years(void **state)
{
	static const char *text =
		"{\"results\": ["
		"{\"target\": \"a\", \"workload\": \"replay\", \"status\": \"ok\","
		" \"iterations\": [{\"metrics\": {\"headroom\": 2, \"years\": 3.106},"
		"  \"replay\": {}}]},"
		"{\"target\": \"b\", \"workload\": \"replay\", \"status\": \"ok\","
		" \"iterations\": [{\"metrics\": {\"headroom\": 3.1, \"years\": 5.07},"
		"  \"replay\": {}}]},"
		"{\"target\": \"a\", \"workload\": \"vm\", \"status\": \"ok\","
		" \"iterations\": [{\"metrics\": {\"vms\": 30}, \"sweep\": {}}]}]}";
	static const char *const floor[] = { "min_years = 5", NULL };
	struct nb_criterion c;
	json_t *doc = result_of(text);

	(void)state;
	parse_ok(&c, "min_years = 5");
	assert_string_equal(c.workload, "*");
	assert_string_equal(c.stored, "years");
	assert_true(c.op == NB_OP_GE && c.required == 5);
	parse_bad("min_years = five", "box.ini:7: invalid value 'five' (a number, "
		  "with a unit or not)");
	judge(doc, floor, NB_EXIT_FAIL, 2);
	said(doc, 0, "min_years = 5 (replay@a)", "fail");
	said(doc, 1, "min_years = 5 (replay@b)", "pass");
	json_decref(doc);
}

static void test_junit(void **state)
{
	const double bw[] = { 50e6 };
	char dir[] = "/tmp/nb-accept-unit.XXXXXX", path[128], *buf;
	struct nb_accept a;
	struct nb_criterion c;
	json_t *doc = doc_with("ok", bw, 1);
	int failed;

	(void)state;
	assert_non_null(mkdtemp(dir));
	nb_accept_init(&a);
	parse_ok(&c, "seq512k-write@nas mb_s >= 80");
	nb_accept_add(&a, &c);
	json_object_set_new(doc, "accept", nb_accept_eval(&a, doc, &failed));
	snprintf(path, sizeof(path), "%s/j.xml", dir);
	assert_int_equal(nb_accept_junit(doc, path), 0);
	buf = test_slurp(path);
	assert_non_null(strstr(buf, "<testsuite name=\"nasbench.accept\" tests=\"1\" "
			       "failures=\"1\""));
	assert_non_null(strstr(buf, "<failure message=\"measured 50 MB/s (median), "
			       "required &gt;= 80 MB/s\""));
	free(buf);
	unlink(path);
	rmdir(dir);
	json_decref(doc);
	nb_accept_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_units),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_eval),
		cmocka_unit_test(test_floors),
		cmocka_unit_test(test_min_years),
		cmocka_unit_test(test_junit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
