/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio_driver_remote.h - engine = fio and --clients on nfs:// and iscsi://
 *                       targets, through fio's nfs (libnfs) and libiscsi
 *                       engines: no mount, no kernel initiator.
 *
 * nasbench prepares the data (and passes the data-loss guard) through its
 * own runner, as for its own engine, in its scratch directory on the
 * export (nasbench.<run-id>/data) or on the LUN's window; fio, on this
 * machine or on every fio server, then reaches the same file or window
 * itself.  Every client of a --clients run drives that one file or LUN.
 *
 * Durability: fio's nfs engine has no flush (end_fsync=1 fails with
 * "nfs: unhandled io 3") and opens without O_SYNC: its writes are
 * UNSTABLE and never COMMITted, which the iteration says ("fio":
 * { "durable": false }) and a warning repeats.  The libiscsi engine sends
 * SYNCHRONIZE CACHE (end_fsync=1) but no FUA: sync = always runs as sync
 * = end, with a warning.
 */
#ifndef NB_FIO_DRIVER_REMOTE_H
#define NB_FIO_DRIVER_REMOTE_H

#include "../workload.h"
#include "../../fio/job.h"

/* Where fio finds the data of an nfs:// or iscsi:// target. */
struct nb_wl_fio_where {
	const char *engine;      /* "nfs" or "libiscsi" */
	char url[2100];          /* nfs: nfs_url=; iscsi: the LUN */
	char path[1400];         /* nfs: filename= relative to the export */
	char initiator[128];     /* iscsi: the initiator name of this job */
	uint64_t base;           /* iscsi: the window's offset */
	int durable;             /* writes reach stable storage as asked */
	/* a target of several paths (fio_driver_paths.h): each path's url
	 * and name; 0 with one */
	int npaths;
	char purl[NB_MAX_PATHS][1100];
	char pname[NB_MAX_PATHS][96];
	char pinit[NB_MAX_PATHS][128];
};

/* Whether target T is reached by one of fio's remote engines. */
int nb_wl_fio_is_remote(const struct nb_target *t);

/* Prepare the data file for S through the native runner (reads get data
 * nasbench wrote; the data-loss guard), and find where fio reaches it:
 * W.  Warns (once per workload) where fio's engine cannot do the sync
 * mode S asks.  0 or -errno. */
int nb_wl_fio_remote_prepare(struct nb_wl_ctx *c, const struct nb_iospec *s,
			     struct nb_wl_fio_where *w);

/* Point JOB at W for client CLIENT (1..n; 0 for fio on this machine): the
 * ioengine, filename=, nfs_url= or initiator=, the offset; on a target
 * of several paths client K at path K (round robin).  W must live as long
 * as JOB. */
void nb_wl_fio_remote_job(struct nb_wl_fio_where *w, int client,
			  struct nb_fio_job *job);

#endif
