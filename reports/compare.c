#include "compare.h"
#include "escape.h"
#include "../core/err.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXV 4096                /* iterations read per side */

const char *nb_verdict_name(enum nb_verdict v)
{
	static const char *names[] = { "unchanged", "better", "worse", "noise",
				       "changed" };

	return names[v];
}

static int separated(const double *a, int na, const double *b, int nb)
{
	double amin = a[0], amax = a[0], bmin = b[0], bmax = b[0];

	for (int i = 1; i < na; i++)
		amin = fmin(amin, a[i]), amax = fmax(amax, a[i]);
	for (int i = 1; i < nb; i++)
		bmin = fmin(bmin, b[i]), bmax = fmax(bmax, b[i]);
	return bmin > amax || bmax < amin;
}

/* Welch on logarithms: benchmark noise is multiplicative (a run is a few
 * percent faster or slower), so the test looks at ratios. */
static double welch_log(const double *a, int na, const double *b, int nb)
{
	double la[MAXV], lb[MAXV];

	for (int i = 0; i < na; i++)
		if (a[i] <= 0)
			return nb_stats_welch_p(a, (size_t)na, b, (size_t)nb);
	for (int i = 0; i < nb; i++)
		if (b[i] <= 0)
			return nb_stats_welch_p(a, (size_t)na, b, (size_t)nb);
	for (int i = 0; i < na; i++)
		la[i] = log(a[i]);
	for (int i = 0; i < nb; i++)
		lb[i] = log(b[i]);
	return nb_stats_welch_p(la, (size_t)na, lb, (size_t)nb);
}

/* Is the difference significant?  Sets j->test and j->p. */
static int significant(const double *b, int nb, const double *n, int nn,
		       double alpha, struct nb_judgement *j)
{
	struct nb_mw mw;

	if (nb_stats_mw_pmin((size_t)nb, (size_t)nn) < alpha) {
		nb_stats_mann_whitney(b, (size_t)nb, n, (size_t)nn, &mw);
		j->test = "mann-whitney";
		j->p = mw.p;
		return mw.p < alpha;
	}
	j->test = "welch-log";
	j->p = welch_log(b, nb, n, nn);
	return j->p < alpha && separated(b, nb, n, nn);
}

void nb_compare_judge(const double *base, int nbase, const double *new_,
		      int nnew, int better, double threshold,
		      double display_thr, double alpha, struct nb_judgement *j)
{
	double thr = threshold == NB_GATE_OFF ? display_thr : threshold;
	int beyond, good;

	memset(j, 0, sizeof(*j));
	j->nbase = nbase;
	j->nnew = nnew;
	j->p = NAN;
	j->base = nb_stats_median(base, (size_t)nbase);
	j->new_ = nb_stats_median(new_, (size_t)nnew);
	if (j->base != 0)
		j->change = (j->new_ - j->base) / fabs(j->base);
	else
		j->change = j->new_ == 0 ? 0 : copysign(INFINITY, j->new_);
	/* the tiny slack keeps "exactly 5%" on the unchanged side despite
	 * rounding in (new - base) / base */
	beyond = fabs(j->change) > thr + 1e-12;
	good = better == 0 ? 0 : (j->change > 0) == (better > 0);
	j->low_confidence = nbase < 3 || nnew < 3;
	if (nbase >= 2 && nnew >= 2 && !j->low_confidence) {
		if (!significant(base, nbase, new_, nnew, alpha, j) && beyond) {
			j->verdict = NB_V_NOISE;
			return;
		}
	}
	if (!beyond)
		j->verdict = NB_V_UNCHANGED;
	else if (better == 0)
		j->verdict = NB_V_CHANGED;
	else
		j->verdict = good ? NB_V_BETTER : NB_V_WORSE;
	j->regression = j->verdict == NB_V_WORSE && threshold != NB_GATE_OFF;
}

/* ---- the comparison document ---- */

