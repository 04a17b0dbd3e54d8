/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfs_meta.c - the NFS runner's metadata calls (mkdir, rmdir, unlink,
 * stat, rename, readdir), a file's path on the server, and the round trip
 * of an NFS NULL call (nfs_rt.h; the ops table is nfs.c's).
 */
#include "nfs_rt.h"
#include "nfs.h"
#include "../core/clock.h"
#include "../core/err.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-nfs.h>

int nb_nfs_stat_path(struct nfsrt *p, const char *path, struct nfs_stat_64 *st)
{
	struct call c = { .copy = st, .copy_len = sizeof(*st) };

	return NFS_CALL(p, c, "cannot stat", path, nfs_stat64_async, path);
}

int nb_nfs_full_path(struct nfsrt *p, const char *rel, char *out, size_t len)
{
	if ((size_t)snprintf(out, len, "%s/%s", p->root, rel) >= len)
		return nb_err(-ENAMETOOLONG, "target '%s': path '%s' too long",
			      p->t->cfg->name, rel);
	return 0;
}

static int meta(struct nb_target *t, const char *rel, const char *what,
		int (*fn)(struct nfs_context *, const char *, nfs_cb, void *))
{
	struct nfsrt *p = P(t);
	char path[2048];
	struct call c = { 0 };
	int rc;

	ALIVE(p);
	rc = nb_nfs_full_path(p, rel, path, sizeof(path));
	if (rc)
		return rc;
	rc = NFS_CALL(p, c, what, path, fn, path);
	return rc < 0 ? rc : 0;
}

static int mkdir_fn(struct nfs_context *nfs, const char *path, nfs_cb cb,
		    void *priv)
{
	return nfs_mkdir2_async(nfs, path, 0755, cb, priv);
}

int nb_nfs_mkdir(struct nb_target *t, const char *path)
{
	return meta(t, path, "cannot create directory", mkdir_fn);
}

int nb_nfs_rmdir(struct nb_target *t, const char *path)
{
	return meta(t, path, "cannot remove directory", nfs_rmdir_async);
}

int nb_nfs_unlink(struct nb_target *t, const char *path)
{
	return meta(t, path, "cannot remove", nfs_unlink_async);
}

int nb_nfs_stat(struct nb_target *t, const char *rel, struct nb_stat *st)
{
	struct nfsrt *p = P(t);
	struct nfs_stat_64 s;
	char path[2048];
	int rc = nb_nfs_full_path(p, rel, path, sizeof(path));

	if (!rc)
		rc = nb_nfs_stat_path(p, path, &s);
	if (rc)
		return rc;
	st->size = s.nfs_size;
	st->mtime_ns = s.nfs_mtime * 1000000000ULL + s.nfs_mtime_nsec;
	st->is_dir = S_ISDIR(s.nfs_mode);
	return 0;
}

int nb_nfs_rename(struct nb_target *t, const char *from, const char *to)
{
	struct nfsrt *p = P(t);
	char a[2048], b[2048];
	struct call c = { 0 };
	int rc;

	ALIVE(p);
	rc = nb_nfs_full_path(p, from, a, sizeof(a));
	if (!rc)
		rc = nb_nfs_full_path(p, to, b, sizeof(b));
	if (rc)
		return rc;
	rc = NFS_CALL(p, c, "cannot rename", a, nfs_rename_async, a, b);
	return rc < 0 ? rc : 0;
}

int nb_nfs_readdir(struct nb_target *t, const char *rel,
		   int (*cb)(const char *name, void *payload), void *payload)
{
	struct nfsrt *p = P(t);
	struct call c = { 0 };
	struct nfsdirent *de;
	char path[2048];
	int rc;

	ALIVE(p);
	rc = nb_nfs_full_path(p, rel, path, sizeof(path));
	if (rc)
		return rc;
	rc = NFS_CALL(p, c, "cannot read directory", path, nfs_opendir_async, path);
	if (rc < 0)
		return rc;
	/* the listing came whole with the answer: no RPC below */
	while ((de = nfs_readdir(p->nfs, c.ptr))) {
		if (!strcmp(de->name, ".") || !strcmp(de->name, ".."))
			continue;
		if (cb(de->name, payload))
			break;
	}
	nfs_closedir(p->nfs, c.ptr);
	return 0;
}

int nb_nfs_remote_path(struct nb_target *t, const char *name,
		       char *url, size_t ulen, char *path, size_t plen,
		       uint64_t *base)
{
	struct nfsrt *p = P(t);
	int rc = nb_nfs_libnfs_url(t->cfg->name, &t->cfg->u, p->mounted, url,
				   ulen);

	*base = 0;
	if (rc)
		return rc;
	/* the scratch directory, relative to the export ("/nasbench.ID") */
	if ((size_t)snprintf(path, plen, "%s/%s", p->root + (p->root[0] == '/'),
			     name) >= plen)
		return nb_err(-ENAMETOOLONG, "target '%s': path '%s' too long",
			      t->cfg->name, name);
	return 0;
}

static void null_cb(struct rpc_context *rpc, int status, void *data, void *priv)
{
	struct call *c = priv;

	(void)rpc;
	(void)data;
	c->done = 1;
	c->status = status == RPC_STATUS_SUCCESS ? 0 :
		    status == RPC_STATUS_TIMEOUT ? -EINTR : -EIO;
}

/* NFSv3 NULL: the server's round trip with no file system work. */
int nb_nfs_ping(struct nb_target *t, uint64_t *rtt_ns)
{
	struct nfsrt *p = P(t);
	struct call c = { 0 };
	uint64_t t0 = nb_now_ns();
	int rc = rpc_nfs3_null_async(nfs_get_rpc_context(p->nfs), null_cb, &c);

	rc = nb_nfs_wait_call(p, rc, &c, "NULL", p->mounted);
	if (rc < 0)
		return rc;
	*rtt_ns = nb_now_ns() - t0;
	return 0;
}
