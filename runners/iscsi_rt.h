/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iscsi_rt.h - inside the iSCSI runner: its state and the calls its files
 *              share (runners/iscsi.c: session, data path and ops table;
 *              runners/iscsi_unmap.c: UNMAP for --trim).
 */
#ifndef NB_RUNNER_ISCSI_RT_H
#define NB_RUNNER_ISCSI_RT_H

#include "runner.h"

#include <stdint.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#define INITIATOR "iqn.2026-11.org.nasbench:initiator"
#define NREQ (NB_MAX_QD + 2)
#define SERVICE_MS 100          /* run libiscsi's timeout scan this often */

/* One SCSI command in flight. */
struct req {
	struct iscsi *p;
	struct nb_io *io;
	struct scsi_iovec iov;   /* must live until the task completes */
	struct req *next_free;
};

struct iscsi {
	struct nb_target *t;
	struct iscsi_context *ctx;
	char portal[300];
	char iqn[256];
	int lun;
	char password[256];      /* for scrubbing library messages only */
	int logged_in;
	int lost;                /* the session is gone: everything fails */
	char lost_why[768];
	int guard_ok;
	uint64_t lun_bytes;      /* the whole LUN */
	int inflight;
	struct req reqs[NREQ];
	struct req *free_reqs;
	struct nb_io *done[NREQ];
	int ndone;
};

struct nb_file {
	struct nb_target *t;
	uint64_t base;           /* bytes: the window's start on the LUN */
	unsigned flags;
};

/* iscsi_task.c: E with any password replaced by "***", into BUF;
 * libiscsi's last error, so; the target's timeout in ms. */
const char *nb_iscsi_scrub(const struct iscsi *p, const char *e, char *buf,
			   size_t len);
const char *nb_iscsi_lib_error(struct iscsi *p, char *buf, size_t len);
uint64_t nb_iscsi_timeout_ms(const struct nb_target *t);

/* Poll the session once for up to US microseconds and service it.  0, or
 * -EIO when the socket failed (the session is then lost). */
int nb_iscsi_service_once(struct iscsi *p, int64_t us);

/* A set-up command's completion: what nb_iscsi_wait_cb() fills in. */
struct wait {
	int done;
	int status;
	struct scsi_task *task;
};

void nb_iscsi_wait_cb(struct iscsi_context *ctx, int status, void *data,
		      void *priv);
/* Service the session until W is done or MS pass: 0, -ETIMEDOUT, -EIO. */
int nb_iscsi_wait_for(struct iscsi *p, struct wait *w, uint64_t ms);
/* A CHECK CONDITION's sense key as -errno (-EROFS, -EAGAIN, -EINVAL,
 * -EIO). */
int nb_iscsi_sense_errno(const struct scsi_task *task);

/* Run one set-up command started by STARTED (a libiscsi *_task call) and
 * wait for it (the target's timeout).  0 with *TASK the finished task (free
 * it), or -errno with the detail set: a CHECK CONDITION's sense key maps to
 * -EROFS (data protection), -EAGAIN (not ready), -EINVAL (illegal request)
 * or -EIO, named "target 'T': WHAT failed: SENSE". */
int nb_iscsi_run_task(struct iscsi *p, struct scsi_task *started,
		      struct wait *w, const char *what, struct scsi_task **task);

/* iscsi_lun.c, at open: the LUN exists and is a disk (0 or -ENXIO), its
 * size and block size, the window on it (t->capacity), its write cache
 * (t->write_cache; unknown when it does not say). */
int nb_iscsi_check_lun(struct nb_target *t, struct iscsi *p);
int nb_iscsi_read_capacity(struct nb_target *t, struct iscsi *p, uint64_t *cap);
int nb_iscsi_set_window(struct nb_target *t, uint64_t cap);
void nb_iscsi_write_cache(struct nb_target *t, struct iscsi *p);

/* iscsi_ident.c, ops->ident: the LU's designators (VPD page 0x83), else
 * its serial number: "naa.6001... naa.3000..." or "serial.beaf11". */
int nb_iscsi_ident(struct nb_target *t, char *id, size_t len);

/* ops->discard: UNMAP the LEN bytes at OFF of the window of F. */
int nb_iscsi_discard(struct nb_file *f, uint64_t off, uint64_t len,
		     const char **how);

#endif
