/* SPDX-License-Identifier: GPL-2.0-or-later */
/* text.c - a box's lines, words and counters (text.h). */
#include "text.h"
#include "../core/boxtext.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int nb_bp_line(const char **p, char *buf, size_t len)
{
	const char *s = *p, *e;
	size_t n;

	if (!s || !*s)
		return 0;
	e = strchr(s, '\n');
	n = e ? (size_t)(e - s) : strlen(s);
	*p = e ? e + 1 : s + n;
	if (n && s[n - 1] == '\r')
		n--;
	if (n >= len)
		n = 0;          /* cut, its numbers would be read wrong */
	memcpy(buf, s, n);
	buf[n] = 0;
	return 1;
}

int nb_bp_split(char *line, char **tok, int max)
{
	char *save = NULL;
	int n = 0;

	for (char *s = strtok_r(line, " \t\r", &save); s && n < max;
	     s = strtok_r(NULL, " \t\r", &save))
		tok[n++] = s;
	return n;
}

int nb_bp_indent(const char *s)
{
	int i = 0;

	while (s[i] == ' ')
		i++;
	return i;
}

int nb_bp_uint(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

int nb_bp_u64(const char *s, uint64_t *v)
{
	char *e;

	if (!nb_bp_uint(s))
		return -1;
	errno = 0;
	*v = strtoull(s, &e, 10);
	return errno || *e ? -1 : 0;
}

int nb_bp_num(const char *s, double max, double *v)
{
	char *e;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	*v = strtod(s, &e);
	return *e || !isfinite(*v) || *v < 0 || *v > max ? -1 : 0;
}

void nb_bp_name(char *buf, size_t len, const char *name)
{
	nb_boxtext(buf, len, name);
}

int nb_bp_partition_of(const char *disk, const char *name)
{
	size_t l = strlen(disk);
	const char *rest = name + l;

	if (l >= strlen(name) || strncmp(disk, name, l))
		return 0;
	/* after a name that ends in a digit a partition needs its 'p'
	 * (or FreeBSD's slice 's'): loop10 is no partition of loop1 */
	if (*rest == 'p' || *rest == 's')
		rest++;
	else if (isdigit((unsigned char)name[l - 1]))
		return 0;
	return nb_bp_uint(rest);
}
