/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netbase.h - the network baseline a run takes before its workloads.
 *
 *   { "rtt_us": 180.0, "rtt_min_us": 150.0, "rtt_how": "nfs-null",
 *     "ceiling_bytes": 94.2e6, "ceiling_mean_bytes": 91.0e6,
 *     "ceiling_how": "re-read 16 MiB from the box's RAM, 512 KiB at
 *                     queue depth 16 for 4 s: its best second" }
 *
 * rtt_*: the median and the least of 21 round trips that touch no data
 * (NFSv3 NULL, iSCSI NOP-Out); ceiling_bytes: the best second of
 * re-reading a region small enough to stay in the box's cache - the
 * link's ceiling, not the disks' (ceiling_mean_bytes: over all of it).  A runner without a ping op (posix) gives the ceiling
 * alone.  A target of several paths adds "paths": [ { "path", "rtt_us",
 * "rtt_min_us", "ceiling_bytes", "ceiling_mean_bytes" } ], each path alone
 * (every I/O pinned to it), after all of them together.
 */
#ifndef NB_WL_NETBASE_H
#define NB_WL_NETBASE_H

#include <jansson.h>
#include <signal.h>
#include <stdint.h>

#include "../core/params.h"
#include "../core/progress.h"
#include "../core/target.h"

struct nb_netbase_cfg {
	uint64_t region;         /* bytes re-read (0: 16 MiB) */
	unsigned seconds;        /* of re-reading (0: 4) */
	const char *run_id;
	volatile sig_atomic_t *stop;
	struct nb_progress *progress;
};

/* Measure T's link.  0 with *OUT set (new reference), or -errno (detail
 * set; the run goes on without a ceiling). */
int nb_netbase_run(struct nb_target *t, const struct nb_params *p,
		   const struct nb_netbase_cfg *cfg, json_t **out);

#endif
