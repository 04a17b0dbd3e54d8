/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep_text.c - a load sweep's answers for a person (docs/capacity.md). */
#include "text.h"
#include "../core/result.h"

#include <string.h>

/* "capacity: 20.2 VMs (2017 IOPS) at mean <= 10 ms; ..." of the last
 * sweep, and the median of the answers over several. */
static void sweep_line(FILE *out, const json_t *wl)
{
	const json_t *last = nb_result_last(wl);
	const json_t *sw = json_object_get(last, "sweep");
	const char *metric = json_object_get(json_object_get(wl, "summary"),
					     "vms") ? "vms" : "iops_at_slo";
	double med, n;

	const json_t *closed = json_object_get(last, "sweep_closed");

	/* a failure walk's entry names its box state */
	fprintf(out, "%s %s%s%s: capacity%s: %s%s\n", nb_jstr(wl, "target"),
		nb_jstr(wl, "workload"), *nb_jstr(wl, "state") ? " " : "",
		nb_jstr(wl, "state"),
		!strcmp(nb_jstr(sw, "loop"), "open") ? " (open loop)" : "",
		nb_jstr(json_object_get(sw, "capacity"), "text"),
		json_is_false(json_object_get(sw, "complete")) ?
		" (sweep not complete)" : "");
	if (closed)
		fprintf(out, "%s %s: a closed loop claims: %s%s\n",
			nb_jstr(wl, "target"), nb_jstr(wl, "workload"),
			nb_jstr(json_object_get(closed, "capacity"), "text"),
			json_is_false(json_object_get(closed, "complete")) ?
			" (sweep not complete)" : "");
	if (!nb_result_stat(wl, metric, "n", &n) && n >= 2 &&
	    !nb_result_stat(wl, metric, "median", &med))
		fprintf(out, "%s %s: median of %.0f sweeps: %.1f %s\n",
			nb_jstr(wl, "target"), nb_jstr(wl, "workload"), n, med,
			strcmp(metric, "vms") ? "IOPS at the objective" :
			"VMs at the objective");
}

void nb_text_sweeps(FILE *out, const json_t *doc)
{
	const json_t *wl;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, wl)
		if (json_object_get(nb_result_last(wl), "sweep"))
			sweep_line(out, wl);
}

/* "open loop at 500 IOPS (poisson): achieved 499 of 501 offered (99.6%);
 * response p99 5.3 ms (95%: 4.9-5.9) over 2 iterations, 2000 samples;
 * service p99 5.2 ms; 3 I/Os late" */
static void open_line(FILE *out, const json_t *wl)
{
	const json_t *its = json_object_get(wl, "iterations");
	const json_t *o = json_object_get(json_array_get(its, 0), "open");
	const json_t *resp = json_object_get(json_object_get(wl, "pooled"), "resp");
	const json_t *ci = json_object_get(resp, "p99_ci_us");
	double off = 0, ach = 0, late = 0, svc = 0;
	const json_t *it;
	size_t i, n = 0;

	json_array_foreach(its, i, it) {
		const json_t *m = json_object_get(it, "metrics");

		off += json_number_value(json_object_get(m, "offered_iops"));
		ach += json_number_value(json_object_get(m, "achieved_iops"));
		late += json_number_value(json_object_get(m, "late_ios"));
		svc += json_number_value(json_object_get(m, "lat_p99_us"));
		n++;
	}
	if (!n)
		return;
	fprintf(out, "%s %s: open loop at %.0f IOPS (%s): achieved %.0f of %.0f "
		"offered (%.1f%%)", nb_jstr(wl, "target"), nb_jstr(wl, "workload"),
		json_number_value(json_object_get(o, "rate_iops")),
		nb_jstr(o, "arrival"), ach / n, off / n, off > 0 ? 100 * ach / off : 0);
	if (resp)
		fprintf(out, "; response p99 %.2f ms", json_number_value(
			json_object_get(resp, "p99_us")) / 1e3);
	if (json_array_size(ci) == 2)
		fprintf(out, " (95%%: %.2f-%.2f)",
			json_number_value(json_array_get(ci, 0)) / 1e3,
			json_number_value(json_array_get(ci, 1)) / 1e3);
	if (resp)
		fprintf(out, " over %lld I/Os of %zu iteration%s",
			(long long)json_integer_value(json_object_get(resp, "samples")),
			n, n == 1 ? "" : "s");
	fprintf(out, "; service p99 %.2f ms%s; %.0f I/Os issued over 1 ms late\n",
		svc / n / 1e3, !strcmp(nb_jstr(o, "timed_from"), "submission") ?
		" (fio: timed from the submission)" : "", late);
}

void nb_text_open(FILE *out, const json_t *doc)
{
	const json_t *wl;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		const json_t *it = json_array_get(json_object_get(wl, "iterations"), 0);

		if (json_object_get(it, "open") && !json_object_get(it, "sweep"))
			open_line(out, wl);
	}
}
