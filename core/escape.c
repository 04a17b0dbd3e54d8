/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape.c - one function per sink (escape.h; docs/security.md).
 */
#include "escape.h"
#include "err.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define FFFD "\xef\xbf\xbd"      /* U+FFFD, the replacement character */

/* ---- UTF-8 ---- */

/* The bytes a sequence led by B takes (0: B leads none) and the range
 * its second byte must be in (the first continuation's: what rules out
 * overlong forms, surrogates and code points past U+10FFFF). */
static size_t lead(unsigned char b, unsigned char *lo, unsigned char *hi)
{
	*lo = 0x80, *hi = 0xbf;
	if (b < 0x80)
		return 1;
	if (b >= 0xc2 && b <= 0xdf)
		return 2;
	if (b >= 0xe0 && b <= 0xef) {
		if (b == 0xe0)
			*lo = 0xa0;
		if (b == 0xed)
			*hi = 0x9f;
		return 3;
	}
	if (b >= 0xf0 && b <= 0xf4) {
		if (b == 0xf0)
			*lo = 0x90;
		if (b == 0xf4)
			*hi = 0x8f;
		return 4;
	}
	return 0;
}

/* The character at S (N bytes there): its length, or 0 when invalid;
 * *SHORT set when the bytes there are a valid start cut by N. */
static size_t utf8_at(const unsigned char *s, size_t n, uint32_t *cp, int *shrt)
{
	unsigned char lo, hi;
	size_t len = lead(s[0], &lo, &hi);

	*shrt = 0;
	if (!len)
		return 0;
	if (len == 1) {
		*cp = s[0];
		return 1;
	}
	*cp = s[0] & (0xff >> (len + 1));
	for (size_t i = 1; i < len; i++) {
		if (i >= n) {
			*shrt = 1;
			return 0;
		}
		if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xbf))
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	return len;
}

size_t nb_utf8_char(const char *s, uint32_t *cp)
{
	int shrt;

	return utf8_at((const unsigned char *)s, strnlen(s, 4), cp, &shrt);
}

long nb_utf8_bad(const char *s)
{
	uint32_t cp;

	for (const char *p = s; *p;) {
		size_t n = nb_utf8_char(p, &cp);

		if (!n)
			return p - s;
		p += n;
	}
	return -1;
}

