/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decide.c - the decisions: one sentence per configuration dimension that
 * mattered, made of the comparisons summary.c found (S->evidence), in the
 * seeds' terms (words.c), each clause with its figure, its condition and
 * its confidence:
 *
 *   A SLOG: 19-27x the sync IOPS on both layouts (n=3 each, ±18%); 2.7x
 *   the sequential sync writes on raidz1, nothing on raid10 (n=3 each, ±20%)
 *   raid10 over raidz1 for sequential reads: 3.1-3.8x (n=3 each, ±25%)
 *   NFS vs iSCSI: within the noise (n=3 each, ±25%)
 *
 * A clause is one value winning one figure (the comparisons of every
 * workload said alike, on every group of the other questions); its
 * condition is the one other question whose values tell where it won
 * from where it did not; its confidence the iterations, the widest spread
 * and how many of its comparisons compare's test calls significant
 * (decision/judge.h).  A dimension none of whose comparisons is
 * significant decided nothing: all of those are said once, last.
 */
#include "summary.h"
#include "summary_int.h"
#include "words.h"
#include "../core/metrics.h"
#include "../core/result.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLAUSES_MAX 3            /* clauses said in one sentence */

struct sentence {
	char text[1400];
	double weight;           /* the largest significant factor */
};

static double num(const json_t *x, const char *k)
{
	return json_number_value(json_object_get(x, k));
}

static int yes(const json_t *x, const char *k)
{
	return json_is_true(json_object_get(x, k));
}

static int in(const json_t *arr, const json_t *x)
{
	const json_t *y;
	size_t i;

	json_array_foreach(arr, i, y)
		if (y == x)
			return 1;
	return 0;
}

/* Append S to OUT[LEN] at *L. */
static void put(char *out, size_t len, size_t *l, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *out, size_t len, size_t *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (*l < len)
		*l += (size_t)vsnprintf(out + *l, len - *l, fmt, ap);
	va_end(ap);
}

/* "raidz1 and raid10", "a, b and c": the values of VALS as shown. */
static void join(const struct nb_sctx *s, const char *dim, const json_t *vals,
		 const char *last, char *out, size_t len)
{
	size_t l = 0, i, n = json_array_size(vals);
	const json_t *v;
	char w[256];

	out[0] = '\0';
	json_array_foreach(vals, i, v) {
		nb_summary_shown(s, dim, json_string_value(v), w, sizeof(w));
		put(out, len, &l, "%s%s", i ? (i + 1 == n ? last : ", ") : "", w);
	}
}

/* "on raidz1 and raid10", "without a SLOG": where question DIM takes
 * the values VALS, as a condition. */
static void join_on(const struct nb_sctx *s, const char *dim, const json_t *vals,
		    char *out, size_t len)
{
	const struct nb_dim_words *w = nb_words_dim(dim);
	size_t l = 0, i, n = json_array_size(vals);
	const json_t *v;
	char shown[256], on[300];

	if (!w->without) {
		join(s, dim, vals, " and ", shown, sizeof(shown));
		snprintf(out, len, "on %s", shown);
		return;
	}
	out[0] = '\0';
	json_array_foreach(vals, i, v) {
		nb_summary_shown(s, dim, json_string_value(v), shown, sizeof(shown));
		nb_words_on(dim, json_string_value(v), shown, on, sizeof(on));
		put(out, len, &l, "%s%s", i ? (i + 1 == n ? " and " : ", ") : "", on);
	}
}

/* Add V to the array of distinct strings SET. */
static void add_value(json_t *set, const char *v)
{
	const json_t *x;
	size_t i;

	json_array_foreach(set, i, x)
		if (!strcmp(json_string_value(x), v))
			return;
	json_array_append_new(set, json_string(v));
}

static int has_value(const json_t *set, const char *v)
{
	const json_t *x;
	size_t i;

	json_array_foreach(set, i, x)
		if (!strcmp(json_string_value(x), v))
			return 1;
	return 0;
}

/* Whether question E tells SUB from the rest of ALL: the values of E in
 * SUB (into VIN) and in the rest (VOUT) do not meet. */
static int splits(const json_t *all, const json_t *sub, const char *e,
		  json_t *vin, json_t *vout)
{
	const json_t *c;
	size_t i;

	json_array_clear(vin);
	json_array_clear(vout);
	json_array_foreach(all, i, c) {
		const char *v = nb_jstr(json_object_get(c, "at"), e);

		add_value(in(sub, c) ? vin : vout, v);
	}
	json_array_foreach(vin, i, c)
		if (has_value(vout, json_string_value(c)))
			return 0;
	return json_array_size(vin) > 0;
}

