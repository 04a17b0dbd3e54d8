/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_escape - every sink's escaper (core/escape.h, docs/security.md) on
 * any bytes, each held to what its reader needs: the output is valid
 * UTF-8 and reads back as the input (its bytes that are not UTF-8 and the
 * characters the sink cannot carry as U+FFFD), with nothing the sink
 * would act on: no control character for a terminal, no markup for XML,
 * no line break or unescaped '|' for Markdown, no formula for a
 * spreadsheet, a gnuplot string and a shell word that end where they
 * should.  The terminal's stream gives the same bytes however its
 * writes are cut.  A broken promise aborts.
 */
#include "fuzz.h"

#include "../../core/escape.h"

#include <errno.h>

#define FFFD "\xef\xbf\xbd"

#define CHECK(x) do { if (!(x)) abort(); } while (0)

static char *out_of(void (*fn)(FILE *, const char *), const char *s, size_t *n)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, n);

	CHECK(f);
	fn(f, s);
	CHECK(!fclose(f));
	return buf;
}

/* The input as a sink that cannot carry NOT (a predicate on code
 * points) reads it: such characters and bad bytes as U+FFFD. */
static char *expected(const char *s, int (*drop)(uint32_t), int space_lines)
{
	char *buf = NULL;
	size_t n;
	FILE *f = open_memstream(&buf, &n);
	uint32_t cp;

	CHECK(f);
	while (*s) {
		size_t k = nb_utf8_char(s, &cp);

		if (!k)
			fputs(FFFD, f), k = 1;
		else if (space_lines && (cp == '\t' || cp == '\n' || cp == '\r'))
			fputc(' ', f);
		else if (drop(cp))
			fputs(FFFD, f);
		else
			fwrite(s, 1, k, f);
		s += k;
	}
	CHECK(!fclose(f));
	return buf;
}

static int bidi(uint32_t c)
{
	return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
	       c == 0x200e || c == 0x200f || c == 0x061c;
}

static int ctl(uint32_t c)
{
	return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || bidi(c);
}

static int xml_drop(uint32_t c)
{
	return (ctl(c) && c != '\t' && c != '\n' && c != '\r') || c == 0xfffe ||
	       c == 0xffff;
}

static int none(uint32_t c)
{
	(void)c;
	return 0;
}

/* The terminal: nothing a terminal acts on, in either form. */
static void term(const char *s)
{
	size_t n;
	char *o = out_of(nb_term_escape, s, &n), *t;
	uint32_t cp;

	CHECK(nb_utf8_bad(o) < 0 && strlen(o) == n);
	for (const char *p = o; *p;) {
		p += nb_utf8_char(p, &cp);
		CHECK(!ctl(cp) && !bidi(cp));
	}
	t = out_of(nb_term_text, s, &n);
	CHECK(nb_utf8_bad(t) < 0);
	for (const char *p = t; *p;) {
		p += nb_utf8_char(p, &cp);
		CHECK(cp == '\n' || cp == '\t' || (!ctl(cp) && !bidi(cp)));
	}
	free(o), free(t);
}

/* XML: the entities undone, the text back (forbidden as U+FFFD). */
static void xml(const char *s)
{
	size_t n;
	char *o = out_of(nb_xml_escape, s, &n), *want = expected(s, xml_drop, 0);
	char *back = malloc(n + 1), *b = back;

	CHECK(back && nb_utf8_bad(o) < 0);
	for (const char *p = o; *p;) {
		static const char *const ent[][2] = { { "&lt;", "<" }, { "&gt;", ">" },
						      { "&amp;", "&" }, { "&quot;", "\"" } };
		int hit = 0;

		CHECK(*p != '<' && *p != '>' && *p != '"');
		for (int i = 0; i < 4 && !hit; i++)
			if (!strncmp(p, ent[i][0], strlen(ent[i][0])))
				*b++ = ent[i][1][0], p += strlen(ent[i][0]), hit = 1;
		CHECK(hit || *p != '&');
		if (!hit)
			*b++ = *p++;
	}
	*b = '\0';
	CHECK(!strcmp(back, want));
	free(o), free(want), free(back);
}

/* Markdown: one line, every ASCII punctuation it reads escaped. */
static void md(const char *s)
{
	size_t n;
	char *o = out_of(nb_md_escape, s, &n), *want = expected(s, ctl, 1);
	char *back = malloc(n + 1), *b = back;

	CHECK(back && nb_utf8_bad(o) < 0 && !strpbrk(o, "\n\r\t"));
	for (const char *p = o; *p; p++) {
		if (*p == '\\') {
			p++;
			CHECK(*p && strchr("\\`*_[]<>|~&$#!", *p));
		} else {
			CHECK(!strchr("`*_[]<>|~&$#!", *p));
		}
		*b++ = *p;
	}
	*b = '\0';
	CHECK(!strcmp(back, want));
	free(o), free(want), free(back);
}

/* CSV: one RFC 4180 cell, no formula, the text back (a ' before one). */
static void csv(const char *s)
{
	size_t n;
	char *o = out_of(nb_csv_cell, s, &n), *want = expected(s, none, 0);
	char *back = malloc(n + 1), *b = back, *p = o;
	const char *t;

	CHECK(back && nb_utf8_bad(o) < 0);
	if (*p == '"') {
		for (p++; *p; p++) {
			if (*p == '"' && p[1] == '"')
				*b++ = *p++;
			else if (*p == '"')
				break;
			else
				*b++ = *p;
		}
		CHECK(*p == '"' && !p[1]);
	} else {
		CHECK(!strpbrk(o, ",;\"\r\n"));
		b = stpcpy(b, o);
	}
	*b = '\0';
	t = back + strspn(back, " ");
	CHECK(!*t || !strchr("=+-@\t\r\n", *t) || strspn(back, "+-.0123456789eE") ==
	      strlen(back));
	CHECK(!strcmp(back[0] == '\'' && strcmp(back + 1, want) == 0 ? back + 1 : back,
		      want));
	free(o), free(want), free(back);
}

