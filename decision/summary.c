/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.c - the decision summary's "winner" and "change" lines: for
 * each question (a label that differs, the target), each workload, which
 * value wins with the other questions held equal, and by how much.
 * summary_out.c has the other kinds and the renderers.
 */
#include "summary.h"
#include "summary_int.h"
#include "bands.h"
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

void nb_summary_add(json_t *lines, const char *kind, const char *level,
		    const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_append_new(lines, json_pack("{s:s, s:s, s:s}", "kind", kind,
					       "level", level, "text", buf));
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

const char *nb_summary_family(const json_t *e)
{
	const json_t *spec = json_object_get(e, "spec");
	const char *w = nb_jstr(e, "workload"), *rw = nb_jstr(spec, "rw");
	int seq = !strcmp(nb_jstr(spec, "pattern"), "seq");
	int rnd = !strcmp(nb_jstr(spec, "pattern"), "rand");
	size_t n = strlen(w);

	if (!strcmp(w, "syncprobe"))
		return "sync write latency";
	if (!strcmp(w, "bonnie"))
		return "bonnie++";
	if (!strcmp(w, "bigfile"))
		return "big file write";
	if (!strcmp(w, "xz"))
		return "xz compression";
	if (!strcmp(rw, "write") && (!strcmp(nb_jstr(spec, "sync"), "always") ||
				     (n > 5 && !strcmp(w + n - 5, "-sync"))))
		return "sync writes";
	if (!strcmp(rw, "write"))
		return seq ? "sequential writes" : rnd ? "random writes" : "writes";
	if (!strcmp(rw, "read"))
		return seq ? "sequential reads" : rnd ? "random reads" : "reads";
	return w;
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

static void add_dim(struct nb_sctx *s, const char *dim)
{
	if (s->ndims < NB_SUMMARY_MAXD) {
		json_array_append_new(s->keep, json_string(dim));
		s->dims[s->ndims++] = json_string_value(json_array_get(
			s->keep, json_array_size(s->keep) - 1));
	}
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
		int skip = 0;

		for (size_t d = 0; descriptive[d]; d++)
			skip |= !strcmp(descriptive[d], k);
		if (!skip && ndistinct(s, k, NULL) > 1)
			add_dim(s, k);
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

/* "72.0", "3155", "0.569": a figure as the grid shows it. */

#define RANKMAX 8                /* values ranked in one comparison */

/* One comparison: the values of the question in one group, best first. */
struct cmp {
	char win[128], run[128];
	double wv, rv, t, noise;
	int same, nvals;
	char rank[RANKMAX][128];
	double rv_[RANKMAX], sp_[RANKMAX];   /* medians, spreads (%) */
};

/* Insert VALUE (median M, spread SP %) into C's ranking, best first. */
static void rank_in(struct cmp *c, const char *value, double m, double sp,
		    int better)
{
	int i = c->nvals < RANKMAX ? c->nvals : RANKMAX - 1;

	if (c->nvals == RANKMAX && m * better <= c->rv_[i] * better)
		return;
	for (; i > 0 && m * better > c->rv_[i - 1] * better; i--) {
		memcpy(c->rank[i], c->rank[i - 1], sizeof(c->rank[i]));
		c->rv_[i] = c->rv_[i - 1];
		c->sp_[i] = c->sp_[i - 1];
	}
	snprintf(c->rank[i], sizeof(c->rank[i]), "%s", value);
	c->rv_[i] = m;
	c->sp_[i] = sp;
	if (c->nvals < RANKMAX)
		c->nvals++;
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
				v[n++] = json_number_value(x);
		nb_stats_summary(v, n, &st);
		if (!n || !(st.median > 0))
			continue;
		rank_in(c, k, st.median, n > 1 ? 100 * st.stddev / st.median : 0,
			better);
	}
	if (c->nvals < 2)
		return -1;
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

/* "nfs 3.16x, iscsi 4.02x, iscsi-sync 9.80x": the others against the
 * winner, as time factors. */
static void rank_text(const struct cmp *c, const char *metric, char *out,
		      size_t len)
{
	int better = nb_metric_find(metric)->better;
	size_t l = 0;

	out[0] = '\0';
	for (int i = 1; i < c->nvals && l < len; i++)
		l += (size_t)snprintf(out + l, len - l, "%s%s %.2fx", i > 1 ? ", " : "",
				      c->rank[i], nb_bands_time(c->wv, c->rv_[i], better));
}

/* The pseudo-question "configuration": every label question at once. */
static int is_config(const char *dim)
{
	return !strcmp(dim, "configuration");
}

static int is_label(const char *dim)
{
	return strcmp(dim, "target") && strcmp(dim, "file");
}

/* "layout=raidz1 slog=ssd": IT's values of the label questions. */
static void config_of(const struct nb_sctx *s, const struct nb_sitem *it,
		      char *out, size_t len)
{
	size_t l = 0;
	char v[256];

	out[0] = '\0';
	for (size_t d = 0; d < s->ndims; d++)
		if (is_label(s->dims[d])) {
			nb_summary_dimval(it, s->dims[d], v, sizeof(v));
			l += (size_t)snprintf(out + l, l < len ? len - l : 0, "%s%s=%s",
					      l ? " " : "", s->dims[d], v);
		}
}

/* Pool the figures of WL's items into { group: { value of DIM: [..] } }:
 * the group is the other questions' values.  *METRIC: the primary one. */
static json_t *pool_groups(const struct nb_sctx *s, const char *dim,
			   const char *wl, char *metric, size_t mlen,
			   const json_t **e0)
{
	json_t *groups = json_object();

	metric[0] = '\0';
	for (size_t i = 0; i < s->nit; i++) {
		const json_t *e = s->it[i].e;
		char g[1024] = "", v[256];
		double fig[256];
		json_t *gobj, *arr;
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
		for (size_t d = 0; d < s->ndims; d++) {
			if (s->dims[d] == dim || (is_config(dim) && is_label(s->dims[d])))
				continue;
			nb_summary_dimval(&s->it[i], s->dims[d], v, sizeof(v));
			l += (size_t)snprintf(g + l, l < sizeof(g) ? sizeof(g) - l : 0,
					      "%s%s=%s", l ? ", " : "", s->dims[d], v);
		}
		if (is_config(dim))
			config_of(s, &s->it[i], v, sizeof(v));
		else
			nb_summary_dimval(&s->it[i], dim, v, sizeof(v));
		gobj = json_object_get(groups, g);
		if (!gobj)
			json_object_set_new(groups, g, gobj = json_object());
		arr = json_object_get(gobj, v);
		if (!arr)
			json_object_set_new(gobj, v, arr = json_array());
		n = nb_result_values(e, metric, fig, 256);
		for (int k = 0; k < n; k++)
			json_array_append_new(arr, json_real(fig[k]));
	}
	return groups;
}

/* "raidz1 ahead in 3 of 4 comparisons (1.19x to 1.89x), raid10 in 1
 * (1.05x)": each value that came out ahead, most often first. */
static void most_wins(const struct cmp *c, size_t nc, char *out, size_t len)
{
	int *done = calloc(nc + 1, sizeof(int));
	size_t l = 0, shown = 0;

	out[0] = '\0';
	while (done && shown < 3) {
		size_t best = 0, bi = 0;
		double lo = INFINITY, hi = 0;

		for (size_t i = 0; i < nc; i++) {
			size_t n = 0;

			for (size_t j = 0; j < nc && !done[i] && !c[i].same; j++)
				n += !c[j].same && !strcmp(c[j].win, c[i].win);
			if (n > best)
				best = n, bi = i;
		}
		if (!best)
			break;
		for (size_t j = 0; j < nc; j++)
			if (!c[j].same && !strcmp(c[j].win, c[bi].win)) {
				done[j] = 1;
				lo = fmin(lo, c[j].t), hi = fmax(hi, c[j].t);
			}
		if (hi - lo >= 0.005)
			l += (size_t)snprintf(out + l, l < len ? len - l : 0, "%s%s %s %zu%s "
					      "(%.2fx to %.2fx)", l ? ", " : "", c[bi].win,
					      l ? "in" : "ahead in", best, "", lo, hi);
		else
			l += (size_t)snprintf(out + l, l < len ? len - l : 0, "%s%s %s %zu%s "
					      "(%.2fx)", l ? ", " : "", c[bi].win,
					      l ? "in" : "ahead in", best, "", lo);
		shown++;
	}
	free(done);
}

/* The start of the line of question DIM about workload WL (in group G0,
 * "target=..." or ""): what is compared. */
static void winner_lead(const char *dim, const char *wl, const json_t *e0,
			const char *g0, char *lead, size_t len)
{
	if (is_config(dim) && !strncmp(g0, "target=", 7))
		snprintf(lead, len, "%s (%s) on %s, best configuration:",
			 nb_summary_family(e0), wl, g0 + 7);
	else if (is_config(dim))
		snprintf(lead, len, "%s (%s), best configuration:",
			 nb_summary_family(e0), wl);
	else
		snprintf(lead, len, "%s (%s), %s:", nb_summary_family(e0), wl, dim);
}

/* Where the NC comparisons of C were made (their count and the range of
 * their time factors, or the group G0). */
static void winner_where(const struct cmp *c, size_t nc, const char *g0,
			 char *where, size_t len)
{
	double tmin = INFINITY, tmax = 0;

	for (size_t i = 0; i < nc; i++)
		tmin = fmin(tmin, c[i].t), tmax = fmax(tmax, c[i].t);
	where[0] = '\0';
	if (nc > 1 && tmax - tmin >= 0.005)
		snprintf(where, len, "; %zu comparisons, %.2fx to %.2fx", nc, tmin, tmax);
	else if (nc > 1)
		snprintf(where, len, "; %zu comparisons", nc);
	else if (*g0)
		snprintf(where, len, ", %s", g0);
}

/* The line of one question DIM about workload WL over its comparisons. */
static void winner_text(struct nb_sctx *s, const char *dim, const char *wl,
			const json_t *e0, const char *metric, const struct cmp *c,
			size_t nc, const char *g0)
{
	const char *unit = nb_metric_find(metric)->label;
	char a[32], b[32], lead[512], where[1100], mw[300];
	size_t wins = 0, same = 0, ref = 0;
	int order = 0;           /* a winner first, then the same, then mixed */

	winner_lead(dim, wl, e0, g0, lead, sizeof(lead));
	/* a configuration's group is said in the lead */
	winner_where(c, nc, is_config(dim) ? "" : g0, where, sizeof(where));
	while (ref + 1 < nc && c[ref].same)
		ref++;           /* the first comparison that decided */
	for (size_t i = 0; i < nc; i++) {
		same += (size_t)c[i].same;
		wins += !c[i].same && !strcmp(c[i].win, c[ref].win);
	}
	nb_metric_fig(c[0].wv, metric, a, sizeof(a));
	nb_metric_fig(c[0].rv, metric, b, sizeof(b));
	if (same == nc) {
		char within[64];

		order = 1;
		if (nc == 1 && c[0].nvals > 2)
			rank_text(&c[0], metric, mw, sizeof(mw));
		/* the band is the runs' own spread when it is wider than
		 * NB_SAME_PCT: then it is the noise that hides a difference */
		if (c[0].noise > NB_SAME_PCT + 0.5)
			snprintf(within, sizeof(within), "within the noise, ±%.0f%%",
				 c[0].noise);
		else
			snprintf(within, sizeof(within), "within %.0f%%", c[0].noise);
		nb_summary_add(s->lines, "winner", "info", "%s %s and %s about the "
			       "same (%s: %s vs %s %s%s)%s%s%s", lead, c[0].win,
			       c[0].run, within, a, b, unit, where,
			       nc == 1 && c[0].nvals > 2 ? "; the others take " : "",
			       nc == 1 && c[0].nvals > 2 ? strchr(mw, ',') + 2 : "",
			       nc == 1 && c[0].nvals > 2 ? " the time" : "");
	} else if (wins == nc && c[0].nvals > 2 && nc == 1) {
		rank_text(&c[0], metric, mw, sizeof(mw));
		nb_summary_add(s->lines, "winner", "info", "%s %s wins with %s %s; "
			       "the others take %s the time%s", lead, c[0].win, a, unit,
			       mw, where);
	} else if (wins == nc) {
		nb_summary_add(s->lines, "winner", "info", "%s %s wins by %.2fx over "
			       "%s%s (%s vs %s %s%s)", lead, c[0].win, c[0].t,
			       c[0].run, c[0].nvals > 2 ? ", the next" : "", a, b, unit,
			       where);
	} else if (wins == nc - same) {
		/* one value ahead wherever there is a difference */
		double lo = INFINITY, hi = 0;

		for (size_t i = 0; i < nc; i++)
			if (!c[i].same)
				lo = fmin(lo, c[i].t), hi = fmax(hi, c[i].t);
		char never[160] = "";

		if (c[ref].nvals == 2)
			snprintf(never, sizeof(never), " (%s never ahead)", c[ref].run);
		if (hi - lo >= 0.005)
			snprintf(mw, sizeof(mw), "%.2fx to %.2fx", lo, hi);
		else
			snprintf(mw, sizeof(mw), "%.2fx", lo);
		nb_summary_add(s->lines, "winner", "info", "%s %s wins in %zu of %zu "
			       "comparisons by %s, about the same in the other %zu%s",
			       lead, c[ref].win, wins, nc, mw, same, never);
	} else {
		char tail[64] = "";

		most_wins(c, nc, mw, sizeof(mw));
		if (same)
			snprintf(tail, sizeof(tail), "; about the same in %zu", same);
		nb_summary_add(s->lines, "winner", "info", "%s no consistent winner "
			       "in %zu comparisons: %s%s", lead, nc, mw, tail);
		order = 2;
	}
	json_object_set_new(json_array_get(s->lines, json_array_size(s->lines) - 1),
			    "order", json_integer(order));
}

/* Two results and nothing else differs: WL before -> after, per group. */
static void change_text(struct nb_sctx *s, const char *wl, const json_t *e0,
			const char *metric, const json_t *groups)
{
	const struct nb_metric *d = nb_metric_find(metric);
	const char *k;
	json_t *g;

	json_object_foreach((json_t *)groups, k, g) {
		double v[2][256], m[2];
		size_t n[2] = { 0, 0 }, i = 0, j;
		const char *f[2] = { "", "" }, *fk;
		json_t *arr, *x;
		char a[32], b[32], t[48];

		if (json_object_size(g) != 2)
			continue;
		json_object_foreach(g, fk, arr) {
			f[i] = fk;
			json_array_foreach(arr, j, x)
				if (n[i] < 256)
					v[i][n[i]++] = json_number_value(x);
			m[i] = nb_stats_median(v[i], n[i]);
			i++;
		}
		if (!n[0] || !n[1] || !(m[0] != 0))
			continue;
		nb_metric_fig(m[0], metric, a, sizeof(a));
		nb_metric_fig(m[1], metric, b, sizeof(b));
		nb_bands_fmt_time(nb_bands_time(m[0], m[1], d->better), t, sizeof(t));
		nb_summary_add(s->lines, "change", "info", "%s (%s)%s%s: %s -> %s: %s -> "
			       "%s %s (%+.1f%%%s%s)", nb_summary_family(e0), wl,
			       *k ? ", " : "", k, f[0], f[1], a, b, d->label,
			       100 * (m[1] - m[0]) / fabs(m[0]), *t ? ", " : "", t);
	}
}

static void winner_line(struct nb_sctx *s, const char *dim, const char *wl)
{
	char metric[64];
	const json_t *e0 = NULL;
	json_t *groups = pool_groups(s, dim, wl, metric, sizeof(metric), &e0), *g;
	struct cmp *c = calloc(json_object_size(groups) + 1, sizeof(*c));
	const char *k, *g0 = "";
	size_t nc = 0;

	if (!strcmp(dim, "file") && s->nfiles == 2) {
		if (metric[0])
			change_text(s, wl, e0, metric, groups);
		json_decref(groups);
		free(c);
		return;
	}
	json_object_foreach(groups, k, g)
		if (metric[0] && nb_metric_find(metric)->better &&
		    !judge_group(g, metric, &c[nc])) {
			if (!nc)
				g0 = k;
			/* the best configuration: a line per target */
			if (is_config(dim))
				winner_text(s, dim, wl, e0, metric, &c[nc], 1, k);
			nc++;
		}
	if (nc && !is_config(dim))
		winner_text(s, dim, wl, e0, metric, c, nc, g0);
	free(c);
	json_decref(groups);
}

/* The lines in their "order" (stable), the key removed. */
static void sort_lines(json_t *lines)
{
	json_t *sorted = json_array(), *x;
	size_t i;

	for (json_int_t o = 0; o < 3; o++)
		json_array_foreach(lines, i, x)
			if (json_integer_value(json_object_get(x, "order")) == o)
				json_array_append(sorted, x);
	json_array_clear(lines);
	json_array_foreach(sorted, i, x) {
		json_object_del(x, "order");
		json_array_append(lines, x);
	}
	json_decref(sorted);
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
	/* two label questions or more: first the best configuration of
	 * each workload on each target, then each question on its own */
	for (size_t d = 0, nl = 0; d < s->ndims; d++)
		if (is_label(s->dims[d]) && ++nl == 2)
			json_array_foreach(wls, i, w)
				winner_line(s, "configuration", json_string_value(w));
	for (size_t d = 0; d < s->ndims; d++)
		json_array_foreach(wls, i, w)
			winner_line(s, s->dims[d], json_string_value(w));
	json_decref(seen);
	json_decref(wls);
	sort_lines(s->lines);
}
