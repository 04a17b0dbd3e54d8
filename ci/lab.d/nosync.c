/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nosync.c - ZFS's sync=disabled for the lab's zfs-fuse 0.7 (which has no
 * sync property), preloaded into zfs-fuse by 'ci/lab up --sync disabled'.
 *
 * zfs-fuse hands libfuse a table of operations in fuse_lowlevel_new(),
 * one per file system it mounts (every dataset, and /zfs-kstat); this shim
 * wraps that call and changes two rows of each: fsync and fsyncdir reply
 * success at once, without the ZIL commit zfs-fuse would do.  What a
 * client was told is durable then lives only in the transaction group
 * being built, in zfs-fuse's memory, until the group is written out: lost
 * when the box crashes (ci/lab crash).  That is the lab's servers' every
 * sync (ganesha answers FILE_SYNC and COMMIT with fsync, tgtd FUA and
 * SYNCHRONIZE CACHE with fdatasync: both fsync over FUSE), as sync=disabled
 * is a property of the dataset.  A file opened O_SYNC would still be
 * written durably (neither server opens one so); the rows are replaced by
 * functions that keep no state, since libfuse copies each table and the
 * tables differ.
 *
 * (libeatmydata preloaded into the servers does it for tgtd, not for
 * ganesha: its VFS FSAL is dlopen'ed with RTLD_DEEPBIND, and LD_DEBUG
 * shows libfsalvfs.so binding fsync to libc, not to the preload.)
 */
#define _GNU_SOURCE
#define FUSE_USE_VERSION 26
#include <dlfcn.h>
#include <fuse_lowlevel.h>
#include <string.h>

static void nosync_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
			 struct fuse_file_info *fi)
{
	(void)ino, (void)datasync, (void)fi;
	fuse_reply_err(req, 0);
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
	struct fuse_lowlevel_ops ours = { 0 };

	if (!next)
		return NULL;
	if (op_size > sizeof(ours))
		op_size = sizeof(ours);
	memcpy(&ours, op, op_size);
	ours.fsync = nosync_fsync;
	ours.fsyncdir = nosync_fsync;
	return next(args, &ours, op_size, userdata);    /* libfuse copies it */
}
