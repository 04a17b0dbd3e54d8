/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acc.c - the box's answers into buckets (capture_int.h).
 *
 * Every answer says what happened over a span of time: totals since boot
 * (diskstats, iostat -I, the NFS counters) over the span since the
 * answer before, a tool's rates (gstat, zpool iostat) over its interval.
 * A span's counts are spread over the buckets it overlaps, in proportion
 * to the overlap, and each bucket keeps the seconds it saw: its figure is
 * its counts over those seconds.
 *
 * The box is not trusted: a span whose counters went back (a device made
 * anew, the box restarted, a counter wrapped), moved beyond what a device
 * can do (telemetry/telem_parse.h's NB_TP_MAX_IOPS and NB_TP_MAX_BPS) or
 * were not numbers is a gap: left out, counted, said (cp_acc_gaps), so
 * the load file never holds an absurd rate. */
#include "capture_int.h"
#include "../core/boxtext.h"
#include "../telemetry/telem_parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cp_acc_init(struct cp_acc *a, const struct cp_box *b, int nbuckets,
		double bucket)
{
	memset(a, 0, sizeof(*a));
	a->nbuckets = nbuckets;
	a->bucket = bucket;
	a->ndev = b->nsel;
	a->npools = b->npools;
	a->dev = calloc((size_t)nbuckets * (size_t)(b->nsel ? b->nsel : 1),
			sizeof(*a->dev));
	a->nfs = calloc((size_t)nbuckets, sizeof(*a->nfs));
	a->pool = calloc((size_t)nbuckets * (size_t)(b->npools ? b->npools : 1),
			 sizeof(*a->pool));
	a->prev = malloc(sizeof(*a->prev));
	if (!a->dev || !a->nfs || !a->pool || !a->prev) {
		cp_acc_free(a);
		return -1;
	}
	for (int i = 0; i < b->npools; i++)
		strcpy(a->hist[i].name, b->pools[i]);
	return 0;
}

void cp_acc_free(struct cp_acc *a)
{
	free(a->dev);
	free(a->nfs);
	free(a->pool);
	free(a->prev);
	memset(a, 0, sizeof(*a));
}

/* A gap of KIND in what FMT (with NAME) says: counted, the first kept. */
static void gap(struct cp_acc *a, int kind, const char *fmt, const char *name)
{
	char safe[NB_CP_NAME + 8];

	if (!a->gaps[0] && !a->gaps[1] && !a->gaps[2]) {
		nb_boxtext(safe, sizeof(safe), name);
		snprintf(a->gap_first, sizeof(a->gap_first), fmt, safe);
	}
	a->gaps[kind]++;
}

void cp_acc_gaps(const struct cp_acc *a, char *buf, size_t len)
{
	static const char *const kinds[CP_GAP_N] = {
		"counters that went back (a device made anew, the box "
		"restarted, a counter wrapped)",
		"counters that moved beyond what a device can do",
		"values that were not numbers",
	};
	size_t n = 0;

	buf[0] = 0;
	if (!a->gaps[0] && !a->gaps[1] && !a->gaps[2])
		return;
	n = (size_t)snprintf(buf, len, "spans left out of the buckets (each "
			     "bucket's figures are over the seconds it saw):");
	for (int k = 0; k < CP_GAP_N && n < len; k++)
		if (a->gaps[k])
			n += (size_t)snprintf(buf + n, len - n, " %s: %d;", kinds[k],
					      a->gaps[k]);
	if (n < len)
		snprintf(buf + n, len - n, " the first: %s", a->gap_first);
}

/* Counts over SECS beyond any device: more I/Os or bytes a second. */
static int beyond(double ios, double bytes, double secs)
{
	return !(secs > 0) || ios / secs > NB_TP_MAX_IOPS ||
	       bytes / secs > NB_TP_MAX_BPS;
}

/* Call FN(A, K, SECONDS, FRAC, P) for each bucket K the span [T0, T1)
 * (relative to the start) overlaps: SECONDS of it, FRAC of the span. */
typedef void (*spread_fn)(struct cp_acc *a, int k, double secs, double frac,
			  const void *p);

