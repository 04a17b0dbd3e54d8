/* SPDX-License-Identifier: GPL-2.0-or-later */
/* grow.c - a buffer that grows by doubling. */
#include "grow.h"

#include <stdlib.h>

void *nb_grow(void *buf, size_t *cap, size_t need, size_t first)
{
	size_t c = *cap ? *cap : first;
	void *more;

	if (need <= *cap)
		return buf;
	while (c < need)
		c *= 2;
	more = realloc(buf, c);
	if (more)
		*cap = c;
	return more;
}
