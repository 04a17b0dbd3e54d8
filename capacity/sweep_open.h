/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep_open.h - the open loop's capacity sweep: which offered rates to
 *                run, and what they answer (docs/capacity.md).
 *
 * A closed loop's capacity lands at saturation: it throttles itself, so
 * its latency stays bounded however far the box is driven.  The open
 * sweep instead offers fixed rates (I/Os per second; for the vm workload,
 * populations of N VMs, each its own source at the profile's rate) and
 * judges each step on the response time, from when each I/O was due:
 *  - first a short closed-loop probe finds the box's maximum rate X;
 *  - then a bisection between the highest rate that met the objective and
 *    the lowest that broke it, from X/2 (or a first rate given), until the bracket is narrower
 *    than NB_OSWEEP_TOL of X (one VM for populations), or the steps or
 *    the time run out;  an explicit list of rates runs as given instead;
 *  - a step meets the objective only when it achieved >= 98% of what it
 *    offered, has the samples its percentiles need (nb_hist_min_samples)
 *    and every term of the objective holds on the response time;
 *  - a step that broke it while the client itself was late - more I/Os
 *    issued over 1 ms late with a slot free than the tail that decides
 *    the objective (1 - p of the samples; 1% for a mean) - is not judged
 *    the first time: the bisection runs its rate again; broken twice so,
 *    it counts, said "disturbed";
 *  - capacity: the highest rate that met it, interpolated (latency against
 *    rate) towards the lowest above it that broke it on latency alone; for
 *    populations the largest N that met it, as run.
 * Pure: no I/O, no clock, no allocation.
 */
#ifndef NB_SWEEP_OPEN_H
#define NB_SWEEP_OPEN_H

#include "sweep.h"

#define NB_OSWEEP_TOL 0.03           /* bracket: 3% of the maximum rate */
#define NB_OSWEEP_MIN_FRAC (1.0 / 64) /* no rate below X/64 is tried */
#define NB_OSWEEP_LIST 16             /* rates in an explicit list */

/* One step's figures (filled by the caller) and verdicts (by add). */
struct nb_ostep {
	double rate;             /* offered as asked, I/Os per second */
	uint32_t vms;            /* the population (0: a rate, not VMs) */
	double offered, achieved;/* measured: arrivals, completions per second */
	int valid;               /* achieved >= NB_OPEN_VALID x offered */
	double resp[NB_SLO_NSTAT];   /* response: mean, p50, p90, p99, p99.9 us */
	uint64_t samples;        /* I/Os timed */
	uint64_t arrivals;       /* I/Os offered (due) */
	uint64_t client_late;    /* issued over 1 ms late with a slot free */
	/* verdicts */
	int enough;              /* enough samples for every term's percentile;
				  * a step without them is not judged (it
				  * meets and breaks nothing), save one whose
				  * box fell behind on 100 I/Os offered or
				  * more: that one breaks it */
	int slo_met;             /* valid, enough and every term holds */
	int disturbed;           /* broke it with the client late (above) */
	int judged;              /* counts for the answer (0: run again) */
};

struct nb_osweep {
	struct nb_slo slo;
	double max_rate;         /* the probe's maximum, I/Os per second */
	double vm_iops;          /* > 0: steps are populations of VMs */
	double first;            /* > 0: the bisection's first rate (a
				  * replay's: today's load), else max / 2 */
	unsigned max_steps;      /* 0: NB_SWEEP_MAX */
	uint64_t max_us;         /* 0: no time limit */
	double list[NB_OSWEEP_LIST];     /* explicit rates (nlist > 0) */
	size_t nlist;
	struct nb_ostep step[NB_SWEEP_MAX];
	size_t n;
	int lo, hi;              /* the bracket: the steps of the highest rate
				  * meeting the objective and of the lowest
				  * breaking it (-1: none yet) */
};

/* A sweep toward SLO on a box whose probe gave MAX_RATE (> 0); VM_IOPS
 * > 0 makes the steps populations of VMs of that rate each. */
void nb_osweep_init(struct nb_osweep *sw, const struct nb_slo *slo,
		    double max_rate, double vm_iops);

/* "auto", or rates "200,400,600" (I/Os per second) or shares of the
 * probe's maximum "25%,50%,90%", rising, at most NB_OSWEEP_LIST.  Into
 * SW's list (percentages resolved against its max_rate: parse after
 * init).  0, or -EINVAL with the detail set. */
int nb_osweep_rates_parse(struct nb_osweep *sw, const char *s);
/* The same as a knob's check (any maximum). */
int nb_osweep_rates_check(const char *s);

/* The next step after ELAPSED_US: NB_SWEEP_GO with *RATE (and *VMS for
 * populations), or the reason to stop (NB_SWEEP_STOP_CONVERGED, _SLO
 * when even the lowest rate broke the objective, _STEPS, _TIME, _END). */
int nb_osweep_next(const struct nb_osweep *sw, uint64_t elapsed_us,
		   double *rate, uint32_t *vms);

/* Judge a finished step (objective, samples, validity) and append it.
 * 0, or -ENOSPC when the sweep is full. */
int nb_osweep_add(struct nb_osweep *sw, const struct nb_ostep *st);

struct nb_ocapacity {
	int found;               /* some step met the objective */
	int interpolated;        /* between step LO and HI on latency */
	int lower_bound;         /* nothing above LO was seen to break it */
	int lo, hi;              /* steps (-1: none) */
	double iops;             /* capacity, I/Os per second */
	double vms;              /* populations: the largest N that met it */
	double max_rate;         /* the probe's */
	size_t invalid;          /* steps below 98% of their offered rate */
	size_t thin;             /* steps without enough samples */
	int unmeasured;          /* none met it, and a step where it could
				  * have was too thin to judge */
	size_t disturbed;        /* steps that broke it with the client late */
};

void nb_osweep_answer(const struct nb_osweep *sw, struct nb_ocapacity *c);

/* "12 VMs (600 IOPS offered) at p99 <= 20 ms; 13 break it"; "667 IOPS at
 * mean <= 2 ms, interpolated between 656 and 687"; "no rate meets ...". */
char *nb_ocapacity_fmt(const struct nb_osweep *sw,
		       const struct nb_ocapacity *c, char *buf, size_t len);

/* The response-time metric a term reads: "resp_p99_us". */
const char *nb_slo_stat_resp_metric(int stat);

#endif
