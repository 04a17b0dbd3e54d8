/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * knobs.c - the mechanism of the knob rows: the tables a program uses,
 * looking a row up, parsing a value into its field, a suite's defaults
 * under the user's, the help.  The rows are their modules' (core/knobs.h).
 */
#include "knobs.h"
#include "config.h"
#include "err.h"
#include "suggest.h"
#include "units.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct nb_knob *const *tables;

void nb_knobs_use(const struct nb_knob *const *t)
{
	tables = t;
}

static const struct nb_knob *const *the_tables(void)
{
	if (!tables) {
		nb_die_msg("internal error: no knob tables (nb_knobs_use() was "
			   "not called)");
		abort();
	}
	return tables;
}

/* The row after K in the tables, of any type (NULL: the first). */
static const struct nb_knob *row_next(const struct nb_knob *k)
{
	const struct nb_knob *const *t = the_tables();

	if (!k)
		return (*t && (*t)->section) ? *t : row_next(*t);
	for (; *t; t++) {
		const struct nb_knob *end = *t;

		while (end->section)
			end++;
		if (k < *t || k > end)
			continue;
		if (k < end && k[1].section)
			return k + 1;
		/* the next table with a row */
		for (t++; *t; t++)
			if ((*t)->section)
				return *t;
		return NULL;
	}
	return NULL;
}

const struct nb_knob *nb_knob_next(const struct nb_knob *k)
{
	do
		k = row_next(k);
	while (k && k->type == NB_KT_SECTION);
	return k;
}

const struct nb_knob *nb_section_next(const struct nb_knob *s)
{
	do
		s = row_next(s);
	while (s && s->type != NB_KT_SECTION);
	return s;
}

const struct nb_knob *nb_section_find(const char *name)
{
	const struct nb_knob *s;

	nb_section_foreach(s)
		if (!strcmp(s->section, name))
			return s;
	return NULL;
}

const char *nb_sections_list(char *buf, size_t len)
{
	const struct nb_knob *s;
	size_t n = 0;

	buf[0] = '\0';
	nb_section_foreach(s)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s%s",
				      n ? ", " : "", s->section,
				      (s->flags & NB_KF_NAMED) ? " NAME" : "");
	return buf;
}

int nb_knob_index(const struct nb_knob *k)
{
	const struct nb_knob *r;
	int i = 0;

	nb_knob_foreach(r) {
		if (r == k)
			return i;
		i++;
	}
	return -1;
}

const struct nb_knob *nb_knob_at(int i)
{
	const struct nb_knob *r;

	nb_knob_foreach(r)
		if (!i--)
			return r;
	return NULL;
}

const struct nb_knob *nb_knob_find(const char *section, const char *name)
{
	const struct nb_knob *k;

	nb_knob_foreach(k)
		if (!strcmp(k->section, section) && !strcmp(k->name, name))
			return k;
	return NULL;
}

const char *nb_knob_suggest(const char *section, const char *name)
{
	const char *cands[128];
	const struct nb_knob *k;
	size_t n = 0;

	nb_knob_foreach(k)
		if (!strcmp(k->section, section) && n < 128)
			cands[n++] = k->name;
	return nb_suggest(name, cands, n);
}

/* The index of V among '|'-separated CHOICES (any case), or -1. */
static int choice_index(const char *choices, const char *v)
{
	size_t n = strlen(v);
	int i = 0;

	for (const char *p = choices; p && *p; i++) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !strncasecmp(p, v, n))
			return i;
		p = bar ? bar + 1 : NULL;
	}
	return -1;
}

int nb_knob_allows(const struct nb_knob *k, const char *v)
{
	return !k->choices || choice_index(k->choices, v) >= 0;
}

int nb_knob_check_choice(const struct nb_knob *k, const char *v)
{
	char near[64];

	if (!nb_knob_allows(k, v) &&
	    nb_suggest_choice(v, k->choices, near, sizeof(near)))
		return nb_err(-EINVAL, "'%s' is not one of %s; did you mean '%s'?",
			      v, k->choices, near);
	return nb_knob_allows(k, v) ? 0 :
	       nb_err(-EINVAL, "'%s' is not one of %s", v, k->choices);
}

