/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iscsi.c - a LUN through libiscsi's userspace initiator (no kernel iSCSI).
 *
 *   iscsi://[user[%password]@]host[:port]/iqn/lun
 *
 * CHAP credentials come from the URL or from LIBISCSI_CHAP_USERNAME /
 * LIBISCSI_CHAP_PASSWORD.  The LUN (or the window offset/size on it) is one
 * block address space.  I/O is READ(16)/WRITE(16) with real queue depth:
 * libiscsi is an event loop, so submit() queues a task and reap() polls the
 * socket and services it.  Every request is bounded by the target's timeout
 * (iscsi_set_timeout) and a lost session is never reconnected behind the
 * user's back: the run fails with exit status 3 instead.
 *
 * Writes pass the data-loss guard first (core/guard.c); NB_F_SYNC sets FUA on
 * every write and flush() is SYNCHRONIZE CACHE.  Open reads the LUN's write
 * cache (MODE SENSE caching page) and keeps the UNIT ATTENTION of the login
 * (t->write_cache, t->login_ua): a write's promise (durable with FUA or
 * without a write cache, else cached) and crashcheck's evidence of a
 * restart (docs/crashcheck.md).
 */
#include "iscsi.h"
#include "iscsi_rt.h"
#include "netsock.h"
#include "runner.h"
#include "../core/err.h"
#include "../core/knobs.h"
#include "../core/guard.h"
#include "../core/clock.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

static struct iscsi *P(struct nb_target *t)
{
	return t->priv;
}

/* libiscsi overwrites a socket error with "Can not reconnect right now"
 * before the connect callback runs; its log keeps the first one.  The log
 * callback has no context pointer: one target per thread (runner.h). */
static __thread char first_error[256];

static void log_cb(int level, const char *msg)
{
	char *tag;

	if (level > 1 || first_error[0] || strstr(msg, "reconnect"))
		return;
	snprintf(first_error, sizeof(first_error), "%s", msg);
	tag = strrchr(first_error, '[');     /* " [iqn...]" added by the log */
	if (tag && tag > first_error && tag[-1] == ' ')
		tag[-1] = '\0';
}

/* ---- open ---- */

static int parse_path(struct nb_target *t, struct iscsi *p)
{
	const char *path = t->cfg->u.path + 1;   /* past the leading '/' */
	const char *slash = strrchr(path, '/');
	char *end;
	long lun;

	if (!slash || slash == path || !slash[1])
		return nb_err(-EINVAL, "target '%s': '%s' needs a target name and "
			      "a LUN: iscsi://host[:port]/IQN/LUN", t->cfg->name,
			      t->desc);
	if ((size_t)(slash - path) >= sizeof(p->iqn))
		return nb_err(-EINVAL, "target '%s': target name too long",
			      t->cfg->name);
	memcpy(p->iqn, path, (size_t)(slash - path));
	p->iqn[slash - path] = '\0';
	errno = 0;
	lun = strtol(slash + 1, &end, 10);
	if (errno || *end || end == slash + 1 || lun < 0 || lun > 16383)
		return nb_err(-EINVAL, "target '%s': LUN '%s' is not a number from "
			      "0 to 16383", t->cfg->name, slash + 1);
	p->lun = (int)lun;
	if (strchr(t->cfg->u.host, ':'))
		snprintf(p->portal, sizeof(p->portal), "[%s]:%d", t->cfg->u.host,
			 t->cfg->u.port ? t->cfg->u.port : 3260);
	else
		snprintf(p->portal, sizeof(p->portal), "%s:%d", t->cfg->u.host,
			 t->cfg->u.port ? t->cfg->u.port : 3260);
	return 0;
}

static int set_chap(struct nb_target *t, struct iscsi *p)
{
	const char *user = t->cfg->u.user, *pass = t->cfg->u.password;

	if (!*user) {
		user = getenv("LIBISCSI_CHAP_USERNAME");
		pass = getenv("LIBISCSI_CHAP_PASSWORD");
	} else if (!*pass) {
		pass = getenv("LIBISCSI_CHAP_PASSWORD");
	}
	if (!user || !*user)
		return 0;
	if (!pass || !*pass)
		return nb_err(-EINVAL, "target '%s': CHAP user '%s' has no password: "
			      "put it in the URL (user%%password@host) or in "
			      "LIBISCSI_CHAP_PASSWORD", t->cfg->name, user);
	snprintf(p->password, sizeof(p->password), "%s", pass);
	if (iscsi_set_initiator_username_pwd(p->ctx, user, pass))
		return nb_err(-ENOMEM, "target '%s': cannot set CHAP credentials",
			      t->cfg->name);
	return 0;
}

