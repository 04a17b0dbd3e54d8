/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * posix.c - a local directory, file or block device, through io_uring.
 *
 * A directory gets a scratch directory nasbench.<run-id>/ that holds every
 * file nasbench makes and is removed at the end.  A file or block device is
 * one address space (like a LUN): it is written only past the data-loss
 * guard.  Queue depth is real: each I/O is sent on an io_uring as it is
 * submitted (one system call each, as fio's default); reap() takes what
 * finished from the ring, waiting only when nothing has.
 */
#include "runner.h"
#include "../core/clock.h"
#include "../core/err.h"
#include "../core/fsutil.h"
#include "../core/guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#include <unistd.h>

enum kind { K_DIR, K_FILE, K_BLOCK };

struct posix {
	enum kind kind;
	char root[PATH_MAX];     /* scratch dir, or the file / device */
	uint64_t size;           /* the whole file or device (its window aside) */
	int made_root;
	struct io_uring ring;
	int inflight;
	int warned_direct;
	int guard_ok;
	int punt;                /* nowait I/O goes to io_uring's workers */
	int blocked;             /* nowait submissions that blocked so far */
};

/* A submission that took longer than this blocked on the device (a FUSE
 * direct_io file answers inside io_uring_enter; a full device queue
 * waits for a tag): docs/capacity.md, "Submissions that block".  This
 * many such make the target hand nowait I/O to io_uring's workers (one
 * may be the thread preempted on a busy machine). */
#define SUBMIT_BLOCKED_NS 200000ULL
#define SUBMIT_BLOCKED_PUNT 3

struct nb_file {
	struct nb_target *t;
	int fd;
	int cached;              /* O_DIRECT refused: through the page cache */
	uint64_t base;           /* window offset on files and devices */
};

static struct posix *P(struct nb_target *t)
{
	return t->priv;
}

static int fail_errno(struct nb_target *t, const char *what, const char *path,
		      int e)
{
	nb_err_set("target '%s': %s '%s': %s", t->cfg->name, what, path,
		   strerror(e));
	return -e;
}

static int open_dir(struct nb_target *t, struct posix *p, const char *path)
{
	snprintf(p->root, sizeof(p->root), "%s/nasbench.%s", path,
		 t->cfg->run_id ? t->cfg->run_id : "run");
	/* attach: a crashed run's directory, or made again if the box lost it */
	if (mkdir(p->root, 0755) && !(t->attach && errno == EEXIST))
		return fail_errno(t, "cannot create scratch directory", p->root, errno);
	p->made_root = 1;
	t->caps = NB_CAP_FILES | NB_CAP_ASYNC | NB_CAP_SYNC | NB_CAP_META |
		  NB_CAP_DIRECT;
	return 0;
}

static int open_space(struct nb_target *t, struct posix *p, const char *path,
		      const struct stat *st)
{
	uint64_t cap = (uint64_t)st->st_size;
	int fd;

	snprintf(p->root, sizeof(p->root), "%s", path);
	if (p->kind == K_BLOCK) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return fail_errno(t, "cannot open", path, errno);
		if (ioctl(fd, BLKGETSIZE64, &cap)) {
			close(fd);
			return fail_errno(t, "cannot read the size of", path, errno);
		}
		int ss = 512;
		ioctl(fd, BLKSSZGET, &ss);
		t->block_size = (uint32_t)ss;
		close(fd);
	}
	p->size = cap;
	if (t->cfg->offset >= cap && cap)
		return nb_err_set("target '%s': offset %llu is past the end of '%s' "
				  "(%llu bytes)", t->cfg->name,
				  (unsigned long long)t->cfg->offset, path,
				  (unsigned long long)cap), -EINVAL;
	cap -= t->cfg->offset;
	if (t->cfg->size) {
		if (t->cfg->size > cap)
			return nb_err_set("target '%s': '%s' has %llu bytes past the "
					  "offset, fewer than the size %llu",
					  t->cfg->name, path, (unsigned long long)cap,
					  (unsigned long long)t->cfg->size), -ENOSPC;
		cap = t->cfg->size;
	}
	if (!cap)
		return nb_err_set("target '%s': '%s' is empty; give a directory, or "
				  "a file or device with room to write", t->cfg->name,
				  path), -ENOSPC;
	t->capacity = cap;
	t->caps = NB_CAP_BLOCK | NB_CAP_ASYNC | NB_CAP_SYNC | NB_CAP_DIRECT;
	return 0;
}

