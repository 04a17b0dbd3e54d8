/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_pool.c - a box's pools: their vdevs and disks from 'zpool iostat
 * -v' (and the dataset a path is on from 'zfs list'); their health, their
 * devices' error counters and their rebuild from the text of 'zpool
 * status' and /proc/mdstat.
 *
 * The scan line has had four spellings; each is read (the formats of
 * cmd/zpool/zpool_main.c and Linux's drivers/md/md.c; samples in
 * tests/golden/telemetry/):
 *
 *   zfs-fuse, Solaris   " scrub: resilver in progress for 0h0m, 52.98% done, 0h0m to go"
 *                       " scrub: resilver completed after 0h0m with 0 errors on DATE"
 *   OpenZFS 0.7         "  scan: resilver in progress since DATE"
 *                       "\t1.46T scanned out of 5.41T at 1.09G/s, 1h3m to go"
 *                       "\t197G resilvered, 27.06% done"
 *   OpenZFS 0.8 - 2.1   "\t1.52T scanned at 1.04G/s, 295G issued at 201M/s, 1.52T total"
 *   FreeBSD 12          "\t55.3G resilvered, 18.96% done, 0 days 01:44:58 to go"
 *   OpenZFS 2.2         "\t1.52T / 1.52T scanned at 1.04G/s, 295G / 1.52T issued at 201M/s"
 *                       "\t55.3G resilvered, 18.96% done, 01:44:58 to go"
 *   finished            "  scan: resilvered 1.52T in 02:11:37 with 0 errors on DATE"
 *                       (0.8: "in 0 days 02:11:37", 0.7: "in 2h11m")
 *   md                  "[=>...]  recovery =  8.3% (162247552/1953422336)
 *                        finish=170.6min speed=174933K/sec"
 */
#include "telem_pool.h"
#include "../boxparse/zpool.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the vdevs: zpool iostat -v (its rows read by boxparse/zpool.c),
 * zfs list ---- */

static void zp_disk(struct nb_tp_vdev *v, const char *name)
{
	if (!strncmp(name, "/dev/", 5))
		name += 5;
	if (v->ndisks < NB_TP_VDEV_DISKS)
		nb_bp_name(v->disks[v->ndisks++], NB_TP_NAME, name);
}

struct zp_state {
	char pool[NB_TP_NAME];
	int special;             /* in a class: logs, cache, spares ... */
	int index;               /* of the pool's next top-level vdev */
	int self;                /* CUR's one disk is itself (no child yet) */
	struct nb_tp_vdev *cur;  /* the vdev whose disks follow */
};

/* A figure of zpool's as telemetry takes it: 0 when none or past what a
 * box can say. */
static double zp_fig(double x)
{
	return x < 0 || x > NB_TP_MAX_BYTES ? 0 : x;
}

static void zp_vdev(struct nb_tp_vdevs *v, struct zp_state *st,
		    const struct nb_bp_zrow *r)
{
	struct nb_tp_vdev *x;

	if (v->n >= NB_TP_MAXVDEV)
		return;
	x = &v->v[v->n++];
	memset(x, 0, sizeof(*x));
	snprintf(x->pool, sizeof(x->pool), "%s", st->pool);
	nb_bp_name(x->name, sizeof(x->name), r->name);
	/* zfs-fuse prints "mirror", "raidz1": named as zpool status
	 * names them ("mirror-1"), so that two are told apart */
	if (!strchr(x->name, '-') && (!strncmp(x->name, "mirror", 6) ||
				      !strncmp(x->name, "raidz", 5)) &&
	    strlen(x->name) < sizeof(x->name) - 12)
		snprintf(x->name + strlen(x->name), 12, "-%d", st->index);
	if (!st->special)
		st->index++;
	x->special = st->special;
	x->ops_read = zp_fig(r->fig[NB_BP_Z_ROPS]);
	x->ops_write = zp_fig(r->fig[NB_BP_Z_WOPS]);
	st->cur = x;
	zp_disk(x, r->name);     /* a single disk is its own vdev */
	st->self = 1;
}

