/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * failure.h - a failure walk's result read (docs/failure.md): each
 *             workload's figure in every box state beside the healthy one
 *             ("keeps 41% of its healthy IOPS degraded"), the rebuild's
 *             time, the records read back, the state the box was left in.
 *
 * Read by the run's table (text.c), compare (two walks side by side),
 * report (its "Under failure" section) and accept (degraded_keeps,
 * max_rebuild_time).
 */
#ifndef NB_FORMATS_FAILURE_H
#define NB_FORMATS_FAILURE_H

#include <jansson.h>
#include <stdio.h>

#include "../core/result.h"

#define NB_FAILURE_MAXROWS 128

struct nb_failure_row {
	char target[64], workload[64];
	const char *metric;               /* the primary figure, stored name */
	double v[NB_BOX_STATES];          /* its median per state (NAN: none) */
	double p99[NB_BOX_STATES];        /* lat_p99_us's median (NAN: none) */
};

/* The rows of DOC's walk, a row per target x workload measured in a
 * state, in the result's order, at most MAX: their count (0: no walk). */
int nb_failure_rows(const json_t *doc, struct nb_failure_row *rows, int max);

/* The share of the healthy figure R keeps in STATE (0.41 is 41%): for a
 * figure where lower is better, healthy / state.  NAN when either is
 * missing or 0. */
double nb_failure_keeps(const struct nb_failure_row *r, int state);

/* The rebuild's seconds of DOC's walk: under the workloads' load (IDLE
 * 0; the idle one when the walk had no load) or idle (IDLE 1); NAN when
 * it was not timed. */
double nb_failure_rebuild_s(const json_t *doc, int idle);

/* Records written before the failure that did not read back intact
 * (the worst target), -1 when none were checked. */
long long nb_failure_records_lost(const json_t *doc);

/* Lines for a person under the run's table: the pool and its failed
 * disk, the rebuild, the records, the counters, each workload's figure
 * per state with what it keeps, the state the box was left in. */
void nb_failure_print(FILE *out, const json_t *doc);

/* The same as JSON: { name (the layout label, or ""), pool, rebuild_s, rebuild_load, rebuild_idle_s,
 * records_lost, box_left, rows: [ { target, workload, metric, label,
 * healthy, degraded, rebuilding, rebuilt, keeps: { degraded, rebuilding,
 * rebuilt } } ] }, or NULL without a walk. */
json_t *nb_failure_summary(const json_t *doc);

/* Two walks side by side (compare), from their summaries SA and SB: a
 * line per workload both measured, "rand4k-read on lab-nfs (IOPS): raidz1
 * keeps 41% degraded, raid10 83%; rebuilding 30% and 70%", and the
 * rebuild times.  Each is named by its summary's "name" (the layout
 * label), else AN and BN.  MARKDOWN: a list.  Nothing when either is
 * NULL. */
void nb_failure_versus(FILE *out, const json_t *sa, const char *an,
		       const json_t *sb, const char *bn, int markdown);

#endif
