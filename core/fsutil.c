/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsutil.c - small file-system helpers (see fsutil.h).
 */
#include "fsutil.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* nftw() passes no payload: the first failure of this thread's walk */
static _Thread_local int first_err;

static int rm_entry(const char *path, const struct stat *sb, int type,
		    struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	/* go on past a failure: remove what can be removed */
	if ((type == FTW_DP ? rmdir(path) : unlink(path)) && errno != ENOENT &&
	    !first_err)
		first_err = errno;
	return 0;
}

int nb_rmtree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	first_err = 0;
	if (nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS) && !first_err)
		first_err = errno ? errno : EIO;
	return -first_err;
}

int nb_read_file(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0;
	ssize_t n;
	int e;

	*buf = NULL;
	if (len)
		*len = 0;
	if (!f)
		return -errno;
	errno = 0;
	n = getdelim(buf, &cap, '\0', f);
	e = errno;
	fclose(f);
	if (n < 0 && e) {
		free(*buf);
		*buf = NULL;
		return -e;
	}
	if (n < 0) {
		/* an empty file: getdelim() reads nothing */
		free(*buf);
		*buf = calloc(1, 1);
		if (!*buf)
			return -ENOMEM;
		n = 0;
	}
	if (len)
		*len = (size_t)n;
	return 0;
}
