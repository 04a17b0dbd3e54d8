/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep.h - a load sweep and what it answers.
 *
 * A sweep runs one I/O workload at rising outstanding I/O (queue depth x
 * jobs x fio clients), a step at a time, and keeps each step's figures.
 * This module holds everything about the curve that is arithmetic: the
 * step sequence, when to stop, the latency objective (SLO), capacity,
 * knee, saturation, the Little's-law self-check, the client-bound flag and
 * capacity in VMs.  Pure: no I/O, no clock, no allocation.
 *
 * Definitions (docs/capacity.md says them for a user):
 *  - capacity: the highest throughput whose latency meets the objective.
 *    When the step after the last one meeting it breaks it, the capacity
 *    is interpolated linearly between the two (latency against
 *    throughput), and said so.
 *  - knee: the last step before the first pair of steps whose mean latency
 *    grows by a larger factor than the throughput does.
 *  - saturation: the highest throughput of any step.
 *  - Little's law: IOPS x mean latency = outstanding I/O, within 10%;
 *    a step off by more is flagged.
 *  - client-bound: the client used >= 90% of a core per submitting
 *    thread at a step; a capacity resting on such a step is a lower bound.
 */
#ifndef NB_SWEEP_H
#define NB_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#define NB_SWEEP_MAX 32              /* steps in one sweep */
#define NB_SWEEP_MAX_OUTSTANDING 65536
#define NB_SWEEP_GAIN 0.05           /* "throughput gained < 5%" */
#define NB_SWEEP_LITTLE_TOL 0.10     /* Little's law within 10% */
#define NB_SWEEP_CLIENT_BOUND 0.90   /* of a core per submitting thread */

/* ---- the latency objective ---- */

enum nb_slo_stat {
	NB_SLO_MEAN = 0, NB_SLO_P50, NB_SLO_P90, NB_SLO_P99, NB_SLO_P999,
	NB_SLO_NSTAT
};

#define NB_SLO_MAX NB_SLO_NSTAT

struct nb_slo_term {
	int stat;                /* enum nb_slo_stat */
	double limit_us;         /* latency at most this */
};

/* Terms all of which must hold ("p99=20ms,mean=5ms"); n == 0: none. */
struct nb_slo {
	unsigned n;
	struct nb_slo_term t[NB_SLO_MAX];
};

/* Parse "p99=20ms", "p99.9=50ms", "mean=5ms", "p50=..", "p90=..", several
 * joined by commas (a statistic at most once).  A unit is required (us, ms,
 * s).  0, or -EINVAL with the detail set ("invalid objective 'p98=1ms':
 * ..."); OUT is untouched on failure. */
int nb_slo_parse(const char *s, struct nb_slo *out);

/* nb_slo_parse() as a check of a knob's value: 0 or -EINVAL. */
int nb_slo_check(const char *s);

/* "p99", "p99.9", "mean"; the result metric: "lat_p99_us", "lat_p99.9_us"... */
const char *nb_slo_stat_name(int stat);
const char *nb_slo_stat_metric(int stat);

/* Canonical spelling, parseable again: "p99=20ms,mean=5ms". */
char *nb_slo_str(const struct nb_slo *slo, char *buf, size_t len);
/* For a person: "p99 <= 20 ms, mean <= 5 ms". */
char *nb_slo_fmt(const struct nb_slo *slo, char *buf, size_t len);

/* The percentile STAT is (50, 90, 99, 99.9; the mean: 0). */
double nb_slo_stat_pct(int stat);

/* The samples a step needs to judge every term of SLO: the most any term
 * needs (a percentile: nb_hist_min_samples; the mean: 100). */
uint64_t nb_slo_min_samples(const struct nb_slo *slo);

/* ---- the steps ---- */

/* One step's figures (filled by the caller) and its verdicts (filled by
 * nb_sweep_add). */
struct nb_sweep_step {
	uint32_t outstanding;    /* I/Os kept in flight: qd x jobs x clients */
	uint32_t threads;        /* submitting threads (0: take 1) */
	double iops, bw_bytes;
	double lat_mean_us, lat_p50_us, lat_p90_us, lat_p99_us, lat_p999_us;
	double cpu_per_thread;   /* client CPU s / wall s / threads; < 0 unknown */
	uint64_t samples;        /* I/Os timed */
	/* verdicts */
	int enough;              /* samples enough for the figures and every
				  * term (core/samples.h): a step without
				  * them meets and breaks nothing */
	int slo_met;             /* enough, and every term of the objective
				  * holds */
	double little;           /* IOPS x mean latency / outstanding */
	int little_ok;           /* |little - 1| <= 10% */
	int client_bound;        /* cpu_per_thread >= 0.9 */
};

/* The latency a term reads (the step's figure for STAT). */
double nb_sweep_step_stat(const struct nb_sweep_step *st, int stat);

/* Default steps: 1, 2, 4 ... 256 (9 steps). */
void nb_sweep_steps_default(uint32_t *steps, size_t *n);

