/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "err.h"
#include "escape.h"
#include "knobs.h"
#include "suggest.h"
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void nb_config_init(struct nb_config *c)
{
	memset(c, 0, sizeof(*c));
	c->suite.p = (struct nb_params)NB_PARAMS_INIT;
}

void nb_config_free(struct nb_config *c)
{
	free(c->raw);
	c->raw = NULL;
	c->nraw = 0;
	free(c->overrides);
	c->overrides = NULL;
	c->noverrides = 0;
}

int nb_config_label(struct nb_config *c, const char *key, const char *value,
		    const char *where)
{
	int i;

	if (!*key || strlen(key) >= sizeof(c->labels[0].key) ||
	    strlen(value) >= sizeof(c->labels[0].value))
		return nb_err_set("%s%slabel '%s' is empty or too long",
				  where ? where : "", where ? ": " : "", key), -EINVAL;
	for (i = 0; i < c->nlabels; i++)
		if (!strcmp(c->labels[i].key, key))
			break;
	if (i == c->nlabels) {
		if (c->nlabels == NB_MAX_LABELS)
			return nb_err_set("%s%smore than %d labels",
					  where ? where : "", where ? ": " : "",
					  NB_MAX_LABELS), -EINVAL;
		c->nlabels++;
	}
	snprintf(c->labels[i].key, sizeof(c->labels[i].key), "%s", key);
	snprintf(c->labels[i].value, sizeof(c->labels[i].value), "%s", value);
	return 0;
}

const char *nb_config_label_get(const struct nb_config *c, const char *key)
{
	for (int i = 0; i < c->nlabels; i++)
		if (!strcmp(c->labels[i].key, key))
			return c->labels[i].value;
	return NULL;
}

struct nb_target_cfg *nb_config_target(struct nb_config *c, const char *name)
{
	for (int i = 0; i < c->ntargets; i++)
		if (!strcmp(c->targets[i].name, name))
			return &c->targets[i];
	return NULL;
}

static struct nb_target_cfg *new_target(struct nb_config *c, const char *name)
{
	struct nb_target_cfg *t;

	if (c->ntargets == NB_MAX_TARGETS)
		return nb_err_set("more than %d targets", NB_MAX_TARGETS), NULL;
	t = &c->targets[c->ntargets++];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->timeout_us = nb_knob_default("target", "timeout");
	return t;
}

static int unknown_key(const char *section, const char *name)
{
	const char *near = nb_knob_suggest(section, name);

	if (near)
		return nb_err(-EINVAL, "unknown key '%s' in [%s]; did you mean "
			      "'%s'?", name, section, near);
	return nb_err(-EINVAL, "unknown key '%s' in [%s] (see 'nasbench help "
		      "config')", name, section);
}

/* From a file: "'size' in [suite]: invalid size '12Q' ..."; from an option
 * (WHERE "--size") the option names the key already. */
static int bad_value(const struct nb_knob *k, const char *where)
{
	if (!where || strncmp(where, "--", 2))
		nb_err_prefix("'%s' in [%s]", k->name, k->section);
	return -EINVAL;
}

static int set_key(struct nb_config *c, const char *section, const char *name,
		   const char *value, const char *where)
{
	char sec[64], tname[64] = "";
	const char *sp = strchr(section, ' ');
	const struct nb_knob *k;
	void *base = c;

	snprintf(sec, sizeof(sec), "%.*s",
		 (int)(sp ? (size_t)(sp - section) : strlen(section)), section);
	if (sp)
		snprintf(tname, sizeof(tname), "%s", sp + 1);
	k = nb_knob_find(sec, name);
	if (!k)
		return unknown_key(sec, name);
	if ((k->flags & NB_KF_CMDLINE) && (!where || strncmp(where, "--", 2)))
		return nb_err(-EINVAL, "'%s' in [%s] is consent given on the "
			      "command line (--%s), never in a box file", name,
			      sec, k->opt);
	if (!strcmp(sec, "box")) {
		if (nb_knob_check_choice(k, value))
			return bad_value(k, where);
		if (!(k->flags & NB_KF_NOLABEL) &&
		    nb_config_label(c, name, value, NULL))
			return -EINVAL;
	}
	switch (k->base) {
	case NB_KB_NONE:
		return 0;
	case NB_KB_PARAMS:
		base = &c->suite.p;
		break;
	case NB_KB_TARGET:
		base = nb_config_target(c, tname);
		if (!base && !(base = new_target(c, tname)))
			return -EINVAL;
		break;
	default:
		break;
	}
	return nb_knob_parse(k, base, value) ? bad_value(k, where) : 0;
}