/*
 * The ring as fio 3.33's io_uring engine sets it up: completions posted
 * when the task asks for them (DEFER_TASKRUN, SINGLE_ISSUER: one target is
 * used by one thread) rather than by interrupting it (COOP_TASKRUN), each
 * flag dropped when the kernel does not know it.  The default wakes the
 * engine far less often than fio is woken, batching completions that fio
 * takes one by one (docs/fio.md has the measurement).
 */
static int ring_init(struct io_uring *ring)
{
	static const unsigned tries[] = {
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int rc = -EINVAL;

	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]) && rc == -EINVAL; i++) {
		struct io_uring_params prm = { .flags = tries[i] };

		rc = io_uring_queue_init_params(NB_MAX_QD, ring, &prm);
	}
	return rc;
}

static int posix_open(struct nb_target *t)
{
	const char *path = t->cfg->u.path;
	struct posix *p = calloc(1, sizeof(*p));
	struct stat st;
	int rc;

	if (!p)
		return nb_err_set("out of memory"), -ENOMEM;
	t->priv = p;
	if (stat(path, &st))
		return fail_errno(t, "cannot use", path, errno);
	if (S_ISDIR(st.st_mode)) {
		p->kind = K_DIR;
		rc = open_dir(t, p, path);
	} else if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) {
		p->kind = S_ISBLK(st.st_mode) ? K_BLOCK : K_FILE;
		rc = open_space(t, p, path, &st);
	} else {
		rc = (nb_err_set("target '%s': '%s' is not a directory, file or block "
				"device", t->cfg->name, path), -ENODEV);
	}
	if (rc)
		return rc;
	rc = ring_init(&p->ring);
	if (rc < 0)
		return nb_err_set("target '%s': io_uring is not available: %s",
				  t->cfg->name, strerror(-rc)), rc;
	return 0;
}

static void posix_close(struct nb_target *t)
{
	struct posix *p = P(t);
	int rc;

	if (!p)
		return;
	if (p->ring.ring_fd > 0)
		io_uring_queue_exit(&p->ring);
	if (p->made_root && !t->cfg->keep && !t->detach &&
	    (rc = nb_rmtree(p->root))) {
		snprintf(t->leftover, sizeof(t->leftover),
			 "could not remove '%s': %s", p->root, strerror(-rc));
		nb_warn("target '%s': %s", t->cfg->name, t->leftover);
	}
	free(p);
	t->priv = NULL;
}

static int posix_space(struct nb_target *t, uint64_t *avail)
{
	struct posix *p = P(t);
	struct statvfs vfs;

	if (p->kind != K_DIR) {
		*avail = t->capacity;
		return 0;
	}
	if (statvfs(p->root, &vfs))
		return fail_errno(t, "cannot stat", p->root, errno);
	*avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	return 0;
}

/*
 * Write back and drop FD's pages from the client's page cache, so that
 * what comes next reads the media, not this machine's RAM, as far as the
 * kernel lets us (the run still records that O_DIRECT was refused).
 */
