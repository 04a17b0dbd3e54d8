/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "metrics.h"
#include "err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const struct nb_metric nb_metrics[] = {
	{ "bw_bytes", "MB/s", "bytes/s", NB_HIGHER, 1e-6, "throughput" },
	{ "iops", "IOPS", "ops/s", NB_HIGHER, 1, "I/O operations per second" },
	{ "lat_mean_us", "mean us", "us", NB_LOWER, 1, "mean latency, submission to completion: fio's clat (engine=fio: fio's lat = slat + clat)" },
	{ "lat_p50_us", "p50 us", "us", NB_LOWER, 1, "median latency, submission to completion" },
	{ "lat_p90_us", "p90 us", "us", NB_LOWER, 1, "90th percentile latency (as lat_mean_us)" },
	{ "lat_p99_us", "p99 us", "us", NB_LOWER, 1, "99th percentile latency (as lat_mean_us)" },
	{ "lat_p99.9_us", "p99.9 us", "us", NB_LOWER, 1, "99.9th percentile latency (as lat_mean_us)" },
	{ "lat_max_us", "max us", "us", NB_LOWER, 1, "maximum latency (as lat_mean_us)" },
	{ "seconds", "s", "s", NB_LOWER, 1, "wall time of the iteration" },
	/* bonnie (bonnie++ 2.00 phases): bytes/s, bonnie++'s K/sec, ops/s, %CP */
#define BON(p, what) \
	{ p "_bw_bytes", p " MB/s", "bytes/s", NB_HIGHER, 1e-6, what }, \
	{ p "_kps", p " K/s", "KiB/s", NB_HIGHER, 1, what " (bonnie++ K/sec)" }, \
	{ p "_cpu_pct", p " %CP", "%", NB_NEITHER, 1, "CPU of " what }
	BON("put_char", "per-char write"),
	BON("put_block", "block write"),
	BON("rewrite", "rewrite"),
	BON("get_char", "per-char read"),
	BON("get_block", "block read"),
#undef BON
#define OPS(p, what) \
	{ p "_per_s", p "/s", "ops/s", NB_HIGHER, 1, what }, \
	{ p "_cpu_pct", p " %CP", "%", NB_NEITHER, 1, "CPU of " what }
	OPS("seeks", "random seeks (read 8 KiB, 1 in 10 rewritten)"),
	OPS("seq_create", "sequential file creates"),
	OPS("seq_stat", "sequential file stats"),
	OPS("seq_delete", "sequential file deletes"),
	OPS("ran_create", "random file creates"),
	OPS("ran_stat", "random file stats"),
	OPS("ran_delete", "random file deletes"),