static void zp_row(struct nb_tp_vdevs *v, struct zp_state *st,
		   const struct nb_bp_zrow *r)
{
	switch (r->kind) {
	case NB_BP_Z_REPORT:
		v->n = 0;               /* a new report: the last counts */
		break;
	case NB_BP_Z_POOL:
		st->special = 0;
		nb_bp_name(st->pool, sizeof(st->pool), r->name);
		st->index = 0;
		st->cur = NULL;
		break;
	case NB_BP_Z_CLASS:
		st->special = 1;
		st->cur = NULL;
		break;
	case NB_BP_Z_VDEV:
		zp_vdev(v, st, r);
		break;
	case NB_BP_Z_DISK:
		if (!st->cur)
			break;
		if (st->self) {
			st->cur->ndisks = 0; /* it has children: not a disk */
			st->self = 0;
		}
		zp_disk(st->cur, r->name);
		break;
	}
}

int nb_tp_zpool_iostat(const char *text, struct nb_tp_vdevs *v)
{
	struct zp_state st = { .special = 0 };
	struct nb_bp_zp z;
	struct nb_bp_zrow r;

	v->n = 0;
	nb_bp_zp_open(&z, text);
	while (nb_bp_zp_next(&z, &r))
		zp_row(v, &st, &r);
	return v->n;
}

int nb_tp_zfs_pool_of(const char *text, const char *path, char *pool,
		      size_t len)
{
	char line[1024], *tok[NB_BP_MAXTOK];
	size_t best = 0;

	while (nb_bp_line(&text, line, sizeof(line))) {
		size_t l;

		/* NAME<tab>MOUNTPOINT; "-", "none", "legacy" are no place */
		if (nb_bp_split(line, tok, NB_BP_MAXTOK) != 2 || tok[1][0] != '/')
			continue;
		l = strlen(tok[1]);
		while (l > 1 && tok[1][l - 1] == '/')
			l--;
		if (strncmp(path, tok[1], l) || (path[l] && path[l] != '/' && l > 1) ||
		    l < best)
			continue;
		best = l;
		tok[0][strcspn(tok[0], "/")] = 0;
		nb_bp_name(pool, len, tok[0]);
	}
	return best > 0;
}

/* ---- the health: zpool status, /proc/mdstat ---- */

#define LINE 1024

static const char *const kinds[] = { "none", "resilver", "scrub", "recovery",
				      "resync", "check", "reshape" };

const char *nb_tp_scan_name(int kind)
{
	return kind >= 0 && kind < (int)(sizeof(kinds) / sizeof(kinds[0])) ?
	       kinds[kind] : "none";
}

int nb_tp_scan_rebuilds(int kind)
{
	return kind == NB_SCAN_RESILVER || kind == NB_SCAN_RECOVERY;
}

static void scan_clear(struct nb_tp_scan *s)
{
	memset(s, 0, sizeof(*s));
	s->pct = s->rate = s->eta_s = s->took_s = s->done_bytes = s->errors = -1;
}

/* The longest a scan can be said to take (or to have taken): ten
 * years; past it (a counter of days that overflowed) it is not said. */
#define MAX_SECONDS (10 * 366 * 86400.0)

static double seconds(double x)
{
	return isfinite(x) && x >= 0 && x <= MAX_SECONDS ? x : -1;
}

/* "0 days 01:44:58", "01:44:58", "1h3m", "0h0m", "170.6min" at S: seconds,
 * or -1. */
static double duration(const char *s)
{
	unsigned d = 0, h, m, sec;
	double x;
	int n = 0;

	while (*s == ' ')
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	if (sscanf(s, "%u days %u:%u:%u%n", &d, &h, &m, &sec, &n) == 4 && n)
		return seconds(d * 86400.0 + h * 3600.0 + m * 60.0 + sec);
	if (sscanf(s, "%u:%u:%u%n", &h, &m, &sec, &n) == 3 && n)
		return seconds(h * 3600.0 + m * 60.0 + sec);
	if (sscanf(s, "%uh%um%n", &h, &m, &n) == 2 && n)
		return seconds(h * 3600.0 + m * 60.0);
	if (sscanf(s, "%lfmin%n", &x, &n) == 1 && n)
		return seconds(x * 60);
	return -1;
}

/* A share in % (0 to 100), or -1. */
static double pct_of(double x)
{
	return x >= 0 && x <= 100 ? x : -1;
}

