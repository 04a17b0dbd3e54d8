/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_hw_inventory.c - the inventory read from fake /proc and /sys trees:
 * a full one, an empty one, and one with odd values; and the rules that
 * name the hypervisor.  The real machine is held against lscpu, lsblk and
 * /proc/meminfo in tests/integration/test_hw.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../core/config.h"
#include "../../core/err.h"
#include "../../hw/inventory.h"
#include "files.h"

static char root[64];

/* mkdir -p of the parent, then write TEXT to ROOT/REL. */
static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	test_write_file(path, text);
}

static void link_to(const char *rel, const char *target)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/nb-hw.XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static const json_t *get(const json_t *o, const char *path)
{
	char key[64];
	const char *dot;

	while ((dot = strchr(path, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		o = json_object_get(o, key);
		path = dot + 1;
	}
	return json_object_get(o, path);
}

static void assert_str(const json_t *o, const char *path, const char *want)
{
	const char *v = json_string_value(get(o, path));

	if (!v || strcmp(v, want)) {
		print_error("%s = '%s', expected '%s'\n", path, v ? v : "(not a string)",
			    want);
		fail();
	}
}

static void assert_int(const json_t *o, const char *path, long long want)
{
	const json_t *v = get(o, path);

	if (!json_is_integer(v) || json_integer_value(v) != want) {
		print_error("%s = %lld (%s), expected %lld\n", path,
			    (long long)json_integer_value(v),
			    json_is_integer(v) ? "integer" : "not an integer", want);
		fail();
	}
}

/* assert_jnull(O, PATH...): each PATH of O is null */
#define assert_jnull(o, ...) assert_jnulls(o, __VA_ARGS__, (const char *)NULL)

static void assert_jnulls(const json_t *o, ...)
{
	const char *path;
	va_list ap;

	va_start(ap, o);
	while ((path = va_arg(ap, const char *))) {
		const json_t *v = get(o, path);

		if (!json_is_null(v)) {
			char *s = json_dumps(v, JSON_ENCODE_ANY);

			print_error("%s = %s, expected null\n", path, s ? s : "(missing)");
			free(s);
			fail();
		}
	}
	va_end(ap);
}

/* Two sockets, two cores each, two threads per core: 8 CPUs. */
static void full_cpu(void)
{
	for (int cpu = 0; cpu < 8; cpu++) {
		char rel[128], v[16];

		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/"
			 "physical_package_id", cpu);
		snprintf(v, sizeof(v), "%d\n", cpu / 4);
		put(rel, v);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/"
			 "core_id", cpu);
		snprintf(v, sizeof(v), "%d\n", (cpu / 2) % 2);
		put(rel, v);
		if (cpu) {
			snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/online",
				 cpu);
			put(rel, "1\n");
		}
	}
	/* an offline CPU has no topology and must not count */
	put("sys/devices/system/cpu/cpu8/online", "0\n");
	put("sys/devices/system/cpu/online", "0-7\n");
	put("proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n"
	    "model name\t: Intel(R) Xeon(R) CPU E5-2620 0 @ 2.00GHz\n\n"
	    "processor\t: 1\nvendor_id\t: GenuineIntel\n");
}