/* SECTION may be "target NAME"; WHERE prefixes any error. */
int nb_config_set(struct nb_config *c, const char *section, const char *name,
		  const char *value, const char *where)
{
	int rc = set_key(c, section, name, value, where);

	if (rc && where)
		nb_err_prefix("%s", where);
	return rc;
}

/* Parsing a file: a pre-pass checks section headers, strips indentation
 * (inih would read an indented line as a continuation) and lifts out the
 * raw sections; inih parses the rest with line numbers unchanged. */
/* Text at the boundary (core/escape.h): a key and its value are UTF-8
 * with no control character, or the run is refused before it starts
 * (a label that is not UTF-8 once ran every workload and then wrote no
 * result).  WHERE names the option; a file's line is added by its load. */
static int text_ok(const char *section, const char *name, const char *value,
		   const char *where)
{
	char what[400];
	size_t nw = where ? strlen(where) : 0, nn = strlen(name);
	/* "--size", "--suite bs": the option names the key already */
	int named = where && nn <= nw && !strcmp(where + nw - nn, name);

	if (where)
		snprintf(what, sizeof(what), "%s", where);
	else
		snprintf(what, sizeof(what), "a key in [%s]", section);
	if (nb_text_check(name, what))
		return -EINVAL;
	if (!where)
		snprintf(what, sizeof(what), "'%s' in [%s]", name, section);
	else if (!named)
		snprintf(what, sizeof(what), "%s '%s'", where, name);
	return nb_text_check(value, what);
}

static int on_key(void *user, const char *section, const char *name,
		  const char *value)
{
	/* inih tells the failing line by the handler returning 0 */
	return !text_ok(section, name, value, NULL) &&
	       nb_config_set(user, section, name, value, NULL) == 0;
}

/* The lines where the sections without a name ([box], [suite], [accept]
 * ...) were first seen, in the order of nb_section_next(): each may
 * appear once, as a [target NAME] may. */
#define MAX_SECTIONS 32

static int check_once(int *seen, const char *path, int line,
		      const struct nb_knob *sec)
{
	const struct nb_knob *s;
	int i = 0;

	nb_section_foreach(s) {
		if (s == sec && i < MAX_SECTIONS && !(s->flags & NB_KF_NAMED)) {
			if (seen[i])
				return nb_err_set("%s:%d: duplicate section [%s] "
						  "(first at line %d)", path, line,
						  s->section, seen[i]), -EINVAL;
			seen[i] = line;
		}
		i++;
	}
	return 0;
}

/* [BASE] is no section: an error naming the nearest, or all of them. */
static int unknown_section(const char *path, int line, const char *base)
{
	const char *names[MAX_SECTIONS], *near;
	const struct nb_knob *s;
	char all[256];
	size_t n = 0;

	nb_section_foreach(s)
		if (n < MAX_SECTIONS)
			names[n++] = s->section;
	near = nb_suggest(base, names, n);
	if (near)
		return nb_err_set("%s:%d: unknown section [%s]; did you mean "
				  "[%s]?", path, line, base, near), -EINVAL;
	return nb_err_set("%s:%d: unknown section [%s] (sections: %s)", path,
			  line, base, nb_sections_list(all, sizeof(all))), -EINVAL;
}

static int check_header(struct nb_config *c, const char *path, int line,
			char *s, char *section, size_t cap, int *seen)
{
	char *end = strchr(s, ']'), *sp;
	const struct nb_knob *sec;
	char base[64];

	char what[300];

	if (!end)
		return nb_err_set("%s:%d: section header without ']'", path, line),
		       -EINVAL;
	snprintf(what, sizeof(what), "%s:%d", path, line);
	if (nb_text_check(s, what))
		return -EINVAL;
	*end = '\0';
	snprintf(section, cap, "%s", s + 1);
	*end = ']';
	sp = strchr(section, ' ');
	snprintf(base, sizeof(base), "%.*s",
		 (int)(sp ? (size_t)(sp - section) : strlen(section)), section);
	sec = nb_section_find(base);
	if (!sec)
		return unknown_section(path, line, base);
	if (sec->flags & NB_KF_NAMED) {
		if (!sp || !sp[1])
			return nb_err_set("%s:%d: a %s section needs a name: "
					  "[%s NAME]", path, line, base, base), -EINVAL;
		if (nb_config_target(c, sp + 1))
			return nb_err_set("%s:%d: target '%s' is defined twice", path,
					  line, sp + 1), -EINVAL;
		if (!new_target(c, sp + 1))
			return nb_err_prefix("%s:%d", path, line);
	} else if (sp) {
		return nb_err_set("%s:%d: [%s] takes no name", path, line, base),
		       -EINVAL;
	}
	return check_once(seen, path, line, sec);
}

