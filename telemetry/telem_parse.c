/* SPDX-License-Identifier: GPL-2.0-or-later */
/* telem_parse.c - a box's counters from the text of its kernel and tools. */
#include "telem_parse.h"
#include "telem_parse_int.h"
#include "../boxparse/diskstats.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_ NB_TPI_LINE
#define MAXTOK NB_BP_MAXTOK

/* A * B, unless it passes MAX: 0 with *OUT, else -1. */
int nb_tpi_mul_max(uint64_t a, uint64_t b, uint64_t max, uint64_t *out)
{
	if (b && a > max / b)
		return -1;
	*out = a * b;
	return 0;
}

/* Bytes of memory: at most NB_TP_MAX_BYTES. */

/* "1.2K", "300M", "12": a number with a binary suffix (zpool, vmstat),
 * from 0 to NB_TP_MAX_BYTES; -1 when S is not such a number. */
static double suffixed(const char *s)
{
	char *e;
	double v = strtod(s, &e);
	const char *units = "KMGTP";
	const char *u = *e ? strchr(units, toupper((unsigned char)*e)) : NULL;

	if (e == s || !isdigit((unsigned char)*s) || !isfinite(v) || v < 0)
		return -1;
	for (int i = 0; u && i <= u - units; i++)
		v *= 1024;
	return v > NB_TP_MAX_BYTES ? -1 : v;
}

int nb_tpi_cpu_add(struct nb_tp_cpu *cpu, uint64_t busy, uint64_t total)
{
	if (cpu->n >= NB_TP_MAXCPU)
		return 0;
	cpu->busy[cpu->n] = busy;
	cpu->total[cpu->n] = total;
	cpu->n++;
	return 1;
}

/* The sum of COUNT counters at TOK into *SUM (each into V, when given):
 * 0, or -1 when one is not a counter or the sum passes 2^63. */
int nb_tpi_sum(char **tok, int count, uint64_t *v, uint64_t *sum)
{
	*sum = 0;
	for (int i = 0; i < count; i++) {
		uint64_t x;

		if (nb_bp_u64(tok[i], &x) || x > (UINT64_MAX >> 1) - *sum)
			return -1;
		*sum += x;
		if (v)
			v[i] = x;
	}
	return 0;
}

int nb_tp_linux_stat(const char *text, struct nb_tp_cpu *cpu)
{
	char line[LINE_MAX_], *tok[MAXTOK];
	int got = 0;

	cpu->n = 0;
	cpu->refused = 0;
	while (nb_bp_line(&text, line, sizeof(line))) {
		int n = nb_bp_split(line, tok, MAXTOK);
		uint64_t v[8] = { 0 }, total = 0;

		/* cpuN user nice system idle iowait irq softirq steal [guest..] */
		if (n < 5 || strncmp(tok[0], "cpu", 3) || !nb_bp_uint(tok[0] + 3))
			continue;
		if (nb_tpi_sum(tok + 1, n - 1 < 8 ? n - 1 : 8, v, &total)) {
			cpu->refused++;
			continue;
		}
		/* guest time is counted in user already: not added again; idle,
		 * I/O wait and steal (the hypervisor's) are not the box's work */
		got += nb_tpi_cpu_add(cpu, total - v[3] - v[4] - v[7], total);
	}
	return got;
}

/* "Key:   123 kB" of /proc/meminfo, in bytes; a value that is not a
 * number of bytes a box has is refused (*REFUSED counts it). */
static int meminfo_key(char **tok, int n, const char *key, uint64_t *out,
		       int *refused)
{
	size_t l = strlen(key);
	uint64_t v;

	if (n < 2 || strncmp(tok[0], key, l) || strcmp(tok[0] + l, ":"))
		return 0;
	if (nb_bp_u64(tok[1], &v) ||
	    nb_tpi_mul_max(v, n > 2 && !strcmp(tok[2], "kB") ? 1024 : 1, NB_TPI_MEM_MAX, out)) {
		(*refused)++;
		return 0;
	}
	return 1;
}