/* Why the connection or the login failed, as the errno and message the
 * rest of nasbench knows. */
static int login_error(struct nb_target *t, struct iscsi *p)
{
	char e[512];

	nb_iscsi_lib_error(p, e, sizeof(e));
	if (strstr(e, "timed out"))
		return nb_err(-ETIMEDOUT, "target '%s': no answer from '%s' "
			      "within %llu ms", t->cfg->name, p->portal,
			      (unsigned long long)nb_iscsi_timeout_ms(t));
	if (strstr(e, "reconnect") && first_error[0])
		return nb_err(-EHOSTUNREACH, "target '%s': cannot connect "
			      "to '%s': %s", t->cfg->name, p->portal,
			      nb_iscsi_scrub(p, first_error, e, sizeof(e)));
	if (strstr(e, "uthentication") || strstr(e, "CHAP"))
		return nb_err(-EACCES, "target '%s': login to '%s' at '%s' "
			      "refused: %s (check the CHAP user and password)",
			      t->cfg->name, p->iqn, p->portal, e);
	if (strstr(e, "not found") || strstr(e, "Not Found"))
		return nb_err(-ENOENT, "target '%s': no target '%s' at '%s': "
			      "%s", t->cfg->name, p->iqn, p->portal, e);
	return nb_err(-EHOSTUNREACH, "target '%s': cannot log in to '%s' "
		      "at '%s': %s", t->cfg->name, p->iqn, p->portal, e);
}

/* One step of the login (connect, login), waited for. */
static int login_step(struct nb_target *t, struct iscsi *p, int queued,
		      struct wait *w, const char *what)
{
	char e[512];
	int rc;

	if (queued)
		return nb_err(-EHOSTUNREACH, "target '%s': cannot %s '%s': %s",
			      t->cfg->name, what, p->portal,
			      nb_iscsi_lib_error(p, e, sizeof(e)));
	rc = nb_iscsi_wait_for(p, w, nb_iscsi_timeout_ms(t));
	if (rc == -ETIMEDOUT)
		return nb_err(-ETIMEDOUT, "target '%s': no answer from '%s' within "
			      "%llu ms", t->cfg->name, p->portal,
			      (unsigned long long)nb_iscsi_timeout_ms(t));
	return rc || w->status != SCSI_STATUS_GOOD ? login_error(t, p) : 0;
}

/*
 * TEST UNIT READY until the LUN is ready, as libiscsi's full connect does,
 * but the UNIT ATTENTION it answers first is kept (t->login_ua): after a
 * power-on or reset of the box it is 29/0x; some targets (tgt) give
 * 29/00 to every new login, which crashcheck finds out for itself.
 */
/* SPC's names of the power-on and reset UNIT ATTENTIONs (ASC 29h), else
 * libiscsi's. */
static const char *ua_name(int ascq)
{
	static const char *const reset[] = {
		"power on, reset, or bus device reset occurred", "power on occurred",
		"SCSI bus reset occurred", "bus device reset function occurred",
		"device internal reset", "transceiver mode changed to single-ended",
		"transceiver mode changed to LVD", "I_T nexus loss occurred",
	};

	if ((ascq >> 8) == 0x29 && (ascq & 0xff) < 8)
		return reset[ascq & 0xff];
	return scsi_sense_ascq_str(ascq);
}