int nb_text_check(const char *s, const char *what)
{
	uint32_t cp;

	for (const char *p = s; *p;) {
		size_t n = nb_utf8_char(p, &cp);

		if (!n)
			return nb_err(-EINVAL, "%s: not UTF-8 text (byte 0x%02x at byte "
				      "%ld)", what, (unsigned char)*p, (long)(p - s) + 1);
		if ((cp < 0x20 && cp != '\t') || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
			return nb_err(-EINVAL, "%s: a control character (0x%02x at "
				      "byte %ld)", what, (unsigned)cp, (long)(p - s) + 1);
		p += n;
	}
	return 0;
}

/* ---- the terminal ---- */

static int bidi(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

/* The N bytes at S, shown (KEEP: line breaks and tabs as they are); what
 * is left unwritten at the end, a character the next bytes complete,
 * when TAIL (else shown as bytes). */
static size_t term_bytes(FILE *out, const char *s, size_t n, int keep, int tail)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	uint32_t cp;
	int shrt;

	while (p < end) {
		size_t k = utf8_at(p, (size_t)(end - p), &cp, &shrt);

		if (!k && shrt && tail)
			return (size_t)(end - p);
		if (!k)
			fprintf(out, "\\x%02x", *p), k = 1;
		else if ((cp == '\n' || cp == '\t') && keep)
			fputc((int)cp, out);
		else if (cp == '\n' || cp == '\r' || cp == '\t')
			fprintf(out, "\\%c", cp == '\n' ? 'n' : cp == '\r' ? 'r' : 't');
		else if (cp < 0x20 || cp == 0x7f)
			fprintf(out, "\\x%02x", (unsigned)cp);
		else if ((cp >= 0x80 && cp < 0xa0) || bidi(cp))
			fprintf(out, "\\u%04x", (unsigned)cp);
		else
			fwrite(p, 1, k, out);
		p += k;
	}
	return 0;
}

void nb_term_escape(FILE *out, const char *s)
{
	term_bytes(out, s, strlen(s), 0, 0);
}

void nb_term_text(FILE *out, const char *s)
{
	term_bytes(out, s, strlen(s), 1, 0);
}

const char *nb_term_str(char *buf, size_t len, const char *s)
{
	char *m = NULL;
	size_t n = 0;
	FILE *f;

	if (!len)
		return buf;
	buf[0] = '\0';
	f = open_memstream(&m, &n);
	if (!f)
		return buf;
	nb_term_escape(f, s);
	if (fclose(f))
		return buf;
	if (n < len) {
		memcpy(buf, m, n + 1);
	} else if (len > 4) {
		size_t k = len - 4;

		while (k && ((unsigned char)m[k] & 0xc0) == 0x80)
			k--;                     /* cut before a character */
		memcpy(buf, m, k);
		memcpy(buf + k, "...", 4);
	}
	free(m);
	return buf;
}

/* The filter of nb_term_open(): UNDER, and a character cut by a write. */
struct term_cookie {
	FILE *under;
	char pend[4];
	size_t npend;
};

#define TERM_STREAMS 16
static struct {
	FILE *f;
	struct term_cookie *c;
} streams[TERM_STREAMS];
static pthread_mutex_t streams_mu = PTHREAD_MUTEX_INITIALIZER;

static ssize_t term_write(void *cookie, const char *buf, size_t n)
{
	struct term_cookie *c = cookie;
	size_t done = 0;

	/* a character cut by the last write: complete it first */
	while (c->npend && done < n) {
		size_t left;

		c->pend[c->npend++] = buf[done++];
		left = term_bytes(c->under, c->pend, c->npend, 1, 1);
		memmove(c->pend, c->pend + c->npend - left, left);
		c->npend = left;
	}
	if (done < n) {
		size_t left = term_bytes(c->under, buf + done, n - done, 1, 1);

		memcpy(c->pend, buf + n - left, left);
		c->npend = left;
	}
	return ferror(c->under) ? -1 : (ssize_t)n;
}

/* F's filter, when F is a stream of nb_term_open(). */
static struct term_cookie *term_find(FILE *f)
{
	struct term_cookie *c = NULL;

	pthread_mutex_lock(&streams_mu);
	for (int i = 0; i < TERM_STREAMS && !c; i++)
		if (streams[i].f == f)
			c = streams[i].c;
	pthread_mutex_unlock(&streams_mu);
	return c;
}

static int term_close(void *cookie)
{
	struct term_cookie *c = cookie;
	int rc;

	term_bytes(c->under, c->pend, c->npend, 1, 0);
	rc = fflush(c->under);
	pthread_mutex_lock(&streams_mu);
	for (int i = 0; i < TERM_STREAMS; i++)
		if (streams[i].c == c)
			streams[i].f = NULL, streams[i].c = NULL;
	pthread_mutex_unlock(&streams_mu);
	free(c);
	return rc ? -1 : 0;
}

FILE *nb_term_open(FILE *under)
{
	struct term_cookie *c = calloc(1, sizeof(*c));
	cookie_io_functions_t io = { .write = term_write, .close = term_close };
	FILE *f;

	if (!c)
		return NULL;
	c->under = under;
	f = fopencookie(c, "w", io);
	if (!f) {
		free(c);
		return NULL;
	}
	setvbuf(f, NULL, _IONBF, 0);
	pthread_mutex_lock(&streams_mu);
	for (int i = 0; i < TERM_STREAMS; i++)
		if (!streams[i].f) {
			streams[i].f = f, streams[i].c = c;
			break;
		}
	pthread_mutex_unlock(&streams_mu);
	return f;
}

void nb_term_raw(FILE *out, const char *seq)
{
	struct term_cookie *c = term_find(out);

	if (!c) {
		fputs(seq, out);
		return;
	}
	fflush(out);
	fputs(seq, c->under);
}

/* ---- the other sinks: a character at a time ---- */

/* What a sink does with a character: write its own form of it and return
 * 1, or return 0 for the character as it is.  CP is -1 for a byte that
 * is not UTF-8. */
typedef int (*sink_fn)(FILE *out, int32_t cp);

static void each_char(FILE *out, const char *s, sink_fn fn)
{
	uint32_t cp;

	while (*s) {
		size_t n = nb_utf8_char(s, &cp);

		if (!n) {
			if (!fn(out, -1))
				fputs(FFFD, out);
			s++;
			continue;
		}
		if (!fn(out, (int32_t)cp))
			fwrite(s, 1, n, out);
		s += n;
	}
}

/* C0 (TAB_NL: but \t \n \r), DEL, C1, a bidirectional override or not
 * UTF-8: as U+FFFD (1), else 0. */
static int control_fffd(FILE *out, int32_t cp, int tab_nl)
{
	if (tab_nl && (cp == '\t' || cp == '\n' || cp == '\r'))
		return 0;
	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || bidi(cp)) {
		fputs(FFFD, out);
		return 1;
	}
	return 0;
}

static int xml_char(FILE *out, int32_t cp)
{
	switch (cp) {
	case '<': fputs("&lt;", out); return 1;
	case '>': fputs("&gt;", out); return 1;
	case '&': fputs("&amp;", out); return 1;
	case '"': fputs("&quot;", out); return 1;
	case 0xfffe: case 0xffff: fputs(FFFD, out); return 1;
	}
	return control_fffd(out, cp, 1);
}

void nb_xml_escape(FILE *out, const char *s)
{
	each_char(out, s, xml_char);
}

/* Line breaks and tabs as a space; other controls as U+FFFD. */
static int one_line(FILE *out, int32_t cp)
{
	if (cp == '\t' || cp == '\n' || cp == '\r') {
		fputc(' ', out);
		return 1;
	}
	return control_fffd(out, cp, 0);
}

static int md_char(FILE *out, int32_t cp)
{
	if (cp > 0 && cp < 0x80 && strchr("\\`*_[]<>|~&$#!", (int)cp)) {
		fputc('\\', out);
		fputc((int)cp, out);
		return 1;
	}
	return one_line(out, cp);
}