int nb_tp_linux_meminfo(const char *text, struct nb_tp_mem *mem)
{
	char line[LINE_MAX_], *tok[MAXTOK];
	uint64_t swap_free = 0, swap_total = 0;
	int got = 0, sw = 0, *r = &mem->refused;

	while (nb_bp_line(&text, line, sizeof(line))) {
		int n = nb_bp_split(line, tok, MAXTOK);

		got += meminfo_key(tok, n, "MemTotal", &mem->total, r);
		got += meminfo_key(tok, n, "MemAvailable", &mem->avail, r);
		got += meminfo_key(tok, n, "Cached", &mem->cached, r);
		sw += meminfo_key(tok, n, "SwapTotal", &swap_total, r);
		sw += meminfo_key(tok, n, "SwapFree", &swap_free, r);
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

	while (nb_bp_line(&text, line, sizeof(line))) {
		int n = nb_bp_split(line, tok, MAXTOK);
		uint64_t v;

		if (n != 2 || (strcmp(tok[0], "pswpin") && strcmp(tok[0], "pswpout")))
			continue;
		if (nb_bp_u64(tok[1], &v)) {
			mem->refused++;
			continue;
		}
		if (!strcmp(tok[0], "pswpin"))
			mem->swap_in = v, got++;
		else
			mem->swap_out = v, got++;
	}
	if (got && !mem->page_size)
		mem->page_size = 4096;
	return got;
}

/* NAME is a partition of another disk of D: "sda1" of "sda",
 * "nvme0n1p2" of "nvme0n1", "ada0p3"/"ada0s1" of "ada0". */
static int is_partition(const struct nb_tp_disks *d, const char *name)
{
	if (strchr(name, '/'))
		return 1;           /* gstat's gpt/, label/, diskid/ */
	for (int i = 0; i < d->n; i++)
		if (nb_bp_partition_of(d->d[i].name, name))
			return 1;
	return 0;
}

/* Drop the partitions of D (after every disk is in). */
int nb_tpi_drop_partitions(struct nb_tp_disks *d)
{
	struct nb_tp_disks all = *d;

	d->n = 0;
	for (int i = 0; i < all.n; i++)
		if (!is_partition(&all, all.d[i].name))
			d->d[d->n++] = all.d[i];
	return d->n;
}

struct nb_tp_disk *nb_tpi_disk_add(struct nb_tp_disks *d, const char *name)
{
	struct nb_tp_disk *k;

	if (d->n >= NB_TP_MAXDISK)
		return NULL;
	k = &d->d[d->n++];
	memset(k, 0, sizeof(*k));
	nb_bp_name(k->name, sizeof(k->name), name);
	k->busy_pct = -1;
	k->read_rate = -1;
	k->ms_per_io = -1;
	return k;
}

/* A disk of D whose counters were refused: counted, the first named. */
void nb_tpi_disk_refused(struct nb_tp_disks *d, const char *name)
{
	if (!d->refused++)
		nb_bp_name(d->refused_name, sizeof(d->refused_name), name);
}

int nb_tp_linux_diskstats(const char *text, struct nb_tp_disks *d)
{
	const unsigned need = NB_BP_DS_BIT(NB_BP_DS_READS) |
			      NB_BP_DS_BIT(NB_BP_DS_RSECTORS) |
			      NB_BP_DS_BIT(NB_BP_DS_WRITES) | NB_BP_DS_BIT(NB_BP_DS_IOMS);
	struct nb_bp_ds ds;
	struct nb_bp_dsrow r;

	d->n = 0;
	d->refused = 0;
	d->refused_name[0] = 0;
	nb_bp_ds_open(&ds, text);
	while (nb_bp_ds_next(&ds, &r)) {
		uint64_t rd = r.v[NB_BP_DS_READS], wr = r.v[NB_BP_DS_WRITES], bytes;
		struct nb_tp_disk *k;

		if ((r.bad & need) || rd > UINT64_MAX - wr ||
		    nb_tpi_mul_max(r.v[NB_BP_DS_RSECTORS], 512, UINT64_MAX, &bytes)) {
			nb_tpi_disk_refused(d, r.name);
			continue;
		}
		if (!(rd + wr) || !(k = nb_tpi_disk_add(d, r.name)))
			continue;
		k->ios = rd + wr;
		k->io_ms = r.v[NB_BP_DS_IOMS];
		k->read_bytes = bytes;                 /* sectors of 512 bytes */
	}
	return nb_tpi_drop_partitions(d);
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

/* NAME = the counter at S, when it is one nasbench reads and S is a
 * counter (else refused). */
int nb_tpi_arc_take(struct nb_tp_arc *arc, const char *name, const char *s)
{
	uint64_t v;
	struct nb_tp_arc probe = { 0 };

	if (!arc_set(&probe, name, 0))
		return 0;
	/* a counter of 64 bits; the ARC's sizes are bytes of memory */
	if (nb_bp_u64(s, &v) || ((!strcmp(name, "size") || !strcmp(name, "c_max")) &&
			      v > NB_TPI_MEM_MAX)) {
		arc->refused++;
		return 0;
	}
	return arc_set(arc, name, v);
}

int nb_tp_arc_kstat(const char *text, struct nb_tp_arc *arc)
{
	char line[LINE_MAX_], *tok[MAXTOK];
	int got = 0;

	while (nb_bp_line(&text, line, sizeof(line))) {
		int n = nb_bp_split(line, tok, MAXTOK);

		if (n == 3 && nb_bp_uint(tok[1]))
			got += nb_tpi_arc_take(arc, tok[0], tok[2]);
	}
	return got;
}

int nb_tp_arc_kv(const char *text, struct nb_tp_arc *arc)
{
	char line[LINE_MAX_], *tok[MAXTOK];
	int got = 0;

	while (nb_bp_line(&text, line, sizeof(line))) {
		int n = nb_bp_split(line, tok, MAXTOK);

		if (n == 2)
			got += nb_tpi_arc_take(arc, tok[0], tok[1]);
	}
	return got;
}

const struct nb_tp_disk *nb_tp_disk_find(const struct nb_tp_disks *d,
					 const char *name)
{
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->d[i].name, name))
			return &d->d[i];
	return NULL;
}

double nb_tp_size(const char *s)
{
	return suffixed(s);
}
