/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decide_lead.c - the decision of a capacity sweep, a failure walk and a
 * replay, said together for each box and target they measured:
 *
 *   lab-raidz1 on NFS carries 19 VMs like yours at p99 <= 20 ms; with a
 *   dead disk 15, while it rebuilds 12; today's load grows into it in
 *   4.4 years (25%/year)
 *
 * The VMs are a swept [vm] profile's at the objective (the healthy box's,
 * then each state of a failure walk's, the least of the rebuild's
 * rounds); the years a replay's: how long the headroom over today's load
 * lasts at its growth.  The per-entry lines stay in the detail.
 */
#include "summary.h"
#include "summary_int.h"
#include "../core/result.h"
#include "../core/stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The median of key K of each iteration's object O ("sweep", "replay"),
 * sub-object SUB (NULL: O itself) of entry E; NAN when none has it.
 * *TEXT gets O's key TK of the first that has it. */
static double per_iter(const json_t *e, const char *o, const char *sub,
		       const char *k, const char *tk, const char **text)
{
	double v[256];
	size_t n = 0, i;
	const json_t *it;

	json_array_foreach(json_object_get(e, "iterations"), i, it) {
		const json_t *x = json_object_get(it, o);
		const json_t *y = sub ? json_object_get(x, sub) : x;

		if (!json_is_number(json_object_get(y, k)) || n >= 256 ||
		    (json_object_get(it, "status") &&
		     strcmp(nb_jstr(it, "status"), "ok")))
			continue;
		v[n++] = json_number_value(json_object_get(y, k));
		if (text && !**text)
			*text = nb_jstr(x, tk);
	}
	return n ? nb_stats_median(v, n) : NAN;
}

/* The least VMs at the objective over the entries of TARGET/WORKLOAD in
 * box state STATE of DOC (the rebuild has a round each). */
static double state_vms(const json_t *doc, const char *target, const char *wl,
			const char *state)
{
	const json_t *e;
	double least = NAN;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, e) {
		double v;

		if (strcmp(nb_jstr(e, "target"), target) ||
		    strcmp(nb_jstr(e, "workload"), wl) ||
		    strcmp(nb_jstr(e, "state"), state) ||
		    strcmp(nb_jstr(e, "status"), "ok"))
			continue;
		v = per_iter(e, "sweep", "capacity", "vms", "", NULL);
		if (!isnan(v))
			least = isnan(least) ? v : fmin(least, v);
	}
	return least;
}

/* "p99 <= 20 ms" as a sentence writes it: "p99 ≤ 20 ms". */
static void objective(const char *o, char *out, size_t len)
{
	const char *le = strstr(o, "<=");

	if (le)
		snprintf(out, len, "%.*s\u2264%s", (int)(le - o), o, le + 2);
	else
		snprintf(out, len, "%s", o);
}

/* "lab-raidz1 on NFS": the box of DOC (its name label) and TARGET. */
static void who(const struct nb_sctx *s, const json_t *doc, const char *target,
		char *out, size_t len)
{
	const char *n = nb_jstr(json_object_get(doc, "labels"), "name");
	char t[256];

	nb_summary_shown(s, "target", target, t, sizeof(t));
	snprintf(out, len, "%s%son %s", n, *n ? " " : "", t);
}

/* "41" VMs carried (a sweep's 41.5 is 41 whole VMs), "none". */
static void vms_text(double v, char *out, size_t len)
{
	if (v < 1)
		snprintf(out, len, "none");
	else
		snprintf(out, len, "%.0f", floor(v + 1e-9));
}

/* The capacity part of the sentence of entry E of DOC, or -1; *OBJ its
 * objective. */
