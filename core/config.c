#include "config.h"
#include "err.h"
#include "suggest.h"
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum key_type {
	T_LABEL,      /* only a label */
	T_STR,        /* a string field */
	T_SIZE,       /* uint64_t bytes */
	T_SIZE32,     /* uint32_t bytes */
	T_DURATION,   /* uint64_t microseconds */
	T_UINT,       /* uint64_t */
	T_UINT32,     /* uint32_t */
	T_BOOL,       /* int 0/1 */
	T_CHOICE,     /* int: index into choices */
	T_URL,        /* the target URL: parsed */
};

enum key_base { B_CONFIG, B_TARGET };

struct key {
	const char *section;
	const char *name;
	enum key_type type;
	enum key_base base;
	size_t off, len;
	const char *choices;     /* '|'-separated, for labels and T_CHOICE */
	uint64_t min, max;
	const char *help;
};

#define CFG(f) B_CONFIG, offsetof(struct nb_config, f), sizeof(((struct nb_config *)0)->f)
#define TGT(f) B_TARGET, offsetof(struct nb_target_cfg, f), sizeof(((struct nb_target_cfg *)0)->f)
#define NONE B_CONFIG, 0, 0

static const struct key keys[] = {
	{ "box", "name", T_LABEL, NONE, NULL, 0, 0, "name of the box under test" },
	{ "box", "layout", T_LABEL, NONE,
	  "raidz1|raidz2|raidz3|mirror|raid10|raid5|raid6|raid1|raid0|stripe|single",
	  0, 0, "pool or array layout" },
	{ "box", "disks", T_LABEL, NONE, NULL, 0, 0, "the disks, e.g. '5 x 3TB WD Red'" },
	{ "box", "slog", T_LABEL, NONE, NULL, 0, 0, "separate intent log: none, or what it is" },
	{ "box", "sync", T_LABEL, NONE, "standard|always|disabled", 0, 0,
	  "ZFS sync property of the dataset" },
	{ "box", "platform", T_LABEL, NONE, "bare|xen|esxi|vmware|kvm|hyperv|other|auto",
	  0, 0, "bare metal or hypervisor (auto: detected on this client)" },
	{ "box", "media", T_LABEL, NONE, "hdd|ssd|nvme|mixed", 0, 0,
	  "the pool's disks: rotational or not" },
	{ "box", "ram", T_SIZE, CFG(suite.p.ram), NULL, 0, 0,
	  "the box's memory (bonnie sizes its file at twice this)" },
	{ "box", "cpu", T_LABEL, NONE, NULL, 0, 0, "the box's processor" },
	{ "box", "nic", T_LABEL, NONE, NULL, 0, 0, "the box's network link, e.g. 1gbit" },
	{ "box", "os", T_LABEL, NONE, NULL, 0, 0, "the box's OS, e.g. FreeNAS 9.3" },
	{ "box", "notes", T_LABEL, NONE, NULL, 0, 0, "free text" },

	{ "target", "url", T_URL, TGT(url), NULL, 0, 0,
	  "path, file:///path, nfs://host/export/dir or iscsi://host/iqn/lun" },
	{ "target", "timeout", T_DURATION, TGT(timeout_us), NULL, 1000, 3600000000ULL,
	  "give up on an unanswered request after this long (default 10s)" },
	{ "target", "destroy-data", T_BOOL, TGT(destroy_data), NULL, 0, 0,
	  "allow writing over a LUN or device that holds data" },
	{ "target", "keep", T_BOOL, TGT(keep), NULL, 0, 0,
	  "keep the scratch directory nasbench.<run-id>/ afterwards" },
	{ "target", "offset", T_SIZE, TGT(offset), NULL, 0, 0,
	  "block targets: start of the window used" },
	{ "target", "size", T_SIZE, TGT(size), NULL, 0, 0,
	  "block targets: length of the window used" },
	{ "target", "engine", T_STR, TGT(engine), "native|fio", 0, 0,
	  "who does the I/O: nasbench itself (native) or fio" },
	{ "target", "ioengine", T_STR, TGT(ioengine), "io_uring|libaio|psync", 0, 0,
	  "fio's ioengine when engine = fio (libaio, io_uring, psync)" },

	{ "suite", "workloads", T_STR, CFG(suite.workloads), NULL, 0, 0,
	  "comma-separated workloads (see 'nasbench list')" },
	{ "suite", "suite", T_STR, CFG(suite.suite), NULL, 0, 0,
	  "a named suite (see 'nasbench list')" },
	{ "suite", "iterations", T_UINT, CFG(suite.iterations), NULL, 1, 1000,
	  "repetitions of each workload (default 3)" },
	{ "suite", "size", T_SIZE, CFG(suite.p.size), NULL, 4096, 0,
	  "bytes of the data file or LUN window per workload (default 1G)" },
	{ "suite", "runtime", T_DURATION, CFG(suite.p.runtime_us), NULL, 1000, 0,
	  "run each iteration this long instead of once over the size" },
	{ "suite", "iodepth", T_UINT32, CFG(suite.p.iodepth), NULL, 1, NB_MAX_QD,
	  "I/Os in flight (default: the workload's)" },
	{ "suite", "bs", T_SIZE32, CFG(suite.p.bs), NULL, 512, 64 << 20,
	  "bytes per I/O (default: the workload's)" },
	{ "suite", "direct", T_BOOL, CFG(suite.p.direct), NULL, 0, 0,
	  "bypass the client's page cache (default yes)" },
	{ "suite", "sync", T_CHOICE, CFG(suite.p.sync), "none|end|always", 0, 0,
	  "write durability: none, one flush at the end, or every write" },
	{ "suite", "verify", T_BOOL, CFG(suite.p.verify), NULL, 0, 0,
	  "read written data back and check every block" },
	{ "suite", "preset", T_UINT, CFG(suite.p.preset), NULL, 0, 9,
	  "xz preset (default 6)" },
	{ "suite", "files", T_UINT, CFG(suite.p.files), NULL, 1, 10000000,
	  "bonnie: files to create, stat and delete (default 16384)" },
	{ "suite", "fast", T_BOOL, CFG(suite.p.fast), NULL, 0, 0,
	  "bonnie: skip the per-character phases, like bonnie++ -f (default no)" },
	{ "suite", "cross-check", T_BOOL, CFG(suite.p.cross_check), NULL, 0, 0,
	  "run I/O workloads with nasbench and fio, flag >10% differences" },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* Sections whose lines other modules parse (criteria, host lists). */
static const char *const raw_sections[] = { "accept", "clients" };
static const char *const known_sections[] = { "box", "target", "suite",
					      "accept", "clients" };

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
}

