/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio_driver.h - the I/O workloads through fio: engine = fio, --cross-check
 *                (both engines, the ratio) and --clients (fio client/server).
 *
 * Iteration figures are the native engine's names (bw_bytes, iops,
 * lat_*_us, seconds), so compare/report treat both engines alike.  What
 * else is recorded, in the iteration:
 *   "fio": { "version", "ioengine", "command", "job" (the job file's text,
 *            or "jobs" per client), "clat_p50_us", "clat_p99_us" }
 *   "cross_check": { "engine": "fio"|"native", "metrics": {...}, "extra",
 *                    "ratio": { "bw_bytes": fio/native, ... },
 *                    "flagged": this iteration's ratio is over 10% off }
 *   metric "xcheck_bw_ratio" (fio/nasbench throughput); after the last
 *   iteration a median over 10% off 1 becomes a warning (result + stderr)
 *   metrics with clients: bw_bytes and iops are fio's "All clients" figures
 *            (all bytes over the longest runtime) when every client
 *            reported, else the sum of those that did; latency figures
 *            from the clients' json+ bins merged
 *   "clients": [ { "client": "host:port", "metrics": {...}, "bytes" } |
 *                { "client": "host:port", "error": "..." } ]
 *   "partial": true   when a client failed: the metrics are the others' sum
 */
#ifndef NB_FIO_DRIVER_H
#define NB_FIO_DRIVER_H

#include <stdio.h>

#include "../workload.h"
#include "../../core/config.h"
#include "../../fio/clients.h"
#include "../../fio/job.h"

/* Cross-check: throughput ratios outside 1 +/- this are flagged. */
#define NB_XCHECK_TOLERANCE 0.10

/* Whether fio takes part in this iteration (engine = fio, cross-check,
 * clients). */
int nb_wl_fio_wanted(const struct nb_wl_ctx *c);

/* Run S as the target's settings say; NATIVE runs it with nasbench's own
 * engine (the workload's usual body).  0, -EINTR or -errno. */
int nb_wl_fio_run(struct nb_wl_ctx *c, const struct nb_iospec *s,
		  nb_wl_io_fn native);

/* Apply --engine / --ioengine (NULL: keep the box file's) and the client
 * list to target T, and check that fio can serve it.  0 or -EINVAL. */
int nb_wl_fio_target_setup(struct nb_target_cfg *t, const char *engine,
			   const char *ioengine, const struct nb_fio_clients *cl);

#endif
