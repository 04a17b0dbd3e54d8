/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * units.h - parsing and printing sizes, durations and rates.
 *
 * Sizes: a number with an optional suffix.  K, M, G, T, P (any case) and
 * KiB, MiB, GiB, TiB, PiB are powers of 1024; KB, MB, GB, TB, PB are powers
 * of 1000 (a disk maker's "3TB"); "b" or "B" alone means bytes.
 * Durations: 10s, 500ms, 250us, 2m, 1h, or a bare number of seconds.
 * Every parser returns 0, or -EINVAL with the detail in nb_err_last().
 */
#ifndef NB_UNITS_H
#define NB_UNITS_H

#include <stdint.h>
#include <stddef.h>

int nb_parse_size(const char *s, uint64_t *out);
int nb_parse_duration_us(const char *s, uint64_t *out);
int nb_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int nb_parse_double(const char *s, double *out);
int nb_parse_bool(const char *s, int *out);     /* yes/no/true/false/1/0/on/off */
int nb_parse_percent(const char *s, double *out); /* "5%" or "5" -> 5.0 */
int nb_parse_rate(const char *s, uint64_t *bits_per_s); /* 1gbit, 800mbit, 100mbit */

/* "A,B,C": a list of rising numbers into LIST (at most MAX, *N of them),
 * each entry ("400", "25%", "1.5x") read by ENTRY with ARG (0, or -EINVAL);
 * "auto" leaves it empty.  WHAT names the list in the messages ("rates"),
 * GIVE says what to give ("rising I/Os per second (200,400,600)"). */
struct nb_rising {
	const char *what, *give;
	int (*entry)(const char *s, void *arg, double *out);
	void *arg;
};
int nb_parse_rising(const char *s, double *list, size_t max, size_t *n,
		    const struct nb_rising *how);

/* "512 KiB", "1.00 GiB": binary units, for sizes of things. */
char *nb_fmt_size(uint64_t bytes, char *buf, size_t len);
/* "15.00 TB", "500.00 GB" (10^12, 10^9; BINARY: "10.77 TiB", "465.66 GiB"):
 * a capacity as a disk maker or 'zfs list' gives it, TB from 1 TB up. */
char *nb_fmt_capacity(double bytes, int binary, char *buf, size_t len);
/* "400.00 EUR", "0.6667 EUR" (4 decimals below 1), "400.00" without a
 * CURRENCY ("" or NULL), "unknown" when V < 0. */
char *nb_fmt_money(double v, const char *currency, char *buf, size_t len);

/* X's value as a string literal, where a help text shows a constant:
 * "(default " NB_STR(NB_COMPARE_LAST) ")". */
#define NB_STR_(x) #x
#define NB_STR(x) NB_STR_(x)

#endif
