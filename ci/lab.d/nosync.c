/*
 * nosync.c - ZFS's sync=disabled for the lab's zfs-fuse 0.7 (which has no
 * sync property), preloaded into zfs-fuse by 'ci/lab up --sync disabled'.
 *
 * zfs-fuse hands libfuse its table of operations in fuse_lowlevel_new();
 * this shim wraps that call and changes three rows: fsync and fsyncdir
 * reply success at once, without the ZIL commit zfs-fuse would do, and
 * open and create drop O_SYNC and O_DSYNC, so writes are not committed one
 * by one either.  What a client was told is durable then lives only in the
 * transaction group being built, in zfs-fuse's memory, until the group is
 * written out: lost when the box crashes (ci/lab crash).  That is every
 * server's sync (ganesha's COMMIT and FILE_SYNC, tgtd's FUA and
 * SYNCHRONIZE CACHE), as sync=disabled is a property of the dataset.
 *
 * (libeatmydata preloaded into the servers does it for tgtd, not for
 * ganesha: its VFS FSAL is dlopen'ed with RTLD_DEEPBIND, and LD_DEBUG
 * shows libfsalvfs.so binding fsync to libc, not to the preload.)
 */
#define _GNU_SOURCE
#define FUSE_USE_VERSION 26
#include <dlfcn.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <string.h>

static struct fuse_lowlevel_ops real, ours;

static void nosync_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
			 struct fuse_file_info *fi)
{
	(void)ino, (void)datasync, (void)fi;
	fuse_reply_err(req, 0);
}

static void nosync_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	fi->flags &= ~(O_SYNC | O_DSYNC);
	real.open(req, ino, fi);
}

static void nosync_create(fuse_req_t req, fuse_ino_t parent, const char *name,
			  mode_t mode, struct fuse_file_info *fi)
{
	fi->flags &= ~(O_SYNC | O_DSYNC);
	real.create(req, parent, name, mode, fi);
}

struct fuse_session *fuse_lowlevel_new(struct fuse_args *args,
				       const struct fuse_lowlevel_ops *op,
				       size_t op_size, void *userdata)
{
	struct fuse_session *(*next)(struct fuse_args *, const struct fuse_lowlevel_ops *,
				     size_t, void *) =
		(struct fuse_session *(*)(struct fuse_args *, const struct fuse_lowlevel_ops *,
					  size_t, void *))dlvsym(RTLD_NEXT, "fuse_lowlevel_new",
								 "FUSE_2.6");

	if (!next)
		return NULL;
	if (op_size > sizeof(real))
		op_size = sizeof(real);
	memcpy(&real, op, op_size);
	ours = real;
	ours.fsync = nosync_fsync;
	ours.fsyncdir = nosync_fsync;
	if (real.open)
		ours.open = nosync_open;
	if (real.create)
		ours.create = nosync_create;
	return next(args, &ours, op_size, userdata);
}