static void test_full_tree(void **state)
{
	json_t *inv, *d, *n;

	(void)state;
	full_cpu();
	put("proc/meminfo", "MemTotal:       32841460 kB\nMemFree: 1 kB\n"
	    "SwapTotal:       4194300 kB\n");
	put("proc/sys/kernel/hostname", "dl380p\n");
	put("proc/sys/kernel/ostype", "Linux\n");
	put("proc/sys/kernel/osrelease", "4.9.0-11-amd64\n");
	put("proc/sys/kernel/arch", "x86_64\n");
	put("etc/os-release", "NAME=\"Devuan GNU/Linux\"\n"
	    "PRETTY_NAME=\"Devuan GNU/Linux 2 (ascii)\"\n");
	/* a SATA SSD, a disk on bfq, a loop device (skipped), an md array */
	put("sys/block/sda/size", "976773168\n");
	put("sys/block/sda/removable", "0\n");
	put("sys/block/sda/device/model", "Samsung SSD 860 \n");
	put("sys/block/sda/device/vendor", "ATA     \n");
	put("sys/block/sda/queue/rotational", "0\n");
	put("sys/block/sda/queue/scheduler", "[mq-deadline] kyber bfq none\n");
	put("sys/block/sda/queue/logical_block_size", "512\n");
	put("sys/block/sda/queue/physical_block_size", "512\n");
	put("sys/block/sda/queue/discard_max_bytes", "2147450880\n");
	put("sys/block/sda/queue/write_cache", "write back\n");
	put("sys/block/sdb/size", "5860533168\n");
	put("sys/block/sdb/device/model", "WDC WD30EFRX-68E\n");
	put("sys/block/sdb/queue/rotational", "1\n");
	put("sys/block/sdb/queue/scheduler", "mq-deadline kyber [bfq] none\n");
	put("sys/block/sdb/queue/logical_block_size", "512\n");
	put("sys/block/sdb/queue/physical_block_size", "4096\n");
	put("sys/block/sdb/queue/discard_max_bytes", "0\n");
	put("sys/block/loop0/size", "0\n");
	put("sys/block/md0/size", "7814047744\n");
	put("sys/block/md0/md/level", "raid6\n");
	put("sys/block/md0/md/raid_disks", "6\n");
	put("sys/block/md0/slaves/sda1", "");
	put("sys/block/md0/slaves/sdb1", "");
	/* a 1 GbE port with a driver, loopback (skipped), a bridge (virtual) */
	put("sys/devices/pci0000:00/0000:03:00.0/net/eno1/speed", "1000\n");
	put("sys/devices/pci0000:00/0000:03:00.0/net/eno1/duplex", "full\n");
	put("sys/devices/pci0000:00/0000:03:00.0/net/eno1/mtu", "9000\n");
	put("sys/devices/pci0000:00/0000:03:00.0/net/eno1/operstate", "up\n");
	put("sys/devices/pci0000:00/0000:03:00.0/net/eno1/type", "1\n");
	put("sys/bus/pci/drivers/tg3/.keep", "");
	put("sys/class/net/.keep", "");
	link_to("sys/class/net/eno1", "../../devices/pci0000:00/0000:03:00.0/net/eno1");
	link_to("sys/devices/pci0000:00/0000:03:00.0/net/eno1/device",
		"../../../0000:03:00.0");
	link_to("sys/devices/pci0000:00/0000:03:00.0/driver",
		"../../../bus/pci/drivers/tg3");
	put("sys/devices/virtual/net/lo/type", "772\n");
	link_to("sys/class/net/lo", "../../devices/virtual/net/lo");
	put("sys/devices/virtual/net/xenbr0/mtu", "1500\n");
	put("sys/devices/virtual/net/xenbr0/speed", "-1\n");
	link_to("sys/class/net/xenbr0", "../../devices/virtual/net/xenbr0");
	/* Xen dom0 */
	put("sys/hypervisor/type", "xen\n");
	put("proc/xen/capabilities", "control_d\n");
	put("sys/class/dmi/id/sys_vendor", "HP\n");
	put("sys/class/dmi/id/product_name", "ProLiant DL380p Gen8\n");

	inv = nb_hw_inventory(root);
	assert_non_null(inv);
	assert_str(inv, "kind", "nasbench-hw");
	assert_str(inv, "hostname", "dl380p");
	assert_str(inv, "cpu.model", "Intel(R) Xeon(R) CPU E5-2620 0 @ 2.00GHz");
	assert_str(inv, "cpu.vendor", "GenuineIntel");
	assert_int(inv, "cpu.sockets", 2);
	assert_int(inv, "cpu.cores", 4);
	assert_int(inv, "cpu.threads", 8);
	assert_int(inv, "memory.total_bytes", 32841460LL * 1024);
	assert_int(inv, "memory.swap_bytes", 4194300LL * 1024);
	assert_str(inv, "os.name", "Devuan GNU/Linux 2 (ascii)");
	assert_str(inv, "os.kernel", "4.9.0-11-amd64");
	assert_str(inv, "os.type", "Linux");
	assert_str(inv, "os.arch", "x86_64");

	assert_int_equal(json_array_size(json_object_get(inv, "disks")), 2);
	d = json_array_get(json_object_get(inv, "disks"), 0);
	assert_str(d, "name", "sda");
	assert_str(d, "model", "Samsung SSD 860");
	assert_str(d, "vendor", "ATA");
	assert_int(d, "size_bytes", 976773168LL * 512);
	assert_true(json_is_false(json_object_get(d, "rotational")));
	assert_str(d, "scheduler", "mq-deadline");
	assert_int(d, "physical_block_size", 512);
	assert_true(json_is_true(json_object_get(d, "discard")));
	assert_str(d, "write_cache", "write back");
	assert_true(json_is_false(json_object_get(d, "removable")));
	d = json_array_get(json_object_get(inv, "disks"), 1);
	assert_str(d, "name", "sdb");
	assert_true(json_is_true(json_object_get(d, "rotational")));
	assert_str(d, "scheduler", "bfq");
	assert_int(d, "physical_block_size", 4096);
	assert_true(json_is_false(json_object_get(d, "discard")));
	assert_jnull(d, "vendor", "removable");

	d = json_array_get(json_object_get(inv, "arrays"), 0);
	assert_str(d, "name", "md0");
	assert_str(d, "level", "raid6");
	assert_int(d, "raid_disks", 6);
	assert_int_equal(json_array_size(json_object_get(d, "members")), 2);

	assert_int_equal(json_array_size(json_object_get(inv, "nics")), 2);
	n = json_array_get(json_object_get(inv, "nics"), 0);
	assert_str(n, "name", "eno1");
	assert_int(n, "speed_mbit", 1000);
	assert_int(n, "mtu", 9000);
	assert_str(n, "driver", "tg3");
	assert_str(n, "duplex", "full");
	assert_true(json_is_false(json_object_get(n, "virtual")));
	n = json_array_get(json_object_get(inv, "nics"), 1);
	assert_str(n, "name", "xenbr0");
	assert_jnull(n, "speed_mbit");
	assert_true(json_is_true(json_object_get(n, "virtual")));

	assert_true(json_is_true(get(inv, "virtualization.virtual")));
	assert_str(inv, "virtualization.hypervisor", "xen");
	assert_str(inv, "virtualization.xen_role", "dom0");
	assert_str(inv, "virtualization.platform", "xen");
	assert_str(inv, "virtualization.evidence.dmi_product_name",
		   "ProLiant DL380p Gen8");
	/* a fake tree never consults the real cpuid */
	assert_jnull(inv, "virtualization.evidence.cpuid_hypervisor_bit");
	assert_string_equal(nb_hw_platform(inv), "xen");
	json_decref(inv);
}

