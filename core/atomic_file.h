/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atomic_file.h - every result and report is written through here.
 *
 * The data goes to a temporary file beside PATH, which is flushed, fsynced
 * and renamed over PATH, and the directory is fsynced: a reader sees the old
 * file or the complete new one, never a truncated one (redis's RDB save).
 * PATH "-" is standard output, for every output of every command.
 */
#ifndef NB_ATOMIC_FILE_H
#define NB_ATOMIC_FILE_H

#include <stddef.h>

/* 0, or -errno with "unable to write 'PATH': reason" set. */
int nb_atomic_write(const char *path, const void *data, size_t len);

/* Check early that PATH could be written (its directory exists and is
 * writable), so a long run does not end in a lost result.  0 or -errno. */
int nb_atomic_check(const char *path);

#endif
