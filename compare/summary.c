/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.c - the decision summary of a comparison (decision/summary.h's
 * lines): a decision per comparison, what the change decided in the
 * decisions' words ("A SLOG: 11x the sync IOPS (n=3 each, ±64%)", or
 * "within the noise"), its verdicts in the detail (each workload before
 * -> after with its time factor, verdict and band), the bands' overall
 * verdict.
 */
#include "compare.h"
#include "../decision/bands_compare.h"
#include "../decision/summary.h"
#include "../decision/words.h"
#include "../core/metrics.h"
#include "../core/result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nb_compare_fmt_band(char *buf, size_t len, const json_t *row)
{
	const json_t *b = json_object_get(row, "band");

	if (!b)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%s (%.2fx the time)", nb_jstr(b, "verdict"),
			 json_number_value(json_object_get(b, "time")));
}

/* "352.0", "3155": as the tables show a figure. */
static void shown(char *buf, size_t len, const json_t *r, const char *k)
{
	nb_metric_shown(json_number_value(json_object_get(r, k)) *
			json_number_value(json_object_get(r, "scale")), buf, len);
}

/* One workload's (or banded figure's) line. */
static void row_line(json_t *lines, const json_t *r)
{
	const char *v = nb_jstr(r, "verdict"), *level = "info";
	const json_t *b = json_object_get(r, "band");
	enum nb_band bv = nb_bands_from_word(nb_jstr(b, "verdict"));
	char a[32], n[32], band[96] = "", ch[32] = "";

	if (!strcmp(v, "missing") || !strcmp(v, "changed-settings")) {
		/* said once for all of them (not_figures), each in the detail */
		nb_summary_fold(lines, "change", "fail", "%s on %s: %s%s%s",
				nb_jstr(r, "workload"), nb_jstr(r, "target"), v,
				*nb_jstr(r, "reason") ? ": " : "", nb_jstr(r, "reason"));
		return;
	}
	shown(a, sizeof(a), r, "base");
	shown(n, sizeof(n), r, "new");
	if (json_is_number(json_object_get(r, "change_pct")))
		snprintf(ch, sizeof(ch), "%+.1f%%",
			 json_number_value(json_object_get(r, "change_pct")));
	if (b)
		snprintf(band, sizeof(band), "; bands %s: %s", nb_jstr(b, "bands"),
			 nb_jstr(b, "verdict"));
	if (json_is_true(json_object_get(r, "regression")) || bv == NB_BAND_NOT_VIABLE)
		level = "fail";
	else if (bv == NB_BAND_DECIDE || json_is_true(json_object_get(r, "low_confidence")) ||
		 json_is_true(json_object_get(r, "inconclusive")))
		level = "warn";
	nb_summary_fold(lines, "change", level, "%s on %s, %s: %s -> %s (%s%s%.2fx the "
		       "time): %s%s%s", nb_jstr(r, "workload"), nb_jstr(r, "target"),
		       nb_jstr(r, "label"), a, n, ch, *ch ? ", " : "",
		       nb_bands_time(json_number_value(json_object_get(r, "base")),
				     json_number_value(json_object_get(r, "new")),
				     !strcmp(nb_jstr(r, "better"), "lower") ? -1 : 1),
		       v, json_is_true(json_object_get(r, "low_confidence")) ?
		       " (low confidence)" : "", band);
}

static double num(const json_t *x, const char *k)
{
	return json_number_value(json_object_get(x, k));
}

/* "A SLOG", "layout raidz1 -> raid10, slog none -> ssd", "b against a":
 * what comparison C changed. */
static void change_name(const json_t *c, char *out, size_t len)
{
	const json_t *ls = json_object_get(c, "labels"), *x;
	const struct nb_dim_words *w;
	size_t i, l = 0, questions = 0;

	const json_t *q = NULL;

	out[0] = '\0';
	json_array_foreach(ls, i, x)
		if (!nb_summary_descriptive(nb_jstr(x, "key"))) {
			questions++;
			q = x;
		}
	/* one question, from its absence: "A SLOG" */
	w = nb_words_dim(nb_jstr(q, "key"));
	if (questions == 1 && w->without && !strcmp(nb_jstr(q, "base"), w->without) &&
	    *nb_jstr(q, "new")) {
		snprintf(out, len, w->thing, nb_jstr(q, "new"));
		return;
	}
	/* a box's name or disks follow from the questions that changed */
	json_array_foreach(ls, i, x)
		if (!questions || !nb_summary_descriptive(nb_jstr(x, "key")))
			l += (size_t)snprintf(out + l, l < len ? len - l : 0, "%s%s %s -> %s",
				      l ? ", " : "", nb_jstr(x, "key"),
				      *nb_jstr(x, "base") ? nb_jstr(x, "base") : "(none)",
				      *nb_jstr(x, "new") ? nb_jstr(x, "new") : "(none)");
	if (!l)
		snprintf(out, len, "%s against %s", nb_jstr(c, "new"), nb_jstr(c, "base"));
}

