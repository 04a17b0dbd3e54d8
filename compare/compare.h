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
 *   unmeasured        a side's figure lacks the samples to carry it (its
 *                     entry unmeasured, or the metric listed in an
 *                     iteration's "unmeasured": core/samples.h): not
 *                     judged; gated, inconclusive (exit 5), never a pass
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
 * variance and NB_JUDGE_RUN_NOISE), and a change that assumption does
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
#include "../decision/judge.h"

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
 *                    settings: [{key, base, new}], reason, what,
 *                    spread_base_pct, spread_new_pct} ],
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
void nb_compare_junit(FILE *out, const json_t *doc);   /* compare_junit.c */
/* One row in a line: "seq512k-read MB/s: 100 -> 90 (-10.0%, threshold
 * 5%, n 3/3, p 0.010, detects -8%, noise assumed, run-t): worse". */
void nb_compare_row_line(char *buf, size_t len, const json_t *r);
void nb_compare_json(FILE *out, const json_t *doc);

#endif
