/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runplan.h - the run plan: workloads x iterations with their knobs.
 *
 * The plan comes from the config (the box file with the command line's
 * overrides applied): --workload names, else [suite] workloads, else the
 * suite's, else the default four; the suite's knobs apply where the user
 * set none; iterations from [suite] (or -i), else the suite's, else the
 * knob's default, where a suite item NAME*N does not say otherwise.
 */
#ifndef NB_RUN_RUNPLAN_H
#define NB_RUN_RUNPLAN_H

#include <jansson.h>
#include <stdio.h>

#include "../core/config.h"
#include "../workloads/workload.h"

#define NB_RUNPLAN_MAX 64

/* The workloads a run with no suite and no --workload runs. */
#define NB_RUNPLAN_DEFAULT "seq512k-write,seq512k-read,rand4k-write,rand4k-read"

struct nb_runplan {
	const struct nb_workload *wl[NB_RUNPLAN_MAX];
	int iters[NB_RUNPLAN_MAX];  /* NAME*N in a suite; 0: iterations */
	int nwl;
	int iterations;
	const struct nb_suite *suite;    /* the named suite, or NULL */
	const char *why;                 /* where the workload list came from */
	struct nb_params p;
};

/* Make PL from CFG.  WORKLOADS (may be NULL or "") is the command line's
 * --workload list.  EXTRA (N names) join a plan of suite 'accept' made
 * without --workload, where it lacks them: the workloads its criteria
 * name.  0, or -EINVAL with the detail set (an unknown suite or
 * workload). */
int nb_runplan_make(struct nb_runplan *pl, const struct nb_config *cfg,
		 const char *workloads, const char *const *extra, int n);

/* Iterations of the plan's workload W. */
int nb_runplan_iters(const struct nb_runplan *pl, int w);

/* Bytes of target space the plan needs: its largest workload's. */
uint64_t nb_runplan_space(const struct nb_runplan *pl);

/* The plan as --dry-run prints it: targets, then per workload the
 * iterations, space, writes and a rough time. */
/* The plan's first line: targets x workloads x iterations, and where the
 * workload list came from (a suite, --workload, or the default). */
void nb_runplan_headline(FILE *out, const struct nb_runplan *pl,
		      const struct nb_config *cfg);
void nb_runplan_print(FILE *out, const struct nb_runplan *pl,
		   const struct nb_config *cfg);

/* The plan as 'run --dry-run --json' prints it: { "source", "suite",
 * "iterations", "size_bytes", "targets": [{ name, url (redacted),
 * scheme }], "workloads": [{ name, iterations, space_bytes, written_bytes,
 * seconds }], "per_target": { space_bytes, written_bytes, seconds },
 * "total": { written_bytes, seconds }, "assumed": { bw_bytes,
 * xz_bw_bytes } } - bytes and seconds as numbers, estimates rough. */
json_t *nb_runplan_json(const struct nb_runplan *pl, const struct nb_config *cfg);

#endif
