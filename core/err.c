/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char err_buf[1024];

int nb_err_setv(const char *fmt, va_list ap)
{
	vsnprintf(err_buf, sizeof(err_buf), fmt, ap);
	return -1;
}

int nb_err_set(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nb_err_setv(fmt, ap);
	va_end(ap);
	return -1;
}

int nb_err(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nb_err_setv(fmt, ap);
	va_end(ap);
	return code;
}

int nb_err_prefix(const char *fmt, ...)
{
	char old[sizeof(err_buf)], pre[512];
	va_list ap;

	memcpy(old, err_buf, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	snprintf(err_buf, sizeof(err_buf), "%s: %s", pre, old);
	return -1;
}

const char *nb_err_last(void)
{
	return err_buf;
}

void nb_err_clear(void)
{
	err_buf[0] = '\0';
}
