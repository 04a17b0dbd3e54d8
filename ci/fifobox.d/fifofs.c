/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fifofs - a server of known service time, for queueing theory's ground
 * truth (docs/capacity.md, "Checked against queueing theory").
 *
 * A FUSE file system of one file, /disk, opened direct_io (no page cache:
 * every read and write is a request), served by one thread (fuse -s) at
 * SCHED_FIFO, which answers each request after exactly SERVICE of work:
 * it sleeps to an absolute deadline and spins the last 100 us, so the
 * service time does not depend on what else the machine does.  The
 * kernel queues requests in order: a FIFO queue with one server and a
 * deterministic service time, M/D/1 under Poisson arrivals.  Reads return
 * zeros; writes are acknowledged and dropped.
 *
 * On a virtual machine "exactly" is a goal, not a fact: the host can hold
 * the server's CPU for milliseconds whatever its priority.  So the server
 * keeps the record of what it did: with --log FILE, every request's start
 * and end (CLOCK_MONOTONIC ns) go into FILE, mapped shared - a header of
 * the number recorded, then 16 bytes a request, up to LOG_CAP requests -
 * and the queueing model is fed the service times the server really gave
 * (ci/bench-openloop reads the record before and after each run).
 *
 *   fifofs MOUNTPOINT --service-us N --size BYTES [--log FILE] [fuse options]
 */
#define FUSE_USE_VERSION 26
#include <errno.h>
#include <fuse.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define SPIN_NS 100000LL
#define LOG_CAP (4LL << 20)  /* requests recorded: over an hour at 1 ms */

/* the record: count, then { start, end } a request */
struct rec {
	volatile uint64_t n;
	uint64_t pad;
	struct { int64_t start, end; } req[];
};
static struct rec *record;

static int64_t service_ns = 1000000;
static int64_t disk_size = 64 << 20;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* One request's work: SERVICE from now, to the microsecond. */
static void serve(void)
{
	int64_t deadline = now_ns() + service_ns;

	int64_t start = deadline - service_ns;

	if (service_ns > SPIN_NS) {
		int64_t wake = deadline - SPIN_NS;
		struct timespec ts = { wake / 1000000000LL, wake % 1000000000LL };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			;
	}
	while (now_ns() < deadline)
		;
	if (record && record->n < (uint64_t)LOG_CAP) {
		record->req[record->n].start = start;
		record->req[record->n].end = now_ns();
		__atomic_store_n(&record->n, record->n + 1, __ATOMIC_RELEASE);
	}
}

/* Map the record at PATH, empty: 0, or -1 with errno. */
static int record_open(const char *path)
{
	size_t len = sizeof(*record) + LOG_CAP * sizeof(record->req[0]);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)len)) {
		close(fd);
		return -1;
	}
	record = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (record == MAP_FAILED) {
		record = NULL;
		return -1;
	}
	return 0;
}

static int fs_getattr(const char *path, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, "/disk"))
		return -ENOENT;
	st->st_mode = S_IFREG | 0644;
	st->st_nlink = 1;
	st->st_size = disk_size;
	st->st_blocks = disk_size / 512;
	return 0;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi)
{
	(void)off;
	(void)fi;
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0);
	fill(buf, "..", NULL, 0);
	fill(buf, "disk", NULL, 0);
	return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/disk"))
		return -ENOENT;
	fi->direct_io = 1;
	return 0;
}

static int fs_read(const char *path, char *buf, size_t len, off_t off,
		   struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	serve();
	if (off >= disk_size)
		return 0;
	if ((int64_t)len > disk_size - off)
		len = (size_t)(disk_size - off);
	memset(buf, 0, len);
	return (int)len;
}

static int fs_write(const char *path, const char *buf, size_t len, off_t off,
		    struct fuse_file_info *fi)
{
	(void)path;
	(void)buf;
	(void)fi;
	serve();
	if (off + (int64_t)len > disk_size)
		return -ENOSPC;
	return (int)len;
}

static int fs_truncate(const char *path, off_t size)
{
	(void)path;
	return size == disk_size ? 0 : -EPERM;
}

static int fs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	(void)datasync;
	(void)fi;
	return 0;
}

static const struct fuse_operations ops = {
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
	.truncate = fs_truncate,
	.fsync = fs_fsync,
};

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 50 };
	char *args[64];
	const char *log = NULL;
	int n = 0;

	for (int i = 0; i < argc && n < 60; i++) {
		if (!strcmp(argv[i], "--service-us") && i + 1 < argc)
			service_ns = atoll(argv[++i]) * 1000;
		else if (!strcmp(argv[i], "--size") && i + 1 < argc)
			disk_size = atoll(argv[++i]);
		else if (!strcmp(argv[i], "--log") && i + 1 < argc)
			log = argv[++i];
		else
			args[n++] = argv[i];
	}
	if (service_ns < 0 || disk_size <= 0) {
		fprintf(stderr, "fifofs: bad --service-us or --size\n");
		return 2;
	}
	if (log && record_open(log)) {
		perror(log);
		return 2;
	}
	args[n++] = "-s";       /* one thread: one server */
	args[n++] = "-f";
	args[n] = NULL;
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("fifofs: SCHED_FIFO (the service time will vary)");
	mlockall(MCL_CURRENT | MCL_FUTURE);
	return fuse_main(n, args, &ops, NULL);
}
