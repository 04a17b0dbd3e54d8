/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_verdict.h - what the box's telemetry says about a figure.
 *
 * From one iteration's telemetry (the object nb_telem_stop() returned):
 *
 *   memory     the box swapped, or its available memory fell under 5%
 *   cache      a read that should reach the disks was served by the box's
 *              RAM: more than half the ARC's demand reads were hits, or
 *              the disks read less than half the bytes the client read
 *              (the ARC's dbufs, a page cache: counters the ARC misses)
 *   cpu        the box was CPU-bound: its busiest core at >= 95% for at
 *              least half the samples (compression, checksums, nfsd); on
 *              a local target the box is this machine, and the verdict
 *              names nasbench's threads and the kernel (with nasbench's
 *              user and kernel CPU when known), or other work on this
 *              machine when nasbench used under half a core
 *   slow-disk  one disk of a vdev >= 1.5x busier than the median of its
 *              peers (and at least 20% busy), and as much slower over each
 *              of its I/Os where the box tells (not a disk that only had
 *              more to do): named
 *   network    the figure is within 10% of the link's measured ceiling
 *   ratio      the dataset's compressratio (or the pool's dedupratio) is
 *              far (NB_TV_RATIO_FAR) from what the data written gives
 *              under the dataset's algorithm (or should dedupe to): its
 *              compression (dedup) is off, it holds other data, or the
 *              writes were smaller than its records (docs/data.md)
 *
 * Each verdict is { "kind", "iteration", "text" [, "disk", "vdev"] }; the
 * text is a sentence for people ("the box swapped 3.90 GiB during bonnie
 * iteration 4").
 */
#ifndef NB_TELEM_VERDICT_H
#define NB_TELEM_VERDICT_H

#include <jansson.h>

#define NB_TV_MEM_AVAIL_PCT 5.0
#define NB_TV_CACHE_HIT_PCT 50.0
#define NB_TV_CACHE_MIN_READS 100
#define NB_TV_CACHE_DISK_SHARE 0.5
#define NB_TV_CACHE_MIN_BYTES (8 << 20)
#define NB_TV_CPU_PCT 95.0
#define NB_TV_SELF_MIN_PCT 50.0  /* nasbench's CPU under half a core: not it */
#define NB_TV_SLOW_RATIO 1.5
#define NB_TV_SLOW_MIN_PCT 20.0
#define NB_TV_NET_WITHIN 0.10
#define NB_TV_RATIO_FAR 0.25     /* the box's ratio 25% off the data's */
#define NB_TV_RATIO_MIN 1.2      /* data that compresses less says nothing */

struct nb_tv_ctx {
	const char *workload;
	int iteration;
	int uncached_read;       /* its reads should come from the disks */
	double figure_bytes;     /* its throughput (0: none) */
	double read_bytes;       /* the bytes it read (0: none) */
	double ceiling_bytes;    /* the network's ceiling (0: not measured) */
	int local;               /* a local target: the box is this machine */
	double self_user_pct;    /* nasbench's CPU in the iteration, % of one */
	double self_sys_pct;     /* core, user and kernel (< 0: not known) */
	/* the data the iteration wrote (docs/data.md): its ratio under each
	 * algorithm of core/compress.h (NULL: not measured), the dedup ratio
	 * its blocks should give (0: not known) */
	const double *data_ratio;
	double data_dedupe;
};

/* The verdicts of TEL (may be NULL: only a network verdict is possible)
 * as a new array; the box_* figures of the summary go into METRICS
 * (box_cpu_max_pct, box_mem_avail_min_pct, box_swapped_bytes,
 * box_arc_hit_pct, box_disk_busy_max_pct; box_compress_ratio and
 * box_dedupe_ratio from its "zfs") when METRICS is not NULL. */
json_t *nb_tv_judge(const json_t *tel, const struct nb_tv_ctx *c,
		    json_t *metrics);

#endif
