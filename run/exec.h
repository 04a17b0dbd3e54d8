/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec.h - carry out a plan: every target x workload x iteration, into a
 *          result document.
 *
 * Targets run one after the other.  For each: open it (its runner's ops
 * table), check it has the space the plan needs, then run each workload's
 * iterations.  What happened is in the document: per target its URL
 * (secrets removed), runner and the runner's capabilities, or the error
 * that kept it from opening; per workload an entry with status ok,
 * skipped (the reason: a capability the target lacks, or an earlier
 * failure on it), failed (the error) or interrupted (finished iterations
 * kept).  Errors are printed as they happen ("nasbench: ...").
 */
#ifndef NB_RUN_EXEC_H
#define NB_RUN_EXEC_H

#include <jansson.h>
#include <signal.h>

#include "runplan.h"
#include "telem.h"
#include "../core/progress.h"

struct nb_crash_opts;

struct nb_exec {
	struct nb_runplan *pl;           /* the run learns the box's RAM
					  * into it from an ssh:// monitor */
	const struct nb_config *cfg;     /* its targets, finished */
	json_t *doc;                     /* the result being filled */
	const char *run_id;
	volatile sig_atomic_t *stop;     /* set on SIGINT: stop after the I/O */
	struct nb_progress *progress;
	int no_space_check;
	int exit_code;                   /* the worst so far (enum nb_exit) */
	int trimmed, conditioned;        /* the current target: --trim before
					  * done, --precondition done since */
	struct nb_run_telem telem;       /* the box's telemetry (nb_run's) */
	/* a failure walk (run/failure.h), or NULL, and what it records of
	 * each iteration (nb_failure_iteration); the box state being
	 * measured (enum nb_box_state, core/result.h: 0 healthy outside a
	 * walk) */
	struct nb_failure *walk;
	void (*walk_iteration)(struct nb_failure *f, json_t *extra,
			       uint64_t t0_ns);
	int state_idx;
	uint64_t extra_space;            /* bytes a target needs beyond the
					  * plan's (the walk's records) */
	/* crashcheck's journal and run --verify (workloads/crash/crashrun.h) */
	const struct nb_crash_opts *crash;
	/* the labels nasbench set itself (run/net.c): " paths mtu " */
	char net_labels[96];
	/* the box's MTU of each address the current target reaches, read
	 * once it is open (run/net.c) */
	struct nb_exec_box_mtu {
		char peer[64], iface[64];
		int mtu;
	} box_mtu[NB_MAX_PATHS];
	int nbox_mtu;
	unsigned net_dead_said;          /* paths whose death the result has */
};

/* Run the plan of X (run.c): every target in turn, or, with
 * [failure] rebuild, the box walked through a failed disk
 * (run/failure.h).  Returns X->exit_code: NB_EXIT_OK, NB_EXIT_USAGE (a
 * target or workload misconfigured), NB_EXIT_TARGET (a target or I/O
 * error), NB_EXIT_FAIL (a walk's records lost); an interrupt is the
 * caller's to report (*X->stop is set). */
int nb_run(struct nb_exec *x);

/* Its steps (exec.c): whether a workload of the plan must not run on a
 * target's runner (each said; X->exit_code NB_EXIT_USAGE); every
 * workload's iterations on target TC, opened, then closed. */
int nb_exec_refused(struct nb_exec *x);
void nb_exec_target(struct nb_exec *x, const struct nb_target_cfg *tc);

/* The steps of a target's run, for a walk that keeps its targets open
 * through the box's states (run/failure.c):
 * open target TC into T (its "targets" entry *TJ; the space check, the
 * network baseline): 0, or -errno with the error in the entry and the
 * run's exit status; */
int nb_exec_open(struct nb_exec *x, const struct nb_target_cfg *tc,
		 struct nb_target *t, json_t **tj);
/* close it; */
void nb_exec_close(struct nb_exec *x, struct nb_target *t, json_t *tj);
/* iterations FROM..TO of workload WIDX on T in the current box state (its
 * entry found or made: the state's name in it): 0, -EINTR or -errno (the
 * entry's status says it); */
int nb_exec_workload(struct nb_exec *x, struct nb_target *t, int widx,
		     int from, int to);
/* an error: said, and the run's exit status (NB_EXIT_USAGE for -EINVAL,
 * else NB_EXIT_TARGET); the workloads from FROM on TARGET skipped after
 * one failed. */
void nb_exec_fail(struct nb_exec *x, int rc);
void nb_exec_skip_rest(struct nb_exec *x, const char *target, int from);
/* After the run and its criteria: an entry unmeasured (too few samples,
 * no crash observed; core/samples.h) makes an otherwise clean run exit
 * NB_EXIT_INCONCLUSIVE, said once. */
void nb_exec_unmeasured(struct nb_exec *x);

/* A new result document for a run of CFG: nb_result_new() with the
 * configuration's labels. */
json_t *nb_exec_doc_new(const struct nb_config *cfg, const char *run_id,
			const char *command);

#endif
