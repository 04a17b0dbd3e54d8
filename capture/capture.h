/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capture.h - the load of a box you have, measured: its devices' (a VM's
 *             volume each), its NFS server's and its pools' I/O over a
 *             period, into a load file for the replay (loadfile/loadfile.h,
 *             docs/capture.md).
 *
 * The box is this machine or one reached over SSH, through the
 * telemetry's source (telemetry/telem.h: the one multiplexed connection, keys
 * or an agent only).  A loop on the box prints its counters every
 * interval; each of its answers is timed (the box's uptime on Linux, this
 * machine's clock otherwise), and the counters' differences are spread
 * over buckets (a minute by default): a bucket's figure is its mean rate.
 *
 *     struct nb_capture_cfg c = { .source = "local", .for_us = 3600e6, ... };
 *     struct nb_load l;  struct nb_capture_outcome o;
 *     nb_load_init(&l);
 *     rc = nb_capture_run(&c, &l, &o);   // then nb_load_write(&l, path)
 */
#ifndef NB_CAPTURE_H
#define NB_CAPTURE_H

#include "../loadfile/growth.h"
#include "../loadfile/loadfile.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

struct nb_capture_cfg {
	const char *source;      /* "local" or "ssh://[user@]host[:port]" */
	const char *identity;    /* ssh's key (NULL: the agent's, ssh's own) */
	const char *known_hosts; /* ssh's UserKnownHostsFile (NULL: its own) */
	uint64_t for_us;         /* how long */
	uint64_t interval_us;    /* the counters read every */
	uint64_t bucket_us;      /* a figure of the series covers */
	uint64_t timeout_us;     /* an answer of the box waited for (0: 10 s) */
	const char *devices;     /* globs, comma-separated (NULL: LVM
				  * volumes and zvols) */
	double busy_pct;         /* the busiest-hour level's percentile */
	double sequential;       /* the share assumed where the counters
				  * cannot tell (< 0: the [vm] profile's) */
	struct nb_growth growth;
	volatile sig_atomic_t *stop;
	FILE *progress;          /* a line a bucket (NULL: quiet) */
};

enum nb_capture_end {
	NB_CAPTURE_DONE,         /* the period is captured */
	NB_CAPTURE_STOPPED,      /* *stop was set: the buckets so far */
	NB_CAPTURE_LOST,         /* the box stopped answering: so far */
};

struct nb_capture_outcome {
	int end;                 /* enum nb_capture_end */
	char why[400];           /* LOST: what the box (or ssh) said */
	int buckets;             /* whole buckets captured */
	int total;               /* of the buckets asked for */
	int need;                /* buckets the busiest-hour percentile needs */
	char picked[1024];       /* the devices, as said to the user */
	char notes[1024];        /* what the capture could not read, "" */
};

/* Capture as C says into L (nb_load_init'ed).  0 with L and O filled
 * (however it ended: O->end; O->buckets may be 0: nothing to write);
 * -EINVAL when no device matches (detail names the pattern and what the
 * box has); -EIO when the box cannot be reached or read (detail set). */
int nb_capture_run(const struct nb_capture_cfg *c, struct nb_load *l,
		   struct nb_capture_outcome *o);

#endif