void nb_md_escape(FILE *out, const char *s)
{
	each_char(out, s, md_char);
}

/* ---- CSV ---- */

/* S a plain decimal number: [+-]digits[.digits][e[+-]digits]. */
static int plain_number(const char *s)
{
	int digits = 0;

	s += *s == '+' || *s == '-';
	for (; *s >= '0' && *s <= '9'; s++)
		digits++;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits++;
	if (!digits)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		s += *s == '+' || *s == '-';
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return !*s;
}

static int csv_char(FILE *out, int32_t cp)
{
	if (cp == '"') {
		fputs("\"\"", out);
		return 1;
	}
	if (cp < 0) {
		fputs(FFFD, out);
		return 1;
	}
	return 0;
}

void nb_csv_cell(FILE *out, const char *s)
{
	const char *t = s + strspn(s, " ");
	int formula = *t && strchr("=+-@\t\r\n", *t) && !plain_number(s);
	int quote = formula || strpbrk(s, ",;\"\r\n");

	if (quote)
		fputc('"', out);
	if (formula)
		fputc('\'', out);
	each_char(out, s, csv_char);
	if (quote)
		fputc('"', out);
}

/* ---- OpenMetrics ---- */

void nb_om_name(char *out, size_t len, const char *s)
{
	size_t i = 0;

	if (!len)
		return;
	for (const char *p = s; *p && i + 1 < len; p++) {
		int up = *p >= 'A' && *p <= 'Z';
		int ok = (*p >= 'a' && *p <= 'z') || up ||
			 (*p >= '0' && *p <= '9' && i > 0) || *p == '_';

		/* snake_case, as promtool's lint wants: "diskType" disk_type */
		if (up && p > s && p[-1] >= 'a' && p[-1] <= 'z' && i + 2 < len)
			out[i++] = '_';
		out[i++] = !ok ? '_' : up ? (char)(*p - 'A' + 'a') : *p;
	}
	if (!i && len > 1)
		out[i++] = '_';
	out[i] = '\0';
}

static int om_char(FILE *out, int32_t cp, int quote)
{
	if (cp == '\\' || (cp == '"' && quote)) {
		fputc('\\', out);
		fputc((int)cp, out);
		return 1;
	}
	if (cp == '\n') {
		fputs("\\n", out);
		return 1;
	}
	return control_fffd(out, cp, 0);
}

static int om_value_char(FILE *out, int32_t cp)
{
	return om_char(out, cp, 1);
}

static int om_help_char(FILE *out, int32_t cp)
{
	return om_char(out, cp, 0);
}

void nb_om_value(FILE *out, const char *s)
{
	each_char(out, s, om_value_char);
}

void nb_om_help(FILE *out, const char *s)
{
	each_char(out, s, om_help_char);
}

/* ---- gnuplot ---- */

static int gp_char(FILE *out, int32_t cp)
{
	if (cp == '\'') {
		fputs("''", out);
		return 1;
	}
	return one_line(out, cp);
}

static int gp_datum_char(FILE *out, int32_t cp)
{
	if (cp == '"') {
		fputs("''", out);
		return 1;
	}
	return one_line(out, cp);
}

void nb_gp_str(FILE *out, const char *s)
{
	/* gnuplot reads '' at the start of a string as an empty string: a
	 * leading quote is a string of its own, "'" (nothing runs in it),
	 * joined with gnuplot's . */
	for (; *s == '\''; s++)
		fputs("\"'\".", out);
	fputc('\'', out);
	each_char(out, s, gp_char);
	fputc('\'', out);
}

void nb_gp_datum(FILE *out, const char *s)
{
	fputc('"', out);
	each_char(out, s, gp_datum_char);
	fputc('"', out);
}

/* ---- a shell ---- */

int nb_sh_quote(char *out, size_t len, const char *s)
{
	size_t n = 0;

#define PUT(c) do { if (n + 1 >= len) goto full; out[n++] = (c); } while (0)
	PUT('\'');
	for (; *s; s++) {
		if (*s == '\'') {
			PUT('\'');
			PUT('\\');
			PUT('\'');
		}
		PUT(*s);
	}
	PUT('\'');
	out[n] = '\0';
	return 0;
full:
	if (len)
		out[0] = '\0';
	return -ENOSPC;
#undef PUT
}

/* ---- JSON ---- */

json_t *nb_json_text(const char *s)
{
	json_t *j = json_string(s);
	char *m = NULL;
	size_t n = 0;
	FILE *f;

	if (j || !s)
		return j;
	f = open_memstream(&m, &n);
	if (!f)
		return NULL;
	for (const char *p = s; *p;) {
		uint32_t cp;
		size_t k = nb_utf8_char(p, &cp);

		if (!k)
			fprintf(f, "\\x%02x", (unsigned char)*p), k = 1;
		else
			fwrite(p, 1, k, f);
		p += k;
	}
	if (fclose(f))
		return NULL;
	j = json_string(m);
	free(m);
	return j;
}
