/* SPDX-License-Identifier: GPL-2.0-or-later */
/* telem_parse.c - a box's counters from the text of its kernel and tools. */
#include "telem_parse.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_ 1024
#define MAXTOK NB_TP_MAXTOK

/* The next line of *P into BUF (cut to its size); 0 at the end. */
static int next_line(const char **p, char *buf, size_t len)
{
	const char *s = *p, *e;
	size_t n;

	if (!s || !*s)
		return 0;
	e = strchr(s, '\n');
	n = e ? (size_t)(e - s) : strlen(s);
	*p = e ? e + 1 : s + n;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	return 1;
}

/* LINE split at white space into TOK, which holds MAX; the count. */
static int split_max(char *line, char **tok, int max)
{
	char *save = NULL;
	int n = 0;

	for (char *s = strtok_r(line, " \t\r", &save); s && n < max;
	     s = strtok_r(NULL, " \t\r", &save))
		tok[n++] = s;
	return n;
}

/* LINE split into TOK[MAXTOK]; the count. */
static int split(char *line, char **tok)
{
	return split_max(line, tok, MAXTOK);
}

static int is_uint(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static uint64_t u64(const char *s)
{
	return strtoull(s, NULL, 10);
}

/* "1.2K", "300M", "12": a number with a binary suffix (zpool, vmstat). */
static double suffixed(const char *s)
{
	char *e;
	double v = strtod(s, &e);
	const char *units = "KMGTP";
	const char *u = *e ? strchr(units, toupper((unsigned char)*e)) : NULL;

	for (int i = 0; u && i <= u - units; i++)
		v *= 1024;
	return v;
}

static int cpu_add(struct nb_tp_cpu *cpu, uint64_t busy, uint64_t total)
{
	if (cpu->n >= NB_TP_MAXCPU)
		return 0;
	cpu->busy[cpu->n] = busy;
	cpu->total[cpu->n] = total;
	cpu->n++;
	return 1;
}

int nb_tp_linux_stat(const char *text, struct nb_tp_cpu *cpu)
{
	char line[LINE_MAX_], *tok[MAXTOK];
	int got = 0;

	cpu->n = 0;
	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);
		uint64_t v[8] = { 0 }, total = 0;

		/* cpuN user nice system idle iowait irq softirq steal [guest..] */
		if (n < 5 || strncmp(tok[0], "cpu", 3) || !is_uint(tok[0] + 3))
			continue;
		for (int i = 0; i < 8 && i + 1 < n; i++)
			total += v[i] = u64(tok[i + 1]);
		/* guest time is counted in user already: not added again; idle,
		 * I/O wait and steal (the hypervisor's) are not the box's work */
		got += cpu_add(cpu, total - v[3] - v[4] - v[7], total);
	}
	return got;
}

/* "Key:   123 kB" of /proc/meminfo, in bytes. */
static int meminfo_key(char **tok, int n, const char *key, uint64_t *out)
{
	size_t l = strlen(key);

	if (n < 2 || strncmp(tok[0], key, l) || strcmp(tok[0] + l, ":"))
		return 0;
	*out = u64(tok[1]) * (n > 2 && !strcmp(tok[2], "kB") ? 1024 : 1);
	return 1;
}

int nb_tp_linux_meminfo(const char *text, struct nb_tp_mem *mem)
{
	char line[LINE_MAX_], *tok[MAXTOK];
	uint64_t swap_free = 0, swap_total = 0;
	int got = 0, sw = 0;

	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);

		got += meminfo_key(tok, n, "MemTotal", &mem->total);
		got += meminfo_key(tok, n, "MemAvailable", &mem->avail);
		got += meminfo_key(tok, n, "Cached", &mem->cached);
		sw += meminfo_key(tok, n, "SwapTotal", &swap_total);
		sw += meminfo_key(tok, n, "SwapFree", &swap_free);
	}
	if (sw == 2) {
		mem->swap_total = swap_total;
		mem->swap_used = swap_total > swap_free ? swap_total - swap_free : 0;
		mem->have_swap = 1;
	}
	return got + sw;
}

