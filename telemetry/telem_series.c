/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_series.c - snapshots into the iteration's series and summary.
 *
 * The counters are the box's, not trusted: between two samples a counter
 * that went back (the box restarted, a 32-bit counter wrapped), one that
 * moved beyond what a box can do (NB_TP_MAX_*) and one that was not a
 * number (the parsers' REFUSED) make a gap, null in the series, counted
 * and said at the end (nb_telem_warning); never a NaN, an infinity or an
 * absurd figure in the result.
 */
#include "telem_rt.h"
#include "../core/err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const series_names[] = {
	"t_ms", "cpu_busy_max_pct", "cpu_busy_pct", "mem_avail_bytes",
	"swap_used_bytes", "swap_io_pages", "arc_hit_pct", "arc_size_bytes",
};

int nb_telem_series_new(struct nb_telem *tm)
{
	json_decref(tm->series);
	tm->series = json_object();
	if (!tm->series)
		return nb_err(-ENOMEM, "out of memory");
	for (size_t i = 0; i < sizeof(series_names) / sizeof(series_names[0]); i++)
		json_object_set_new(tm->series, series_names[i], json_array());
	json_object_set_new(tm->series, "disk_busy_pct", json_object());
	tm->samples = 0;
	tm->cpu_max = -1;
	tm->cpu_busiest = -1;
	tm->avail_min = UINT64_MAX;
	tm->total = tm->swap_max = tm->arc_size_max = 0;
	tm->nacc = 0;
	memset(&tm->gaps, 0, sizeof(tm->gaps));
	return 0;
}

/* A gap of KIND in what WHAT names ("disk 'sda'"). */
static void gap(struct nb_telem *tm, int kind, const char *fmt, const char *name)
{
	struct nb_telem_gaps *g = &tm->gaps;

	if (!g->n[0] && !g->n[1] && !g->n[2])
		snprintf(g->first, sizeof(g->first), fmt, name);
	g->n[kind]++;
}

/* The gaps said: "gaps in the series (null where a sample was not
 * read): counters that went back ...: 2; ...; the first: disk 'sda'". */
static void gaps_said(struct nb_telem *tm)
{
	static const char *const kinds[NB_GAP_N] = {
		"counters that went back (the box restarted, or one wrapped)",
		"counters that moved beyond what a box can do",
		"values that were not numbers a box gives",
	};
	const struct nb_telem_gaps *g = &tm->gaps;
	char text[480];
	size_t n;

	n = (size_t)snprintf(text, sizeof(text), "gaps in the series (null where "
			     "a sample was not read):");
	for (int k = 0; k < NB_GAP_N && n < sizeof(text); k++)
		if (g->n[k])
			n += (size_t)snprintf(text + n, sizeof(text) - n, " %s: %d;",
					      kinds[k], g->n[k]);
	if (n < sizeof(text))
		snprintf(text + n, sizeof(text) - n, " the first: %s", g->first);
	nb_telem_warn_also(tm, text);
}

void nb_telem_series_free(struct nb_telem *tm)
{
	json_decref(tm->series);
	tm->series = NULL;
}

static void push(struct nb_telem *tm, const char *name, json_t *v)
{
	json_array_append_new(json_object_get(tm->series, name),
			      v ? v : json_null());
}

/* A figure rounded to a tenth; null when it is none (never a NaN or an
 * infinity: jansson would refuse it, and the key would be lost). */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(round(v * 10) / 10) : json_null();
}

/* Busy share of each CPU between P and C: the busiest's, the mean; 0
 * when none is known (a CPU whose counters went back is a gap). */