/* A bound in the unit the user writes: "4 KiB", "0.001 s", "1000". */
static const char *bound(const struct nb_knob *k, uint64_t n, char *buf,
			 size_t len)
{
	if (k->type == NB_KT_SIZE || k->type == NB_KT_SIZE32)
		return nb_fmt_size(n, buf, len);
	if (k->type == NB_KT_DURATION)
		snprintf(buf, len, "%g s", (double)n / 1e6);
	else
		snprintf(buf, len, "%llu", (unsigned long long)n);
	return buf;
}

static int parse_number(const struct nb_knob *k, void *field, const char *v)
{
	uint64_t n;
	int rc;

	if ((k->flags & NB_KF_AUTO) && !strcmp(v, "auto")) {
		*(uint64_t *)field = NB_SIZE_AUTO;
		return 0;
	}
	switch (k->type) {
	case NB_KT_SIZE:
	case NB_KT_SIZE32:
		rc = nb_parse_size(v, &n);
		break;
	case NB_KT_DURATION:
		rc = nb_parse_duration_us(v, &n);
		break;
	default:
		rc = nb_parse_uint(v, 0, UINT64_MAX, &n);
		break;
	}
	if (rc)
		return -EINVAL;
	if ((k->min && n < k->min) || (k->max && n > k->max)) {
		char lo[32], hi[32];

		if (!k->max)
			return nb_err(-EINVAL, "value '%s' is too small: at least %s",
				      v, bound(k, k->min, lo, sizeof(lo)));
		return nb_err(-EINVAL, "value '%s' out of range (%s to %s)", v,
			      bound(k, k->min, lo, sizeof(lo)),
			      bound(k, k->max, hi, sizeof(hi)));
	}
	if (k->type == NB_KT_SIZE32 || k->type == NB_KT_UINT32)
		*(uint32_t *)field = (uint32_t)n;
	else if (k->len == sizeof(int))
		*(int *)field = (int)n;
	else
		*(uint64_t *)field = n;
	return 0;
}

/* "80%" or "200G": 0, or -EINVAL with what it accepts. */
static int parse_span(struct nb_span *sp, const char *v)
{
	size_t n = strlen(v);
	char *end;

	memset(sp, 0, sizeof(*sp));
	if (n && v[n - 1] == '%') {
		sp->pct = strtod(v, &end);
		if (end == v + n - 1 && sp->pct > 0 && sp->pct <= 100)
			return 0;
	} else if (!nb_parse_size(v, &sp->bytes) && sp->bytes) {
		return 0;
	}
	nb_err_clear();
	memset(sp, 0, sizeof(*sp));
	return nb_err(-EINVAL, "'%s' is not a span: it accepts a percentage "
		      "in (0, 100] or a size (80%%, 200G)", v);
}

int nb_knob_parse(const struct nb_knob *k, void *base, const char *v)
{
	void *field = (char *)base + k->off;
	int b;

	switch (k->type) {
	case NB_KT_LABEL:
		return nb_knob_allows(k, v) ? 0 : nb_knob_check_choice(k, v);
	case NB_KT_URL: {
		struct nb_target_cfg *t = base;

		if (nb_url_parse(v, &t->u))
			return -EINVAL;
	}
		/* fall through */
	case NB_KT_STR:
		if (strlen(v) >= k->len)
			return nb_err(-EINVAL, "value too long");
		if (!nb_knob_allows(k, v))
			return nb_knob_check_choice(k, v);
		if (k->check && k->check(v))
			return -EINVAL;
		snprintf(field, k->len, "%s", v);
		return 0;
	case NB_KT_BOOL:
		if (nb_parse_bool(v, &b))
			return -EINVAL;
		*(int *)field = b;
		return 0;
	case NB_KT_SPAN:
		return parse_span(field, v);
	case NB_KT_CHOICE:
		b = choice_index(k->choices, v);
		if (b < 0)
			return nb_knob_check_choice(k, v);
		*(int *)field = b;
		return 0;
	default:
		return parse_number(k, field, v);
	}
}

void nb_params_merge(struct nb_params *p, const struct nb_params *d)
{
	const struct nb_knob *k;

	nb_knob_foreach(k) {
		char *mine = (char *)p + k->off;
		const char *theirs = (const char *)d + k->off;

		if (k->base != NB_KB_PARAMS)
			continue;
		if (k->type == NB_KT_STR) {
			if (!*mine)
				snprintf(mine, k->len, "%s", theirs);
		} else if (k->len == sizeof(int) && k->type != NB_KT_UINT32 &&
		    k->type != NB_KT_SIZE32) {
			if (*(int *)mine < 0)
				*(int *)mine = *(const int *)theirs;
		} else if (k->len == sizeof(uint32_t)) {
			if (!*(uint32_t *)mine)
				*(uint32_t *)mine = *(const uint32_t *)theirs;
		} else if (!*(uint64_t *)mine) {
			*(uint64_t *)mine = *(const uint64_t *)theirs;
		}
	}
}