/* A rate in bytes a second a pool can have, or -1. */
static double rate_of(double x)
{
	return x >= 0 && x <= NB_TP_MAX_BPS ? x : -1;
}

/* The number before WORD in S ("18.96% done" -> 18.96 for "% done"), or -1. */
static double before(const char *s, const char *word)
{
	const char *w = strstr(s, word), *b;

	if (!w || w == s)
		return -1;
	b = w;
	while (b > s && b[-1] == ' ')
		b--;
	while (b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '.'))
		b--;
	if (b == w || !(isdigit((unsigned char)*b)))
		return -1;
	return nb_tp_size(b);
}

/* The rate "at R/s" after the last of WORDS found in S ("issued", else
 * "scanned"), in bytes/s, or -1. */
static double rate_after(const char *s, const char *word)
{
	const char *w = strstr(s, word), *at;

	if (!w)
		return -1;
	at = strstr(w, " at ");
	if (!at || (strchr(w, ',') && strchr(w, ',') < at))
		return -1;
	return rate_of(nb_tp_size(at + 4));
}

/* What a ZFS scan's whole text (the "scan:"/"scrub:" line and the lines
 * under it, joined) says. */
static void zfs_scan(const char *t, struct nb_tp_scan *s)
{
	const char *p;

	scan_clear(s);
	while (*t == ' ')
		t++;
	if (!strncmp(t, "none requested", 14))
		return;
	s->kind = strstr(t, "resilver") ? NB_SCAN_RESILVER :
		  strstr(t, "scrub") ? NB_SCAN_SCRUB : NB_SCAN_NONE;
	s->active = strstr(t, "in progress") != NULL;
	s->canceled = strstr(t, "canceled") || strstr(t, "stopped after");
	s->finished = !s->active && !s->canceled &&
		      (strstr(t, "completed after") || strstr(t, " with "));
	s->pct = pct_of(before(t, "% done"));
	if (s->pct < 0 && s->finished)
		s->pct = 100;
	s->rate = rate_after(t, "issued");
	if (s->rate < 0)
		s->rate = rate_after(t, "scanned");
	s->done_bytes = before(t, " resilvered");
	if (s->done_bytes < 0)
		s->done_bytes = before(t, " repaired,");
	if ((p = strstr(t, " to go")) && p > t) {
		/* the time before it: back to the last comma */
		const char *c = p;

		while (c > t && c[-1] != ',')
			c--;
		s->eta_s = duration(c);
	}
	if (s->finished && ((p = strstr(t, " after ")) || (p = strstr(t, " in ")))) {
		s->took_s = duration(p + (p[1] == 'a' ? 7 : 4));
		/* "repaired 0B in ..." : the repaired bytes come first;
		 * "resilvered (...) 12G in": what is in brackets is not the
		 * bytes, and a bracket never closed says none */
		if (s->done_bytes < 0 && (p = strstr(t, "resilvered "))) {
			p += 11;
			if (*p == '(')
				p = strchr(p, ')') ? strchr(p, ')') + 1 : NULL;
			while (p && *p == ' ')
				p++;
			if (p)
				s->done_bytes = nb_tp_size(p);
		}
		if (s->done_bytes < 0 && (p = strstr(t, "repaired ")))
			s->done_bytes = nb_tp_size(p + 9);
	}
	if (s->finished && (p = strstr(t, " with ")))
		s->errors = nb_tp_size(p + 6);
	if (s->kind == NB_SCAN_NONE)
		s->active = s->finished = 0;
}

/* A counter of a device line: "0", "12", "1.2K"; "-": none. */
static double counter(const char *s)
{
	return isdigit((unsigned char)*s) ? nb_tp_size(s) : -1;
}

struct zs {
	struct nb_tp_pool *pool;
	int in_config, base, special;
	char scan[LINE * 2];
	int in_scan;
};

