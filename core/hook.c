/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hook.c - the shipped binary's test hook: nothing (see hook.h).  Alone in
 * its object file, so the test build's definition replaces it. */
#include "hook.h"

int nb_hook(const char *point, const char *detail, volatile sig_atomic_t *stop)
{
	(void)point;
	(void)detail;
	(void)stop;
	return 0;
}
