/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_network.c - the network path's pure parts (docs/network.md): the
 * MTU verdict's words, the box's MTU found in 'ip addr' and 'ifconfig -a',
 * the path policies, a URL written back with another host, what compare
 * says of the network, the planner's ceiling over several links.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "../../compare/network.h"
#include "../../core/err.h"
#include "../../core/url.h"
#include "../../hw/planner.h"
#include "../../hw/pool.h"
#include "../../runners/mpath_rt.h"
#include "../../telemetry/telem_mtu.h"

static const char *verdict(int client, int box, int pmtu)
{
	static char buf[300];
	struct nb_tv_mtu m = { .client_mtu = client, .box_mtu = box, .pmtu = pmtu };

	return nb_tv_mtu(&m, buf, sizeof(buf));
}

static void mtu_verdicts(void **state)
{
	(void)state;
	assert_string_equal(verdict(9000, 9000, 1500),
			    "jumbo frames: the client and the box are at 9000 but the "
			    "path carries 1500 (a switch or router between them is at "
			    "1500)");
	assert_string_equal(verdict(9000, 0, 1500),
			    "jumbo frames: the client is at 9000 but the path carries "
			    "1500 (a switch or router between the client and the box "
			    "is at 1500)");
	assert_string_equal(verdict(9000, 1500, 1500),
			    "jumbo frames: the client is at 9000 but the box is at "
			    "1500, so the path carries 1500 (set both ends to the same "
			    "MTU)");
	assert_string_equal(verdict(1500, 1500, 1400),
			    "MTU: the client and the box are at 1500 but the path "
			    "carries 1400 (a switch or router between them is at 1400)");
	/* a clean path, an unknown reading, loopback's 65536 over 65535 */
	assert_null(verdict(9000, 9000, 9000));
	assert_null(verdict(1500, 0, 1500));
	assert_null(verdict(0, 9000, 1500));
	assert_null(verdict(9000, 9000, 0));
	assert_null(verdict(65536, 0, 65535));
}

static void box_mtu(void **state)
{
	static const char ip[] =
		"1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN\n"
		"    inet 127.0.0.1/8 scope host lo\n"
		"186: nbb3@if187: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc noqueue\n"
		"    link/ether 6a:bc:1f:55:5c:39 brd ff:ff:ff:ff:ff:ff link-netnsid 0\n"
		"    inet 198.18.103.2/24 scope global nbb3\n"
		"    inet6 fe80::68bc:1fff:fe55:5c39/64 scope link\n"
		"188: nbb3l2@if189: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue\n"
		"    inet 198.19.103.2/27 scope global nbb3l2\n";
	static const char bsd[] =
		"em0: flags=8843<UP,BROADCAST,RUNNING,SIMPLEX,MULTICAST> metric 0 mtu 9000\n"
		"\toptions=81009b<RXCSUM,TXCSUM,VLAN_MTU>\n"
		"\tinet 192.0.2.10 netmask 0xffffff00 broadcast 192.0.2.255\n"
		"lo0: flags=8049<UP,LOOPBACK,RUNNING,MULTICAST> metric 0 mtu 16384\n"
		"\tinet 127.0.0.1 netmask 0xff000000\n";
	static const char nettools[] =
		"eth0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500\n"
		"        inet 10.1.2.3  netmask 255.255.255.0  broadcast 10.1.2.255\n";
	char iface[64];

	(void)state;
	assert_int_equal(nb_tp_iface_mtu(ip, "198.18.103.2", iface, sizeof(iface)), 9000);
	assert_string_equal(iface, "nbb3");
	assert_int_equal(nb_tp_iface_mtu(ip, "198.19.103.2", iface, sizeof(iface)), 1500);
	assert_string_equal(iface, "nbb3l2");
	assert_int_equal(nb_tp_iface_mtu(ip, "198.19.103.20", iface, sizeof(iface)), 0);
	assert_int_equal(nb_tp_iface_mtu(bsd, "192.0.2.10", iface, sizeof(iface)), 9000);
	assert_string_equal(iface, "em0");
	assert_int_equal(nb_tp_iface_mtu(bsd, "127.0.0.1", iface, sizeof(iface)), 16384);
	assert_int_equal(nb_tp_iface_mtu(nettools, "10.1.2.3", iface, sizeof(iface)), 1500);
	assert_string_equal(iface, "eth0");
	assert_int_equal(nb_tp_iface_mtu("", "10.1.2.3", iface, sizeof(iface)), 0);
}

static void policies(void **state)
{
	int p;
	unsigned n;

	(void)state;
	assert_int_equal(nb_mpath_policy("rr:1", &p, &n), 0);
	assert_int_equal(p, MP_RR);
	assert_int_equal(n, 1);
	assert_int_equal(nb_mpath_policy("rr", &p, &n), 0);
	assert_int_equal(n, 1000);
	assert_int_equal(nb_mpath_policy("fixed", &p, &n), 0);
	assert_int_equal(p, MP_FIXED);
	assert_int_equal(nb_mpath_policy("least-io", &p, &n), 0);
	assert_int_equal(p, MP_LEAST);
	assert_int_equal(nb_mpath_policy("rr:0", &p, &n), -EINVAL);
	assert_string_equal(nb_err_last(), "path policy 'rr:0': N of rr:N must be "
			    "a number of I/Os from 1 to 1000000");
	assert_int_equal(nb_mpath_policy("rr:1x", &p, &n), -EINVAL);
	assert_int_equal(nb_mpath_policy("mru", &p, &n), -EINVAL);
	assert_string_equal(nb_err_last(), "path policy 'mru': not one of rr:N "
			    "(round robin, a new path every N I/Os), fixed, least-io");
}

