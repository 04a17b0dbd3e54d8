/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "units.h"
#include "err.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct suffix {
	const char *name;
	double mult;
};

static const struct suffix size_suffixes[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", 1024.0 }, { "kib", 1024.0 }, { "kb", 1e3 },
	{ "m", 1048576.0 }, { "mib", 1048576.0 }, { "mb", 1e6 },
	{ "g", 1073741824.0 }, { "gib", 1073741824.0 }, { "gb", 1e9 },
	{ "t", 1099511627776.0 }, { "tib", 1099511627776.0 }, { "tb", 1e12 },
	{ "p", 1125899906842624.0 }, { "pib", 1125899906842624.0 }, { "pb", 1e15 },
	{ NULL, 0 },
};

static const struct suffix time_suffixes[] = {
	{ "", 1e6 }, { "s", 1e6 }, { "sec", 1e6 }, { "ms", 1e3 }, { "us", 1 },
	{ "m", 60e6 }, { "min", 60e6 }, { "h", 3600e6 }, { NULL, 0 },
};

static const struct suffix rate_suffixes[] = {
	{ "bit", 1 }, { "kbit", 1e3 }, { "mbit", 1e6 }, { "gbit", 1e9 },
	{ "bps", 8 }, { "kbps", 8e3 }, { "mbps", 8e6 }, { "gbps", 8e9 },
	{ NULL, 0 },
};

/* A kind of number with a unit: its suffixes (TAB, to a NULL name), the
 * values it may take, and what its error says ("invalid KIND 'S' (HINT)"). */
struct scale {
	const char *kind, *hint;
	const struct suffix *tab;
	double min, max;
};

static const struct scale sizes = { "size", "use a number with K, M, G, T, "
				    "KiB, GB...", size_suffixes, 0, HUGE_VAL };
static const struct scale durations = { "duration", "use e.g. 30s, 500ms, 2m, 1h",
					time_suffixes, 0, 1e15 };
static const struct scale rates = { "rate", "use e.g. 1gbit, 800mbit",
				    rate_suffixes, 1, HUGE_VAL };

/* Split "12.5GiB" into 12.5 and "GiB"; reject empty or signed numbers. */
static int split_number(const char *s, double *num, const char **rest)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s) && *s != '.')
		return -EINVAL;
	errno = 0;
	*num = strtod(s, &end);
	if (errno || end == s || !isfinite(*num))
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	*rest = end;
	return 0;
}

static int lookup_suffix(const struct suffix *tab, const char *sfx, double *mult)
{
	size_t len = strlen(sfx);

	while (len && isspace((unsigned char)sfx[len - 1]))
		len--;
	for (size_t i = 0; tab[i].name; i++) {
		if (strlen(tab[i].name) == len &&
		    !strncasecmp(tab[i].name, sfx, len)) {
			*mult = tab[i].mult;
			return 0;
		}
	}
	return -EINVAL;
}

/* S as a number of kind SC, rounded, into *OUT: 0, or -EINVAL with the
 * detail set. */
static int parse_scaled(const char *s, const struct scale *sc, uint64_t *out)
{
	const char *rest;
	double num, mult;

	if (!s || split_number(s, &num, &rest) ||
	    lookup_suffix(sc->tab, rest, &mult) || num * mult < sc->min ||
	    num * mult > sc->max)
		return nb_err(-EINVAL, "invalid %s '%s' (%s)", sc->kind, s ? s : "",
			      sc->hint);
	if (num * mult >= 18446744073709551615.0)
		return nb_err(-EINVAL, "%s '%s' is too large", sc->kind, s);
	*out = (uint64_t)llround(num * mult);
	return 0;
}

int nb_parse_size(const char *s, uint64_t *out)
{
	return parse_scaled(s, &sizes, out);
}

int nb_parse_duration_us(const char *s, uint64_t *out)
{
	return parse_scaled(s, &durations, out);
}

int nb_parse_rate(const char *s, uint64_t *bits_per_s)
{
	return parse_scaled(s, &rates, bits_per_s);
}

int nb_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)*s))
		goto bad;
	errno = 0;
	v = strtoull(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || *end)
		goto bad;
	if (v < min || v > max) {
		nb_err_set("value '%s' out of range (%llu to %llu)", s,
			   (unsigned long long)min, (unsigned long long)max);
		return -ERANGE;
	}
	*out = v;
	return 0;
bad:
	nb_err_set("invalid number '%s'", s ? s : "");
	return -EINVAL;
}

int nb_parse_double(const char *s, double *out)
{
	char *end;

	if (!s || !*s)
		goto bad;
	errno = 0;
	*out = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || end == s || *end || !isfinite(*out))
		goto bad;
	return 0;
bad:
	nb_err_set("invalid number '%s'", s ? s : "");
	return -EINVAL;
}

int nb_parse_bool(const char *s, int *out)
{
	static const char *yes[] = { "yes", "true", "on", "1" };
	static const char *no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; s && i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	nb_err_set("invalid boolean '%s' (use yes or no)", s ? s : "");
	return -EINVAL;
}

int nb_parse_percent(const char *s, double *out)
{
	const char *rest;
	double v;

	if (!s || split_number(s, &v, &rest) ||
	    (*rest && strcmp(rest, "%")) || v > 1000) {
		nb_err_set("invalid percentage '%s' (use e.g. 5%%)", s ? s : "");
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int nb_parse_rising(const char *s, double *list, size_t max, size_t *n,
		    const struct nb_rising *how)
{
	const char *p = s;

	*n = 0;
	if (!strcmp(s, "auto"))
		return 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		char buf[32];

		if (*n == max)
			return nb_err(-EINVAL, "invalid %s '%s': at most %zu",
				      how->what, s, max);
		if (len && len < sizeof(buf)) {
			memcpy(buf, p, len);
			buf[len] = 0;
		}
		if (!len || len >= sizeof(buf) ||
		    how->entry(buf, how->arg, &list[*n]) ||
		    (*n && list[*n] <= list[*n - 1]))
			return nb_err(-EINVAL, "invalid %s '%s': give %s, or auto",
				      how->what, s, how->give);
		(*n)++;
		p += len + (p[len] == ',');
	}
	if (!*n)
		return nb_err(-EINVAL, "invalid %s '%s': empty", how->what, s);
	return 0;
}

char *nb_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else if (v == floor(v))
		snprintf(buf, len, "%.0f %s", v, units[u]);
	else
		snprintf(buf, len, "%.2f %s", v, units[u]);
	return buf;
}

char *nb_fmt_capacity(double v, int binary, char *buf, size_t len)
{
	double t = binary ? 1099511627776.0 : 1e12, g = binary ? 1073741824.0 : 1e9;

	if (v >= t || v == 0)
		snprintf(buf, len, "%.2f %s", v / t, binary ? "TiB" : "TB");
	else
		snprintf(buf, len, "%.2f %s", v / g, binary ? "GiB" : "GB");
	return buf;
}

char *nb_fmt_money(double v, const char *currency, char *buf, size_t len)
{
	int cur = currency && *currency;

	if (v < 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, v < 1 ? "%.4f%s%s" : "%.2f%s%s", v, cur ? " " : "",
			 cur ? currency : "");
	return buf;
}

