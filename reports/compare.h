/*
 * compare.h - did NEW get better or worse than BASE?
 *
 * Workloads are matched by target + workload name (or by workload alone
 * when each run has a single target and the names differ).  Every metric
 * present on both sides is judged from the iterations' medians:
 *
 *   unchanged  |change| <= threshold
 *   better     beyond the threshold in the good direction, significant
 *   worse      beyond the threshold in the bad direction, significant
 *   noise      beyond the threshold, not significant
 *   changed    beyond the threshold, the metric has no good direction
 *
 * Significance needs >= 3 iterations on both sides; with fewer the verdict
 * is made on the threshold alone and flagged low confidence (a low
 * confidence "worse" still fails the gate: run more iterations to let
 * noise be told apart).  The test: the exact two-sided Mann-Whitney U
 * (p < alpha) when the sample sizes let it reach alpha; for 3 vs 3 and 3
 * vs 4, whose smallest possible p is 0.1 and 0.057, Welch's t-test on the
 * logarithms (p < alpha) plus complete separation (every new iteration
 * beyond every base one).  docs/compare.md explains the choice.
 *
 * The comparison is a JSON document (the --format json output); the
 * other formats render it.
 */
#ifndef NB_REPORT_COMPARE_H
#define NB_REPORT_COMPARE_H

#include <jansson.h>
#include <stdio.h>

#include "gate.h"

enum nb_verdict {
	NB_V_UNCHANGED,
	NB_V_BETTER,
	NB_V_WORSE,
	NB_V_NOISE,
	NB_V_CHANGED,
};

struct nb_judgement {
	double base, new_;       /* medians */
	double change;           /* (new - base) / |base|; +-INFINITY from 0 */
	int nbase, nnew;
	const char *test;        /* "mann-whitney", "welch-log", NULL: none */
	double p;                /* NAN without a test */
	int low_confidence;
	int regression;          /* worse and gated */
	enum nb_verdict verdict;
};

const char *nb_verdict_name(enum nb_verdict v);

/* Judge one metric.  BETTER is enum nb_better; THRESHOLD a fraction or
 * NB_GATE_OFF (then DISPLAY_THR judges, and nothing is a regression). */
void nb_compare_judge(const double *base, int nbase, const double *new_,
		      int nnew, int better, double threshold,
		      double display_thr, double alpha, struct nb_judgement *j);

/* Compare two loaded results.  *OUT gets a new comparison object:
 *   { "base", "new", "labels": [ {key, base, new} ], "matched_by",
 *     "rows": [ {target, workload, metric, label, unit, better, base, new,
 *                change_pct, n_base, n_new, test, p, threshold_pct,
 *                verdict, low_confidence, regression} ],
 *     "status": [ {target, workload, base, new, regression} ],
 *     "only_base": [ "t/w" ], "only_new": [ ... ], "regressions": N }
 * Rows are grouped by metric (known metrics in core/metrics.c order, then
 * others by name).  0, or -EINVAL with a message when the two runs have
 * no workload in common. */
int nb_compare(const json_t *base, const char *base_name, const json_t *new_,
	       const char *new_name, struct nb_gate *gate, json_t **out);

/* Wrap comparisons into the top-level document:
 * { "tool": "nasbench", "compare": 1, "max_regress_pct": ..., "alpha": ...,
 *   "regressions": N, "comparisons": [ ... ] } (steals COMPS). */
json_t *nb_compare_doc(json_t *comps, const struct nb_gate *gate);

/* Renderers.  COLOR: ANSI colors in the text table. */
void nb_compare_text(FILE *out, const json_t *doc, int color);
void nb_compare_markdown(FILE *out, const json_t *doc);
void nb_compare_junit(FILE *out, const json_t *doc);
void nb_compare_json(FILE *out, const json_t *doc);

#endif
