/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.c - the questions the results answer (a label that differs,
 * the target) and, for each question and workload, a comparison per group
 * of the other questions held equal: which value wins, by how much, with
 * compare's test on it (the evidence decide.c makes its sentences of).
 * summary_out.c has the other kinds of line and the renderers.
 */
#include "summary.h"
#include "summary_int.h"
#include "bands.h"
#include "judge.h"
#include "words.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Labels that describe a box rather than pose a question about it. */
static const char *const descriptive[] = {
	"name", "disks", "os", "ram", "notes", "note", "host", "date", "cpu",
	"description", "comment", "nic", NULL,
};

int nb_summary_descriptive(const char *label)
{
	for (size_t d = 0; descriptive[d]; d++)
		if (!strcmp(descriptive[d], label))
			return 1;
	return 0;
}

/* A line of KIND and LEVEL, its text FMT AP, folded when FOLD. */
static void add_line(json_t *lines, const char *kind, const char *level,
		     int fold, const char *fmt, va_list ap)
{
	char buf[2048];
	json_t *x;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	x = json_pack("{s:s, s:s, s:s}", "kind", kind, "level", level, "text", buf);
	if (fold)
		json_object_set_new(x, "fold", json_true());
	json_array_append_new(lines, x);
}

void nb_summary_add(json_t *lines, const char *kind, const char *level,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_line(lines, kind, level, 0, fmt, ap);
	va_end(ap);
}

void nb_summary_fold(json_t *lines, const char *kind, const char *level,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_line(lines, kind, level, 1, fmt, ap);
	va_end(ap);
}

void nb_summary_short(json_t *lines, const char *detail)
{
	json_object_set_new(json_array_get(lines, json_array_size(lines) - 1),
			    "detail", json_string(detail));
}

int nb_summary_values(const json_t *e, const char *metric, double *v, int max)
{
	const json_t *it, *m;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(e, "iterations"), i, it) {
		const json_t *st = json_object_get(it, "status");

		/* a figure its samples cannot carry is marked, not ok: it
		 * decides nothing */
		if (st && strcmp(json_string_value(st) ?: "", "ok"))
			continue;
		m = json_object_get(json_object_get(it, "metrics"), metric);
		if (json_is_number(m) && n < max)
			v[n++] = json_number_value(m);
	}
	return n;
}

static int in_metrics(const void *m, const char *name)
{
	return json_object_get(m, name) != NULL;
}

const char *nb_summary_primary(const json_t *e)
{
	const json_t *it0 = json_array_get(json_object_get(e, "iterations"), 0);
	const json_t *m = json_object_get(it0, "metrics");
	static __thread char first[64];
	const char **names, *k, *h;
	json_t *v;
	size_t n = 0;

	h = nb_metric_headline(!strcmp(nb_jstr(json_object_get(e, "spec"), "pattern"),
				       "rand") ||
			       !strncmp(nb_jstr(e, "workload"), "rand", 4), in_metrics, m);
	if (h)
		return h;
	names = calloc(json_object_size(m) + 1, sizeof(*names));
	json_object_foreach((json_t *)m, k, v)
		if (json_is_number(v))
			names[n++] = k;
	nb_metric_sort(names, n);
	snprintf(first, sizeof(first), "%s", n ? names[0] : "");
	free(names);
	return first;
}

/* The value of question DIM for item IT ("-": a label it lacks). */
void nb_summary_dimval(const struct nb_sitem *it, const char *dim, char *out,
		       size_t len)
{
	const json_t *v;

	if (!strcmp(dim, "target")) {
		snprintf(out, len, "%s", nb_jstr(it->e, "target"));
	} else if (!strcmp(dim, "file")) {
		const char *b = strrchr(it->path, '/') ? strrchr(it->path, '/') + 1 :
			       it->path;
		size_t l = strlen(b);

		snprintf(out, len, "%.*s", (int)(l > 5 && !strcmp(b + l - 5, ".json") ?
						 l - 5 : l), b);
	} else if (strchr(dim, '+')) {
		/* questions that always change together: one, "raidz2+ssd" */
		char part[128], v1[256];
		const char *p = dim, *q;
		size_t l = 0;

		out[0] = '\0';
		for (; p; p = q ? q + 1 : NULL) {
			q = strchr(p, '+');
			snprintf(part, sizeof(part), "%.*s", (int)(q ? (size_t)(q - p) :
								  strlen(p)), p);
			nb_summary_dimval(it, part, v1, sizeof(v1));
			l += (size_t)snprintf(out + l, l < len ? len - l : 0, "%s%s",
					      l ? "+" : "", v1);
		}
	} else {
		v = json_object_get(json_object_get(it->doc, "labels"), dim);
		snprintf(out, len, "%s", json_is_string(v) ? json_string_value(v) : "-");
	}
}

