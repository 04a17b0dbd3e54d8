/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfs.h - what the NFS runner exposes besides its ops table (for tests).
 *
 *   nfs://host[:port]/export[/dir][?arg=value&...]
 *
 * NFSv3 through libnfs, no kernel mount.  The path is mounted as given; when
 * the server refuses it, nasbench mounts the longest leading part the server
 * exports and walks the rest as directories.  Arguments:
 *   version=3            the only version (libnfs 4.0 cannot write over NFSv4)
 *   uid=N, gid=N         the credentials sent (default: nasbench's own)
 *   nfsport=N            NFS port, skips the portmapper (host:port sets it too)
 *   mountport=N          MOUNT port, skips the portmapper
 *   tcp-syncnt=N         SYNs to send before a connect fails
 */
#ifndef NB_RUNNER_NFS_H
#define NB_RUNNER_NFS_H

#include <stddef.h>

#include "../core/url.h"

/* Check the arguments of U (target NAME) and write into OUT the URL libnfs
 * is given: "nfs://HOST/PATH?args" with the port as nfsport.  PATH replaces
 * U's path when not NULL.  0, or -EINVAL with the detail set (naming the
 * target and the argument, with "did you mean" for a typo). */
int nb_nfs_libnfs_url(const char *name, const struct nb_url *u,
		      const char *path, char *out, size_t len);

#endif
