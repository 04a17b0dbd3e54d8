/*
 * test_hw_plan.c - the planner against cases worked by hand (docs/hw.md
 * shows the arithmetic), the seeds' boxes among them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "../../core/err.h"
#include "../../hw/plan.h"

/* cmocka 1.1.5's assert_float_equal works in float: too coarse for bytes */
#define assert_near(a, b, eps) near_((a), (b), (eps), #a, __LINE__)
static void near_(double a, double b, double eps, const char *what, int line)
{
	if (!(fabs(a - b) <= eps)) {
		print_error("line %d: %s = %.12g, expected %.12g (within %g)\n",
			    line, what, a, b, eps);
		fail();
	}
}

/* 1 Gbit/s at MTU 1500: 125e6 * 1448 / 1538 bytes/s of payload */
#define GBE_PAYLOAD (125e6 * 1448.0 / 1538.0)

static struct nb_plan_in n40l(void)
{
	/* the N40L of the first story: 5 x WD Red 3 TB, 1 GbE */
	struct nb_plan_in in = {
		.ndisks = 5, .disk_bytes = 3000000000000ULL, .disk_mbs = 150,
		.disk_iops = 120, .price = 80, .nic_bps = 1000000000ULL,
		.efficiency = nb_plan_efficiency(1500),
	};
	return in;
}

static void test_efficiency(void **state)
{
	(void)state;
	assert_near(nb_plan_efficiency(1500), 1448.0 / 1538, 1e-12);
	assert_near(nb_plan_efficiency(1500), 0.9415, 1e-4);
	assert_near(nb_plan_efficiency(9000), 8948.0 / 9038, 1e-12);
}

static void test_n40l_raidz1(void **state)
{
	struct nb_plan_in in = n40l();
	struct nb_plan_out o;

	(void)state;
	assert_int_equal(nb_plan_compute(&in, "raidz1", &o), 0);
	assert_string_equal(o.layout, "raidz1");
	assert_near(o.data_disks, 4, 0);
	assert_near(o.usable_bytes, 12e12, 1);       /* 4 x 3 TB */
	assert_int_equal(o.may_fail, 1);
	assert_int_equal(o.may_fail_best, 1);
	assert_near(o.disk_read, 600e6, 1);           /* 4 x 150 */
	assert_near(o.disk_write, 600e6, 1);
	assert_near(o.link, GBE_PAYLOAD, 1);          /* 117.69 MB/s */
	assert_near(o.read, GBE_PAYLOAD, 1);
	assert_string_equal(o.read_limit, "link");
	assert_string_equal(o.write_limit, "link");
	assert_near(o.rand_read, 120, 1e-9);          /* one vdev */
	assert_near(o.rand_write, 120, 1e-9);
	assert_near(o.price_total, 400, 1e-9);
	assert_near(o.per_tb, 400.0 / 12, 1e-9);      /* 33.33 */
	assert_near(o.per_mbs_read, 400 / (GBE_PAYLOAD / 1e6), 1e-9);
	assert_near(o.per_mbs_read, 3.399, 1e-3);
}

static void test_n40l_raid10_odd(void **state)
{
	struct nb_plan_in in = n40l();
	struct nb_plan_out o;

	(void)state;
	/* five disks as mdadm's near-2 raid10: 2.5 disks of capacity */
	assert_int_equal(nb_plan_compute(&in, "raid10", &o), 0);
	assert_near(o.data_disks, 2.5, 0);
	assert_near(o.usable_bytes, 7.5e12, 1);
	assert_int_equal(o.may_fail, 1);
	assert_int_equal(o.may_fail_best, 2);
	assert_near(o.disk_read, 750e6, 1);
	assert_near(o.disk_write, 375e6, 1);
	assert_near(o.rand_read, 600, 1e-9);
	assert_near(o.rand_write, 300, 1e-9);
	assert_near(o.per_tb, 400 / 7.5, 1e-9);
}

