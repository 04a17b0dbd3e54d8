/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bands_compare.c - the viability bands on a comparison. */
#include "bands.h"
#include "../core/metrics.h"
#include "../core/result.h"

#include <string.h>

enum nb_band nb_bands_from_word(const char *w)
{
	for (int v = NB_BAND_VIABLE; v <= NB_BAND_NOT_VIABLE; v++)
		if (w && !strcmp(w, nb_bands_word((enum nb_band)v)))
			return (enum nb_band)v;
	return NB_BAND_NONE;
}

/* The verdict metric of WORKLOAD on TARGET in comparison C. */
static const char *primary_of(const json_t *c, const char *target,
			      const char *workload)
{
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(c, "verdicts"), i, v)
		if (!strcmp(nb_jstr(v, "target"), target) &&
		    !strcmp(nb_jstr(v, "workload"), workload))
			return nb_jstr(v, "metric");
	return "";
}

/* Judge one row; its verdict (NONE when it is not judged). */
static enum nb_band band_row(json_t *row, const char *primary,
			     struct nb_bands_set *set)
{
	const char *m = nb_jstr(row, "metric"), *v = nb_jstr(row, "verdict");
	const char *bt = nb_jstr(row, "better");
	int better = !strcmp(bt, "higher") ? NB_HIGHER :
		     !strcmp(bt, "lower") ? NB_LOWER : NB_NEITHER;
	const struct nb_bands *b;
	enum nb_band verdict;
	int named;
	double t;

	if (!strcmp(v, "missing") || !strcmp(v, "changed-settings"))
		return NB_BAND_NONE;
	b = nb_bands_for(set, nb_jstr(row, "workload"), m, &named);
	if (!b || (!named && !nb_bands_judged(m, primary)))
		return NB_BAND_NONE;
	t = nb_bands_time(json_number_value(json_object_get(row, "base")),
			  json_number_value(json_object_get(row, "new")), better);
	verdict = nb_bands_judge(b, t);
	if (verdict == NB_BAND_NONE)
		return NB_BAND_NONE;
	json_object_set_new(row, "band", json_pack("{s:s, s:f, s:s}", "verdict",
						   nb_bands_word(verdict), "time", t,
						   "bands", b->text));
	return verdict;
}

static enum nb_band band_comparison(json_t *c, struct nb_bands_set *set)
{
	static const char *const lists[] = { "verdicts", "rows" };
	enum nb_band worst = NB_BAND_NONE;
	int count[4] = { 0, 0, 0, 0 };
	json_t *row;
	size_t i;

	for (int l = 0; l < 2; l++)
		json_array_foreach(json_object_get(c, lists[l]), i, row) {
			enum nb_band v = band_row(row, primary_of(c, nb_jstr(row, "target"),
								  nb_jstr(row, "workload")),
						  set);

			count[v]++;
			worst = nb_bands_worst(worst, v);
		}
	json_object_set_new(c, "bands", json_pack("{s:s, s:i, s:i, s:i}", "verdict",
						  nb_bands_word(worst), "viable",
						  count[NB_BAND_VIABLE], "decide",
						  count[NB_BAND_DECIDE], "not_viable",
						  count[NB_BAND_NOT_VIABLE]));
	return worst;
}

enum nb_band nb_bands_compare(json_t *doc, struct nb_bands_set *set)
{
	enum nb_band worst = NB_BAND_NONE;
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		worst = nb_bands_worst(worst, band_comparison(c, set));
	json_object_set_new(doc, "bands", json_pack("{s:s, s:s, s:i}", "verdict",
						    nb_bands_word(worst), "text",
						    set->on ? set->def.text : "",
						    "exit", nb_bands_exit(worst)));
	return worst;
}
