/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_escape.c - one function per sink (core/escape.h, docs/security.md):
 * a test per sink, each with the hostile strings of that sink, exact, and
 * where a real reader exists the reader itself: gnuplot runs the script
 * (no file made, the text drawn as it was), /bin/sh reads the quoted word
 * back byte for byte, python3's XML parser and promtool read what they
 * would be handed.  Text at the boundary: UTF-8 and controls refused with
 * where they are.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "files.h"
#include "scratch.h"
#include "../../core/escape.h"
#include "../../core/err.h"
#include "../../formats/chart.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What FN writes for S. */
static char *out_of(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void expect(void (*fn)(FILE *, const char *), const char *s, const char *want)
{
	char *got = out_of(fn, s);

	assert_string_equal(got, want);
	free(got);
}

/* ---- UTF-8 and the boundary ---- */

static void utf8(void **state)
{
	uint32_t cp;

	(void)state;
	assert_int_equal(nb_utf8_char("\xc3\xa9", &cp), 2);
	assert_int_equal(cp, 0xe9);
	assert_int_equal(nb_utf8_char("\xf0\x9f\x98\x80", &cp), 4);
	assert_int_equal(cp, 0x1f600);
	assert_int_equal(nb_utf8_char("\xe9", &cp), 0);           /* Latin-1 */
	assert_int_equal(nb_utf8_char("\xc0\xaf", &cp), 0);       /* overlong '/' */
	assert_int_equal(nb_utf8_char("\xe0\x80\xaf", &cp), 0);   /* overlong */
	assert_int_equal(nb_utf8_char("\xed\xa0\x80", &cp), 0);   /* surrogate */
	assert_int_equal(nb_utf8_char("\xf4\x90\x80\x80", &cp), 0); /* > U+10FFFF */
	assert_int_equal(nb_utf8_char("\xe2\x82", &cp), 0);       /* cut short */
	assert_int_equal(nb_utf8_char("\x80", &cp), 0);
	assert_int_equal(nb_utf8_bad("caf\xc3\xa9"), -1);
	assert_int_equal(nb_utf8_bad("caf\xe9"), 3);
	assert_int_equal(nb_utf8_bad(""), -1);
}

static void text_check(void **state)
{
	(void)state;
	assert_int_equal(nb_text_check("caf\xc3\xa9 \t x", "--label"), 0);
	assert_int_equal(nb_text_check("caf\xe9", "--label 'note'"), -EINVAL);
	assert_string_equal(nb_err_last(), "--label 'note': not UTF-8 text (byte "
			    "0xe9 at byte 4)");
	assert_int_equal(nb_text_check("a\033[2Jb", "box.ini:3"), -EINVAL);
	assert_string_equal(nb_err_last(), "box.ini:3: a control character (0x1b "
			    "at byte 2)");
	assert_int_equal(nb_text_check("a\nb", "x"), -EINVAL);
	assert_int_equal(nb_text_check("a\xc2\x85z", "x"), -EINVAL);  /* C1 NEL */
}

/* ---- the terminal ---- */

static void term(void **state)
{
	(void)state;
	/* the terminal's sequences: erase screen, retitle the window (OSC),
	 * a colour, a carriage return over the line, a bell */
	expect(nb_term_escape, "a\033[2Jb\033]0;owned\007c\033[31md\re\a",
	       "a\\x1b[2Jb\\x1b]0;owned\\x07c\\x1b[31md\\re\\x07");
	expect(nb_term_escape, "x\ny\tz\x7f", "x\\ny\\tz\\x7f");
	/* C1's CSI (U+009B) and the bidi overrides ("Trojan source") */
	expect(nb_term_escape, "a\xc2\x9b" "2Jb\xe2\x80\xae" "cba\xe2\x81\xa6",
	       "a\\u009b2Jb\\u202ecba\\u2066");
	/* not UTF-8: each byte shown; UTF-8 and the rest as they are */
	expect(nb_term_escape, "caf\xe9 caf\xc3\xa9 \xc3 `$(x)` \\",
	       "caf\\xe9 caf\xc3\xa9 \\xc3 `$(x)` \\");
	/* a message keeps its own line breaks and tabs, nothing else */
	expect(nb_term_text, "l1\n\tl2\033[0m\r", "l1\n\tl2\\x1b[0m\\r");
}

static void term_str(void **state)
{
	char big[2000], small[16];

	(void)state;
	assert_string_equal(NB_TERM("k=\033[31mv"), "k=\\x1b[31mv");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(strlen(NB_TERM(big)), NB_TERM_LEN - 1);
	assert_string_equal(NB_TERM(big) + NB_TERM_LEN - 4, "...");
	/* cut before a character, never inside one */
	assert_string_equal(nb_term_str(small, sizeof(small), "aaaaaaaaaa\xc3\xa9\xc3\xa9\xc3\xa9"),
			    "aaaaaaaaaa\xc3\xa9...");
	assert_string_equal(nb_term_str(small, sizeof(small), ""), "");
}

/* A text writer's stream: escaped whatever the writes' boundaries, its
 * own colours past the filter. */
static void term_stream(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *under = open_memstream(&buf, &len), *f;

	(void)state;
	assert_non_null(under);
	f = nb_term_open(under);
	assert_non_null(f);
	fprintf(f, "%s -> %s\n", "base\033[2J", "new");
	nb_term_raw(f, "\033[1;31m");
	fputs("worse", f);
	nb_term_raw(f, "\033[0m");
	/* a character cut by two writes, then a byte that is not UTF-8 cut
	 * the same way */
	fputc(0xc3, f);
	fputc(0xa9, f);
	fputc(0xe2, f);
	fputc('x', f);
	fwrite("\0\n", 1, 2, f);
	fputc(0xe2, f);          /* cut at the close */
	assert_int_equal(fclose(f), 0);
	assert_int_equal(fclose(under), 0);
	assert_string_equal(buf, "base\\x1b[2J -> new\n\033[1;31mworse\033[0m"
			    "\xc3\xa9\\xe2x\\x00\n\\xe2");
	free(buf);
}

/* ---- HTML, SVG, XML ---- */

static void xml(void **state)
{
	char path[128], cmd[512], *doc;
	FILE *f;

	(void)state;
	expect(nb_xml_escape, "a<b> & \"c\" 'd' <script>x</script>",
	       "a&lt;b&gt; &amp; &quot;c&quot; 'd' &lt;script&gt;x&lt;/script&gt;");
	/* \t \n \r stay; what XML 1.0 forbids, DEL, C1 and bad bytes: U+FFFD */
	expect(nb_xml_escape, "x\001\ty\nz\rw\033[0m\x7f\xc2\x85\xef\xbf\xbe\xe9\xc3\xa9",
	       "x\xef\xbf\xbd\ty\nz\rw\xef\xbf\xbd[0m\xef\xbf\xbd\xef\xbf\xbd"
	       "\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9");
	/* a real parser reads it back as an attribute and as text */
	doc = out_of(nb_xml_escape, "\"><x a='1'/>\033&amp;\xe9]]>");
	snprintf(path, sizeof(path), "%s/e.xml", test_scratch);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "<r a=\"%s\">%s</r>\n", doc, doc);
	fclose(f);
	free(doc);
	snprintf(cmd, sizeof(cmd), "python3 -c 'import sys, xml.etree.ElementTree as E\n"
		 "r = E.parse(sys.argv[1]).getroot()\n"
		 "w = \"\\\"><x a=\\x271\\x27/>\\ufffd&amp;\\ufffd]]>\"\n"
		 "assert r.get(\"a\") == w and r.text == w, (r.get(\"a\"), r.text)\n"
		 "' %s", path);
	assert_int_equal(system(cmd), 0);
}

