/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfs_conn.c - the NFS runner's connection: the URL libnfs is given, the
 * event loop every wait goes through (with its deadline), and the mount.
 */
#include "nfs_rt.h"
#include "nfs.h"
#include "../core/err.h"
#include "../core/suggest.h"
#include "../core/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <nfsc/libnfs.h>


/* ---- URL arguments ---------------------------------------------------- */

static const char *const known_args[] = {
	"version", "uid", "gid", "nfsport", "mountport", "tcp-syncnt",
};
#define NKNOWN (sizeof(known_args) / sizeof(known_args[0]))

static int numeric(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

int nb_nfs_libnfs_url(const char *name, const struct nb_url *u,
		      const char *path, char *out, size_t len)
{
	size_t n;
	char sep = '?';

	if (u->user[0] || u->password[0])
		return nb_err(-EINVAL, "target '%s': NFS URLs take no user or password "
			      "(NFSv3 sends uid and gid: use ?uid=N&gid=N)", name);
	for (int i = 0; i < u->nargs; i++) {
		const char *k = u->args_key[i], *v = u->args_val[i];
		size_t j;

		for (j = 0; j < NKNOWN && strcmp(k, known_args[j]); j++)
			;
		if (j == NKNOWN) {
			const char *near = nb_suggest(k, known_args, NKNOWN);

			return nb_err(-EINVAL, "target '%s': unknown NFS URL argument "
				      "'%s'%s%s%s (known: version, uid, gid, nfsport, "
				      "mountport, tcp-syncnt)", name, k,
				      near ? "; did you mean '" : "", near ? near : "",
				      near ? "'?" : "");
		}
		if (!strcmp(k, "version") && strcmp(v, "3")) {
			if (!strcmp(v, "4") || !strcmp(v, "4.0") || !strcmp(v, "4.1"))
				return nb_err(-EINVAL, "target '%s': NFSv4 is not supported: "
					      "libnfs %s cannot write 4 KiB or more over "
					      "NFSv4; use version=3 (the default)", name,
					      NB_LIBNFS_VERSION[0] ? NB_LIBNFS_VERSION : "4.0");
			return nb_err(-EINVAL, "target '%s': unknown NFS version '%s' "
				      "(only version=3 is supported)", name, v);
		}
		if (!numeric(v))
			return nb_err(-EINVAL, "target '%s': NFS URL argument '%s' needs "
				      "a number, not '%s'", name, k, v);
	}
	if (u->port && (nb_url_arg(u, "nfsport")))
		return nb_err(-EINVAL, "target '%s': the port is given twice (host:%d "
			      "and nfsport=)", name, u->port);
	n = (size_t)snprintf(out, len, "nfs://%s%s", u->host, path ? path : u->path);
	for (int i = 0; i < u->nargs && n < len; i++) {
		n += (size_t)snprintf(out + n, len - n, "%c%s=%s", sep,
				      u->args_key[i], u->args_val[i]);
		sep = '&';
	}
	if (u->port && n < len)
		n += (size_t)snprintf(out + n, len - n, "%cnfsport=%d", sep, u->port);
	if (n >= len)
		return nb_err(-EINVAL, "target '%s': URL too long", name);
	return 0;
}

/* ---- waiting on the event loop ---------------------------------------- */

static void ignore_cb(int status, struct nfs_context *nfs, void *data,
		      void *priv)
{
	(void)status;
	(void)nfs;
	(void)data;
	(void)priv;
}

/* The server is gone: destroy the context so no callback runs again (in-
 * flight requests are abandoned: their buffers are no longer touched). */
int nb_nfs_lose(struct nfsrt *p, int code, const char *fmt, ...)
{
	struct req *r, *next;
	va_list ap;

	if (!p->lost[0]) {
		va_start(ap, fmt);
		vsnprintf(p->lost, sizeof(p->lost), fmt, ap);
		va_end(ap);
	}
	for (r = p->inflight.head; r; r = r->next)
		r->io = NULL;
	for (r = p->done.head; r; r = next) {
		next = r->next;
		free(r);
	}
	p->done.head = p->done.tail = NULL;
	if (p->nfs) {
		struct nfs_context *nfs = p->nfs;

		/* NFSv3 has no CLOSE: this only frees libnfs's handle */
		for (struct nb_file *f = p->files; f; f = f->next) {
			if (f->fh)
				nfs_close_async(nfs, f->fh, ignore_cb, NULL);
			if (f->fh_sync)
				nfs_close_async(nfs, f->fh_sync, ignore_cb, NULL);
			f->fh = f->fh_sync = NULL;
		}
		p->nfs = NULL;
		nfs_destroy_context(nfs);    /* may call back: requests are abandoned */
	}
	for (r = p->inflight.head; r; r = next) {
		next = r->next;
		free(r);
	}
	p->inflight.head = p->inflight.tail = NULL;
	p->ninflight = 0;
	return nb_err(code, "target '%s': %s", p->t->cfg->name, p->lost);
}

int nb_nfs_gone(struct nfsrt *p)
{
	return nb_err(-EIO, "target '%s': %s", p->t->cfg->name, p->lost);
}

/* One round of the event loop: poll up to WAIT_US microseconds (at most
 * a tick, so libnfs's timeouts fire), then service.  0, or <0 when the
 * connection is lost (the target is then nb_nfs_gone). */
int nb_nfs_service(struct nfsrt *p, int wait_us)
{
	struct pollfd pfd = { .fd = nfs_get_fd(p->nfs),
			      .events = (short)nfs_which_events(p->nfs) };
	long us = wait_us > TICK_MS * 1000 ? TICK_MS * 1000 : wait_us < 0 ? 0 : wait_us;
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	int rc = ppoll(&pfd, 1, &ts, NULL);

	if (rc < 0 && errno != EINTR)
		return nb_nfs_lose(p, -EIO, "poll: %s", strerror(errno));
	if (nfs_service(p->nfs, rc > 0 ? pfd.revents : 0) < 0) {
		/* libnfs may have no message for a reset (its error is NULL) */
		const char *why = nfs_get_error(p->nfs);

		return nb_nfs_lose(p, -EIO, "lost the connection to NFS server '%s': %s",
				   p->host, why && *why ? why :
				   "the connection was closed or reset");
	}
	return rc < 0 ? -EINTR : 0;
}

/*
 * libnfs only queues an RPC; it is sent when nfs_service() is told the
 * socket is writable.  Send it now (the socket almost always is: a full one
 * answers EAGAIN and poll() takes over): else a burst of completions is
 * refilled slot by slot, each new RPC encoded and queued, and none reaches
 * the server until the engine next waits, while the server runs dry.
 */
int nb_nfs_kick(struct nfsrt *p)
{
	const char *why;

	if (nfs_service(p->nfs, POLLOUT) >= 0)
		return 0;
	why = nfs_get_error(p->nfs);
	return nb_nfs_lose(p, -EIO, "lost the connection to NFS server '%s': %s",
			   p->host, why && *why ? why :
			   "the connection was closed or reset");
}

void nb_nfs_call_cb(int status, struct nfs_context *nfs, void *data, void *priv)
{
	struct call *c = priv;

	(void)nfs;
	c->done = 1;
	c->status = status;
	if (status < 0) {
		snprintf(c->msg, sizeof(c->msg), "%s", data ? (char *)data : "");
		return;
	}
	if (c->copy && data)
		memcpy(c->copy, data, c->copy_len);
	else
		c->ptr = data;
}

/* Wait for C after queueing it returned QRC.  Returns C's status (>= 0) or
 * -errno; a timeout loses the target.  WHAT and PATH make the message. */
int nb_nfs_wait_call(struct nfsrt *p, int qrc, struct call *c, const char *what,
		     const char *path)
{
	uint64_t deadline = nb_now_ns() + p->timeout_ns;
	int rc;

	if (qrc < 0)
		return nb_err(qrc, "target '%s': %s '%s': %s", p->t->cfg->name, what,
			      path, nfs_get_error(p->nfs));
	while (!c->done) {
		if (nb_now_ns() >= deadline)
			return nb_nfs_lose(p, -ETIMEDOUT, "no answer from NFS server '%s' "
				    "within %.0f s (%s '%s')", p->host,
				    (double)p->timeout_ns / 1e9, what, path);
		rc = nb_nfs_service(p, TICK_MS * 1000);
		if (rc < 0 && rc != -EINTR)
			return rc;
	}
	if (c->status == -EINTR)        /* libnfs's RPC timeout */
		return nb_nfs_lose(p, -ETIMEDOUT, "no answer from NFS server '%s' within "
			    "%.0f s (%s '%s')", p->host,
			    (double)p->timeout_ns / 1e9, what, path);
	if (c->status < 0)
		return nb_err(c->status, "target '%s': %s '%s': %s", p->t->cfg->name,
			      what, path, strerror(-c->status));
	return c->status;
}


/* ---- mount ------------------------------------------------------------- */

static int new_context(struct nfsrt *p, const char *lurl, char *server,
		       size_t slen, char *path, size_t plen)
{
	const struct nb_target_cfg *cfg = p->t->cfg;
	struct nfs_url *url;
	int ms;

	p->nfs = nfs_init_context();
	if (!p->nfs)
		return nb_err(-ENOMEM, "target '%s': cannot create an NFS context",
			      cfg->name);
	url = nfs_parse_url_dir(p->nfs, lurl);
	if (!url)
		return nb_err(-EINVAL, "target '%s': libnfs rejects the URL: %s",
			      cfg->name, nfs_get_error(p->nfs));
	snprintf(server, slen, "%s", url->server);
	snprintf(path, plen, "%s", url->path);
	nfs_destroy_url(url);
	nfs_set_version(p->nfs, 3);      /* NFS_V3 */
	nfs_set_autoreconnect(p->nfs, 0);
	/* every listing from the server, as a metadata benchmark must see it */
	nfs_set_dircache(p->nfs, 0);
	/* libnfs counts whole seconds */
	ms = (int)((p->timeout_ns / 1000000 + 999) / 1000 * 1000);
	nfs_set_timeout(p->nfs, ms);
	return 0;
}

static void drop_context(struct nfsrt *p)
{
	if (p->nfs)
		nfs_destroy_context(p->nfs);
	p->nfs = NULL;
}

/* Mount PATH (a leading part of the URL's).  0, or -errno with C->msg. */
static int try_mount(struct nfsrt *p, const char *path, struct call *c)
{
	const struct nb_target_cfg *cfg = p->t->cfg;
	char lurl[2048], server[256], mpath[1024];
	uint64_t deadline;
	int rc;

	memset(c, 0, sizeof(*c));
	rc = nb_nfs_libnfs_url(cfg->name, &cfg->u, path, lurl, sizeof(lurl));
	if (!rc)
		rc = new_context(p, lurl, server, sizeof(server), mpath, sizeof(mpath));
	if (rc)
		return rc;
	rc = nfs_mount_async(p->nfs, server, mpath, nb_nfs_call_cb, c);
	if (rc < 0) {
		snprintf(c->msg, sizeof(c->msg), "%s", nfs_get_error(p->nfs));
		drop_context(p);
		return -EIO;
	}
	deadline = nb_now_ns() + p->timeout_ns;
	while (!c->done) {
		struct pollfd pfd = { .fd = nfs_get_fd(p->nfs),
				      .events = (short)nfs_which_events(p->nfs) };
		int n;

		if (nb_now_ns() >= deadline) {
			drop_context(p);
			snprintf(c->msg, sizeof(c->msg), "no answer within %.0f s",
				 (double)p->timeout_ns / 1e9);
			return -ETIMEDOUT;
		}
		n = poll(&pfd, 1, TICK_MS);
		if (nfs_service(p->nfs, n > 0 ? pfd.revents : 0) < 0 && !c->done) {
			snprintf(c->msg, sizeof(c->msg), "%s", nfs_get_error(p->nfs));
			drop_context(p);
			return -ECONNREFUSED;
		}
	}
	if (c->status < 0) {
		drop_context(p);
		return c->status;
	}
	snprintf(p->mounted, sizeof(p->mounted), "%s", path);
	return 0;
}

/* Why HOST:PORT takes no TCP connection within the timeout (errno), -1 when
 * the name does not resolve, or 0. */
static int probe(struct nfsrt *p, int port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	char sport[16];
	int fd, rc, err = 0;
	socklen_t elen = sizeof(err);

	snprintf(sport, sizeof(sport), "%d", port);
	if (getaddrinfo(p->host, sport, &hints, &ai))
		return -1;
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		freeaddrinfo(ai);
		return errno;
	}
	rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	if (rc && errno == EINPROGRESS) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };

		rc = poll(&pfd, 1, (int)(p->timeout_ns / 1000000));
		if (rc == 0)
			err = ETIMEDOUT;
		else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen))
			err = errno;
	} else if (rc) {
		err = errno;
	}
	close(fd);
	return err;
}