static void url_format(void **state)
{
	static const char *const urls[] = {
		"iscsi://bob%s3cret@10.0.0.1:3262/iqn.x:y/1",
		"nfs://nas/mnt/tank?uid=0&gid=0",
		"nfs://nas:2050/mnt/tank",
		"/mnt/tank",
	};
	struct nb_url u;
	char buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(urls) / sizeof(urls[0]); i++) {
		assert_int_equal(nb_url_parse(urls[i], &u), 0);
		assert_int_equal(nb_url_format(&u, buf, sizeof(buf)), 0);
		assert_string_equal(buf, urls[i]);
	}
	assert_int_equal(nb_url_parse(urls[0], &u), 0);
	strcpy(u.host, "198.19.0.2");
	assert_int_equal(nb_url_format(&u, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "iscsi://bob%s3cret@198.19.0.2:3262/iqn.x:y/1");
	assert_int_equal(nb_url_format(&u, buf, 20), -ENAMETOOLONG);
}

static void compare_network(void **state)
{
	json_t *base = json_loads("{\"labels\": {\"mtu\": \"9000\", \"path-policy\": "
				  "\"rr:1000\", \"layout\": \"raidz1\"}, \"targets\": []}",
				  0, NULL);
	json_t *new_ = json_loads("{\"labels\": {\"mtu\": \"1500\", \"path-policy\": "
				  "\"rr:1000\", \"layout\": \"raid10\"}, \"targets\": [{"
				  "\"name\": \"nas\", \"paths\": {\"list\": [{\"path\": "
				  "\"192.0.2.10:3260\", \"state\": \"active\"}, {\"path\": "
				  "\"192.0.2.11:3260\", \"state\": \"dead\", \"why\": \"no "
				  "answer within 5000 ms\"}]}}]}", 0, NULL);
	json_t *w = json_array();

	(void)state;
	nb_compare_network(base, new_, w);
	assert_int_equal(json_array_size(w), 2);
	assert_string_equal(json_string_value(json_array_get(w, 0)),
			    "the network differs: mtu 9000 -> 1500; the box was reached "
			    "another way, so a change may be the network's, not the "
			    "box's (docs/network.md)");
	assert_string_equal(json_string_value(json_array_get(w, 1)),
			    "nas (new): path 192.0.2.11:3260 died during the run (no "
			    "answer within 5000 ms): its figures hold the failover");
	json_array_clear(w);
	nb_compare_network(base, base, w);
	assert_int_equal(json_array_size(w), 0);
	/* a run without the labels: one path; its MTU not measured */
	json_object_set_new(json_object_get(new_, "labels"), "paths", json_string("2"));
	json_object_del(json_object_get(base, "labels"), "mtu");
	nb_compare_network(base, new_, w);
	assert_string_equal(json_string_value(json_array_get(w, 0)),
			    "the network differs: paths 1 -> 2; the box was reached "
			    "another way, so a change may be the network's, not the "
			    "box's (docs/network.md)");
	json_decref(w);
	json_decref(base);
	json_decref(new_);
}

/* Two links of 400 Mbit/s: twice one link's ceiling for what is spread
 * over them; a sync write still crosses one. */
static void planner_paths(void **state)
{
	struct nb_planner_in in;
	struct nb_planner_out one, two;
	double link1 = 400e6 / 8 * nb_planner_efficiency(1500);

	(void)state;
	nb_planner_defaults(&in);
	assert_int_equal(nb_pool_parse_disks("5x3TB", &in.pool.disks), 0);
	in.disk_mbs = 150;
	in.disk_iops = 150;
	in.nic_bps = 400000000ULL;
	assert_int_equal(nb_planner_compute(&in, "raidz1", &one), 0);
	in.paths = 2;
	assert_int_equal(nb_planner_compute(&in, "raidz1", &two), 0);
	assert_true(fabs(one.link - link1) < 1);
	assert_true(fabs(two.link - 2 * link1) < 1);
	assert_true(fabs(one.read - link1) < 1);
	assert_true(fabs(two.read - 2 * link1) < 1);
	assert_string_equal(two.read_limit, "link");
	/* one 512 KiB sync write at a time crosses one link: no faster */
	assert_true(fabs(two.sync_write - one.sync_write) < 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mtu_verdicts), cmocka_unit_test(box_mtu),
		cmocka_unit_test(policies), cmocka_unit_test(url_format),
		cmocka_unit_test(compare_network), cmocka_unit_test(planner_paths),
	};

	return cmocka_run_group_tests_name("network", tests, NULL, NULL);
}