static void test_empty_tree(void **state)
{
	json_t *inv;

	(void)state;
	inv = nb_hw_inventory(root);
	assert_non_null(inv);
	assert_jnull(inv, "hostname", "cpu.model", "cpu.sockets", "cpu.cores",
		     "cpu.threads", "memory.total_bytes", "disks", "arrays",
		     "nics", "os.name", "os.kernel", "os.arch",
		     "virtualization.virtual", "virtualization.hypervisor",
		     "virtualization.platform");
	assert_true(nb_hw_platform(inv) == NULL);
	json_decref(inv);
}

static void test_odd_tree(void **state)
{
	json_t *inv, *d, *n;

	(void)state;
	/* topology with an odd value: fall back on cpuinfo's ids */
	put("sys/devices/system/cpu/cpu0/topology/physical_package_id", "zero\n");
	put("sys/devices/system/cpu/cpu0/topology/core_id", "0\n");
	put("proc/cpuinfo", "processor : 0\nphysical id : 0\ncore id : 0\n\n"
	    "processor : 1\nphysical id : 0\ncore id : 1\n\n"
	    "processor : 2\nphysical id : 0\ncore id : 0\n\n");
	put("proc/meminfo", "MemTotal: lots kB\nSwapTotal: 12 MB\n");
	put("proc/sys/kernel/osrelease", "\n");
	put("etc/os-release", "NAME=x\n");
	put("usr/lib/os-release", "PRETTY_NAME='Not read: etc wins'\n");
	put("sys/block/sdz/device/model", "\x01\x02\n");
	put("sys/block/sdz/size", "abc\n");
	put("sys/block/sdz/queue/rotational", "2\n");
	put("sys/block/sdz/queue/scheduler", "\n");
	put("sys/block/sdz/queue/logical_block_size", "-512\n");
	put("sys/block/sdz/queue/physical_block_size", "4096 bytes\n");
	put("sys/block/sdy/queue/scheduler", "none\n");
	put("sys/block/sdy/device/.keep", "");
	put("sys/class/net/eth9/speed", "-1\n");
	put("sys/class/net/eth9/operstate", "unknown\n");
	put("sys/class/net/eth9/duplex", "unknown\n");
	put("sys/class/dmi/id/sys_vendor", "Microsoft Corporation\n");
	put("sys/class/dmi/id/product_name", "Surface Pro\n");

	inv = nb_hw_inventory(root);
	assert_int(inv, "cpu.sockets", 1);
	assert_int(inv, "cpu.cores", 2);
	assert_int(inv, "cpu.threads", 3);
	assert_jnull(inv, "memory.total_bytes", "memory.swap_bytes",
		     "os.kernel", "os.name");

	d = json_array_get(json_object_get(inv, "disks"), 1);
	assert_str(d, "name", "sdz");
	assert_jnull(d, "model", "size_bytes", "rotational", "scheduler",
		     "logical_block_size", "physical_block_size", "discard");
	d = json_array_get(json_object_get(inv, "disks"), 0);
	assert_str(d, "name", "sdy");
	assert_str(d, "scheduler", "none");

	n = json_array_get(json_object_get(inv, "nics"), 0);
	assert_str(n, "name", "eth9");
	assert_jnull(n, "speed_mbit", "state", "duplex", "mtu");
	/* a plain directory without device/: virtual */
	assert_true(json_is_true(json_object_get(n, "virtual")));

	/* a Microsoft machine that is not a "Virtual Machine": unknown, as
	 * cpuid is not read from a fake tree */
	assert_jnull(inv, "virtualization.virtual",
		     "virtualization.hypervisor");
	json_decref(inv);
}