/* A line of the configuration: "NAME STATE READ WRITE CKSUM [note]". */
static void config_line(struct zs *z, const char *line)
{
	char name[NB_TP_NAME + 16], state[32], r[24], w[24], c[24];
	int ind = nb_bp_indent(line), n;
	struct nb_tp_pool *p = z->pool;
	struct nb_tp_pdev *d;

	n = sscanf(line, "%63s %31s %23s %23s %23s", name, state, r, w, c);
	if (n < 1 || !strcmp(name, "NAME"))
		return;
	if (z->base < 0)
		z->base = ind;          /* the pool's own line */
	if (ind <= z->base + 2 && n == 1) {
		/* "logs", "cache", "spares", "special", "dedup" */
		z->special = 1;
		return;
	}
	if (ind <= z->base + 2 && z->special && n > 1 && ind == z->base)
		z->special = 0;
	if (p->ndev >= NB_TP_POOLDEV)
		return;
	d = &p->dev[p->ndev];
	memset(d, 0, sizeof(*d));
	nb_bp_name(d->name, sizeof(d->name), !strncmp(name, "/dev/", 5) ?
		   name + 5 : name);
	nb_bp_name(d->state, sizeof(d->state), n > 1 ? state : "");
	d->depth = (ind - z->base) / 2;
	d->special = z->special;
	d->read = n > 2 ? counter(r) : -1;
	d->write = n > 3 ? counter(w) : -1;
	d->cksum = n > 4 ? counter(c) : -1;
	d->resilvering = strstr(line, "resilver") != NULL;
	d->leaf = 1;
	if (p->ndev && p->dev[p->ndev - 1].depth < d->depth)
		p->dev[p->ndev - 1].leaf = 0;
	p->ndev++;
}

static void pool_end(struct zs *z)
{
	struct nb_tp_pool *p = z->pool;

	if (!p)
		return;
	zfs_scan(z->scan, &p->scan);
	if (p->ndev)
		p->dev[0].leaf = 0;    /* the pool itself */
	p->read = p->write = p->cksum = 0;
	for (int i = 0; i < p->ndev; i++) {
		const struct nb_tp_pdev *d = &p->dev[i];

		if (!d->leaf || d->special)
			continue;
		p->read += d->read > 0 ? d->read : 0;
		p->write += d->write > 0 ? d->write : 0;
		p->cksum += d->cksum > 0 ? d->cksum : 0;
	}
	z->pool = NULL;
}

/* "KEY: VALUE" at the head of LINE (" state: ONLINE"): the key's length
 * and *VALUE, or 0. */
static size_t key_of(const char *line, const char **value)
{
	const char *s = line + nb_bp_indent(line);
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz");

	if (!n || s[n] != ':' || nb_bp_indent(line) > 8)
		return 0;
	*value = s + n + 1 + strspn(s + n + 1, " \t");
	return (size_t)(s + n - line);
}

static void status_line(struct nb_tp_pools *ps, struct zs *z, char *line)
{
	const char *v = NULL;
	size_t k = line[0] == '\t' ? 0 : key_of(line, &v);
	char key[16];

	if (k) {
		snprintf(key, sizeof(key), "%.*s", (int)(k - (size_t)nb_bp_indent(line)),
			 line + nb_bp_indent(line));
		z->in_scan = 0;
		if (!strcmp(key, "pool")) {
			pool_end(z);
			if (ps->n >= NB_TP_MAXPOOL)
				return;
			z->pool = &ps->p[ps->n++];
			memset(z->pool, 0, sizeof(*z->pool));
			scan_clear(&z->pool->scan);
			nb_bp_name(z->pool->name, sizeof(z->pool->name), v);
			z->in_config = z->special = 0;
			z->base = -1;
			z->scan[0] = 0;
		} else if (!z->pool) {
			return;
		} else if (!strcmp(key, "state")) {
			nb_bp_name(z->pool->state, sizeof(z->pool->state), v);
		} else if (!strcmp(key, "scan") || !strcmp(key, "scrub")) {
			snprintf(z->scan, sizeof(z->scan), "%s", v);
			z->in_scan = 1;
		} else if (!strcmp(key, "config")) {
			z->in_config = 1;
		} else if (!strcmp(key, "errors")) {
			nb_bp_name(z->pool->errors, sizeof(z->pool->errors), v);
			z->in_config = 0;
		}
		return;
	}
	if (!z->pool)
		return;
	if (z->in_scan && line[0] == '\t' && !z->in_config) {
		size_t l = strlen(z->scan);

		snprintf(z->scan + l, sizeof(z->scan) - l, ", %s", line + 1);
		return;
	}
	/* the configuration: a tab, then two spaces a level */
	if (z->in_config && line[0] == '\t' && line[1])
		config_line(z, line + 1);
}