/* A refusal from MOUNT (the path may lie below an export) rather than no
 * server or no answer. */
static int refused(int rc)
{
	return rc == -EACCES || rc == -EPERM || rc == -ENOENT || rc == -ENOTDIR;
}

/* The mount failed without a refusal: say why, port by port. */
static int unreachable(struct nfsrt *p, int rc, const char *libnfs_msg)
{
	const struct nb_target_cfg *cfg = p->t->cfg;
	const char *mp = nb_url_arg(&cfg->u, "mountport");
	const char *np = nb_url_arg(&cfg->u, "nfsport");
	int ports[2] = { mp ? atoi(mp) : 111,
			 cfg->u.port ? cfg->u.port : np ? atoi(np) : 2049 };
	const char *what[2] = { mp ? "MOUNT" : "portmapper", "NFS" };

	for (int i = 0; i < 2; i++) {
		int e = probe(p, ports[i]);

		if (e < 0)
			return nb_err(-EHOSTUNREACH, "target '%s': cannot resolve the "
				      "NFS server name '%s'", cfg->name, p->host);
		if (e)
			return nb_err(-EHOSTUNREACH, "target '%s': cannot reach NFS "
				      "server '%s' (%s port %d): %s", cfg->name,
				      p->host, what[i], ports[i], strerror(e));
	}
	return nb_err(-EHOSTUNREACH, "target '%s': cannot mount '%s' from NFS "
		      "server '%s': %s", cfg->name, cfg->u.path, p->host,
		      libnfs_msg[0] ? libnfs_msg : strerror(-rc));
}

