/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iscsi_task.c - the iSCSI session's blocking side, for the set-up
 *                commands (login, INQUIRY, READ CAPACITY, MODE SENSE,
 *                UNMAP): the session serviced until a task is done or the
 *                target's timeout passes, a CHECK CONDITION's sense in
 *                words, libiscsi's errors without a password.
 */
#include "iscsi_rt.h"
#include "../core/clock.h"
#include "../core/err.h"
#include "../core/knobs.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

/* E with any password replaced by "***", into BUF. */
const char *nb_iscsi_scrub(const struct iscsi *p, const char *e, char *buf,
			   size_t len)
{
	size_t pl = strlen(p->password), n = 0;

	if (!e || !*e)
		e = "unknown error";
	while (*e && n + 1 < len) {
		if (pl && !strncmp(e, p->password, pl)) {
			n += (size_t)snprintf(buf + n, len - n, "***");
			e += pl;
			continue;
		}
		buf[n++] = *e++;
	}
	buf[n < len ? n : len - 1] = '\0';
	/* libiscsi ends some messages with a newline */
	while (n && n < len && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return buf;
}

/* libiscsi's last error, without a password. */
const char *nb_iscsi_lib_error(struct iscsi *p, char *buf, size_t len)
{
	return nb_iscsi_scrub(p, p->ctx ? iscsi_get_error(p->ctx) : "", buf, len);
}

uint64_t nb_iscsi_timeout_ms(const struct nb_target *t)
{
	uint64_t us = t->cfg->timeout_us ? t->cfg->timeout_us
					 : nb_knob_default("target", "timeout");

	return (us + 999) / 1000;
}

/* Poll the session once for up to US microseconds and service it.  0, or
 * -EIO when the socket failed (the session is then lost). */
int nb_iscsi_service_once(struct iscsi *p, int64_t us)
{
	struct pollfd pfd = { .fd = iscsi_get_fd(p->ctx),
			      .events = (short)iscsi_which_events(p->ctx) };
	struct timespec ts = { us > 0 ? us / 1000000 : 0,
			       us > 0 ? (us % 1000000) * 1000 : 0 };
	char e[512];
	int rc;

	if (pfd.fd < 0 || !pfd.events) {
		/* libiscsi asks for a pause (it would be reconnecting) */
		ppoll(NULL, 0, &ts, NULL);
		rc = iscsi_service(p->ctx, 0);
	} else {
		rc = ppoll(&pfd, 1, &ts, NULL);
		if (rc < 0 && errno == EINTR)
			return 0;
		rc = iscsi_service(p->ctx, rc > 0 ? pfd.revents : 0);
	}
	if (rc < 0 && !p->lost) {
		p->lost = -EIO;
		snprintf(p->lost_why, sizeof(p->lost_why), "connection lost: %s",
			 nb_iscsi_lib_error(p, e, sizeof(e)));
	}
	return rc < 0 ? -EIO : 0;
}

void nb_iscsi_wait_cb(struct iscsi_context *ctx, int status, void *data,
		      void *priv)
{
	struct wait *w = priv;

	(void)ctx;
	w->done = 1;
	w->status = status;
	w->task = data;
}

/* Service the session until W is done or the target's timeout passes. */
int nb_iscsi_wait_for(struct iscsi *p, struct wait *w, uint64_t ms)
{
	uint64_t end = nb_now_ms() + ms;

	while (!w->done) {
		uint64_t now = nb_now_ms();

		if (now >= end)
			return -ETIMEDOUT;
		if (nb_iscsi_service_once(p, (int64_t)(end - now < SERVICE_MS ? end - now
								     : SERVICE_MS) * 1000) &&
		    !w->done)
			return -EIO;
	}
	return 0;
}

static const char *sense_text(struct scsi_task *task, char *buf, size_t len)
{
	snprintf(buf, len, "%s (%s)", scsi_sense_key_str(task->sense.key),
		 scsi_sense_ascq_str(task->sense.ascq));
	return buf;
}

int nb_iscsi_sense_errno(const struct scsi_task *task)
{
	switch (task->sense.key) {
	case SCSI_SENSE_DATA_PROTECTION: return -EROFS;
	case SCSI_SENSE_NOT_READY: return -EAGAIN;
	case SCSI_SENSE_ILLEGAL_REQUEST: return -EINVAL;
	default: return -EIO;
	}
}

/* Run one set-up command started by START (a libiscsi *_task call) and wait
 * for it.  On success *TASK holds the finished task (free it). */
int nb_iscsi_run_task(struct iscsi *p, struct scsi_task *started, struct wait *w,
		      const char *what, struct scsi_task **task)
{
	struct nb_target *t = p->t;
	char e[512], s[256];
	int rc;

	if (!started)
		return nb_err(-EIO, "target '%s': cannot send %s: %s", t->cfg->name,
			      what, nb_iscsi_lib_error(p, e, sizeof(e)));
	rc = nb_iscsi_wait_for(p, w, nb_iscsi_timeout_ms(t));
	if (rc == -ETIMEDOUT) {
		iscsi_scsi_cancel_all_tasks(p->ctx);
		return nb_err(-ETIMEDOUT, "target '%s': no answer to %s within "
			      "%llu ms", t->cfg->name, what,
			      (unsigned long long)nb_iscsi_timeout_ms(t));
	}
	if (rc || w->status == SCSI_STATUS_CANCELLED ||
	    w->status == SCSI_STATUS_ERROR || w->status == SCSI_STATUS_TIMEOUT) {
		if (w->task)
			scsi_free_scsi_task(w->task);
		return nb_err(-EIO, "target '%s': %s failed: %s", t->cfg->name,
			      what, p->lost ? p->lost_why : nb_iscsi_lib_error(p, e, sizeof(e)));
	}
	if (w->status != SCSI_STATUS_GOOD) {
		rc = w->status == SCSI_STATUS_CHECK_CONDITION ? nb_iscsi_sense_errno(w->task)
							       : -EIO;
		nb_err_set("target '%s': %s failed: %s", t->cfg->name, what,
			   w->status == SCSI_STATUS_CHECK_CONDITION ?
			   sense_text(w->task, s, sizeof(s)) : "SCSI status not good");
		scsi_free_scsi_task(w->task);
		return rc;
	}
	*task = w->task;
	return 0;
}