#undef OPS
	/* bigfile */
	{ "datagen_bw_bytes", "gen MB/s", "bytes/s", NB_HIGHER, 1e-6,
	  "data generation per core (must outrun the box)" },
	{ "verify_bw_bytes", "verify MB/s", "bytes/s", NB_HIGHER, 1e-6,
	  "read-back with every block checked" },
	/* xz */
	{ "xz_ratio", "ratio", "", NB_NEITHER, 1, "input / compressed bytes" },
	{ "cpu_pct", "%CPU", "%", NB_NEITHER, 1, "CPU time / wall time (100 = one core)" },
	{ "cpu_util_pct", "%util", "%", NB_NEITHER, 1, "share of the threads' CPUs used" },
	/* syncprobe */
	{ "sync_lat_p50_us", "sync p50 us", "us", NB_LOWER, 1, "4 KiB sync write median" },
	{ "async_lat_p50_us", "async p50 us", "us", NB_LOWER, 1, "4 KiB async write median" },
	{ "read_lat_p50_us", "read p50 us", "us", NB_LOWER, 1, "4 KiB cached read median" },
	{ "sync_lat_p99_us", "sync p99 us", "us", NB_LOWER, 1, "4 KiB sync write p99" },
	{ "async_lat_p99_us", "async p99 us", "us", NB_LOWER, 1, "4 KiB async write p99" },
	{ "sync_async_ratio", "sync/async", "", NB_NEITHER, 1, "sync / async 4 KiB median" },
	{ "sync_cost_ratio", "sync cost", "", NB_NEITHER, 1,
	  "sync / min(async, read) 4 KiB 10th percentile (the verdict's)" },
	{ "sync_cost_us", "sync cost us", "us", NB_NEITHER, 1,
	  "what a 4 KiB sync write costs over a round trip without stable storage (the verdict's percentile); durable needs stable media's commit" },
	{ "sync_lat_p10_us", "sync p10 us", "us", NB_LOWER, 1, "4 KiB sync write p10" },
	{ "async_lat_p10_us", "async p10 us", "us", NB_LOWER, 1, "4 KiB async write p10" },
	{ "read_lat_p10_us", "read p10 us", "us", NB_LOWER, 1, "4 KiB cached read p10" },
	{ "sync_iops", "sync IOPS", "ops/s", NB_HIGHER, 1, "4 KiB sync writes at QD1" },
	{ "async_iops", "async IOPS", "ops/s", NB_HIGHER, 1, "4 KiB async writes at QD1" },
	{ "sync512k_bw_bytes", "sync 512k MB/s", "bytes/s", NB_HIGHER, 1e-6,
	  "512 KiB sync writes at QD1" },
	{ "async512k_bw_bytes", "async 512k MB/s", "bytes/s", NB_HIGHER, 1e-6,
	  "512 KiB async writes at QD1" },
	{ "sync512k_lat_p50_us", "sync 512k p50", "us", NB_LOWER, 1, "512 KiB sync write median" },
	{ "async512k_lat_p50_us", "async 512k p50", "us", NB_LOWER, 1, "512 KiB async write median" },
	{ "sync_bw_ratio_512k", "sync/async 512k", "", NB_NEITHER, 1,
	  "512 KiB sync / async throughput" },
	{ "xcheck_bw_ratio", "fio/nb", "ratio", NB_NEITHER, 1, "cross-check: fio's throughput over nasbench's" },
	{ "durable", "durable", "bool", NB_HIGHER, 1, "syncprobe: 1 when sync writes cost what durable writes cost" },
	{ "steady", "steady", "bool", NB_HIGHER, 1, "--steady-state: 1 when the window of rounds was steady" },
	{ "corrupt_blocks", "corrupt", "blocks", NB_LOWER, 1, "integrity: blocks whose header or checksum is wrong" },
	{ "misplaced_blocks", "misplaced", "blocks", NB_LOWER, 1, "integrity: good blocks found at another offset" },
	{ "stale_blocks", "stale", "blocks", NB_LOWER, 1, "integrity: blocks of an older write (lost writes)" },
	{ "blocks_checked", "checked", "blocks", NB_NEITHER, 1, "integrity: blocks read back and checked" },
	{ "conform_passed", "passed", "tests", NB_HIGHER, 1, "conformance tests passed" },
	{ "conform_failed", "failed", "tests", NB_LOWER, 1, "conformance tests failed" },
	/* the open loop (engine/engine_open.c, docs/capacity.md) */
	{ "rate_iops", "rate", "ops/s", NB_NEITHER, 1, "open loop: the rate asked for" },
	{ "offered_iops", "offered", "ops/s", NB_NEITHER, 1, "open loop: arrivals per second the schedule made (its last 4/5)" },
	{ "achieved_iops", "achieved", "ops/s", NB_HIGHER, 1, "open loop: completions per second over the same window" },
	{ "achieved_pct", "achieved %", "%", NB_HIGHER, 1, "open loop: achieved / offered (a run counts at >= 98%)" },
	{ "resp_mean_us", "resp mean us", "us", NB_LOWER, 1, "open loop: mean response time, from the I/O's intended issue time to its completion (what a VM feels)" },
	{ "resp_p50_us", "resp p50 us", "us", NB_LOWER, 1, "open loop: median response time (as resp_mean_us)" },
	{ "resp_p90_us", "resp p90 us", "us", NB_LOWER, 1, "open loop: 90th percentile response time (as resp_mean_us)" },
	{ "resp_p99_us", "resp p99 us", "us", NB_LOWER, 1, "open loop: 99th percentile response time (as resp_mean_us)" },
	{ "resp_p99.9_us", "resp p99.9 us", "us", NB_LOWER, 1, "open loop: 99.9th percentile response time (as resp_mean_us)" },
	{ "resp_max_us", "resp max us", "us", NB_LOWER, 1, "open loop: the longest response time" },
	{ "late_ios", "late", "I/Os", NB_LOWER, 1, "open loop: I/Os issued more than 1 ms after their intended time" },
	{ "late_p99_us", "late p99 us", "us", NB_LOWER, 1, "open loop: 99th percentile of how late I/Os were issued" },
	{ "late_max_us", "late max us", "us", NB_LOWER, 1, "open loop: the latest issue" },
	{ "queued_ios", "queued", "I/Os", NB_LOWER, 1, "open loop: arrivals that found every slot busy and waited in the client" },
	/* a load sweep (workloads/io/io_sweep.c, docs/capacity.md) */
	{ "vms", "VMs at the objective", "VMs", NB_HIGHER, 1, "VMs of the [vm] profile served at the latency objective (capacity IOPS / a VM's IOPS)" },
	{ "iops_at_slo", "IOPS at SLO", "ops/s", NB_HIGHER, 1, "capacity: the highest IOPS whose latency meets the objective" },
	{ "slo_bw_bytes", "MB/s at SLO", "bytes/s", NB_HIGHER, 1e-6, "capacity as throughput" },
	{ "closed_vms", "VMs, closed loop", "VMs", NB_HIGHER, 1, "--loop both: the closed sweep's VMs at the objective (what a closed loop claims; vms is the open loop's)" },
	{ "closed_iops_at_slo", "IOPS at SLO, closed loop", "ops/s", NB_HIGHER, 1, "--loop both: the closed sweep's capacity" },
	{ "sat_iops", "sat IOPS", "ops/s", NB_HIGHER, 1, "saturation: the sweep's highest IOPS" },
	{ "sat_bw_bytes", "sat MB/s", "bytes/s", NB_HIGHER, 1e-6, "saturation: the sweep's highest throughput" },
	{ "sweep_steps", "steps", "steps", NB_NEITHER, 1, "steps the sweep ran" },
	{ "little_failed", "Little off", "steps", NB_LOWER, 1, "sweep steps failing Little's law (IOPS x mean latency vs outstanding I/O, 10%)" },
	/* a captured load replayed on a candidate (docs/capture.md) */
	{ "headroom", "headroom", "x", NB_HIGHER, 1, "replay: the largest scale of the captured load whose latency meets the objective" },
	{ "years", "years", "years", NB_HIGHER, 1, "replay: the years the headroom holds at the load's growth rate (ln headroom / ln(1 + g))" },
	/* the box's telemetry (docs/telemetry.md): what the box did, shown
	 * beside the figures and judged only where less is plainly better */
	{ "box_cpu_max_pct", "box busiest core %", "%", NB_NEITHER, 1,
	  "the box's busiest core, its busiest second" },
	{ "box_mem_avail_min_pct", "box memory available %", "%", NB_NEITHER, 1,
	  "the box's available memory at its lowest, % of its RAM" },
	{ "box_swapped_bytes", "box swapped", "bytes", NB_LOWER, 1,
	  "bytes the box pushed out to swap during the iteration" },
	{ "box_arc_hit_pct", "box ARC hit %", "%", NB_NEITHER, 1,
	  "share of the box's ARC demand reads answered from the ARC" },
	{ "box_disk_busy_max_pct", "box busiest disk %", "%", NB_NEITHER, 1,
	  "the box's busiest disk, % of the iteration busy" },
	/* the data written and what the box made of it (docs/data.md) */
	{ "data_compress_ratio", "data ratio", "ratio", NB_NEITHER, 1,
	  "how well the data written compresses: the median of lz4, gzip -6 "
	  "and zstd -3 on a sample of its blocks" },
	{ "data_dedupe_ratio", "data dedup", "ratio", NB_NEITHER, 1,
	  "what the blocks written dedupe to at the block size: all of them "
	  "over the unique ones" },
	{ "box_compress_ratio", "box compressratio", "ratio", NB_NEITHER, 1,
	  "the box's dataset's compressratio after the iteration (zfs get)" },
	{ "box_dedupe_ratio", "box dedupratio", "ratio", NB_NEITHER, 1,
	  "the box's pool's dedupratio after the iteration (zpool get)" },
	{ "hot_fits_bytes", "hot set fits", "bytes", NB_HIGHER, 1,
	  "the hot-set sweep: the largest hot set whose p99 stays within 2x "
	  "of the smallest's" },
	/* a failure walk (docs/failure.md): what accept judges of it */
	{ "rebuild_s", "rebuild s", "s", NB_LOWER, 1, "failure walk: the rebuild, from the replace command's end to the pool read healthy" },
	{ "keeps_pct", "keeps %", "%", NB_HIGHER, 1, "failure walk: the share of the healthy figure a workload keeps in a box state" },
	{ "crash_lost", "lost", "writes", NB_LOWER, 1, "crashcheck: locations whose last promised-durable write (stable, committed, FUA or flushed) was not read back after an observed crash (missing + stale + torn); absent when no crash was observed and nothing was lost" },
	{ "crash_missing", "missing", "writes", NB_LOWER, 1, "crashcheck: promised-durable writes of which nothing is on the box" },
	{ "crash_stale", "stale", "writes", NB_LOWER, 1, "crashcheck: promised-durable writes found as an older generation" },
	{ "crash_torn", "torn", "writes", NB_LOWER, 1, "crashcheck: promised-durable writes found half written" },
	{ "crash_intact", "intact", "writes", NB_NEITHER, 1, "crashcheck: locations read back with their last acknowledged write (or a newer one)" },
	{ "crash_checked", "checked", "writes", NB_NEITHER, 1, "crashcheck: locations this iteration wrote, read back (the last write of each)" },
	{ "crash_acked", "acked", "writes", NB_NEITHER, 1, "crashcheck: writes acknowledged and journalled in the iteration (before and while the crash command ran)" },
	{ "crash_observed", "crash observed", "", NB_HIGHER, 1, "crashcheck: 1 when the box showed it went down (a new boot id, NFS write verifier or power-on UNIT ATTENTION), 0: not proven" },
	{ "crash_lost_durable", "lost durable", "writes", NB_LOWER, 1, "crashcheck: lost writes the box had answered as durable (NFS FILE_SYNC, iSCSI FUA or write-through, O_DSYNC)" },
	{ "crash_lost_flushed", "lost flushed", "writes", NB_LOWER, 1, "crashcheck: lost writes a later flush had made durable (NFS COMMIT with the same verifier, SYNCHRONIZE CACHE, fsync)" },
	{ "crash_lost_cached", "lost unpromised", "writes", NB_NEITHER, 1, "crashcheck: locations that lost only writes the box never promised (NFS UNSTABLE not committed, a write cache): allowed" },
	{ "crash_acked_durable", "acked durable", "writes", NB_NEITHER, 1, "crashcheck: acknowledged writes answered as durable" },
	{ "crash_acked_flushed", "acked flushed", "writes", NB_NEITHER, 1, "crashcheck: acknowledged writes made durable by a flush" },
	{ "crash_acked_cached", "acked unpromised", "writes", NB_NEITHER, 1, "crashcheck: acknowledged writes never promised durable" },
	{ "crash_inflight", "in flight", "writes", NB_NEITHER, 1, "crashcheck: writes in flight when the box stopped answering (old or new is allowed)" },
	{ NULL, NULL, NULL, 0, 0, NULL },
};