/* ---- Markdown ---- */

static void md(void **state)
{
	(void)state;
	expect(nb_md_escape, "a|b *c* _d_ `e` [f](g) <h> ~i~ &amp; $x$ #1 ![j]",
	       "a\\|b \\*c\\* \\_d\\_ \\`e\\` \\[f\\](g) \\<h\\> \\~i\\~ \\&amp; "
	       "\\$x\\$ \\#1 \\!\\[j\\]");
	/* one line: a row of a table cannot be split or ended */
	expect(nb_md_escape, "x\n| a | b |\r\ty\033\xe9", "x \\| a \\| b \\|  y"
	       "\xef\xbf\xbd\xef\xbf\xbd");
}

/* ---- CSV ---- */

static void csv(void **state)
{
	(void)state;
	/* formulas: neutralised, quoted */
	expect(nb_csv_cell, "=HYPERLINK(\"http://x\",\"y\")",
	       "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
	expect(nb_csv_cell, "@SUM(1+1)*cmd|' /C calc'!A0", "\"'@SUM(1+1)*cmd|' /C calc'!A0\"");
	expect(nb_csv_cell, "+1+cmd", "\"'+1+cmd\"");
	expect(nb_csv_cell, "-2+3", "\"'-2+3\"");
	expect(nb_csv_cell, "\t=1", "\"'\t=1\"");
	expect(nb_csv_cell, "\r=1", "\"'\r=1\"");
	expect(nb_csv_cell, "  =1", "\"'  =1\"");
	/* numbers stay numbers */
	expect(nb_csv_cell, "-3.5", "-3.5");
	expect(nb_csv_cell, "+1e6", "+1e6");
	expect(nb_csv_cell, "-.5E-3", "-.5E-3");
	expect(nb_csv_cell, "12", "12");
	/* RFC 4180 */
	expect(nb_csv_cell, "a,b", "\"a,b\"");
	expect(nb_csv_cell, "a;b", "\"a;b\"");
	expect(nb_csv_cell, "say \"x\"", "\"say \"\"x\"\"\"");
	expect(nb_csv_cell, "two\nlines", "\"two\nlines\"");
	expect(nb_csv_cell, "plain a=b", "plain a=b");
	expect(nb_csv_cell, "caf\xe9", "caf\xef\xbf\xbd");
	expect(nb_csv_cell, "", "");
}

/* ---- OpenMetrics ---- */

static void om(void **state)
{
	char name[64], path[128], cmd[300];
	FILE *f;

	(void)state;
	nb_om_name(name, sizeof(name), "");
	assert_string_equal(name, "_");
	nb_om_name(name, sizeof(name), "9lives");
	assert_string_equal(name, "_lives");
	nb_om_name(name, sizeof(name), "a-b.c d\xc3\xa9");
	assert_string_equal(name, "a_b_c_d__");
	nb_om_name(name, sizeof(name), "diskType ABC x`touch /tmp/nbtest.aBc`");
	assert_string_equal(name, "disk_type_abc_x_touch__tmp_nbtest_a_bc_");
	expect(nb_om_value, "a\\b\"c\nd\re\xe9", "a\\\\b\\\"c\\nd\xef\xbf\xbd" "e\xef\xbf\xbd");
	expect(nb_om_help, "h\\e\"l\np", "h\\\\e\"l\\np");
	/* promtool reads a family with the hostile name and value */
	snprintf(path, sizeof(path), "%s/e.prom", test_scratch);
	f = fopen(path, "w");
	assert_non_null(f);
	nb_om_name(name, sizeof(name), "aB`touch /tmp/X`");
	fprintf(f, "# HELP nasbench_x ");
	nb_om_help(f, "the \\ help\nsecond line");
	fprintf(f, "\n# TYPE nasbench_x gauge\nnasbench_x{%s=\"", name);
	nb_om_value(f, "v\"} 1\nnasbench_y 2 \\ \033[0m \xe9");
	fprintf(f, "\",_=\"\"} 1\n# EOF\n");
	fclose(f);
	snprintf(cmd, sizeof(cmd), "promtool check metrics <%s >/dev/null", path);
	assert_int_equal(system(cmd), 0);
}

/* ---- gnuplot ---- */

static const char *const hostile_gp[] = {
	"a`touch PWNED_1`", "b$(touch PWNED_2)", "c' . system('touch PWNED_3') . '",
	"d\" . system(\"touch PWNED_4\") . \"", "e@x `touch PWNED_5`",
	"f\nsystem('touch PWNED_6')", "g\\' `touch PWNED_7`", "EOD",
	"'; system('touch PWNED_8'); '", "''`touch PWNED_9`", "'",
};
#define NGP (sizeof(hostile_gp) / sizeof(*hostile_gp))

static void gp(void **state)
{
	(void)state;
	expect(nb_gp_str, "a`b` $(c) @d it's", "'a`b` $(c) @d it''s'");
	expect(nb_gp_str, "x\ny\r\tz\033\xe9", "'x y  z\xef\xbf\xbd\xef\xbf\xbd'");
	/* gnuplot reads a leading '' as an empty string */
	expect(nb_gp_str, "'x", "\"'\".'x'");
	expect(nb_gp_str, "''", "\"'\".\"'\".''");
	expect(nb_gp_str, "\xe2\x80\xae" "evil", "'\xef\xbf\xbd" "evil'");
	expect(nb_gp_datum, "say \"hi\" `x`", "\"say ''hi'' `x`\"");
	expect(nb_gp_datum, "l1\nEOD", "\"l1 EOD\"");
}

/* The real gnuplot on a chart of hostile names: it runs nothing (no
 * PWNED_* file anywhere in its directory) and draws each name as it was. */
static void gp_runs_nothing(void **state)
{
	const double v[NGP * NGP] = { 1 };
	struct nb_bars b = { "hostile", hostile_gp[0], hostile_gp[1], 0, NGP, NGP,
			     hostile_gp, hostile_gp, v, NULL, NULL, hostile_gp[2] };
	const char *names[] = { "hostile" };
	char path[256], *svg;

	(void)state;
	assert_int_equal(nb_chart_bars(test_scratch, &b), 0);
	assert_int_equal(nb_chart_render(test_scratch, names, 1, NULL), 0);
	for (int i = 1; i <= 9; i++) {
		snprintf(path, sizeof(path), "%s/PWNED_%d", test_scratch, i);
		assert_int_equal(access(path, F_OK), -1);
	}
	snprintf(path, sizeof(path), "%s/hostile.svg", test_scratch);
	svg = test_slurp(path);
	assert_non_null(strstr(svg, "a`touch PWNED_1`"));
	assert_non_null(strstr(svg, "b$(touch PWNED_2)"));
	assert_non_null(strstr(svg, "c&apos; . system(&apos;touch PWNED_3&apos;) . &apos;") ||
			strstr(svg, "c' . system('touch PWNED_3') . '"));
	free(svg);
	/* a name that would leave the directory or break the script */
	b.name = "../x";
	assert_int_equal(nb_chart_bars(test_scratch, &b), -EINVAL);
	b.name = "x'y";
	assert_int_equal(nb_chart_bars(test_scratch, &b), -EINVAL);
}

/* ---- a shell ---- */

static void sh(void **state)
{
	static const char *const words[] = {
		"plain", "it's", "$(touch PWNED_SH)", "`touch PWNED_SH`", "a b\tc\nd",
		"'", "''", "\\'\"", "-n", "; rm -rf x; #", "caf\xe9", "",
	};
	char q[256], cmd[400], got[256];

	(void)state;
	assert_int_equal(nb_sh_quote(q, sizeof(q), "it's"), 0);
	assert_string_equal(q, "'it'\\''s'");
	assert_int_equal(nb_sh_quote(q, 5, "abcdef"), -ENOSPC);
	assert_string_equal(q, "");
	/* /bin/sh reads each back as the one word it was */
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		FILE *p;
		size_t n;

		assert_int_equal(nb_sh_quote(q, sizeof(q), words[i]), 0);
		snprintf(cmd, sizeof(cmd), "cd %s && printf '%%s' %s", test_scratch, q);
		p = popen(cmd, "r");
		assert_non_null(p);
		n = fread(got, 1, sizeof(got) - 1, p);
		got[n] = '\0';
		assert_int_equal(pclose(p), 0);
		assert_string_equal(got, words[i]);
	}
	snprintf(cmd, sizeof(cmd), "%s/PWNED_SH", test_scratch);
	assert_int_equal(access(cmd, F_OK), -1);
}

/* ---- JSON ---- */

static void json(void **state)
{
	json_t *j;

	(void)state;
	j = nb_json_text("caf\xc3\xa9");
	assert_string_equal(json_string_value(j), "caf\xc3\xa9");
	json_decref(j);
	/* jansson refuses it (json_string() is NULL): carried, visible */
	assert_null(json_string("caf\xe9"));
	j = nb_json_text("caf\xe9 \xff");
	assert_non_null(j);
	assert_string_equal(json_string_value(j), "caf\\xe9 \\xff");
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(utf8),
		cmocka_unit_test(text_check),
		cmocka_unit_test(term),
		cmocka_unit_test(term_str),
		cmocka_unit_test(term_stream),
		cmocka_unit_test(xml),
		cmocka_unit_test(md),
		cmocka_unit_test(csv),
		cmocka_unit_test(om),
		cmocka_unit_test(gp),
		cmocka_unit_test(gp_runs_nothing),
		cmocka_unit_test(sh),
		cmocka_unit_test(json),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
