/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suggest.h - "did you mean ...?" for mistyped names. */
#ifndef NB_SUGGEST_H
#define NB_SUGGEST_H

#include <stddef.h>

/* Levenshtein distance of A and B. */
size_t nb_edit_distance(const char *a, const char *b);

/* The candidate nearest WORD when it is near enough to be a typo, or NULL.
 * CANDS is N strings, any may be NULL (skipped). */
const char *nb_suggest(const char *word, const char *const *cands, size_t n);

/* The same among CHOICES, '|'-separated ("raidz1|raidz2|mirror"): the
 * nearest copied into BUF (LEN bytes) and returned, or NULL. */
const char *nb_suggest_choice(const char *word, const char *choices, char *buf,
			      size_t len);

#endif