static void spread(struct cp_acc *a, double t0, double t1, spread_fn fn,
		   const void *p)
{
	int k0, k1;

	if (!(t1 > t0) || t1 <= 0)
		return;
	k0 = t0 < 0 ? 0 : (int)floor(t0 / a->bucket);
	k1 = (int)floor(t1 / a->bucket);
	for (int k = k0; k <= k1 && k < a->nbuckets; k++) {
		double lo = fmax(t0, k * a->bucket), hi = fmin(t1, (k + 1) * a->bucket);

		if (hi > lo)
			fn(a, k, hi - lo, (hi - lo) / (t1 - t0), p);
	}
}

/* A device's counts over a span: the difference of two totals, or a rate
 * times the span. */
struct devspan {
	int i;                   /* the picked device */
	struct nb_cp_dev d;      /* its counts over the span */
};

static void dev_add(struct cp_acc *a, int k, double secs, double frac,
		    const void *p)
{
	const struct devspan *s = p;
	struct cp_cell *c = &a->dev[(size_t)k * (size_t)a->ndev + (size_t)s->i];

	c->r += s->d.reads * frac;
	c->w += s->d.writes * frac;
	c->rm += (s->d.rmerged > 0 ? s->d.rmerged : 0) * frac;
	c->wm += (s->d.wmerged > 0 ? s->d.wmerged : 0) * frac;
	c->rb += s->d.rbytes * frac;
	c->wb += s->d.wbytes * frac;
	c->cover += secs;
}

static void devs_add(struct cp_acc *a, const struct cp_box *b,
		     const struct nb_cp_devs *cur, double t, double interval)
{
	double t0 = a->prev_t, t1 = t;

	if (!cur->totals) {
		t0 = t - (cur->dt > 0 ? cur->dt : interval);
	} else if (!a->have_prev) {
		*a->prev = *cur;
		a->prev_t = t;
		a->have_prev = 1;
		for (int i = 0; i < b->nsel; i++) {
			const struct nb_cp_dev *d = nb_cp_dev_find(cur, b->sel[i].name);

			a->any_merges[i] = d && d->rmerged + d->wmerged > 0;
		}
		return;
	}
	if (cur->refused)
		gap(a, CP_GAP_REFUSED, "device '%s'", cur->refused_name);
	for (int i = 0; i < b->nsel; i++) {
		const struct nb_cp_dev *d = nb_cp_dev_find(cur, b->sel[i].name);
		const struct nb_cp_dev *o = cur->totals ?
			nb_cp_dev_find(a->prev, b->sel[i].name) : NULL;
		struct devspan s = { .i = i };
		double secs = t1 - t0;

		if (!d || (cur->totals && !o))
			continue;
		s.d = *d;
		if (o) {
			s.d.reads -= o->reads, s.d.writes -= o->writes;
			s.d.rmerged -= o->rmerged, s.d.wmerged -= o->wmerged;
			s.d.rbytes -= o->rbytes, s.d.wbytes -= o->wbytes;
			/* a counter that went back: the device was made anew */
			if (s.d.reads < 0 || s.d.writes < 0 || s.d.rbytes < 0 ||
			    s.d.wbytes < 0 || s.d.rmerged < 0 || s.d.wmerged < 0) {
				gap(a, CP_GAP_BACK, "device '%s'", d->name);
				continue;
			}
		} else {
			s.d.reads *= secs, s.d.writes *= secs;
			s.d.rbytes *= secs, s.d.wbytes *= secs;
			s.d.rmerged = s.d.wmerged = -1;
		}
		if (beyond(s.d.reads + s.d.writes + fmax(s.d.rmerged, 0) +
			   fmax(s.d.wmerged, 0), s.d.rbytes + s.d.wbytes, secs)) {
			gap(a, CP_GAP_JUMP, "device '%s'", d->name);
			continue;
		}
		spread(a, t0, t1, dev_add, &s);
	}
	if (cur->totals) {
		*a->prev = *cur;
		a->prev_t = t;
	}
	if (t1 > a->last_t)
		a->last_t = t1;
}

struct nfsspan {
	struct nb_cp_nfs d;
};

static void nfs_add(struct cp_acc *a, int k, double secs, double frac,
		    const void *p)
{
	const struct nfsspan *s = p;
	struct cp_nfscell *c = &a->nfs[k];

	for (int i = 0; i < NB_NFS_N; i++)
		c->ops[i] += s->d.ops[i] * frac;
	c->cover += secs;
	if (s->d.rbytes >= 0) {
		c->rb += s->d.rbytes * frac;
		c->wb += s->d.wbytes * frac;
		c->bcover += secs;
	}
}

