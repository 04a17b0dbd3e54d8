/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfs.c - an NFSv3 export through libnfs (userspace, no kernel mount).
 *
 * One libnfs context per target, driven by poll() + nfs_service() in reap(),
 * so queue depth is real: every submitted I/O is one or more READ/WRITE RPCs
 * in flight at once (split at the server's maximum transfer size).  Files
 * opened with NB_F_SYNC get O_SYNC, which makes every WRITE FILE_SYNC (what
 * ESXi does); other writes are UNSTABLE and flush() sends COMMIT.  A write
 * that asks for FUA on a file opened without O_SYNC is a FILE_SYNC WRITE.
 * Writes and COMMIT go out as libnfs's raw NFSv3 calls, whose answers say
 * what the server promised (FILE_SYNC / UNSTABLE) and its write verifier
 * (struct nb_io's promise and verf, t->verf).
 *
 * Nothing waits without a deadline: each call (mount, metadata, I/O) gives
 * up after the target's timeout, libnfs's own RPC timeout is set too and
 * nfs_service() is ticked at least every 100 ms so it fires.  When the
 * server is lost, the context is destroyed at once: no callback can touch a
 * caller's buffer after that, and every later call fails with the reason.
 */
#include "nfs_rt.h"
#include "nfs.h"
#include "netsock.h"
#include "../core/err.h"
#include "../core/knobs.h"
#include "../core/suggest.h"
#include "../core/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
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
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-nfs.h>

/* ---- open / close ------------------------------------------------------ */

static int do_mkdir(struct nfsrt *p, const char *path)
{
	struct call c = { 0 };

	return NFS_CALL(p, c, "cannot create directory", path, nfs_mkdir2_async, path, 0755);
}

static int check_dir(struct nfsrt *p, const char *sub)
{
	const struct nb_target_cfg *cfg = p->t->cfg;
	struct nfs_stat_64 st;
	int rc;

	if (!sub[0])
		return 0;
	rc = nb_nfs_stat_path(p, sub, &st);
	if (rc == -ENOENT)
		return nb_err(-ENOENT, "target '%s': '%s' does not exist on NFS "
			      "server '%s' (export '%s')", cfg->name, cfg->u.path,
			      p->host, p->mounted);
	if (rc)
		return rc;
	if (!S_ISDIR(st.nfs_mode))
		return nb_err(-ENOTDIR, "target '%s': '%s' on NFS server '%s' is a "
			      "file, not a directory: give the directory to write "
			      "scratch files in", cfg->name, cfg->u.path, p->host);
	return 0;
}

/*
 * libnfs allocates each RPC's buffer (a 512 KiB WRITE's is the data and its
 * header, a READ's answer likewise) and frees it when the answer comes.
 * glibc hands blocks that large back to the kernel (munmap, or trimming the
 * top of the heap), so the next one is new pages, each a page fault and a
 * page of zeroes: 12.5 faults per 512 KiB write here, fio's nfs engine 7.8.
 * Keep freed memory for reuse (the process is a benchmark: what it held at
 * its peak, QD buffers, it may as well keep).
 */
static void keep_rpc_buffers(void)
{
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

static int nfs_rt_open(struct nb_target *t)
{
	const struct nb_target_cfg *cfg = t->cfg;
	struct nfsrt *p = calloc(1, sizeof(*p));
	char sub[1024], lurl[2048];
	int rc;

	if (!p)
		return nb_err(-ENOMEM, "out of memory");
	t->priv = p;
	p->t = t;
	keep_rpc_buffers();
	p->timeout_ns = (cfg->timeout_us ? cfg->timeout_us
					 : nb_knob_default("target", "timeout")) * 1000;
	snprintf(p->host, sizeof(p->host), "%s", cfg->u.host);
	/* bad arguments before any network traffic */
	rc = nb_nfs_libnfs_url(cfg->name, &cfg->u, NULL, lurl, sizeof(lurl));
	if (rc)
		return rc;
	rc = nb_nfs_mount(p, sub, sizeof(sub));
	if (rc)
		return rc;
	rc = check_dir(p, sub);
	if (rc)
		return rc;
	snprintf(p->sub, sizeof(p->sub), "%s", sub[0] ? sub : "/");
	nb_net_sockinfo(nfs_get_fd(p->nfs), &t->sock);
	p->rmax = nfs_get_readmax(p->nfs);
	p->wmax = nfs_get_writemax(p->nfs);
	if (!p->rmax || p->rmax > DEFAULT_MAX * 64)
		p->rmax = DEFAULT_MAX;
	if (!p->wmax || p->wmax > DEFAULT_MAX * 64)
		p->wmax = DEFAULT_MAX;
	snprintf(p->root, sizeof(p->root), "%s/nasbench.%s", sub,
		 cfg->run_id ? cfg->run_id : "run");
	t->caps = NB_CAP_FILES | NB_CAP_ASYNC | NB_CAP_SYNC | NB_CAP_META |
		  NB_CAP_DIRECT;
	if (cfg->probe)          /* only to say which export it is */
		return 0;
	rc = do_mkdir(p, p->root);
	/* attach: a crashed run's directory, or made again if the box lost it */
	if (rc == -EEXIST && t->attach)
		rc = 0;
	if (rc == -EACCES || rc == -EPERM || rc == -EROFS)
		return nb_err(rc, "target '%s': cannot create the scratch directory "
			      "'%s%s' on NFS server '%s': %s", cfg->name, p->mounted,
			      p->root, p->host, strerror(-rc));
	if (rc)
		return rc;
	p->made_root = 1;
	return 0;
}

/* Remove DIR (relative to the mount) and everything in it. */
static int remove_tree(struct nfsrt *p, const char *dir, int depth)
{
	struct call c = { 0 };
	struct nfsdirent *de;
	struct nfsdir *d;
	char child[2048];
	int rc;

	rc = NFS_CALL(p, c, "cannot read directory", dir, nfs_opendir_async, dir);
	if (rc < 0)
		return rc;
	d = c.ptr;
	rc = 0;
	while (!rc && p->nfs && (de = nfs_readdir(p->nfs, d))) {
		if (!strcmp(de->name, ".") || !strcmp(de->name, ".."))
			continue;
		snprintf(child, sizeof(child), "%s/%s", dir, de->name);
		if (S_ISDIR(de->mode) && depth < 32) {
			rc = remove_tree(p, child, depth + 1);
		} else {
			struct call u = { 0 };

			rc = NFS_CALL(p, u, "cannot remove", child, nfs_unlink_async, child);
		}
	}
	if (p->nfs)
		nfs_closedir(p->nfs, d);
	if (!rc) {
		struct call r = { 0 };

		rc = NFS_CALL(p, r, "cannot remove", dir, nfs_rmdir_async, dir);
	}
	return rc < 0 ? rc : 0;
}

static void nfs_rt_close(struct nb_target *t)
{
	struct nfsrt *p = P(t);

	if (!p)
		return;
	if (p->made_root && !t->cfg->keep && !t->detach) {
		if (p->nfs && p->ninflight)
			nb_nfs_lose(p, -EIO, "closed with I/O in flight");
		if (!p->nfs || remove_tree(p, p->root, 0)) {
			snprintf(t->leftover, sizeof(t->leftover),
				 "could not remove the scratch directory "
				 "'%s%s' on NFS server '%s': %s", p->mounted,
				 p->root, p->host,
				 p->lost[0] ? p->lost : nb_err_last());
			nb_warn("target '%s': %s", t->cfg->name, t->leftover);
		}
	}
	if (p->nfs)
		nb_nfs_lose(p, -EIO, "closed");
	free(p);
	t->priv = NULL;
}

static int nfs_rt_space(struct nb_target *t, uint64_t *avail)
{
	struct nfsrt *p = P(t);
	struct nfs_statvfs_64 vfs;
	struct call c = { .copy = &vfs, .copy_len = sizeof(vfs) };
	int rc;

	rc = NFS_CALL(p, c, "cannot statvfs", p->root, nfs_statvfs64_async, p->root);
	if (rc < 0)
		return rc;
	*avail = vfs.f_bavail * (vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize);
	return 0;
}

/* ---- files ------------------------------------------------------------- */

static int open_fh(struct nfsrt *p, const char *path, unsigned flags,
		   struct nfsfh **fh)
{
	struct call c = { 0 };
	int oflags, rc;

	oflags = nb_open_flags(flags, O_SYNC);
	rc = NFS_CALL(p, c, "cannot open", path, nfs_open2_async, path, oflags, 0644);
	if (rc < 0)
		return rc;
	*fh = c.ptr;
	return 0;
}

static int nfs_rt_fopen(struct nb_target *t, const char *name, unsigned flags,
			struct nb_file **out)
{
	struct nfsrt *p = P(t);
	struct nb_file *f = calloc(1, sizeof(*f));
	int rc;

	if (!f)
		return nb_err(-ENOMEM, "out of memory");
	f->p = p;
	rc = nb_nfs_full_path(p, name, f->path, sizeof(f->path));
	if (!rc)
		rc = open_fh(p, f->path, flags, &f->fh);
	if (rc) {
		free(f);
		return rc;
	}
	f->sync = !!(flags & NB_F_SYNC);
	f->next = p->files;
	p->files = f;
	*out = f;
	return 0;
}

static int close_fh(struct nfsrt *p, struct nfsfh *fh, const char *path)
{
	struct call c = { 0 };

	return NFS_CALL(p, c, "cannot close", path, nfs_close_async, fh);
}

static int nfs_rt_fclose(struct nb_file *f)
{
	struct nfsrt *p = f->p;
	struct nb_file **pp;
	int rc = 0;

	for (pp = &p->files; *pp && *pp != f; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = f->next;
	/* after a loss the handles went with the context */
	if (p->nfs && f->fh_sync)
		rc = close_fh(p, f->fh_sync, f->path);
	if (p->nfs && f->fh && !rc)
		rc = close_fh(p, f->fh, f->path);
	free(f);
	return rc < 0 ? rc : 0;
}

static int nfs_rt_fsize(struct nb_file *f, uint64_t *size)
{
	struct nfsrt *p = f->p;
	struct nfs_stat_64 st;
	struct call c = { .copy = &st, .copy_len = sizeof(st) };
	int rc;

	rc = NFS_CALL(p, c, "cannot stat", f->path, nfs_fstat64_async, f->fh);
	if (rc < 0)
		return rc;
	*size = st.nfs_size;
	return 0;
}

/*
 * libnfs 4.0 keeps struct nfs_fh private (libnfs-private.h: int len; char
 * *val) and hands it out by nfs_get_fh(); its raw WRITE and COMMIT calls
 * take the handle as an nfs_fh3.  Only the raw calls answer with what the
 * server promised (WRITE3resok.committed) and its write verifier
 * (crashcheck's evidence, docs/crashcheck.md).
 */
struct libnfs_fh {
	int len;
	char *val;
};

static void fh3_of(struct nfsfh *fh, nfs_fh3 *out)
{
	const struct libnfs_fh *h = (const struct libnfs_fh *)nfs_get_fh(fh);

	out->data.data_len = (u_int)h->len;
	out->data.data_val = h->val;
}

static uint64_t verf_of(const char *v)
{
	uint64_t x;

	memcpy(&x, v, sizeof(x));
	return x;
}

static void commit_cb(struct rpc_context *rpc, int status, void *data, void *priv)
{
	struct call *c = priv;
	COMMIT3res *res = data;

	(void)rpc;
	c->done = 1;
	if (status != RPC_STATUS_SUCCESS) {
		c->status = status == RPC_STATUS_TIMEOUT ? -EINTR : -EIO;
		return;
	}
	if (res->status != NFS3_OK) {
		c->status = -EIO;
		return;
	}
	c->status = 0;
	memcpy(c->copy, res->COMMIT3res_u.resok.verf, NFS3_WRITEVERFSIZE);
}

/* COMMIT of the whole file; the server's write verifier into t->verf. */
static int nfs_rt_flush(struct nb_file *f)
{
	struct nfsrt *p = f->p;
	char verf[NFS3_WRITEVERFSIZE];
	struct call c = { .copy = verf };
	COMMIT3args a = { .offset = 0, .count = 0 };
	int rc;

	if (!p->nfs)
		return nb_nfs_gone(p);
	fh3_of(f->fh, &a.file);
	rc = rpc_nfs3_commit_async(nfs_get_rpc_context(p->nfs), commit_cb, &a, &c);
	rc = nb_nfs_wait_call(p, rc, &c, "COMMIT failed on", f->path);
	if (rc < 0)
		return rc;
	p->t->verf = verf_of(verf);
	return 0;
}

/* ---- the data path ----------------------------------------------------- */

/* libnfs 4.0 hands server errors to READ/WRITE callbacks as -EFAULT; the
 * NFS status is in the context's error text ("Write failed with
 * NFS3ERR_NOSPC(-28)"). */
static int nfs_errno(int status, struct nfs_context *nfs)
{
	const char *msg = nfs ? nfs_get_error(nfs) : NULL;
	static const struct { const char *name; int e; } map[] = {
		{ "NFS3ERR_NOSPC", ENOSPC }, { "NFS3ERR_DQUOT", EDQUOT },
		{ "NFS3ERR_ROFS", EROFS },   { "NFS3ERR_ACCES", EACCES },
		{ "NFS3ERR_PERM", EPERM },   { "NFS3ERR_FBIG", EFBIG },
		{ "NFS3ERR_STALE", ESTALE }, { "NFS3ERR_IO", EIO },
	};

	if (status != -EFAULT || !msg)
		return status;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strstr(msg, map[i].name))
			return -map[i].e;
	return status;
}

static void part_done(struct req *r, int status)
{
	struct nfsrt *p = r->p;

	/* libnfs reports its RPC timeout as -EINTR (a cancel while p->nfs is
	 * NULL is our own destroy) */
	if (status == -EINTR && p->nfs)
		p->timed_out = 1;
	if (status < 0 && !r->err)
		r->err = status;
	if (--r->left)
		return;
	rq_del(&p->inflight, r);
	p->ninflight--;
	if (!r->io) {              /* abandoned: nobody waits for it */
		free(r);
		return;
	}
	rq_push(&p->done, r);
}

static void read_cb(int status, struct nfs_context *nfs, void *data, void *priv)
{
	struct part *pt = priv;
	struct req *r = pt->r;

	if (status < 0 && r->p->nfs)
		status = nfs_errno(status, nfs);
	/* the data is libnfs's: copy it while the callback runs */
	if (status > 0 && r->io) {
		uint32_t n = (uint32_t)status > pt->len ? pt->len : (uint32_t)status;

		memcpy((char *)r->io->buf + pt->off, data, n);
		r->bytes += n;
	}
	part_done(r, status);
}

static int nfs3_errno(nfsstat3 st)
{
	switch (st) {
	case NFS3ERR_NOSPC: return -ENOSPC;
	case NFS3ERR_DQUOT: return -EDQUOT;
	case NFS3ERR_ROFS: return -EROFS;
	case NFS3ERR_ACCES: return -EACCES;
	case NFS3ERR_PERM: return -EPERM;
	case NFS3ERR_FBIG: return -EFBIG;
	case NFS3ERR_STALE: return -ESTALE;
	default: return -EIO;
	}
}

/* A raw WRITE's answer: the bytes, what the server promised (FILE_SYNC
 * or DATA_SYNC: on stable storage; UNSTABLE: until a COMMIT with the same
 * verifier) and its write verifier, kept on the I/O and the target. */
static void write_cb(struct rpc_context *rpc, int status, void *data, void *priv)
{
	struct part *pt = priv;
	struct req *r = pt->r;
	WRITE3res *res = data;
	int st;

	(void)rpc;
	if (status == RPC_STATUS_SUCCESS && res->status == NFS3_OK) {
		WRITE3resok *ok = &res->WRITE3res_u.resok;

		st = (int)ok->count;
		r->bytes += ok->count;
		if (r->io && r->p->nfs) {
			r->io->verf = verf_of(ok->verf);
			r->p->t->verf = r->io->verf;
			/* one UNSTABLE part makes the whole write unstable */
			if (ok->committed == UNSTABLE || r->io->promise != NB_PROMISE_CACHED)
				r->io->promise = ok->committed == UNSTABLE ?
						 NB_PROMISE_CACHED : NB_PROMISE_DURABLE;
		}
	} else {
		/* libnfs's RPC timeout is -EINTR in part_done (a cancel while
		 * p->nfs is NULL is our own destroy) */
		st = status == RPC_STATUS_SUCCESS ? nfs3_errno(res->status) :
		     status == RPC_STATUS_TIMEOUT || status == RPC_STATUS_CANCEL ?
		     -EINTR : -EIO;
	}
	part_done(r, st);
}

/* One part of a write as a raw WRITE (FILE_SYNC when the file is opened
 * sync or the write asks for FUA, else UNSTABLE). */
static int write_part(struct nfsrt *p, struct nb_file *f, struct nb_io *io,
		      struct part *pt)
{
	WRITE3args a = { .offset = io->off + pt->off, .count = pt->len };

	fh3_of(f->fh, &a.file);
	a.stable = f->sync || io->fua ? FILE_SYNC : UNSTABLE;
	a.data.data_len = pt->len;
	a.data.data_val = (char *)io->buf + pt->off;
	return rpc_nfs3_write_async(nfs_get_rpc_context(p->nfs), write_cb, &a, pt);
}

static int nfs_rt_submit(struct nb_target *t, struct nb_io *io)
{
	struct nfsrt *p = P(t);
	struct nb_file *f = io->file;
	uint64_t max = io->op == NB_OP_READ ? p->rmax : p->wmax;
	uint32_t nparts = (uint32_t)((io->len + max - 1) / max);
	struct nfsfh *fh = f->fh;
	struct req *r;
	int rc;

	ALIVE(p);
	if (!nparts)
		nparts = 1;
	io->promise = NB_PROMISE_ASKED;
	io->verf = 0;
	r = calloc(1, sizeof(*r) + nparts * sizeof(r->parts[0]));
	if (!r)
		return nb_err(-ENOMEM, "out of memory");
	r->p = p;
	r->io = io;
	r->nparts = nparts;
	r->t0 = nb_now_ns();
	rq_push(&p->inflight, r);
	p->ninflight++;
	io->rpriv = r;
	for (uint32_t i = 0; i < nparts; i++) {
		struct part *pt = &r->parts[i];

		pt->r = r;
		pt->off = (uint32_t)(i * max);
		pt->len = (uint32_t)(io->len - pt->off < max ? io->len - pt->off : max);
		r->left++;
		if (io->op == NB_OP_READ)
			rc = nfs_pread_async(p->nfs, fh, io->off + pt->off, pt->len,
					     read_cb, pt);
		else
			rc = write_part(p, f, io, pt);
		if (rc < 0) {
			/* parts already queued are in flight: finish them as failed */
			r->left--;
			if (!r->err)
				r->err = -EIO;
			if (!r->left) {
				rq_del(&p->inflight, r);
				p->ninflight--;
				rq_push(&p->done, r);
			}
			return nb_nfs_lose(p, -EIO, "cannot queue a %s: %s",
				    io->op == NB_OP_READ ? "READ" : "WRITE",
				    nfs_get_error(p->nfs));
		}
	}
	return nb_nfs_kick(p);
}

static int pop_done(struct nfsrt *p, struct nb_io **done, int max)
{
	int n = 0;

	while (n < max && p->done.head) {
		struct req *r = p->done.head;
		struct nb_io *io = r->io;

		rq_del(&p->done, r);
		io->result = r->err ? r->err : r->bytes;
		io->rpriv = NULL;
		done[n++] = io;
		free(r);
	}
	return n;
}

/* A request got no answer in time: the target is lost, with why (a
 * jumbo-frame black hole when the connection looks like one). */
static int timed_out(struct nfsrt *p)
{
	char bh[400];

	if (nb_net_blackhole(nfs_get_fd(p->nfs), &p->t->sock, bh, sizeof(bh)))
		return nb_nfs_lose(p, -ETIMEDOUT, "no answer from NFS server '%s' "
				   "within %.0f s: %s", p->host,
				   (double)p->timeout_ns / 1e9, bh);
	return nb_nfs_lose(p, -ETIMEDOUT, "no answer from NFS server '%s' "
			   "within %.0f s", p->host, (double)p->timeout_ns / 1e9);
}

static int nfs_rt_reap(struct nb_target *t, struct nb_io **done, int max,
		       int timeout_us)
{
	struct nfsrt *p = P(t);
	uint64_t start = nb_now_ns(), deadline = start + (uint64_t)timeout_us * 1000;
	int n, rc;

	ALIVE(p);
	n = pop_done(p, done, max);
	if (n || !p->ninflight)
		return n;
	for (;;) {
		uint64_t now = nb_now_ns();
		int wait = now >= deadline ? 0 : (int)((deadline - now) / 1000);

		rc = nb_nfs_service(p, wait);
		if (rc == -EINTR)
			return pop_done(p, done, max);
		if (rc < 0)
			return rc;
		now = nb_now_ns();
		if (p->timed_out ||
		    (p->inflight.head && now - p->inflight.head->t0 > p->timeout_ns))
			return timed_out(p);
		n = pop_done(p, done, max);
		if (n)
			return n;
		if (now >= deadline)
			return 0;
	}
}

static void nfs_rt_pollfd(struct nb_target *t, int *fd, short *events)
{
	struct nfsrt *p = P(t);

	*fd = p && p->nfs ? nfs_get_fd(p->nfs) : -1;
	*events = *fd >= 0 ? (short)nfs_which_events(p->nfs) : 0;
}

/* The target's directory as the server names it: its file system's id and
 * its file id (the same directory behind two addresses has both alike). */
static int nfs_rt_ident(struct nb_target *t, char *id, size_t len)
{
	struct nfsrt *p = P(t);
	struct nfs_stat_64 st;
	int rc;

	ALIVE(p);
	rc = nb_nfs_stat_path(p, p->sub, &st);
	if (rc)
		return rc;
	snprintf(id, len, "fsid %#" PRIx64 " fileid %" PRIu64, (uint64_t)st.nfs_dev,
		 (uint64_t)st.nfs_ino);
	return 0;
}

const struct nb_runner_ops nb_runner_nfs = {
	.name = "nfs",
	.scheme = "nfs",
	.help = "NFSv3 export through libnfs (no mount; sync = FILE_SYNC, "
		"async = UNSTABLE + COMMIT)",
	.caps = NB_CAP_FILES | NB_CAP_ASYNC | NB_CAP_SYNC | NB_CAP_META |
		NB_CAP_DIRECT,
	.open = nfs_rt_open,
	.close = nfs_rt_close,
	.space = nfs_rt_space,
	.fopen = nfs_rt_fopen,
	.fclose = nfs_rt_fclose,
	.fsize = nfs_rt_fsize,
	.flush = nfs_rt_flush,
	.submit = nfs_rt_submit,
	.reap = nfs_rt_reap,
	.mkdir = nb_nfs_mkdir,
	.rmdir = nb_nfs_rmdir,
	.unlink = nb_nfs_unlink,
	.stat = nb_nfs_stat,
	.rename = nb_nfs_rename,
	.readdir = nb_nfs_readdir,
	.remote_path = nb_nfs_remote_path,
	.ping = nb_nfs_ping,
	.pollfd = nfs_rt_pollfd,
	.ident = nfs_rt_ident,
};
