/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpath_io.c - the multipath runner's data path: each I/O on the path its
 * policy picks (round robin switching every N I/Os, as ESXi's VMW_PSP_RR
 * with its iops=N; fixed: one path, the others standby; least outstanding
 * I/O), every path's completions gathered with one poll(), and the I/Os in
 * flight on a path that dies (its runner gave up after the target's
 * timeout) reissued on a path alive.  The gap in completions a death makes
 * is its failover time (docs/network.md).  The paths' states (the first
 * alive, a path killed, every path dead) live here, where I/O meets them.
 */
#include "mpath_rt.h"
#include "netsock.h"
#include "../core/clock.h"
#include "../core/err.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int nb_mpath_policy(const char *text, int *policy, unsigned *rr_n)
{
	char *end;
	unsigned long n;

	*rr_n = 1000;
	if (!strcmp(text, "fixed")) {
		*policy = MP_FIXED;
		return 0;
	}
	if (!strcmp(text, "least-io")) {
		*policy = MP_LEAST;
		return 0;
	}
	*policy = MP_RR;
	if (!strcmp(text, "rr"))
		return 0;
	if (strncmp(text, "rr:", 3))
		return nb_err(-EINVAL, "path policy '%s': not one of rr:N (round "
			      "robin, a new path every N I/Os), fixed, least-io",
			      text);
	errno = 0;
	n = strtoul(text + 3, &end, 10);
	if (errno || *end || end == text + 3 || !n || n > 1000000)
		return nb_err(-EINVAL, "path policy '%s': N of rr:N must be a "
			      "number of I/Os from 1 to 1000000", text);
	*rr_n = (unsigned)n;
	return 0;
}

int nb_mpath_first(const struct mpath *m)
{
	for (int i = 0; i < m->n; i++)
		if (mp_alive(m, i))
			return i;
	return -1;
}

void nb_mpath_kill(struct mpath *m, int i, int rc)
{
	struct nb_path *p = &m->paths.p[i];
	const char *why;
	char pre[96];
	int fd;
	short ev;

	if (!mp_alive(m, i))
		return;
	m->ops->pollfd(&m->sub[i], &fd, &ev);
	nb_net_reset_on_close(fd);
	p->state = NB_PATH_DEAD;
	p->died_ns = nb_now_ns();
	why = rc ? nb_err_last() : "";
	/* its runner's message names the target: the path says it */
	snprintf(pre, sizeof(pre), "target '%s': ", m->t->cfg->name);
	if (!strncmp(why, pre, strlen(pre)))
		why += strlen(pre);
	snprintf(p->why, sizeof(p->why), "%s", why);
	nb_err_clear();
	if (m->gap_path < 0) {
		m->gap_path = i;
		m->gap_from = m->last_done_ns ? m->last_done_ns : p->died_ns;
	}
	nb_warn("target '%s': path %s is dead: %s", m->t->cfg->name, p->name,
		p->why[0] ? p->why : "lost");
	nb_mpath_states(m);
}

int nb_mpath_all_dead(struct mpath *m)
{
	char buf[1400];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < m->n && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s (%s)",
				      i ? "; " : "", m->paths.p[i].name,
				      m->paths.p[i].why[0] ? m->paths.p[i].why : "lost");
	return nb_err(-EIO, "target '%s': every path is dead: %s",
		      m->t->cfg->name, buf);
}

/* The path states the policy makes: fixed keeps all but its path on
 * standby; the others use every path alive. */
void nb_mpath_states(struct mpath *m)
{
	for (int i = 0; i < m->n; i++)
		if (mp_alive(m, i))
			m->paths.p[i].state = m->policy == MP_FIXED && i != m->cur ?
					      NB_PATH_STANDBY : NB_PATH_ACTIVE;
}

/* The next path alive after I (wrapping), or -1. */
static int next_alive(const struct mpath *m, int i)
{
	for (int k = 1; k <= m->n; k++)
		if (mp_alive(m, (i + k) % m->n))
			return (i + k) % m->n;
	return -1;
}

