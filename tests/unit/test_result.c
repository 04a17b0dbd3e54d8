/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../core/err.h"
#include "../../core/result.h"
#include "files.h"

static char path[64];

static void round_trip(void **state)
{
	json_t *doc = nb_result_new("run-1", "nasbench run x"), *wl, *back, *e;
	double v[8];

	(void)state;
	wl = nb_result_add(doc, "nas", "seq512k-read");
	for (int i = 1; i <= 3; i++)
		nb_result_iteration(wl, json_pack("{s:f, s:f}", "bw_bytes", 1e8 * i,
						  "lat_p99_us", 100.0 * i),
				    json_pack("{s:i}", "ios", i));
	nb_result_warn(wl, "cache may inflate it");
	nb_result_warn(wl, "cache may inflate it");
	e = nb_result_add(doc, "nas", "bonnie");
	nb_result_set_status(e, "skipped", "no files");
	nb_result_finish(doc, 1);
	assert_int_equal(nb_result_write(doc, path), 0);
	json_decref(doc);

	assert_int_equal(nb_result_load(path, &back), 0);
	assert_true(json_is_true(json_object_get(back, "complete")));
	assert_string_equal(json_string_value(json_object_get(back, "run_id")), "run-1");
	assert_non_null(json_object_get(back, "finished"));
	assert_non_null(json_object_get(json_object_get(back, "libs"), "libnfs"));
	wl = nb_result_find(back, "nas", "seq512k-read");
	assert_non_null(wl);
	assert_null(nb_result_find(back, "nas", "nope"));
	assert_int_equal(json_array_size(json_object_get(wl, "warnings")), 1);
	assert_int_equal(nb_result_values(wl, "bw_bytes", v, 8), 3);
	assert_true(v[2] == 3e8);
	assert_int_equal(nb_result_stat(wl, "bw_bytes", "median", &v[0]), 0);
	assert_true(v[0] == 2e8);
	assert_int_equal(nb_result_stat(wl, "lat_p99_us", "max", &v[0]), 0);
	assert_true(v[0] == 300);
	assert_int_equal(nb_result_stat(wl, "bw_bytes", "stddev", &v[0]), 0);
	assert_true(fabs(v[0] - 1e8) < 1);
	assert_int_equal(nb_result_stat(wl, "iops", "median", &v[0]), -ENOENT);
	e = nb_result_find(back, "nas", "bonnie");
	assert_string_equal(json_string_value(json_object_get(e, "status")), "skipped");
	assert_string_equal(json_string_value(json_object_get(e, "reason")), "no files");
	json_decref(back);
	unlink(path);
}

static void bad_files(void **state)
{
	json_t *doc;
	char want[256];

	(void)state;
	assert_int_equal(nb_result_load("/nonexistent/r.json", &doc), -ENOENT);
	assert_null(doc);
	test_write_file(path, "{\"schema\": 1, \"tool\": \"nasbench\", \"resu");
	assert_int_equal(nb_result_load(path, &doc), -EINVAL);
	snprintf(want, sizeof(want), "'%s' is not valid JSON", path);
	assert_non_null(strstr(nb_err_last(), want));
	test_write_file(path, "{\"jobs\": []}");
	assert_int_equal(nb_result_load(path, &doc), -EINVAL);
	snprintf(want, sizeof(want), "'%s' is not a nasbench result", path);
	assert_string_equal(nb_err_last(), want);
	test_write_file(path, "{\"schema\": 99, \"tool\": \"nasbench\", \"results\": []}");
	assert_int_equal(nb_result_load(path, &doc), -EINVAL);
	snprintf(want, sizeof(want), "'%s' has result schema 99, newer than this "
		 "nasbench reads (1): upgrade nasbench", path);
	assert_string_equal(nb_err_last(), want);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip), cmocka_unit_test(bad_files),
	};

	snprintf(path, sizeof(path), "/tmp/nb-unit-result.%d.json", (int)getpid());
	return cmocka_run_group_tests_name("result", tests, NULL, NULL);
}
