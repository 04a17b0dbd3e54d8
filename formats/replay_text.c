/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay_text.c - a replay's answers for a person (docs/replay.md). */
#include "text.h"
#include "../core/result.h"

#include <math.h>

/* Today's step: its response and how faithfully each VM was offered. */
static void today_line(FILE *out, const json_t *wl, const json_t *td)
{
	fprintf(out, "%s %s: today's load (1x) %s: response p99 %.2f ms; each VM "
		"issued within %.1f%% of its rate, its reads within %.1f points\n",
		nb_jstr(wl, "target"), nb_jstr(wl, "workload"),
		json_is_true(json_object_get(td, "slo_met")) ? "meets the objective" :
		json_is_true(json_object_get(td, "valid")) ? "breaks the objective" :
		"was not achieved",
		json_number_value(json_object_get(td, "resp_p99_us")) / 1e3,
		fabs(json_number_value(json_object_get(td, "worst_iops_pct"))),
		fabs(json_number_value(json_object_get(td, "worst_read_points"))));
}

static void replay_line(FILE *out, const json_t *wl)
{
	const json_t *rp = json_object_get(nb_result_last(wl), "replay");
	const json_t *td = json_object_get(rp, "today");
	const json_t *pk = json_object_get(rp, "peak");
	double n, h, y;

	fprintf(out, "%s %s: %s\n", nb_jstr(wl, "target"), nb_jstr(wl, "workload"),
		nb_jstr(rp, "text"));
	if (json_is_object(td))
		today_line(out, wl, td);
	if (json_is_object(pk))
		fprintf(out, "%s %s: %s\n", nb_jstr(wl, "target"),
			nb_jstr(wl, "workload"), nb_jstr(pk, "text"));
	else if (*nb_jstr(rp, "peak_why"))
		fprintf(out, "%s %s: the busiest bucket not replayed: %s\n",
			nb_jstr(wl, "target"), nb_jstr(wl, "workload"),
			nb_jstr(rp, "peak_why"));
	if (nb_result_stat(wl, "headroom", "n", &n) || n < 2 ||
	    nb_result_stat(wl, "headroom", "median", &h))
		return;
	fprintf(out, "%s %s: median of %.0f replays: headroom %.2fx", nb_jstr(wl,
		"target"), nb_jstr(wl, "workload"), n, h);
	if (!nb_result_stat(wl, "years", "median", &y))
		fprintf(out, ", %.1f years", y);
	fputc('\n', out);
}

void nb_text_replays(FILE *out, const json_t *doc)
{
	const json_t *wl;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, wl)
		if (json_object_get(nb_result_last(wl), "replay"))
			replay_line(out, wl);
}