static size_t ndistinct(const struct nb_sctx *s, const char *dim, const char *wl)
{
	json_t *seen = json_object();
	char v[256];
	size_t n;

	for (size_t i = 0; i < s->nit; i++) {
		if (wl && strcmp(nb_jstr(s->it[i].e, "workload"), wl))
			continue;
		nb_summary_dimval(&s->it[i], dim, v, sizeof(v));
		json_object_set_new(seen, v, json_true());
	}
	n = json_object_size(seen);
	json_decref(seen);
	return n;
}

/* Whether questions A and B split the items alike (each value of one
 * goes with one value of the other). */
static int same_split(const struct nb_sctx *s, const char *a, const char *b)
{
	json_t *ab = json_object(), *ba = json_object();
	char va[256], vb[256];
	int same = 1;

	for (size_t i = 0; i < s->nit && same; i++) {
		const json_t *x, *y;

		nb_summary_dimval(&s->it[i], a, va, sizeof(va));
		nb_summary_dimval(&s->it[i], b, vb, sizeof(vb));
		x = json_object_get(ab, va);
		y = json_object_get(ba, vb);
		same = (!x || !strcmp(json_string_value(x), vb)) &&
		       (!y || !strcmp(json_string_value(y), va));
		json_object_set_new(ab, va, json_string(vb));
		json_object_set_new(ba, vb, json_string(va));
	}
	json_decref(ab);
	json_decref(ba);
	return same;
}

static void add_dim(struct nb_sctx *s, const char *dim)
{
	if (s->ndims < NB_SUMMARY_MAXD) {
		json_array_append_new(s->keep, json_string(dim));
		s->dims[s->ndims++] = json_string_value(json_array_get(
			s->keep, json_array_size(s->keep) - 1));
	}
}

/* Label question K: a question of its own, or one with a question that
 * changes with it everywhere (the results cannot tell the two apart):
 * "layout+disk". */
static void join_dim(struct nb_sctx *s, const char *k)
{
	char both[256];

	for (size_t d = 0; d < s->ndims; d++)
		if (same_split(s, s->dims[d], k)) {
			snprintf(both, sizeof(both), "%s+%s", s->dims[d], k);
			json_array_append_new(s->keep, json_string(both));
			s->dims[d] = json_string_value(json_array_get(
				s->keep, json_array_size(s->keep) - 1));
			return;
		}
	add_dim(s, k);
}

/* The questions: labels (not descriptive ones) that differ, then the
 * files when no label differs, then the target when a workload ran on
 * several. */
static void find_dims(struct nb_sctx *s)
{
	json_t *keys = json_object();
	const char *k;
	json_t *v;
	int targets = 0;

	for (size_t i = 0; i < s->nit; i++)
		json_object_foreach(json_object_get(s->it[i].doc, "labels"), k, v)
			json_object_set_new(keys, k, json_true());
	json_object_foreach(keys, k, v) {
		if (!nb_summary_descriptive(k) && ndistinct(s, k, NULL) > 1)
			join_dim(s, k);
	}
	json_decref(keys);
	s->nfiles = ndistinct(s, "file", NULL);
	if (!s->ndims && s->nfiles > 1)
		add_dim(s, "file");
	for (size_t i = 0; i < s->nit && !targets; i++)
		targets = ndistinct(s, "target", nb_jstr(s->it[i].e, "workload")) > 1;
	if (targets)
		add_dim(s, "target");
}

