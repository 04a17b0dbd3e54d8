/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * judge.h - has a series of rounds settled?  (steady-state detection)
 *
 * A workload run for steady state is cut into rounds of a fixed length;
 * after each round the last N rounds (the window; SNIA's is 5) are judged
 * by one criterion:
 *
 *   snia[:bw|:iops]    SNIA PTS 2.0 (the default): within the window the
 *                      data excursion (max - min) is at most 20% of the
 *                      window's mean AND the excursion of the least-squares
 *                      line over the window (|slope| x (N - 1)) at most 10%
 *   bw:P% / iops:P%    fio's steadystate=bw / iops: every round within P%
 *                      of the window's mean
 *   bw_slope:P% / iops_slope:P%
 *                      the best-fit line's excursion over the window at
 *                      most P% of the mean (fio's *_slope, as a share of
 *                      the window rather than per second)
 *
 * The module is pure: numbers in, a verdict out; no I/O, no clock, no
 * JSON.  The workloads run the rounds (workloads/io/steady.c), the result
 * records them (docs/steady-state.md, docs/result.md).
 */
#ifndef NB_STEADY_JUDGE_H
#define NB_STEADY_JUDGE_H

#include <stddef.h>
#include <stdint.h>

#define NB_STEADY_SNIA_RANGE 20.0  /* % of the mean */
#define NB_STEADY_SNIA_SLOPE 10.0  /* % of the mean */

enum nb_steady_kind {
	NB_SS_OFF = 0,            /* no steady-state run (a zeroed struct) */
	NB_SS_SNIA = 1,           /* range AND slope */
	NB_SS_DEV = 2,            /* every round within P% of the mean */
	NB_SS_SLOPE = 3,          /* the fit's excursion within P% */
};

enum nb_steady_metric { NB_SS_BW = 0, NB_SS_IOPS = 1 };

struct nb_steady_crit {
	int kind;                 /* enum nb_steady_kind */
	int metric;               /* enum nb_steady_metric */
	double range_pct;         /* SNIA: data excursion limit */
	double slope_pct;         /* SNIA, SLOPE: the fit's excursion limit */
	double dev_pct;           /* DEV: each round's deviation limit */
};

/* What the window of the last rounds says. */
struct nb_steady_verdict {
	int steady;               /* the criterion holds on a full window */
	unsigned first;           /* 0-based index of the window's first round */
	unsigned n;               /* rounds in the window (< window: too few) */
	double mean, min, max;
	double range;             /* max - min */
	double slope;             /* of the least-squares line, per round */
	double excursion;         /* |slope| x (n - 1) */
	double range_pct, excursion_pct, dev_pct;   /* of the mean */
	char why[160];            /* not steady: the limit missed, in words */
};

/* What --steady-state accepts, for messages and help. */
extern const char nb_steady_help[];

/* Parse CRIT ("snia", "snia:iops", "bw:20%", "iops_slope:10%"; the % is
 * optional, the limit in (0, 100]).  0, or -EINVAL with the detail set:
 * "unknown steady-state criterion 'x': one of snia[:bw|:iops], bw:P%, ...". */
int nb_steady_parse(const char *crit, struct nb_steady_crit *out);
/* nb_steady_parse() as a check of a knob's value: 0 or -EINVAL. */
int nb_steady_check(const char *crit);

/* The canonical spelling of C ("snia:bw", "iops:20%"). */
const char *nb_steady_name(const struct nb_steady_crit *c, char *buf,
			   size_t len);

/* The metric C judges, as the result names it ("bw_bytes", "iops"). */
const char *nb_steady_metric_name(const struct nb_steady_crit *c);

/* Judge the last WINDOW of the N values V (oldest first) by C into *OUT.
 * Fewer than WINDOW values (or WINDOW < 2) are never steady. */
void nb_steady_judge(const struct nb_steady_crit *c, const double *v,
		     unsigned n, unsigned window, struct nb_steady_verdict *out);

/* Sum the per-second series SEC (N seconds) into rounds of ROUND_S
 * seconds, as rates per second, the last whole rounds kept (a part round
 * at the start is dropped): at most MAX into ROUNDS; returns how many. */
unsigned nb_steady_rounds(const double *sec, unsigned n, unsigned round_s,
			  double *rounds, unsigned max);

#endif
