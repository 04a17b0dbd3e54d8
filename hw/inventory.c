/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inventory.c - read the hardware inventory from /proc and /sys.
 *
 * Every reader returns JSON null for what is missing or odd; nothing here
 * fails the caller.  The paths are relative to a root so that unit tests
 * can lay out a fake tree (see inventory.h).
 */
#include "inventory.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

struct src {
	char root[1024];     /* "" for the real machine */
	int real;
};

#define MAX_FILE (4 << 20)       /* /proc/cpuinfo of a big box fits */

static void path_of(const struct src *s, char *buf, size_t len,
		    const char *fmt, va_list ap)
{
	size_t n = (size_t)snprintf(buf, len, "%s", s->root);

	if (n < len)
		vsnprintf(buf + n, len - n, fmt, ap);
}

/* The whole file, NUL-terminated, or NULL (missing, unreadable, empty). */
static char *slurp(const struct src *s, const char *fmt, ...)
{
	char path[PATH_MAX + 1024];
	size_t len = 0, cap = 4096;
	char *buf;
	va_list ap;
	int fd;

	va_start(ap, fmt);
	path_of(s, path, sizeof(path), fmt, ap);
	va_end(ap);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		ssize_t r;

		if (len + 1 >= cap) {
			char *nb = cap >= MAX_FILE ? NULL : realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {            /* e.g. EINVAL: speed of a down link */
			len = 0;
			break;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (!buf || !len) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

static char *trim(char *t)
{
	size_t n;

	while (isspace((unsigned char)*t))
		t++;
	n = strlen(t);
	while (n && isspace((unsigned char)t[n - 1]))
		t[--n] = '\0';
	return t;
}

/* A one-line sysfs value, trimmed, as a JSON string; null when missing,
 * empty or not printable text. */
static json_t *jstr_of(char *raw)
{
	json_t *j = json_null();
	char *t;

	if (!raw)
		return j;
	t = trim(raw);
	if (*t) {
		int ok = 1;

		for (char *p = t; *p; p++)
			if (!isprint((unsigned char)*p) && *p != '\t')
				ok = 0;
		if (ok)
			j = json_string(t);
	}
	free(raw);
	return j ? j : json_null();
}

/* As jstr_of, and the kernel's own "unknown" (duplex, operstate) is null. */
static json_t *jstr_known(char *raw)
{
	json_t *j = jstr_of(raw);

	if (json_is_string(j) && !strcmp(json_string_value(j), "unknown")) {
		json_decref(j);
		return json_null();
	}
	return j;
}

/* A decimal integer file ("512\n"); -1 when missing or odd. */
static long long num_of(char *raw)
{
	long long v = -1;
	char *t, *end;

	if (!raw)
		return -1;
	t = trim(raw);
	if (isdigit((unsigned char)*t)) {
		errno = 0;
		v = strtoll(t, &end, 10);
		if (errno || *end || v < 0)
			v = -1;
	}
	free(raw);
	return v;
}

static json_t *jnum(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* "0"/"1" files: JSON boolean or null. */
static json_t *jbool_of(char *raw)
{
	long long v = num_of(raw);

	return v == 0 ? json_false() : v == 1 ? json_true() : json_null();
}

/* The value of "key : value" lines (cpuinfo, meminfo), or NULL. */
static char *field(const char *text, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		const char *p = l;

		if (strncmp(p, key, kl))
			continue;
		p += kl;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != ':')
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
		trim(out);
		return *out ? out : NULL;
	}
	return NULL;
}

/* ---- cpu ---- */

/* Entries of DIR matching cpu[0-9]+ (or any name for the others), sorted. */
static int list_dir(const struct src *s, const char *dir, struct dirent ***out)
{
	char path[PATH_MAX + 1024];

	snprintf(path, sizeof(path), "%s%s", s->root, dir);
	return scandir(path, out, NULL, alphasort);
}

static void free_list(struct dirent **l, int n)
{
	for (int i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

static int is_cpu_dir(const char *n)
{
	if (strncmp(n, "cpu", 3) || !isdigit((unsigned char)n[3]))
		return 0;
	for (n += 3; *n; n++)
		if (!isdigit((unsigned char)*n))
			return 0;
	return 1;
}

#define MAX_CPUS 4096

/* Sockets: distinct packages; cores: distinct (package, core) pairs. */
static void count_distinct(const long long *pkg, const long long *core, int n,
			   long long *sockets, long long *cores)
{
	long long np = 0, nc = 0;

	for (int i = 0; i < n; i++) {
		int seen_p = 0, seen_c = 0;

		for (int j = 0; j < i; j++) {
			seen_p |= pkg[j] == pkg[i];
			seen_c |= pkg[j] == pkg[i] && core[j] == core[i];
		}
		np += !seen_p;
		nc += !seen_c;
	}
	*sockets = np;
	*cores = nc;
}

/* Sockets, cores and threads from sysfs topology; 0 when not readable. */
static int topology_sysfs(const struct src *s, long long *sockets,
			  long long *cores, long long *threads)
{
	long long pkg[MAX_CPUS], core[MAX_CPUS];
	struct dirent **l;
	int n = list_dir(s, "/sys/devices/system/cpu", &l), nt = 0;

	if (n < 0)
		return 0;
	for (int i = 0; i < n && nt < MAX_CPUS; i++) {
		const char *d = l[i]->d_name;
		long long p, c;

		if (!is_cpu_dir(d))
			continue;
		/* an offline CPU keeps no topology; cpu0 often has no "online" */
		if (num_of(slurp(s, "/sys/devices/system/cpu/%s/online", d)) == 0)
			continue;
		p = num_of(slurp(s, "/sys/devices/system/cpu/%s/topology/"
				 "physical_package_id", d));
		c = num_of(slurp(s, "/sys/devices/system/cpu/%s/topology/core_id", d));
		if (p < 0 || c < 0) {
			free_list(l, n);
			return 0;
		}
		pkg[nt] = p;
		core[nt] = c;
		nt++;
	}
	free_list(l, n);
	if (!nt)
		return 0;
	count_distinct(pkg, core, nt, sockets, cores);
	*threads = nt;
	return 1;
}

/* The same from /proc/cpuinfo ("processor", "physical id", "core id"). */
static void topology_cpuinfo(const char *info, long long *sockets,
			     long long *cores, long long *threads)
{
	long long pkg[MAX_CPUS], core[MAX_CPUS];
	long long nt = 0;
	int have_ids = 1;

	for (const char *blk = info; blk && *blk && nt < MAX_CPUS;) {
		const char *next = strstr(blk, "\n\n");
		char v[64], one[8192];
		size_t len = next ? (size_t)(next - blk) : strlen(blk);

		snprintf(one, sizeof(one), "%.*s", (int)len, blk);
		if (field(one, "processor", v, sizeof(v))) {
			char a[64], b[64];

			if (field(one, "physical id", a, sizeof(a)) &&
			    field(one, "core id", b, sizeof(b))) {
				pkg[nt] = atoll(a);
				core[nt] = atoll(b);
			} else {
				have_ids = 0;
			}
			nt++;
		}
		blk = next ? next + 2 : NULL;
	}
	*threads = nt ? nt : -1;
	if (!nt || !have_ids)
		return;
	count_distinct(pkg, core, (int)nt, sockets, cores);
}

static json_t *read_cpu(const struct src *s)
{
	char *info = slurp(s, "/proc/cpuinfo");
	long long sockets = -1, cores = -1, threads = -1;
	char v[256];
	json_t *cpu;

	cpu = json_pack("{s:o, s:o}",
			"model", info && (field(info, "model name", v, sizeof(v)) ||
					  field(info, "cpu model", v, sizeof(v)))
				 ? json_string(v) : json_null(),
			"vendor", info && field(info, "vendor_id", v, sizeof(v))
				  ? json_string(v) : json_null());
	if (!topology_sysfs(s, &sockets, &cores, &threads) && info)
		topology_cpuinfo(info, &sockets, &cores, &threads);
	json_object_set_new(cpu, "sockets", jnum(sockets));
	json_object_set_new(cpu, "cores", jnum(cores));
	json_object_set_new(cpu, "threads", jnum(threads));
	free(info);
	return cpu;
}

/* ---- memory ---- */

static json_t *meminfo_bytes(const char *info, const char *key)
{
	char v[64], *end;
	long long kb;

	if (!info || !field(info, key, v, sizeof(v)) || !isdigit((unsigned char)*v))
		return json_null();
	errno = 0;
	kb = strtoll(v, &end, 10);
	while (*end == ' ')
		end++;
	if (errno || kb < 0 || strcmp(end, "kB"))
		return json_null();
	return json_integer(kb * 1024);
}

static json_t *read_memory(const struct src *s)
{
	char *info = slurp(s, "/proc/meminfo");
	json_t *m = json_pack("{s:o, s:o}",
			      "total_bytes", meminfo_bytes(info, "MemTotal"),
			      "swap_bytes", meminfo_bytes(info, "SwapTotal"));

	free(info);
	return m;
}

/* ---- disks ---- */

static int exists(const struct src *s, const char *fmt, ...)
{
	char path[PATH_MAX + 1024];
	va_list ap;

	va_start(ap, fmt);
	path_of(s, path, sizeof(path), fmt, ap);
	va_end(ap);
	return access(path, F_OK) == 0;
}

/* "mq-deadline kyber [bfq] none" -> "bfq"; one word alone is that word. */
static json_t *scheduler_of(char *raw)
{
	char *t, *a, *b;
	json_t *j = json_null();

	if (!raw)
		return j;
	t = trim(raw);
	a = strchr(t, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b && b > a + 1) {
		*b = '\0';
		j = json_string(a + 1);
	} else if (!a && *t && !strpbrk(t, " \t")) {
		j = json_string(t);
	}
	free(raw);
	return j ? j : json_null();
}

static json_t *read_disk(const struct src *s, const char *d)
{
	const char *b = "/sys/block";
	long long sectors = num_of(slurp(s, "%s/%s/size", b, d));
	long long dmax = num_of(slurp(s, "%s/%s/queue/discard_max_bytes", b, d));
	json_t *model = jstr_of(slurp(s, "%s/%s/device/model", b, d));

	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"name", d,
		"model", model,
		"vendor", jstr_of(slurp(s, "%s/%s/device/vendor", b, d)),
		"size_bytes", sectors < 0 ? json_null() : json_integer(sectors * 512),
		"rotational", jbool_of(slurp(s, "%s/%s/queue/rotational", b, d)),
		"scheduler", scheduler_of(slurp(s, "%s/%s/queue/scheduler", b, d)),
		"logical_block_size",
		jnum(num_of(slurp(s, "%s/%s/queue/logical_block_size", b, d))),
		"physical_block_size",
		jnum(num_of(slurp(s, "%s/%s/queue/physical_block_size", b, d))),
		"discard", dmax < 0 ? json_null() : json_boolean(dmax > 0),
		"write_cache", jstr_of(slurp(s, "%s/%s/queue/write_cache", b, d)),
		"removable", jbool_of(slurp(s, "%s/%s/removable", b, d)));
}

static json_t *read_array(const struct src *s, const char *d)
{
	struct dirent **l;
	char dir[512];
	long long sectors = num_of(slurp(s, "/sys/block/%s/size", d));
	json_t *members = json_array();
	int n;

	snprintf(dir, sizeof(dir), "/sys/block/%s/slaves", d);
	n = list_dir(s, dir, &l);
	for (int i = 0; i < n; i++)
		if (l[i]->d_name[0] != '.')
			json_array_append_new(members, json_string(l[i]->d_name));
	if (n >= 0)
		free_list(l, n);
	return json_pack("{s:s, s:o, s:o, s:o, s:o}", "name", d,
		"level", jstr_of(slurp(s, "/sys/block/%s/md/level", d)),
		"raid_disks", jnum(num_of(slurp(s, "/sys/block/%s/md/raid_disks", d))),
		"members", members,
		"size_bytes", sectors < 0 ? json_null() : json_integer(sectors * 512));
}

static void read_block(const struct src *s, json_t *inv)
{
	json_t *disks = json_array(), *arrays = json_array();
	struct dirent **l;
	int n = list_dir(s, "/sys/block", &l);

	for (int i = 0; i < n; i++) {
		const char *d = l[i]->d_name;

		if (d[0] == '.')
			continue;
		if (exists(s, "/sys/block/%s/md", d))
			json_array_append_new(arrays, read_array(s, d));
		else if (exists(s, "/sys/block/%s/device", d))
			json_array_append_new(disks, read_disk(s, d));
	}
	if (n >= 0)
		free_list(l, n);
	/* no /sys/block at all: the disks are unknown, not "none" */
	json_object_set_new(inv, "disks", n < 0 ? json_null() : disks);
	json_object_set_new(inv, "arrays", n < 0 ? json_null() : arrays);
	if (n < 0) {
		json_decref(disks);
		json_decref(arrays);
	}
}

/* ---- network ---- */

static json_t *link_base(const struct src *s, const char *fmt, ...)
{
	char path[PATH_MAX + 1024], target[PATH_MAX];
	const char *slash;
	ssize_t n;
	va_list ap;

	va_start(ap, fmt);
	path_of(s, path, sizeof(path), fmt, ap);
	va_end(ap);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	slash = strrchr(target, '/');
	return json_string(slash ? slash + 1 : target);
}

static int is_virtual_nic(const struct src *s, const char *d)
{
	char path[PATH_MAX + 1024], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/sys/class/net/%s", s->root, d);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)     /* a plain directory (old kernels, fake trees) */
		return !exists(s, "/sys/class/net/%s/device", d);
	target[n] = '\0';
	return strstr(target, "/devices/virtual/") != NULL;
}

static json_t *read_nic(const struct src *s, const char *d)
{
	const char *b = "/sys/class/net";
	json_t *drv = link_base(s, "%s/%s/device/driver", b, d);
	long long speed = num_of(slurp(s, "%s/%s/speed", b, d));

	/* a down link reads EINVAL or -1 (num_of: -1): unknown */
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:b}",
		"name", d,
		"driver", drv ? drv : json_null(),
		"speed_mbit", speed <= 0 ? json_null() : json_integer(speed),
		"duplex", jstr_known(slurp(s, "%s/%s/duplex", b, d)),
		"mtu", jnum(num_of(slurp(s, "%s/%s/mtu", b, d))),
		"state", jstr_known(slurp(s, "%s/%s/operstate", b, d)),
		"virtual", is_virtual_nic(s, d));
}

static json_t *read_nics(const struct src *s)
{
	json_t *nics = json_array();
	struct dirent **l;
	int n = list_dir(s, "/sys/class/net", &l);

	if (n < 0) {
		json_decref(nics);
		return json_null();
	}
	for (int i = 0; i < n; i++) {
		const char *d = l[i]->d_name;

		/* ARPHRD_LOOPBACK is 772 */
		if (d[0] == '.' || num_of(slurp(s, "/sys/class/net/%s/type", d)) == 772)
			continue;
		json_array_append_new(nics, read_nic(s, d));
	}
	free_list(l, n);
	return nics;
}

/* ---- os ---- */

static json_t *os_name(const struct src *s)
{
	char *rel = slurp(s, "/etc/os-release"), v[256];
	json_t *j = json_null();

	if (!rel)
		rel = slurp(s, "/usr/lib/os-release");
	for (char *l = rel; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		size_t n;

		if (strncmp(l, "PRETTY_NAME=", 12))
			continue;
		snprintf(v, sizeof(v), "%.*s", (int)strcspn(l + 12, "\n"), l + 12);
		n = strlen(v);
		if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
			v[n - 1] = '\0';
			memmove(v, v + 1, n - 1);
		}
		if (*trim(v))
			j = json_string(v);
		break;
	}
	free(rel);
	return j ? j : json_null();
}