static int in_choices(const char *choices, const char *v)
{
	size_t n = strlen(v);

	for (const char *p = choices; p && *p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !strncasecmp(p, v, n))
			return 1;
		p = bar ? bar + 1 : NULL;
	}
	return 0;
}

static int choice_index(const char *choices, const char *v)
{
	int i = 0;
	size_t n = strlen(v);

	for (const char *p = choices; p && *p; i++) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !strncasecmp(p, v, n))
			return i;
		p = bar ? bar + 1 : NULL;
	}
	return -1;
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
	t->timeout_us = 10000000;
	return t;
}

static const struct key *find_key(const char *section, const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].section, section) && !strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

static int unknown_key(const char *section, const char *name)
{
	const char *cands[NKEYS];
	const char *near;

	for (size_t i = 0; i < NKEYS; i++)
		cands[i] = strcmp(keys[i].section, section) ? NULL : keys[i].name;
	near = nb_suggest(name, cands, NKEYS);
	if (near)
		nb_err_set("unknown key '%s' in [%s]; did you mean '%s'?", name,
			   section, near);
	else
		nb_err_set("unknown key '%s' in [%s] (see 'nasbench help config')",
			   name, section);
	return -EINVAL;
}

/* From a file: "'size' in [suite]: invalid size '12Q' ..."; from an option
 * (WHERE "--size") the option names the key already. */