static int capacity_part(const json_t *doc, const json_t *e, const char **obj_out,
			 char *out, size_t len)
{
	const char *obj = "", *t = nb_jstr(e, "target"), *w = nb_jstr(e, "workload");
	double vms = per_iter(e, "sweep", "capacity", "vms", "objective_text", &obj);
	double dg = state_vms(doc, t, w, "degraded"), rb = state_vms(doc, t, w, "rebuilding");
	char o[128], a[32], b[32], c[32];
	size_t l;

	if (isnan(vms))
		return -1;
	*obj_out = obj;
	objective(obj, o, sizeof(o));
	vms_text(vms, a, sizeof(a));
	vms_text(dg, b, sizeof(b));
	vms_text(rb, c, sizeof(c));
	l = (size_t)snprintf(out, len, "carries %s VMs like yours at %s", a, o);
	if (!isnan(dg))
		l += (size_t)snprintf(out + l, l < len ? len - l : 0, "; with a dead "
				      "disk %s", b);
	if (!isnan(rb))
		snprintf(out + l, l < len ? len - l : 0, "%s %s", isnan(dg) ?
			 "; while it rebuilds" : ", while it rebuilds", c);
	return 0;
}

/* The replay part of the sentence of entry E, or -1; its objective
 * said unless it is CAP_OBJ, the capacity's. */
static int replay_part(const json_t *e, const char *cap_obj, char *out, size_t len)
{
	const char *g = "", *obj = "";
	double h = per_iter(e, "replay", NULL, "headroom", "growth", &g);
	double y = per_iter(e, "replay", NULL, "years", "", NULL);
	char o[160] = "";

	obj = nb_jstr(json_object_get(json_array_get(json_object_get(e, "iterations"),
						     0), "sweep"), "objective_text");
	if (isnan(h))
		return -1;
	if (*obj && strcmp(obj, cap_obj)) {
		objective(obj, o + 4, sizeof(o) - 4);
		memcpy(o, " at ", 4);
	}
	if (!(h > 0))
		snprintf(out, len, "today's load does not fit: it breaks %s",
			 *o ? o + 4 : "the objective");
	else if (h < 1)
		snprintf(out, len, "today's load does not fit: only %.2gx of it meets %s",
			 h, *o ? o + 4 : "the objective");
	else if (!isnan(y))
		snprintf(out, len, "today's load grows into it%s in %.1f years (%.3gx "
			 "headroom, %s)", o, y, h, g);
	else
		snprintf(out, len, "today's load fits%s %.2gx over (no growth rate to "
			 "say when it grows into it)", o, h);
	return 0;
}

/* The parts of PARTS ({ who: [capacity, replay, objective] }) PASS 0
 * (capacity) or 1 (replay) finds in the entries of DOC. */
static void parts_of(const struct nb_sctx *s, const json_t *doc, int pass,
		     json_t *parts)
{
	const json_t *e;
	size_t j;

	json_array_foreach(json_object_get(doc, "results"), j, e) {
		char w[600], c[600];
		const char *obj = "";
		json_t *p;

		if (strcmp(nb_jstr(e, "status"), "ok") ||
		    nb_box_state(nb_jstr(e, "state")) > 0)
			continue;
		who(s, doc, nb_jstr(e, "target"), w, sizeof(w));
		if (!(p = json_object_get(parts, w)))
			json_object_set_new(parts, w, p = json_pack("[s, s, s]", "", "", ""));
		if (!pass && !*json_string_value(json_array_get(p, 0)) &&
		    !capacity_part(doc, e, &obj, c, sizeof(c))) {
			json_array_set_new(p, 0, json_string(c));
			json_array_set_new(p, 2, json_string(obj));
		}
		if (pass && !*json_string_value(json_array_get(p, 1)) &&
		    !replay_part(e, json_string_value(json_array_get(p, 2)), c, sizeof(c)))
			json_array_set_new(p, 1, json_string(c));
	}
}

void nb_decide_lead(struct nb_sctx *s, json_t *const *docs,
		    const char *const *paths, size_t ndocs)
{
	json_t *parts = json_object();
	const char *k;
	json_t *v;

	(void)paths;
	/* the capacities first: a replay says its objective when it is
	 * not theirs */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < ndocs; i++)
			parts_of(s, docs[i], pass, parts);
	json_object_foreach(parts, k, v) {
		const char *c = json_string_value(json_array_get(v, 0));
		const char *r = json_string_value(json_array_get(v, 1));

		if (*c)
			nb_summary_add(s->lines, "decision", "info", "%s %s%s%s", k, c,
				       *r ? "; " : "", r);
		else if (*r)
			nb_summary_add(s->lines, "decision", "info", "%s: %s", k, r);
	}
	json_decref(parts);
}