/* The other questions than DIM, labels before the target and the file. */
static size_t others(const struct nb_sctx *s, const char *dim, const char **o)
{
	size_t n = 0;

	for (int pass = 0; pass < 2; pass++)
		for (size_t d = 0; d < s->ndims; d++) {
			int label = strcmp(s->dims[d], "target") && strcmp(s->dims[d], "file");

			if (strcmp(s->dims[d], dim) && label == !pass)
				o[n++] = s->dims[d];
		}
	return n;
}

/* Where SUB of ALL (the comparisons of one figure) holds: "on both
 * layouts" (everywhere), "on raidz1, nothing on raid10", "in 2 of 4
 * comparisons". */
static void where(const struct nb_sctx *s, const char *dim, const json_t *all,
		  const json_t *sub, char *out, size_t len)
{
	const char *o[NB_SUMMARY_MAXD];
	size_t no = others(s, dim, o), l = 0;
	json_t *vin = json_array(), *vout = json_array();
	char a[512], b[512];

	out[0] = '\0';
	for (size_t k = 0; k < no; k++) {
		int rest_same = 1;
		const json_t *c;
		size_t i;

		if (json_array_size(sub) == json_array_size(all)) {
			splits(all, sub, o[k], vin, vout);
			if (json_array_size(vin) < 2)
				continue;
			if (nb_words_dim(o[k])->both)
				put(out, len, &l, " %s", nb_words_dim(o[k])->both);
			else if (json_array_size(vin) == 2)
				put(out, len, &l, " on both %s", nb_words_dim(o[k])->plural);
			else
				put(out, len, &l, " on all %zu %s", json_array_size(vin),
				    nb_words_dim(o[k])->plural);
			break;
		}
		/* a question that decided nothing is no condition */
		if (!json_object_get(s->decided, o[k]) ||
		    !splits(all, sub, o[k], vin, vout))
			continue;
		/* the rest decided nothing: about the same, or nothing the
		 * test calls significant (those clauses are not said) */
		json_array_foreach(all, i, c)
			if (!in(sub, c) && !yes(c, "same") &&
			    (yes(c, "sig") || yes(c, "low")))
				rest_same = 0;
		join_on(s, o[k], vin, a, sizeof(a));
		join_on(s, o[k], vout, b, sizeof(b));
		put(out, len, &l, " %s%s%s", a, rest_same ? ", nothing " : "",
		    rest_same ? b : "");
		break;
	}
	if (!out[0] && json_array_size(sub) != json_array_size(all))
		snprintf(out, len, " in %zu of %zu comparisons", json_array_size(sub),
			 json_array_size(all));
	json_decref(vin);
	json_decref(vout);
}

/* "(n=3 each, ±18%)", "(n=3-5, ±4%; not significant)": the iterations,
 * the widest spread and what compare's test says of the comparisons C;
 * SIG 0: the test's word left out. */
void nb_decide_confidence(const json_t *c, int sig, char *out, size_t len)
{
	int nlo = 1 << 30, nhi = 0;
	size_t i, nsig = 0, nlow = 0;
	double sp = 0;
	const json_t *x;

	json_array_foreach(c, i, x) {
		int nw = (int)json_integer_value(json_object_get(x, "nw"));
		int nr = (int)json_integer_value(json_object_get(x, "nr"));

		nlo = nw < nlo ? nw : nlo, nlo = nr < nlo ? nr : nlo;
		nhi = nw > nhi ? nw : nhi, nhi = nr > nhi ? nr : nhi;
		sp = fmax(sp, fmax(num(x, "spw"), num(x, "spr")));
		nsig += (size_t)yes(x, "sig");
		nlow += (size_t)yes(x, "low");
	}
	nb_words_confidence(nlo, nhi, sp, json_array_size(c), nsig, nlow, sig, out,
			    len);
}

/* The range of the factors of C: "3.1-3.8x". */
static void factors(const json_t *c, char *out, size_t len)
{
	double lo = INFINITY, hi = 0;
	const json_t *x;
	size_t i;

	json_array_foreach(c, i, x)
		lo = fmin(lo, num(x, "t")), hi = fmax(hi, num(x, "t"));
	nb_words_factor(lo, hi, out, len);
}

