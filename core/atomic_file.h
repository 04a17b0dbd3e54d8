/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atomic_file.h - every result and report is written through here.
 *
 * The data goes to a temporary file beside PATH, created exclusively
 * (O_CREAT|O_EXCL|O_NOFOLLOW: never through a symbolic link, never over a
 * file another program made), which is written, fsynced and renamed over
 * PATH, and the directory is fsynced: a reader sees the old file or the
 * complete new one, never a truncated one (redis's RDB save).  On any
 * failure (a full disk, an fsync or rename error) the temporary file is
 * removed and PATH is left as it was.  PATH "-" is standard output, for
 * every output of every command.
 *
 * A file nasbench did not write is never replaced: an existing PATH is
 * replaced only when it is empty or an output of the same kind (its first
 * bytes say so: struct nb_out_kind); a symbolic link, a directory, a
 * device or any other file is refused with -EEXIST (docs/security.md,
 * "Nothing lost, nothing clobbered").
 */
#ifndef NB_ATOMIC_FILE_H
#define NB_ATOMIC_FILE_H

#include <stddef.h>

/* How many bytes of an existing file nb_out_kind.ours() is shown. */
#define NB_OUT_HEAD 4096

/* What an output is: OURS says from the first bytes of an existing file
 * (HEAD, LEN of them: NB_OUT_HEAD or the whole of a shorter file; not
 * NUL-terminated) whether it is an output of this kind, one nasbench
 * wrote and may replace; WHAT names the kind in a refusal ("a nasbench
 * result"). */
struct nb_out_kind {
	const char *what;
	int (*ours)(const char *head, size_t len);
};

/* Does HEAD (LEN bytes) start with PREFIX (after leading white space)?
 * What most OURS functions need. */
int nb_out_starts(const char *head, size_t len, const char *prefix);

/* Does HEAD (LEN bytes) contain NEEDLE? */
int nb_out_has(const char *head, size_t len, const char *needle);

/* Write DATA to PATH as above.  KIND: what PATH may already hold (NULL:
 * nothing but an empty file).  0, or -errno with "unable to write 'PATH':
 * reason" set, or -EEXIST with the refusal ("'PATH' exists and is not a
 * nasbench result: not replacing it; ..."). */
int nb_atomic_write(const char *path, const void *data, size_t len,
		    const struct nb_out_kind *kind);

/* Check early that PATH could be written (its directory exists and is
 * writable, and PATH may be replaced as nb_atomic_write() would judge),
 * so a long run does not end in a lost result.  0 or -errno (-EEXIST: a
 * file that is not KIND's). */
int nb_atomic_check(const char *path, const struct nb_out_kind *kind);

/* Save DATA where it can be when its own place could not take it: a new
 * file NAME-XXXXXX.SUFFIX created exclusively in $TMPDIR, else /tmp, else
 * the current directory, fsynced.  0 with its absolute path in WHERE, or
 * -errno with every place's reason set ("no other place took it ('/tmp':
 * No space left on device, ...)"). */
int nb_atomic_rescue(const char *name, const char *suffix, const void *data,
		     size_t len, char *where, size_t wlen);

#endif
