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
 *   noise             beyond the threshold, not significant
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
 * iterations.  Two single
 * runs cannot measure the between-run part: it is taken as the larger of
 * the within-run variance and a floor (NB_COMPARE_RUN_NOISE); a history
 * baseline of >= 3 runs measures it from the spread of their medians.
 * With fewer than 3 iterations on a side the verdict is made on the
 * threshold alone, flagged low confidence, and fails only with --strict.
 *
 * The comparison is a JSON document (the --format json output); the
 * other formats render it.
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
};

struct nb_judge_opts {
	double threshold;        /* a fraction, or NB_GATE_OFF (not gated) */
	double display;          /* the threshold of the words when not gated */
	double alpha;
	double run_noise;        /* the assumed between-run sd (log scale) */
	int strict;              /* low confidence gates too */
};

struct nb_judgement {
	double base, new_;       /* medians (base: median of the runs' medians) */
	double change;           /* (new - base) / |base|; +-INFINITY from 0 */
	int nbase, nnew;         /* iterations */
	int runs;                /* base runs (1: a file, N: a history) */
	const char *test;        /* "run-t", NULL: none */
	double p;                /* NAN without a test */
	double noise;            /* smallest |change| significant at alpha, NAN */
	int low_confidence;
	int regression;          /* worse and gated */
	enum nb_verdict verdict;
};

const char *nb_verdict_name(enum nb_verdict v);

/* Judge one metric.  BASE[i] belongs to base run RUN[i] (RUN NULL: one
 * run); BETTER is enum nb_better. */
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
};

void nb_compare_opts_init(struct nb_compare_opts *o);

/* Compare two loaded results.  *OUT gets a new comparison object:
 *   { "base", "new", "labels": [ {key, base, new} ], "matched_by",
 *     "verdicts": [ {target, workload, metric, label, unit, better, scale,
 *                    base, new, change_pct, n_base, n_new, runs, test, p,
 *                    noise_pct, threshold_pct, verdict, low_confidence,
 *                    regression, gated, settings: [{key, base, new}],
 *                    reason} ],                  one per BASE workload
 *     "rows": [ ...the same, one per other metric... ],
 *     "only_new": [ "t/w" ], "warnings": [ "..." ],
 *     "regressions": N, "changed_settings": N }
 * An iteration of BASE may carry "run": K (a history baseline: the
 * iterations of several runs).  0, or -EINVAL with a message when the two
 * runs have no workload in common. */
int nb_compare(const json_t *base, const char *base_name, const json_t *new_,
	       const char *new_name, struct nb_gate *gate,
	       const struct nb_compare_opts *co, json_t **out);

/* Wrap comparisons into the top-level document:
 * { "tool": "nasbench", "compare": 2, "max_regress_pct", "alpha", "strict",
 *   "regressions": N, "changed_settings": N, "comparisons": [ ... ] }
 * (steals COMPS). */
json_t *nb_compare_doc(json_t *comps, const struct nb_gate *gate,
		       const struct nb_compare_opts *co);

/* Renderers.  COLOR: ANSI colors in the text table. */
void nb_compare_text(FILE *out, const json_t *doc, int color);
void nb_compare_markdown(FILE *out, const json_t *doc);
void nb_compare_junit(FILE *out, const json_t *doc);
void nb_compare_json(FILE *out, const json_t *doc);

#endif