static int unit_ready(struct nb_target *t, struct iscsi *p)
{
	char e[512];

	for (int i = 0; i < 8; i++) {
		struct wait w = { 0 };
		struct scsi_task *task;
		int key, ascq, rc;

		if (!iscsi_testunitready_task(p->ctx, p->lun, nb_iscsi_wait_cb, &w))
			return nb_iscsi_run_task(p, NULL, &w, "TEST UNIT READY", &task);
		rc = nb_iscsi_wait_for(p, &w, nb_iscsi_timeout_ms(t));
		if (rc == -ETIMEDOUT) {
			iscsi_scsi_cancel_all_tasks(p->ctx);
			return nb_err(-ETIMEDOUT, "target '%s': no answer to TEST UNIT "
				      "READY within %llu ms", t->cfg->name,
				      (unsigned long long)nb_iscsi_timeout_ms(t));
		}
		if (!rc && w.status == SCSI_STATUS_GOOD) {
			scsi_free_scsi_task(w.task);
			return 0;
		}
		if (rc || w.status != SCSI_STATUS_CHECK_CONDITION || !w.task) {
			if (w.task)
				scsi_free_scsi_task(w.task);
			return nb_err(-EIO, "target '%s': TEST UNIT READY failed: %s",
				      t->cfg->name,
				      nb_iscsi_lib_error(p, e, sizeof(e)));
		}
		key = w.task->sense.key;
		ascq = w.task->sense.ascq;
		scsi_free_scsi_task(w.task);
		if (key == SCSI_SENSE_ILLEGAL_REQUEST)
			return nb_err(-ENXIO, "target '%s': LUN %d does not exist on "
				      "'%s'", t->cfg->name, p->lun, p->iqn);
		if (key != SCSI_SENSE_UNIT_ATTENTION)
			return 0;    /* not ready (no medium...): INQUIRY says more */
		if (!t->login_ua[0])
			snprintf(t->login_ua, sizeof(t->login_ua), "%02x/%02x %s",
				 ascq >> 8, ascq & 0xff, ua_name(ascq));
	}
	return 0;
}

static int login(struct nb_target *t, struct iscsi *p)
{
	struct wait w = { 0 }, l = { 0 };
	int rc;

	first_error[0] = '\0';
	rc = login_step(t, p, iscsi_connect_async(p->ctx, p->portal, nb_iscsi_wait_cb,
						  &w), &w, "connect to");
	if (!rc)
		rc = login_step(t, p, iscsi_login_async(p->ctx, nb_iscsi_wait_cb, &l),
				&l, "log in to");
	if (rc)
		return rc;
	p->logged_in = 1;
	nb_net_sockinfo(iscsi_get_fd(p->ctx), &t->sock);
	return unit_ready(t, p);
}

/* The data-loss guard on the LUN's start and end, and on the window when
 * it starts further in: a partition table or file system anywhere on the
 * LUN means its owner may still need what the window covers. */
static int guard(struct nb_target *t, struct nb_file *f)
{
	struct iscsi *p = P(t);
	struct nb_file whole = { .t = t, .base = 0, .flags = NB_F_READ };
	struct nb_guard_view v = { .whole = &whole, .size = p->lun_bytes,
				   .win = f, .offset = t->cfg->offset,
				   .len = t->capacity };

	return nb_guard_check(t, &v);
}

static int iscsi_open(struct nb_target *t)
{
	struct iscsi *p = calloc(1, sizeof(*p));
	uint64_t cap = 0;
	int rc;

	if (!p)
		return nb_err(-ENOMEM, "out of memory");
	t->priv = p;
	p->t = t;
	for (int i = 0; i < NREQ; i++) {
		p->reqs[i].p = p;
		p->reqs[i].next_free = p->free_reqs;
		p->free_reqs = &p->reqs[i];
	}
	rc = parse_path(t, p);
	if (rc)
		return rc;
	p->ctx = iscsi_create_context(INITIATOR);
	if (!p->ctx)
		return nb_err(-ENOMEM, "target '%s': cannot create an iSCSI context",
			      t->cfg->name);
	iscsi_set_targetname(p->ctx, p->iqn);
	iscsi_set_session_type(p->ctx, ISCSI_SESSION_NORMAL);
	iscsi_set_header_digest(p->ctx, ISCSI_HEADER_DIGEST_NONE_CRC32C);
	iscsi_set_timeout(p->ctx, (int)((nb_iscsi_timeout_ms(t) + 999) / 1000));
	/* a lost session fails the run; it is never silently re-established */
	iscsi_set_noautoreconnect(p->ctx, 1);
	iscsi_set_reconnect_max_retries(p->ctx, 0);
	iscsi_set_log_fn(p->ctx, log_cb);
	iscsi_set_log_level(p->ctx, 1);
	rc = set_chap(t, p);
	if (!rc)
		rc = login(t, p);
	if (!rc)
		rc = nb_iscsi_check_lun(t, p);
	if (!rc)
		rc = nb_iscsi_read_capacity(t, p, &cap);
	if (!rc)
		nb_iscsi_write_cache(t, p);
	p->lun_bytes = cap;
	if (!rc)
		rc = nb_iscsi_set_window(t, cap);
	if (rc)
		return rc;
	t->caps = NB_CAP_BLOCK | NB_CAP_ASYNC | NB_CAP_SYNC | NB_CAP_DIRECT;
	return 0;
}