static const struct {
	const char *user, *stored;
	double factor;
} aliases[] = {
	{ "mb_s", "bw_bytes", 1e-6 },
	{ "mib_s", "bw_bytes", 1.0 / 1048576 },
	{ "bw", "bw_bytes", 1 },
	{ "p50_us", "lat_p50_us", 1 },
	{ "p90_us", "lat_p90_us", 1 },
	{ "p99_us", "lat_p99_us", 1 },
	{ "p99.9_us", "lat_p99.9_us", 1 },
	{ "max_us", "lat_max_us", 1 },
	{ "mean_us", "lat_mean_us", 1 },
	{ "p99_ms", "lat_p99_us", 1e-3 },
	{ "mb_s_at_slo", "slo_bw_bytes", 1e-6 },
	{ "max_swap_used", "box_swapped_bytes", 1 },
	{ "crash_lost_max", "crash_lost", 1 },   /* the first spelling */
};

/* What a name's suffix says about a metric the table does not list
 * (bonnie phases "put_block_kps", "put_block_bw_bytes", per-phase
 * latencies "..._lat_us").  SHOW, when set, replaces the suffix in the
 * column heading and SCALE turns the stored value into it. */
static const struct {
	const char *suffix, *unit;
	int better;
	const char *show;
	double scale;
} suffixes[] = {
	{ "_us", "us", NB_LOWER, NULL, 1 },
	{ "_kps", "KiB/s", NB_HIGHER, NULL, 1 },   /* bonnie++'s K is 1024 */
	{ "_per_s", "ops/s", NB_HIGHER, NULL, 1 },
	{ "_bw_bytes", "bytes/s", NB_HIGHER, " MB/s", 1e-6 },
	/* CPU% rises with throughput: shown, never judged better or worse */
	{ "_cpu_pct", "%CPU", NB_NEITHER, NULL, 1 },
};

