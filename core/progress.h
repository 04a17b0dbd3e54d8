/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress.h - the line that says a workload is alive.
 *
 * On a terminal: one line rewritten in place (workload, target, iteration,
 * MB/s now, and for the engine's workloads IOPS now and the p99 latency of
 * the iteration so far, % done, ETA).  Not a terminal: a plain line every
 * 10 seconds (every_ns; 'run --status-interval').  Quiet: nothing.
 * Progress goes to standard error, never to the stream of the results.
 *
 * The rate on the line is the rate of the figure the workload reports:
 * a workload passes the bytes its figure counts (xz: the input compressed
 * so far, not the input read).  A phase that is not the timed work says so:
 * nb_progress_begin_untimed() (preparing a data file, preconditioning)
 * prints its line at once, in every mode, with "(not timed)"; and
 * nb_progress_phase() names a part of the timed work that moves no bytes
 * (a flush, the end of a compressed stream) on the line.
 */
#ifndef NB_PROGRESS_H
#define NB_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#include "hist.h"

enum nb_progress_mode { NB_PROGRESS_QUIET, NB_PROGRESS_PLAIN, NB_PROGRESS_TTY };

struct nb_progress {
	int mode;
	FILE *out;
	char label[160];
	uint64_t total_bytes, total_ns;
	uint64_t last_ns, last_bytes, last_print_ns;
	double rate;             /* bytes/s, smoothed */
	int shown;
	int hooked;              /* nb_hook("running") called since begin */
	uint64_t every_ns;       /* off a terminal: a line this often */
	/* the engine's I/O count and latencies (nb_progress_io), or none */
	uint64_t ios, last_ios;
	double iops;             /* ops/s, smoothed */
	const struct nb_hist *lat;
	int untimed;             /* begun with nb_progress_begin_untimed() */
	int average;             /* nb_progress_average(): bytes / elapsed */
	char phase[48];          /* nb_progress_phase(), or "" */
};

/* Bytes a workload has moved when the test hook "running" fires. */
#define NB_HOOK_RUNNING_BYTES (1024 * 1024)

void nb_progress_init(struct nb_progress *p, FILE *out, int quiet);
void nb_progress_begin(struct nb_progress *p, const char *label,
		       uint64_t total_bytes, uint64_t total_ns);
/* A phase outside the timed work (LABEL says what it is, e.g. "preparing
 * the xz input on local"): its line says "(not timed)" and is printed at
 * once, on a terminal and off one. */
void nb_progress_begin_untimed(struct nb_progress *p, const char *label,
			       uint64_t total_bytes);
/* Show the average rate since begin (bytes / elapsed), not the rate of
 * the last moments: for a workload whose figure is that average and whose
 * pace jumps (xz's encoder threads finish blocks in bursts). */
void nb_progress_average(struct nb_progress *p);
/* The part of the timed work now running, shown after the label (e.g.
 * "flushing"); "" or NULL for none.  On a terminal the line is redrawn at
 * once.  P may be NULL. */
void nb_progress_phase(struct nb_progress *p, const char *phase);
/* The I/Os done and their latency histogram (ns) so far in the workload
 * begun: called before nb_progress_update() by the engine, the line shows
 * IOPS and p99 as well.  P may be NULL. */
void nb_progress_io(struct nb_progress *p, uint64_t ios,
		    const struct nb_hist *lat);
void nb_progress_update(struct nb_progress *p, uint64_t bytes,
			uint64_t elapsed_ns);
void nb_progress_end(struct nb_progress *p);

#endif
