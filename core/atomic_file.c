/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "atomic_file.h"
#include "err.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void dir_of(const char *path, char *dir, size_t len)
{
	char tmp[4096];

	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(dir, len, "%s", dirname(tmp));
}

int nb_out_starts(const char *head, size_t len, const char *prefix)
{
	size_t i = 0, n = strlen(prefix);

	while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' ||
			   head[i] == '\r'))
		i++;
	return len - i >= n && !memcmp(head + i, prefix, n);
}

int nb_out_has(const char *head, size_t len, const char *needle)
{
	return memmem(head, len, needle, strlen(needle)) != NULL;
}

static int refuse(const char *path, const char *why, const char *what)
{
	return nb_err(-EEXIST, "'%s' %s%s: not replacing it; remove it or choose "
		      "another name", path, why, what);
}

/* May PATH be replaced by an output of KIND?  0 when it is absent (*ST's
 * st_mode 0) or may be replaced (*ST its status), -EEXIST when it holds
 * something else, -errno when it cannot be told. */
static int replaceable(const char *path, const struct nb_out_kind *kind,
		       struct stat *st)
{
	char head[NB_OUT_HEAD];
	ssize_t n;
	int fd, e;

	memset(st, 0, sizeof(*st));
	if (lstat(path, st)) {
		if (errno == ENOENT)
			return 0;
		e = errno;
		return nb_err(-e, "unable to write '%s': %s", path, strerror(e));
	}
	if (S_ISLNK(st->st_mode))
		return refuse(path, "is a symbolic link", "");
	if (S_ISDIR(st->st_mode))
		return refuse(path, "is a directory", "");
	if (!S_ISREG(st->st_mode))
		return refuse(path, "is not a regular file (standard output is "
			      "'-')", "");
	if (!st->st_size)
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		return nb_err(-e, "unable to write '%s': cannot read what it holds: "
			      "%s", path, strerror(e));
	}
	do
		n = read(fd, head, sizeof(head));
	while (n < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (n < 0)
		return nb_err(-e, "unable to write '%s': cannot read what it holds: "
			      "%s", path, strerror(e));
	if (kind && kind->ours && kind->ours(head, (size_t)n))
		return 0;
	return refuse(path, "exists and is not ", kind ? kind->what :
		      "a file nasbench wrote");
}

int nb_atomic_check(const char *path, const struct nb_out_kind *kind)
{
	struct stat st;
	char dir[4096];

	if (!strcmp(path, "-"))
		return 0;
	dir_of(path, dir, sizeof(dir));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK)) {
		int e = errno;

		if (!stat(dir, &st) && !S_ISDIR(st.st_mode))
			e = ENOTDIR;

		nb_err_set("unable to write '%s': %s", path, strerror(e));
		return -e;
	}
	return replaceable(path, kind, &st);
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A new file PREFIX<random>SUFFIX, created exclusively and never through
 * a symbolic link (mkstemp's promise, with the umask's mode): its fd, its
 * name in NAME; -errno when none could be made. */
static int create_excl(const char *prefix, const char *suffix, char *name,
		       size_t len)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned counter;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	for (int tries = 0; tries < 100; tries++) {
		uint64_t v = (uint64_t)ts.tv_nsec * 2654435761u ^
			     (uint64_t)getpid() << 20 ^ ++counter * 40503u;
		char r[7];
		int fd;

		for (int i = 0; i < 6; i++, v /= 36)
			r[i] = digits[v % 36];
		r[6] = '\0';
		if (snprintf(name, len, "%s%s%s", prefix, r, suffix) >= (int)len)
			return -ENAMETOOLONG;
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  0644);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
		ts.tv_nsec += 7919;
	}
	return -EEXIST;
}

/* DATA into the new file FD (NAME): written, fsynced, closed; removed on
 * any failure.  0 or -errno. */
static int fill(int fd, const char *name, const void *data, size_t len)
{
	int rc = write_all(fd, data, len);

	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (rc)
		unlink(name);
	return rc;
}

static int to_stdout(const void *data, size_t len)
{
	int rc = fflush(stdout) ? -errno : write_all(STDOUT_FILENO, data, len);

	if (rc)
		return nb_err(rc, "unable to write 'standard output': %s",
			      strerror(-rc));
	return 0;
}

int nb_atomic_write(const char *path, const void *data, size_t len,
		    const struct nb_out_kind *kind)
{
	char tmp[4200], prefix[4200], dir[4096];
	struct stat st;
	int fd, rc, dfd;

	if (!strcmp(path, "-"))
		return to_stdout(data, len);
	rc = replaceable(path, kind, &st);
	if (rc)
		return rc;
	snprintf(prefix, sizeof(prefix), "%s.tmp.", path);
	fd = create_excl(prefix, "", tmp, sizeof(tmp));
	if (fd < 0) {
		rc = fd;
		goto fail;
	}
	/* a replaced file keeps its mode (a result kept 0600 stays so) */
	if (st.st_mode && fchmod(fd, st.st_mode & 07777)) {
		rc = -errno;
		close(fd);
		unlink(tmp);
		goto fail;
	}
	rc = fill(fd, tmp, data, len);
	if (rc)
		goto fail;
	/* PATH again, as late as can be: a long run may end long after the
	 * check, and another program may have put a file there meanwhile */
	rc = replaceable(path, kind, &st);
	if (rc) {
		unlink(tmp);
		return rc;
	}
	if (rename(tmp, path)) {
		rc = -errno;
		unlink(tmp);
		goto fail;
	}
	/* best effort: the file is complete and in place; a directory that
	 * cannot be fsynced (some FUSE file systems) keeps the rename in the
	 * page cache until the kernel writes it */
	dir_of(path, dir, sizeof(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	return 0;
fail:
	nb_err_set("unable to write '%s': %s", path, strerror(-rc));
	return rc;
}

/* The places nb_atomic_rescue() tries, in order, without repeats. */
static int rescue_dirs(const char *dirs[3])
{
	const char *t = getenv("TMPDIR");
	int n = 0;

	if (t && t[0] == '/')
		dirs[n++] = t;
	if (!n || strcmp(dirs[0], "/tmp"))
		dirs[n++] = "/tmp";
	dirs[n++] = ".";
	return n;
}

int nb_atomic_rescue(const char *name, const char *suffix, const void *data,
		     size_t len, char *where, size_t wlen)
{
	const char *dirs[3];
	char prefix[PATH_MAX], made[PATH_MAX], cwd[PATH_MAX], why[1024] = "";
	int n = rescue_dirs(dirs), rc = -EIO;

	for (int i = 0; i < n; i++) {
		const char *d = dirs[i];
		size_t l = strlen(why);
		int fd;

		/* the current directory by ".", its name said (it may be
		 * out of reach by name: a directory mounted over) */
		snprintf(prefix, sizeof(prefix), "%s%s%s-", d,
			 d[strlen(d) - 1] == '/' ? "" : "/", name);
		fd = create_excl(prefix, suffix, made, sizeof(made));
		rc = fd < 0 ? fd : fill(fd, made, data, len);
		if (!strcmp(d, ".") && getcwd(cwd, sizeof(cwd)))
			d = cwd;
		if (!rc) {
			snprintf(where, wlen, "%s%s", d == cwd ? cwd : "",
				 d == cwd ? made + 1 : made);
			return 0;
		}
		snprintf(why + l, sizeof(why) - l, "%s'%s': %s", l ? ", " : "", d,
			 strerror(-rc));
	}
	where[0] = '\0';
	return nb_err(rc, "no other place took it (%s)", why);
}