static const char *decide(struct nb_virt_evidence e, const char *field)
{
	static char buf[64];
	json_t *v = nb_hw_virt_decide(&e), *f = json_object_get(v, field);

	snprintf(buf, sizeof(buf), "%s", json_is_null(f) ? "null" :
		 json_is_true(f) ? "true" : json_is_false(f) ? "false" :
		 json_string_value(f));
	json_decref(v);
	return buf;
}

static void test_virt_rules(void **state)
{
	struct nb_virt_evidence e = { .cpuid_bit = 0 };

	(void)state;
	/* x86 without the hypervisor bit and nothing else: bare metal */
	assert_string_equal(decide(e, "virtual"), "false");
	assert_string_equal(decide(e, "platform"), "bare");
	assert_string_equal(decide(e, "hypervisor"), "null");

	e = (struct nb_virt_evidence){ .cpuid_bit = 1, .cpuid_vendor = "KVMKVMKVM" };
	assert_string_equal(decide(e, "platform"), "kvm");
	e.cpuid_vendor = "VMwareVMware";
	assert_string_equal(decide(e, "platform"), "vmware");
	e.cpuid_vendor = "Microsoft Hv";
	assert_string_equal(decide(e, "platform"), "hyperv");
	e.cpuid_vendor = "XenVMMXenVMM";
	assert_string_equal(decide(e, "platform"), "xen");
	e.cpuid_vendor = "bhyve bhyve ";
	assert_string_equal(decide(e, "hypervisor"), "bhyve");
	assert_string_equal(decide(e, "platform"), "other");
	/* the bit without a known name: virtual, hypervisor "other" */
	e.cpuid_vendor = "ZZZZZZZZZZZZ";
	assert_string_equal(decide(e, "virtual"), "true");
	assert_string_equal(decide(e, "hypervisor"), "other");
	/* ... unless DMI names it */
	e.dmi_sys_vendor = "QEMU";
	assert_string_equal(decide(e, "hypervisor"), "qemu");

	/* no cpuid (not x86): DMI decides, or nothing is known */
	e = (struct nb_virt_evidence){ .cpuid_bit = -1 };
	assert_string_equal(decide(e, "virtual"), "null");
	e.dmi_sys_vendor = "VMware, Inc.";
	assert_string_equal(decide(e, "platform"), "vmware");
	e.dmi_sys_vendor = "Microsoft Corporation";
	e.dmi_product = "Virtual Machine";
	assert_string_equal(decide(e, "platform"), "hyperv");
	e.dmi_sys_vendor = "Dell Inc.";
	e.dmi_product = "PowerEdge R730";
	assert_string_equal(decide(e, "virtual"), "null");
	e.dmi_bios_vendor = "innotek GmbH";
	assert_string_equal(decide(e, "hypervisor"), "virtualbox");

	/* Xen: the role from /proc/xen/capabilities when readable */
	e = (struct nb_virt_evidence){ .cpuid_bit = 0, .sys_hypervisor = "xen" };
	assert_string_equal(decide(e, "platform"), "xen");
	assert_string_equal(decide(e, "xen_role"), "null");
	e.xen_caps = "";
	assert_string_equal(decide(e, "xen_role"), "domU");
	e.xen_caps = "control_d";
	assert_string_equal(decide(e, "xen_role"), "dom0");

	assert_true(nb_hw_hypervisor_cpuid("nothing") == NULL);
	assert_string_equal(nb_hw_hypervisor_cpuid(" lrpepyh  vr"), "parallels");
	assert_string_equal(nb_hw_hypervisor_dmi("Xen"), "xen");
}