/* Whether SECTION is kept as lines for its module ([accept]). */
static int is_raw(const char *section)
{
	const struct nb_knob *s = nb_section_find(section);

	return s && (s->flags & NB_KF_LINES);
}

static int keep_raw(struct nb_config *c, const char *section, int line,
		    const char *text)
{
	struct nb_raw_line *r;
	char what[300];

	snprintf(what, sizeof(what), "%s:%d", c->path, line);
	if (nb_text_check(text, what))
		return -EINVAL;
	r = realloc(c->raw, (size_t)(c->nraw + 1) * sizeof(*r));
	if (!r)
		return nb_err_set("out of memory"), -ENOMEM;
	c->raw = r;
	r = &c->raw[c->nraw++];
	snprintf(r->section, sizeof(r->section), "%s", section);
	r->line = line;
	snprintf(r->text, sizeof(r->text), "%s", text);
	return 0;
}

/* Rewrite BUF in place for inih; returns 0 or -EINVAL. */
static int prepass(struct nb_config *c, const char *path, char *buf, char *out)
{
	int seen[MAX_SECTIONS] = { 0 };
	char section[64] = "";
	int line = 0;
	char *p = buf;

	while (*p) {
		char *nl = strchr(p, '\n'), *s = p;
		size_t len;

		if (nl)
			*nl = '\0';
		line++;
		while (isspace((unsigned char)*s))
			s++;
		len = strlen(s);
		while (len && isspace((unsigned char)s[len - 1]))
			s[--len] = '\0';
		if (*s == '[') {
			if (check_header(c, path, line, s, section, sizeof(section),
					 seen))
				return -EINVAL;
		} else if (is_raw(section) && *s && *s != ';' && *s != '#') {
			int rc = keep_raw(c, section, line, s);

			if (rc)
				return rc;
			s = "";
		}
		out += sprintf(out, "%s\n", s);
		p = nl ? nl + 1 : p + strlen(p);
	}
	*out = '\0';
	return 0;
}

int nb_config_load(struct nb_config *c, const char *path)
{
	char *buf = NULL, *clean = NULL;
	size_t cap = 0;
	int is_stdin = !strcmp(path, "-");     /* '-': standard input */
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	int rc;

	if (!f)
		return nb_err_set("cannot open config '%s': %s", path, strerror(errno)),
		       -errno;
	if (is_stdin)
		path = "<stdin>";
	snprintf(c->path, sizeof(c->path), "%s", path);
	rc = (int)getdelim(&buf, &cap, '\0', f);
	if (!is_stdin)
		fclose(f);
	if (rc < 0) {
		free(buf);
		buf = strdup("");
	}
	clean = malloc(strlen(buf) * 2 + 2);
	if (!clean || !buf) {
		free(buf);
		free(clean);
		return nb_err_set("out of memory"), -ENOMEM;
	}
	nb_err_clear();
	rc = prepass(c, path, buf, clean);
	if (!rc) {
		int line = ini_parse_string(clean, on_key, c);

		if (line > 0 && *nb_err_last())
			rc = (nb_err_prefix("%s:%d", path, line), -EINVAL);
		else if (line > 0)
			rc = (nb_err_set("%s:%d: expected 'key = value'", path, line),
			     -EINVAL);
		else if (line < 0)
			rc = (nb_err_set("%s: out of memory", path), -ENOMEM);
	}
	free(buf);
	free(clean);
	return rc;
}

void nb_config_help(FILE *out)
{
	nb_knobs_help(out);
}

int nb_config_add_target(struct nb_config *c, const char *spec)
{
	const char *eq = strchr(spec, '='), *sep = strstr(spec, "://");
	const char *slash = strchr(spec, '/');
	const char *url = spec;
	char name[64];
	const struct nb_knob *k;
	struct nb_target_cfg *t;
	struct nb_url u;

	if (nb_text_check(spec, "--target"))
		return -EINVAL;
	if (eq && (!sep || eq < sep) && (!slash || eq < slash)) {
		snprintf(name, sizeof(name), "%.*s", (int)(eq - spec), spec);
		url = eq + 1;
	} else {
		name[0] = '\0';
	}
	if (nb_url_parse(url, &u))
		return nb_err_prefix("--target"), -EINVAL;
	/* a runner for its scheme: the [target] url row's check (the
	 * runners know their schemes) */
	k = nb_knob_find("target", "url");
	if (k && k->check && k->check(url)) {
		char why[512];

		snprintf(why, sizeof(why), "%s", nb_err_last());
		return nb_err_set("--target: %s (see 'nasbench list')", why),
		       -EINVAL;
	}
	if (!name[0]) {
		/* a stable name, so results of two runs match up */
		const char *base = !strcmp(u.scheme, "file") ? "local" : u.scheme;

		snprintf(name, sizeof(name), "%s", base);
		for (int i = 2; nb_config_target(c, name); i++)
			snprintf(name, sizeof(name), "%s-%d", base, i);
	}
	if (nb_config_target(c, name))
		return nb_err_set("--target: target '%s' is defined twice", name),
		       -EINVAL;
	t = new_target(c, name);
	if (!t)
		return nb_err_prefix("--target"), -EINVAL;
	snprintf(t->url, sizeof(t->url), "%s", url);
	t->u = u;
	return 0;
}

