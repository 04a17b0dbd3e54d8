/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * failure.h - the failure walk of 'nasbench run' (docs/failure.md): the
 *             box taken through a failed disk and its rebuild, the run's
 *             workloads measured in each state.
 *
 *   healthy     the workloads; then checked records written to each target
 *   degraded    [box] fail-disk ran, the pool reads DEGRADED: the
 *               workloads, the records read back
 *   rebuilding  [box] replace-disk ran, the pool resilvers: the workloads
 *               round after round until the rebuild ends (rebuild = load),
 *               or nothing while it is timed (idle)
 *   rebuilt     the pool is healthy again: the workloads, the records read
 *               back, the pool's error counters
 *   (both)      the disk failed and replaced again, the rebuild timed idle
 *
 * The pool's health and the rebuild's progress are read through the
 * run's telemetry source ('zpool status', /proc/mdstat; telemetry/telem.h)
 * every monitor interval for the whole walk.  Nothing is failed unless
 * the box file names both commands, the run says --fail-disks, the box
 * can be read and its pool is healthy: otherwise the run stops before a
 * target is opened (exit 2, or 3 when the box cannot be read).
 *
 * What it adds to the result: each entry's "state", each iteration's
 * "box_state", "walk_t_ms" (its I/O's start on the walk's clock) and, while
 * rebuilding, "rebuild" { pct_start, pct_end, ended }; and the document's
 * "failure" object (docs/failure.md has its shape).
 */
#ifndef NB_RUN_FAILURE_H
#define NB_RUN_FAILURE_H

#include <jansson.h>
#include <stdint.h>

struct nb_exec;
struct nb_failure;

/* The box states a walk measures, in order, are core/result.h's
 * (enum nb_box_state, nb_box_states: a result entry's "state"). */
const char *nb_state_name(int state);

/* Walk every target of X through the box's states (X->pl->p.rebuild is
 * set).  Errors are said and go to X->exit_code: NB_EXIT_USAGE (no
 * consent, a command or the monitor missing), NB_EXIT_TARGET (the box
 * cannot be read, a command failed, the pool did not change, a rebuild
 * past its limit), NB_EXIT_FAIL (records lost).  An interrupt leaves the
 * box as it is and says in which state. */
void nb_failure_walk(struct nb_exec *x);

/* An iteration begun at T0_NS (monotonic) has ended: its state, start on
 * the walk's clock and the rebuild's progress into EXTRA (the walk sets
 * it as struct nb_exec's walk_iteration). */
void nb_failure_iteration(struct nb_failure *f, json_t *extra, uint64_t t0_ns);

#endif