static int bad_value(const struct key *k, const char *where)
{
	if (!where || strncmp(where, "--", 2))
		nb_err_prefix("'%s' in [%s]", k->name, k->section);
	return -EINVAL;
}

static int set_number(const struct key *k, void *field, const char *v,
		      const char *where)
{
	uint64_t n;
	int rc;

	switch (k->type) {
	case T_SIZE:
	case T_SIZE32:
		rc = nb_parse_size(v, &n);
		break;
	case T_DURATION:
		rc = nb_parse_duration_us(v, &n);
		break;
	default:
		rc = nb_parse_uint(v, 0, UINT64_MAX, &n);
		break;
	}
	if (rc)
		return bad_value(k, where);
	if ((k->min && n < k->min) || (k->max && n > k->max)) {
		nb_err_set("value '%s' out of range (%llu to %llu)", v,
			   (unsigned long long)k->min, (unsigned long long)k->max);
		return bad_value(k, where);
	}
	if (k->type == T_SIZE32 || k->type == T_UINT32)
		*(uint32_t *)field = (uint32_t)n;
	else if (k->len == sizeof(int))
		*(int *)field = (int)n;
	else
		*(uint64_t *)field = n;
	return 0;
}

static int set_field(const struct key *k, void *base, const char *v,
		     const char *where, struct nb_target_cfg *t)
{
	void *field = (char *)base + k->off;
	int b;

	switch (k->type) {
	case T_LABEL:
		return 0;
	case T_URL:
		if (nb_url_parse(v, &t->u))
			return bad_value(k, where);
		if (!nb_url_scheme_known(t->u.scheme)) {
			nb_err_set("no runner for '%s://' URLs", t->u.scheme);
			return bad_value(k, where);
		}
		/* fall through */
	case T_STR:
		if (strlen(v) >= k->len) {
			nb_err_set("value too long");
			return bad_value(k, where);
		}
		if (k->choices && !in_choices(k->choices, v)) {
			nb_err_set("'%s' is not one of %s", v, k->choices);
			return bad_value(k, where);
		}
		snprintf(field, k->len, "%s", v);
		return 0;
	case T_BOOL:
		if (nb_parse_bool(v, &b))
			return bad_value(k, where);
		*(int *)field = b;
		return 0;
	case T_CHOICE:
		b = choice_index(k->choices, v);
		if (b < 0) {
			nb_err_set("'%s' is not one of %s", v, k->choices);
			return bad_value(k, where);
		}
		*(int *)field = b;
		return 0;
	default:
		return set_number(k, field, v, where);
	}
}

