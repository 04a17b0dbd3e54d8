/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * planner_result.h - a result file held against the plan: every measured
 * figure the plan has an expectation for, with its share of the ceiling.
 *
 * seq*-read / seq*-write: bw_bytes against the sequential ceilings;
 * seq*-write-sync: against the sync figure (with the SLOG when the result's
 * slog label names one and the plan has --slog); rand*-read / rand*-write:
 * iops; bonnie put_block_kps / get_block_kps (KiB/s) against write/read.
 * A figure above 110% of its ceiling is flagged: the disks cannot give it,
 * so a cache or compression did.  Sync writes are an estimate, not a
 * ceiling (the model is good to a factor of 2): twice the estimate is
 * flagged, as writes that may not be durable.
 */
#ifndef NB_HW_PLANNER_RESULT_H
#define NB_HW_PLANNER_RESULT_H

#include "planner.h"

#include <jansson.h>

#define NB_PLANNER_OVER 1.10
#define NB_PLANNER_OVER_MSG "cached or compressed - check the data set size"
#define NB_PLANNER_SYNC_OVER 2.0
#define NB_PLANNER_SYNC_MSG "faster than the disks commit - are the writes durable?"

/* {"file", "layout", "note", "published", "over": 1.1, "sync_over": 2.0,
 * "figures": [{"target",
 * "workload", "metric", "what", "measured": {value, unit}, "expected":
 * {value, unit} | null, "limit", "share", "flag"}]}.  The plan is the one
 * of the result's layout label when it fits the disks, else PLANS[0]. */
json_t *nb_planner_measured(const struct nb_planner_in *in, const char *path,
			 const json_t *doc, const struct nb_planner_out *plans,
			 int n);

/* The same against a plan file PLAN (nb_planner_load()): the plan's layout
 * of the result's layout label ("raidz" is raidz1), else its first.  NULL
 * only when PLAN has no valid layout. */
json_t *nb_planner_measured_file(const json_t *plan, const char *path,
			      const json_t *doc);

/* PLAN's "measured" becomes those of the N results DOCS (named PATHS):
 * what 'nasbench report --plan' shows. */
void nb_planner_measure_all(json_t *plan, json_t *const *docs,
			 const char *const *paths, size_t n);

#endif
