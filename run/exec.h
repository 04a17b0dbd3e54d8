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
	struct nb_run_telem telem;       /* the box's telemetry (nb_exec_run's) */
};

/* Run every target of X.  Returns X->exit_code: NB_EXIT_OK, NB_EXIT_USAGE
 * (a target or workload misconfigured), NB_EXIT_TARGET (a target or I/O
 * error); an interrupt is the caller's to report (*X->stop is set). */
int nb_exec_run(struct nb_exec *x);

/* A new result document for a run of CFG: nb_result_new() with the
 * configuration's labels. */
json_t *nb_exec_doc_new(const struct nb_config *cfg, const char *run_id,
			const char *command);

#endif