/* The path for the next I/O, or -1 when none is alive. */
static int pick(struct mpath *m)
{
	int best = -1;

	if (m->paths.pin >= 0 && m->paths.pin < m->n && mp_alive(m, m->paths.pin))
		return m->paths.pin;
	if (!mp_alive(m, m->cur)) {
		m->cur = next_alive(m, m->cur);
		m->rr_count = 0;
		if (m->cur < 0)
			return m->cur = 0, -1;
		nb_mpath_states(m);
	}
	if (m->policy == MP_FIXED)
		return m->cur;
	if (m->policy == MP_RR) {
		if (m->rr_count >= m->rr_n) {
			m->cur = next_alive(m, m->cur);
			m->rr_count = 0;
		}
		m->rr_count++;
		return m->cur;
	}
	/* least outstanding: the fewest in flight, ties to the next after
	 * the last chosen so that an idle target uses every path */
	for (int k = 1; k <= m->n; k++) {
		int i = (m->cur + k) % m->n;

		if (mp_alive(m, i) && (best < 0 || m->inflight[i] < m->inflight[best]))
			best = i;
	}
	return m->cur = best;
}

static int send_req(struct mpath *m, struct mp_req *r);

/* Path I died: what was in flight on it goes on the paths alive.  0, or
 * -errno when none is left. */
static int reissue(struct mpath *m, int i)
{
	int rc;

	m->inflight[i] = 0;
	for (int k = 0; k < MP_NREQ; k++) {
		struct mp_req *r = &m->reqs[k];

		if (!r->io || r->path != i)
			continue;
		m->paths.p[i].reissued++;
		rc = send_req(m, r);
		if (rc)
			return rc;
	}
	return 0;
}

int nb_mpath_fail(struct mpath *m, int i, int rc)
{
	nb_mpath_kill(m, i, rc);
	return reissue(m, i);
}

/* Send R on a path alive: 0, or -errno when none takes it (or the I/O
 * itself is refused: a bad offset, not a path). */
static int send_req(struct mpath *m, struct mp_req *r)
{
	struct nb_file *f = r->io->file;
	int i, rc;

	while ((i = pick(m)) >= 0) {
		r->path = -1;            /* on no path until one takes it */
		if (!f->sub[i]) {        /* opened while it was dead */
			nb_err_set("the file was opened while the path was lost");
			rc = nb_mpath_fail(m, i, -EIO);
			if (rc)
				return rc;
			continue;
		}
		r->sub.file = f->sub[i];
		r->sub.result = 0;
		rc = m->ops->submit(&m->sub[i], &r->sub);
		if (!rc) {
			r->path = i;
			m->inflight[i]++;
			return 0;
		}
		if (rc == -EINVAL || rc == -EPERM || rc == -EBUSY)
			return rc;
		/* the path is lost: its I/O in flight goes elsewhere too */
		rc = nb_mpath_fail(m, i, rc);
		if (rc)
			return rc;
	}
	return nb_mpath_all_dead(m);
}

/* No path is left: every I/O in flight is abandoned (as a runner does
 * when its target is lost: no completion will come, no buffer is touched
 * again).  Returns RC. */
static int abandon(struct mpath *m, int rc)
{
	m->free_reqs = NULL;
	for (int k = 0; k < MP_NREQ; k++) {
		m->reqs[k].io = NULL;
		m->reqs[k].next_free = m->free_reqs;
		m->free_reqs = &m->reqs[k];
	}
	memset(m->inflight, 0, sizeof(m->inflight));
	m->ninflight = m->ndone = 0;
	return rc;
}

int nb_mpath_submit(struct nb_target *t, struct nb_io *io)
{
	struct mpath *m = MP(t);
	struct mp_req *r = m->free_reqs;
	int rc;

	if (!r)
		return nb_err(-EBUSY, "target '%s': more than %d I/Os in flight",
			      t->cfg->name, MP_NREQ);
	m->free_reqs = r->next_free;
	r->io = io;
	r->sub = *io;
	r->sub.priv = r;
	r->sub.rpriv = NULL;
	io->promise = NB_PROMISE_ASKED;
	io->verf = 0;
	rc = send_req(m, r);
	if (rc && nb_mpath_first(m) < 0)
		return abandon(m, rc);
	if (rc) {
		r->io = NULL;
		r->next_free = m->free_reqs;
		m->free_reqs = r;
		return rc;
	}
	m->ninflight++;
	return 0;
}

/* A completion from path I's runner. */
static void completed(struct mpath *m, int i, struct nb_io *sub, uint64_t now)
{
	struct mp_req *r = sub->priv;
	struct nb_io *io = r->io;

	io->result = sub->result;
	io->promise = sub->promise;
	io->verf = sub->verf;
	if (sub->verf)
		m->t->verf = sub->verf;
	m->inflight[i]--;
	m->ninflight--;
	r->io = NULL;
	r->next_free = m->free_reqs;
	m->free_reqs = r;
	if (m->gap_path >= 0) {
		m->paths.p[m->gap_path].failover_ns = now - m->gap_from;
		m->gap_path = -1;
	}
	m->last_done_ns = now;
	m->done_path[m->ndone] = i;
	m->done[m->ndone++] = io;
}

