/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * accept.c - acceptance: evaluate criteria on a result, and the criteria
 * suite 'accept' implies (the accept column of its workloads, on every
 * target they apply to).
 */
#include "accept.h"
#include "failure_crit.h"
#include "../core/err.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/samples.h"
#include "../core/stats.h"
#include "../workloads/workload.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- evaluation ---- */

static double pick(const double *v, int n, int stat, int better)
{
	struct nb_summary s;

	nb_stats_summary(v, (size_t)n, &s);
	switch (stat) {
	case NB_ST_MEAN: return s.mean;
	case NB_ST_MIN: return s.min;
	case NB_ST_MAX: return s.max;
	case NB_ST_WORST: return better == NB_LOWER ? s.max : s.min;
	case NB_ST_BEST: return better == NB_LOWER ? s.min : s.max;
	default: return s.median;
	}
}

static int holds(double m, int op, double r)
{
	switch (op) {
	case NB_OP_GE: return m >= r;
	case NB_OP_LE: return m <= r;
	case NB_OP_GT: return m > r;
	case NB_OP_LT: return m < r;
	case NB_OP_EQ: return m == r;
	default: return m != r;
	}
}

/* A figure in user units: "80", "81.3", "yes". */
static json_t *user_value(const struct nb_criterion *c, double stored)
{
	double v = stored * c->factor;

	if (c->boolean)
		return json_string(stored != 0 ? "yes" : "no");
	/* whole numbers stay whole; others keep 4 significant decimals */
	if (fabs(v - round(v)) < 1e-9 && fabs(v) < 1e15)
		return json_integer((json_int_t)llround(v));
	return json_real(round(v * 1e4) / 1e4);
}

/* The error of target NAME in DOC ("targets"[].error), or NULL. */
static const char *target_error(const json_t *doc, const char *name)
{
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(doc, "targets"), i, t)
		if (!strcmp(nb_jstr(t, "name"), name))
			return json_string_value(json_object_get(t, "error"));
	return NULL;
}

/* A figure of a steady-state run that did not settle: say so by it. */
static void not_steady(json_t *o, const json_t *wl)
{
	const json_t *s = json_object_get(wl, "steady");

	if (!s || json_is_true(json_object_get(s, "reached")))
		return;
	json_object_set_new(o, "not_steady", json_true());
	json_object_set_new(o, "reason", json_sprintf(
		"not steady (%s): measured on the last window of rounds",
		nb_jstr(s, "why")));
}

/* A crashcheck figure of an entry with an iteration in which no crash was
 * observed and nothing lost: that iteration proves nothing, so no
 * criterion on its losses may pass.  The reason, or NULL. */
static const char *unproven(const struct nb_criterion *c, const json_t *wl,
			    char *why, size_t len)
{
	const json_t *v = json_object_get(wl, "crash_verdict");

	if (strncmp(c->stored, "crash_", 6) || !strcmp(c->stored, "crash_acked") ||
	    !json_integer_value(json_object_get(v, "unproven")))
		return NULL;
	snprintf(why, len, "unproven: %s", nb_jstr(v, "summary"));
	return why;
}

/* A figure without the samples to carry it proves nothing
 * (core/samples.h): the box is not accepted on it.  The reason, or
 * NULL. */
static const char *unmeasured(const struct nb_criterion *c, const json_t *wl,
			      char *why, size_t len)
{
	if (!nb_samples_entry_short(wl, c->stored))
		return NULL;
	snprintf(why, len, "unmeasured: '%s' on '%s' timed too few I/Os for '%s' "
		 "(it needs %llu an iteration): run longer", c->workload,
		 c->target, c->stored,
		 (unsigned long long)nb_samples_need(c->stored));
	return why;
}

