/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job.h - fio job files: nasbench's I/O spec (engine/engine.h) as the job
 *         fio runs.
 *
 * fio is nasbench's second engine (engine = fio, --cross-check) and its
 * way to many clients (--clients, fio's client/server mode); the glue that
 * turns fio's output into a workload's figures is workloads/fio_driver*.c.
 *
 * Debian's fio 3.33 has no nfs or libiscsi engine: fio reaches local files
 * and block devices (and what is mounted on the client hosts) only.
 */
#ifndef NB_FIO_JOB_H
#define NB_FIO_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/engine.h"

/* What one fio job does. */
struct nb_fio_job {
	struct nb_iospec s;
	const char *filename;    /* path on the host fio runs on */
	uint64_t offset;         /* window start on a file or device */
	const char *ioengine;    /* "io_uring" (default), "libaio", "psync" */
	int unlink;              /* remove the file when done (client runs) */
	/* ioengine "nfs" (fio's libnfs engine): the export, nfs://host/export
	 * (filename is then relative to it); "libiscsi": filename is the
	 * LUN's iscsi://host:port/iqn/lun, initiator the name to log in with
	 * (NULL: fio's).  Neither is an --ioengine a user picks: nasbench
	 * chooses them for nfs:// and iscsi:// targets (fio/engines.h). */
	const char *nfs_url;
	const char *initiator;
	/* a bandwidth log with wall-clock times, to tell when the job ran
	 * (fio/overlap.h): its prefix on the machine fio is started on, or
	 * NULL for none */
	const char *span_log;
	const char *comment;     /* first line, after "; " (may be NULL) */
};

/* Write J as a fio job file into BUF.  Returns its length, or -ENOSPC /
 * -EINVAL (with the detail set) when it does not fit or J is invalid. */
int nb_fio_jobfile(const struct nb_fio_job *j, char *buf, size_t len);

/* 0 when NAME is an ioengine nasbench drives (libaio, io_uring, psync),
 * else -EINVAL with the detail set. */
int nb_fio_ioengine_check(const char *name);

/* Whether a target with URL scheme SCHEME can be driven by fio: 0, or
 * -EINVAL with "target 'NAME': WHY needs a local file ..." set. */
int nb_fio_check_scheme(const char *target, const char *scheme,
			const char *why);

#endif