uint64_t nb_knob_default(const char *section, const char *name)
{
	const struct nb_knob *k = nb_knob_find(section, name);
	uint64_t n = 0;

	if (!k || !k->def)
		return 0;
	switch (k->type) {
	case NB_KT_SIZE:
	case NB_KT_SIZE32:
		nb_parse_size(k->def, &n);
		break;
	case NB_KT_DURATION:
		nb_parse_duration_us(k->def, &n);
		break;
	case NB_KT_CHOICE:
		return (uint64_t)choice_index(k->choices, k->def);
	default:
		nb_parse_uint(k->def, 0, UINT64_MAX, &n);
		break;
	}
	return n;
}

const char *nb_knob_help(const struct nb_knob *k, char *buf, size_t len)
{
	const char *def = k->flags & NB_KF_NOARG ? NULL : k->def;
	const char *unset = k->unset && *k->unset ? k->unset : NULL;

	snprintf(buf, len, "%s%s%s%s%s%s%s", k->help,
		 def ? " (default " : unset ? " (default: " : "",
		 def ? def : unset ? unset : "", def || unset ? ")" : "",
		 k->choices ? " (" : "", k->choices ? k->choices : "",
		 k->choices ? ")" : "");
	return buf;
}

/* The blank line and header of section S; a section of lines is one
 * line: "[accept]         one criterion a line: ...". */
static void section_help(FILE *out, const struct nb_knob *s,
			 const struct nb_knob *before)
{
	char head[64];

	if (before && !((before->flags & NB_KF_LINES) && (s->flags & NB_KF_LINES)))
		fputc('\n', out);
	snprintf(head, sizeof(head), "[%s%s]", s->section,
		 (s->flags & NB_KF_NAMED) ? " NAME" : "");
	if (s->flags & NB_KF_LINES)
		fprintf(out, "%-16s %s\n", head, s->help);
	else
		fprintf(out, "%s\n", head);
}

void nb_knobs_help(FILE *out)
{
	const struct nb_knob *s, *before = NULL, *k;

	nb_section_foreach(s) {
		section_help(out, s, before);
		before = s;
		nb_knob_foreach(k) {
			char help[512];

			if (strcmp(k->section, s->section))
				continue;
			fprintf(out, "  %-14s %s\n", k->name,
				nb_knob_help(k, help, sizeof(help)));
		}
	}
}

void nb_usage_line(FILE *out, char short_opt, const char *opt,
		   const char *metavar, const char *help)
{
	char head[64];
	int col = 25;

	snprintf(head, sizeof(head), "%c%c%c --%s%s%s", short_opt ? '-' : ' ',
		 short_opt ? short_opt : ' ', short_opt ? ',' : ' ', opt,
		 metavar ? " " : "", metavar ? metavar : "");
	fprintf(out, "  %-22s", head);
	if (strlen(head) > 22) {
		fputc('\n', out);
		fprintf(out, "%*s", col, "");
	} else {
		fputc(' ', out);
	}
	/* wrap the help at 78 columns or a newline, continuing under itself */
	for (const char *p = help; *p;) {
		size_t room = 78 - (size_t)col, n = strcspn(p, "\n");

		if (n > room) {
			n = room;
			while (n && p[n] != ' ')
				n--;
			if (!n)
				n = strcspn(p, " \n");
		}
		fprintf(out, "%.*s\n", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
		if (*p == '\n')
			p++;
		if (*p)
			fprintf(out, "%*s", col, "");
	}
}

void nb_knobs_usage(FILE *out, const char *section)
{
	const struct nb_knob *k;

	nb_knob_foreach(k) {
		char help[512];

		if (!k->opt || strcmp(k->section, section))
			continue;
		nb_usage_line(out, k->short_opt, k->opt,
			      (k->flags & NB_KF_NOARG) ? NULL : k->metavar,
			      nb_knob_help(k, help, sizeof(help)));
	}
}
