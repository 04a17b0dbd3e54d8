/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * failure_int.h - what the failure walk's files share (failure.c: the
 * walk and its result; failure_box.c: the box, its commands and its
 * pool).  Not a public header.
 */
#ifndef NB_RUN_FAILURE_INT_H
#define NB_RUN_FAILURE_INT_H

#include <pthread.h>

#include "exec.h"
#include "failure.h"
#include "../core/config.h"
#include "../telemetry/telem.h"
#include "records.h"

/* How long a command may run, and how long the pool may take to show
 * what it did (the command returns when it is done: this is the lag of
 * a reading). */
#define NB_FAILURE_CMD_US (600ULL * 1000000)
#define NB_FAILURE_SHOW_US (60ULL * 1000000)

struct nb_failure {
	struct nb_exec *x;
	const struct nb_failure_cfg *cfg;
	struct nb_telem *tm;             /* the run's source (borrowed) */
	struct nb_telem_watch *watch;
	char pool[64];
	uint64_t t0;                     /* the walk's clock: its start, ns */
	json_t *obj;                     /* the result's "failure" */
	json_t *events, *phases;
	uint64_t phase_t0;
	int ntargets;
	struct nb_target *t;             /* the targets, open for the walk */
	json_t **tj;
	int *open;
	struct nb_records *rec;
	uint64_t records;                /* bytes per target */
	uint64_t cmd_t0;                 /* the last command's start, ns */
	/* a command running on a thread of its own (the replacement
	 * brought in while the workloads run): its state */
	pthread_t cmd_th;
	int cmd_async;                   /* started, not yet joined */
	int cmd_done;                    /* __atomic: it ended (CMD_RC, CMD_ERR) */
	int cmd_rc;
	char cmd_err[700];
	uint64_t rebuild_from;           /* the replace command's start, ns */
	uint64_t started;                /* a reading showed the rebuild, ns */
	int interrupted;
};

/* The walk's clock: ms since its start. */
static inline json_int_t nb_fw_ms(const struct nb_failure *f, uint64_t ns)
{
	return ns > f->t0 ? (json_int_t)((ns - f->t0) / 1000000) : 0;
}

/* failure_box.c */

/* The source, the pool (the one named, or the box's only one), healthy;
 * the watcher started.  0, or -errno said (nothing touched). */
int nb_fb_open(struct nb_failure *f);
/* Run the [box] command CMD for step WHAT ("fail", "replace"): an event
 * in the result.  0, -EINTR, or -EIO with "the WHAT command 'CMD' exited
 * with status N: LAST LINE" set. */
int nb_fb_command(struct nb_failure *f, const char *what, const char *cmd);
/* The same on a thread of its own: nb_fb_rebuild sees its end and its
 * error; nb_fb_join waits for it and returns its status (error set). */
int nb_fb_command_async(struct nb_failure *f, const char *what, const char *cmd);
int nb_fb_join(struct nb_failure *f);
/* Wait until the pool reads degraded after the fail command: its failed
 * devices into the result.  0, -EINTR or -EIO (set). */
int nb_fb_degraded(struct nb_failure *f);
/* Where the rebuild is since the replace command: 0 running (or not seen
 * yet), 1 over with the pool healthy (*END_NS: the reading that said
 * so), -EIO (over with the pool not healthy; not begun in time; past the
 * rebuild limit), set. */
int nb_fb_rebuild(struct nb_failure *f, uint64_t *end_ns);
/* The rebuild's object, from the replace command's start (the replacement
 * brought in: 'zpool replace' returns with the resilver under way) to
 * END_NS (LOAD: under the workloads). */
json_t *nb_fb_rebuild_obj(struct nb_failure *f, uint64_t end_ns, int load);
/* The box's state now ("healthy", "degraded", "rebuilding", "unknown") and
 * the pool's, with the devices not online: the result's "box_left". */
json_t *nb_fb_left(struct nb_failure *f, char *state, size_t len);
/* The pool's error counters now: { read, write, cksum, devices: [...] }. */
json_t *nb_fb_counters(struct nb_failure *f);
/* The latest reading's rebuild percent (-1: none), and whether a
 * rebuild is in progress. */
double nb_fb_pct(struct nb_failure *f, uint64_t since_ns, int *active);
void nb_fb_close(struct nb_failure *f);

#endif
