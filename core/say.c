/* SPDX-License-Identifier: GPL-2.0-or-later */
/* say.c - nasbench's own messages on stderr (core/err.h: nb_die_msg(),
 * nb_warn()), apart from err.c so that the error channel and the
 * terminal's sink (core/escape.c, which sets errors) use each other in
 * no loop. */
#include "err.h"
#include "escape.h"

#include <stdio.h>
#include <stdlib.h>

int nb_quiet;

/* "PREFIX<message>\n" on stderr, what came from outside in the message
 * shown, not sent (core/escape.h: a result's label cannot drive the
 * terminal through an error that quotes it). */
static void say(const char *prefix, const char *fmt, va_list ap)
{
	char *msg = NULL;

	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	fputs(prefix, stderr);
	nb_term_text(stderr, msg ? msg : fmt);
	fputc('\n', stderr);
	free(msg);
}

void nb_die_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("nasbench: ", fmt, ap);
	va_end(ap);
}

void nb_warn(const char *fmt, ...)
{
	va_list ap;

	if (nb_quiet)
		return;
	va_start(ap, fmt);
	say("nasbench: warning: ", fmt, ap);
	va_end(ap);
}
