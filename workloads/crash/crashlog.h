/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crashlog.h - crashcheck's journal file: an append-only file of
 *              self-checking lines, each on stable storage before the
 *              append returns.
 *
 * The one writer of a file besides core/atomic_file.c, for what an atomic
 * rewrite cannot do: a record that must survive this client crashing the
 * moment after it was made (crashcheck's acknowledged writes).  Each line
 * is "TEXT #HHHHHHHHHHHHHHHH\n", the hex digits the FNV-1a of TEXT; an
 * append writes the line and fdatasync()s the file (the create also
 * fsync()s the directory), so a crash of this machine can cut off only the
 * line being written.  A reader ignores such a torn last line (no newline,
 * or its check fails); an unsound line before the last is damage, not a
 * crash, and is refused.
 */
#ifndef NB_CRASHLOG_H
#define NB_CRASHLOG_H

#include <stddef.h>

#define NB_JOURNAL_LINE_MAX 4096

struct nb_journal {
	int fd;                  /* -1: closed */
	char path[4096];
};

/* A new journal PATH (it must not exist) holding FIRST as its first line.
 * 0, or -errno with "cannot create the journal 'PATH': reason" set. */
int nb_journal_create(struct nb_journal *j, const char *path, const char *first);

/* Open PATH to append to it.  0 or -errno (detail set). */
int nb_journal_open(struct nb_journal *j, const char *path);

/* Append TEXT (one line, no newline, under NB_JOURNAL_LINE_MAX - 20
 * bytes) and make it durable.  0 or -errno (detail set). */
int nb_journal_append(struct nb_journal *j, const char *text);

/* Append N lines (each as nb_journal_append() takes one) with one write
 * and one fdatasync(): a batch of records made at once (crashcheck's
 * completions reaped together).  0 or -errno (detail set). */
int nb_journal_append_n(struct nb_journal *j, char *const *texts, size_t n);

void nb_journal_close(struct nb_journal *j);

/* Read journal PATH: CB(TEXT, LINE, PAYLOAD) for each sound line in order
 * (non-zero from CB stops the read and is returned).  *TORN (may be NULL)
 * is 1 when a torn last line was ignored.  0, -errno when PATH cannot be
 * read, or -EINVAL for an unsound line before the last ("PATH:LINE: ..."),
 * detail set. */
int nb_journal_read(const char *path,
		    int (*cb)(const char *text, int line, void *payload),
		    void *payload, int *torn);

#endif