/* The values DIM takes in its comparisons E, in order of appearance. */
static json_t *values_of(const json_t *e)
{
	json_t *v = json_array();
	const json_t *x;
	size_t i;

	json_array_foreach(e, i, x) {
		add_value(v, nb_jstr(x, "win"));
		add_value(v, nb_jstr(x, "run"));
	}
	return v;
}

/* The present value of a dimension said as having a thing (one of its
 * two values its "without"), or NULL. */
static const char *present(const struct nb_dim_words *w, const json_t *vals)
{
	const char *a;

	if (!w->without || json_array_size(vals) != 2)
		return NULL;
	a = json_string_value(json_array_get(vals, 0));
	if (!strcmp(a, w->without))
		return json_string_value(json_array_get(vals, 1));
	return !strcmp(json_string_value(json_array_get(vals, 1)), w->without) ? a : NULL;
}

struct clause {
	json_t *all;             /* the figure's comparisons */
	json_t *sub;             /* those WIN won */
	const char *win, *run, *what;
	double tmax;
	int sig;                 /* one of SUB is significant, or untestable */
	int tested;              /* one of SUB is significant */
};

/* The clauses of DIM's comparisons E: per figure, per winner. */
static size_t clauses(const json_t *e, struct clause *cl, size_t max)
{
	json_t *whats = json_array();
	const json_t *w, *x;
	size_t i, j, n = 0;

	json_array_foreach(e, i, x)
		add_value(whats, nb_jstr(x, "what"));
	json_array_foreach(whats, i, w) {
		json_t *all = json_array(), *wins = json_array();
		const json_t *v;
		size_t k;

		json_array_foreach(e, j, x)
			if (!strcmp(nb_jstr(x, "what"), json_string_value(w))) {
				json_array_append(all, (json_t *)x);
				if (!yes(x, "same"))
					add_value(wins, nb_jstr(x, "win"));
			}
		json_array_foreach(wins, k, v) {
			struct clause c = { json_incref(all), json_array(), "", "",
					    nb_jstr(json_array_get(all, 0), "what"), 0, 0, 0 };

			/* the strings are the comparisons' (ALL outlives WINS) */
			json_array_foreach(all, j, x)
				if (!yes(x, "same") && !strcmp(nb_jstr(x, "win"),
							       json_string_value(v))) {
					json_array_append(c.sub, (json_t *)x);
					c.win = nb_jstr(x, "win");
					c.run = nb_jstr(x, "run");
					c.tmax = fmax(c.tmax, num(x, "t"));
					/* too few iterations to test: said, flagged */
					c.sig |= yes(x, "sig") || yes(x, "low");
					c.tested |= yes(x, "sig");
				}
			if (n < max)
				cl[n++] = c;
			else
				json_decref(c.all), json_decref(c.sub);
		}
		json_decref(all);
		json_decref(wins);
	}
	json_decref(whats);
	return n;
}

static int by_weight(const void *a, const void *b)
{
	const struct clause *x = a, *y = b;

	if (x->tested != y->tested)
		return y->tested - x->tested;
	if (x->sig != y->sig)
		return y->sig - x->sig;
	return (y->tmax > x->tmax) - (y->tmax < x->tmax);
}

/* Clause C of DIM as words, after the clauses before it (PREV: the one
 * before, NULL: none; PRES: the dimension's present value, said as its
 * thing). */
static void clause_text(const struct nb_sctx *s, const char *dim,
			const struct clause *c, const struct clause *prev,
			const char *pres, size_t nvals, char *out, size_t len)
{
	char r[64], cond[1200], conf[128], a[256], b[256];
	size_t l = 0;

	factors(c->sub, r, sizeof(r));
	where(s, dim, c->all, c->sub, cond, sizeof(cond));
	nb_decide_confidence(c->sub, 1, conf, sizeof(conf));
	nb_summary_shown(s, dim, c->win, a, sizeof(a));
	nb_summary_shown(s, dim, c->run, b, sizeof(b));
	out[0] = '\0';
	if (pres && !strcmp(c->win, pres))
		put(out, len, &l, "%s the %s%s %s", r, c->what, cond, conf);
	else if (pres)
		put(out, len, &l, "the %s %s slower%s %s", c->what, r, cond, conf);
	else if (!prev || (nvals > 2 && strcmp(prev->run, c->run)))
		put(out, len, &l, "%s over %s for %s: %s%s %s", a, b, c->what, r,
		    cond, conf);
	else if (!strcmp(prev->win, c->win))    /* the same value again */
		put(out, len, &l, "%s: %s%s %s", c->what, r, cond, conf);
	else
		put(out, len, &l, "%s for %s: %s%s %s", a, c->what, r, cond, conf);
}