static json_t *read_os(const struct src *s)
{
	json_t *arch = jstr_of(slurp(s, "/proc/sys/kernel/arch"));
	struct utsname u;

	/* kernels before 6.1 have no /proc/sys/kernel/arch */
	if (json_is_null(arch) && s->real && !uname(&u)) {
		json_decref(arch);
		arch = json_string(u.machine);
	}
	return json_pack("{s:o, s:o, s:o, s:o}",
			 "name", os_name(s),
			 "type", jstr_of(slurp(s, "/proc/sys/kernel/ostype")),
			 "kernel", jstr_of(slurp(s, "/proc/sys/kernel/osrelease")),
			 "arch", arch);
}

/* ---- virtualization ---- */

static int cpuid_read(char vendor[13])
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;

	vendor[0] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return -1;
	if (!(c & (1u << 31)))
		return 0;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &c, 4);
	memcpy(vendor + 8, &d, 4);
	vendor[12] = '\0';
	return 1;
#else
	vendor[0] = '\0';
	return -1;
#endif
}

/* A string of the evidence, trimmed, or NULL; the caller frees. */
static char *evidence(const struct src *s, const char *path)
{
	char *raw = slurp(s, "%s", path), *t;

	if (!raw)
		return NULL;
	t = trim(raw);
	if (!*t) {
		free(raw);
		return NULL;
	}
	memmove(raw, t, strlen(t) + 1);
	return raw;
}