int nb_config_select_targets(struct nb_config *c, char *const *names, int n)
{
	struct nb_target_cfg keep[NB_MAX_TARGETS];

	if (n > NB_MAX_TARGETS)
		return nb_err(-EINVAL, "--target: at most %d targets", NB_MAX_TARGETS);
	for (int i = 0; i < n; i++) {
		struct nb_target_cfg *t = nb_config_target(c, names[i]);

		if (!t) {
			if (!strstr(names[i], "://") && !strchr(names[i], '/') &&
			    !strchr(names[i], '='))
				return nb_err(-EINVAL, "--target: no target '%s' in "
					      "%s, and it is not a URL or path",
					      names[i], c->path[0] ? c->path :
					      "the command line");
			if (nb_config_add_target(c, names[i]))
				return -EINVAL;
			t = &c->targets[c->ntargets - 1];
		}
		keep[i] = *t;
	}
	if (n) {
		memcpy(c->targets, keep, sizeof(keep[0]) * (size_t)n);
		c->ntargets = n;
	}
	return 0;
}

int nb_config_set_targets(struct nb_config *c, const char *key,
			  const char *value, const char *where)
{
	for (int i = 0; i < c->ntargets; i++) {
		char section[128];

		snprintf(section, sizeof(section), "target %s", c->targets[i].name);
		if (nb_config_set(c, section, key, value, where))
			return -EINVAL;
	}
	return 0;
}

int nb_config_check_targets(const struct nb_config *c)
{
	if (!c->ntargets)
		return nb_err(-EINVAL, "no target: give --target URL or a box file "
			      "with a [target NAME] section");
	for (int i = 0; i < c->ntargets; i++)
		if (!c->targets[i].url[0])
			return nb_err(-EINVAL, "%s: target '%s' has no url",
				      c->path[0] ? c->path : "config",
				      c->targets[i].name);
	return 0;
}

int nb_config_override(struct nb_config *c, const char *section,
		       const char *key, const char *value, const char *where)
{
	struct nb_override *v = realloc(c->overrides, (size_t)(c->noverrides + 1) *
					sizeof(*v));

	if (!v)
		return nb_err(-ENOMEM, "out of memory");
	c->overrides = v;
	if (text_ok(section, key, value, where))
		return -EINVAL;
	v += c->noverrides++;
	snprintf(v->section, sizeof(v->section), "%s", section);
	snprintf(v->key, sizeof(v->key), "%s", key);
	snprintf(v->value, sizeof(v->value), "%s", value);
	snprintf(v->where, sizeof(v->where), "%s", where);
	return 0;
}

int nb_config_override_pair(struct nb_config *c, const char *section,
			    const char *opt, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char key[256], where[320];

	if (!eq || eq == arg)
		return nb_err(-EINVAL, "%s: expected KEY=VALUE, not '%s'", opt, arg);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - arg), arg);
	snprintf(where, sizeof(where), "%s%s%s", opt,
		 !strcmp(section, "suite") ? " " : "",
		 !strcmp(section, "suite") ? key : "");
	return nb_config_override(c, section, key, eq + 1, where);
}

int nb_config_override_knob(struct nb_config *c, const struct nb_knob *k,
			    const char *arg)
{
	char where[64];

	snprintf(where, sizeof(where), "--%s", k->opt);
	return nb_config_override(c, k->section, k->name,
				  (k->flags & NB_KF_NOARG) ? "yes" : arg, where);
}

int nb_config_apply(struct nb_config *c, int targets)
{
	for (int i = 0; i < c->noverrides; i++) {
		const struct nb_override *v = &c->overrides[i];
		int rc = 0;

		if (targets != !strcmp(v->section, "target"))
			continue;
		if (targets)
			rc = nb_config_set_targets(c, v->key, v->value, v->where);
		else if (!strcmp(v->section, "label") && !nb_knob_find("box", v->key))
			rc = nb_config_label(c, v->key, v->value, v->where);
		else if (!strcmp(v->section, "label"))  /* --label ram=8G: [box] */
			rc = nb_config_set(c, "box", v->key, v->value, v->where);
		else
			rc = nb_config_set(c, v->section, v->key, v->value, v->where);
		if (rc)
			return rc;
	}
	return 0;
}