/* "A SLOG", "NFS vs iSCSI", "Compression (lz4)": dimension DIM named. */
static void dim_name(const struct nb_sctx *s, const char *dim, const json_t *vals,
		     char *out, size_t len)
{
	const struct nb_dim_words *w = nb_words_dim(dim);
	const char *p = present(w, vals);
	char v[256];

	if (p) {
		snprintf(v, sizeof(v), "%s", p);
		snprintf(out, len, w->thing, v);
	} else {
		join(s, dim, vals, " vs ", out, len);
	}
}

/* The sentence of DIM (its comparisons E): 0, or -1 when it decided
 * nothing (then NOTHING gets its name: "NFS vs iSCSI", and "up to 1.3x"
 * when a difference beyond the noise band was not significant). */
static int dim_sentence(const struct nb_sctx *s, const char *dim, const json_t *e,
			struct sentence *out, char *nothing, size_t nlen)
{
	struct clause cl[64];
	size_t n = clauses(e, cl, 64), l = 0, shown = 0;
	json_t *vals = values_of(e);
	const char *pres = present(nb_words_dim(dim), vals);
	char name[512], t[1400];
	double beyond = 0;
	int decided = 0;

	qsort(cl, n, sizeof(*cl), by_weight);
	out->weight = 0;
	for (size_t i = 0; i < n; i++)
		if (cl[i].sig) {
			decided = 1;
			out->weight = fmax(out->weight, cl[i].tmax);
		}
	dim_name(s, dim, vals, name, sizeof(name));
	if (!decided) {
		for (size_t i = 0; i < n; i++)
			beyond = fmax(beyond, cl[i].tmax);
		snprintf(nothing, nlen, "%s", name);
		out->weight = beyond;    /* the largest, not significant */
	} else {
		if (pres)
			put(out->text, sizeof(out->text), &l, "%s: ", name);
		/* the clauses nothing significant stands behind are the
		 * detail's (they sort last) */
		for (size_t i = 0; i < n && cl[i].sig && shown < CLAUSES_MAX;
		     i++, shown++) {
			clause_text(s, dim, &cl[i], i ? &cl[i - 1] : NULL, pres,
				    json_array_size(vals), t, sizeof(t));
			put(out->text, sizeof(out->text), &l, "%s%s", i ? "; " : "", t);
		}
		if (shown < n && cl[shown].sig)
			put(out->text, sizeof(out->text), &l, "; %zu more in the detail",
			    n - shown);
	}
	for (size_t i = 0; i < n; i++)
		json_decref(cl[i].all), json_decref(cl[i].sub);
	json_decref(vals);
	return decided ? 0 : -1;
}

static int by_sentence(const void *a, const void *b)
{
	const struct sentence *x = a, *y = b;

	return (y->weight > x->weight) - (y->weight < x->weight);
}

/* The comparisons of question DIM. */
static json_t *of_dim(const json_t *ev, const char *dim)
{
	json_t *e = json_array();
	const json_t *x;
	size_t i;

	json_array_foreach(ev, i, x)
		if (!strcmp(nb_jstr(x, "dim"), dim))
			json_array_append(e, (json_t *)x);
	return e;
}

/* The decision lines: the sentences by weight, at most NB_DECIDE_MAX
 * with the one of the dimensions that decided nothing (their comparisons
 * NE) last. */
static void put_lines(struct nb_sctx *s, struct sentence *st, size_t n,
		      const char *nothing, const json_t *ne, double beyond)
{
	json_t *head = s->lines;
	size_t room = NB_DECIDE_MAX - (*nothing ? 1 : 0);
	char conf[128], r[64] = "";

	qsort(st, n, sizeof(*st), by_sentence);
	for (size_t i = 0; i < n && i < room; i++)
		nb_summary_add(head, "decision", "info", "%s", st[i].text);
	if (n > room)
		nb_summary_add(head, "decision", "info", "%zu more dimension%s decided "
			       "something: see the detail", n - room,
			       n - room == 1 ? "" : "s");
	if (*nothing) {
		nb_decide_confidence(ne, 0, conf, sizeof(conf));
		if (beyond > 0)
			nb_words_factor(beyond, beyond, r, sizeof(r));
		nb_summary_add(head, "decision", "info", "%s: within the noise (%s%s%s%s",
			       nothing, *r ? "up to " : "", r, *r ? ", not significant; " : "", conf + 1);
	}
}

