/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * junit.c - JUnit XML elements, laid out and escaped in one place.
 */
#include "junit.h"
#include "../core/escape.h"

static void attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	nb_xml_escape(out, value ? value : "");
	fputc('"', out);
}

static void counts_of(FILE *out, const struct nb_junit_counts *c)
{
	static const char *const names[] = { "tests", "failures", "skipped", "errors" };
	const long v[] = { c->tests, c->failures, c->skipped, c->errors };

	for (int i = 0; i < 4; i++)
		if (v[i] >= 0)
			fprintf(out, " %s=\"%ld\"", names[i], v[i]);
}

void nb_junit_begin(FILE *out, const char *name, const struct nb_junit_counts *counts)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", out);
	attr(out, "name", name);
	if (counts)
		counts_of(out, counts);
	fputs(">\n", out);
}

void nb_junit_end(FILE *out)
{
	fputs("</testsuites>\n", out);
}

void nb_junit_suite_begin(FILE *out, const char *name,
			  const struct nb_junit_counts *counts)
{
	fputs("  <testsuite", out);
	attr(out, "name", name);
	counts_of(out, counts);
	fputs(">\n", out);
}

void nb_junit_suite_end(FILE *out)
{
	fputs("  </testsuite>\n", out);
}

void nb_junit_properties_begin(FILE *out)
{
	fputs("    <properties>\n", out);
}

void nb_junit_property(FILE *out, const char *name, const char *value)
{
	fputs("      <property", out);
	attr(out, "name", name);
	attr(out, "value", value);
	fputs("/>\n", out);
}

void nb_junit_properties_end(FILE *out)
{
	fputs("    </properties>\n", out);
}

static void attrs(FILE *out, const struct nb_xml_attr *a)
{
	for (; a && a->name; a++)
		attr(out, a->name, a->value);
}

void nb_junit_case(FILE *out, const struct nb_junit_case *c)
{
	fputs("    <testcase", out);
	attr(out, "classname", c->classname);
	attr(out, "name", c->name);
	switch (c->status) {
	case NB_JUNIT_FAIL:
		fputs(">\n      <failure", out);
		attrs(out, c->attrs);
		if (c->text) {
			fputc('>', out);
			nb_xml_escape(out, c->text);
			fputs("</failure>\n    </testcase>\n", out);
		} else {
			fputs("/>\n    </testcase>\n", out);
		}
		break;
	case NB_JUNIT_SKIP:
		fputs("><skipped", out);
		attrs(out, c->attrs);
		fputs("/></testcase>\n", out);
		break;
	default:
		if (!c->text) {
			fputs("/>\n", out);
			break;
		}
		fputs("><system-out>", out);
		nb_xml_escape(out, c->text);
		fputs("</system-out></testcase>\n", out);
	}
}
