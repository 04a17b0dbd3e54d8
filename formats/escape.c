/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "escape.h"

#include <string.h>

void nb_md_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("|\\`*_[]<>", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

void nb_xml_escape(FILE *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			/* XML 1.0 allows no other character below 0x20 */
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t' ||
			    *s == '\r')
				fputc(*s, out);
		}
}