static void drop_cache(int fd)
{
	(void)fdatasync(fd);
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

/* Open PATH; *CACHED is set when O_DIRECT was asked for and refused. */
static int open_fd(struct nb_target *t, const char *path, unsigned flags,
		   int *cached)
{
	struct posix *p = P(t);
	int oflags = O_CLOEXEC | nb_open_flags(flags, O_DSYNC), fd;

	*cached = 0;
	fd = open(path, oflags | ((flags & NB_F_DIRECT) ? O_DIRECT : 0), 0644);
	if (fd < 0 && errno == EINVAL && (flags & NB_F_DIRECT)) {
		if (!p->warned_direct++)
			nb_warn("target '%s': the file system under '%s' refuses "
				"O_DIRECT; measuring through the page cache",
				t->cfg->name, p->root);
		fd = open(path, oflags, 0644);
		if (fd >= 0) {
			*cached = 1;
			t->cached_opens++;
			drop_cache(fd);
		}
	}
	if (fd < 0)
		return fail_errno(t, "cannot open", path, errno);
	return fd;
}

/* The data-loss guard on the whole file or device, not only on F's
 * window: a block device the kernel holds (mounted, swap, md, LVM: an
 * exclusive open fails with EBUSY) is in use whatever its first blocks
 * hold. */
static int guard(struct nb_target *t, struct posix *p, struct nb_file *f)
{
	struct nb_file whole = { .t = t, .base = 0 };
	struct nb_guard_view v = { .whole = &whole, .size = p->size, .win = f,
				   .offset = t->cfg->offset, .len = t->capacity };
	int rc;

	if (t->cfg->destroy_data)
		return 0;
	whole.fd = open(p->root, O_RDONLY | O_CLOEXEC |
			(p->kind == K_BLOCK ? O_EXCL : 0));
	if (whole.fd < 0 && errno == EBUSY) {
		v.busy = "a file system or volume in use (the kernel holds the "
			 "device: mounted, swap, md, LVM or device-mapper)";
		whole.fd = open(p->root, O_RDONLY | O_CLOEXEC);
	}
	if (whole.fd < 0)
		return fail_errno(t, "cannot open", p->root, errno);
	rc = nb_guard_check(t, &v);
	close(whole.fd);
	return rc;
}

static int posix_fopen(struct nb_target *t, const char *name, unsigned flags,
		       struct nb_file **out)
{
	struct posix *p = P(t);
	char path[PATH_MAX + 256];
	struct nb_file *f;
	int fd, cached;

	if (p->kind == K_DIR) {
		snprintf(path, sizeof(path), "%s/%s", p->root, name);
	} else {
		snprintf(path, sizeof(path), "%s", p->root);
		flags &= ~(unsigned)(NB_F_CREATE | NB_F_TRUNC);
		if (flags & NB_F_WRITE)
			flags |= NB_F_READ;     /* the guard reads before writing */
	}
	fd = open_fd(t, path, flags, &cached);
	if (fd < 0)
		return fd;
	f = calloc(1, sizeof(*f));
	if (!f) {
		close(fd);
		return nb_err_set("out of memory"), -ENOMEM;
	}
	f->t = t;
	f->fd = fd;
	f->cached = cached;
	f->base = p->kind == K_DIR ? 0 : t->cfg->offset;
	if (p->kind != K_DIR && (flags & NB_F_WRITE) && !p->guard_ok) {
		int rc = guard(t, p, f);

		if (rc) {
			close(fd);
			free(f);
			return rc;
		}
		p->guard_ok = 1;
	}
	*out = f;
	return 0;
}

static int posix_fclose(struct nb_file *f)
{
	int rc;

	if (f->cached)
		drop_cache(f->fd);
	rc = close(f->fd) ? -errno : 0;

	free(f);
	return rc;
}

static int posix_fsize(struct nb_file *f, uint64_t *size)
{
	struct stat st;

	if (f->t->capacity) {
		*size = f->t->capacity;
		return 0;
	}
	if (fstat(f->fd, &st))
		return nb_err_set("target '%s': fstat: %s", f->t->cfg->name,
				  strerror(errno)), -errno;
	*size = (uint64_t)st.st_size;
	return 0;
}

static int posix_flush(struct nb_file *f)
{
	if (fsync(f->fd))
		return nb_err_set("target '%s': fsync: %s", f->t->cfg->name,
				  strerror(errno)), -errno;
	return 0;
}

/* bonnie++-style synchronous I/O: a system call each, no ring. */
static int64_t posix_pio(struct nb_file *f, int op, void *buf, uint32_t len,
			 uint64_t off, unsigned fua)
{
	struct iovec iov = { buf, len };
	ssize_t n;

	do {
		if (op == NB_OP_READ)
			n = pread(f->fd, buf, len, (off_t)(f->base + off));
		else if (!fua)
			n = pwrite(f->fd, buf, len, (off_t)(f->base + off));
		else
			n = pwritev2(f->fd, &iov, 1, (off_t)(f->base + off),
				     RWF_DSYNC);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return nb_err(-errno, "target '%s': %s at offset %llu failed: %s",
			      f->t->cfg->name, op == NB_OP_READ ? "read" : "write",
			      (unsigned long long)off, strerror(errno));
	return n;
}

/*
 * Send IO at once: one io_uring_enter per I/O, as fio's default
 * (iodepth_batch_submit=1), which also posts the completions the ring
 * deferred, as fio's commit does.  Sending a refill's batch in one call is
 * cheaper, but an I/O's time could then only start once the whole batch
 * was sent (or before any of it), which fio's clat, started after each
 * I/O's own call, neither hides nor adds (docs/fio.md).
 *
 * Once submissions block (SUBMIT_BLOCKED_PUNT of them: a FUSE direct_io
 * file answers inside io_uring_enter), this target hands every I/O to
 * io_uring's workers (IOSQE_ASYNC, fio's force_async): a hand-over per
 * I/O, but a submission no longer holds up the open loop's schedule nor
 * keeps a closed loop's depth at one.
 */
static int posix_submit(struct nb_target *t, struct nb_io *io)
{
	struct posix *p = P(t);
	struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
	uint64_t t0 = 0;
	int rc;

	if (!sqe)
		return nb_err_set("target '%s': io_uring queue full",
				  t->cfg->name), -EBUSY;
	if (io->op == NB_OP_READ) {
		io_uring_prep_read(sqe, io->file->fd, io->buf, io->len,
				   io->file->base + io->off);
	} else {
		io_uring_prep_write(sqe, io->file->fd, io->buf, io->len,
				    io->file->base + io->off);
		if (io->fua)
			sqe->rw_flags = RWF_DSYNC;
	}
	io_uring_sqe_set_data(sqe, io);
	if (p->punt)
		sqe->flags |= IOSQE_ASYNC;
	else
		t0 = nb_now_ns();
	do
		rc = io_uring_submit_and_get_events(&p->ring);
	while (rc == -EINTR);
	if (rc < 0)
		return nb_err_set("target '%s': io_uring: %s", t->cfg->name,
				  strerror(-rc)), rc;
	if (t0 && nb_now_ns() - t0 > SUBMIT_BLOCKED_NS &&
	    ++p->blocked >= SUBMIT_BLOCKED_PUNT)
		p->punt = 1;
	p->inflight++;
	return 0;
}

/* Up to MAX completions from the ring; waits only when there is none. */
static int posix_reap(struct nb_target *t, struct nb_io **done, int max,
		      int timeout_us)
{
	struct posix *p = P(t);
	struct __kernel_timespec ts = { timeout_us / 1000000,
					(long long)(timeout_us % 1000000) * 1000 };
	struct io_uring_cqe *cqe;
	unsigned head;
	int n = 0, rc;

	if (!p->inflight)
		return 0;
	if (!io_uring_cq_ready(&p->ring)) {
		rc = io_uring_wait_cqe_timeout(&p->ring, &cqe, &ts);
		if (rc < 0 && rc != -ETIME && rc != -EINTR)
			return nb_err_set("target '%s': io_uring: %s", t->cfg->name,
					  strerror(-rc)), rc;
	}
	io_uring_for_each_cqe(&p->ring, head, cqe) {
		struct nb_io *io = io_uring_cqe_get_data(cqe);

		if (n == max)
			break;
		io->result = cqe->res;
		done[n++] = io;
	}
	io_uring_cq_advance(&p->ring, (unsigned)n);
	p->inflight -= n;
	return n;
}

/* TRIM: BLKDISCARD on a device, a punched hole in a file (the file
 * system frees the blocks; a loop device over it passes the discard on). */
static int posix_discard(struct nb_file *f, uint64_t off, uint64_t len,
			 const char **how)
{
	struct nb_target *t = f->t;
	uint64_t range[2] = { f->base + off, len };
	int rc;

	if (P(t)->kind == K_BLOCK) {
		*how = "BLKDISCARD";
		rc = ioctl(f->fd, BLKDISCARD, range);
	} else {
		*how = "FALLOC_FL_PUNCH_HOLE";
		rc = fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			       (off_t)range[0], (off_t)len);
	}
	if (!rc)
		return 0;
	rc = errno == ENOTTY || errno == EINVAL ? EOPNOTSUPP : errno;
	nb_err_set("target '%s': %s of %llu bytes at %llu refused: %s",
		   t->cfg->name, *how, (unsigned long long)len,
		   (unsigned long long)range[0], strerror(errno));
	return -rc;
}

static int posix_mkdir(struct nb_target *t, const char *path)
{
	char full[PATH_MAX + 256];

	snprintf(full, sizeof(full), "%s/%s", P(t)->root, path);
	return mkdir(full, 0755) ? fail_errno(t, "mkdir", full, errno) : 0;
}

static int posix_rmdir(struct nb_target *t, const char *path)
{
	char full[PATH_MAX + 256];

	snprintf(full, sizeof(full), "%s/%s", P(t)->root, path);
	return rmdir(full) ? fail_errno(t, "rmdir", full, errno) : 0;
}

static int posix_unlink(struct nb_target *t, const char *path)
{
	char full[PATH_MAX + 256];

	snprintf(full, sizeof(full), "%s/%s", P(t)->root, path);
	return unlink(full) ? fail_errno(t, "unlink", full, errno) : 0;
}

static int posix_stat(struct nb_target *t, const char *path, struct nb_stat *st)
{
	char full[PATH_MAX + 256];
	struct stat s;

	snprintf(full, sizeof(full), "%s/%s", P(t)->root, path);
	if (stat(full, &s))
		return fail_errno(t, "stat", full, errno);
	st->size = (uint64_t)s.st_size;
	st->mtime_ns = (uint64_t)s.st_mtim.tv_sec * 1000000000ULL +
		       (uint64_t)s.st_mtim.tv_nsec;
	st->is_dir = S_ISDIR(s.st_mode);
	return 0;
}

static int posix_rename(struct nb_target *t, const char *from, const char *to)
{
	char a[PATH_MAX + 256], b[PATH_MAX + 256];

	snprintf(a, sizeof(a), "%s/%s", P(t)->root, from);
	snprintf(b, sizeof(b), "%s/%s", P(t)->root, to);
	return rename(a, b) ? fail_errno(t, "rename", a, errno) : 0;
}

static int posix_readdir(struct nb_target *t, const char *path,
			 int (*cb)(const char *name, void *payload), void *payload)
{
	char full[PATH_MAX + 256];
	struct dirent *de;
	DIR *d;

	snprintf(full, sizeof(full), "%s/%s", P(t)->root, path);
	d = opendir(full);
	if (!d)
		return fail_errno(t, "opendir", full, errno);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (cb(de->d_name, payload))
			break;
	}
	closedir(d);
	return 0;
}