int nb_tp_linux_vmstat(const char *text, struct nb_tp_mem *mem)
{
	char line[LINE_MAX_], *tok[MAXTOK];
	int got = 0;

	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);

		if (n != 2 || !is_uint(tok[1]))
			continue;
		if (!strcmp(tok[0], "pswpin"))
			mem->swap_in = u64(tok[1]), got++;
		else if (!strcmp(tok[0], "pswpout"))
			mem->swap_out = u64(tok[1]), got++;
	}
	if (got && !mem->page_size)
		mem->page_size = 4096;
	return got;
}

int nb_tp_partition_of(const char *disk, const char *name)
{
	size_t l = strlen(disk);
	const char *rest = name + l;

	if (l >= strlen(name) || strncmp(disk, name, l))
		return 0;
	/* after a name that ends in a digit a partition needs its 'p'
	 * (or FreeBSD's slice 's'): loop10 is no partition of loop1 */
	if (*rest == 'p' || *rest == 's')
		rest++;
	else if (isdigit((unsigned char)name[l - 1]))
		return 0;
	return is_uint(rest);
}

/* NAME is a partition of another disk of D: "sda1" of "sda",
 * "nvme0n1p2" of "nvme0n1", "ada0p3"/"ada0s1" of "ada0". */
static int is_partition(const struct nb_tp_disks *d, const char *name)
{
	if (strchr(name, '/'))
		return 1;           /* gstat's gpt/, label/, diskid/ */
	for (int i = 0; i < d->n; i++)
		if (nb_tp_partition_of(d->d[i].name, name))
			return 1;
	return 0;
}

/* Drop the partitions of D (after every disk is in). */
static int drop_partitions(struct nb_tp_disks *d)
{
	struct nb_tp_disks all = *d;

	d->n = 0;
	for (int i = 0; i < all.n; i++)
		if (!is_partition(&all, all.d[i].name))
			d->d[d->n++] = all.d[i];
	return d->n;
}

static struct nb_tp_disk *disk_add(struct nb_tp_disks *d, const char *name)
{
	struct nb_tp_disk *k;

	if (d->n >= NB_TP_MAXDISK)
		return NULL;
	k = &d->d[d->n++];
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->busy_pct = -1;
	k->read_rate = -1;
	k->ms_per_io = -1;
	return k;
}

int nb_tp_linux_diskstats(const char *text, struct nb_tp_disks *d)
{
	char line[LINE_MAX_], *tok[MAXTOK];

	d->n = 0;
	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);
		struct nb_tp_disk *k;
		uint64_t ios;

		/* maj min name reads . . . writes . . . inflight io_ticks ... */
		if (n < 14 || !is_uint(tok[0]) || !is_uint(tok[12]))
			continue;
		ios = u64(tok[3]) + u64(tok[7]);
		if (!ios || !(k = disk_add(d, tok[2])))
			continue;
		k->ios = ios;
		k->io_ms = u64(tok[12]);
		k->read_bytes = u64(tok[5]) * 512;     /* sectors of 512 bytes */
	}
	return drop_partitions(d);
}

/* One ARC counter NAME = V into ARC; 1 when it is one nasbench reads. */
static int arc_set(struct nb_tp_arc *arc, const char *name, uint64_t v)
{
	static const struct {
		const char *name;
		size_t off;
	} keys[] = {
#define K(f) { #f, offsetof(struct nb_tp_arc, f) }
		K(hits), K(misses), K(size), K(c_max),
		K(demand_data_hits), K(demand_data_misses),
#undef K
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].name, name)) {
			*(uint64_t *)((char *)arc + keys[i].off) = v;
			arc->have = 1;
			return 1;
		}
	return 0;
}

int nb_tp_arc_kstat(const char *text, struct nb_tp_arc *arc)
{
	char line[LINE_MAX_], *tok[MAXTOK];
	int got = 0;

	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);

		if (n == 3 && is_uint(tok[1]) && is_uint(tok[2]))
			got += arc_set(arc, tok[0], u64(tok[2]));
	}
	return got;
}

int nb_tp_arc_kv(const char *text, struct nb_tp_arc *arc)
{
	char line[LINE_MAX_], *tok[MAXTOK];
	int got = 0;

	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);

		if (n == 2 && is_uint(tok[1]))
			got += arc_set(arc, tok[0], u64(tok[1]));
	}
	return got;
}

