/* SPDX-License-Identifier: GPL-2.0-or-later */
/* telem_parse.c - a box's counters from the text of its kernel and tools. */
#include "telem_parse.h"
#include "telem_parse_int.h"
#include "../core/boxtext.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_ NB_TPI_LINE
#define MAXTOK NB_TP_MAXTOK

/* The next line of *P into BUF without its CR LF; 0 at the end.  A line
 * longer than BUF is read as "": cut, its numbers would be read wrong. */
static int next_line(const char **p, char *buf, size_t len)
{
	const char *s = *p, *e;
	size_t n;

	if (!s || !*s)
		return 0;
	e = strchr(s, '\n');
	n = e ? (size_t)(e - s) : strlen(s);
	*p = e ? e + 1 : s + n;
	if (n && s[n - 1] == '\r')
		n--;
	if (n >= len)
		n = 0;
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

/* S a counter: digits only, 64 bits at most; 0 with *V, else -1. */
static int u64_of(const char *s, uint64_t *v)
{
	char *e;

	if (!is_uint(s))
		return -1;
	errno = 0;
	*v = strtoull(s, &e, 10);
	return errno || *e ? -1 : 0;
}

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

		if (u64_of(tok[i], &x) || x > (UINT64_MAX >> 1) - *sum)
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
	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);
		uint64_t v[8] = { 0 }, total = 0;

		/* cpuN user nice system idle iowait irq softirq steal [guest..] */
		if (n < 5 || strncmp(tok[0], "cpu", 3) || !is_uint(tok[0] + 3))
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
	if (u64_of(tok[1], &v) ||
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

	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);

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

	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);
		uint64_t v;

		if (n != 2 || (strcmp(tok[0], "pswpin") && strcmp(tok[0], "pswpout")))
			continue;
		if (u64_of(tok[1], &v)) {
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
	nb_tp_name(k->name, sizeof(k->name), name);
	k->busy_pct = -1;
	k->read_rate = -1;
	k->ms_per_io = -1;
	return k;
}

/* A disk of D whose counters were refused: counted, the first named. */
void nb_tpi_disk_refused(struct nb_tp_disks *d, const char *name)
{
	if (!d->refused++)
		nb_tp_name(d->refused_name, sizeof(d->refused_name), name);
}

int nb_tp_linux_diskstats(const char *text, struct nb_tp_disks *d)
{
	char line[LINE_MAX_], *tok[MAXTOK];

	d->n = 0;
	d->refused = 0;
	d->refused_name[0] = 0;
	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);
		struct nb_tp_disk *k;
		uint64_t rd, wr, sectors, ticks, bytes;

		/* maj min name reads . . . writes . . . inflight io_ticks ... */
		if (n < 14 || !is_uint(tok[0]))
			continue;
		if (u64_of(tok[3], &rd) || u64_of(tok[7], &wr) || rd > UINT64_MAX - wr ||
		    u64_of(tok[5], &sectors) || u64_of(tok[12], &ticks) ||
		    nb_tpi_mul_max(sectors, 512, UINT64_MAX, &bytes)) {
			nb_tpi_disk_refused(d, tok[2]);
			continue;
		}
		if (!(rd + wr) || !(k = nb_tpi_disk_add(d, tok[2])))
			continue;
		k->ios = rd + wr;
		k->io_ms = ticks;
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
	if (u64_of(s, &v) || ((!strcmp(name, "size") || !strcmp(name, "c_max")) &&
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

	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);

		if (n == 3 && is_uint(tok[1]))
			got += nb_tpi_arc_take(arc, tok[0], tok[2]);
	}
	return got;
}

int nb_tp_arc_kv(const char *text, struct nb_tp_arc *arc)
{
	char line[LINE_MAX_], *tok[MAXTOK];
	int got = 0;

	while (next_line(&text, line, sizeof(line))) {
		int n = split(line, tok);

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

int nb_tp_u64(const char *s, uint64_t *v)
{
	return u64_of(s, v);
}

int nb_tp_num(const char *s, double max, double *v)
{
	char *e;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	*v = strtod(s, &e);
	return *e || !isfinite(*v) || *v < 0 || *v > max ? -1 : 0;
}

void nb_tp_name(char *buf, size_t len, const char *name)
{
	nb_boxtext(buf, len, name);
}
