/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - did NEW get better or worse than BASE?
 *
 * Workloads are matched by target + workload name (or by workload alone
 * when each run has a single target and the names differ).  Each matched
 * workload gets ONE verdict, on its primary metric: throughput (bw_bytes)
 * for a sequential workload, IOPS for a random one, or the metric a gate
 * file names ([workload W] primary = lat_p99_us).  The other metrics are
 * judged and shown, and gate only when a gate file names them.
 *
 *   unchanged         |change| <= threshold
 *   better / worse    beyond the threshold, and significant
 *   noise             beyond the threshold, not significant against a
 *                     measured between-run noise
 *   inconclusive      the between-run noise was not measured (one run on
 *                     each side) and the change, whatever its size, is
 *                     not significant under the assumed noise: the gate
 *                     cannot tell; it says what it could have detected
 *   changed           beyond the threshold, the metric has no good direction
 *   missing           in BASE, not in NEW (a workload, target or metric;
 *                     or a workload ok in BASE and not ok in NEW)
 *   not-steady        a steady-state run (--steady-state) on either side
 *                     did not reach steady state: its figure had not
 *                     settled, so no change is called significant and
 *                     nothing gates (unless allow_unsteady)
 *   changed-settings  the workload's spec (bs, qd, size, runtime, direct,
 *                     sync, engine, ioengine, pattern) or the target URL
 *                     differ: the figures are not comparable
 *
 * Significance (docs/compare.md, "The statistics, and why"): a t-test on
 * the logarithms (medians, MAD) whose variance counts the run-to-run
 * (between-run) part of the noise, not only the spread of one run's
 * iterations.  A base of >= 3 runs (a history baseline, or a base whose
 * iterations carry "run") measures it from the spread of their medians.
 * Two single runs cannot: it is assumed (the larger of the within-run
 * variance and NB_COMPARE_RUN_NOISE), and a change that assumption does
 * not call significant is inconclusive (the outcome's own exit status),
 * with the smallest change the test could have detected.  The test is
 * one-sided where the metric has a better direction.  With fewer than 3
 * iterations on a side the verdict is made on the threshold alone,
 * flagged low confidence: inconclusive unless --strict, which gates it.
 *
 * The comparison is a JSON document (--format json); the others render it.
 */
#ifndef NB_REPORT_COMPARE_H
#define NB_REPORT_COMPARE_H

#include <jansson.h>
#include <stdio.h>

#include "gate.h"

/* The between-run noise assumed when it cannot be measured: a run's level
 * (log scale) differs from another run's of the same configuration by
 * this standard deviation at least.  Measured on the shared 2-core CI
 * machine with ci/bench-gate (docs/compare.md). */
#define NB_COMPARE_RUN_NOISE 0.15

enum nb_verdict {
	NB_V_UNCHANGED,
	NB_V_BETTER,
	NB_V_WORSE,
	NB_V_NOISE,
	NB_V_CHANGED,
	NB_V_MISSING,
	NB_V_SETTINGS,
	NB_V_UNSTEADY,
	NB_V_INCONCLUSIVE,
};

struct nb_judge_opts {
	double threshold;        /* a fraction, or NB_GATE_OFF (not gated) */
	double display;          /* the threshold of the words when not gated */
	double alpha;
	double run_noise;        /* the assumed between-run sd (log scale) */
	int strict;              /* low confidence gates too */
	/* the between-run noise measured elsewhere (--noise history: the
	 * history's runs of BASE's labels): the variance of a run's level
	 * (log scale) from REF_RUNS runs; REF_RUNS < 3: none */
	double ref_var;
	int ref_runs;
};

struct nb_judgement {
	double base, new_;       /* medians (base: median of the runs' medians) */
	double change;           /* (new - base) / |base|; +-INFINITY from 0 */
	int nbase, nnew;         /* iterations */
	int runs;                /* base runs (1: a file, N: a history) */
	const char *test;        /* "run-t", NULL: none */
	double p;                /* NAN without a test; one-sided where the
				  * metric has a direction */
	double noise;            /* the smallest change for the worse the test
				  * could call significant (a magnitude; NAN) */
	double detect_down, detect_up;  /* the smallest fall and rise it could
				  * call significant (fractions, NAN) */
	int measured;            /* the between-run noise was measured (>= 3
				  * base runs, or REF_RUNS), not assumed */
	int ref_runs;            /* it was measured from REF_RUNS runs of the
				  * reference (0: from the base, or assumed) */
	int low_confidence;
	int inconclusive;        /* the gate cannot decide this one (noise not
				  * measured, or low confidence without strict) */
	int regression;          /* worse and gated */
	enum nb_verdict verdict;
};

const char *nb_verdict_name(enum nb_verdict v);

/* The base level of V: its median, or with RUN (each value's run) the
 * median of the runs' medians. */
double nb_compare_level(const double *v, const int *run, int n);

/* The sample variance of the runs' levels (log scale) of V, each value's
 * run in RUN (NULL: one run): the runs counted, 0 when a value is <= 0. */
int nb_compare_level_var(const double *v, const int *run, int n, double *var);

/* Judge one metric (judge.c).  BASE[i] belongs to base run RUN[i] (RUN
 * NULL: one run); BETTER is enum nb_better. */
void nb_compare_judge(const double *base, const int *run, int nbase,
		      const double *new_, int nnew, int better,
		      const struct nb_judge_opts *o, struct nb_judgement *j);

/* How the gate treats what is not a plain figure. */
struct nb_compare_opts {
	int allow_missing;       /* missing: a warning, not a regression */
	int allow_changed;       /* changed settings: a warning, judged anyway */
	int allow_unsteady;      /* not steady: judged anyway */
	int strict;              /* low confidence fails too */
	double display;          /* the words' threshold under -r off */
	/* --noise history: a baseline of BASE's labels from the history
	 * (iterations carrying "run"), used only to measure the between-run
	 * noise of two single runs; NULL: none.  NOISE_FROM names it. */
	const json_t *noise_ref;
	const char *noise_from;
};

void nb_compare_opts_init(struct nb_compare_opts *o);

/* Compare two loaded results.  *OUT gets a new comparison object:
 *   { "base", "new", "labels": [ {key, base, new} ], "matched_by",
 *     "verdicts": [ {target, workload, metric, label, unit, better, scale,
 *                    base, new, change_pct, n_base, n_new, runs, test, p,
 *                    noise_pct, detect_down_pct, detect_up_pct,
 *                    noise_measured, threshold_pct, verdict,
 *                    low_confidence, inconclusive, regression, gated,
 *                    settings: [{key, base, new}], reason} ],
 *                                                one per BASE workload
 *     "rows": [ ...the same, one per other metric... ],
 *     "only_new": [ "t/w" ], "warnings": [ "..." ],
 *     "regressions": N, "changed_settings": N, "inconclusive": N }
 * (inconclusive: gated verdicts the gate could not decide)
 * An iteration of BASE may carry "run": K (a history baseline: the
 * iterations of several runs).  0, or -EINVAL with a message when the two
 * runs have no workload in common. */
int nb_compare(const json_t *base, const char *base_name, const json_t *new_,
	       const char *new_name, struct nb_gate *gate,
	       const struct nb_compare_opts *co, json_t **out);

/* Wrap comparisons into the top-level document:
 * { "tool": "nasbench", "compare": 3, "max_regress_pct", "alpha", "strict",
 *   "regressions": N, "changed_settings": N, "inconclusive": N,
 *   "outcome": "regression" | "inconclusive" | "pass" | "not gated",
 *   "comparisons": [ ... ] }
 * (steals COMPS). */
json_t *nb_compare_doc(json_t *comps, const struct nb_gate *gate,
		       const struct nb_compare_opts *co);

/* summary.c: the decision summary of DOC (decision/summary.h's lines):
 * each comparison's label changes, each workload before -> after with
 * its time factor, verdict and band, the bands' overall verdict. */
json_t *nb_compare_summary(const json_t *doc);
/* "decide (1.58x the time)" for a row with a band, else "". */
void nb_compare_fmt_band(char *buf, size_t len, const json_t *row);

/* Renderers.  COLOR: ANSI colors in the text table. */
void nb_compare_text(FILE *out, const json_t *doc, int color);
void nb_compare_markdown(FILE *out, const json_t *doc);
void nb_compare_junit(FILE *out, const json_t *doc);
void nb_compare_json(FILE *out, const json_t *doc);

#endif