static json_t *label_diff(const json_t *a, const json_t *b)
{
	json_t *la = json_object_get(a, "labels"), *lb = json_object_get(b, "labels");
	json_t *out = json_array(), *v;
	const char *k;

	json_object_foreach(la, k, v) {
		const char *x = json_string_value(v) ?: "";
		const char *y = json_string_value(json_object_get(lb, k));

		if (!y || strcmp(x, y))
			json_array_append_new(out, json_pack("{s:s, s:s, s:s}", "key",
							     k, "base", x, "new",
							     y ? y : ""));
	}
	json_object_foreach(lb, k, v)
		if (!json_object_get(la, k))
			json_array_append_new(out, json_pack(
				"{s:s, s:s, s:s}", "key", k, "base", "", "new",
				json_string_value(v) ?: ""));
	return out;
}

/* The only target of a run, or NULL when it has several. */
static const char *single_target(const json_t *doc)
{
	const char *t = NULL;
	json_t *wl;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		if (t && strcmp(t, nb_jstr(wl, "target")))
			return NULL;
		t = nb_jstr(wl, "target");
	}
	return t;
}

static json_t *partner(const json_t *doc, const json_t *wl, int by_workload)
{
	json_t *e;
	size_t i;

	if (!by_workload)
		return nb_result_find(doc, nb_jstr(wl, "target"), nb_jstr(wl, "workload"));
	json_array_foreach(json_object_get(doc, "results"), i, e)
		if (!strcmp(nb_jstr(e, "workload"), nb_jstr(wl, "workload")))
			return e;
	return NULL;
}

static int count_matches(const json_t *base, const json_t *new_, int by_wl)
{
	json_t *wl;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(base, "results"), i, wl)
		n += partner(new_, wl, by_wl) != NULL;
	return n;
}

static int is_ok(const json_t *wl)
{
	return !strcmp(nb_jstr(wl, "status"), "ok");
}

/* Metrics measured on both sides of some pair, in display order. */
static json_t *metric_order(const json_t *pairs)
{
	json_t *seen = json_object(), *order = json_array(), *pair, *m, *it, *v;
	const char *name, **names;
	size_t i, j, k = 0;

	json_array_foreach(pairs, i, pair) {
		json_t *b = json_array_get(pair, 0), *n = json_array_get(pair, 1);
		json_t *n0 = json_object_get(json_array_get(
			json_object_get(n, "iterations"), 0), "metrics");

		json_array_foreach(json_object_get(b, "iterations"), j, it)
			json_object_foreach(json_object_get(it, "metrics"), name, m)
				if (json_is_number(m) && json_object_get(n0, name))
					json_object_set_new(seen, name, json_true());
	}
	names = calloc(json_object_size(seen) + 1, sizeof(*names));
	json_object_foreach(seen, name, v)
		names[k++] = name;
	nb_metric_sort(names, k);
	for (i = 0; i < k; i++)
		json_array_append_new(order, json_string(names[i]));
	free(names);
	json_decref(seen);
	return order;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *row(const json_t *b, const json_t *n, const char *metric,
		   struct nb_gate *gate, int *regressions)
{
	static _Thread_local double vb[MAXV], vn[MAXV];
	const struct nb_metric *m = nb_metric_find(metric);
	int nb = nb_result_values(b, metric, vb, MAXV);
	int nn = nb_result_values(n, metric, vn, MAXV);
	double thr = nb_gate_threshold(gate, nb_jstr(b, "workload"), metric);
	struct nb_judgement j;

	if (!nb || !nn)
		return NULL;
	nb_compare_judge(vb, nb, vn, nn, m->better, thr, gate->max_regress,
			 gate->alpha, &j);
	*regressions += j.regression;
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:f, s:o, s:o, s:o, "
			 "s:i, s:i, s:o, s:o, s:o, s:s, s:b, s:b}",
			 "target", nb_jstr(b, "target"), "workload", nb_jstr(b, "workload"),
			 "metric", metric, "label", m->label, "unit", m->unit,
			 "better", m->better > 0 ? "higher" : m->better < 0 ?
			 "lower" : "neither", "scale", m->show_scale,
			 "base", json_real(j.base), "new", json_real(j.new_),
			 "change_pct", num_or_null(j.change * 100),
			 "n_base", nb, "n_new", nn,
			 "test", j.test ? json_string(j.test) : json_null(),
			 "p", num_or_null(j.p),
			 "threshold_pct", thr == NB_GATE_OFF ? json_null() :
			 json_real(thr * 100),
			 "verdict", nb_verdict_name(j.verdict),
			 "low_confidence", j.low_confidence,
			 "regression", j.regression);
}

