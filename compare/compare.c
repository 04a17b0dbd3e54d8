/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "compare.h"
#include "marks.h"
#include "../formats/failure.h"
#include "../core/escape.h"
#include "../core/err.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"
#include "../decision/words.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXV 4096                /* iterations read per side */
#define MAXRUNS 256              /* base runs (a history baseline) */

void nb_compare_opts_init(struct nb_compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->display = NB_GATE_MAX_REGRESS_PCT / 100.0;
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

	/* a failure walk's entries are matched in their box state */
	if (!by_workload)
		return nb_result_find_state(doc, nb_jstr(wl, "target"),
					    nb_jstr(wl, "workload"), nb_jstr(wl, "state"));
	json_array_foreach(json_object_get(doc, "results"), i, e)
		if (!strcmp(nb_jstr(e, "workload"), nb_jstr(wl, "workload")) &&
		    !strcmp(nb_jstr(e, "state"), nb_jstr(wl, "state")))
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

/* Ok, or measured in part: an unmeasured entry is compared, its rows
 * unmeasured (mark_unmeasured). */
static int is_ok(const json_t *wl)
{
	return !strcmp(nb_jstr(wl, "status"), "ok") ||
	       !strcmp(nb_jstr(wl, "status"), "unmeasured");
}

static int has_metric(const void *wl, const char *name)
{
	json_t *it;
	size_t i;

	json_array_foreach(json_object_get(wl, "iterations"), i, it)
		if (json_is_number(json_object_get(json_object_get(it, "metrics"), name)))
			return 1;
	return 0;
}

/* Numeric metrics of WL's iterations, in display order. */
static json_t *metric_order(const json_t *wl)
{
	json_t *seen = json_object(), *order = json_array(), *m, *it, *v;
	const char *name, **names;
	size_t i, k = 0;

	json_array_foreach(json_object_get(wl, "iterations"), i, it)
		json_object_foreach(json_object_get(it, "metrics"), name, m)
			if (json_is_number(m))
				json_object_set_new(seen, name, json_true());
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

/* The metric a workload's verdict is made on: the gate file's choice, MB/s
 * for a sequential workload, IOPS for a random one, else the first of a
 * list of headline figures, else the first metric with a direction. */
static const char *primary_metric(const json_t *b, struct nb_gate *gate,
				  const json_t *order)
{
	const char *pat = nb_jstr(json_object_get(b, "spec"), "pattern");
	const char *g = nb_gate_primary(gate, nb_jstr(b, "workload"));
	json_t *v;
	size_t i;

	if (g)
		return g;
	g = nb_metric_headline(!strcmp(pat, "rand"), has_metric, b);
	if (g)
		return g;
	json_array_foreach(order, i, v)
		if (nb_metric_find(json_string_value(v))->better)
			return json_string_value(v);
	return json_string_value(json_array_get(order, 0));
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The values of METRIC in WL with each iteration's "run" (0 without). */
static int values(const json_t *wl, const char *metric, double *v, int *run,
		  int *several)
{
	json_t *it, *m;
	size_t i;
	int n = 0;

	*several = 0;
	json_array_foreach(json_object_get(wl, "iterations"), i, it) {
		m = json_object_get(json_object_get(it, "metrics"), metric);
		if (!json_is_number(m) || n == MAXV)
			continue;
		v[n] = json_number_value(m);
		run[n] = (int)json_integer_value(json_object_get(it, "run"));
		if (run[n] < 0 || run[n] >= MAXRUNS)
			run[n] = 0;
		*several |= run[n] != 0;
		n++;
	}
	return n;
}

struct ctx {
	struct nb_gate *gate;
	const struct nb_compare_opts *co;
	int regressions, changed, inconclusive;
	json_t *warnings;
	int quiet;               /* judging what cannot regress */
};

static int gating(const struct ctx *c)
{
	return c->gate->max_regress != NB_GATE_OFF && !c->quiet;
}

/* The row object of judgement J (THR: the gated threshold, or
 * NB_GATE_OFF). */
static json_t *row_json(const json_t *b, const char *metric,
			const struct nb_metric *m, const struct nb_judgement *j,
			double thr, const char *reason)
{
	int gated = thr != NB_GATE_OFF;
	json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:f, s:o, s:o, s:o, "
		      "s:i, s:i, s:i, s:o, s:o, s:o, s:o, s:s, s:b, s:b, s:b, s:s}",
		      "target", nb_jstr(b, "target"), "workload", nb_jstr(b, "workload"),
		      "metric", metric, "label", m->label, "unit", m->unit,
		      "better", m->better > 0 ? "higher" : m->better < 0 ?
		      "lower" : "neither", "scale", m->show_scale,
		      "base", num_or_null(j->base), "new", num_or_null(j->new_),
		      "change_pct", num_or_null(j->change * 100),
		      "n_base", j->nbase, "n_new", j->nnew, "runs", j->runs,
		      "test", j->test ? json_string(j->test) : json_null(),
		      "p", num_or_null(j->p), "noise_pct", num_or_null(j->noise * 100),
		      "threshold_pct", !gated ? json_null() : json_real(thr * 100),
		      "verdict", nb_verdict_name(j->verdict),
		      "low_confidence", j->low_confidence,
		      "regression", j->regression, "gated", gated, "reason", reason);

	json_object_set_new(r, "detect_down_pct", num_or_null(j->detect_down * 100));
	json_object_set_new(r, "detect_up_pct", num_or_null(j->detect_up * 100));
	json_object_set_new(r, "noise_measured", json_boolean(j->measured));
	json_object_set_new(r, "noise_runs", json_integer(j->ref_runs ? j->ref_runs :
							 j->runs));
	json_object_set_new(r, "inconclusive", json_boolean(j->inconclusive));
	return r;
}

/* --noise history: the variance of a run's level of METRIC of B measured
 * on the reference's runs of the same target and workload (at B's
 * settings: the history's baseline keeps only those), into JO. */
static void reference_noise(const struct ctx *c, const json_t *b,
			    const char *metric, struct nb_judge_opts *jo)
{
	static _Thread_local double v[MAXV];
	static _Thread_local int run[MAXV];
	const json_t *ref = c->co->noise_ref, *e;
	int several, n;

	if (!ref)
		return;
	e = nb_result_find(ref, nb_jstr(b, "target"), nb_jstr(b, "workload"));
	if (!e)
		return;
	n = values(e, metric, v, run, &several);
	jo->ref_runs = nb_judge_level_var(v, several ? run : NULL, n, &jo->ref_var);
}

/* The spread of V (N values): the sample sd as % of the median, as the
 * report's cells; 0 with fewer than two. */
static double spread_pct(const double *v, int n)
{
	struct nb_summary st;

	nb_stats_summary(v, n > 0 ? (size_t)n : 0, &st);
	return n > 1 && st.median > 0 ? 100 * st.stddev / st.median : 0;
}

/* What the row of METRIC of B is, in the decision's words, and the two
 * sides' spreads (NB, NN values of VB, VN). */
static void row_words(json_t *r, const json_t *b, const char *metric,
		      const double *vb, int nb, const double *vn, int nn)
{
	char what[160];

	nb_words_what(b, metric, what, sizeof(what));
	json_object_set_new(r, "what", json_string(what));
	json_object_set_new(r, "spread_base_pct", json_real(spread_pct(vb, nb)));
	json_object_set_new(r, "spread_new_pct", json_real(spread_pct(vn, nn)));
}

/* A row: the judgement of METRIC of B against N (N NULL: missing). */
static json_t *row(struct ctx *c, const json_t *b, const json_t *n,
		   const char *metric, int primary, json_t *settings,
		   const char *missing)
{
	static _Thread_local double vb[MAXV], vn[MAXV];
	static _Thread_local int rb[MAXV], rn[MAXV];
	const struct nb_metric *m = nb_metric_find(metric);
	int several, named = 0, nb = values(b, metric, vb, rb, &several);
	int nn = n ? values(n, metric, vn, rn, &(int){ 0 }) : 0;
	double thr = nb_gate_threshold(c->gate, nb_jstr(b, "workload"), metric, &named);
	int gated = gating(c) && thr != NB_GATE_OFF && (primary || named);
	struct nb_judge_opts jo = {
		.threshold = gated ? thr : NB_GATE_OFF,
		.display = thr != NB_GATE_OFF ? thr : c->co->display,
		.alpha = c->gate->alpha, .run_noise = NB_JUDGE_RUN_NOISE,
		.strict = c->co->strict,
	};
	struct nb_judgement j;
	const char *reason = "";
	json_t *r;

	if (missing)
		nn = 0;
	if (!several)
		reference_noise(c, b, metric, &jo);
	if (nn) {
		nb_judge(vb, several ? rb : NULL, nb, vn, nn, m->better, &jo, &j);
		nb_compare_mark_unsteady(b, n, c->co->allow_unsteady, &j, &reason);
	} else {
		memset(&j, 0, sizeof(j));
		j.base = nb_judge_level(vb, several ? rb : NULL, nb);
		j.new_ = j.change = j.p = j.noise = NAN;
		j.detect_down = j.detect_up = NAN;
		j.nbase = nb;
		j.runs = 1;
		j.verdict = NB_V_MISSING;
		j.regression = gating(c) && !c->co->allow_missing;
		reason = missing ? missing : "metric not in the new result";
		if (gating(c) && c->co->allow_missing)
			json_array_append_new(c->warnings, n ? json_sprintf(
				"%s/%s %s: %s (allowed by --allow-missing)",
				nb_jstr(b, "target"), nb_jstr(b, "workload"), metric,
				reason) : json_sprintf("%s/%s: %s (allowed by --allow-missing)",
				nb_jstr(b, "target"), nb_jstr(b, "workload"), reason));
	}
	if (settings && json_array_size(settings)) {
		if (!c->co->allow_changed || !gating(c)) {
			j.verdict = NB_V_SETTINGS;
			j.regression = 0;
			c->changed += gating(c);
		}
	}
	/* settings that differ say more than the samples do */
	if (nn && j.verdict != NB_V_SETTINGS)
		nb_compare_mark_unmeasured(b, n, metric, &j, &reason);
	if (j.verdict == NB_V_INCONCLUSIVE && gated)
		reason = nb_compare_inconclusive_why(&j, m->better);
	c->regressions += j.regression;
	j.inconclusive &= gated && j.verdict != NB_V_SETTINGS &&
			  j.verdict != NB_V_UNSTEADY && j.verdict != NB_V_MISSING;
	c->inconclusive += j.inconclusive;
	r = row_json(b, metric, m, &j, gated ? thr : NB_GATE_OFF, reason);
	row_words(r, b, metric, vb, nb, vn, nn);
	if (j.verdict == NB_V_MISSING && isinf(j.change))
		json_object_set_new(r, "change_pct", json_null());
	if (*nb_jstr(b, "state"))
		json_object_set_new(r, "state", json_string(nb_jstr(b, "state")));
	if (settings)
		json_object_set(r, "settings", settings);
	return r;
}

static json_t *wl_name(const json_t *wl)
{
	return json_sprintf("%s/%s%s%s", nb_jstr(wl, "target"), nb_jstr(wl, "workload"),
			    *nb_jstr(wl, "state") ? " " : "", nb_jstr(wl, "state"));
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

/* ---- settings ---- */

/* The spec keys that make two figures comparable (nasbench's and fio's
 * names alike). */
static json_t *shown(const json_t *v)
{
	char *t;
	json_t *r;

	if (json_is_string(v))
		return json_incref((json_t *)v);
	t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	r = json_string(t ? t : "");
	free(t);
	return r;
}

static json_t *target_url(const json_t *doc, const char *target)
{
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(doc, "targets"), i, t)
		if (!strcmp(nb_jstr(t, "name"), target))
			return json_object_get(t, "url");
	return NULL;
}

/* The settings of B and N that differ: [{key, base, new}]. */
static json_t *settings_diff(const json_t *bdoc, const json_t *b,
			     const json_t *ndoc, const json_t *n, int by_wl)
{
	json_t *sb = json_object_get(b, "spec"), *sn = json_object_get(n, "spec");
	json_t *out = json_array();

	if (json_is_object(sb) && json_is_object(sn) && json_object_size(sb) &&
	    json_object_size(sn))
		for (size_t i = 0; nb_result_settings[i]; i++) {
			json_t *x = json_object_get(sb, nb_result_settings[i]);
			json_t *y = json_object_get(sn, nb_result_settings[i]);

			/* a key one side does not record (a published profile, an
			 * older result) cannot be told to differ */
			if (x && y && !json_equal(x, y))
				json_array_append_new(out, json_pack("{s:s, s:o, s:o}",
					"key", nb_result_settings[i], "base", shown(x),
					"new", shown(y)));
		}
	if (!by_wl) {
		json_t *ub = target_url(bdoc, nb_jstr(b, "target"));
		json_t *un = target_url(ndoc, nb_jstr(n, "target"));

		if (ub && un && !json_equal(ub, un))
			json_array_append_new(out, json_pack("{s:s, s:O, s:O}", "key",
							     "url", "base", ub, "new", un));
	}
	return out;
}

/* What the box did during N's iterations (docs/telemetry.md): each
 * verdict a warning of the comparison, so that a figure that changed
 * because the box swapped or cached says so beside it. */
static void box_verdicts(struct ctx *c, const json_t *n)
{
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(n, "box_verdicts"), i, v)
		json_array_append_new(c->warnings, json_sprintf("%s/%s (new): %s",
			nb_jstr(n, "target"), nb_jstr(n, "workload"),
			nb_jstr(v, "text")));
}

/* ---- one workload ---- */

static void workload(struct ctx *c, const json_t *bdoc, const json_t *b,
		     const json_t *ndoc, const json_t *n, int by_wl,
		     json_t *verdicts, json_t *rows)
{
	json_t *order = metric_order(b), *settings, *v;
	const char *prim = primary_metric(b, c->gate, order);
	char why[1024];
	size_t i;

	if (!prim)
		prim = "-";
	if (!n || !is_ok(b) || !is_ok(n)) {
		/* ok -> anything else is missing: a gate must not pass because
		 * the workload stopped being measured (skipped included) */
		const char *rs = n && *nb_jstr(n, "reason") ? nb_jstr(n, "reason") :
				 nb_jstr(b, "reason");

		if (!n)
			snprintf(why, sizeof(why), "not in the new result");
		else
			snprintf(why, sizeof(why), "%s -> %s%s%s%s", nb_jstr(b, "status"),
				 nb_jstr(n, "status"), *rs ? " (" : "", rs, *rs ? ")" : "");
		if (n && !is_ok(b)) {
			/* not measured in BASE: nothing to lose */
			json_t *r;

			c->quiet = 1;
			r = row(c, b, NULL, prim, 0, NULL, why);
			c->quiet = 0;
			json_object_set_new(r, "verdict", json_string(
				is_ok(n) ? "better" : "unchanged"));
			json_array_append_new(verdicts, r);
		} else {
			json_array_append_new(verdicts, row(c, b, NULL, prim, 1, NULL, why));
		}
		json_decref(order);
		return;
	}
	settings = settings_diff(bdoc, b, ndoc, n, by_wl);
	if (json_array_size(settings) && c->co->allow_changed && gating(c))
		json_array_append_new(c->warnings, json_sprintf(
			"%s/%s: settings differ (allowed by --allow-changed)",
			nb_jstr(b, "target"), nb_jstr(b, "workload")));
	json_array_append_new(verdicts, row(c, b, n, prim, 1, settings,
					    has_metric(n, prim) ? NULL :
					    "metric not in the new result"));
	box_verdicts(c, n);
	json_array_foreach(order, i, v) {
		const char *name = json_string_value(v);

		if (!strcmp(name, prim))
			continue;
		/* the box's telemetry (box_*) may be off in one of the runs:
		 * a figure of the box, not one the new run lost */
		c->quiet = !strncmp(name, "box_", 4) && !has_metric(n, name);
		json_array_append_new(rows, row(c, b, n, name, 0, NULL,
			has_metric(n, name) ? NULL : "metric not in the new result"));
		c->quiet = 0;
	}
	json_decref(settings);
	json_decref(order);
}

static int row_cmp(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	const char *names[2] = { nb_jstr(x, "metric"), nb_jstr(y, "metric") };

	if (!strcmp(names[0], names[1]))
		return 0;
	nb_metric_sort(names, 2);
	return names[0] == nb_jstr(x, "metric") ? -1 : 1;
}

/* Rows grouped by metric, in display order, workloads in BASE's order. */
static json_t *group_rows(json_t *rows)
{
	size_t n = json_array_size(rows), i, k;
	json_t **v = calloc(n + 1, sizeof(*v)), *out = json_array();

	for (i = 0; i < n; i++)
		v[i] = json_array_get(rows, i);
	/* stable: insertion sort by metric order */
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && row_cmp(&v[k - 1], &v[k]) > 0; k--) {
			json_t *t = v[k];

			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	for (i = 0; i < n; i++)
		json_array_append(out, v[i]);
	free(v);
	json_decref(rows);
	return out;
}

int nb_compare(const json_t *base, const char *base_name, const json_t *new_,
	       const char *new_name, struct nb_gate *gate,
	       const struct nb_compare_opts *co, json_t **out)
{
	json_t *verdicts = json_array(), *rows = json_array(), *wl;
	const char *tb = single_target(base), *tn = single_target(new_);
	struct ctx c = { gate, co, 0, 0, 0, json_array(), 0 };
	int by_wl = 0;
	size_t i;

	*out = NULL;
	if (!count_matches(base, new_, 0)) {
		if (tb && tn && count_matches(base, new_, 1)) {
			by_wl = 1;
		} else {
			json_decref(verdicts), json_decref(rows), json_decref(c.warnings);
			return nb_err(-EINVAL, "'%s' and '%s' have no target and "
				      "workload in common", base_name, new_name);
		}
	}
	json_array_foreach(json_object_get(base, "results"), i, wl)
		workload(&c, base, wl, new_, partner(new_, wl, by_wl), by_wl,
			 verdicts, rows);
	*out = json_pack("{s:s, s:s, s:o, s:s, s:o, s:o, s:o, s:o, s:i, s:i, s:i}",
			 "base", base_name, "new", new_name,
			 "labels", label_diff(base, new_),
			 "matched_by", by_wl ? "workload" : "target+workload",
			 "verdicts", verdicts, "rows", group_rows(rows),
			 "only_new", unmatched(new_, base, by_wl),
			 "warnings", c.warnings,
			 "regressions", c.regressions,
			 "changed_settings", c.changed,
			 "inconclusive", c.inconclusive);
	if (by_wl)
		json_object_set_new(*out, "targets", json_pack("{s:s, s:s}", "base",
							       tb, "new", tn));
	/* failure walks: what each keeps degraded and rebuilding, side by
	 * side (docs/failure.md) */
	if (json_object_get(base, "failure") || json_object_get(new_, "failure"))
		json_object_set_new(*out, "failure", json_pack("{s:o*, s:o*}",
			"base", nb_failure_summary(base), "new",
			nb_failure_summary(new_)));
	if (co->noise_from)
		json_object_set_new(*out, "noise_from", json_string(co->noise_from));
	return 0;
}

json_t *nb_compare_doc(json_t *comps, const struct nb_gate *gate,
		       const struct nb_compare_opts *co)
{
	json_t *c;
	size_t i;
	json_int_t n = 0, ch = 0, inc = 0;
	const char *outcome;

	json_array_foreach(comps, i, c) {
		n += json_integer_value(json_object_get(c, "regressions"));
		ch += json_integer_value(json_object_get(c, "changed_settings"));
		inc += json_integer_value(json_object_get(c, "inconclusive"));
	}
	outcome = gate->max_regress == NB_GATE_OFF ? "not gated" : n ? "regression" :
		  ch ? "changed settings" : inc ? "inconclusive" : "pass";
	return json_pack("{s:s, s:i, s:o, s:f, s:f, s:b, s:b, s:b, s:I, s:I, s:I, "
			 "s:s, s:o}",
			 "tool", "nasbench", "compare", 3, "max_regress_pct",
			 gate->max_regress == NB_GATE_OFF ? json_null() :
			 json_real(gate->max_regress * 100),
			 "alpha", gate->alpha, "run_noise_pct", NB_JUDGE_RUN_NOISE * 100,
			 "strict", co->strict, "allow_missing", co->allow_missing,
			 "allow_changed", co->allow_changed,
			 "regressions", n, "changed_settings", ch, "inconclusive", inc,
			 "outcome", outcome, "comparisons", comps);
}
