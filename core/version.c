/* SPDX-License-Identifier: GPL-2.0-or-later */
/* version.c - the one file the Makefile gives the version and commit. */
#include "version.h"

#include <lz4.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>
#include <stdio.h>

/* libnfs and libiscsi have no run-time version call: the Makefile passes
 * what pkg-config said when nasbench was built against them. */
#ifndef NB_LIBNFS_VERSION
#define NB_LIBNFS_VERSION "unknown"
#endif
#ifndef NB_LIBISCSI_VERSION
#define NB_LIBISCSI_VERSION "unknown"
#endif
#ifndef NB_LIBURING_VERSION
#define NB_LIBURING_VERSION "unknown"
#endif
#ifndef NB_INIH_VERSION
#define NB_INIH_VERSION "unknown"
#endif

#ifndef NB_VERSION
#define NB_VERSION "unknown"
#endif
#ifndef NB_GIT
#define NB_GIT ""
#endif

const char *nb_version(void)
{
	return NB_VERSION;
}

const char *nb_version_git(void)
{
	return NB_GIT;
}

const char *nb_version_string(void)
{
	return NB_GIT[0] ? NB_VERSION " (git " NB_GIT ")" : NB_VERSION;
}

json_t *nb_version_libs(void)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}",
			 "libnfs", NB_LIBNFS_VERSION,
			 "libiscsi", NB_LIBISCSI_VERSION,
			 "liblzma", lzma_version_string(),
			 "jansson", jansson_version_str(),
			 "liburing", NB_LIBURING_VERSION,
			 "inih", NB_INIH_VERSION,
			 "liblz4", LZ4_versionString(),
			 "zlib", zlibVersion(),
			 "libzstd", ZSTD_versionString());
}