void nb_decide_dims(struct nb_sctx *s)
{
	struct sentence *st = calloc(s->ndims + 1, sizeof(*st));
	char nothing[1024] = "", one[600];
	json_t *ne = json_array();
	size_t n = 0, l = 0;
	double beyond = 0;
	const json_t *x;
	size_t i;

	/* first which questions decided something: only those are a
	 * condition of another's clause */
	s->decided = json_object();
	json_array_foreach(s->evidence, i, x)
		if ((yes(x, "sig") || yes(x, "low")) && !yes(x, "same"))
			json_object_set_new(s->decided, nb_jstr(x, "dim"), json_true());
	for (size_t d = 0; d < s->ndims; d++) {
		json_t *e = of_dim(s->evidence, s->dims[d]);

		if (json_array_size(e) && dim_sentence(s, s->dims[d], e, &st[n], one,
						       sizeof(one))) {
			put(nothing, sizeof(nothing), &l, "%s%s", l ? ", " : "", one);
			json_array_extend(ne, e);
			beyond = fmax(beyond, st[n].weight);
		} else if (json_array_size(e)) {
			n++;
		}
		json_decref(e);
	}
	put_lines(s, st, n, nothing, ne, beyond);
	json_decref(ne);
	json_decref(s->decided);
	s->decided = NULL;
	free(st);
}

/* "on NFS, layout=raidz1": where comparison X was made, the other
 * questions' values. */
static void at_text(const struct nb_sctx *s, const json_t *x, char *out, size_t len)
{
	const json_t *at = json_object_get(x, "at");
	const char *o[NB_SUMMARY_MAXD];
	size_t no = others(s, nb_jstr(x, "dim"), o), l = 0;
	char v[256];

	out[0] = '\0';
	if (strcmp(nb_jstr(x, "dim"), "target")) {
		nb_summary_shown(s, "target", nb_jstr(x, "target"), v, sizeof(v));
		put(out, len, &l, "on %s", v);
	}
	for (size_t k = 0; k < no; k++)
		if (strcmp(o[k], "target")) {
			nb_summary_shown(s, o[k], nb_jstr(at, o[k]), v, sizeof(v));
			put(out, len, &l, "%s%s%s%s", l ? ", " : "", nb_words_dim(o[k])->bare ?
			    o[k] : "", nb_words_dim(o[k])->bare ? "=" : "", v);
		}
}

void nb_decide_detail(struct nb_sctx *s)
{
	const json_t *x;
	size_t i;

	json_array_foreach(s->evidence, i, x) {
		const char *m = nb_jstr(x, "metric");
		char a[256], b[256], fa[32], fb[32], where_[1024], t[32], p[48] = "";

		nb_summary_shown(s, nb_jstr(x, "dim"), nb_jstr(x, "win"), a, sizeof(a));
		nb_summary_shown(s, nb_jstr(x, "dim"), nb_jstr(x, "run"), b, sizeof(b));
		nb_metric_fig(num(x, "wv"), m, fa, sizeof(fa));
		nb_metric_fig(num(x, "rv"), m, fb, sizeof(fb));
		nb_words_factor(num(x, "t"), num(x, "t"), t, sizeof(t));
		at_text(s, x, where_, sizeof(where_));
		if (yes(x, "low"))
			snprintf(p, sizeof(p), ", no test (n < 3)");
		else if (num(x, "p") >= 0)
			snprintf(p, sizeof(p), ", p=%.2g%s", num(x, "p"),
				 yes(x, "sig") ? "" : " (not significant)");
		nb_summary_fold(s->lines, "detail", "info", "%s (%s)%s%s: %s %s vs %s %s "
				"%s, %s%s; n=%lld/%lld, ±%.0f%%/±%.0f%%%s", nb_jstr(x, "what"),
				nb_jstr(x, "workload"), strncmp(where_, "on ", 3) ? ", " : " ",
				where_, a, fa, b, fb,
				nb_metric_find(m)->label, t, yes(x, "same") ?
				" (within the noise)" : "",
				(long long)json_integer_value(json_object_get(x, "nw")),
				(long long)json_integer_value(json_object_get(x, "nr")),
				num(x, "spw"), num(x, "spr"), p);
	}
}