static void test_n40l_raidz2(void **state)
{
	struct nb_plan_in in = n40l();
	struct nb_plan_out o;

	(void)state;
	assert_int_equal(nb_plan_compute(&in, "raidz2", &o), 0);
	assert_near(o.usable_bytes, 9e12, 1);
	assert_int_equal(o.may_fail, 2);
	assert_near(o.disk_write, 450e6, 1);
	assert_string_equal(o.write_limit, "link");
}

static void test_dl380p_reserve(void **state)
{
	/* the second story: 10 x 500 GB SSD at $80, $1500 the machine,
	 * 20% of each SSD left unused; local (bonnie++ on the box) */
	struct nb_plan_in in = {
		.ndisks = 10, .disk_bytes = 500000000000ULL, .disk_mbs = 500,
		.disk_iops = 90000, .price = 80, .base_price = 700,
		.reserve = 0.2, .efficiency = nb_plan_efficiency(1500),
	};
	struct nb_plan_out o;

	(void)state;
	assert_int_equal(nb_plan_compute(&in, "raid6", &o), 0);
	assert_near(o.usable_bytes, 3.2e12, 1);       /* 8 x 500 GB x 0.8 */
	assert_near(o.read, 4000e6, 1);               /* 8 x 500 MB/s */
	assert_string_equal(o.read_limit, "disks");
	assert_true(o.link < 0);
	assert_near(o.rand_read, 900000, 1e-6);       /* 10 x 90000 */
	assert_near(o.rand_write, 150000, 1e-6);      /* 10 x 90000 / 6 */
	assert_near(o.price_total, 1500, 1e-9);
	assert_near(o.per_tb, 1500 / 3.2, 1e-9);      /* 468.75 */
	assert_near(o.per_mbs_write, 1500 / 4000.0, 1e-9);

	assert_int_equal(nb_plan_compute(&in, "raidz2", &o), 0);
	assert_near(o.usable_bytes, 3.2e12, 1);
	assert_near(o.rand_write, 90000, 1e-6);       /* one vdev */

	assert_int_equal(nb_plan_compute(&in, "raid10", &o), 0);
	assert_near(o.usable_bytes, 2e12, 1);         /* 5 x 500 GB x 0.8 */
	assert_int_equal(o.may_fail_best, 5);
}

static void test_small_layouts(void **state)
{
	struct nb_plan_in in = {
		.ndisks = 4, .disk_bytes = 1000000000000ULL, .disk_mbs = 100,
		.disk_iops = 100, .price = -1, .efficiency = 0.9,
		.nic_bps = 100000000ULL,     /* 100 Mbit/s: 11.25 MB/s payload */
	};
	struct nb_plan_out o;

	(void)state;
	assert_int_equal(nb_plan_compute(&in, "raid5", &o), 0);
	assert_near(o.rand_write, 100, 1e-9);         /* 4 x 100 / 4 */
	assert_near(o.rand_read, 400, 1e-9);
	assert_near(o.write, 11.25e6, 1);
	assert_true(o.price_total < 0 && o.per_tb < 0 && o.per_mbs_read < 0);

	in.ndisks = 3;
	assert_int_equal(nb_plan_compute(&in, "raid1", &o), 0);  /* 3-way mirror */
	assert_string_equal(o.layout, "mirror");
	assert_near(o.usable_bytes, 1e12, 1);
	assert_int_equal(o.may_fail, 2);
	assert_near(o.disk_write, 100e6, 1);
	assert_near(o.disk_read, 300e6, 1);

	/* the link caps 4 KiB IOPS: 11.25e6 / 4096 = 2746.6 */
	in.disk_iops = 5000;
	assert_int_equal(nb_plan_compute(&in, "stripe", &o), 0);
	assert_near(o.rand_read, 11.25e6 / 4096, 1e-6);

	in.ndisks = 1;
	in.disk_mbs = -1;
	assert_int_equal(nb_plan_compute(&in, "single", &o), 0);
	assert_string_equal(o.layout, "stripe");
	assert_true(o.read < 0 && o.read_limit == NULL);
}

