/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result.h - the result document: one JSON object per run.
 *
 *   { "schema": 1, "tool": "nasbench", "version": "...",
 *     "libs": { "libnfs": "4.0.0", ... },
 *     "run_id": "...", "started": "<ISO 8601 UTC>", "finished": "...",
 *     "complete": true, "command": "nasbench run ...",
 *     "labels": { "name": "n40l", "layout": "raidz1", ... },
 *     "client": { <hardware inventory> }, "box": { ... },
 *     "targets": [ { "name": "nas", "url": "nfs://...", "runner": "nfs" } ],
 *     "results": [ {
 *        "target": "nas", "workload": "seq512k-read",
 *        "status": "ok" | "unmeasured" | "skipped" | "failed" |
 *                  "interrupted",
 *        "reason": "...",                      (not ok)
 *        "spec": { ... },                      (what ran)
 *        "warnings": [ "..." ],
 *        "iterations": [ { "metrics": { "bw_bytes": ..., ... }, ... } ],
 *        "summary": { "bw_bytes": { "n": 3, "median": ..., "mean": ...,
 *                                   "min": ..., "max": ..., "stddev": ... } }
 *     } ] }
 *
 * docs/result.md names every key a result can hold, its unit and meaning
 * (tests/integration/test_result_doc.sh holds it to real results).  The
 * module builds, finishes, writes and loads such documents; it never
 * formats for people (formats/, compare/, report/ ... do).
 */
#ifndef NB_RESULT_H
#define NB_RESULT_H

#include <jansson.h>

#include "atomic_file.h"

#define NB_RESULT_SCHEMA 1

json_t *nb_result_new(const char *run_id, const char *command);

/* A new run id: "20261130T004501Z-3fa2", or with TAG "...Z-TAG-3fa2". */
void nb_result_run_id(char *buf, size_t len, const char *tag);
/* The document's "command": "nasbench ARGV...", passwords in URLs hidden. */
void nb_result_command(char *buf, size_t len, int argc, char **argv);

/* Add a workload entry (status "ok", no iterations yet); borrowed reference. */
json_t *nb_result_add(json_t *doc, const char *target, const char *workload);
void nb_result_set_status(json_t *wl, const char *status, const char *reason);
/* Append a warning once (the same text twice is kept once). */
void nb_result_warn(json_t *wl, const char *text);
/* Append one iteration; steals METRICS and EXTRA (EXTRA may be NULL). */
void nb_result_iteration(json_t *wl, json_t *metrics, json_t *extra);

/* The entries of DOC whose status is STATUS. */
int nb_result_count_status(const json_t *doc, const char *status);

/* Compute every summary, stamp "finished" and "complete". */
void nb_result_finish(json_t *doc, int complete);

/* A result file, as an output (core/atomic_file.h): an existing file is
 * replaced only when it is a nasbench result (its first bytes are a JSON
 * object with "schema" and "tool": "nasbench"). */
extern const struct nb_out_kind nb_result_out;

/* Serialise and write atomically; PATH may hold a result (nb_result_out)
 * and nothing else.  0 or -errno (-EEXIST: PATH holds another file). */
int nb_result_write(const json_t *doc, const char *path);
char *nb_result_dump(const json_t *doc);

/* Load and check a result file ("-": standard input): JSON, the
 * "nasbench" tool, a schema this version reads, a results array, and
 * the shape its readers rely on (nb_result_check()).  0, or
 * -EINVAL/-errno with "'PATH': why" set. */
int nb_result_load(const char *path, json_t **doc);

/* DOC's shape, read from FILE (result_check.c): every key a reader takes
 * as a string, object, array or number is one where it is there (labels'
 * values, names, warnings, iterations, metrics, summaries, telemetry's
 * series).  0, or -EINVAL with "'FILE' is not a nasbench result:
 * results[0].warnings[1] is a number, not a string" set. */
int nb_result_check(const json_t *doc, const char *file);

/* The string member K of O, or "" (never NULL). */
const char *nb_jstr(const json_t *o, const char *k);

/* The last iteration of result entry WL, or NULL when it has none. */
const json_t *nb_result_last(const json_t *wl);

/* The box states of a failure walk, in its order (docs/failure.md): an
 * entry's "state", an iteration's "box_state". */
enum nb_box_state {
	NB_STATE_HEALTHY,
	NB_STATE_DEGRADED,
	NB_STATE_REBUILDING,
	NB_STATE_REBUILT,
	NB_STATE_N,
};
#define NB_BOX_STATES NB_STATE_N
extern const char *const nb_box_states[NB_BOX_STATES];
/* The index of STATE in nb_box_states, -1 when it is none of them. */
int nb_box_state(const char *state);

/* The entry for TARGET/WORKLOAD, or NULL.  In a failure walk's result
 * (docs/failure.md) an entry also has a "state" (healthy, degraded,
 * rebuilding, rebuilt): this finds the healthy one. */
json_t *nb_result_find(const json_t *doc, const char *target,
		       const char *workload);
/* The entry for TARGET/WORKLOAD in box state STATE ("degraded"); NULL or
 * "": an entry of no state, or the healthy one. */
json_t *nb_result_find_state(const json_t *doc, const char *target,
			     const char *workload, const char *state);
/* A summary statistic ("median", ...) of METRIC in entry WL; 0 or -ENOENT. */
int nb_result_stat(const json_t *wl, const char *metric, const char *stat,
		   double *out);
/* All iteration values of METRIC in WL into V (up to MAX); returns count. */
int nb_result_values(const json_t *wl, const char *metric, double *v, int max);

/* The keys of an entry's "spec" that make two runs the same load: a
 * comparison says they changed, the history pools no baseline across
 * them (NULL-terminated; the data and the hot spot too, docs/data.md). */
extern const char *const nb_result_settings[];

/* ISO 8601 UTC now, "2026-11-29T20:55:00Z". */
void nb_iso_now(char *buf, size_t len);

#endif
