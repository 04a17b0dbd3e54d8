/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lines.h - read a small text file a line at a time, naming each line
 *           "FILE:LINE" for messages (criteria files, client lists).
 */
#ifndef NB_LINES_H
#define NB_LINES_H

enum nb_lines_flag {
	/* cut a line at its first '#' or ';' (a comment after the text);
	 * without it only lines that start with one are comments */
	NB_LINES_TRAILING_COMMENTS = 1 << 0,
};

/* Called with each line that is not blank or a comment, trimmed of white
 * space at both ends (CB may change it), and WHERE "PATH:LINE".  Returns 0
 * to go on, or a negative errno that stops the reading. */
typedef int (*nb_line_fn)(char *line, const char *where, void *payload);

/* Read PATH ("-": standard input) with CB.  WHAT names the file in the
 * error when it cannot be opened ("cannot open WHAT 'PATH': reason").
 * Returns 0, CB's negative errno, or -errno (detail set). */
int nb_lines_read(const char *path, const char *what, unsigned flags,
		  nb_line_fn cb, void *payload);

#endif
