/* SPDX-License-Identifier: GPL-2.0-or-later */
/* version.h - nasbench's version and the versions of what it links. */
#ifndef NB_VERSION_H
#define NB_VERSION_H

#include <jansson.h>

/* The release, "0.2.0" (the file VERSION). */
const char *nb_version(void);

/* The commit it was built from, "abc1234", or "" outside a git tree. */
const char *nb_version_git(void);

/* "0.2.0 (git abc1234)", or "0.2.0" without a commit. */
const char *nb_version_string(void);

/* { "libnfs": "4.0.0", "libiscsi": "1.19.0", "liblzma": "5.4.1", ... } */
json_t *nb_version_libs(void);

#endif