static json_t *read_virt(const struct src *s)
{
	struct nb_virt_evidence e = { .cpuid_bit = -1 };
	char vendor[13] = "", *owned[6];
	json_t *v;

	if (s->real) {
		e.cpuid_bit = cpuid_read(vendor);
		if (e.cpuid_bit == 1) {
			/* the vendor string may be padded with NULs or spaces */
			trim(vendor);
			e.cpuid_vendor = vendor[0] ? vendor : NULL;
		}
	}
	e.sys_hypervisor = owned[0] = evidence(s, "/sys/hypervisor/type");
	e.xen_caps = owned[1] = evidence(s, "/proc/xen/capabilities");
	e.dmi_sys_vendor = owned[2] = evidence(s, "/sys/class/dmi/id/sys_vendor");
	e.dmi_product = owned[3] = evidence(s, "/sys/class/dmi/id/product_name");
	e.dmi_board_vendor = owned[4] = evidence(s, "/sys/class/dmi/id/board_vendor");
	e.dmi_bios_vendor = owned[5] = evidence(s, "/sys/class/dmi/id/bios_vendor");
	v = nb_hw_virt_decide(&e);
	for (int i = 0; i < 6; i++)
		free(owned[i]);
	return v;
}

json_t *nb_hw_inventory(const char *root)
{
	struct src s = { .real = !root || !*root || !strcmp(root, "/") };
	json_t *inv;

	if (!s.real)
		snprintf(s.root, sizeof(s.root), "%s", root);
	inv = json_pack("{s:s, s:i, s:s, s:o, s:o, s:o}",
			"kind", NB_HW_KIND, "schema", NB_HW_SCHEMA,
			"source", "detected",
			"hostname", jstr_of(slurp(&s, "/proc/sys/kernel/hostname")),
			"cpu", read_cpu(&s), "memory", read_memory(&s));
	if (!inv)
		return NULL;
	read_block(&s, inv);
	json_object_set_new(inv, "nics", read_nics(&s));
	json_object_set_new(inv, "os", read_os(&s));
	json_object_set_new(inv, "virtualization", read_virt(&s));
	return inv;
}
