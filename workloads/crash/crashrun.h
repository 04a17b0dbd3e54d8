/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crashrun.h - what 'nasbench run' sets up for crashcheck
 *              (crashcheck.h): where its journal goes, and a run of
 *              --verify.
 */
#ifndef NB_CRASHRUN_H
#define NB_CRASHRUN_H

#include <jansson.h>

#include "../../core/config.h"

struct nb_crash_opts {
	const char *verify;      /* --verify JOURNAL */
	const char *journal;     /* --journal FILE */
	char target[1200];       /* --verify without --target: the journal's */
	char run_id[64];         /* --verify: the run that wrote the journal */
	char url[1100];          /* --verify: its target's URL (redacted) */
	/* nb_crash_targets(): where the journal goes, or is read from */
	char path[1024];
	int each;                /* several targets: one journal each, the
	                          * target's name before the extension */
};

/*
 * Before the targets are chosen.  With --verify: crashcheck alone, once,
 * reading the journal (WORKLOADS, the command line's --workload, must be
 * empty); with no --target (*NTARGETS 0) the journal's is added to
 * TARGETS (R->target): a configured target of its name, else "NAME=URL"
 * with the URL it recorded.
 * The target itself is matched against the journal once open
 * (nb_crash_journal_match), before anything is read.  0 or -EINVAL.
 */
int nb_crash_setup(struct nb_crash_opts *r, struct nb_config *cfg,
		       const char *workloads, char **targets, int *ntargets);

/* Once the targets are chosen: the journal's path (--journal, else beside
 * the result OUTPUT, "x.json" -> "x.journal", else
 * nasbench-RUN_ID.journal; with several targets one each, "x.NAME.journal")
 * and, with --verify, every target on the
 * scratch directory of an earlier run (run_id: R->run_id, the caller's).
 * 0, or with --verify -EINVAL when the target's URL is not the journal's
 * (nothing is opened: the size is checked once it is). */
int nb_crash_targets(struct nb_crash_opts *r, struct nb_config *cfg,
			 const char *output, const char *run_id);

/* Where syncprobe and crashcheck both ran on a target of result DOC, the
 * timing verdict and the crash verdict side by side: DOC's "durability",
 * [ { target, syncprobe (its verdict class), syncprobe_durable (its
 * timing was consistent with durable media, or the box declared plp),
 * crash (the crash verdict's summary), crash_lost, crash_proven, agree } ]
 * (agree: a crash was observed or a write lost, and the probe found the
 * sync writes consistent with durable media exactly when no crash lost a
 * promised one).  A crash observed that lost nothing promised is the
 * evidence timing is not: the probe's commit-cost-seen iterations become
 * durable (metrics.durable 1, "durable_evidence"). */
void nb_crash_durability(json_t *doc);

#endif