/* kern.cp_times: CP_USER CP_NICE CP_SYS CP_INTR CP_IDLE per CPU. */
static int bsd_cp_times(char **tok, int n, struct nb_tp_cpu *cpu)
{
	int got = 0;

	cpu->n = 0;
	for (int i = 1; i + 4 < n; i += 5) {
		uint64_t total = 0;

		for (int j = 0; j < 5; j++)
			total += u64(tok[i + j]);
		got += cpu_add(cpu, total - u64(tok[i + 4]), total);
	}
	return got;
}

struct bsd_vm {
	uint64_t pages, free, inactive, cache, page_size, physmem;
	int n;
};

static int bsd_vm_key(struct bsd_vm *vm, struct nb_tp_mem *mem,
		      const char *k, uint64_t v)
{
	static const char pre[] = "vm.stats.vm.";

	if (!strcmp(k, "hw.physmem"))
		return vm->physmem = v, 1;
	if (!strcmp(k, "hw.pagesize"))
		return vm->page_size = v, 1;
	if (strncmp(k, pre, sizeof(pre) - 1))
		return 0;
	k += sizeof(pre) - 1;
	if (!strcmp(k, "v_page_count"))
		return vm->pages = v, 1;
	if (!strcmp(k, "v_free_count"))
		return vm->free = v, vm->n++, 1;
	if (!strcmp(k, "v_inactive_count"))
		return vm->inactive = v, vm->n++, 1;
	if (!strcmp(k, "v_cache_count"))
		return vm->cache = v, 1;
	if (!strcmp(k, "v_page_size"))
		return vm->page_size = v, 1;
	if (!strcmp(k, "v_swappgsin"))
		return mem->swap_in = v, 1;
	if (!strcmp(k, "v_swappgsout"))
		return mem->swap_out = v, 1;
	return 0;
}

static void bsd_vm_done(const struct bsd_vm *vm, struct nb_tp_mem *mem)
{
	uint64_t ps = vm->page_size ? vm->page_size : 4096;

	mem->page_size = ps;
	if (vm->pages)
		mem->total = vm->pages * ps;
	else if (vm->physmem)
		mem->total = vm->physmem;
	/* free and inactive pages (and the old page cache) can be had at
	 * once; laundry pages must be written out first */
	if (vm->n)
		mem->avail = (vm->free + vm->inactive + vm->cache) * ps;
}

int nb_tp_bsd_sysctl(const char *text, struct nb_tp_cpu *cpu,
		     struct nb_tp_mem *mem, struct nb_tp_arc *arc)
{
	static const char arcpre[] = "kstat.zfs.misc.arcstats.";
	char line[LINE_MAX_], *tok[MAXTOK * 6];
	struct bsd_vm vm = { 0 };
	int got = 0;

	while (next_line(&text, line, sizeof(line))) {
		char *colon = strstr(line, ": "), *k = line;
		int n;

		if (!colon)
			continue;
		*colon = 0;
		if (!strcmp(k, "kern.cp_times")) {
			char *save = NULL;

			n = 1;
			for (char *s = strtok_r(colon + 2, " \t\r", &save);
			     s && n < (int)(sizeof(tok) / sizeof(tok[0]));
			     s = strtok_r(NULL, " \t\r", &save))
				tok[n++] = s;
			got += bsd_cp_times(tok, n, cpu);
			continue;
		}
		n = split(colon + 2, tok);
		if (n != 1 || !is_uint(tok[0]))
			continue;
		if (!strncmp(k, arcpre, sizeof(arcpre) - 1))
			got += arc_set(arc, k + sizeof(arcpre) - 1, u64(tok[0]));
		else
			got += bsd_vm_key(&vm, mem, k, u64(tok[0]));
	}
	bsd_vm_done(&vm, mem);
	return got;
}

int nb_tp_bsd_swapinfo(const char *text, struct nb_tp_mem *mem)
{
	const char *all = text ? text : "";
	char line[LINE_MAX_], *tok[MAXTOK];
	uint64_t total = 0, used = 0;
	int got = 0, seen = 0;

	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);

		/* Device 1K-blocks Used Avail Capacity; a Total line with two
		 * or more devices */
		if (n < 4 || !is_uint(tok[1]) || !is_uint(tok[2]))
			continue;
		if (!strcmp(tok[0], "Total")) {
			total = u64(tok[1]), used = u64(tok[2]);
			got = 1;
			break;
		}
		total += u64(tok[1]);
		used += u64(tok[2]);
		seen++;
	}
	if (!got && !seen && !strstr(all, "1K-blocks"))
		return 0;
	/* a box without swap prints the header alone */
	mem->swap_total = total * 1024;
	mem->swap_used = used * 1024;
	mem->have_swap = 1;
	return 1;
}