/* Take what path I has finished (waiting for nothing).  0, or -errno when
 * it died and no path is left for its I/Os. */
static int harvest_one(struct mpath *m, int i)
{
	struct nb_io *got[MP_NREQ];
	uint64_t now;
	int n;

	m->serviced_ns[i] = nb_now_ns();
	n = m->ops->reap(&m->sub[i], got, MP_NREQ, 0);
	if (n < 0)
		return nb_mpath_fail(m, i, n);
	now = nb_now_ns();
	for (int k = 0; k < n; k++)
		completed(m, i, got[k], now);
	return 0;
}

/* Every path with I/O in flight whose socket had news (READY[i]) or that
 * was not serviced for a tick. */
static int harvest(struct mpath *m, const int *ready)
{
	uint64_t now = nb_now_ns();
	int rc;

	for (int i = 0; i < m->n; i++) {
		if (!mp_alive(m, i) || !m->inflight[i])
			continue;
		if (!ready[i] && now - m->serviced_ns[i] < MP_TICK_US * 1000ULL)
			continue;
		rc = harvest_one(m, i);
		if (rc)
			return rc;
	}
	return 0;
}

/* Wait up to US for any path's socket; READY[i] set for those with news. */
static void wait_any(struct mpath *m, int64_t us, int *ready)
{
	struct pollfd pfd[NB_MAX_PATHS];
	int idx[NB_MAX_PATHS], np = 0;
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	for (int i = 0; i < m->n; i++) {
		ready[i] = 0;
		if (!mp_alive(m, i) || !m->inflight[i])
			continue;
		m->ops->pollfd(&m->sub[i], &pfd[np].fd, &pfd[np].events);
		if (pfd[np].fd < 0) {
			ready[i] = 1;          /* its reap says why */
			us = 0;
			continue;
		}
		idx[np++] = i;
	}
	if (us == 0)
		ts.tv_sec = ts.tv_nsec = 0;
	if (ppoll(pfd, (nfds_t)np, &ts, NULL) <= 0)
		return;
	for (int k = 0; k < np; k++)
		if (pfd[k].revents)
			ready[idx[k]] = 1;
}

/* Hand out up to MAX completions, each counted on its path: its bytes, and
 * its latency as the engine times it (from the end of submit() to now). */
static int take(struct mpath *m, struct nb_io **done, int max)
{
	uint64_t now = nb_now_ns();
	int n = m->ndone < max ? m->ndone : max;

	for (int k = 0; k < n; k++) {
		struct nb_io *io = m->done[k];
		struct nb_path *p = &m->paths.p[m->done_path[k]];

		done[k] = io;
		p->ios++;
		if (io->result > 0 && io->op == NB_OP_READ)
			p->bytes_read += (uint64_t)io->result;
		else if (io->result > 0)
			p->bytes_written += (uint64_t)io->result;
		if (io->t_submit && now > io->t_submit)
			nb_hist_add(&p->lat, now - io->t_submit);
	}
	memmove(m->done, m->done + n, sizeof(m->done[0]) * (size_t)(m->ndone - n));
	memmove(m->done_path, m->done_path + n,
		sizeof(m->done_path[0]) * (size_t)(m->ndone - n));
	m->ndone -= n;
	return n;
}

int nb_mpath_reap(struct nb_target *t, struct nb_io **done, int max,
		  int timeout_us)
{
	struct mpath *m = MP(t);
	uint64_t end = nb_now_ns() + (uint64_t)(timeout_us > 0 ? timeout_us : 0) * 1000;
	int ready[NB_MAX_PATHS] = { 0 }, waited = 0, rc;

	for (;;) {
		uint64_t now;
		int64_t left;

		/* as a lost target's: an error, whatever was in flight */
		if (nb_mpath_first(m) < 0)
			return abandon(m, nb_mpath_all_dead(m));
		if (!m->ndone && m->ninflight) {
			rc = harvest(m, ready);
			if (rc)
				return nb_mpath_first(m) < 0 ? abandon(m, rc) : rc;
		}
		if (m->ndone || !m->ninflight)
			return take(m, done, max);
		now = nb_now_ns();
		if (now >= end && waited)
			return 0;
		left = now >= end ? 0 : (int64_t)((end - now) / 1000);
		wait_any(m, left < MP_TICK_US ? left : MP_TICK_US, ready);
		waited = 1;
	}
}