static int cpu_busy(struct nb_telem *tm, const struct nb_tp_cpu *p,
		    const struct nb_tp_cpu *c, double *max, double *all)
{
	uint64_t sb = 0, st = 0;
	int n = p->n < c->n ? p->n : c->n, busiest = -1, seen = 0;
	char cpu[16];

	*max = -1;
	if (c->refused)
		gap(tm, NB_GAP_REFUSED, "%s", "the CPUs' counters");
	for (int i = 0; i < n; i++) {
		uint64_t db = c->busy[i] - p->busy[i], dt = c->total[i] - p->total[i];
		double pct = dt ? 100.0 * (double)db / (double)dt : 0;

		snprintf(cpu, sizeof(cpu), "cpu%d", i);
		if (c->busy[i] < p->busy[i] || c->total[i] < p->total[i]) {
			gap(tm, NB_GAP_BACK, "%s", cpu);
			continue;
		}
		if (db > dt) {          /* busier than the time that passed */
			gap(tm, NB_GAP_JUMP, "%s", cpu);
			continue;
		}
		sb += db, st += dt, seen++;
		if (pct > *max)
			*max = pct, busiest = i;
	}
	*all = st ? 100.0 * (double)sb / (double)st : c->pct_all;
	if (!n && c->pct_all >= 0)
		*max = c->pct_all, seen = 1;
	if (*max > tm->cpu_max)
		tm->cpu_max = *max, tm->cpu_busiest = busiest;
	return seen && *max >= 0 && *all >= 0;
}

/* The hits and misses of the ARC between P and C: demand data reads
 * where the box counts them (a prefetch hit is no cached answer).  0
 * when not known (counters that went back: a gap, counted in TM when
 * given). */
static int arc_delta(struct nb_telem *tm, const struct nb_tp_arc *p,
		     const struct nb_tp_arc *c, uint64_t *h, uint64_t *m)
{
	uint64_t ph = p->hits, pm = p->misses, ch = c->hits, cm = c->misses;

	if (!p->have || !c->have)
		return 0;
	if (c->demand_data_hits || c->demand_data_misses) {
		ph = p->demand_data_hits, pm = p->demand_data_misses;
		ch = c->demand_data_hits, cm = c->demand_data_misses;
	}
	if (ch < ph || cm < pm) {
		if (tm)
			gap(tm, NB_GAP_BACK, "%s", "the ARC's counters");
		return 0;
	}
	*h = ch - ph;
	*m = cm - pm;
	return 1;
}

static struct nb_telem_acc *acc_of(struct nb_telem *tm, const char *name)
{
	for (int i = 0; i < tm->nacc; i++)
		if (!strcmp(tm->acc[i].name, name))
			return &tm->acc[i];
	if (tm->nacc >= NB_TP_MAXDISK)
		return NULL;
	snprintf(tm->acc[tm->nacc].name, NB_TP_NAME, "%s", name);
	return &tm->acc[tm->nacc++];
}

/* Disk D since WAS over DT_MS: a gap (counted, 1) when its counters
 * went back or moved beyond what a disk can do. */
static int disk_gap(struct nb_telem *tm, const struct nb_tp_disk *d,
		    const struct nb_tp_disk *was, double dt_ms)
{
	double s = dt_ms > 0 ? dt_ms / 1e3 : 1;

	if (!was)
		return 0;
	if (d->io_ms < was->io_ms || d->ios < was->ios ||
	    d->read_bytes < was->read_bytes) {
		gap(tm, NB_GAP_BACK, "disk '%s'", d->name);
		return 1;
	}
	/* busy longer than twice the time that passed (the kernel's ticks
	 * may run a little ahead), more I/Os or bytes than any disk */
	if ((double)(d->io_ms - was->io_ms) > 2 * dt_ms + 1000 ||
	    (double)(d->ios - was->ios) / s > NB_TP_MAX_IOPS ||
	    (double)(d->read_bytes - was->read_bytes) / s > NB_TP_MAX_BPS) {
		gap(tm, NB_GAP_JUMP, "disk '%s'", d->name);
		return 1;
	}
	return 0;
}

/* The series of disk NAME, made when it is seen late (nothing known
 * before: nulls); NULL when it cannot be kept. */
static json_t *disk_series(struct nb_telem *tm, json_t *all, const char *name)
{
	json_t *arr = json_object_get(all, name);

	if (arr)
		return arr;
	arr = json_array();
	for (int k = 0; arr && k < tm->samples; k++)
		json_array_append_new(arr, json_null());
	/* a refused key frees ARR: it must not be touched again */
	if (!arr || json_object_set_new(all, name, arr)) {
		gap(tm, NB_GAP_REFUSED, "disk '%s'", name);
		return NULL;
	}
	return arr;
}