static void iscsi_close(struct nb_target *t)
{
	struct iscsi *p = P(t);

	if (!p)
		return;
	if (p->ctx) {
		/* nothing may call back into p once it is freed */
		iscsi_scsi_cancel_all_tasks(p->ctx);
		if (p->logged_in && !p->lost) {
			struct wait w = { 0 };

			if (!iscsi_logout_async(p->ctx, nb_iscsi_wait_cb, &w))
				nb_iscsi_wait_for(p, &w, nb_iscsi_timeout_ms(t) < 2000 ?
						  nb_iscsi_timeout_ms(t) : 2000);
		}
		iscsi_destroy_context(p->ctx);
	}
	memset(p->password, 0, sizeof(p->password));
	free(p);
	t->priv = NULL;
}

static int iscsi_space(struct nb_target *t, uint64_t *avail)
{
	*avail = t->capacity;
	return 0;
}

/* ---- files: the window ---- */

static int iscsi_fopen(struct nb_target *t, const char *name, unsigned flags,
		       struct nb_file **out)
{
	struct iscsi *p = P(t);
	struct nb_file win = { .t = t, .base = t->cfg->offset, .flags = flags };

	(void)name;
	if ((flags & NB_F_WRITE) && !p->guard_ok) {
		int rc = guard(t, &win);

		if (rc)
			return rc;
		p->guard_ok = 1;
	}
	*out = malloc(sizeof(**out));
	if (!*out)
		return nb_err(-ENOMEM, "out of memory");
	**out = win;
	return 0;
}

static int iscsi_fclose(struct nb_file *f)
{
	free(f);
	return 0;
}

static int iscsi_fsize(struct nb_file *f, uint64_t *size)
{
	*size = f->t->capacity;
	return 0;
}

static int lost_error(struct nb_target *t)
{
	struct iscsi *p = P(t);

	return nb_err(p->lost, "target '%s': %s", t->cfg->name, p->lost_why);
}

static int iscsi_flush(struct nb_file *f)
{
	struct nb_target *t = f->t;
	struct iscsi *p = P(t);
	struct scsi_task *task;
	struct wait w = { 0 };
	int rc;

	if (p->lost)
		return lost_error(t);
	rc = nb_iscsi_run_task(p, iscsi_synchronizecache10_task(p->ctx, p->lun, 0, 0, 0, 0,
						       nb_iscsi_wait_cb, &w),
		      &w, "SYNCHRONIZE CACHE", &task);
	if (rc)
		return rc;
	scsi_free_scsi_task(task);
	return 0;
}

/* ---- the data path ---- */

static void mark_lost(struct iscsi *p, int code, const char *why)
{
	if (p->lost)
		return;
	p->lost = code;
	snprintf(p->lost_why, sizeof(p->lost_why), "%s", why);
}

int64_t nb_iscsi_io_bytes(int op, uint32_t len, int residual_status,
			  uint32_t residual)
{
	if (residual_status == SCSI_RESIDUAL_UNDERFLOW && residual)
		return residual >= len ? 0 : (int64_t)len - residual;
	if (residual_status == SCSI_RESIDUAL_OVERFLOW && residual &&
	    op == NB_OP_WRITE)
		return -EIO;
	return len;
}

/* Why a request got no answer: the timeout, and a black hole when the
 * connection looks like one (runners/netsock.c). */
static void timed_out(struct iscsi *p, char *why, size_t len)
{
	char bh[400];
	int n;

	n = snprintf(why, len, "no answer within %llu ms",
		     (unsigned long long)nb_iscsi_timeout_ms(p->t));
	if (!p->lost && n > 0 && (size_t)n < len &&
	    nb_net_blackhole(iscsi_get_fd(p->ctx), &p->t->sock, bh, sizeof(bh)))
		snprintf(why + n, len - (size_t)n, ": %s", bh);
}