/* OpenMetrics: a value with no raw line break or quote, read back. */
static void om(const char *s)
{
	size_t n;
	char *o = out_of(nb_om_value, s, &n), *want = expected(s, ctl, 0);
	char *back = malloc(n + 1), *b = back, name[64];

	/* \n is escaped, so it is no control here: expected() dropped it */
	free(want);
	{
		char *w = NULL;
		size_t wn;
		FILE *f = open_memstream(&w, &wn);
		uint32_t cp;

		CHECK(f);
		for (const char *p = s; *p;) {
			size_t k = nb_utf8_char(p, &cp);

			if (!k)
				fputs(FFFD, f), k = 1;
			else if (cp != '\n' && ctl(cp))
				fputs(FFFD, f);
			else
				fwrite(p, 1, k, f);
			p += k;
		}
		CHECK(!fclose(f));
		want = w;
	}
	CHECK(back && nb_utf8_bad(o) < 0 && !strchr(o, '\n'));
	for (const char *p = o; *p; p++) {
		CHECK(*p != '"');
		if (*p == '\\') {
			p++;
			CHECK(*p == '\\' || *p == '"' || *p == 'n');
			*b++ = *p == 'n' ? '\n' : *p;
		} else {
			*b++ = *p;
		}
	}
	*b = '\0';
	CHECK(!strcmp(back, want));
	nb_om_name(name, sizeof(name), s);
	CHECK(*name && !(name[0] >= '0' && name[0] <= '9'));
	CHECK(strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(name));
	free(o), free(want), free(back);
}

/* gnuplot: "'". parts, then one single-quoted string to the end. */
static void gp(const char *s)
{
	size_t n;
	char *o = out_of(nb_gp_str, s, &n), *want = expected(s, ctl, 1);
	char *back = malloc(n + 1), *b = back, *p = o;

	CHECK(back && nb_utf8_bad(o) < 0 && !strpbrk(o, "\n\r"));
	while (!strncmp(p, "\"'\".", 4))
		*b++ = '\'', p += 4;
	/* '' would be an empty string, unless it is the whole (empty) one */
	CHECK(*p++ == '\'' && (*p != '\'' || !p[1]));
	for (; *p; p++) {
		if (*p == '\'' && p[1] == '\'')
			*b++ = *p++;
		else if (*p == '\'')
			break;
		else
			*b++ = *p;
	}
	CHECK(*p == '\'' && !p[1]);
	*b = '\0';
	CHECK(!strcmp(back, want));
	free(o), free(want), free(back);
	o = out_of(nb_gp_datum, s, &n);
	CHECK(o[0] == '"' && o[n - 1] == '"' && !memchr(o + 1, '"', n - 2) &&
	      !strpbrk(o, "\n\r"));
	free(o);
}

/* A shell word: single-quoted, '\'' for a quote, the bytes back. */
static void sh(const char *s)
{
	size_t len = 4 * strlen(s) + 3;
	char *q = malloc(len), *back = malloc(len), *b = back, *p = q;

	CHECK(q && back && !nb_sh_quote(q, len, s));
	CHECK(*p++ == '\'');
	for (;;) {
		if (*p == '\'' && !strncmp(p, "'\\''", 4)) {
			*b++ = '\'', p += 4;
		} else if (*p == '\'') {
			break;
		} else {
			CHECK(*p);
			*b++ = *p++;
		}
	}
	CHECK(!p[1]);
	*b = '\0';
	CHECK(!strcmp(back, s));
	CHECK(nb_sh_quote(q, 2, s) == -ENOSPC && !*q);
	free(q), free(back);
}

/* The terminal's stream: the same bytes whatever its writes' sizes (the
 * first input byte cuts them). */
static void stream(const uint8_t *data, size_t size)
{
	char *one = NULL, *cut = NULL;
	size_t n1, n2, step = size ? data[0] % 7 + 1 : 1;
	FILE *u1 = open_memstream(&one, &n1), *u2 = open_memstream(&cut, &n2);
	FILE *f1, *f2;

	CHECK(u1 && u2);
	f1 = nb_term_open(u1);
	f2 = nb_term_open(u2);
	CHECK(f1 && f2);
	fwrite(data, 1, size, f1);
	for (size_t i = 0; i < size; i += step)
		fwrite(data + i, 1, size - i < step ? size - i : step, f2);
	CHECK(!fclose(f1) && !fclose(f2));
	CHECK(!fclose(u1) && !fclose(u2));
	CHECK(n1 == n2 && !memcmp(one, cut, n1) && nb_utf8_bad(one) < 0);
	free(one), free(cut);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = fuzz_str(data, size);
	char small[24];
	json_t *j;

	term(s);
	xml(s);
	md(s);
	csv(s);
	om(s);
	gp(s);
	sh(s);
	stream(data, size);
	CHECK(strlen(nb_term_str(small, sizeof(small), s)) < sizeof(small));
	j = nb_json_text(s);
	CHECK(j && nb_utf8_bad(json_string_value(j)) < 0);
	json_decref(j);
	return 0;
}
