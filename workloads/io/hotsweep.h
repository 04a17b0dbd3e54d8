/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hotsweep.h - the ARC a hot set needs (docs/data.md): a random I/O
 *              workload run once per hot-set size ([suite] hot-sizes),
 *              HOT-SHARE% of its random I/Os on the first SIZE bytes of
 *              the data set (a population's VMs each on the first share of
 *              its own region), the rest uniform over the rest.
 *
 * Each step keeps its IOPS, mean and p99 latency (an open loop's
 * response time), capacity in VMs (IOPS over a VM's, for the VM
 * profile) and, on a watched box, the ARC's hit rate over the step.  The
 * sizes rise, so the ARC comes to each step holding the one before's hot
 * set.  The knee is the first size whose p99 is NB_HOT_KNEE times the
 * smallest's or more; the hot set fits in the size before it.
 *
 * The iteration's "hot_sweep" (docs/result.md):
 *   { "share_pct": 100, "step_s": 10, "steps": [ { "hot_bytes", "hot_pct",
 *     "iops", "lat_mean_us", "lat_p99_us", "vms", "arc_hit_pct",
 *     "arc_size_bytes", "seconds" } ... ], "fits_bytes", "knee_bytes",
 *     "knee_ratio", "arc_max_bytes", "text", "complete" } (null where
 *     not known: no knee, no ARC read)
 * and the metric hot_fits_bytes (absent when even the smallest is past
 * the knee: there is none).
 */
#ifndef NB_WL_HOTSWEEP_H
#define NB_WL_HOTSWEEP_H

#include "../fiodrv/fio_driver.h"
#include "../workload.h"

#define NB_HOT_KNEE 2.0
#define NB_HOT_STEPS 24

/* Whether P asks for a hot-set sweep. */
int nb_wl_hot_wanted(const struct nb_params *p);

/* "64M,128M,256M" (rising sizes) as a knob's check: 0 or -EINVAL. */
int nb_wl_hot_sizes_check(const char *s);

/* The hot-set sweep of S, each step run by ONCE; VM_IOPS > 0: a VM's
 * IOPS (capacity in VMs per step).  0, -EINTR or -errno. */
int nb_wl_hot_run(struct nb_wl_ctx *c, const struct nb_iospec *s,
		  nb_wl_io_fn once, double vm_iops);

#endif
