/* SPDX-License-Identifier: GPL-2.0-or-later */
/* telem_parse_bsd.c - a FreeBSD box's counters from the text of its
 * tools: sysctl, swapinfo, vmstat, iostat -x, gstat (telem_parse.h). */
#include "telem_parse.h"
#include "telem_parse_int.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_ NB_TPI_LINE
#define MAXTOK NB_BP_MAXTOK

/* kern.cp_times: CP_USER CP_NICE CP_SYS CP_INTR CP_IDLE per CPU. */
static int bsd_cp_times(char **tok, int n, struct nb_tp_cpu *cpu)
{
	int got = 0;

	cpu->n = 0;
	for (int i = 1; i + 4 < n; i += 5) {
		uint64_t v[5], total;

		if (nb_tpi_sum(tok + i, 5, v, &total)) {
			cpu->refused++;
			continue;
		}
		got += nb_tpi_cpu_add(cpu, total - v[4], total);
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

/* K is a key bsd_vm_key() reads. */
static int bsd_vm_known(const char *k)
{
	struct bsd_vm vm = { 0 };
	struct nb_tp_mem mem = { 0 };

	return bsd_vm_key(&vm, &mem, k, 0);
}

static void bsd_vm_done(const struct bsd_vm *vm, struct nb_tp_mem *mem)
{
	uint64_t ps = vm->page_size ? vm->page_size : 4096, x;

	if (ps > (1u << 30)) {
		mem->refused++;
		ps = 4096;
	}
	mem->page_size = ps;
	if (vm->pages && !nb_tpi_mul_max(vm->pages, ps, NB_TPI_MEM_MAX, &x))
		mem->total = x;
	else if (vm->pages)
		mem->refused++;
	else if (vm->physmem <= NB_TPI_MEM_MAX)
		mem->total = vm->physmem;
	/* free and inactive pages (and the old page cache) can be had at
	 * once; laundry pages must be written out first */
	if (vm->n && vm->free <= NB_TPI_MEM_MAX && vm->inactive <= NB_TPI_MEM_MAX &&
	    vm->cache <= NB_TPI_MEM_MAX &&
	    !nb_tpi_mul_max(vm->free + vm->inactive + vm->cache, ps, NB_TPI_MEM_MAX, &x))
		mem->avail = x;
	else if (vm->n)
		mem->refused++;
}

int nb_tp_bsd_sysctl(const char *text, struct nb_tp_cpu *cpu,
		     struct nb_tp_mem *mem, struct nb_tp_arc *arc)
{
	static const char arcpre[] = "kstat.zfs.misc.arcstats.";
	char line[LINE_MAX_], *tok[MAXTOK * 6];
	struct bsd_vm vm = { 0 };
	uint64_t v;
	int got = 0;

	while (nb_bp_line(&text, line, sizeof(line))) {
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
		n = nb_bp_split(colon + 2, tok, MAXTOK);
		if (n != 1)
			continue;
		if (!strncmp(k, arcpre, sizeof(arcpre) - 1))
			got += nb_tpi_arc_take(arc, k + sizeof(arcpre) - 1, tok[0]);
		else if (!nb_bp_u64(tok[0], &v))
			got += bsd_vm_key(&vm, mem, k, v);
		else
			mem->refused += bsd_vm_known(k);
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

	while (nb_bp_line(&text, line, sizeof(line))) {
		int n = nb_bp_split(line, tok, MAXTOK);

		uint64_t t, u;

		/* Device 1K-blocks Used Avail Capacity; a Total line with two
		 * or more devices */
		if (n < 4 || !nb_bp_uint(tok[1]) || !nb_bp_uint(tok[2]))
			continue;
		if (nb_bp_u64(tok[1], &t) || nb_bp_u64(tok[2], &u) || t > NB_TPI_MEM_MAX ||
		    u > NB_TPI_MEM_MAX) {
			mem->refused++;
			return 0;
		}
		if (!strcmp(tok[0], "Total")) {
			total = t, used = u;
			got = 1;
			break;
		}
		total += t;
		used += u;
		seen++;
	}
	if (!got && !seen && !strstr(all, "1K-blocks"))
		return 0;
	/* a box without swap prints the header alone */
	if (nb_tpi_mul_max(total, 1024, NB_TPI_MEM_MAX, &mem->swap_total) ||
	    nb_tpi_mul_max(used, 1024, NB_TPI_MEM_MAX, &mem->swap_used)) {
		mem->refused++;
		mem->swap_total = mem->swap_used = 0;
		return 0;
	}
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

	while (nb_bp_line(&text, line, sizeof(line))) {
		char copy[LINE_MAX_], *t[MAXTOK];
		int n;

		memcpy(copy, line, sizeof(copy));
		n = nb_bp_split(copy, t, MAXTOK);
		if (n > 3 && !strcmp(t[0], "r") && col_of(t, n, "fre") > 0)
			memcpy(hdr, line, sizeof(hdr));
		else if (n > 3 && hdr[0] && nb_bp_uint(t[0]))
			memcpy(last, line, sizeof(last));
	}
	nh = nb_bp_split(hdr, h, MAXTOK);
	nv = nb_bp_split(last, v, MAXTOK);
	if (!nh || nv != nh)
		return 0;
	fre = col_of(h, nh, "fre");
	id = col_of(h, nh, "id");
	if (fre >= 0) {
		/* plain numbers are KiB; FreeBSD 12 on prints 1.2G and such */
		double b = nb_tp_size(v[fre]);

		if (b >= 0 && isdigit((unsigned char)v[fre][strlen(v[fre]) - 1]))
			b *= 1024;
		if (b >= 0 && b <= NB_TP_MAX_BYTES) {
			mem->avail = (uint64_t)b;
			got++;
		} else {
			mem->refused++;
		}
	}
	if (id >= 0) {
		double idle;

		if (!nb_bp_num(v[id], 100, &idle)) {
			cpu->pct_all = 100.0 - idle;
			got++;
		} else {
			cpu->refused++;
		}
	}
	return got;
}

/* A FreeBSD tool's row of disk NAME: its busy share BUSY, read rate KR
 * (KiB/s) and ms a transaction MT (NULL: not given) into D, or the disk
 * refused when one is not a figure a disk gives. */
static void bsd_row(struct nb_tp_disks *d, const char *name, const char *busy,
		    const char *kr, const char *mt)
{
	struct nb_tp_disk *k;
	double b, r = -1, m = -1;

	/* %busy a little over 100 (gstat's rounding of a queue's time) is
	 * full; far beyond, or not a figure, is no reading */
	if (nb_bp_num(busy, 1000, &b) || (kr && nb_bp_num(kr, NB_TP_MAX_BPS / 1024, &r)) ||
	    (mt && nb_bp_num(mt, 1e7, &m))) {
		nb_tpi_disk_refused(d, name);
		return;
	}
	if (!(k = nb_tpi_disk_add(d, name)))
		return;
	k->busy_pct = b > 100 ? 100 : b;
	k->read_rate = r >= 0 ? r * 1024 : -1;
	k->ms_per_io = m;
}

int nb_tp_bsd_iostat(const char *text, struct nb_tp_disks *d)
{
	char line[LINE_MAX_], *tok[MAXTOK];
	int b = -1, kr = -1, mt = -1, in_hdr = 0;

	d->n = 0;
	d->refused = 0;
	d->refused_name[0] = 0;
	while (nb_bp_line(&text, line, sizeof(line))) {
		int n = nb_bp_split(line, tok, MAXTOK);

		if (n >= 2 && !strcmp(tok[0], "extended")) {
			d->n = 0;           /* a new report: the last counts */
			d->refused = 0;
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
		bsd_row(d, tok[0], tok[b], kr > 0 && kr < n ? tok[kr] : NULL,
			mt > 0 && mt < n ? tok[mt] : NULL);
	}
	return nb_tpi_drop_partitions(d);
}

int nb_tp_bsd_gstat(const char *text, struct nb_tp_disks *d)
{
	char line[LINE_MAX_], *tok[MAXTOK];

	d->n = 0;
	d->refused = 0;
	d->refused_name[0] = 0;
	while (nb_bp_line(&text, line, sizeof(line))) {
		char *bar = strchr(line, '|');
		int n;

		if (!bar)
			continue;
		*bar = 0;
		n = nb_bp_split(line, tok, MAXTOK);
		if (n < 2 || n == MAXTOK ||
		    !nb_bp_split(bar + 1, tok + n, MAXTOK - n))
			continue;
		/* ... %busy| NAME */
		bsd_row(d, tok[n], tok[n - 1], NULL, NULL);
	}
	return nb_tpi_drop_partitions(d);
}
