/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the box made of the data: its ZFS ratios from its tools' text
 * (telemetry/telem_ratio.h) and the verdict against the data's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "../../core/compress.h"
#include "../../telemetry/telem_ratio.h"
#include "../../telemetry/telem_verdict.h"

/* as zfs-fuse 0.7 answers them on the lab */
static const char *list = "nblab\t/var/tmp/nasbench-lab/mnt\n"
			  "nblab/iscsi\t/var/tmp/nasbench-lab/mnt/iscsi\n"
			  "nblab/nfs\t/var/tmp/nasbench-lab/mnt/nfs\n"
			  "nblab/snap\t-\n";
static const char *get = "compressratio\t1.97x\ncompression\tgzip\ndedup\toff\n"
			 "NAME   PROPERTY    VALUE  SOURCE\n"
			 "nblab  dedupratio  1.00x  -\n";

static void dataset_of(void **state)
{
	char ds[256];

	(void)state;
	assert_int_equal(nb_tr_dataset_of(list, "/var/tmp/nasbench-lab/mnt/nfs/x", ds,
					  sizeof(ds)), 1);
	assert_string_equal(ds, "nblab/nfs");
	assert_int_equal(nb_tr_dataset_of(list, "/var/tmp/nasbench-lab/mnt/nfsx", ds,
					  sizeof(ds)), 1);
	assert_string_equal(ds, "nblab");
	assert_int_equal(nb_tr_dataset_of(list, "/srv", ds, sizeof(ds)), 0);
	assert_int_equal(nb_tr_dataset_of(list, "relative", ds, sizeof(ds)), 0);
	/* a name the box's shell would read otherwise is no dataset */
	assert_int_equal(nb_tr_dataset_of("ev'il;rm\t/srv\n", "/srv/x", ds,
					  sizeof(ds)), 0);
}

/* the box's answers are untrusted: anything but a ratio is left out */
static void ratios(void **state)
{
	static const char *bad[] = { "", "x", "nan", "inf", "-1.00x", "0.50x",
				     "1.5xx", "1e400", "2000x", "1.2 x", "0x10" };
	double r = 7;
	struct nb_tr_zfs z;
	json_t *j;

	(void)state;
	assert_int_equal(nb_tr_ratio("1.99x", &r), 0);
	assert_true(r == 1.99);
	assert_int_equal(nb_tr_ratio("3.1", &r), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = 7;
		assert_int_equal(nb_tr_ratio(bad[i], &r), -EINVAL);
		assert_true(r == 7);
	}
	memset(&z, 0, sizeof(z));
	snprintf(z.dataset, sizeof(z.dataset), "nblab/nfs");
	nb_tr_parse(get, &z);
	assert_true(z.compressratio == 1.97);
	assert_true(z.dedupratio == 1.00);
	assert_string_equal(z.compression, "gzip");
	assert_string_equal(z.dedup, "off");
	j = nb_tr_json(&z);
	assert_string_equal(json_string_value(json_object_get(j, "compression")), "gzip");
	json_decref(j);
	/* garbage, a cut line, a value with a quote: nothing taken */
	memset(&z, 0, sizeof(z));
	nb_tr_parse("compressratio\ncompression\tgz'ip\ndedupratio nan\n\x01\x02\n", &z);
	assert_true(z.compressratio == 0 && z.dedupratio == 0);
	assert_string_equal(z.compression, "");
}

static json_t *judge(const char *zfs, const double *ratio, double dedupe,
		     json_t *m)
{
	json_t *tel = json_pack("{s:o}", "zfs", json_loads(zfs, 0, NULL));
	struct nb_tv_ctx c = { .workload = "seq512k-write", .iteration = 1,
			       .self_user_pct = -1, .self_sys_pct = -1,
			       .data_ratio = ratio, .data_dedupe = dedupe };
	json_t *v = nb_tv_judge(tel, &c, m);

	json_decref(tel);
	return v;
}

static const char *text(json_t *v)
{
	return json_string_value(json_object_get(json_array_get(v, 0), "text"));
}

static void verdict(void **state)
{
	double two[NB_Z_N] = { 1.98, 2.0, 2.04, 1.75 }, one[NB_Z_N] = { 1, 1, 1, 0.89 };
	json_t *m = json_object(), *v;

	(void)state;
	/* compression off: the box stores 2:1 data at 1.00x */
	v = judge("{\"dataset\": \"tank/vm\", \"compression\": \"off\", "
		  "\"compressratio\": 1.0}", two, 0, m);
	assert_int_equal(json_array_size(v), 1);
	assert_string_equal(text(v), "the pool stores the data of seq512k-write "
			    "iteration 1 at 1.00x though it compresses 2.00x: "
			    "compression is off on dataset 'tank/vm'");
	assert_true(json_number_value(json_object_get(m, "box_compress_ratio")) == 1.0);
	json_decref(v);
	/* lzjb gets what lzjb gets: no verdict at 1.73x */
	v = judge("{\"dataset\": \"tank/vm\", \"compression\": \"lzjb\", "
		  "\"compressratio\": 1.73}", two, 0, NULL);
	assert_int_equal(json_array_size(v), 0);
	json_decref(v);
	/* gzip at 1.2x for data that gzips 2x: far */
	v = judge("{\"dataset\": \"tank/vm\", \"compression\": \"gzip-6\", "
		  "\"compressratio\": 1.2}", two, 0, NULL);
	assert_int_equal(json_array_size(v), 1);
	assert_non_null(strstr(text(v), "though gzip compresses it 2.00x"));
	json_decref(v);
	/* incompressible data says nothing of the box's ratio */
	v = judge("{\"dataset\": \"tank/vm\", \"compression\": \"off\", "
		  "\"compressratio\": 1.0}", one, 0, NULL);
	assert_int_equal(json_array_size(v), 0);
	json_decref(v);
	/* dedup off while half the blocks repeat */
	v = judge("{\"dataset\": \"tank/vm\", \"dedup\": \"off\", "
		  "\"dedupratio\": 1.0}", NULL, 1.9, m);
	assert_int_equal(json_array_size(v), 1);
	assert_string_equal(text(v), "the pool's dedupratio is 1.00x though the "
			    "blocks seq512k-write iteration 1 wrote should dedupe "
			    "1.90x: dedup is off on dataset 'tank/vm'");
	assert_true(json_number_value(json_object_get(m, "box_dedupe_ratio")) == 1.0);
	json_decref(v);
	v = judge("{\"dataset\": \"tank/vm\", \"dedup\": \"on\", "
		  "\"dedupratio\": 1.8}", NULL, 1.9, NULL);
	assert_int_equal(json_array_size(v), 0);
	json_decref(v);
	json_decref(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dataset_of), cmocka_unit_test(ratios),
		cmocka_unit_test(verdict),
	};

	return cmocka_run_group_tests_name("telem_ratio", tests, NULL, NULL);
}
