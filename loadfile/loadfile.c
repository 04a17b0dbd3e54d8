/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loadfile.c - the load file read: sections, keys, checks (loadfile.h). */
#include "loadfile.h"
#include "keys.h"
#include "../core/boxtext.h"
#include "../core/err.h"
#include "../core/fsutil.h"
#include "../core/knobs.h"
#include "../core/suggest.h"
#include "../core/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void fig_unset(struct nb_load_fig *f)
{
	f->iops = f->iops_mean = f->iops_peak = NAN;
	f->mbps = f->mbps_mean = f->mbps_peak = NAN;
	f->read = f->bs_read = f->bs_write = f->burstiness = NAN;
	f->peak_bucket = -1;
}

/* ---- the reading ---- */

enum sec { SEC_NONE, SEC_CAPTURE, SEC_POPULATION, SEC_TOTAL, SEC_VM,
	   SEC_SERIES, SEC_NFS, SEC_POOL, SEC_DATA };

static const char *const sec_names[] = { "", "capture", "population", "total",
					  "vm", "series", "nfs", "pool", "data" };

struct rd {
	struct nb_load *l;
	const char *name;        /* the file, in messages */
	int line;
	int sec, sec_line;
	char title[NB_LOAD_NAME + 16];   /* "[vm web]" as written */
	void *base;              /* the section's struct */
	struct nb_load_fig *fig; /* its figures, or NULL */
	struct nb_load_vm *vm;   /* [vm]/[series]: the VM */
	struct nb_load_pool *pool;
	int nseries;             /* [series]: buckets read */
	unsigned seen;           /* which of the once-only sections were seen */
};

