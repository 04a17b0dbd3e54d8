/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpath.c - one LUN or export reached through several paths ([target]
 * paths, connections, path-policy; docs/network.md): a target of the URL's
 * own runner per address and connection (one libiscsi session per portal,
 * one libnfs context, so one TCP connection, per NFS connection), opened
 * only once every address proved to lead to the same thing - the LU's
 * Device Identification designator, the export's fsid and fileid - else
 * refused before anything is written, naming both.  The data path, the
 * policy and the failover are mpath_io.c's.
 */
#include "mpath_rt.h"
#include "netsock.h"
#include "../core/clock.h"
#include "../core/err.h"
#include "../core/knobs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct nb_runner_ops nb_runner_mpath_iscsi, nb_runner_mpath_nfs;

/* ---- [target] paths, connections, path-policy ---- */

/* The next entry of a paths list at *S into HOST and PORT (0: none);
 * *S moves past it.  1, 0 at the end, or -EINVAL with why set. */
static int next_path(const char **s, char *host, size_t hlen, int *port)
{
	const char *a = *s + strspn(*s, " \t,"), *e, *colon;
	size_t n;
	char *end;
	long p;

	if (!*a)
		return 0;
	e = a + strcspn(a, ",");
	while (e > a && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*s = e;
	n = (size_t)(e - a);
	colon = memchr(a, ':', n);
	if (colon && memchr(colon + 1, ':', (size_t)(e - colon - 1)))
		return nb_err(-EINVAL, "'%.*s' is an IPv6 address, which paths "
			      "do not take", (int)n, a);
	if (memchr(a, ' ', n) || memchr(a, '/', n) || (colon ? colon : e) == a ||
	    (size_t)((colon ? colon : e) - a) >= hlen)
		return nb_err(-EINVAL, "'%.*s' is not an address "
			      "(host or host:port)", (int)n, a);
	memcpy(host, a, (size_t)((colon ? colon : e) - a));
	host[(colon ? colon : e) - a] = '\0';
	*port = 0;
	if (colon) {
		errno = 0;
		p = strtol(colon + 1, &end, 10);
		if (errno || end != e || p <= 0 || p > 65535)
			return nb_err(-EINVAL, "'%.*s' has no port from 1 to "
				      "65535 after the ':'", (int)n, a);
		*port = (int)p;
	}
	return 1;
}

static int paths_check(const char *v)
{
	char host[256], seen[NB_MAX_PATHS][300];
	int port, n = 0, rc;

	while ((rc = next_path(&v, host, sizeof(host), &port)) > 0) {
		if (n == NB_MAX_PATHS)
			return nb_err(-EINVAL, "more than %d addresses",
				      NB_MAX_PATHS);
		snprintf(seen[n], sizeof(seen[n]), "%s:%d", host, port);
		for (int i = 0; i < n; i++)
			if (!strcmp(seen[i], seen[n]))
				return nb_err(-EINVAL, "'%s' is given twice",
					      host);
		n++;
	}
	if (!rc && !n)
		return nb_err(-EINVAL, "no address");
	return rc < 0 ? rc : 0;
}

static int policy_check(const char *v)
{
	int policy;
	unsigned n;

	return nb_mpath_policy(v, &policy, &n);
}

/* the multipath rows: [target] paths, connections, path-policy
 * (core/knobs.h). */
const struct nb_knob nb_mpath_knobs[] = {
	{ .section = "target", .name = "paths", .type = NB_KT_STR, NB_TGT(paths),
	  .unset = "the URL's host", .check = paths_check,
	  .help = "reach the LUN or export through these addresses of the box "
	  "(host[:port], comma-separated), one iSCSI session or NFS connection "
	  "each; they must lead to the same LU or export (docs/network.md)",
	  .opt = "paths", .metavar = "ADDRS" },
	{ .section = "target", .name = "connections", .type = NB_KT_UINT,
	  NB_TGT(connections), .min = 1, .max = NB_MAX_PATHS, .def = "1",
	  .help = "connections to each address (NFS: libnfs contexts, each its "
	  "own TCP connection, as Linux's nconnect; iSCSI: sessions)",
	  .opt = "connections", .metavar = "N" },
	{ .section = "target", .name = "path-policy", .type = NB_KT_STR,
	  NB_TGT(path_policy), .check = policy_check,
	  .unset = "rr:1000 for iSCSI (ESXi's round robin), rr:1 for NFS "
	  "(Linux's nconnect)",
	  .help = "how I/O is spread over the paths: rr:N (round robin, the "
	  "next path every N I/Os), fixed (one path, the others standby) or "
	  "least-io (the path with the fewest I/Os outstanding)",
	  .opt = "path-policy", .metavar = "P" },
	{ NULL },
};

/* ---- the paths ---- */

/* A path is lost when its runner no longer has a socket. */
static int lost(struct mpath *m, int i, int rc)
{
	int fd;
	short ev;

	if (!rc)
		return 0;
	m->ops->pollfd(&m->sub[i], &fd, &ev);
	if (fd >= 0)
		return 0;
	nb_mpath_fail(m, i, rc);
	return 1;
}

/* The target of path I (address HOST:PORT, connection CONN): its config,
 * its name. */
static int path_cfg(struct mpath *m, int i, const char *host, int port, int conn)
{
	const struct nb_target_cfg *cfg = m->t->cfg;
	struct nb_target_cfg *c = &m->cfg[i];
	struct nb_path *p = &m->paths.p[i];
	int def = !strcmp(m->ops->name, "iscsi") ? 3260 : 2049;

	*c = *cfg;
	c->paths[0] = '\0';
	c->connections = 0;
	c->path_policy[0] = '\0';
	memset(&c->span, 0, sizeof(c->span));   /* the whole target's, once */
	c->ops = m->ops;
	snprintf(c->u.host, sizeof(c->u.host), "%s", host);
	if (port)
		c->u.port = port;
	if (nb_url_format(&c->u, c->url, sizeof(c->url)))
		return nb_err(-EINVAL, "target '%s': URL too long", cfg->name);
	snprintf(p->addr, sizeof(p->addr), "%s:%d", host, c->u.port ? c->u.port : def);
	snprintf(p->name, sizeof(p->name), conn > 1 ? "%s#%d" : "%s", p->addr, conn);
	p->conn = conn;
	return 0;
}

/* Every path's config: addresses x connections, the second connection
 * to each after the first to all (round robin spreads over addresses). */
static int plan(struct mpath *m)
{
	const struct nb_target_cfg *cfg = m->t->cfg;
	int conns = cfg->connections > 0 ? cfg->connections : 1;
	char hosts[NB_MAX_PATHS][256];
	int ports[NB_MAX_PATHS], na = 0, rc;
	const char *s = cfg->paths;

	if (!cfg->paths[0]) {
		snprintf(hosts[0], sizeof(hosts[0]), "%s", cfg->u.host);
		ports[na++] = cfg->u.port;
	}
	while (cfg->paths[0] && (rc = next_path(&s, hosts[na], sizeof(hosts[na]),
						&ports[na])) > 0)
		if (++na == NB_MAX_PATHS)
			break;
	if (cfg->paths[0] && (rc = paths_check(cfg->paths)))
		return nb_err(rc, "target '%s': paths: %s", cfg->name, nb_err_last());
	if (na * conns > NB_MAX_PATHS)
		return nb_err(-EINVAL, "target '%s': %d addresses x %d connections "
			      "make more than %d paths", cfg->name, na, conns,
			      NB_MAX_PATHS);
	for (int c = 1; c <= conns; c++)
		for (int a = 0; a < na; a++) {
			rc = path_cfg(m, m->n, hosts[a], ports[a], c);
			if (rc)
				return rc;
			m->n++;
		}
	return 0;
}

/* ---- open: the same LU or export behind every address ---- */

/* ID's first word: the identifier the other paths must have too. */
static void first_word(const char *id, char *out, size_t len)
{
	snprintf(out, len, "%.*s", (int)strcspn(id, " "), id);
}

/* Does ID hold the word W (after "fsid": the whole of it)? */
static int has_word(const char *id, const char *w)
{
	size_t n = strlen(w);

	if (!strncmp(id, "fsid ", 5))
		return !strcmp(id, w);
	for (const char *s = id; *s; s += strcspn(s, " "), s += strspn(s, " "))
		if (!strncmp(s, w, n) && (s[n] == ' ' || !s[n]))
			return 1;
	return 0;
}

/* What path I leads to, from a connection opened for that alone (it
 * creates nothing on the box).  0 or -errno (detail set). */
static int probe(struct mpath *m, int i, char *id, size_t len)
{
	struct nb_target_cfg c = m->cfg[i];
	struct nb_target *pt = calloc(1, sizeof(*pt));
	int rc;

	if (!pt)
		return nb_err(-ENOMEM, "out of memory");
	c.probe = 1;
	c.attach = 0;
	rc = nb_target_open_ops(pt, &c, m->ops);
	if (!rc)
		rc = m->ops->ident(pt, id, len);
	nb_target_close(pt);
	free(pt);
	return rc;
}

/* Every address (its first connection) must lead where the first does. */
static int same_everywhere(struct mpath *m)
{
	const char *what = !strcmp(m->ops->name, "iscsi") ? "LU" : "export";
	char id0[300], id[300], w0[300], w[300];
	int rc;

	rc = probe(m, 0, id0, sizeof(id0));
	if (rc)
		return rc;
	first_word(id0, w0, sizeof(w0));
	if (!strncmp(id0, "fsid ", 5))
		snprintf(w0, sizeof(w0), "%s", id0);
	for (int i = 1; i < m->n && m->paths.p[i].conn == 1; i++) {
		rc = probe(m, i, id, sizeof(id));
		if (rc)
			return rc;
		if (has_word(id, w0))
			continue;
		first_word(id, w, sizeof(w));
		if (!strncmp(id, "fsid ", 5))
			snprintf(w, sizeof(w), "%s", id);
		return nb_err(-EINVAL, "target '%s': the paths lead to different "
			      "%ss: '%s' to %s, '%s' to %s; several paths must "
			      "reach the same %s (nothing was written)",
			      m->t->cfg->name, what, m->paths.p[0].name, w0,
			      m->paths.p[i].name, w, what);
	}
	snprintf(m->paths.ident, sizeof(m->paths.ident), "%s", w0);
	return 0;
}

/* What every path's target must agree on: what it can do, its block
 * size and window. */
static int agree(struct mpath *m)
{
	struct nb_target *t = m->t, *s0 = &m->sub[0];

	for (int i = 1; i < m->n; i++)
		if (m->sub[i].block_size != s0->block_size ||
		    m->sub[i].capacity != s0->capacity)
			return nb_err(-EINVAL, "target '%s': path %s has %llu bytes "
				      "in blocks of %u, path %s %llu in blocks "
				      "of %u", t->cfg->name, m->paths.p[0].name,
				      (unsigned long long)s0->capacity,
				      s0->block_size, m->paths.p[i].name,
				      (unsigned long long)m->sub[i].capacity,
				      m->sub[i].block_size);
	t->caps = s0->caps;
	t->block_size = s0->block_size;
	t->capacity = s0->capacity;
	t->write_cache = s0->write_cache;
	t->sock = s0->sock;
	snprintf(t->login_ua, sizeof(t->login_ua), "%s", s0->login_ua);
	return 0;
}

/* Open every path: the first makes the scratch directory, the others
 * use it. */
static int open_paths(struct mpath *m)
{
	for (int i = 0; i < m->n; i++) {
		struct nb_path *p = &m->paths.p[i];
		int fd, rc;
		short ev;

		m->cfg[i].attach = m->t->attach || i > 0;
		rc = nb_target_open_ops(&m->sub[i], &m->cfg[i], m->ops);
		if (rc)
			return rc;
		p->at_open = m->sub[i].sock;
		/* a dead path's queued data must never reach the box after
		 * its I/O was reissued (netsock.h) */
		m->ops->pollfd(&m->sub[i], &fd, &ev);
		nb_net_reset_on_close(fd);
	}
	return agree(m);
}

static int mp_open(struct nb_target *t)
{
	const char *scheme = t->cfg->u.scheme;
	struct mpath *m = calloc(1, sizeof(*m));
	int rc;

	if (!m)
		return nb_err(-ENOMEM, "out of memory");
	t->priv = m;
	m->t = t;
	m->gap_path = -1;
	m->paths.pin = -1;
	/* the URL's runner (a test's, when the config names one) */
	m->ops = t->cfg->ops ? t->cfg->ops : nb_runner_find(scheme);
	for (int i = 0; i < MP_NREQ; i++) {
		m->reqs[i].next_free = m->free_reqs;
		m->free_reqs = &m->reqs[i];
	}
	snprintf(m->paths.policy, sizeof(m->paths.policy), "%s",
		 t->cfg->path_policy[0] ? t->cfg->path_policy :
		 !strcmp(scheme, "nfs") ? "rr:1" : "rr:1000");
	if (!m->ops || !m->ops->pollfd || !m->ops->ident)
		return nb_err(-EINVAL, "target '%s': the %s runner cannot take "
			      "several paths", t->cfg->name, m->ops ? m->ops->name : scheme);
	rc = nb_mpath_policy(m->paths.policy, &m->policy, &m->rr_n);
	if (!rc)
		rc = plan(m);
	m->paths.n = m->n;
	if (!rc && !t->attach)
		rc = same_everywhere(m);
	if (!rc)
		rc = open_paths(m);
	if (rc)
		return rc;
	m->paths.opened_ns = nb_now_ns();
	nb_mpath_states(m);
	t->paths = &m->paths;
	return 0;
}

static void mp_close(struct nb_target *t)
{
	struct mpath *m = MP(t);
	int keeper;

	if (!m)
		return;
	/* one path removes the scratch directory: the first alive */
	keeper = nb_mpath_first(m);
	for (int i = 0; i < m->n; i++) {
		if (!m->sub[i].ops)
			continue;
		m->sub[i].detach = t->detach || i != (keeper < 0 ? 0 : keeper);
		nb_target_close(&m->sub[i]);
		if (m->sub[i].leftover[0] && !t->leftover[0])
			snprintf(t->leftover, sizeof(t->leftover), "%s",
				 m->sub[i].leftover);
	}
	t->paths = NULL;
	free(m);
	t->priv = NULL;
}

/* ---- calls that go on one path: the first alive, the next if it dies ---- */

#define ON_FIRST(m, i, rc, call)                                         \
	do {                                                             \
		(rc) = -EIO;                                             \
		while (((i) = nb_mpath_first(m)) >= 0) {                 \
			(rc) = (call);                                   \
			if (!lost((m), (i), (rc)))                        \
				break;                                   \
		}                                                        \
		if ((i) < 0)                                             \
			(rc) = nb_mpath_all_dead(m);                     \
	} while (0)

static int mp_space(struct nb_target *t, uint64_t *avail)
{
	struct mpath *m = MP(t);
	int i, rc;

	*avail = t->capacity;
	if (t->caps & NB_CAP_BLOCK)
		return 0;
	ON_FIRST(m, i, rc, m->ops->space(&m->sub[i], avail));
	return rc;
}

static int mp_fclose(struct nb_file *f)
{
	struct mpath *m = MP(f->t);
	int rc = 0, r;

	for (int i = 0; i < m->n; i++) {
		if (!f->sub[i])
			continue;
		r = m->ops->fclose(f->sub[i]);
		if (r && mp_alive(m, i) && !rc)
			rc = r;
	}
	free(f);
	return rc;
}

/* NAME on every path alive (the first creates it, if asked). */
static int mp_fopen(struct nb_target *t, const char *name, unsigned flags,
		    struct nb_file **out)
{
	struct mpath *m = MP(t);
	struct nb_file *f = calloc(1, sizeof(*f));
	int rc = 0, any = 0;

	if (!f)
		return nb_err(-ENOMEM, "out of memory");
	f->t = t;
	f->flags = flags;
	for (int i = 0; i < m->n; i++) {
		if (!mp_alive(m, i))
			continue;
		rc = m->ops->fopen(&m->sub[i], name, flags, &f->sub[i]);
		if (rc && lost(m, i, rc)) {
			rc = 0;
			continue;
		}
		if (rc)
			break;
		any = 1;
	}
	if (!rc && !any)
		rc = nb_mpath_all_dead(m);
	if (rc) {
		mp_fclose(f);
		return rc;
	}
	*out = f;
	return 0;
}

static int mp_fsize(struct nb_file *f, uint64_t *size)
{
	struct mpath *m = MP(f->t);
	int i, rc;

	ON_FIRST(m, i, rc, f->sub[i] ? m->ops->fsize(f->sub[i], size) : -EIO);
	return rc;
}

/* A flush on one path covers the LU (SYNCHRONIZE CACHE) or the file
 * (COMMIT): the writes of every path are answered before it is sent. */
static int mp_flush(struct nb_file *f)
{
	struct mpath *m = MP(f->t);
	int i, rc;

	ON_FIRST(m, i, rc, f->sub[i] ? m->ops->flush(f->sub[i]) : -EIO);
	if (!rc && i >= 0 && m->sub[i].verf)
		f->t->verf = m->sub[i].verf;
	return rc;
}

static int mp_discard(struct nb_file *f, uint64_t off, uint64_t len,
		      const char **how)
{
	struct mpath *m = MP(f->t);
	int i, rc;

	if (!m->ops->discard)
		return -EOPNOTSUPP;
	ON_FIRST(m, i, rc, f->sub[i] ? m->ops->discard(f->sub[i], off, len, how) : -EIO);
	return rc;
}

#define MP_META(fn, ...)                                                \
	struct mpath *m = MP(t);                                         \
	int i, rc;                                                       \
	ON_FIRST(m, i, rc, m->ops->fn(&m->sub[i], __VA_ARGS__));         \
	return rc

static int mp_mkdir(struct nb_target *t, const char *path) { MP_META(mkdir, path); }
static int mp_rmdir(struct nb_target *t, const char *path) { MP_META(rmdir, path); }
static int mp_unlink(struct nb_target *t, const char *path) { MP_META(unlink, path); }
static int mp_stat(struct nb_target *t, const char *path, struct nb_stat *st)
{
	MP_META(stat, path, st);
}
static int mp_rename(struct nb_target *t, const char *from, const char *to)
{
	MP_META(rename, from, to);
}
static int mp_readdir(struct nb_target *t, const char *path,
		      int (*cb)(const char *name, void *payload), void *payload)
{
	MP_META(readdir, path, cb, payload);
}

/* The pinned path's, else the first alive's. */
static int mp_ping(struct nb_target *t, uint64_t *rtt_ns)
{
	struct mpath *m = MP(t);
	int i, rc;

	if (m->paths.pin >= 0 && mp_alive(m, m->paths.pin))
		return m->ops->ping(&m->sub[m->paths.pin], rtt_ns);
	ON_FIRST(m, i, rc, m->ops->ping(&m->sub[i], rtt_ns));
	return rc;
}

static int mp_remote_path(struct nb_target *t, const char *name, char *url,
			  size_t ulen, char *path, size_t plen, uint64_t *base)
{
	struct mpath *m = MP(t);
	int i = m->paths.pin >= 0 ? m->paths.pin : nb_mpath_first(m);

	if (i < 0)
		return nb_mpath_all_dead(m);
	return m->ops->remote_path(&m->sub[i], name, url, ulen, path, plen, base);
}

static int mp_ident(struct nb_target *t, char *id, size_t len)
{
	snprintf(id, len, "%s", MP(t)->paths.ident);
	return 0;
}

void nb_mpath_sock_now(struct nb_target *t)
{
	struct mpath *m = MP(t);
	int fd;
	short ev;

	for (int i = 0; i < m->n; i++) {
		if (!mp_alive(m, i))
			continue;
		m->ops->pollfd(&m->sub[i], &fd, &ev);
		nb_net_sockinfo(fd, &m->paths.p[i].now);
	}
}

#define MP_OPS(runner, ...)                                              \
	.name = runner, .scheme = runner,                               \
	.help = "several paths to one " runner " target (docs/network.md)", \
	.open = mp_open, .close = mp_close, .space = mp_space,           \
	.fopen = mp_fopen, .fclose = mp_fclose, .fsize = mp_fsize,       \
	.flush = mp_flush, .submit = nb_mpath_submit, .reap = nb_mpath_reap, \
	.discard = mp_discard, .remote_path = mp_remote_path,            \
	.ping = mp_ping, .ident = mp_ident, __VA_ARGS__

const struct nb_runner_ops nb_runner_mpath_iscsi = {
	MP_OPS("iscsi", .caps = NB_CAP_BLOCK | NB_CAP_ASYNC | NB_CAP_SYNC |
	       NB_CAP_DIRECT),
};

const struct nb_runner_ops nb_runner_mpath_nfs = {
	MP_OPS("nfs", .caps = NB_CAP_FILES | NB_CAP_ASYNC | NB_CAP_SYNC |
	       NB_CAP_META | NB_CAP_DIRECT,
	       .mkdir = mp_mkdir, .rmdir = mp_rmdir, .unlink = mp_unlink,
	       .stat = mp_stat, .rename = mp_rename, .readdir = mp_readdir),
};