int nb_tp_zpool_status(const char *text, struct nb_tp_pools *ps)
{
	char line[LINE];
	struct zs z = { 0 };
	int n0 = ps->n;

	while (nb_bp_line(&text, line, sizeof(line)))
		status_line(ps, &z, line);
	pool_end(&z);
	return ps->n - n0;
}

/* ---- /proc/mdstat ---- */

/* "md0 : active raid5 sdd1[4] sdc1[2](F) ...": a new array. */
static struct nb_tp_pool *md_array(struct nb_tp_pools *ps, char *line)
{
	struct nb_tp_pool *p;
	char *save = NULL, *tok;
	int i = 0;

	if (ps->n >= NB_TP_MAXPOOL)
		return NULL;
	p = &ps->p[ps->n++];
	memset(p, 0, sizeof(*p));
	scan_clear(&p->scan);
	p->md = 1;
	snprintf(p->state, sizeof(p->state), "ONLINE");
	for (tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), i++) {
		char *br = strchr(tok, '[');
		struct nb_tp_pdev *d;

		if (i == 0)
			nb_bp_name(p->name, sizeof(p->name), tok);
		if (!br || br == tok || p->ndev >= NB_TP_POOLDEV)
			continue;
		d = &p->dev[p->ndev++];
		memset(d, 0, sizeof(*d));
		*br = 0;
		nb_bp_name(d->name, sizeof(d->name), tok);
		*br = '[';
		snprintf(d->state, sizeof(d->state), "%s", strstr(br, "(F)") ?
			 "FAULTED" : strstr(br, "(S)") ? "SPARE" : "ONLINE");
		d->depth = 1;
		d->leaf = 1;
		d->special = strstr(br, "(S)") != NULL;
		d->read = d->write = d->cksum = -1;
	}
	return p;
}

static void md_sync(struct nb_tp_pool *p, const char *line)
{
	static const struct { const char *w; int kind; } acts[] = {
		{ "recovery", NB_SCAN_RECOVERY }, { "resync", NB_SCAN_RESYNC },
		{ "check", NB_SCAN_CHECK }, { "repair", NB_SCAN_CHECK },
		{ "reshape", NB_SCAN_RESHAPE },
	};
	struct nb_tp_scan *s = &p->scan;
	const char *f;
	char *end;

	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		const char *w = strstr(line, acts[i].w);

		if (!w || !strchr(w, '='))
			continue;
		s->kind = acts[i].kind;
		if (strstr(w, "DELAYED") || strstr(w, "PENDING")) {
			s->pending = 1;
			return;
		}
		s->active = 1;
		s->pct = strtod(strchr(w, '=') + 1, &end);
		s->pct = end == strchr(w, '=') + 1 ? -1 : pct_of(s->pct);
		if ((f = strstr(line, "finish=")))
			s->eta_s = duration(f + 7);
		if ((f = strstr(line, "speed=")))
			s->rate = rate_of(nb_tp_size(f + 6));   /* K/sec */
		return;
	}
}

int nb_tp_mdstat(const char *text, struct nb_tp_pools *ps)
{
	char line[LINE];
	struct nb_tp_pool *p = NULL;
	int n0 = ps->n;

	while (nb_bp_line(&text, line, sizeof(line))) {
		const char *u;

		if (!strncmp(line, "md", 2) && strstr(line, " : ")) {
			p = md_array(ps, line);
			continue;
		}
		if (!p || !isspace((unsigned char)line[0])) {
			p = line[0] ? NULL : p;
			continue;
		}
		/* "... [4/3] [UUU_]": a member missing is a degraded array */
		if ((u = strstr(line, "] [")) && strchr(u + 3, '_') &&
		    strchr(u + 3, ']') > strchr(u + 3, '_'))
			snprintf(p->state, sizeof(p->state), "DEGRADED");
		md_sync(p, line);
	}
	return ps->n - n0;
}

const struct nb_tp_pool *nb_tp_pool_find(const struct nb_tp_pools *ps,
					 const char *name)
{
	if (!name || !*name)
		return ps->n == 1 ? &ps->p[0] : NULL;
	for (int i = 0; i < ps->n; i++)
		if (!strcmp(ps->p[i].name, name))
			return &ps->p[i];
	return NULL;
}
