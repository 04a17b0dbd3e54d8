/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.h - the decision summary: what the results decide, in the
 * seeds' words with the figure that decides it, before any table.
 *
 * The decisions come first (kind "decision", at most NB_DECIDE_MAX):
 *   one sentence per configuration dimension that mattered (a label that
 *   differs: layout, slog, sync, platform ...; or the target: NFS vs
 *   iSCSI), each clause a figure with its factor, the condition where it
 *   holds and its confidence (decision/decide.c); the dimensions that
 *   decided nothing said once, last; with viability bands, each result
 *   against the first (viable / decide / not viable); a capacity sweep's,
 *   a failure walk's and a replay's answer together ("this box carries
 *   19 VMs like yours at p99 <= 20 ms; with a dead disk 15; today's load
 *   grows into it in 4.4 years")
 * then what a reader must not miss, shortened to what happened and what
 * to do:
 *   accept   a result's acceptance verdict, the failing criteria named
 *   crash    a crash check's losses (results[].crash_verdict)
 *   failure  records lost, a box left broken by a failure walk
 *   steady   a figure that never reached steady state (results[].steady)
 *   warning  what makes a figure doubtful: a cache, compressible data,
 *            swap used, an incomplete run, low confidence (< 3 iterations)
 * then the detail (each line "fold": true): each comparison a decision
 * rests on, per workload and target, with its figures and test (kind
 * "detail"), each figure against the bands ("band"), capacity and failure
 * per entry.
 * Each line is { "kind": K, "level": "info"|"ok"|"warn"|"fail",
 * "text": T }, with "fold": true when it belongs to the detail and
 * "detail": D when T is short for D (the detail shows D).
 */
#ifndef NB_DECISION_SUMMARY_H
#define NB_DECISION_SUMMARY_H

#include <jansson.h>
#include <stdio.h>

/* Decision sentences at most (the dimensions', the bands', the capacity's
 * together): what a reader takes in on the first screen. */
#define NB_DECIDE_MAX 5

struct nb_bands;
/* The lines for NDOCS loaded results (PATHS name them), with the
 * viability bands B (NULL: none): each result after the first against
 * the first.  A new array. */
json_t *nb_summary_new(json_t *const *docs, const char *const *paths,
		       size_t ndocs, const struct nb_bands *b);

/* Whether LABEL describes a box (name, disks, os, ram, ...) rather than
 * poses a question about it. */
int nb_summary_descriptive(const char *label);

/* Append a line to LINES. */
void nb_summary_add(json_t *lines, const char *kind, const char *level,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The headline figure of result entry E: the metric compare's verdict and
 * the report's grid use (nb_metric_headline; a workload named rand* or
 * of pattern rand is random), else its first figure in display order.
 * Thread-local storage for the last; "" when it has none. */
const char *nb_summary_primary(const json_t *e);

/* Append a line of the detail (folded), short TEXT for DETAIL when
 * DETAIL is not NULL. */
void nb_summary_fold(json_t *lines, const char *kind, const char *level,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* LINES in the order a reader takes them: the decisions (those past
 * NB_DECIDE_MAX to the detail), what must not be missed, the detail. */
void nb_summary_order(json_t *lines);

/* Mark the last line of LINES short for DETAIL: the detail shows DETAIL. */
void nb_summary_short(json_t *lines, const char *detail);

/* Renderers.  Text (the end of compare and report on a terminal): the
 * decisions, then the lines not folded, short, their level ("FAIL",
 * "warning") in front; no detail.  Markdown: a "Summary" section, the
 * decisions and the rest as lists, the detail a <details> block; HTML: a
 * <section id="summary">, the same, the level as each item's class. */
void nb_summary_text(FILE *out, const json_t *lines);
void nb_summary_markdown(FILE *out, const json_t *lines);
void nb_summary_html(FILE *out, const json_t *lines);

#endif