/* What a server that wants a reserved source port (below 1024: only root
 * may bind one; libnfs does when run as root) is told by, and its two
 * fixes.  Linux's 'secure' exports and FreeBSD's mountd refuse at MOUNT;
 * nfs-ganesha's PrivilegedPort denies the RPC itself ("not accepted"). */
#define RESERVED_PORT_FIXES \
	"run nasbench as root, or allow non-reserved ports on the server " \
	"(Linux: 'insecure' in /etc/exports; FreeBSD: mountd -n, or sysctl " \
	"vfs.nfsd.nfs_privport=0; TrueNAS: 'allow non-root mount'; " \
	"nfs-ganesha: PrivilegedPort = false)"

static int reserved_port(struct nfsrt *p)
{
	const struct nb_target_cfg *cfg = p->t->cfg;

	return nb_err(-EACCES, "target '%s': NFS server '%s' refused '%s' from a "
		      "non-reserved source port: nasbench runs as a normal user "
		      "(uid %u), only root can use a port below 1024, and this "
		      "server requires one; %s", cfg->name, p->host, cfg->u.path,
		      (unsigned)geteuid(), RESERVED_PORT_FIXES);
}

/* Mount the URL's path or the longest leading part the server exports; the
 * rest is returned in SUB ("" or "/a/b"). */