static int posix_local_path(struct nb_target *t, const char *name, char *buf,
			    size_t len, uint64_t *base)
{
	struct posix *p = P(t);
	int n = p->kind == K_DIR ? snprintf(buf, len, "%s/%s", p->root, name)
				 : snprintf(buf, len, "%s", p->root);

	*base = p->kind == K_DIR ? 0 : t->cfg->offset;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

const struct nb_runner_ops nb_runner_posix = {
	.name = "posix",
	.scheme = "file",
	.help = "local directory, file or block device (io_uring, O_DIRECT)",
	.caps = NB_CAP_FILES | NB_CAP_BLOCK | NB_CAP_ASYNC | NB_CAP_SYNC |
		NB_CAP_META | NB_CAP_DIRECT,
	.own_read_buffers = 1,
	.open = posix_open,
	.close = posix_close,
	.space = posix_space,
	.fopen = posix_fopen,
	.fclose = posix_fclose,
	.fsize = posix_fsize,
	.flush = posix_flush,
	.submit = posix_submit,
	.reap = posix_reap,
	.pio = posix_pio,
	.discard = posix_discard,
	.mkdir = posix_mkdir,
	.rmdir = posix_rmdir,
	.unlink = posix_unlink,
	.stat = posix_stat,
	.rename = posix_rename,
	.readdir = posix_readdir,
	.local_path = posix_local_path,
};
