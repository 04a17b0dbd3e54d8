/* SPDX-License-Identifier: GPL-2.0-or-later */
/* keys.c - the keys of each section of a load file (keys.h). */
#include "keys.h"
#include "loadfile.h"

#define FIG(n, t) { #n, t, offsetof(struct nb_load_fig, n), 0 }
const struct key nb_load_fig_keys[] = {
	FIG(iops, KT_NUM), FIG(iops_mean, KT_NUM), FIG(iops_peak, KT_NUM),
	FIG(mbps, KT_NUM), FIG(mbps_mean, KT_NUM), FIG(mbps_peak, KT_NUM),
	FIG(peak_bucket, KT_INT), FIG(read, KT_PCT), FIG(bs_read, KT_BYTES),
	FIG(bs_write, KT_BYTES), FIG(burstiness, KT_NUM), { NULL, 0, 0, 0 },
};
#undef FIG

#define S(st, n, t) { #n, t, offsetof(struct st, n), sizeof(((struct st *)0)->n) }
const struct key nb_load_capture_keys[] = {
	S(nb_load, source, KT_STR), S(nb_load, os, KT_STR),
	S(nb_load, counters, KT_STR), S(nb_load, start, KT_STR),
	{ "duration", KT_DURATION, offsetof(struct nb_load, duration_s), 0 },
	{ "interval", KT_DURATION, offsetof(struct nb_load, interval_s), 0 },
	{ "bucket", KT_DURATION, offsetof(struct nb_load, bucket_s), 0 },
	{ "buckets", KT_INT, offsetof(struct nb_load, buckets), 0 },
	{ "busy", KT_BUSY, offsetof(struct nb_load, busy_pct), 0 },
	{ "complete", KT_BOOL, offsetof(struct nb_load, complete), 0 },
	S(nb_load, stopped, KT_STR), S(nb_load, gaps, KT_STR), { NULL, 0, 0, 0 },
};
const struct key nb_load_population_keys[] = {
	{ "growth", KT_GROWTH, offsetof(struct nb_load, growth), 0 },
	{ NULL, 0, 0, 0 },
};
const struct key nb_load_vm_keys[] = {
	S(nb_load_vm, device, KT_STR),
	{ "count", KT_COUNT, offsetof(struct nb_load_vm, count), 0 },
	{ "size", KT_SIZE, offsetof(struct nb_load_vm, size), 0 },
	{ "share", KT_PCT, offsetof(struct nb_load_vm, share), 0 },
	{ "sequential", KT_PCT, offsetof(struct nb_load_vm, sequential), 0 },
	{ "sequential_from", KT_SEQFROM, offsetof(struct nb_load_vm, seq_from), 0 },
	{ NULL, 0, 0, 0 },
};
const struct key nb_load_nfs_keys[] = {
	S(nb_load_nfs, source, KT_STR),
	{ "ops", KT_NUM, offsetof(struct nb_load_nfs, ops), 0 },
	{ "ops_mean", KT_NUM, offsetof(struct nb_load_nfs, ops_mean), 0 },
	{ "ops_peak", KT_NUM, offsetof(struct nb_load_nfs, ops_peak), 0 },
	{ "read_mbps", KT_NUM, offsetof(struct nb_load_nfs, read_mbps), 0 },
	{ "write_mbps", KT_NUM, offsetof(struct nb_load_nfs, write_mbps), 0 },
	{ NULL, 0, 0, 0 },
};
const struct key nb_load_pool_keys[] = {
	S(nb_load_pool, source, KT_STR),
	{ "aggregated", KT_PCT, offsetof(struct nb_load_pool, aggregated), 0 },
	{ NULL, 0, 0, 0 },
};
#define D(n, t) { #n, t, offsetof(struct nb_load_data, n), 0 }
const struct key nb_load_data_keys[] = {
	D(compressratio, KT_RATIO), D(dedupratio, KT_RATIO), D(arc_hit, KT_PCT),
	D(arc_size, KT_BYTES), D(arc_max, KT_BYTES), { NULL, 0, 0, 0 },
};
#undef D
#undef S