/* A verdict row that is a figure judged both sides. */
static int judged(const json_t *r)
{
	const char *v = nb_jstr(r, "verdict");

	return strcmp(v, "missing") && strcmp(v, "changed-settings") &&
	       strcmp(v, "not-steady") && strcmp(nb_jstr(r, "better"), "neither") &&
	       num(r, "base") > 0 && num(r, "new") > 0;
}

/* The time factor of row R (>= 1) and whether NEW gained. */
static double factor(const json_t *r, int *gain)
{
	int better = !strcmp(nb_jstr(r, "better"), "lower") ? -1 : 1;
	double t = nb_bands_time(num(r, "base"), num(r, "new"), better);

	*gain = t < 1;
	return t < 1 ? 1 / t : t;
}

/* The confidence of the rows ROWS (judged, one direction of one figure). */
static void rows_confidence(const json_t *rows, int sig, char *out, size_t len)
{
	int nlo = 1 << 30, nhi = 0;
	size_t i, nsig = 0, nlow = 0;
	double sp = 0;
	const json_t *r;

	json_array_foreach(rows, i, r) {
		int a = (int)json_integer_value(json_object_get(r, "n_base"));
		int b = (int)json_integer_value(json_object_get(r, "n_new"));

		nlo = a < nlo ? a : nlo, nlo = b < nlo ? b : nlo;
		nhi = a > nhi ? a : nhi, nhi = b > nhi ? b : nhi;
		sp = fmax(sp, fmax(num(r, "spread_base_pct"), num(r, "spread_new_pct")));
		nsig += !strcmp(nb_jstr(r, "verdict"), "better") ||
			!strcmp(nb_jstr(r, "verdict"), "worse");
		nlow += json_is_true(json_object_get(r, "low_confidence"));
	}
	nb_words_confidence(nlo, nhi, sp, json_array_size(rows), nsig, nlow, sig, out,
			    len);
}

/* "11x the sync IOPS on lab-nfs (n=3 each, ±64%)", "the sequential reads
 * 1.2x slower (...)": the clause of figure WHAT in direction GAIN over
 * the verdicts V, or "" when none of them is significant. */
static void clause(const json_t *v, const char *what, int gain, char *out,
		   size_t len)
{
	json_t *rows = json_array(), *targets = json_array();
	double lo = INFINITY, hi = 0;
	size_t i, nall = 0, nsig = 0;
	char r[64], conf[128], where[300] = "";
	const json_t *x;

	json_array_foreach(v, i, x) {
		int g;
		double t;

		if (!judged(x) || strcmp(nb_jstr(x, "what"), what))
			continue;
		nall++;
		t = factor(x, &g);
		if (g != gain || !strcmp(nb_jstr(x, "verdict"), "unchanged"))
			continue;
		json_array_append(rows, (json_t *)x);
		json_array_append_new(targets, json_string(nb_jstr(x, "target")));
		lo = fmin(lo, t), hi = fmax(hi, t);
		nsig += !strcmp(nb_jstr(x, "verdict"), "better") ||
			!strcmp(nb_jstr(x, "verdict"), "worse");
	}
	out[0] = '\0';
	if (nsig) {
		if (json_array_size(rows) < nall) {
			size_t l = (size_t)snprintf(where, sizeof(where), " on");

			json_array_foreach(targets, i, x)
				l += (size_t)snprintf(where + l, l < sizeof(where) ?
						      sizeof(where) - l : 0, "%s%s",
						      i ? (i + 1 == json_array_size(targets) ?
							   " and " : ", ") : " ",
						      json_string_value(x));
		}
		nb_words_factor(lo, hi, r, sizeof(r));
		rows_confidence(rows, 1, conf, sizeof(conf));
		if (gain)
			snprintf(out, len, "%s the %s%s %s", r, what, where, conf);
		else
			snprintf(out, len, "the %s %s slower%s %s", what, r, where, conf);
	}
	json_decref(rows);
	json_decref(targets);
}

/* The decision of comparison C: a clause per figure and direction
 * something significant stands behind, or "within the noise". */
