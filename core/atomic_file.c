/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "atomic_file.h"
#include "err.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

static void dir_of(const char *path, char *dir, size_t len)
{
	char tmp[4096];

	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(dir, len, "%s", dirname(tmp));
}

int nb_atomic_check(const char *path)
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
	return 0;
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

int nb_atomic_write(const char *path, const void *data, size_t len)
{
	char tmp[4200], dir[4096];
	int fd, rc, dfd;

	if (!strcmp(path, "-")) {
		rc = fflush(stdout) ? -errno : write_all(STDOUT_FILENO, data, len);
		if (rc) {
			path = "standard output";
			goto fail;
		}
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = -errno;
		goto fail;
	}
	rc = write_all(fd, data, len);
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc) {
		unlink(tmp);
		goto fail;
	}
	dir_of(path, dir, sizeof(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
fail:
	nb_err_set("unable to write '%s': %s", path, strerror(-rc));
	return rc;
}