static void disks_add(struct nb_telem *tm, const struct nb_telem_snap *p,
		      const struct nb_telem_snap *c, double dt_ms)
{
	json_t *all = json_object_get(tm->series, "disk_busy_pct"), *arr;

	/* a disk with a gap keeps its series (null there): never lost
	 * without a word */
	if (c->disks.refused) {
		gap(tm, NB_GAP_REFUSED, "disk '%s'", c->disks.refused_name);
		disk_series(tm, all, c->disks.refused_name);
	}
	for (int i = 0; i < c->disks.n; i++) {
		const struct nb_tp_disk *d = &c->disks.d[i];
		const struct nb_tp_disk *was = nb_tp_disk_find(&p->disks, d->name);
		struct nb_telem_acc *a = acc_of(tm, d->name);
		double pct;

		if (d->busy_pct < 0 && disk_gap(tm, d, was, dt_ms)) {
			disk_series(tm, all, d->name);
			continue;
		}
		if (a && d->read_rate >= 0)
			a->read_bytes += d->read_rate * dt_ms / 1e3;
		else if (a && was && d->read_bytes >= was->read_bytes)
			a->read_bytes += (double)(d->read_bytes - was->read_bytes);
		if (a && d->ms_per_io >= 0) {
			a->ms_sum += d->ms_per_io;
			a->ms_n++;
		} else if (a && was && d->ios >= was->ios && d->io_ms >= was->io_ms) {
			a->ios += (double)(d->ios - was->ios);
			a->io_ms += (double)(d->io_ms - was->io_ms);
		}
		if (d->busy_pct >= 0)
			pct = d->busy_pct;
		else if (was && d->io_ms >= was->io_ms && dt_ms > 0)
			pct = 100.0 * (double)(d->io_ms - was->io_ms) / dt_ms;
		else
			continue;
		if (pct > 100)
			pct = 100;
		if (!(arr = disk_series(tm, all, d->name)))
			continue;
		json_array_append_new(arr, num(pct));
		if (a)
			a->sum += pct, a->n++;
	}
}

/* The pages swapped in and out between P and C: null when not known
 * (counters that went back, or beyond a box: a gap). */
static json_t *swap_io(struct nb_telem *tm, const struct nb_tp_mem *p,
		       const struct nb_tp_mem *c, double dt_ms)
{
	uint64_t in = c->swap_in - p->swap_in, out = c->swap_out - p->swap_out;

	if (c->swap_in < p->swap_in || c->swap_out < p->swap_out) {
		gap(tm, NB_GAP_BACK, "%s", "the pages swapped");
		return json_null();
	}
	if ((double)in + (double)out > NB_TP_MAX_IOPS * (dt_ms > 0 ? dt_ms / 1e3 : 1)) {
		gap(tm, NB_GAP_JUMP, "%s", "the pages swapped");
		return json_null();
	}
	return json_integer((json_int_t)(in + out));
}

/* The ARC's hit share between P and C (null: not known). */
static json_t *arc_hits(struct nb_telem *tm, const struct nb_tp_arc *p,
			const struct nb_tp_arc *c, double dt_ms)
{
	uint64_t h, m;

	if (c->refused)
		gap(tm, NB_GAP_REFUSED, "%s", "the ARC's counters");
	if (!arc_delta(tm, p, c, &h, &m) || !(h + m))
		return json_null();
	if ((double)h + (double)m > NB_TP_MAX_IOPS * (dt_ms > 0 ? dt_ms / 1e3 : 1)) {
		gap(tm, NB_GAP_JUMP, "%s", "the ARC's counters");
		return json_null();
	}
	return num(100.0 * (double)h / (double)(h + m));
}

static void mem_add(struct nb_telem *tm, const struct nb_tp_mem *p,
		    const struct nb_tp_mem *c, double dt_ms)
{
	if (c->refused)
		gap(tm, NB_GAP_REFUSED, "%s", "the memory's counters");
	/* none available is no reading (a value refused, a box that did
	 * not say), not a figure */
	push(tm, "mem_avail_bytes", c->avail ?
	     json_integer((json_int_t)c->avail) : NULL);
	if (c->avail && c->avail < tm->avail_min)
		tm->avail_min = c->avail;
	if (c->total)
		tm->total = c->total;
	push(tm, "swap_used_bytes", c->have_swap ?
	     json_integer((json_int_t)c->swap_used) : NULL);
	if (c->swap_used > tm->swap_max)
		tm->swap_max = c->swap_used;
	push(tm, "swap_io_pages", swap_io(tm, p, c, dt_ms));
}

