/*
 * fsutil.c - small file-system helpers (see fsutil.h).
 */
#include "fsutil.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
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