static void decision(json_t *lines, const json_t *c)
{
	const json_t *v = json_object_get(c, "verdicts"), *x;
	json_t *whats = json_array(), *judged_rows = json_array();
	char name[1024], text[2048], cl[600], conf[128];
	size_t i, l, n = 0;

	change_name(c, name, sizeof(name));
	l = (size_t)snprintf(text, sizeof(text), "%s: ", name);
	json_array_foreach(v, i, x)
		if (judged(x)) {
			int seen = 0;
			size_t k;
			const json_t *w;

			json_array_append(judged_rows, (json_t *)x);
			json_array_foreach(whats, k, w)
				seen |= !strcmp(json_string_value(w), nb_jstr(x, "what"));
			if (!seen)
				json_array_append_new(whats, json_string(nb_jstr(x, "what")));
		}
	json_array_foreach(whats, i, x)
		for (int gain = 1; gain >= 0; gain--) {
			clause(v, json_string_value(x), gain, cl, sizeof(cl));
			if (*cl && l < sizeof(text))
				l += (size_t)snprintf(text + l, sizeof(text) - l, "%s%s",
						      n++ ? "; " : "", cl);
		}
	if (!n && json_array_size(judged_rows)) {
		rows_confidence(judged_rows, 0, conf, sizeof(conf));
		snprintf(text + l, l < sizeof(text) ? sizeof(text) - l : 0,
			 "within the noise %s", conf);
	}
	if (n || json_array_size(judged_rows))
		nb_summary_add(lines, "decision", "info", "%s", text);
	json_decref(whats);
	json_decref(judged_rows);
}

/* The workloads of C whose verdict is V ("missing", "changed-settings"),
 * said in one line: what happened and what to do. */
static void not_figures(json_t *lines, const json_t *c, const char *v)
{
	const json_t *r;
	size_t i, n = 0;
	char first[300] = "", who[340];

	json_array_foreach(json_object_get(c, "verdicts"), i, r)
		if (!strcmp(nb_jstr(r, "verdict"), v) && !n++)
			snprintf(first, sizeof(first), "%s on %s", nb_jstr(r, "workload"),
				 nb_jstr(r, "target"));
	if (!n)
		return;
	if (n > 1)
		snprintf(who, sizeof(who), "%s and %zu more", first, n - 1);
	else
		snprintf(who, sizeof(who), "%s", first);
	if (!strcmp(v, "missing"))
		nb_summary_add(lines, "change", "fail", "%s: missing in %s (the verdicts "
			       "say why); --allow-missing passes %s", who,
			       nb_jstr(c, "new"), n > 1 ? "them" : "it");
	else
		nb_summary_add(lines, "change", "fail", "%s: other settings, not "
			       "comparable (the verdicts say which); compare like with "
			       "like, or --allow-changed", who);
}

static void comparison_lines(json_t *lines, const json_t *c)
{
	char buf[1024] = "";
	const json_t *x;
	size_t i, l = 0;

	decision(lines, c);
	not_figures(lines, c, "missing");
	not_figures(lines, c, "changed-settings");
	json_array_foreach(json_object_get(c, "labels"), i, x)
		l += (size_t)snprintf(buf + l, l < sizeof(buf) ? sizeof(buf) - l : 0,
				      "%s%s %s -> %s", l ? ", " : "", nb_jstr(x, "key"),
				      *nb_jstr(x, "base") ? nb_jstr(x, "base") : "(none)",
				      *nb_jstr(x, "new") ? nb_jstr(x, "new") : "(none)");
	nb_summary_fold(lines, "change", "info", "%s -> %s%s%s", nb_jstr(c, "base"),
			nb_jstr(c, "new"), l ? ": " : "", buf);
	json_array_foreach(json_object_get(c, "verdicts"), i, x)
		row_line(lines, x);
	json_array_foreach(json_object_get(c, "rows"), i, x)
		if (json_object_get(x, "band"))
			row_line(lines, x);
}

json_t *nb_compare_summary(const json_t *doc)
{
	json_t *lines = json_array(), *c, *b = json_object_get(doc, "bands");
	size_t i;

	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		comparison_lines(lines, c);
	if (b) {
		enum nb_band v = nb_bands_from_word(nb_jstr(b, "verdict"));

		nb_summary_add(lines, "band", v == NB_BAND_NOT_VIABLE ? "fail" :
			       v == NB_BAND_DECIDE ? "warn" : "ok", "overall, bands %s: "
			       "%s%s", nb_jstr(b, "text"), *nb_jstr(b, "verdict") ?
			       nb_jstr(b, "verdict") : "nothing judged",
			       v == NB_BAND_DECIDE ? " (a loss between the bands: a "
			       "person decides)" : "");
	}
	nb_summary_order(lines);
	return lines;
}