static int at(struct rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int at(struct rd *r, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return nb_err(-EINVAL, "%s:%d: %s", r->name, r->line, msg);
}

/* The largest figure a load file holds (IOPS, bytes, MB/s): 10^15 is
 * beyond any box, and whole bytes of it stay exact in a double. */
#define NB_LOAD_MAX_FIGURE 1e15

/* A number: all of S, finite, from 0 to NB_LOAD_MAX_FIGURE. */
static int number(const char *s, double *v)
{
	char *e;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	*v = strtod(s, &e);
	return *e || !isfinite(*v) || *v < 0 || *v > NB_LOAD_MAX_FIGURE ? -1 : 0;
}

static int set_num(struct rd *r, const struct key *k, const char *v, void *dst)
{
	double d;
	uint64_t u;

	switch (k->type) {
	case KT_RATIO:
		if (number(v, &d) || d < 1 || d > 1000)
			return at(r, "'%s' in %s: '%s' is not a ratio from 1 to 1000",
				  k->name, r->title, v);
		*(double *)dst = d;
		return 0;
	case KT_NUM:
	case KT_PCT:
		if (number(v, &d))
			return at(r, "'%s' in %s: '%s' is not a number from 0 to "
				  "10^15", k->name, r->title, v);
		if (k->type == KT_PCT && d > 100)
			return at(r, "'%s' in %s: %s%% is over 100%%", k->name,
				  r->title, v);
		*(double *)dst = d;
		return 0;
	case KT_BYTES:
		if (!number(v, &d)) {
			*(double *)dst = round(d);     /* whole bytes, as written */
		} else if (!nb_parse_size(v, &u) && u <= NB_LOAD_MAX_FIGURE) {
			*(double *)dst = (double)u;
		} else {
			nb_err_clear();
			return at(r, "'%s' in %s: invalid size '%s' (bytes, or with "
				  "K, M, KiB...)", k->name, r->title, v);
		}
		return 0;
	case KT_SIZE:
		if (nb_parse_size(v, (uint64_t *)dst)) {
			nb_err_clear();
			return at(r, "'%s' in %s: invalid size '%s' (bytes, or with "
				  "K, M, G, T...)", k->name, r->title, v);
		}
		return 0;
	case KT_DURATION:
		if (nb_parse_duration_us(v, &u)) {
			nb_err_clear();
			return at(r, "'%s' in %s: invalid duration '%s' (10s, 1m, 1h)",
				  k->name, r->title, v);
		}
		*(double *)dst = (double)u / 1e6;
		return 0;
	default:
		break;
	}
	if (nb_parse_uint(v, k->type == KT_COUNT ? 1 : 0, k->type == KT_COUNT ?
			  1000000 : NB_LOAD_MAX_BUCKETS, &u)) {
		nb_err_clear();
		return at(r, "'%s' in %s: '%s' is not a whole number%s", k->name,
			  r->title, v, k->type == KT_COUNT ? " from 1 to 1000000" :
			  " (0 or more)");
	}
	*(int *)dst = (int)u;
	return 0;
}

static int set_key(struct rd *r, const struct key *k, const char *v, void *base)
{
	void *dst = (char *)base + k->off;
	int b;

	switch (k->type) {
	case KT_STR:
		if (!nb_boxtext_clean(v))
			return at(r, "'%s' in %s is not UTF-8 text (a control "
				  "character, or bytes of another encoding)",
				  k->name, r->title);
		if (strlen(v) >= k->len)
			return at(r, "'%s' in %s is too long (%zu characters at "
				  "most)", k->name, r->title, k->len - 1);
		snprintf(dst, k->len, "%s", v);
		return 0;
	case KT_BUSY:
		if (*v == 'p' || *v == 'P')
			v++;
		if (set_num(r, &(struct key){ k->name, KT_PCT, 0, 0 }, v, dst))
			return -EINVAL;
		if (*(double *)dst < 50)
			return at(r, "'busy' in %s: p%s is below p50 (the busiest-"
				  "hour level is a high percentile: p95)", r->title, v);
		return 0;
	case KT_BOOL:
		if (nb_parse_bool(v, &b)) {
			nb_err_clear();
			return at(r, "'%s' in %s: '%s' is not yes or no", k->name,
				  r->title, v);
		}
		*(int *)dst = b;
		return 0;
	case KT_SEQFROM:
		if (!strcmp(v, "assumed"))
			*(int *)dst = NB_SEQ_ASSUMED;
		else if (!strcmp(v, "merges"))
			*(int *)dst = NB_SEQ_MERGES;
		else if (!strcmp(v, "aggregated"))
			*(int *)dst = NB_SEQ_AGGREGATED;
		else
			return at(r, "'sequential_from' in %s: '%s' is not one of "
				  "assumed, merges, aggregated", r->title, v);
		return 0;
	case KT_GROWTH:
		if (nb_growth_parse(v, dst))
			return at(r, "'growth' in %s: %s", r->title, nb_err_last());
		return 0;
	default:
		return set_num(r, k, v, dst);
	}
}

static const struct key *find_key(const struct key *t, const char *name)
{
	for (; t && t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static int unknown_key(struct rd *r, const struct key *t, const char *name)
{
	const char *cands[64];
	size_t n = 0;
	const char *near;

	for (; t && t->name && n < 40; t++)
		cands[n++] = t->name;
	for (const struct key *f = nb_load_fig_keys; r->fig && f->name && n < 64; f++)
		cands[n++] = f->name;
	if (r->sec == SEC_NFS)
		for (int i = 0; i < NB_NFS_N && n < 64; i++)
			cands[n++] = nb_load_nfs_ops[i];
	near = nb_suggest(name, cands, n);
	if (near)
		return at(r, "unknown key '%s' in %s; did you mean '%s'?", name,
			  r->title, near);
	return at(r, "unknown key '%s' in %s (docs/capture.md)", name, r->title);
}

/* The defaults of a VM's (or the total's, a pool's) figures not given:
 * the mean and peak are the level, burstiness their ratio. */
static void fig_defaults(struct nb_load_fig *f)
{
	double rd = isnan(f->read) ? 0 : f->read;
	double bs = rd / 100 * (isnan(f->bs_read) ? 0 : f->bs_read) +
		    (100 - rd) / 100 * (isnan(f->bs_write) ? 0 : f->bs_write);

	if (isnan(f->read))
		f->read = 0;
	if (isnan(f->bs_read))
		f->bs_read = 0;
	if (isnan(f->bs_write))
		f->bs_write = 0;
	if (isnan(f->iops))
		f->iops = 0;
	if (isnan(f->iops_mean))
		f->iops_mean = f->iops;
	if (isnan(f->iops_peak))
		f->iops_peak = f->iops > f->iops_mean ? f->iops : f->iops_mean;
	if (isnan(f->mbps))
		f->mbps = f->iops * bs / 1e6;
	if (isnan(f->mbps_mean))
		f->mbps_mean = f->iops_mean * bs / 1e6;
	if (isnan(f->mbps_peak))
		f->mbps_peak = f->iops_peak * bs / 1e6;
	if (isnan(f->burstiness))
		f->burstiness = f->iops_mean > 0 ? f->iops_peak / f->iops_mean : 1;
}

/* The end of a section: what it lacks said at its header's line. */
static int finish(struct rd *r)
{
	int line = r->line, rc = 0;
	struct nb_load_vm *v = r->vm;

	r->line = r->sec_line;
	if (r->sec == SEC_VM) {
		int busy = v->f.iops > 0;
		const char *miss = isnan(v->f.iops) ? "iops" : isnan(v->f.read) ? "read" :
				   busy && v->f.read > 0 && isnan(v->f.bs_read) ? "bs_read" :
				   busy && v->f.read < 100 && isnan(v->f.bs_write) ?
				   "bs_write" : NULL;

		if (miss)
			rc = at(r, "%s has no '%s' (a VM needs iops, read, and the "
				"bs_read and bs_write its reads and writes use)",
				r->title, miss);
		else if (v->f.iops > 0 && v->f.read > 0 && !(v->f.bs_read > 0))
			rc = at(r, "%s: 'bs_read' must be above 0 when it reads",
				r->title);
		else if (v->f.iops > 0 && v->f.read < 100 && !(v->f.bs_write > 0))
			rc = at(r, "%s: 'bs_write' must be above 0 when it writes",
				r->title);
		fig_defaults(&v->f);
		if (v->sequential < 0)
			v->sequential = 100.0 - (double)nb_knob_default("vm", "random");
	} else if (r->sec == SEC_TOTAL) {
		fig_defaults(&r->l->total);
	} else if (r->sec == SEC_POOL) {
		fig_defaults(&r->pool->f);
	} else if (r->sec == SEC_SERIES && r->nseries != r->vm->nbuckets) {
		r->vm->nbuckets = r->nseries;
	}
	r->line = line;
	r->sec = SEC_NONE;
	return rc;
}

static int open_section(struct rd *r, const char *name);

/* "[vm web]" -> KIND "vm", NAME "web". */
static int header(struct rd *r, char *s)
{
	char *end = strrchr(s, ']'), *name;
	int sec = SEC_NONE;

	if (!end || end[1])
		return at(r, "a section header ends with ']': '%s'", s);
	*end = 0;
	snprintf(r->title, sizeof(r->title), "%.*s]", (int)sizeof(r->title) - 2, s);
	s++;
	name = s + strcspn(s, " \t");
	if (*name)
		*name++ = 0;
	while (isspace((unsigned char)*name))
		name++;
	for (size_t n = strlen(name); n && isspace((unsigned char)name[n - 1]);)
		name[--n] = 0;
	for (int i = 1; i < (int)(sizeof(sec_names) / sizeof(sec_names[0])); i++)
		if (!strcmp(s, sec_names[i]))
			sec = i;
	if (sec == SEC_NONE) {
		const char *near = nb_suggest(s, sec_names + 1, 8);

		return near ? at(r, "unknown section [%s]; did you mean [%s]?", s, near)
			    : at(r, "unknown section [%s] (capture, population, "
				 "total, vm NAME, series NAME, nfs, pool NAME, data)", s);
	}
	if ((sec == SEC_VM || sec == SEC_SERIES || sec == SEC_POOL) != !!*name)
		return *name ? at(r, "[%s] takes no name", s)
			     : at(r, "a [%s] section needs a name: [%s NAME]", s, s);
	if (strlen(name) >= NB_LOAD_NAME)
		return at(r, "the name of [%s] is longer than %d characters", s,
			  NB_LOAD_NAME - 1);
	/* a name goes into results, reports and terminals: text only */
	if (!nb_boxtext_clean(name))
		return at(r, "the name of [%s] is not UTF-8 text (a control "
			  "character, or bytes of another encoding)", s);
	return r->sec = sec, open_section(r, name);
}

static int open_section(struct rd *r, const char *name)
{
	struct nb_load *l = r->l;
	unsigned once = 1u << r->sec;

	r->base = NULL;
	r->fig = NULL;
	r->sec_line = r->line;
	if (r->sec == SEC_CAPTURE || r->sec == SEC_POPULATION ||
	    r->sec == SEC_TOTAL || r->sec == SEC_NFS || r->sec == SEC_DATA) {
		if (r->seen & once)
			return at(r, "duplicate section [%s]", sec_names[r->sec]);
		r->seen |= once;
	}
	switch (r->sec) {
	case SEC_CAPTURE:
	case SEC_POPULATION:
		r->base = l;
		return 0;
	case SEC_TOTAL:
		l->have_total = 1;
		fig_unset(&l->total);
		r->fig = &l->total;
		return 0;
	case SEC_DATA:
		l->data.have = 1;
		r->base = &l->data;
		return 0;
	case SEC_NFS:
		l->nfs.have = 1;
		l->nfs.read_mbps = l->nfs.write_mbps = -1;
		r->base = &l->nfs;
		return 0;
	case SEC_VM:
		if (nb_load_vm_find(l, name))
			return at(r, "[vm %s] is defined twice", name);
		if (!(r->vm = nb_load_add_vm(l, name)))
			return at(r, "more than %d VMs, or out of memory",
				  NB_LOAD_MAX_VMS);
		fig_unset(&r->vm->f);
		r->vm->line = r->line;
		r->base = r->vm;
		r->fig = &r->vm->f;
		return 0;
	case SEC_SERIES:
		r->vm = nb_load_vm_find(l, name);
		if (!r->vm)
			return at(r, "[series %s] before (or without) its [vm %s]",
				  name, name);
		if (r->vm->series)
			return at(r, "[series %s] is defined twice", name);
		r->nseries = 0;
		return 0;
	default:
		if (!(r->pool = nb_load_add_pool(l, name)))
			return at(r, "too many pools, or out of memory");
		fig_unset(&r->pool->f);
		r->base = r->pool;
		r->fig = &r->pool->f;
		return 0;
	}
}

/* "INDEX = r_iops w_iops r_MBps w_MBps seq" of a [series]. */
static int series_line(struct rd *r, const char *key, char *value)
{
	struct nb_load_vm *v = r->vm;
	struct nb_load_bucket *b;
	double x[5];
	char *tok, *save = NULL;
	uint64_t idx;
	int n = 0;

	if (nb_parse_uint(key, 0, NB_LOAD_MAX_BUCKETS - 1, &idx)) {
		nb_err_clear();
		return at(r, "'%s' in %s is not a bucket's number", key, r->title);
	}
	if ((int)idx != r->nseries)
		return at(r, "bucket %s in %s after bucket %d: a series is whole, "
			  "from 0 up", key, r->title, r->nseries - 1);
	for (tok = strtok_r(value, " \t", &save); tok && n < 5;
	     tok = strtok_r(NULL, " \t", &save), n++) {
		if (n == 4 && !strcmp(tok, "-"))
			x[n] = -1;
		else if (number(tok, &x[n]) || (n == 4 && x[n] > 100))
			return at(r, "bucket %s in %s: '%s' is not a figure", key,
				  r->title, tok);
	}
	if (n != 5 || tok)
		return at(r, "bucket %s in %s: expected 5 figures (read IOPS, "
			  "write IOPS, read MB/s, write MB/s, sequential %% or -)",
			  key, r->title);
	if (r->nseries >= v->nbuckets) {
		int cap = v->nbuckets ? v->nbuckets * 2 : 64;

		b = realloc(v->series, (size_t)cap * sizeof(*b));
		if (!b)
			return at(r, "out of memory");
		v->series = b;
		v->nbuckets = cap;
	}
	b = &v->series[r->nseries++];
	*b = (struct nb_load_bucket){ x[0], x[1], x[2], x[3], x[4] };
	return 0;
}

static int key_line(struct rd *r, const char *key, char *value)
{
	const struct key *t = NULL, *k;

	switch (r->sec) {
	case SEC_NONE:
		return at(r, "'%s' before any section", key);
	case SEC_SERIES:
		return series_line(r, key, value);
	case SEC_CAPTURE: t = nb_load_capture_keys; break;
	case SEC_POPULATION: t = nb_load_population_keys; break;
	case SEC_VM: t = nb_load_vm_keys; break;
	case SEC_NFS: t = nb_load_nfs_keys; break;
	case SEC_POOL: t = nb_load_pool_keys; break;
	case SEC_DATA: t = nb_load_data_keys; break;
	default: break;
	}
	if ((k = find_key(t, key)))
		return set_key(r, k, value, r->base);
	if (r->fig && (k = find_key(nb_load_fig_keys, key)))
		return set_key(r, k, value, r->fig);
	for (int i = 0; r->sec == SEC_NFS && i < NB_NFS_N; i++)
		if (!strcmp(key, nb_load_nfs_ops[i]))
			return set_key(r, &(struct key){ key, KT_PCT, 0, 0 }, value,
				       &r->l->nfs.mix[i]);
	return unknown_key(r, t, key);
}

/* A line: cut at a comment (';' or '#' at its start or after a blank),
 * trimmed. */
static char *clean(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	for (char *p = s; *p; p++)
		if ((*p == ';' || *p == '#') && (p == s || isspace((unsigned char)p[-1]))) {
			*p = 0;
			break;
		}
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

static int one_line(struct rd *r, char *s)
{
	char *eq, *key, *value;
	size_t n;

	if (!*s)
		return 0;
	if (*s == '[')
		return (r->sec != SEC_NONE && finish(r)) ? -EINVAL : header(r, s);
	eq = strchr(s, '=');
	if (!eq)
		return at(r, "expected 'key = value', a [section] or a comment");
	*eq = 0;
	key = s;
	n = strlen(key);
	while (n && isspace((unsigned char)key[n - 1]))
		key[--n] = 0;
	value = eq + 1;
	while (isspace((unsigned char)*value))
		value++;
	if (!*key)
		return at(r, "a key is missing before '='");
	if (!*value)
		return at(r, "'%s' has no value", key);
	return key_line(r, key, value);
}

/* Every series as long as the others and as [capture] buckets says. */
static int check_series(struct rd *r)
{
	int want = r->l->buckets;

	for (int i = 0; i < r->l->nvms; i++) {
		const struct nb_load_vm *v = &r->l->vms[i];

		if (!v->series)
			continue;
		r->line = v->line;
		if (want && v->nbuckets != want)
			return at(r, "[series %s] has %d buckets, [capture] says "
				  "buckets = %d", v->name, v->nbuckets, want);
		want = v->nbuckets;
	}
	return 0;
}

int nb_load_parse(struct nb_load *l, const char *text, const char *name)
{
	struct rd r = { .l = l, .name = name };
	char *copy = strdup(text ? text : ""), *p = copy;
	int rc = 0;

	if (!copy)
		return nb_err(-ENOMEM, "out of memory");
	while (!rc && p && *p) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = 0;
		r.line++;
		rc = one_line(&r, clean(p));
		p = nl ? nl + 1 : NULL;
	}
	if (!rc && r.sec != SEC_NONE)
		rc = finish(&r);
	free(copy);
	if (!rc && !l->nvms) {
		r.line = r.line ? r.line : 1;
		rc = at(&r, "no [vm NAME] section: the load has no VM");
	}
	return rc ? rc : check_series(&r);
}

int nb_load_read(struct nb_load *l, const char *path)
{
	char *text = NULL;
	int rc;

	if (!strcmp(path, "-")) {
		size_t cap = 0;
		ssize_t n = getdelim(&text, &cap, '\0', stdin);

		if (n < 0) {
			free(text);
			text = strdup("");
		}
		rc = nb_load_parse(l, text, "<stdin>");
		free(text);
		return rc;
	}
	rc = nb_read_file(path, &text, NULL);
	if (rc)
		return nb_err(rc, "cannot read load file '%s': %s", path, strerror(-rc));
	rc = nb_load_parse(l, text, path);
	free(text);
	return rc;
}