static void nfs_totals(struct cp_acc *a, const struct nb_cp_nfs *cur, double t)
{
	struct nfsspan s = { *cur };

	if (cur->refused)
		gap(a, CP_GAP_REFUSED, "%s", "the NFS server's counters");
	if (a->have_prev_nfs) {
		int back = 0;
		double all = 0;

		for (int i = 0; i < NB_NFS_N; i++) {
			back |= (s.d.ops[i] -= a->prev_nfs.ops[i]) < 0;
			all += s.d.ops[i];
		}
		if (cur->rbytes >= 0 && a->prev_nfs.rbytes >= 0) {
			s.d.rbytes -= a->prev_nfs.rbytes;
			s.d.wbytes -= a->prev_nfs.wbytes;
			back |= s.d.rbytes < 0 || s.d.wbytes < 0;
		} else {
			s.d.rbytes = s.d.wbytes = -1;
		}
		/* 32-bit counters wrap (FreeBSD's nfsstat prints ints) */
		if (back)
			gap(a, CP_GAP_BACK, "%s", "the NFS server's counters");
		else if (beyond(all, fmax(s.d.rbytes, 0) + fmax(s.d.wbytes, 0),
				t - a->prev_nfs_t))
			gap(a, CP_GAP_JUMP, "%s", "the NFS server's counters");
		else
			spread(a, a->prev_nfs_t, t, nfs_add, &s);
	}
	a->prev_nfs = *cur;
	a->prev_nfs_t = t;
	a->have_prev_nfs = 1;
}

struct poolspan {
	int i;
	double r, w, rb, wb;
};

static void pool_add(struct cp_acc *a, int k, double secs, double frac,
		     const void *p)
{
	const struct poolspan *s = p;
	struct cp_poolcell *c = &a->pool[(size_t)k * (size_t)a->npools + (size_t)s->i];

	c->r += s->r * frac;
	c->w += s->w * frac;
	c->rb += s->rb * frac;
	c->wb += s->wb * frac;
	c->cover += secs;
}

static void pools_add(struct cp_acc *a, const struct cp_box *b,
		      const struct cp_answer *ans, double t, double interval)
{
	double iv = interval < 1 ? 1 : interval;

	if (ans->have_zpool && ans->zpool.refused)
		gap(a, CP_GAP_REFUSED, "%s", "a pool's figures");
	for (int i = 0; i < b->npools; i++) {
		for (int j = 0; ans->have_zpool && j < ans->zpool.n; j++) {
			const struct nb_cp_pool *x = &ans->zpool.p[j];
			struct poolspan s = { i, x->rops * iv, x->wops * iv,
					      x->rbw * iv, x->wbw * iv };

			if (strcmp(x->name, b->pools[i]))
				continue;
			if (beyond(s.r + s.w, s.rb + s.wb, iv))
				gap(a, CP_GAP_JUMP, "pool '%s'", b->pools[i]);
			else
				spread(a, t - iv, t, pool_add, &s);
		}
		for (int j = 0; ans->have_hist && j < ans->hist.n; j++) {
			const struct nb_cp_pool *x = &ans->hist.p[j];
			struct nb_cp_pool *h = &a->hist[i];

			if (strcmp(x->name, b->pools[i]) || t - iv < 0)
				continue;
			h->have_hist = 1;
			h->h_rreq += x->h_rreq;
			h->h_wreq += x->h_wreq;
			h->h_rbytes += x->h_rbytes;
			h->h_wbytes += x->h_wbytes;
			h->h_agg += x->h_agg;
		}
	}
}

void cp_acc_add(struct cp_acc *a, const struct cp_box *b, int kind,
		const struct cp_answer *ans, double t, double interval)
{
	if (kind != CP_COUNTERS) {
		pools_add(a, b, ans, t, interval);
		return;
	}
	if (ans->have_devs)
		devs_add(a, b, &ans->devs, t, interval);
	if (ans->have_nfs)
		nfs_totals(a, &ans->nfs, t);
}

int cp_acc_whole(const struct cp_acc *a, int k)
{
	return k < a->nbuckets && a->last_t >= (k + 1) * a->bucket;
}
