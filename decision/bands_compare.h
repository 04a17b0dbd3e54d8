/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bands_compare.h - the viability bands (bands.h) on a comparison:
 * 'nasbench compare --bands 10%,2x' or a gate file's [bands].
 *
 * On the document of nb_compare_doc(), each judged row (a workload's
 * verdict metric, and the throughput of its phases: nb_bands_judged; or
 * a metric a [bands] rule names) of "verdicts" and "rows" gets
 *   "band": { "verdict": "viable"|"decide"|"not viable",
 *             "time": 1.58, "bands": "10%,2x" }
 * each comparison
 *   "bands": { "verdict": ..., "viable": N, "decide": N, "not_viable": N }
 * (the worst of its workloads), and the document
 *   "bands": { "verdict": ..., "exit": 0|1|4 }
 * (the worst of the comparisons; exit: viable 0, not viable 1, decide 4).
 * A row whose settings differ or whose figure is missing gets no band:
 * compare's own verdict (changed-settings, missing) stands for it.
 */
#ifndef NB_DECISION_BANDS_COMPARE_H
#define NB_DECISION_BANDS_COMPARE_H

#include <jansson.h>

#include "bands.h"

/* Add the band verdicts under SET to DOC; the overall verdict
 * (NB_BAND_NONE when nothing was judged). */
enum nb_band nb_bands_compare(json_t *doc, struct nb_bands_set *set);

/* The enum of a verdict word ("decide"), NB_BAND_NONE for others. */
enum nb_band nb_bands_from_word(const char *w);

#endif
