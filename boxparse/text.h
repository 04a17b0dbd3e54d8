/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text.h - how a box's text is read: its lines, its words, its counters.
 *
 * Every parser of boxparse/ reads with these, and capture/ and telemetry/
 * with them too, so that what a line, a counter or a name of another
 * machine is has one answer.  The text is not trusted: a line that does
 * not fit the reader's buffer is refused whole (read as ""), never read
 * cut; a line may end in CR LF; a counter is digits only, 64 bits at
 * most; a name is carried as core/boxtext.h makes it.
 */
#ifndef NB_BOXPARSE_TEXT_H
#define NB_BOXPARSE_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* A line the parsers read: longer is refused whole. */
#define NB_BP_LINE 1024
/* The most words of a line a parser reads. */
#define NB_BP_MAXTOK 48

/* The next line of *P into BUF without its CR LF or LF, 0 at the end (a
 * line that does not fit BUF is read as "": refused whole, never cut). */
int nb_bp_line(const char **p, char *buf, size_t len);
/* LINE split at white space into TOK, which holds MAX: the count. */
int nb_bp_split(char *line, char **tok, int max);
/* The spaces that open S: its indent. */
int nb_bp_indent(const char *s);
/* S is digits only (and not empty). */
int nb_bp_uint(const char *s);
/* S is a counter: digits only, not empty, at most 2^64 - 1: 0 with *V,
 * else -1. */
int nb_bp_u64(const char *s, uint64_t *v);
/* S is all a number, finite, from 0 to MAX: 0 with *V, else -1. */
int nb_bp_num(const char *s, double max, double *v);
/* NAME as a box's name is carried (core/boxtext.h) into BUF. */
void nb_bp_name(char *buf, size_t len, const char *name);
/* NAME is a partition of the disk DISK: "sda1" of "sda", "nvme0n1p2" of
 * "nvme0n1", "ada0p3"/"ada0s1" of "ada0"; loop10 is no partition of
 * loop1. */
int nb_bp_partition_of(const char *disk, const char *name);

#endif