static void io_cb(struct iscsi_context *ctx, int status, void *data,
		  void *priv)
{
	struct req *r = priv;
	struct iscsi *p = r->p;
	struct scsi_task *task = data;
	struct nb_io *io = r->io;
	char e[400], why[768];

	(void)ctx;
	switch (status) {
	case SCSI_STATUS_GOOD:
		io->result = nb_iscsi_io_bytes(io->op, io->len,
					       task->residual_status,
					       task->residual);
		/* FUA, or no write cache: on stable storage; else cached */
		if (io->op == NB_OP_WRITE)
			io->promise = io->fua || (io->file->flags & NB_F_SYNC) ||
				      p->t->write_cache == NB_WC_OFF ? NB_PROMISE_DURABLE :
				      p->t->write_cache == NB_WC_ON ? NB_PROMISE_CACHED :
				      NB_PROMISE_ASKED;
		break;
	case SCSI_STATUS_CHECK_CONDITION:
		io->result = nb_iscsi_sense_errno(task);
		break;
	case SCSI_STATUS_TIMEOUT:
		timed_out(p, why, sizeof(why));
		mark_lost(p, -ETIMEDOUT, why);
		io->result = -ETIMEDOUT;
		break;
	case SCSI_STATUS_CANCELLED:
	case SCSI_STATUS_ERROR:
		snprintf(why, sizeof(why), "connection lost: %s",
			 nb_iscsi_lib_error(p, e, sizeof(e)));
		mark_lost(p, -EIO, why);
		io->result = -EIO;
		break;
	default:                 /* BUSY, TASK SET FULL, RESERVATION CONFLICT */
		io->result = status == SCSI_STATUS_RESERVATION_CONFLICT ? -EBUSY
									: -EAGAIN;
		break;
	}
	if (task)
		scsi_free_scsi_task(task);
	r->io = NULL;
	r->next_free = p->free_reqs;
	p->free_reqs = r;
	p->inflight--;
	if (!p->lost)
		p->done[p->ndone++] = io;
}

static int iscsi_submit(struct nb_target *t, struct nb_io *io)
{
	struct iscsi *p = P(t);
	struct nb_file *f = io->file;
	struct scsi_task *task;
	struct req *r = p->free_reqs;
	uint32_t bs = t->block_size;
	uint64_t lba;
	char e[512];

	if (p->lost)
		return lost_error(t);
	if (io->off % bs || io->len % bs || !io->len)
		return nb_err(-EINVAL, "target '%s': I/O at %llu of %u bytes is not "
			      "aligned to the block size %u", t->cfg->name,
			      (unsigned long long)io->off, io->len, bs);
	if (io->off + io->len > t->capacity)
		return nb_err(-EINVAL, "target '%s': I/O at %llu of %u bytes is "
			      "past the end of the LUN window (%llu bytes)",
			      t->cfg->name, (unsigned long long)io->off, io->len,
			      (unsigned long long)t->capacity);
	if (io->op == NB_OP_WRITE && !(f->flags & NB_F_WRITE))
		return nb_err(-EPERM, "target '%s': write to a LUN not opened for "
			      "writing", t->cfg->name);
	if (!r)
		return nb_err(-EBUSY, "target '%s': more than %d I/Os in flight",
			      t->cfg->name, NREQ);
	lba = (f->base + io->off) / bs;
	io->promise = NB_PROMISE_ASKED;
	io->verf = 0;
	r->io = io;
	r->iov.iov_base = io->buf;
	r->iov.iov_len = io->len;
	if (io->op == NB_OP_READ)
		task = iscsi_read16_iov_task(p->ctx, p->lun, lba, io->len, (int)bs,
					     0, 0, 0, 0, 0, io_cb, r, &r->iov, 1);
	else
		task = iscsi_write16_iov_task(p->ctx, p->lun, lba, NULL, io->len,
					      (int)bs, 0, 0,
					      io->fua || (f->flags & NB_F_SYNC),
					      0, 0, io_cb, r, &r->iov, 1);
	if (!task)
		return nb_err(-EIO, "target '%s': cannot queue a %s: %s",
			      t->cfg->name, io->op == NB_OP_READ ? "read" : "write",
			      nb_iscsi_lib_error(p, e, sizeof(e)));
	p->free_reqs = r->next_free;
	p->inflight++;
	/* send it now: the socket is almost always writable, and a poll()
	 * only to learn that would cost a system call per I/O */
	if (iscsi_service(p->ctx, POLLOUT) < 0 && !p->lost) {
		p->lost = -EIO;
		snprintf(p->lost_why, sizeof(p->lost_why), "connection lost: %s",
			 nb_iscsi_lib_error(p, e, sizeof(e)));
	}
	return 0;
}

/* Drop everything in flight: libiscsi calls every callback (which frees the
 * task) and keeps no pointer to a buffer afterwards. */