static json_t *eval_one(const struct nb_criterion *c, const json_t *doc)
{
	const json_t *wl = nb_result_find_state(doc, c->target, c->workload,
						c->state);
	const char *status = wl ? json_string_value(json_object_get(wl, "status")) : NULL;
	const char *reason = wl ? json_string_value(json_object_get(wl, "reason")) : NULL;
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:s, s:b}",
			      "criterion", c->text, "where", c->where,
			      "workload", c->workload, "target", c->target,
			      "metric", c->metric, "stored_metric", c->stored,
			      "statistic", nb_accept_stat_name(c->stat),
			      "op", nb_accept_op_name(c->op), "required",
			      user_value(c, c->required), "unit", c->unit,
			      "implied", c->implied);
	char why[600];
	double v[1024], m;
	int n;

	if (*c->state)
		json_object_set_new(o, "state", json_string(c->state));
	if (!wl) {
		const char *terr = target_error(doc, c->target);

		if (terr)
			snprintf(why, sizeof(why), "'%s' did not run: target '%s' "
				 "could not be used: %s", c->workload, c->target, terr);
		else if (*c->state)
			snprintf(why, sizeof(why), "'%s' did not run on '%s' %s (%s)",
				 c->workload, c->target, c->state,
				 json_object_get(doc, "failure") ? "not measured in that "
				 "state of the failure walk" : "no failure walk ran");
		else
			snprintf(why, sizeof(why), "'%s' did not run on '%s' (not in "
				 "the plan)", c->workload, c->target);
		goto fail;
	}
	n = nb_result_values(wl, c->stored, v, 1024);
	json_object_set_new(o, "iterations", json_integer(n));
	if (status && strcmp(status, "ok")) {
		snprintf(why, sizeof(why), "'%s' on '%s' %s%s%s", c->workload,
			 c->target, status, reason ? ": " : "", reason ? reason : "");
		goto fail;
	}
	if (!n && unproven(c, wl, why, sizeof(why)))
		goto fail;
	if (n && unmeasured(c, wl, why, sizeof(why)))
		goto fail;
	if (!n) {
		snprintf(why, sizeof(why), "'%s' on '%s' has no figure '%s'",
			 c->workload, c->target, c->stored);
		goto fail;
	}
	m = pick(v, n, c->stat, nb_metric_find(c->stored)->better);
	json_object_set_new(o, "measured", user_value(c, m));
	not_steady(o, wl);
	if (holds(m, c->op, c->required) && unproven(c, wl, why, sizeof(why))) {
		/* the iterations that saw a crash pass; one that saw none
		 * proves nothing: the box is not accepted on it */
		json_object_set_new(o, "verdict", json_string("fail"));
		json_object_set_new(o, "reason", json_string(why));
		return o;
	}
	if (!holds(m, c->op, c->required)) {
		json_object_set_new(o, "verdict", json_string("fail"));
		return o;
	}
	json_object_set_new(o, "verdict", json_string("pass"));
	return o;
fail:
	json_object_set_new(o, "measured", json_null());
	json_object_set_new(o, "verdict", json_string("fail"));
	json_object_set_new(o, "reason", json_string(why));
	return o;
}

json_t *nb_accept_eval(const struct nb_accept *a, const json_t *doc, int *failed)
{
	json_t *list = json_array();
	int pass = 0, fail = 0;

	for (int i = 0; i < a->n; i++) {
		json_t *o = a->c[i].walk ? nb_accept_eval_walk(&a->c[i], doc) :
			    eval_one(&a->c[i], doc);

		if (!strcmp(json_string_value(json_object_get(o, "verdict")), "pass"))
			pass++;
		else
			fail++;
		json_array_append_new(list, o);
	}
	*failed = fail;
	return json_pack("{s:s, s:i, s:i, s:o}", "verdict", fail ? "fail" : "pass",
			 "passed", pass, "failed", fail, "criteria", list);
}

/* ---- suite accept ---- */

/* The capabilities a result records for a target's runner. */
static unsigned target_caps(const json_t *t)
{
	const json_t *v;
	unsigned caps = 0;
	size_t i;

	json_array_foreach(json_object_get(t, "runner_caps"), i, v)
		caps |= nb_cap_find(json_string_value(v) ?: "");
	return caps;
}

/* One criterion of W's accept column ("METRIC OP VALUE") on TARGET. */
static int imply(struct nb_accept *a, const struct nb_workload *w,
		 const char *target, const char *line, size_t len)
{
	struct nb_criterion c;
	char text[256];

	snprintf(text, sizeof(text), "%s@%s %.*s", w->name, target, (int)len, line);
	if (nb_accept_parse(&c, text, "suite accept"))
		return -EINVAL;
	c.implied = 1;
	return nb_accept_add(a, &c) ? -ENOMEM : 0;
}