int nb_nfs_mount(struct nfsrt *p, char *sub, size_t sublen)
{
	const struct nb_target_cfg *cfg = p->t->cfg;
	char path[1024], first[256];
	struct call c;
	int rc, rc0;
	char *slash;

	snprintf(path, sizeof(path), "%s", cfg->u.path);
	while (strlen(path) > 1 && path[strlen(path) - 1] == '/')
		path[strlen(path) - 1] = '\0';
	rc0 = rc = try_mount(p, path, &c);
	snprintf(first, sizeof(first), "%s", c.msg);
	if (rc == -EINVAL || rc == -ENOMEM)
		return rc;
	if (rc == -ETIMEDOUT)
		return nb_err(-ETIMEDOUT, "target '%s': no answer from NFS server "
			      "'%s' within %.0f s", cfg->name, p->host,
			      (double)p->timeout_ns / 1e9);
	/* the RPC denied outright to a client that is not root: the port */
	if (rc && !refused(rc) && geteuid() != 0 && strstr(first, "not accepted"))
		return reserved_port(p);
	if (rc && !refused(rc))
		return unreachable(p, rc, first);
	while (rc && refused(rc) && (slash = strrchr(path, '/')) && slash != path) {
		*slash = '\0';
		rc = try_mount(p, path, &c);
	}
	if (rc && refused(rc) && strcmp(path, "/")) {
		strcpy(path, "/");
		rc = try_mount(p, path, &c);
	}
	if (rc && geteuid() != 0)
		return nb_err(-EACCES, "target '%s': NFS server '%s' refused to mount "
			      "'%s': %s (no export holds it, it is not exported "
			      "to this client, or it requires a reserved source port, "
			      "which only root has: %s)", cfg->name, p->host,
			      cfg->u.path, strerror(-rc0), RESERVED_PORT_FIXES);
	if (rc)
		return nb_err(-EACCES, "target '%s': NFS server '%s' refused to mount "
			      "'%s': %s (no export holds it, or it is not exported "
			      "to this client)", cfg->name, p->host, cfg->u.path,
			      strerror(-rc0));
	snprintf(sub, sublen, "%s",
		 strcmp(path, "/") ? cfg->u.path + strlen(path) : cfg->u.path);
	while (strlen(sub) > 0 && sub[strlen(sub) - 1] == '/')
		sub[strlen(sub) - 1] = '\0';
	return 0;
}