static int col_of(char **tok, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(tok[i], name))
			return i;
	return -1;
}

int nb_tp_bsd_vmstat(const char *text, struct nb_tp_cpu *cpu,
		     struct nb_tp_mem *mem)
{
	char line[LINE_MAX_], hdr[LINE_MAX_] = "", last[LINE_MAX_] = "";
	char *h[MAXTOK], *v[MAXTOK];
	int nh, nv, fre, id, got = 0;

	while (next_line(&text, line, sizeof(line))) {
		char copy[LINE_MAX_], *t[MAXTOK];
		int n;

		memcpy(copy, line, sizeof(copy));
		n = split(copy, t);
		if (n > 3 && !strcmp(t[0], "r") && col_of(t, n, "fre") > 0)
			memcpy(hdr, line, sizeof(hdr));
		else if (n > 3 && hdr[0] && is_uint(t[0]))
			memcpy(last, line, sizeof(last));
	}
	nh = split(hdr, h);
	nv = split(last, v);
	if (!nh || nv != nh)
		return 0;
	fre = col_of(h, nh, "fre");
	id = col_of(h, nh, "id");
	if (fre >= 0) {
		/* plain numbers are KiB; FreeBSD 12 on prints 1.2G and such */
		double b = suffixed(v[fre]);

		mem->avail = (uint64_t)(isdigit((unsigned char)
				v[fre][strlen(v[fre]) - 1]) ? b * 1024 : b);
		got++;
	}
	if (id >= 0) {
		cpu->pct_all = 100.0 - atof(v[id]);
		got++;
	}
	return got;
}

int nb_tp_bsd_iostat(const char *text, struct nb_tp_disks *d)
{
	char line[LINE_MAX_], *tok[MAXTOK];
	int b = -1, kr = -1, mt = -1, in_hdr = 0;

	d->n = 0;
	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);
		struct nb_tp_disk *k;

		if (n >= 2 && !strcmp(tok[0], "extended")) {
			d->n = 0;           /* a new report: the last counts */
			in_hdr = 1;
			continue;
		}
		if (in_hdr && n > 2 && !strcmp(tok[0], "device")) {
			b = col_of(tok, n, "%b");
			kr = col_of(tok, n, "kr/s");
			mt = col_of(tok, n, "ms/t");
			in_hdr = 0;
			continue;
		}
		if (b < 0 || n <= b || !isdigit((unsigned char)tok[1][0]))
			continue;
		if ((k = disk_add(d, tok[0]))) {
			k->busy_pct = atof(tok[b]);
			if (kr > 0 && kr < n)
				k->read_rate = atof(tok[kr]) * 1024;
			if (mt > 0 && mt < n)
				k->ms_per_io = atof(tok[mt]);
		}
	}
	return drop_partitions(d);
}

int nb_tp_bsd_gstat(const char *text, struct nb_tp_disks *d)
{
	char line[LINE_MAX_], *tok[MAXTOK];

	d->n = 0;
	while (next_line(&text, line, sizeof(line))) {
		char *bar = strchr(line, '|');
		struct nb_tp_disk *k;
		int n;

		if (!bar)
			continue;
		*bar = 0;
		n = split(line, tok);
		if (n < 2 || n == MAXTOK ||
		    !split_max(bar + 1, tok + n, MAXTOK - n))
			continue;
		/* ... %busy| NAME */
		if ((k = disk_add(d, tok[n])))
			k->busy_pct = atof(tok[n - 1]);
	}
	return drop_partitions(d);
}

const struct nb_tp_disk *nb_tp_disk_find(const struct nb_tp_disks *d,
					 const char *name)
{
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->d[i].name, name))
			return &d->d[i];
	return NULL;
}

int nb_tp_line(const char **p, char *buf, size_t len)
{
	return next_line(p, buf, len);
}

double nb_tp_size(const char *s)
{
	return suffixed(s);
}

int nb_tp_split(char *line, char **tok, int max)
{
	return split_max(line, tok, max);
}

int nb_tp_uint(const char *s)
{
	return is_uint(s);
}