/* The protocol target value V is reached by ("NFS"), or "". */
static const char *protocol(const struct nb_sctx *s, const char *v)
{
	static const char *const names[][2] = { { "nfs", "NFS" }, { "iscsi", "iSCSI" },
						{ "posix", "local" }, { "fio", "fio" } };

	for (size_t i = 0; i < s->nit; i++) {
		const json_t *t;
		size_t j;

		json_array_foreach(json_object_get(s->it[i].doc, "targets"), j, t)
			if (!strcmp(nb_jstr(t, "name"), v))
				for (size_t k = 0; k < 4; k++)
					if (!strcmp(nb_jstr(t, "runner"), names[k][0]))
						return names[k][1];
	}
	return "";
}

/* The name label of the items whose DIM is V, when they share one no
 * other item has; NULL otherwise. */
static const char *name_of(const struct nb_sctx *s, const char *dim, const char *v)
{
	const char *name = NULL;
	char w[256];

	for (size_t i = 0; i < s->nit; i++) {
		const char *n = nb_jstr(json_object_get(s->it[i].doc, "labels"), "name");

		nb_summary_dimval(&s->it[i], dim, w, sizeof(w));
		if (!strcmp(w, v) && (!*n || (name && strcmp(name, n))))
			return NULL;
		if (!strcmp(w, v))
			name = n;
	}
	for (size_t i = 0; name && i < s->nit; i++) {
		nb_summary_dimval(&s->it[i], dim, w, sizeof(w));
		if (strcmp(w, v) && !strcmp(name, nb_jstr(json_object_get(
			s->it[i].doc, "labels"), "name")))
			return NULL;
	}
	return name;
}

void nb_summary_shown(const struct nb_sctx *s, const char *dim, const char *v,
		      char *out, size_t len)
{
	const char *p = "";

	if (!strcmp(dim, "target")) {
		/* by protocol when no two targets share one */
		p = protocol(s, v);
		for (size_t i = 0; *p && i < s->nit; i++) {
			const char *t = nb_jstr(s->it[i].e, "target");

			if (strcmp(t, v) && !strcmp(protocol(s, t), p))
				p = "";
		}
		snprintf(out, len, "%s", *p ? p : v);
	} else if (strchr(dim, '+')) {
		p = name_of(s, dim, v);
		snprintf(out, len, "%s", p ? p : v);
	} else if (nb_words_dim(dim)->bare) {
		snprintf(out, len, "%s", v);
	} else {
		snprintf(out, len, "%s=%s", dim, v);
	}
}

#define RANKMAX 8                /* values ranked in one comparison */

/* One comparison: the values of the question in one group, best first. */
struct cmp {
	char win[128], run[128];
	double wv, rv, t, noise;
	int same, nvals;
	char rank[RANKMAX][128];
	double rv_[RANKMAX], sp_[RANKMAX];   /* medians, spreads (%) */
	size_t n_[RANKMAX];                 /* iterations */
	struct nb_judgement j;              /* the winner against the runner-up */
};

/* Insert VALUE (median M, spread SP %, N iterations) into C's ranking,
 * best first. */
static void rank_in(struct cmp *c, const char *value, double m, double sp,
		    size_t n, int better)
{
	int i = c->nvals < RANKMAX ? c->nvals : RANKMAX - 1;

	if (c->nvals == RANKMAX && m * better <= c->rv_[i] * better)
		return;
	for (; i > 0 && m * better > c->rv_[i - 1] * better; i--) {
		memcpy(c->rank[i], c->rank[i - 1], sizeof(c->rank[i]));
		c->rv_[i] = c->rv_[i - 1];
		c->sp_[i] = c->sp_[i - 1];
		c->n_[i] = c->n_[i - 1];
	}
	snprintf(c->rank[i], sizeof(c->rank[i]), "%s", value);
	c->rv_[i] = m;
	c->sp_[i] = sp;
	c->n_[i] = n;
	if (c->nvals < RANKMAX)
		c->nvals++;
}

