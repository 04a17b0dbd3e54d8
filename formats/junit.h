/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * junit.h - JUnit XML, the one writer behind 'nasbench run --junit'
 * (criteria and conformance tests) and 'nasbench compare --format junit'.
 *
 * The caller says what is in the document; this module owns the layout
 * (element order, indentation) and escapes every name, attribute value
 * and text through nb_xml_escape().  A document reads:
 *
 *   <?xml version="1.0" encoding="UTF-8"?>
 *   <testsuites name="..." [tests=".." failures=".."]>
 *     <testsuite name="..." tests=".." failures=".." [skipped=".."] [errors=".."]>
 *       <properties> <property name=".." value=".."/> ... </properties>
 *       <testcase classname=".." name=".."/>                              pass
 *       <testcase classname=".." name=".."><system-out>..</system-out></testcase>
 *       <testcase classname=".." name=".."><skipped message=".."/></testcase>
 *       <testcase classname=".." name="..">
 *         <failure ATTRS>[text]</failure>
 *       </testcase>
 *     </testsuite>
 *   </testsuites>
 */
#ifndef NB_REPORT_JUNIT_H
#define NB_REPORT_JUNIT_H

#include <stdio.h>

/* One attribute NAME="VALUE" (VALUE escaped); a list ends with { NULL }. */
struct nb_xml_attr {
	const char *name, *value;
};

/* The counts of a suite, written in this order; a negative one is left out. */
struct nb_junit_counts {
	long tests, failures, skipped, errors;
};

enum nb_junit_status { NB_JUNIT_PASS, NB_JUNIT_FAIL, NB_JUNIT_SKIP };

struct nb_junit_case {
	const char *classname, *name;
	enum nb_junit_status status;
	/* FAIL: the attributes of <failure> in order; SKIP: of <skipped>.
	 * NULL: none. */
	const struct nb_xml_attr *attrs;
	/* FAIL: the text inside <failure>; PASS: <system-out>.  NULL: none. */
	const char *text;
};

/* The XML declaration and <testsuites name="NAME" COUNTS>; COUNTS may be
 * NULL (no counts). */
void nb_junit_begin(FILE *out, const char *name, const struct nb_junit_counts *counts);
void nb_junit_end(FILE *out);

/* <testsuite name="NAME" COUNTS> ... </testsuite>. */
void nb_junit_suite_begin(FILE *out, const char *name,
			  const struct nb_junit_counts *counts);
void nb_junit_suite_end(FILE *out);

/* A suite's <properties> block, one <property> each call in between. */
void nb_junit_properties_begin(FILE *out);
void nb_junit_property(FILE *out, const char *name, const char *value);
void nb_junit_properties_end(FILE *out);

/* One <testcase>. */
void nb_junit_case(FILE *out, const struct nb_junit_case *c);

#endif
