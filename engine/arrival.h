/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arrival.h - when an open loop's I/Os are due: arrival processes.
 *
 * A source (a VM, a client) issues its I/O when its guest wants to,
 * whether or not the box has answered the others: the arrival times come
 * from a process, not from completions (docs/capacity.md, "Open and
 * closed loops").  Three processes, each at a mean RATE per second:
 *  - poisson: independent exponential gaps (mean 1/RATE), what many
 *    independent users add up to;
 *  - uniform: one I/O every 1/RATE exactly, from a random phase (so that
 *    many uniform sources do not start in lock-step);
 *  - onoff: bursts and pauses of exponential length (means ON and OFF);
 *    inside a burst Poisson at RATE x (ON + OFF) / ON, nothing in a pause:
 *    the mean stays RATE, the peak is (ON + OFF) / ON times it.  The first
 *    state is drawn as the process's long-run share (ON / (ON + OFF)); a
 *    source told its horizon (nb_arrivals_cycles) instead runs whole
 *    cycles, each a burst and the pause after it, the first starting
 *    with an I/O at 0.
 * Times are nanoseconds from the start of the schedule.  Pure: no clock,
 * no I/O; the generator is the source's own (datagen.h's xoshiro).
 */
#ifndef NB_ARRIVAL_H
#define NB_ARRIVAL_H

#include <stdint.h>

#include "../core/datagen.h"

enum nb_arrival {
	NB_ARR_POISSON = 0,
	NB_ARR_UNIFORM = 1,
	NB_ARR_ONOFF = 2,
};

struct nb_arrivals {
	int kind;                /* enum nb_arrival */
	double gap_ns;           /* mean gap between I/Os (inside a burst) */
	double on_ns, off_ns;    /* onoff: mean burst and pause lengths */
	double next;             /* the next arrival, ns */
	double on_end;           /* onoff: the current burst ends */
	/* onoff in whole cycles (nb_arrivals_cycles): */
	double horizon;          /* the runtime: 0, not in whole cycles */
	double cycle_end;        /* the current cycle's pause ends */
	double end;              /* the schedule ends here: the last whole
				  * cycle's end, or the horizon when the first
				  * cycle outlasts it (0: not known yet) */
	unsigned cycles;         /* whole cycles begun that end by the horizon */
	int cut;                 /* the first cycle outlasted the horizon */
	int done;                /* no arrival after END */
	struct nb_rng rng;
};

/* Start a process of KIND at RATE per second (> 0), bursts of mean ON_US
 * and pauses of mean OFF_US (onoff only; both > 0), seeded with SEED.
 * 0, or -EINVAL for a rate or burst that is not positive. */
int nb_arrivals_init(struct nb_arrivals *a, int kind, double rate,
		     uint64_t on_us, uint64_t off_us, uint64_t seed);

/* An onoff process A (just initialised) in whole cycles within HORIZON_NS
 * (> 0): the first cycle starts with an arrival at 0; a cycle is run only
 * whole (its burst and its pause end by HORIZON_NS), save the first, which
 * is cut at HORIZON_NS when it outlasts it (A->cut).  A->end says where
 * the schedule ends once it is known (at the latest when the arrival
 * before it is drawn); nb_arrivals_next() then gives UINT64_MAX.  Another
 * kind: nothing changes. */
void nb_arrivals_cycles(struct nb_arrivals *a, double horizon_ns);

/* The time of the next arrival (ns from the start), and advance;
 * UINT64_MAX once a process in whole cycles has none left. */
uint64_t nb_arrivals_next(struct nb_arrivals *a);

/* "poisson", "uniform", "onoff"; NULL for another value. */
const char *nb_arrival_name(int kind);
/* The kind called NAME, or -1. */
int nb_arrival_find(const char *name);

/* An offered rate as a user writes it: "500" or "500iops" (I/Os per
 * second) or a throughput "20MB/s", "20MiB/s", "1.5GB/s" (bytes per
 * second: the I/O's block size makes it IOPS).  One of *IOPS and *BPS is
 * set (> 0), the other 0.  0, or -EINVAL with the detail set. */
int nb_arrival_rate_parse(const char *s, double *iops, double *bps);
/* nb_arrival_rate_parse() as a knob's check. */
int nb_arrival_rate_check(const char *s);
/* ON/OFF lengths "100ms/400ms" (each a duration with its unit, > 0) into
 * microseconds.  0, or -EINVAL with the detail set. */
int nb_burst_parse(const char *s, uint64_t *on_us, uint64_t *off_us);
int nb_burst_check(const char *s);

/* A uniform double in [0, 1) and an exponential one of mean MEAN, from R. */
double nb_rng_unit(struct nb_rng *r);
double nb_rng_exp(struct nb_rng *r, double mean);

#endif