/* The figures of one value of a group ([[figure, run], ...]) into V and
 * RUN (at most MAX): their count. */
static size_t figures(const json_t *vals, double *v, int *run, size_t max)
{
	const json_t *x;
	size_t i, n = 0;

	json_array_foreach(vals, i, x)
		if (n < max) {
			v[n] = json_number_value(json_array_get(x, 0));
			run[n++] = (int)json_integer_value(json_array_get(x, 1));
		}
	return n;
}

/* compare's test for words, not a gate: no threshold, the words' band */
static const struct nb_judge_opts judge_opts = {
	.threshold = NB_JUDGE_OFF, .display = NB_SAME_PCT / 100,
	.alpha = NB_JUDGE_ALPHA, .run_noise = NB_JUDGE_RUN_NOISE,
};

void nb_summary_test(const double *base, size_t nbase, const double *new_,
		     size_t nnew, int better, struct nb_judgement *j)
{
	nb_judge(base, NULL, (int)nbase, new_, (int)nnew, better, &judge_opts, j);
}

/* The winner of G against its runner-up by compare's test
 * (decision/judge.h): the runner-up is the base, its runs told apart. */
static void judge_top(const json_t *g, int better, struct cmp *c)
{
	double vw[256], vr[256];
	int rw[256], rr[256], first, several = 0;
	size_t nw = figures(json_object_get(g, c->rank[0]), vw, rw, 256);
	size_t nr = figures(json_object_get(g, c->rank[1]), vr, rr, 256);

	first = nr ? rr[0] : 0;
	for (size_t i = 0; i < nr; i++) {
		several |= rr[i] != first;
		rr[i] = rr[i] - first < 0 ? 0 : rr[i] - first;
	}
	nb_judge(vr, several ? rr : NULL, (int)nr, vw, (int)nw, better, &judge_opts,
		 &c->j);
}

/* Judge group G ({ value: [figures] }) of METRIC: 0, or -1 with fewer
 * than two values. */
static int judge_group(const json_t *g, const char *metric, struct cmp *c)
{
	int better = nb_metric_find(metric)->better;
	const char *k;
	json_t *vals;

	memset(c, 0, sizeof(*c));
	json_object_foreach((json_t *)g, k, vals) {
		double v[256];
		size_t n = 0, i;
		struct nb_summary st;
		json_t *x;

		json_array_foreach(vals, i, x)
			if (n < 256)
				v[n++] = json_number_value(json_array_get(x, 0));
		nb_stats_summary(v, n, &st);
		if (!n || !(st.median > 0))
			continue;
		rank_in(c, k, st.median, n > 1 ? 100 * st.stddev / st.median : 0,
			n, better);
	}
	if (c->nvals < 2)
		return -1;
	judge_top(g, better, c);
	snprintf(c->win, sizeof(c->win), "%s", c->rank[0]);
	snprintf(c->run, sizeof(c->run), "%s", c->rank[1]);
	c->wv = c->rv_[0], c->rv = c->rv_[1];
	c->t = nb_bands_time(c->wv, c->rv, better);
	/* as the grid colours a cell: within max(5%, the two spreads) of
	 * the runner-up's median is the same */
	c->noise = fmax(NB_SAME_PCT, fmax(c->sp_[0], c->sp_[1]));
	c->same = 100 * fabs(c->wv - c->rv) / c->rv < c->noise;
	return 0;
}

/* Pool the figures of WL's items into { group: { value of DIM:
 * [[figure, run], ..] } }: the group is the other questions' values, said
 * in AT { group: { question: value } }.  *METRIC: the primary one. */
