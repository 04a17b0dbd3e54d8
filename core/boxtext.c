/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boxtext.c - a box's text made safe to carry (boxtext.h). */
#include "boxtext.h"

#include <stdio.h>
#include <string.h>

/* The length of the UTF-8 character at S (N bytes left), or 0 when S
 * does not begin one (jansson's rules, src/utf.c). */
static size_t char_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0], cp;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;           /* a continuation byte, overlong, too big */
	len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	cp = c & (len == 2 ? 0x1f : len == 3 ? 0x0f : 0x07);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static int is_control(unsigned c)
{
	return c < 0x20 || c == 0x7f;
}

int nb_boxtext_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	while (n) {
		size_t l = char_len(p, n);

		if (!l || (l == 1 && is_control(*p)))
			return 0;
		p += l, n -= l;
	}
	return 1;
}

int nb_boxtextn(char *dst, size_t len, const char *src, size_t n)
{
	const unsigned char *p = (const unsigned char *)src;
	size_t o = 0;
	int bad = 0;

	if (!len)
		return 0;
	while (n) {
		size_t l = char_len(p, n);
		int esc = !l || (l == 1 && is_control(*p));

		if (esc)
			l = 1;
		if (o + (esc ? 4 : l) >= len) {
			/* what does not fit: cut, its bad bytes counted */
			while (n) {
				size_t k = char_len(p, n);

				if (!k || (k == 1 && is_control(*p)))
					bad++, k = 1;
				p += k, n -= k;
			}
			break;
		}
		if (esc) {
			snprintf(dst + o, len - o, "\\x%02x", *p);
			o += 4;
			bad++;
		} else {
			memcpy(dst + o, p, l);
			o += l;
		}
		p += l, n -= l;
	}
	dst[o] = 0;
	return bad;
}

int nb_boxtext(char *dst, size_t len, const char *src)
{
	return nb_boxtextn(dst, len, src, strlen(src));
}
