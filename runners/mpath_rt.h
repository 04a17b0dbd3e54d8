/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpath_rt.h - inside the multipath runner: one LUN or export reached
 *              through several paths, each a target of the URL's own
 *              runner (runners/mpath.c: open, close, files, metadata and
 *              the ops tables; runners/mpath_io.c: the data path, the
 *              policy and the failover).
 */
#ifndef NB_RUNNER_MPATH_RT_H
#define NB_RUNNER_MPATH_RT_H

#include "runner.h"

#include <stdint.h>

#define MP_NREQ (NB_MAX_QD + 2)
#define MP_TICK_US 100000        /* every path's reap at least this often:
				  * its library's timeouts fire there */

enum mp_policy { MP_RR = 0, MP_FIXED = 1, MP_LEAST = 2 };

/* One I/O of the engine's, on one path: the path's runner sees SUB. */
struct mp_req {
	struct nb_io sub;
	struct nb_io *io;        /* the engine's (NULL: free) */
	int path;
	struct mp_req *next_free;
};

struct mpath {
	struct nb_target *t;
	const struct nb_runner_ops *ops;   /* the URL's runner */
	int n;
	struct nb_target sub[NB_MAX_PATHS];
	struct nb_target_cfg cfg[NB_MAX_PATHS];
	int inflight[NB_MAX_PATHS];
	uint64_t serviced_ns[NB_MAX_PATHS];
	struct nb_paths paths;
	int policy;              /* enum mp_policy */
	unsigned rr_n, rr_count;
	int cur;                 /* rr, fixed: the path in use */
	struct mp_req reqs[MP_NREQ];
	struct mp_req *free_reqs;
	int ninflight;
	struct nb_io *done[MP_NREQ];
	int done_path[MP_NREQ];
	int ndone;
	uint64_t last_done_ns;   /* the last completion, any path */
	int gap_path;            /* a path died: its failover is measured
				  * at the next completion (-1: none) */
	uint64_t gap_from;
};

struct nb_file {
	struct nb_target *t;
	unsigned flags;
	struct nb_file *sub[NB_MAX_PATHS];
};

static inline struct mpath *MP(struct nb_target *t)
{
	return t->priv;
}

static inline int mp_alive(const struct mpath *m, int i)
{
	return m->paths.p[i].state != NB_PATH_DEAD;
}

/* mpath.c: the first path alive (-1: none). */
int nb_mpath_first(const struct mpath *m);
/* Path I is lost (RC, the detail set by its runner): dead from now on,
 * with why; the states of the others follow the policy. */
void nb_mpath_kill(struct mpath *m, int i, int rc);
/* -EIO: every path is dead, naming each and why. */
int nb_mpath_all_dead(struct mpath *m);

/* mpath_io.c: the policy of TEXT ("rr:N", "fixed", "least-io"), 0 or
 * -EINVAL; the ops' data path. */
int nb_mpath_policy(const char *text, int *policy, unsigned *rr_n);
/* Path I is lost (RC): dead, and its I/O in flight reissued on the paths
 * alive.  0, or -errno (detail set) when no path takes it. */
int nb_mpath_fail(struct mpath *m, int i, int rc);
void nb_mpath_states(struct mpath *m);
int nb_mpath_submit(struct nb_target *t, struct nb_io *io);
int nb_mpath_reap(struct nb_target *t, struct nb_io **done, int max,
		  int timeout_us);

#endif