static json_t *pool_groups(const struct nb_sctx *s, const char *dim,
			   const char *wl, char *metric, size_t mlen,
			   const json_t **e0, json_t *at)
{
	json_t *groups = json_object();

	metric[0] = '\0';
	for (size_t i = 0; i < s->nit; i++) {
		const json_t *e = s->it[i].e;
		char g[1024] = "", v[256];
		double fig[256];
		json_t *gobj, *arr, *where;
		size_t l = 0;
		int n;

		if (strcmp(nb_jstr(e, "workload"), wl))
			continue;
		if (!metric[0]) {
			snprintf(metric, mlen, "%s", nb_summary_primary(e));
			*e0 = e;
		} else if (strcmp(metric, nb_summary_primary(e))) {
			continue;
		}
		where = json_object();
		for (size_t d = 0; d < s->ndims; d++) {
			if (s->dims[d] == dim)
				continue;
			nb_summary_dimval(&s->it[i], s->dims[d], v, sizeof(v));
			l += (size_t)snprintf(g + l, l < sizeof(g) ? sizeof(g) - l : 0,
					      "%s%s=%s", l ? ", " : "", s->dims[d], v);
			json_object_set_new(where, s->dims[d], json_string(v));
		}
		json_object_set_new(where, "target", json_string(nb_jstr(e, "target")));
		nb_summary_dimval(&s->it[i], dim, v, sizeof(v));
		gobj = json_object_get(groups, g);
		if (!gobj) {
			json_object_set_new(groups, g, gobj = json_object());
			json_object_set(at, g, where);
		}
		json_decref(where);
		arr = json_object_get(gobj, v);
		if (!arr)
			json_object_set_new(gobj, v, arr = json_array());
		n = nb_summary_values(e, metric, fig, 256);
		for (int k = 0; k < n; k++)
			json_array_append_new(arr, json_pack("[f, i]", fig[k],
							     s->it[i].run));
	}
	return groups;
}

/* One comparison of C as evidence: what was compared, where, the two
 * medians and the test's word on them. */
static json_t *evidence(const char *dim, const char *wl, const json_t *e0,
			const char *metric, const char *g, const json_t *at,
			const struct cmp *c)
{
	char what[160];

	nb_words_what(e0, metric, what, sizeof(what));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:O, s:s, s:s, s:f, s:f,"
			 " s:f, s:b, s:b, s:b, s:f, s:i, s:i, s:f, s:f, s:i}",
			 "dim", dim, "workload", wl, "target",
			 nb_jstr(at, "target"), "what", what, "metric", metric,
			 "group", g, "at", at, "win", c->win, "run", c->run,
			 "wv", c->wv, "rv", c->rv, "t", c->t, "same", c->same,
			 "sig", c->j.verdict == NB_V_BETTER && !c->j.low_confidence, "low",
			 c->j.low_confidence, "p", isnan(c->j.p) ? -1 : c->j.p,
			 "nw", (int)c->n_[0], "nr", (int)c->n_[1], "spw", c->sp_[0],
			 "spr", c->sp_[1], "nvals", c->nvals);
}

/* Question DIM about workload WL: a comparison per group (the other
 * questions held equal) into S->evidence. */
static void compare_dim(struct nb_sctx *s, const char *dim, const char *wl)
{
	char metric[64];
	const json_t *e0 = NULL;
	json_t *at = json_object();
	json_t *groups = pool_groups(s, dim, wl, metric, sizeof(metric), &e0, at);
	const char *k;
	json_t *g;

	json_object_foreach(groups, k, g) {
		struct cmp c;

		if (metric[0] && nb_metric_find(metric)->better &&
		    !judge_group(g, metric, &c))
			json_array_append_new(s->evidence, evidence(dim, wl, e0, metric,
				k, json_object_get(at, k), &c));
	}
	json_decref(groups);
	json_decref(at);
}

void nb_summary_winners(struct nb_sctx *s)
{
	json_t *wls = json_array(), *seen = json_object(), *w;
	size_t i;

	find_dims(s);
	for (i = 0; i < s->nit; i++) {
		const char *wl = nb_jstr(s->it[i].e, "workload");

		if (!json_object_get(seen, wl)) {
			json_object_set_new(seen, wl, json_true());
			json_array_append_new(wls, json_string(wl));
		}
	}
	for (size_t d = 0; d < s->ndims; d++)
		json_array_foreach(wls, i, w)
			compare_dim(s, s->dims[d], json_string_value(w));
	json_decref(seen);
	json_decref(wls);
}
