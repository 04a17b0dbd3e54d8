/* SPDX-License-Identifier: GPL-2.0-or-later */
/* marks.c - what overrides a verdict, and why one is inconclusive (marks.h). */
#include "marks.h"
#include "../core/result.h"
#include "../core/samples.h"

#include <stdio.h>
#include <string.h>

/* A steady-state run on either side that did not reach it: the verdict is
 * not-steady, nothing gates, and *REASON says which side and why. */
void nb_compare_mark_unsteady(const json_t *b, const json_t *n, int allow,
			      struct nb_judgement *j, const char **reason)
{
	static _Thread_local char why[400];
	const json_t *sb = json_object_get(b, "steady");
	const json_t *sn = json_object_get(n, "steady");
	int ub = sb && !json_is_true(json_object_get(sb, "reached"));
	int un = sn && !json_is_true(json_object_get(sn, "reached"));

	if ((!ub && !un) || allow)
		return;
	snprintf(why, sizeof(why), "%s not steady (%s): its figure had not "
		 "settled, no change is called significant (--allow-unsteady "
		 "judges it)", ub && un ? "neither run is" : ub ? "the base run is"
		 : "the new run is", nb_jstr(ub ? sb : sn, "why"));
	j->verdict = NB_V_UNSTEADY;
	j->regression = 0;
	*reason = why;
}

/* A side whose figure lacks the samples to carry it (core/samples.h):
 * the entry unmeasured, or METRIC listed short in an iteration.  The
 * verdict is unmeasured, no regression; gated, it is inconclusive. */
void nb_compare_mark_unmeasured(const json_t *b, const json_t *n,
				const char *metric, struct nb_judgement *j,
				const char **reason)
{
	static _Thread_local char why[600];
	int ub = !strcmp(nb_jstr(b, "status"), "unmeasured") ||
		 nb_samples_entry_short(b, metric);
	int un = n && (!strcmp(nb_jstr(n, "status"), "unmeasured") ||
		       nb_samples_entry_short(n, metric));
	const json_t *e = un ? n : b;

	if (!ub && !un)
		return;
	snprintf(why, sizeof(why), "%s: %s", ub && un ? "neither side is measured" :
		 ub ? "the base run is not measured" : "the new run is not measured",
		 *nb_jstr(e, "reason") && !strcmp(nb_jstr(e, "status"), "unmeasured") ?
		 nb_jstr(e, "reason") : "too few I/Os timed to carry it");
	j->verdict = NB_V_UNMEASURED;
	j->regression = 0;
	j->inconclusive = 1;
	*reason = why;
}

/* Why a verdict is inconclusive: what the test could have detected. */
const char *nb_compare_inconclusive_why(const struct nb_judgement *j, int better)
{
	static _Thread_local char why[160];

	if (better > 0)
		snprintf(why, sizeof(why), "could detect only a fall beyond %.0f%% "
			 "(noise not measured: one run each side)", j->detect_down * 100);
	else if (better < 0)
		snprintf(why, sizeof(why), "could detect only a rise beyond +%.0f%% "
			 "(noise not measured: one run each side)", j->detect_up * 100);
	else
		snprintf(why, sizeof(why), "could detect only changes beyond %.0f%% / "
			 "+%.0f%% (noise not measured: one run each side)",
			 j->detect_down * 100, j->detect_up * 100);
	return why;
}
