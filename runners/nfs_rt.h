/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfs_rt.h - inside the NFS runner: its state and the calls its two files
 *            share (runners/nfs_conn.c: the connection, the event loop and
 *            the mount; runners/nfs.c: the ops table).
 */
#ifndef NB_RUNNER_NFS_RT_H
#define NB_RUNNER_NFS_RT_H

#include "runner.h"

#include <stdint.h>
#include <nfsc/libnfs.h>

#define TICK_MS 100
#define DEFAULT_MAX (1U << 20)

/* One submitted I/O: split into NPARTS RPCs. */
struct req {
	struct nfsrt *p;
	struct nb_io *io;        /* NULL once abandoned */
	struct req *prev, *next; /* in p->inflight, then in p->done */
	uint64_t t0;
	int64_t bytes;
	int err;                 /* first error of a part (-errno) */
	uint32_t left;           /* parts still in flight */
	uint32_t nparts;
	struct part {
		struct req *r;
		uint32_t off, len;
	} parts[];
};

struct rq {
	struct req *head, *tail;
};

struct nfsrt {
	struct nb_target *t;
	struct nfs_context *nfs;
	char host[256];
	char mounted[1024];      /* the export path that was mounted */
	char root[1100];         /* scratch dir, relative to the mount */
	char sub[1024];          /* the target's directory, relative to it */
	int made_root;
	uint64_t timeout_ns;
	uint64_t rmax, wmax;
	struct rq inflight, done;
	int ninflight;
	struct nb_file *files;   /* open files (their handles die with a loss) */
	int timed_out;           /* libnfs gave up on an RPC (its timeout) */
	char lost[768];          /* why the target is gone ("" while alive) */
};

struct nb_file {
	struct nfsrt *p;
	struct nb_file *next;    /* in p->files */
	struct nfsfh *fh;
	struct nfsfh *fh_sync;   /* O_SYNC twin for FUA writes, opened lazily */
	int sync;                /* fh itself was opened O_SYNC */
	char path[1200];
};

static inline struct nfsrt *P(struct nb_target *t)
{
	return t->priv;
}

static inline void rq_push(struct rq *q, struct req *r)
{
	r->next = NULL;
	r->prev = q->tail;
	if (q->tail)
		q->tail->next = r;
	else
		q->head = r;
	q->tail = r;
}

static inline void rq_del(struct rq *q, struct req *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		q->head = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else
		q->tail = r->prev;
	r->prev = r->next = NULL;
}

/* The answer to one call (mount, metadata). */
struct call {
	int done;
	int status;
	void *ptr;               /* data handed back (nfsfh, nfsdir) */
	void *copy;              /* or copy COPY_LEN bytes of it here */
	size_t copy_len;
	char msg[256];           /* libnfs's text on failure */
};

/* The server is gone: destroy the context so no callback runs again (in-
 * flight requests are abandoned: their buffers are no longer touched).
 * Returns CODE with "target 'NAME': <why>" set. */
int nb_nfs_lose(struct nfsrt *p, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* -EIO with why the target was lost. */
int nb_nfs_gone(struct nfsrt *p);
/* One round of the event loop: poll up to WAIT_MS, then service.  0, or
 * <0 when the connection is lost (the target is then gone). */
int nb_nfs_service(struct nfsrt *p, int wait_us);
/* Send what libnfs has queued, as far as the socket takes it now.  0, or
 * <0 when the connection is lost (the target is then gone). */
int nb_nfs_kick(struct nfsrt *p);
/* libnfs's callback for a struct call (PRIV). */
void nb_nfs_call_cb(int status, struct nfs_context *nfs, void *data, void *priv);
/* Wait for C after queueing it returned QRC.  Returns C's status (>= 0) or
 * -errno; a timeout loses the target.  WHAT and PATH make the message. */
int nb_nfs_wait_call(struct nfsrt *p, int qrc, struct call *c, const char *what,
		     const char *path);
/* Connect and mount the target's export; SUB gets the path below the
 * mount that is the target's directory.  0 or -errno (detail set). */
int nb_nfs_mount(struct nfsrt *p, char *sub, size_t sublen);

/* Queue FN(P's context, ARGS..., nb_nfs_call_cb, &C) and wait for it:
 * nb_nfs_wait_call()'s result, or nb_nfs_gone() when the connection is
 * already lost (FN is not called).  WHAT and PATH make the message. */
#define NFS_CALL(p, c, what, path, fn, ...)                                 \
	((p)->nfs ? nb_nfs_wait_call((p), fn((p)->nfs, __VA_ARGS__,          \
					     nb_nfs_call_cb, &(c)),            \
				     &(c), (what), (path))                   \
		  : nb_nfs_gone(p))

#define ALIVE(p)                                    \
	do {                                        \
		if (!(p)->nfs)                      \
			return nb_nfs_gone(p);             \
	} while (0)

/* nfs_meta.c: a path under the mount for REL (0, or -ENAMETOOLONG set);
 * a stat of PATH; the ops' metadata calls, a file's server path and the
 * round trip of a NULL call. */
int nb_nfs_full_path(struct nfsrt *p, const char *rel, char *out, size_t len);
int nb_nfs_stat_path(struct nfsrt *p, const char *path, struct nfs_stat_64 *st);
int nb_nfs_mkdir(struct nb_target *t, const char *path);
int nb_nfs_rmdir(struct nb_target *t, const char *path);
int nb_nfs_unlink(struct nb_target *t, const char *path);
int nb_nfs_stat(struct nb_target *t, const char *rel, struct nb_stat *st);
int nb_nfs_rename(struct nb_target *t, const char *from, const char *to);
int nb_nfs_readdir(struct nb_target *t, const char *rel,
		   int (*cb)(const char *name, void *payload), void *payload);
int nb_nfs_remote_path(struct nb_target *t, const char *name, char *url,
		       size_t ulen, char *path, size_t plen, uint64_t *base);
int nb_nfs_ping(struct nb_target *t, uint64_t *rtt_ns);

#endif
