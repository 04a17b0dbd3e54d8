/*
 * common.c - what the commands share.
 */
#include "cmd.h"
#include "../core/err.h"

#include <stdarg.h>
#include <stdio.h>

int nb_cmd_usage(const char *fmt, ...)
{
	char msg[4400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	nb_die_msg("%s", msg);
	return NB_EXIT_USAGE;
}
