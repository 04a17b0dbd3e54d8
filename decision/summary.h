/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.h - the decision summary: what the results answer, in plain
 * words with the figure that decides it, before any table.
 *
 * One line per question the inputs can answer:
 *   winner   which value of a label that differs between the results
 *            (layout, slog, sync, platform, ...) or which target (NFS vs
 *            iSCSI) wins each workload, and by how much: the time factor
 *            of the runner-up (decision/bands.h), the two medians; over
 *            several comparisons (the other labels held equal) the range
 *   change   two results and nothing else differs: before -> after
 *   accept   a result's acceptance verdict, the failing criteria named
 *   capacity the load a capacity sweep reached at its objective
 *   crash    a crash check's losses (results[].crash_verdict)
 *   steady   a figure that never reached steady state (results[].steady)
 *   warning  what makes a figure doubtful: a cache, compressible data,
 *            swap used, an incomplete run, low confidence (< 3 iterations)
 * Each line is { "kind": K, "level": "info"|"ok"|"warn"|"fail",
 * "text": T }, in that order of kinds.
 */
#ifndef NB_DECISION_SUMMARY_H
#define NB_DECISION_SUMMARY_H

#include <jansson.h>
#include <stdio.h>

/* The lines for NDOCS loaded results (PATHS name them).  A new array. */
json_t *nb_summary_new(json_t *const *docs, const char *const *paths,
		       size_t ndocs);

struct nb_bands;
/* summary_bands.c: the viability bands B, each result after the first
 * against the first: a line per judged figure (the headline figure and
 * each phase's throughput) and one per result overall, kind "band". */
void nb_summary_bands(json_t *lines, json_t *const *docs, const char *const *paths,
		      size_t ndocs, const struct nb_bands *b);

/* Append a line to LINES. */
void nb_summary_add(json_t *lines, const char *kind, const char *level,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The headline figure of result entry E: the metric compare's verdict and
 * the report's grid use (nb_metric_headline; a workload named rand* or
 * of pattern rand is random), else its first figure in display order.
 * Thread-local storage for the last; "" when it has none. */
const char *nb_summary_primary(const json_t *e);

/* Plain words for what entry E measures: "sync writes", "sequential
 * reads", "random writes", "sync write latency", or the workload name. */
const char *nb_summary_family(const json_t *e);

/* Renderers: a "Summary" block of the lines.  Text: one line each with
 * its level ("FAIL", "warning") in front; Markdown: a list; HTML: a
 * <section id="summary"> with a list, the level as each item's class. */
void nb_summary_text(FILE *out, const json_t *lines);
void nb_summary_markdown(FILE *out, const json_t *lines);
void nb_summary_html(FILE *out, const json_t *lines);

#endif
