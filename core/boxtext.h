/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boxtext.h - text another machine said (a box's device, pool and vdev
 *             names, its tools' complaints), made safe to carry: what
 *             nasbench passes on is UTF-8 without control characters.
 *
 * A box's names are bytes: Linux takes any but '/' and NUL in a device
 * mapper name, and a hostile or broken box prints anything.  JSON (jansson
 * refuses a string that is not UTF-8), a load file, a terminal and a
 * report take text.  So each byte that is not part of a UTF-8 character,
 * and each control character (below 0x20, 0x7f), is carried as "\xNN"
 * (two lowercase hex digits); everything else is kept as it was.  The
 * escaped text is itself unchanged by a second pass (a backslash is kept),
 * so a name escaped at a parser and again at a writer stays one name.
 *
 * UTF-8 here is what jansson takes: no overlong form, no surrogate
 * (U+D800..U+DFFF), nothing above U+10FFFF.
 */
#ifndef NB_BOXTEXT_H
#define NB_BOXTEXT_H

#include <stddef.h>

/* S is UTF-8 (as above) and holds no control character. */
int nb_boxtext_clean(const char *s);

/* SRC into DST (LEN bytes, NUL-terminated, not overlapping SRC; cut before a character or an
 * escape that does not fit whole), its bytes that are not UTF-8 and its
 * control characters as "\xNN".  Returns how many bytes were escaped (0:
 * SRC was clean), counting those of a cut tail too. */
int nb_boxtext(char *dst, size_t len, const char *src);

/* The same for the first N bytes of SRC (which may hold NUL bytes:
 * each is carried as "\x00"). */
int nb_boxtextn(char *dst, size_t len, const char *src, size_t n);

#endif