static int abandon(struct nb_target *t)
{
	struct iscsi *p = P(t);

	iscsi_scsi_cancel_all_tasks(p->ctx);
	p->ndone = 0;
	p->inflight = 0;
	return lost_error(t);
}

static int iscsi_reap(struct nb_target *t, struct nb_io **done, int max,
		      int wait_us)
{
	struct iscsi *p = P(t);
	uint64_t end = 0;

	if (p->lost)
		return p->inflight || p->ndone ? abandon(t) : lost_error(t);
	/* completions already taken in are returned without a system call */
	while (!p->ndone && p->inflight && !p->lost) {
		uint64_t now = nb_now_us();

		if (!end)
			end = now + (uint64_t)(wait_us > 0 ? wait_us : 0);
		else if (now >= end)
			break;
		nb_iscsi_service_once(p, (int64_t)(end - now < SERVICE_MS * 1000 ?
						   end - now : SERVICE_MS * 1000));
	}
	if (p->lost)
		return abandon(t);
	return nb_io_take(p->done, &p->ndone, done, max);
}

static int iscsi_remote_path(struct nb_target *t, const char *name,
			     char *url, size_t ulen, char *path, size_t plen,
			     uint64_t *base)
{
	struct iscsi *p = P(t);

	(void)name;
	if (t->cfg->u.user[0] || t->cfg->u.password[0])
		return nb_err(-EPERM, "target '%s': the CHAP user and password "
			      "would be written into fio's job file, which the "
			      "result keeps: take them out of the URL and give "
			      "them to fio as LIBISCSI_CHAP_USERNAME and "
			      "LIBISCSI_CHAP_PASSWORD in its environment",
			      t->cfg->name);
	*base = t->cfg->offset;
	if (plen)
		path[0] = '\0';
	if ((size_t)snprintf(url, ulen, "iscsi://%s/%s/%d", p->portal, p->iqn,
			     p->lun) >= ulen)
		return nb_err(-ENAMETOOLONG, "target '%s': URL too long",
			      t->cfg->name);
	return 0;
}

/* A NOP-Out and its NOP-In: the target's round trip with no SCSI work. */
static int iscsi_ping(struct nb_target *t, uint64_t *rtt_ns)
{
	struct iscsi *p = P(t);
	struct wait w = { 0 };
	uint64_t t0 = nb_now_ns();
	char e[512];
	int rc;

	if (iscsi_nop_out_async(p->ctx, nb_iscsi_wait_cb, NULL, 0, &w))
		return nb_err(-EIO, "target '%s': cannot send a NOP-Out: %s",
			      t->cfg->name, nb_iscsi_lib_error(p, e, sizeof(e)));
	rc = nb_iscsi_wait_for(p, &w, nb_iscsi_timeout_ms(t));
	if (rc == -ETIMEDOUT)
		return nb_err(rc, "target '%s': no NOP-In within %llu ms",
			      t->cfg->name,
			      (unsigned long long)nb_iscsi_timeout_ms(t));
	if (rc || w.status)
		return nb_err(-EIO, "target '%s': NOP-Out failed: %s", t->cfg->name,
			      nb_iscsi_lib_error(p, e, sizeof(e)));
	*rtt_ns = nb_now_ns() - t0;
	return 0;
}

static void iscsi_pollfd(struct nb_target *t, int *fd, short *events)
{
	struct iscsi *p = P(t);

	*fd = p && p->ctx && !p->lost ? iscsi_get_fd(p->ctx) : -1;
	*events = *fd >= 0 ? (short)iscsi_which_events(p->ctx) : 0;
}

const struct nb_runner_ops nb_runner_iscsi = {
	.name = "iscsi",
	.scheme = "iscsi",
	.help = "iSCSI LUN through libiscsi (iscsi://[user%pass@]host[:port]/iqn/lun)",
	.caps = NB_CAP_BLOCK | NB_CAP_ASYNC | NB_CAP_SYNC | NB_CAP_DIRECT,
	.open = iscsi_open,
	.close = iscsi_close,
	.space = iscsi_space,
	.fopen = iscsi_fopen,
	.fclose = iscsi_fclose,
	.fsize = iscsi_fsize,
	.flush = iscsi_flush,
	.submit = iscsi_submit,
	.reap = iscsi_reap,
	.remote_path = iscsi_remote_path,
	.discard = nb_iscsi_discard,
	.ping = iscsi_ping,
	.pollfd = iscsi_pollfd,
	.ident = nb_iscsi_ident,
};
