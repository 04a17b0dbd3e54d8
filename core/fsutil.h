/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsutil.h - small file-system helpers.
 */
#ifndef NB_FSUTIL_H
#define NB_FSUTIL_H

#include <stddef.h>

/* Remove PATH and everything below it (symbolic links are removed, never
 * followed).  A PATH that does not exist is nothing to do: 0.  Otherwise
 * 0, or the -errno of the first failure; it sets no error detail (it runs
 * in clean-up paths, where the detail of an earlier error must survive). */
int nb_rmtree(const char *path);

/* File PATH (text: up to its first NUL byte), NUL-terminated, into *BUF (free() it), its
 * length into *LEN (may be NULL; an empty file is "" and 0).  0, or
 * -errno with no error detail set: the caller says what the file was. */
int nb_read_file(const char *path, char **buf, size_t *len);

#endif