void nb_telem_add(struct nb_telem *tm, const struct nb_telem_snap *c)
{
	const struct nb_telem_snap *p = &tm->prev;
	double dt_ms = (double)(c->t_ns - p->t_ns) / 1e6, max, all;

	push(tm, "t_ms", json_integer((json_int_t)((c->t_ns - tm->t0) / 1000000)));
	if (cpu_busy(tm, &p->cpu, &c->cpu, &max, &all)) {
		push(tm, "cpu_busy_max_pct", num(max));
		push(tm, "cpu_busy_pct", num(all));
	} else {
		push(tm, "cpu_busy_max_pct", NULL);
		push(tm, "cpu_busy_pct", NULL);
	}
	mem_add(tm, &p->mem, &c->mem, dt_ms);
	push(tm, "arc_hit_pct", arc_hits(tm, &p->arc, &c->arc, dt_ms));
	push(tm, "arc_size_bytes", c->arc.have ?
	     json_integer((json_int_t)c->arc.size) : NULL);
	if (c->arc.size > tm->arc_size_max)
		tm->arc_size_max = c->arc.size;
	disks_add(tm, p, c, dt_ms);
	tm->samples++;
	/* a disk that missed this sample is padded, so arrays stay aligned */
	{
		const char *k;
		json_t *arr;

		json_object_foreach(json_object_get(tm->series, "disk_busy_pct"), k, arr)
			while ((int)json_array_size(arr) < tm->samples)
				json_array_append_new(arr, json_null());
	}
	tm->prev = *c;
}

/* Bytes the pools' disks read in the iteration (every disk's when no
 * pool is known): what reads the client's reads cost the disks. */
static double pool_reads(const struct nb_telem *tm)
{
	double sum = 0;

	for (int i = 0; i < tm->nacc; i++) {
		int in = !tm->vdevs.n;

		for (int v = 0; v < tm->vdevs.n && !in; v++)
			for (int k = 0; k < tm->vdevs.v[v].ndisks && !in; k++)
				in = !tm->vdevs.v[v].special &&
				     !strcmp(tm->vdevs.v[v].disks[k], tm->acc[i].name);
		if (in)
			sum += tm->acc[i].read_bytes;
	}
	return sum;
}

/* Each disk's busy time per I/O over the iteration (ms): what tells a
 * slow disk from one that only had more to do. */
static json_t *per_io(const struct nb_telem *tm)
{
	json_t *o = json_object();

	for (int i = 0; i < tm->nacc; i++) {
		const struct nb_telem_acc *a = &tm->acc[i];

		if (a->ms_n)
			json_object_set_new(o, a->name, num(a->ms_sum / a->ms_n));
		else if (a->ios > 0)
			json_object_set_new(o, a->name, json_real(
				round(a->io_ms / a->ios * 1000) / 1000));
	}
	return o;
}

/* Per-disk busy over the iteration, the busiest and the least busy. */
static void disks_summary(struct nb_telem *tm, json_t *sum)
{
	json_t *d = json_object();
	int hi = -1, lo = -1;

	for (int i = 0; i < tm->nacc; i++) {
		double v = tm->acc[i].n ? tm->acc[i].sum / tm->acc[i].n : 0;

		tm->acc[i].sum = v;
		json_object_set_new(d, tm->acc[i].name, num(v));
		if (hi < 0 || v > tm->acc[hi].sum)
			hi = i;
		if (lo < 0 || v < tm->acc[lo].sum)
			lo = i;
	}
	json_object_set_new(sum, "disk_busy_pct", d);
	json_object_set_new(sum, "disk_ms_per_io", per_io(tm));
	json_object_set_new(sum, "disks_read_bytes", json_real(pool_reads(tm)));
	if (hi >= 0) {
		json_object_set_new(sum, "disk_busiest", json_string(tm->acc[hi].name));
		json_object_set_new(sum, "disk_least_busy",
				    json_string(tm->acc[lo].name));
	}
}

