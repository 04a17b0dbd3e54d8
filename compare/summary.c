/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.c - the decision summary of a comparison (decision/summary.h's
 * lines): what the change did to each workload, before -> after with its
 * time factor and verdict, the viability bands' word when they were
 * given, and the overall outcome.
 */
#include "compare.h"
#include "../decision/bands_compare.h"
#include "../decision/summary.h"
#include "../core/metrics.h"
#include "../core/result.h"

#include <math.h>
#include <stdio.h>
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
		nb_summary_add(lines, "change", "fail", "%s on %s: %s%s%s",
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
	nb_summary_add(lines, "change", level, "%s on %s, %s: %s -> %s (%s%s%.2fx the "
		       "time): %s%s%s", nb_jstr(r, "workload"), nb_jstr(r, "target"),
		       nb_jstr(r, "label"), a, n, ch, *ch ? ", " : "",
		       nb_bands_time(json_number_value(json_object_get(r, "base")),
				     json_number_value(json_object_get(r, "new")),
				     !strcmp(nb_jstr(r, "better"), "lower") ? -1 : 1),
		       v, json_is_true(json_object_get(r, "low_confidence")) ?
		       " (low confidence)" : "", band);
}

static void comparison_lines(json_t *lines, const json_t *c)
{
	char buf[1024] = "";
	const json_t *x;
	size_t i, l = 0;

	json_array_foreach(json_object_get(c, "labels"), i, x)
		l += (size_t)snprintf(buf + l, l < sizeof(buf) ? sizeof(buf) - l : 0,
				      "%s%s %s -> %s", l ? ", " : "", nb_jstr(x, "key"),
				      *nb_jstr(x, "base") ? nb_jstr(x, "base") : "(none)",
				      *nb_jstr(x, "new") ? nb_jstr(x, "new") : "(none)");
	nb_summary_add(lines, "change", "info", "%s -> %s%s%s", nb_jstr(c, "base"),
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
	return lines;
}
