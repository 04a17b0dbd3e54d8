/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape.h - text written into Markdown, HTML and XML, escaped once here
 * for every report format.
 */
#ifndef NB_REPORT_ESCAPE_H
#define NB_REPORT_ESCAPE_H

#include <jansson.h>
#include <stdio.h>

/* S with Markdown's table and emphasis characters backslash-escaped. */
void nb_md_escape(FILE *out, const char *s);

/* S with < > & " as entities and the characters below 0x20 that XML 1.0
 * forbids (all but \t \n \r) dropped: valid in HTML text, XML text and
 * attribute values.  The one XML escaper (HTML report, JUnit). */
void nb_xml_escape(FILE *out, const char *s);

#endif