/* Parse a step list: "auto" (the default), "1,2,4,8,16" (rising, each
 * 1..MAX), or "A..B" (doubling from A, with B the last even when not a
 * power of two times A).  At most NB_SWEEP_MAX steps.  0, or -EINVAL with
 * the detail set. */
int nb_sweep_steps_parse(const char *s, uint32_t max, uint32_t *steps,
			 size_t *n);
/* nb_sweep_steps_parse() up to NB_SWEEP_MAX_OUTSTANDING as a check of a
 * knob's value: 0 or -EINVAL. */
int nb_sweep_steps_check(const char *s);
/* "1,2,4,8" into BUF. */
char *nb_sweep_steps_str(const uint32_t *steps, size_t n, char *buf,
			 size_t len);

/* ---- a sweep ---- */

enum nb_sweep_stop {
	NB_SWEEP_GO = 0,
	NB_SWEEP_STOP_SLO,       /* the objective broken at two steps in a row */
	NB_SWEEP_STOP_FLAT,      /* throughput gained < 5% at two steps in a row */
	NB_SWEEP_STOP_STEPS,     /* the step limit */
	NB_SWEEP_STOP_TIME,      /* the time limit */
	NB_SWEEP_STOP_END,       /* every step of the list done */
	NB_SWEEP_STOP_INTR,      /* interrupted (set by the caller) */
	NB_SWEEP_STOP_ERROR,     /* a step failed (set by the caller) */
	NB_SWEEP_STOP_CONVERGED, /* open loop: the bracket is narrow enough */
	NB_SWEEP_STOP_THIN,      /* open loop: the next rate ran too thin to
				  * judge (core/samples.h) */
};

struct nb_sweep {
	struct nb_slo slo;
	uint32_t plan[NB_SWEEP_MAX];     /* outstanding I/O of each step */
	size_t nplan;
	unsigned max_steps;              /* 0: no limit but the plan */
	uint64_t max_us;                 /* 0: no time limit */
	struct nb_sweep_step step[NB_SWEEP_MAX];
	size_t n;                        /* steps done */
};

/* A sweep over STEPS (NULL: the default) with objective SLO (NULL: none). */
void nb_sweep_init(struct nb_sweep *sw, const uint32_t *steps, size_t n,
		   const struct nb_slo *slo);

/* Record a finished step: judges it (objective, Little, client-bound) and
 * appends it.  0, or -ENOSPC when the sweep is full. */
int nb_sweep_add(struct nb_sweep *sw, const struct nb_sweep_step *st);

/* Whether to run another step after ELAPSED_US of sweep: NB_SWEEP_GO or
 * the reason to stop. */
int nb_sweep_next(const struct nb_sweep *sw, uint64_t elapsed_us);

/* "objective-broken", "throughput-flat", "step-limit", "time-limit",
 * "steps-done", "interrupted", "error", "converged", "too-few-samples";
 * "" for NB_SWEEP_GO. */
const char *nb_sweep_stop_name(int why);

/* ---- the answers ---- */

struct nb_capacity {
	int found;               /* some step met the objective */
	int interpolated;        /* between step LO and LO + 1 */
	int lower_bound;         /* the true capacity may be higher: the sweep
				  * ended with the objective still met and the
				  * throughput still rising, or it rests on a
				  * client-bound step */
	int objective_broken;    /* some step after LO broke the objective */
	int flagged;             /* rests on a step failing Little's law */
	int client_bound;        /* rests on a client-bound step */
	int unmeasured;          /* none met it, and a step was too thin to
				  * judge */
	size_t thin;             /* steps without enough samples */
	size_t lo;               /* the last step meeting the objective */
	double iops, bw_bytes, outstanding;
	int knee;                /* step index, -1: no knee in the curve */
	double knee_iops, knee_bw;
	uint32_t knee_outstanding;
	size_t sat;              /* the step of the highest throughput */
	double sat_iops, sat_bw;
	int saturated;           /* the curve flattened (< 5% twice) */
	size_t little_failed;    /* steps failing Little's law */
	size_t client_bound_steps;
	double vm_iops;          /* <= 0: no VM profile */
	double vms, knee_vms, sat_vms;   /* iops / vm_iops; 0 without */
};

/* The answers of SW (at least one step; an empty sweep gives found = 0,
 * knee = -1).  VM_IOPS: a VM's IOPS (<= 0: no VMs). */
void nb_sweep_answer(const struct nb_sweep *sw, double vm_iops,
		     struct nb_capacity *out);

/* One line for a person: "20.0 VMs (2000 IOPS) at mean <= 10 ms,
 * interpolated; knee at 16 outstanding (2001 IOPS); saturation 2003 IOPS";
 * "no step meets mean <= 10 ms (the first step: mean 12.5 ms)". */
char *nb_capacity_fmt(const struct nb_sweep *sw, const struct nb_capacity *c,
		      char *buf, size_t len);

#endif
