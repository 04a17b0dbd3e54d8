/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grow.h - a buffer that grows by doubling.
 */
#ifndef NB_GROW_H
#define NB_GROW_H

#include <stddef.h>

/* BUF (*CAP bytes; NULL with *CAP 0) made to hold NEED bytes: *CAP doubles,
 * from FIRST when it is 0, until NEED fits.  Returns the buffer (perhaps
 * moved, *CAP updated; BUF itself when it is big enough), or NULL when
 * memory runs out (BUF and *CAP as they were). */
void *nb_grow(void *buf, size_t *cap, size_t need, size_t first);

#endif