static int set_key(struct nb_config *c, const char *section, const char *name,
		   const char *value, const char *where)
{
	char sec[64], tname[64] = "";
	const char *sp = strchr(section, ' ');
	struct nb_target_cfg *t = NULL;
	const struct key *k;

	snprintf(sec, sizeof(sec), "%.*s",
		 (int)(sp ? (size_t)(sp - section) : strlen(section)), section);
	if (sp)
		snprintf(tname, sizeof(tname), "%s", sp + 1);
	k = find_key(sec, name);
	if (!k)
		return unknown_key(sec, name);
	if (k->type == T_LABEL || !strcmp(sec, "box")) {
		if (k->choices && !in_choices(k->choices, value)) {
			nb_err_set("'%s' is not one of %s", value, k->choices);
			return bad_value(k, where);
		}
		if (nb_config_label(c, name, value, NULL))
			return -EINVAL;
		if (k->type == T_LABEL)
			return 0;
	}
	if (k->base == B_TARGET) {
		t = nb_config_target(c, tname);
		if (!t && !(t = new_target(c, tname)))
			return -EINVAL;
		return set_field(k, t, value, where, t);
	}
	return set_field(k, c, value, where, NULL);
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
static int on_key(void *user, const char *section, const char *name,
		  const char *value)
{
	/* inih tells the failing line by the handler returning 0 */
	return nb_config_set(user, section, name, value, NULL) == 0;
}

static int check_header(struct nb_config *c, const char *path, int line,
			char *s, char *section, size_t cap)
{
	char *end = strchr(s, ']'), *sp;
	const char *near;
	char base[64];

	if (!end)
		return nb_err_set("%s:%d: section header without ']'", path, line),
		       -EINVAL;
	*end = '\0';
	snprintf(section, cap, "%s", s + 1);
	*end = ']';
	sp = strchr(section, ' ');
	snprintf(base, sizeof(base), "%.*s",
		 (int)(sp ? (size_t)(sp - section) : strlen(section)), section);
	near = nb_suggest(base, known_sections, 5);
	if (!find_key(base, "url") && strcmp(base, "box") && strcmp(base, "suite") &&
	    strcmp(base, "accept") && strcmp(base, "clients"))
		return near ? nb_err_set("%s:%d: unknown section [%s]; did you mean "
					 "[%s]?", path, line, base, near)
			    : nb_err_set("%s:%d: unknown section [%s] (sections: box, "
					 "target NAME, suite, accept, clients)",
					 path, line, base), -EINVAL;
	if (!strcmp(base, "target")) {
		if (!sp || !sp[1])
			return nb_err_set("%s:%d: a target section needs a name: "
					  "[target NAME]", path, line), -EINVAL;
		if (nb_config_target(c, sp + 1))
			return nb_err_set("%s:%d: target '%s' is defined twice", path,
					  line, sp + 1), -EINVAL;
		if (!new_target(c, sp + 1))
			return nb_err_prefix("%s:%d", path, line);
	} else if (sp) {
		return nb_err_set("%s:%d: [%s] takes no name", path, line, base),
		       -EINVAL;
	}
	return 0;
}

static int is_raw(const char *section)
{
	for (size_t i = 0; i < sizeof(raw_sections) / sizeof(raw_sections[0]); i++)
		if (!strcmp(section, raw_sections[i]))
			return 1;
	return 0;
}

static int keep_raw(struct nb_config *c, const char *section, int line,
		    const char *text)
{
	struct nb_raw_line *r = realloc(c->raw, (size_t)(c->nraw + 1) * sizeof(*r));

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
			if (check_header(c, path, line, s, section, sizeof(section)))
				return -EINVAL;
		} else if (is_raw(section) && *s && *s != ';' && *s != '#') {
			if (keep_raw(c, section, line, s))
				return -ENOMEM;
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
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return nb_err_set("cannot open config '%s': %s", path, strerror(errno)),
		       -errno;
	snprintf(c->path, sizeof(c->path), "%s", path);
	rc = (int)getdelim(&buf, &cap, '\0', f);
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
	const char *sec = "";

	for (size_t i = 0; i < NKEYS; i++) {
		if (strcmp(sec, keys[i].section)) {
			sec = keys[i].section;
			fprintf(out, "%s[%s%s]\n", i ? "\n" : "", sec,
				!strcmp(sec, "target") ? " NAME" : "");
		}
		fprintf(out, "  %-14s %s%s%s%s\n", keys[i].name, keys[i].help,
			keys[i].choices ? " (" : "",
			keys[i].choices ? keys[i].choices : "",
			keys[i].choices ? ")" : "");
	}
	fputs("\n[accept]         one criterion a line: WORKLOAD@TARGET METRIC OP VALUE\n"
	      "[clients]        one fio server a line: host[:port]\n", out);
}

int nb_config_add_target(struct nb_config *c, const char *spec)
{
	const char *eq = strchr(spec, '='), *sep = strstr(spec, "://");
	const char *slash = strchr(spec, '/');
	const char *url = spec;
	char name[64];
	struct nb_target_cfg *t;
	struct nb_url u;

	if (eq && (!sep || eq < sep) && (!slash || eq < slash)) {
		snprintf(name, sizeof(name), "%.*s", (int)(eq - spec), spec);
		url = eq + 1;
	} else {
		name[0] = '\0';
	}
	if (nb_url_parse(url, &u))
		return nb_err_prefix("--target"), -EINVAL;
	if (!nb_url_scheme_known(u.scheme))
		return nb_err_set("--target: no runner for '%s://' URLs (see "
				  "'nasbench list')", u.scheme), -EINVAL;
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
