/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_junit.c - the JUnit writer: a suite with a passing, a failing and
 * a skipped case, exact and well-formed (xmllint or python3 reads it
 * back when either is installed); its text through the one XML escaper
 * (core/escape.h, tested in test_escape.c): a control character XML 1.0
 * forbids arrives as U+FFFD.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../core/escape.h"
#include "../../formats/junit.h"

static const char want[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	"<testsuites name=\"nb &amp; co\" tests=\"3\" failures=\"1\">\n"
	"  <testsuite name=\"a -&gt; b\" tests=\"3\" failures=\"1\" skipped=\"1\" errors=\"0\">\n"
	"    <properties>\n"
	"      <property name=\"label.layout\" value=\"raidz1 -&gt; raid10\"/>\n"
	"    </properties>\n"
	"    <testcase classname=\"accept.nas\" name=\"seq@nas mb_s &gt;= 80\"/>\n"
	"    <testcase classname=\"nasbench.nas\" name=\"seq bw\"><system-out>98 -&gt; 99</system-out></testcase>\n"
	"    <testcase classname=\"accept.nas\" name=\"rand@nas p99_us &lt;= 5ms\">\n"
	"      <failure message=\"measured 9 ms, required &lt;= 5 ms\" type=\"criterion\">box.ini:3: bell\xef\xbf\xbd</failure>\n"
	"    </testcase>\n"
	"    <testcase classname=\"tool\" name=\"t1\">\n"
	"      <failure type=\"regression\" message=\"worse\xef\xbf\xbd\"/>\n"
	"    </testcase>\n"
	"    <testcase classname=\"tool\" name=\"t2\"><skipped message=\"no &quot;lun&quot;\"/></testcase>\n"
	"  </testsuite>\n"
	"</testsuites>\n";

static char *suite(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const struct nb_xml_attr crit[] = {
		{ "message", "measured 9 ms, required <= 5 ms" },
		{ "type", "criterion" }, { NULL, NULL },
	};
	const struct nb_xml_attr regr[] = {
		{ "type", "regression" }, { "message", "worse\002" }, { NULL, NULL },
	};
	const struct nb_xml_attr skip[] = { { "message", "no \"lun\"" }, { NULL, NULL } };

	assert_non_null(f);
	nb_junit_begin(f, "nb & co", &(struct nb_junit_counts){ 3, 1, -1, -1 });
	nb_junit_suite_begin(f, "a -> b", &(struct nb_junit_counts){ 3, 1, 1, 0 });
	nb_junit_properties_begin(f);
	nb_junit_property(f, "label.layout", "raidz1 -> raid10");
	nb_junit_properties_end(f);
	nb_junit_case(f, &(struct nb_junit_case){ "accept.nas", "seq@nas mb_s >= 80",
						   NB_JUNIT_PASS, NULL, NULL });
	nb_junit_case(f, &(struct nb_junit_case){ "nasbench.nas", "seq bw",
						   NB_JUNIT_PASS, NULL, "98 -> 99" });
	nb_junit_case(f, &(struct nb_junit_case){ "accept.nas", "rand@nas p99_us <= 5ms",
						   NB_JUNIT_FAIL, crit, "box.ini:3: bell\007" });
	nb_junit_case(f, &(struct nb_junit_case){ "tool", "t1", NB_JUNIT_FAIL, regr, NULL });
	nb_junit_case(f, &(struct nb_junit_case){ "tool", "t2", NB_JUNIT_SKIP, skip, NULL });
	nb_junit_suite_end(f);
	nb_junit_end(f);
	fclose(f);
	return buf;
}

static void junit_suite(void **state)
{
	char *got = suite();

	(void)state;
	assert_string_equal(got, want);
	free(got);
}

/* Well-formed XML to a real parser, when the machine has one. */
static void junit_parses(void **state)
{
	char path[] = "/tmp/nb-junit-unit.XXXXXX", cmd[512];
	char *got = suite();
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(got, f);
	fclose(f);
	free(got);
	if (!system("xmllint --version >/dev/null 2>&1")) {
		snprintf(cmd, sizeof(cmd), "xmllint --noout %s", path);
		assert_int_equal(system(cmd), 0);
	}
	if (!system("python3 -c '' >/dev/null 2>&1")) {
		snprintf(cmd, sizeof(cmd), "python3 -c 'import sys, xml.etree.ElementTree as E\n"
			 "r = E.parse(sys.argv[1]).getroot()\n"
			 "s = r.find(\"testsuite\")\n"
			 "assert s.get(\"name\") == \"a -> b\"\n"
			 "assert len(s.findall(\"testcase\")) == 5\n"
			 "assert len(s.findall(\"testcase/failure\")) == 2\n"
			 "assert len(s.findall(\"testcase/skipped\")) == 1\n"
			 "assert s.find(\"testcase[@name=\\x27t1\\x27]/failure\").get(\"message\") == \"worse\\ufffd\"\n"
			 "' %s", path);
		assert_int_equal(system(cmd), 0);
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(junit_suite),
		cmocka_unit_test(junit_parses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