const struct nb_metric *nb_metric_find(const char *name)
{
	static _Thread_local struct nb_metric generic;
	static _Thread_local char label[128];
	size_t n = strlen(name);

	for (int i = 0; nb_metrics[i].name; i++)
		if (!strcmp(nb_metrics[i].name, name))
			return &nb_metrics[i];
	generic = (struct nb_metric){ name, name, "", NB_HIGHER, 1, "" };
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t l = strlen(suffixes[i].suffix);

		if (n <= l || strcmp(name + n - l, suffixes[i].suffix))
			continue;
		generic.unit = suffixes[i].unit;
		generic.better = suffixes[i].better;
		if (suffixes[i].show) {
			snprintf(label, sizeof(label), "%.*s%s", (int)(n - l), name,
				 suffixes[i].show);
			generic.label = label;
			generic.show_scale = suffixes[i].scale;
		}
		break;
	}
	return &generic;
}

int nb_metric_alias(const char *user, const char **stored, double *factor)
{
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(aliases[i].user, user)) {
			*stored = aliases[i].stored;
			*factor = aliases[i].factor;
			return 0;
		}
	*stored = user;
	*factor = 1;
	return 0;
}

static int order_of(const char *name)
{
	for (int i = 0; nb_metrics[i].name; i++)
		if (!strcmp(nb_metrics[i].name, name))
			return i;
	return 1 << 20;
}