static void test_real_machine(void **state)
{
	json_t *inv = nb_hw_inventory(NULL);

	(void)state;
	/* this test machine has a /proc: these are never unknown here */
	assert_true(json_is_integer(get(inv, "memory.total_bytes")));
	assert_true(json_integer_value(get(inv, "cpu.threads")) ==
		    sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(json_is_string(get(inv, "os.kernel")));
	assert_true(json_is_array(json_object_get(inv, "disks")));
	json_decref(inv);
}

/* A remote box described by [box] keys: the box inventory says what they
 * say, platform = auto cannot be detected and becomes "unknown". */
static void test_box_from_labels(void **state)
{
	struct nb_config c;
	json_t *doc, *box, *d;

	(void)state;
	nb_quiet = 1;
	nb_config_init(&c);
	assert_int_equal(nb_config_label(&c, "cpu", "AMD Turion II Neo N40L", NULL), 0);
	assert_int_equal(nb_config_label(&c, "ram", "8G", NULL), 0);
	assert_int_equal(nb_config_label(&c, "nic", "1gbit", NULL), 0);
	assert_int_equal(nb_config_label(&c, "disks", "5 x 3TB WD Red", NULL), 0);
	assert_int_equal(nb_config_label(&c, "media", "hdd", NULL), 0);
	c.ntargets = 1;
	snprintf(c.targets[0].u.scheme, sizeof(c.targets[0].u.scheme), "nfs");
	doc = json_pack("{s:{s:s}}", "labels", "platform", "auto");
	assert_string_equal(nb_hw_embed(doc, &c, NULL), "unknown");
	assert_str(doc, "labels.platform", "unknown");
	assert_str(doc, "client.kind", "nasbench-hw");
	box = json_object_get(doc, "box");
	assert_str(box, "source", "box labels");
	assert_str(box, "cpu.model", "AMD Turion II Neo N40L");
	assert_int(box, "memory.total_bytes", 8LL << 30);
	assert_int_equal(json_array_size(json_object_get(box, "disks")), 5);
	d = json_array_get(json_object_get(box, "disks"), 4);
	assert_str(d, "model", "WD Red");
	assert_int(d, "size_bytes", 3000000000000LL);
	assert_true(json_is_true(json_object_get(d, "rotational")));
	assert_int(json_array_get(json_object_get(box, "nics"), 0), "speed_mbit", 1000);
	assert_jnull(box, "virtualization.platform");
	json_decref(doc);

	/* a box inventory given: its platform fills the label */
	doc = json_pack("{s:{}}", "labels");
	box = json_pack("{s:s, s:{s:s}}", "kind", "nasbench-hw", "virtualization",
			"platform", "xen");
	assert_string_equal(nb_hw_embed(doc, &c, box), "xen");
	assert_str(doc, "labels.platform", "xen");
	json_decref(doc);

	/* no label and nothing known: no label added */
	nb_config_free(&c);
	nb_config_init(&c);
	c.ntargets = 1;
	snprintf(c.targets[0].u.scheme, sizeof(c.targets[0].u.scheme), "iscsi");
	doc = json_pack("{s:{}}", "labels");
	assert_true(nb_hw_embed(doc, &c, NULL) == NULL);
	assert_true(json_object_get(json_object_get(doc, "labels"), "platform") == NULL);
	assert_true(json_object_get(doc, "box") == NULL);
	json_decref(doc);
	nb_config_free(&c);
}

/* nb_hw_load: an inventory, a result made on the box, or an error. */
static void test_load(void **state)
{
	char path[PATH_MAX];
	json_t *inv;

	(void)state;
	put("inv.json", "{\"kind\": \"nasbench-hw\", \"schema\": 1, \"hostname\": \"a\"}");
	snprintf(path, sizeof(path), "%s/inv.json", root);
	assert_int_equal(nb_hw_load(path, &inv), 0);
	assert_str(inv, "hostname", "a");
	json_decref(inv);
	put("res.json", "{\"tool\": \"nasbench\", \"schema\": 1, \"results\": [],"
	    " \"client\": {\"kind\": \"nasbench-hw\", \"hostname\": \"b\"}}");
	snprintf(path, sizeof(path), "%s/res.json", root);
	assert_int_equal(nb_hw_load(path, &inv), 0);
	assert_str(inv, "hostname", "b");
	json_decref(inv);
	put("new.json", "{\"kind\": \"nasbench-hw\", \"schema\": 99}");
	snprintf(path, sizeof(path), "%s/new.json", root);
	assert_int_equal(nb_hw_load(path, &inv), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "has inventory schema 99, newer than "
			       "this nasbench reads (1)"));
	put("bad.json", "{\"kind\": ");
	snprintf(path, sizeof(path), "%s/bad.json", root);
	assert_int_equal(nb_hw_load(path, &inv), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "is not valid JSON (line 1"));
	assert_true(inv == NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_full_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_odd_tree, setup, teardown),
		cmocka_unit_test(test_virt_rules),
		cmocka_unit_test(test_real_machine),
		cmocka_unit_test(test_box_from_labels),
		cmocka_unit_test_setup_teardown(test_load, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