static void mem_summary(struct nb_telem *tm, json_t *sum)
{
	const struct nb_tp_mem *f = &tm->first.mem, *l = &tm->prev.mem;
	uint64_t ps = l->page_size ? l->page_size : 4096, grew, out;

	if (tm->total)
		json_object_set_new(sum, "mem_total_bytes",
				    json_integer((json_int_t)tm->total));
	if (f->avail)
		json_object_set_new(sum, "mem_avail_start_bytes",
				    json_integer((json_int_t)f->avail));
	if (tm->avail_min != UINT64_MAX) {
		json_object_set_new(sum, "mem_avail_min_bytes",
				    json_integer((json_int_t)tm->avail_min));
		if (tm->total)
			json_object_set_new(sum, "mem_avail_min_pct",
					    num(100.0 * (double)tm->avail_min /
						(double)tm->total));
	}
	if (!l->have_swap && !l->swap_out)
		return;
	/* what this iteration pushed out to swap: the swap it filled, or
	 * the pages it wrote there, whichever says more */
	grew = tm->swap_max > f->swap_used ? tm->swap_max - f->swap_used : 0;
	out = l->swap_out >= f->swap_out &&
	      l->swap_out - f->swap_out <= (uint64_t)NB_TP_MAX_BYTES / ps ?
	      (l->swap_out - f->swap_out) * ps : 0;
	json_object_set_new(sum, "swap_used_max_bytes",
			    json_integer((json_int_t)tm->swap_max));
	json_object_set_new(sum, "swapped_bytes",
			    json_integer((json_int_t)(grew > out ? grew : out)));
}

static void arc_summary(struct nb_telem *tm, json_t *sum)
{
	uint64_t h, m;

	if (!arc_delta(NULL, &tm->first.arc, &tm->prev.arc, &h, &m) ||
	    (double)h + (double)m > NB_TP_MAX_IOPS *
	    ((double)(tm->prev.t_ns - tm->first.t_ns) / 1e9 + 1))
		return;
	json_object_set_new(sum, "arc_hits", json_integer((json_int_t)h));
	json_object_set_new(sum, "arc_misses", json_integer((json_int_t)m));
	json_object_set_new(sum, "arc_hit_pct", h + m ?
			    num(100.0 * (double)h / (double)(h + m)) : json_null());
	json_object_set_new(sum, "arc_size_max_bytes",
			    json_integer((json_int_t)tm->arc_size_max));
}

/* The vdevs (their names are carried as core/boxtext.h makes them: a
 * json_pack() that failed would lose the vdev without a word). */
static json_t *vdevs_json(const struct nb_tp_vdevs *v)
{
	json_t *a = json_array();

	for (int i = 0; i < v->n; i++) {
		json_t *d = json_array();

		for (int k = 0; k < v->v[i].ndisks; k++)
			json_array_append_new(d, json_string(v->v[i].disks[k]));
		json_array_append_new(a, json_pack("{s:s, s:s, s:o, s:b}",
						   "pool", v->v[i].pool,
						   "vdev", v->v[i].name,
						   "disks", d,
						   "special", v->v[i].special));
	}
	return a;
}

json_t *nb_telem_series_end(struct nb_telem *tm)
{
	json_t *o, *sum;
	char core[16];

	if (!tm->samples)
		return NULL;
	if (tm->gaps.n[NB_GAP_BACK] || tm->gaps.n[NB_GAP_JUMP] ||
	    tm->gaps.n[NB_GAP_REFUSED])
		gaps_said(tm);
	sum = json_pack("{s:i, s:f}", "samples", tm->samples, "seconds",
			round((double)(tm->prev.t_ns - tm->first.t_ns) / 1e8) / 10);
	if (tm->cpu_max >= 0) {
		json_object_set_new(sum, "cpu_busy_max_pct", num(tm->cpu_max));
		snprintf(core, sizeof(core), "cpu%d", tm->cpu_busiest);
		if (tm->cpu_busiest >= 0)
			json_object_set_new(sum, "cpu_busiest", json_string(core));
	}
	mem_summary(tm, sum);
	arc_summary(tm, sum);
	disks_summary(tm, sum);
	o = json_pack("{s:s, s:s, s:I, s:I, s:O, s:o, s:o}",
		      "source", tm->source,
		      "os", tm->os == NB_TELEM_FREEBSD ? "freebsd" : "linux",
		      "interval_ms", (json_int_t)(tm->interval_ns / 1000000),
		      "t0_ms", (json_int_t)(tm->t0 / 1000000),
		      "series", tm->series, "summary", sum,
		      "vdevs", vdevs_json(&tm->vdevs));
	return o;
}
