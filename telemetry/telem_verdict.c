/* SPDX-License-Identifier: GPL-2.0-or-later */
/* telem_verdict.c - verdicts about a figure from the box's telemetry. */
#include "telem_verdict.h"
#include "../core/compress.h"
#include "../core/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add(json_t *out, const struct nb_tv_ctx *c, const char *kind,
		const char *text)
{
	json_array_append_new(out, json_pack("{s:s, s:i, s:s}", "kind", kind,
					     "iteration", c->iteration,
					     "text", text));
}

static double dnum(const json_t *o, const char *k, double dflt)
{
	const json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

static void memory(const json_t *s, const struct nb_tv_ctx *c, json_t *out)
{
	double swapped = dnum(s, "swapped_bytes", 0);
	double avail = dnum(s, "mem_avail_min_pct", -1);
	char a[32], b[32], t[400];

	if (swapped > 0) {
		snprintf(t, sizeof(t), "the box swapped %s during %s iteration %d: "
			 "it ran out of memory, and its figures are those of a "
			 "box that pages", nb_fmt_size((uint64_t)swapped, a, sizeof(a)),
			 c->workload, c->iteration);
		add(out, c, "memory", t);
	} else if (avail >= 0 && avail < NB_TV_MEM_AVAIL_PCT) {
		snprintf(t, sizeof(t), "the box's available memory fell to %.1f%% "
			 "(%s of %s) during %s iteration %d", avail,
			 nb_fmt_size((uint64_t)dnum(s, "mem_avail_min_bytes", 0), a,
				     sizeof(a)),
			 nb_fmt_size((uint64_t)dnum(s, "mem_total_bytes", 0), b,
				     sizeof(b)), c->workload, c->iteration);
		add(out, c, "memory", t);
	}
}

static void cache(const json_t *s, const struct nb_tv_ctx *c, json_t *out)
{
	double hit = dnum(s, "arc_hit_pct", -1);
	double n = dnum(s, "arc_hits", 0) + dnum(s, "arc_misses", 0);
	char t[400];

	double disks = dnum(s, "disks_read_bytes", -1);
	char a[32], b[32];

	if (!c->uncached_read)
		return;
	if (hit > NB_TV_CACHE_HIT_PCT && n >= NB_TV_CACHE_MIN_READS) {
		snprintf(t, sizeof(t), "%s iteration %d: the box's ARC answered "
			 "%.0f%% of the reads (%.0f of %.0f): the figure is the "
			 "box's RAM, not its disks; use a data set of at least "
			 "twice its RAM", c->workload, c->iteration, hit,
			 dnum(s, "arc_hits", 0), n);
		add(out, c, "cache", t);
	} else if (disks >= 0 && c->read_bytes >= NB_TV_CACHE_MIN_BYTES &&
		   disks < NB_TV_CACHE_DISK_SHARE * c->read_bytes) {
		snprintf(t, sizeof(t), "%s iteration %d: the box's disks read %s "
			 "for the %s the client read: the box answered from its "
			 "RAM, not its disks; use a data set of at least twice "
			 "its RAM", c->workload, c->iteration,
			 nb_fmt_size((uint64_t)disks, a, sizeof(a)),
			 nb_fmt_size((uint64_t)c->read_bytes, b, sizeof(b)));
		add(out, c, "cache", t);
	}
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the numbers of A (nulls left out); -1 when none. */
static double median(const json_t *a)
{
	size_t n = 0, i;
	double *v = malloc((json_array_size(a) + 1) * sizeof(*v)), m;
	json_t *x;

	if (!v)
		return -1;
	json_array_foreach(a, i, x)
		if (json_is_number(x))
			v[n++] = json_number_value(x);
	if (!n) {
		free(v);
		return -1;
	}
	qsort(v, n, sizeof(*v), cmp_d);
	m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
	return m;
}

static void cpu(const json_t *tel, const struct nb_tv_ctx *c, json_t *out)
{
	const json_t *s = json_object_get(tel, "summary");
	double m = median(json_object_get(json_object_get(tel, "series"),
					  "cpu_busy_max_pct"));
	const char *core = json_string_value(json_object_get(s, "cpu_busiest"));
	char t[600], split[160] = "";

	if (m < NB_TV_CPU_PCT)
		return;
	if (!c->local) {
		snprintf(t, sizeof(t), "the box was CPU-bound during %s iteration %d: "
			 "its busiest core was %.0f%% busy at the median second "
			 "(peak %.0f%%, %s); compression, checksums or the file "
			 "server's threads, not the disks, set the figure",
			 c->workload, c->iteration, m, dnum(s, "cpu_busy_max_pct", m),
			 core ? core : "one core");
		add(out, c, "cpu", t);
		return;
	}
	/* a local target: the box is this machine, and what keeps its
	 * cores busy is the client itself, or other work beside it when
	 * nasbench used less than half a core */
	snprintf(t, sizeof(t), "this machine was CPU-bound during %s iteration "
		 "%d: its busiest core was %.0f%% busy at the median second (peak "
		 "%.0f%%, %s); the target is local, ", c->workload, c->iteration, m,
		 dnum(s, "cpu_busy_max_pct", m), core ? core : "one core");
	if (c->self_user_pct >= 0 && c->self_sys_pct >= 0) {
		snprintf(split, sizeof(split), "nasbench used %.0f%% of a core in user "
			 "space and %.0f%% in the kernel", c->self_user_pct,
			 c->self_sys_pct);
		if (c->self_user_pct + c->self_sys_pct < NB_TV_SELF_MIN_PCT)
			snprintf(t + strlen(t), sizeof(t) - strlen(t), "and %s: other "
				 "work on this machine kept its cores busy and set the "
				 "figure, not the disks", split);
		else
			snprintf(t + strlen(t), sizeof(t) - strlen(t), "so nasbench's "
				 "threads and the kernel, not the disks, set the figure "
				 "(%s)", split);
	} else {
		snprintf(t + strlen(t), sizeof(t) - strlen(t), "so nasbench's threads "
			 "and the kernel, not the disks, set the figure");
	}
	add(out, c, "cpu", t);
}

/* The median of BUSY's figures of VDEV's disks other than SKIP; -1: none. */
static double peers(const json_t *disks, const json_t *busy, size_t skip)
{
	json_t *a = json_array(), *d;
	double m;
	size_t i;

	json_array_foreach(disks, i, d) {
		const json_t *b = json_object_get(busy, json_string_value(d));

		if (i != skip && json_is_number(b))
			json_array_append(a, (json_t *)b);
	}
	m = median(a);
	json_decref(a);
	return m;
}

static void slow_vdev(const json_t *v, const json_t *busy, const json_t *per_io,
		      const struct nb_tv_ctx *c, json_t *out)
{
	const json_t *disks = json_object_get(v, "disks"), *d;
	size_t i;

	if (json_is_true(json_object_get(v, "special")) || json_array_size(disks) < 2)
		return;
	json_array_foreach(disks, i, d) {
		const char *name = json_string_value(d);
		double b = dnum(busy, name, -1), p = peers(disks, busy, i);
		double m = dnum(per_io, name, -1), pm = peers(disks, per_io, i);
		char t[400];
		json_t *j;

		if (b < NB_TV_SLOW_MIN_PCT || p < 0 || b < NB_TV_SLOW_RATIO * p)
			continue;
		/* busier for taking longer over each I/O, not for having more
		 * of them (raidz's first disk takes more small writes) */
		if (m >= 0 && pm > 0 && m < NB_TV_SLOW_RATIO * pm)
			continue;
		snprintf(t, sizeof(t), "disk %s of %s was %.1fx busier than its "
			 "peers during %s iteration %d (%.0f%% against %.0f%%): a "
			 "slow disk holds the whole vdev back", name,
			 json_string_value(json_object_get(v, "vdev")),
			 p > 0 ? b / p : 99.0, c->workload, c->iteration, b, p);
		add(out, c, "slow-disk", t);
		j = json_array_get(out, json_array_size(out) - 1);
		json_object_set_new(j, "disk", json_string(name));
		json_object_set(j, "vdev", json_object_get(v, "vdev"));
	}
}

static void network(const struct nb_tv_ctx *c, json_t *out)
{
	char t[400];

	if (c->ceiling_bytes <= 0 || c->figure_bytes <= 0 ||
	    c->figure_bytes < (1 - NB_TV_NET_WITHIN) * c->ceiling_bytes)
		return;
	snprintf(t, sizeof(t), "%s iteration %d: %.1f MB/s is within %.0f%% of "
		 "the network's ceiling (%.1f MB/s, measured before the "
		 "workloads): the figure is the link's, not the disks'",
		 c->workload, c->iteration, c->figure_bytes / 1e6,
		 NB_TV_NET_WITHIN * 100, c->ceiling_bytes / 1e6);
	add(out, c, "network", t);
}

/* The dataset's compressratio against the data's ratio under its
 * algorithm (zle squeezes the data's zeros as lz4 does). */
static void compress_far(const json_t *z, const struct nb_tv_ctx *c, json_t *out)
{
	const char *ds = json_string_value(json_object_get(z, "dataset"));
	const char *prop = json_string_value(json_object_get(z, "compression"));
	double box = dnum(z, "compressratio", 0), d, want;
	int alg = prop ? nb_zalg_of_zfs(prop) : -1;
	char t[512];

	d = c->data_ratio ? c->data_ratio[NB_Z_GZIP] : 0;
	if (!ds || box <= 0 || d < NB_TV_RATIO_MIN)
		return;
	if (prop && (!strcmp(prop, "off") || !strcmp(prop, "none"))) {
		if (box > 1.1)
			return;
		snprintf(t, sizeof(t), "the pool stores the data of %s iteration %d "
			 "at %.2fx though it compresses %.2fx: compression is off on "
			 "dataset '%s'", c->workload, c->iteration, box, d, ds);
		add(out, c, "ratio", t);
		return;
	}
	want = alg >= 0 ? c->data_ratio[alg] :
	       prop && !strcmp(prop, "zle") ? c->data_ratio[NB_Z_LZ4] : d;
	if (want <= 0 || fabs(box - want) <= NB_TV_RATIO_FAR * want)
		return;
	snprintf(t, sizeof(t), "dataset '%s' (compression %s) stores the data of "
		 "%s iteration %d at %.2fx, though %s compresses it %.2fx (gzip "
		 "%.2fx): the dataset holds other data, its compression is not "
		 "what it says, or the writes had not reached its disks",
		 ds, prop ? prop : "?", c->workload, c->iteration, box,
		 alg >= 0 ? nb_zalg_name(alg) : prop ? prop : "its algorithm",
		 want, d);
	add(out, c, "ratio", t);
}

static void dedupe_far(const json_t *z, const struct nb_tv_ctx *c, json_t *out)
{
	const char *ds = json_string_value(json_object_get(z, "dataset"));
	const char *prop = json_string_value(json_object_get(z, "dedup"));
	double box = dnum(z, "dedupratio", 0), want = c->data_dedupe;
	char t[512];

	if (!ds || box <= 0 || want < NB_TV_RATIO_MIN ||
	    fabs(box - want) <= NB_TV_RATIO_FAR * want)
		return;
	if (prop && !strcmp(prop, "off"))
		snprintf(t, sizeof(t), "the pool's dedupratio is %.2fx though the "
			 "blocks %s iteration %d wrote should dedupe %.2fx: dedup is "
			 "off on dataset '%s'", box, c->workload, c->iteration, want, ds);
	else
		snprintf(t, sizeof(t), "the pool's dedupratio is %.2fx though the "
			 "blocks %s iteration %d wrote should dedupe %.2fx: ZFS "
			 "deduplicates whole records (blocks smaller than dataset "
			 "'%s''s recordsize never match), and the ratio is the "
			 "pool's, of all its data", box, c->workload, c->iteration,
			 want, ds);
	add(out, c, "ratio", t);
}

static void put(json_t *m, const char *name, const json_t *s, const char *k)
{
	const json_t *v = json_object_get(s, k);

	if (m && json_is_number(v))
		json_object_set_new(m, name, json_real(json_number_value(v)));
}

static void metrics_of(const json_t *s, json_t *m)
{
	const json_t *busy = json_object_get(s, "disk_busy_pct");
	const char *busiest = json_string_value(json_object_get(s, "disk_busiest"));

	put(m, "box_cpu_max_pct", s, "cpu_busy_max_pct");
	put(m, "box_mem_avail_min_pct", s, "mem_avail_min_pct");
	put(m, "box_swapped_bytes", s, "swapped_bytes");
	put(m, "box_arc_hit_pct", s, "arc_hit_pct");
	if (busiest)
		put(m, "box_disk_busy_max_pct", busy, busiest);
}

json_t *nb_tv_judge(const json_t *tel, const struct nb_tv_ctx *c,
		    json_t *metrics)
{
	const json_t *s = json_object_get(tel, "summary"), *v;
	json_t *out = json_array();
	size_t i;

	if (s) {
		metrics_of(s, metrics);
		memory(s, c, out);
		cache(s, c, out);
		cpu(tel, c, out);
		json_array_foreach(json_object_get(tel, "vdevs"), i, v)
			slow_vdev(v, json_object_get(s, "disk_busy_pct"),
				  json_object_get(s, "disk_ms_per_io"), c, out);
	}
	if ((v = json_object_get(tel, "zfs"))) {
		put(metrics, "box_compress_ratio", v, "compressratio");
		put(metrics, "box_dedupe_ratio", v, "dedupratio");
		compress_far(v, c, out);
		dedupe_far(v, c, out);
	}
	network(c, out);
	return out;
}