const char *nb_metric_headline(int random,
			       int (*has)(const void *src, const char *name),
			       const void *src)
{
	static const char *const headline[] = {
		"bw_bytes", "iops", "put_block_bw_bytes", "sync_iops", "seconds",
	};

	/* a replay's answer: the scale of the captured load it holds */
	if (has(src, "headroom"))
		return "headroom";
	/* a sweep's answer: VMs at the objective, else its IOPS */
	if (has(src, "vms"))
		return "vms";
	if (has(src, "iops_at_slo"))
		return "iops_at_slo";
	/* an open loop at a fixed rate: its throughput is the rate asked
	 * for; what the box decides is how long the VMs wait */
	if (has(src, "resp_p99_us"))
		return "resp_p99_us";
	if (random && has(src, "iops"))
		return "iops";
	for (size_t i = 0; i < sizeof(headline) / sizeof(headline[0]); i++)
		if (has(src, headline[i]))
			return headline[i];
	return NULL;
}

void nb_metric_sort(const char **names, size_t n)
{
	/* insertion sort: stable, and n is a handful */
	for (size_t i = 1; i < n; i++) {
		const char *x = names[i];
		int ox = order_of(x);
		size_t j = i;

		for (; j > 0 && order_of(names[j - 1]) > ox; j--)
			names[j] = names[j - 1];
		names[j] = x;
	}
}

void nb_metric_shown(double m, char *out, size_t len)
{
	if (fabs(m) >= 1000 || m == 0)
		snprintf(out, len, "%.0f", m);
	else if (fabs(m) >= 10)
		snprintf(out, len, "%.1f", m);
	else
		snprintf(out, len, "%.3g", m);
}

void nb_metric_fig(double v, const char *metric, char *out, size_t len)
{
	nb_metric_shown(v * nb_metric_find(metric)->show_scale, out, len);
}
