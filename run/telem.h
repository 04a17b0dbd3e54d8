/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem.h - the box's telemetry during 'nasbench run': one source for the
 *           run (telemetry/telem.h), a network baseline per target
 *           (run/netbase.h), and each iteration's series, summary
 *           and verdicts into the result.
 *
 * Which targets are watched: [box] monitor = local or ssh://... watches
 * every target; auto (the default) watches a local path target with
 * "local" (the box is this machine) and nothing else; off, none.  The
 * baseline runs when [box] netbase = yes, or on auto when a monitor is
 * set, on targets whose runner has a ping (NFS, iSCSI).
 *
 * What it adds to the result (docs/result.md, docs/telemetry.md):
 *   targets[].network                 the baseline
 *   results[].iterations[].telemetry  series, summary, vdevs, verdicts
 *   results[].iterations[].metrics    box_* figures
 *   results[].box_verdicts            every verdict of the entry
 *   results[].warnings                each verdict's text, and why a
 *                                     source could not be used
 */
#ifndef NB_RUN_TELEM_H
#define NB_RUN_TELEM_H

#include <jansson.h>
#include <signal.h>

#include "../core/config.h"
#include "../core/params.h"
#include "../core/progress.h"
#include "../core/target.h"
#include "../workloads/workload.h"

struct nb_telem;

struct nb_run_telem {
	const struct nb_config *cfg;
	struct nb_telem *tm;     /* the run's source, opened at first use */
	int tried;               /* it was opened (or failed to) */
	char warning[640];       /* why there is none */
	int on;                  /* the current target is watched */
	double ceiling;          /* the current target's, bytes/s (0: none) */
	int local;               /* the current target is a local path */
	double cpu0_user, cpu0_sys, t0;  /* this process at the iteration's start, s */
};

/* A run's telemetry of CFG (nothing opened yet). */
void nb_run_telem_init(struct nb_run_telem *rt, const struct nb_config *cfg);

/* Target T is next (its entry in "targets" is TJ): decide whether it is
 * watched, and take its network baseline when asked for. */
void nb_run_telem_target(struct nb_run_telem *rt, struct nb_target *t,
			 const struct nb_params *p, json_t *tj,
			 const char *run_id, volatile sig_atomic_t *stop,
			 struct nb_progress *progress);

/* The box's RAM as an ssh:// monitor of target T sees it (opening the
 * run's source), or 0: not watched over SSH, or not said. */
uint64_t nb_run_telem_box_ram(struct nb_run_telem *rt, struct nb_target *t);

/* The run's source for MONITOR ("local", "ssh://..."), opened now if it
 * was not (a failure walk reads the pools through it before any target):
 * NULL when the box cannot be watched (RT->warning says why). */
struct nb_telem *nb_run_telem_source(struct nb_run_telem *rt, const char *monitor);

/* Target T (its entry TJ, with the baseline nb_run_telem_target took) is
 * measured again: watched or not, its ceiling and path. */
void nb_run_telem_switch(struct nb_run_telem *rt, const struct nb_target *t,
			 const json_t *tj);

/* An iteration begins / has ended (its figures in METRICS and EXTRA, its
 * workload's entry ENTRY). */
void nb_run_telem_begin(struct nb_run_telem *rt);
void nb_run_telem_end(struct nb_run_telem *rt, const struct nb_workload *w,
		      int iteration, json_t *metrics, json_t *extra,
		      json_t *entry);

void nb_run_telem_close(struct nb_run_telem *rt);

#endif