static json_t *wl_name(const json_t *wl)
{
	return json_sprintf("%s/%s", nb_jstr(wl, "target"), nb_jstr(wl, "workload"));
}

/* Entries without a partner on the other side. */
static json_t *unmatched(const json_t *from, const json_t *other, int by_wl)
{
	json_t *out = json_array(), *wl;
	size_t i;

	json_array_foreach(json_object_get(from, "results"), i, wl)
		if (!partner(other, wl, by_wl))
			json_array_append_new(out, wl_name(wl));
	return out;
}

static json_t *status_row(const json_t *b, const json_t *n, int *regressions)
{
	/* ok -> anything else is a regression: a gate must not pass because
	 * the workload stopped being measured (skipped included) */
	int reg = is_ok(b) && !is_ok(n);

	*regressions += reg;
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:b}", "target",
			 nb_jstr(b, "target"), "workload", nb_jstr(b, "workload"), "base",
			 nb_jstr(b, "status"), "new", nb_jstr(n, "status"), "reason",
			 nb_jstr(n, "reason")[0] ? nb_jstr(n, "reason") : nb_jstr(b, "reason"),
			 "regression", reg);
}

int nb_compare(const json_t *base, const char *base_name, const json_t *new_,
	       const char *new_name, struct nb_gate *gate, json_t **out)
{
	json_t *pairs = json_array(), *rows = json_array(), *status = json_array();
	json_t *order, *wl, *mname, *pair;
	const char *tb = single_target(base), *tn = single_target(new_);
	int by_wl = 0, regressions = 0;
	size_t i, k;

	*out = NULL;
	if (!count_matches(base, new_, 0)) {
		if (tb && tn && count_matches(base, new_, 1)) {
			by_wl = 1;
		} else {
			json_decref(pairs), json_decref(rows), json_decref(status);
			return nb_err(-EINVAL, "'%s' and '%s' have no target and "
				      "workload in common", base_name, new_name);
		}
	}
	json_array_foreach(json_object_get(base, "results"), i, wl) {
		json_t *n = partner(new_, wl, by_wl);

		if (!n)
			continue;
		if (is_ok(wl) && is_ok(n))
			json_array_append_new(pairs, json_pack("[O, O]", wl, n));
		else
			json_array_append_new(status, status_row(wl, n, &regressions));
	}
	order = metric_order(pairs);
	json_array_foreach(order, k, mname)
		json_array_foreach(pairs, i, pair) {
			json_t *r = row(json_array_get(pair, 0), json_array_get(pair, 1),
					json_string_value(mname), gate, &regressions);

			if (r)
				json_array_append_new(rows, r);
		}
	*out = json_pack("{s:s, s:s, s:o, s:s, s:o, s:o, s:o, s:o, s:i}",
			 "base", base_name, "new", new_name,
			 "labels", label_diff(base, new_),
			 "matched_by", by_wl ? "workload" : "target+workload",
			 "rows", rows, "status", status,
			 "only_base", unmatched(base, new_, by_wl),
			 "only_new", unmatched(new_, base, by_wl),
			 "regressions", regressions);
	if (by_wl)
		json_object_set_new(*out, "targets", json_pack("{s:s, s:s}", "base",
							       tb, "new", tn));
	json_decref(order);
	json_decref(pairs);
	return 0;
}

json_t *nb_compare_doc(json_t *comps, const struct nb_gate *gate)
{
	json_t *c;
	size_t i;
	json_int_t n = 0;

	json_array_foreach(comps, i, c)
		n += json_integer_value(json_object_get(c, "regressions"));
	return json_pack("{s:s, s:i, s:f, s:f, s:I, s:o}", "tool", "nasbench",
			 "compare", 1, "max_regress_pct", gate->max_regress * 100,
			 "alpha", gate->alpha, "regressions", n, "comparisons", comps);
}