static void test_errors(void **state)
{
	struct nb_plan_in in = n40l();
	struct nb_plan_out o;

	(void)state;
	assert_int_equal(nb_plan_compute(&in, "raidz4", &o), -EINVAL);
	assert_string_equal(nb_err_last(),
			    "unknown layout 'raidz4'; did you mean 'raidz1'?");
	assert_int_equal(nb_plan_compute(&in, "jbod-ish", &o), -EINVAL);
	assert_string_equal(nb_err_last(), "unknown layout 'jbod-ish' (layouts: "
			    "stripe, mirror, raid10, raidz1, raidz2, raidz3, raid5, raid6)");
	in.ndisks = 4;
	assert_int_equal(nb_plan_compute(&in, "raidz3", &o), -EINVAL);
	assert_string_equal(nb_err_last(), "layout 'raidz3' needs at least 5 disks, not 4");
	in.ndisks = 3;
	assert_int_equal(nb_plan_compute(&in, "raid10", &o), -EINVAL);
	assert_int_equal(nb_plan_compute(&in, "raid6", &o), -EINVAL);
	assert_int_equal(nb_plan_compute(&in, "raid5", &o), 0);
}

static void test_parse_disks(void **state)
{
	uint64_t b;
	int n;
	char rest[64];

	(void)state;
	assert_int_equal(nb_plan_parse_disks("5x3TB", &n, &b, NULL, 0), 0);
	assert_int_equal(n, 5);
	assert_true(b == 3000000000000ULL);
	assert_int_equal(nb_plan_parse_disks("5 x 3TB WD Red", &n, &b, rest,
					     sizeof(rest)), 0);
	assert_string_equal(rest, "WD Red");
	assert_int_equal(nb_plan_parse_disks("10X500GB", &n, &b, NULL, 0), 0);
	assert_true(n == 10 && b == 500000000000ULL);
	assert_int_equal(nb_plan_parse_disks("4x4TiB", &n, &b, NULL, 0), 0);
	assert_true(b == 4ULL << 40);

	assert_int_equal(nb_plan_parse_disks("5x3XB", &n, &b, NULL, 0), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid disks '5x3XB': invalid size "
			    "'3XB' (use a number with K, M, G, T, KiB, GB...)");
	assert_int_equal(nb_plan_parse_disks("x3TB", &n, &b, NULL, 0), -EINVAL);
	assert_string_equal(nb_err_last(),
			    "invalid disks 'x3TB' (use COUNTxSIZE, e.g. 5x3TB)");
	assert_int_equal(nb_plan_parse_disks("5x", &n, &b, NULL, 0), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid disks '5x': no size after 'x'");
	assert_int_equal(nb_plan_parse_disks("0x3TB", &n, &b, NULL, 0), -EINVAL);
	assert_int_equal(nb_plan_parse_disks("5x0", &n, &b, NULL, 0), -EINVAL);
	assert_int_equal(nb_plan_parse_disks("-5x3TB", &n, &b, NULL, 0), -EINVAL);
}

static void test_json(void **state)
{
	struct nb_plan_in in = n40l();
	struct nb_plan_out o;
	json_t *j;

	(void)state;
	in.disk_iops = -1;
	assert_int_equal(nb_plan_compute(&in, "raidz1", &o), 0);
	j = nb_plan_json(&in, &o);
	assert_string_equal(json_string_value(json_object_get(j, "layout")), "raidz1");
	assert_near(json_real_value(json_object_get(j, "usable_bytes")),
			   12e12, 1);
	assert_string_equal(json_string_value(json_object_get(j, "read_limit")),
			    "link");
	assert_true(json_is_null(json_object_get(j, "rand_read_iops")));
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_efficiency),
		cmocka_unit_test(test_n40l_raidz1),
		cmocka_unit_test(test_n40l_raid10_odd),
		cmocka_unit_test(test_n40l_raidz2),
		cmocka_unit_test(test_dl380p_reserve),
		cmocka_unit_test(test_small_layouts),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_parse_disks),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