/* W's accept column on target NAME, when W can run there at all. */
static int imply_all(struct nb_accept *a, const struct nb_workload *w,
		     const char *name, const char *runner, unsigned caps)
{
	if (!w || !w->accept || !nb_workload_applies(w, runner, caps))
		return 0;
	for (const char *p = w->accept; *p;) {
		size_t len = strcspn(p, ";");
		int rc = imply(a, w, name, p, len);

		if (rc)
			return rc;
		p += len;
		p += strspn(p, "; ");
	}
	return 0;
}

/* The accept columns of suite accept's workloads, in the suite's order. */
int nb_accept_implied(struct nb_accept *a, const json_t *doc)
{
	const struct nb_suite *suite = nb_suite_find("accept");
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(doc, "targets"), i, t) {
		const char *name = json_string_value(json_object_get(t, "name"));
		const char *runner = json_string_value(json_object_get(t, "runner"));
		unsigned caps = target_caps(t);
		char list[256], *save = NULL;

		if (!name || !runner)
			continue;
		snprintf(list, sizeof(list), "%s", suite->workloads);
		for (char *w = strtok_r(list, ",", &save); w;
		     w = strtok_r(NULL, ",", &save)) {
			int rc = imply_all(a, nb_workload_find(w), name, runner, caps);

			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Whether entry WL of the result is one criterion C ("*" names) stands
 * for: a swept workload (for "*"; a replay for min_years) on any target
 * (for "*"). */
static int stands_for(const struct nb_criterion *c, const json_t *wl)
{
	const json_t *its = json_object_get(wl, "iterations");

	if (strcmp(c->target, "*") && strcmp(c->target, nb_jstr(wl, "target")))
		return 0;
	/* a criterion of a box state stands for that state's entries */
	if (strcmp(*c->state ? c->state : "healthy",
		   *nb_jstr(wl, "state") ? nb_jstr(wl, "state") : "healthy"))
		return 0;
	if (strcmp(c->workload, "*"))
		return !strcmp(c->workload, nb_jstr(wl, "workload"));
	/* the years are a replay's (its iterations' "replay" object), the
	 * other floors a sweep's */
	return json_object_get(json_array_get(its, 0), strcmp(c->stored, "years") ?
			       "sweep" : "replay") != NULL;
}

/* The floors min_vms, min_iops_at_slo, min_years ("*" names), one criterion for
 * each entry of DOC they stand for; one that stands for none is kept and
 * fails as not run. */
static int expand_any(struct nb_accept *a, const json_t *doc)
{
	struct nb_accept out;
	const json_t *wl;
	size_t j;

	nb_accept_init(&out);
	for (int i = 0; i < a->n; i++) {
		const struct nb_criterion *c = &a->c[i];
		int n = 0;

		if (c->walk) {
			if (nb_accept_expand_walk(&out, c, doc))
				goto nomem;
			continue;
		}
		if (strcmp(c->target, "*") && strcmp(c->workload, "*")) {
			if (nb_accept_add(&out, c))
				goto nomem;
			continue;
		}
		json_array_foreach(json_object_get(doc, "results"), j, wl) {
			struct nb_criterion e = *c;

			if (!stands_for(c, wl))
				continue;
			snprintf(e.workload, sizeof(e.workload), "%s", nb_jstr(wl, "workload"));
			snprintf(e.target, sizeof(e.target), "%s", nb_jstr(wl, "target"));
			snprintf(e.text, sizeof(e.text), "%.200s (%s@%s%s%s)", c->text,
				 e.workload, e.target, *c->state ? ":" : "", c->state);
			if (nb_accept_add(&out, &e))
				goto nomem;
			n++;
		}
		if (!n && nb_accept_add(&out, c))
			goto nomem;
	}
	nb_accept_free(a);
	*a = out;
	return 0;
nomem:
	nb_accept_free(&out);
	return -ENOMEM;
}

int nb_accept_finish(struct nb_accept *a, json_t *doc, int suite_accept)
{
	int failed = 0;

	if (expand_any(a, doc))
		return NB_EXIT_TARGET;

	if (suite_accept && nb_accept_implied(a, doc))
		nb_warn("%s", nb_err_last());
	if (!a->n)
		return NB_EXIT_OK;
	json_object_set_new(doc, "accept", nb_accept_eval(a, doc, &failed));
	return failed ? NB_EXIT_FAIL : NB_EXIT_OK;
}
