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

/* Sum of the integer KEY of each iteration (of its OBJ when given). */
static long long it_sum(const json_t *its, const char *obj, const char *key)
{
	const json_t *it;
	long long n = 0;
	size_t i;

	json_array_foreach(its, i, it) {
		const json_t *o = obj ? json_object_get(it, obj) : it;

		n += (long long)json_number_value(json_object_get(o, key));
	}
	return n;
}

/* "(onoff, 2 whole cycles)", "(onoff, part of a cycle)" or "(poisson)". */
static void arrival_said(char *buf, size_t len, const json_t *its)
{
	const json_t *o = json_object_get(json_array_get(its, 0), "open");
	const json_t *it;
	long long whole = 0;
	size_t i;
	int cut = 0, cycles = 0;

	json_array_foreach(its, i, it) {
		const json_t *c = json_object_get(json_object_get(it, "open"), "cycles");

		if (!c)
			continue;
		cycles = 1;
		whole += json_integer_value(json_object_get(c, "whole"));
		cut += json_is_true(json_object_get(c, "cut"));
	}
	if (!cycles)
		snprintf(buf, len, "%s", nb_jstr(o, "arrival"));
	else if (!cut)
		snprintf(buf, len, "%s, %lld whole cycle%s", nb_jstr(o, "arrival"),
			 whole, whole == 1 ? "" : "s");
	else if (!whole && cut == 1)
		snprintf(buf, len, "%s, part of one cycle: it outlasted the runtime",
			 nb_jstr(o, "arrival"));
	else
		snprintf(buf, len, "%s, %lld whole cycle%s and %d cut at the runtime",
			 nb_jstr(o, "arrival"), whole, whole == 1 ? "" : "s", cut);
}

/* The counts of one run (docs/result.md, "Counts, windows and samples"):
 * "open loop at 500 IOPS (poisson): 3 iterations, 3000 I/Os offered,
 * 3000 issued, 3000 completed and timed; in the window (the last 0.8 s of
 * each, the median): 499 IOPS achieved of 501 offered (99.6%); response
 * p99 5.3 ms (95%: 4.9-5.9) over 3000 I/Os; service p99 5.2 ms; 3 I/Os
 * issued over 1 ms late" */
static void open_line(FILE *out, const json_t *wl)
{
	const json_t *its = json_object_get(wl, "iterations");
	const json_t *o = json_object_get(json_array_get(its, 0), "open");
	const json_t *resp = json_object_get(json_object_get(wl, "pooled"), "resp");
	const json_t *ci = json_object_get(resp, "p99_ci_us");
	size_t n = json_array_size(its);
	double off = 0, ach = 0, svc = 0, win = 0;
	long long done = it_sum(its, NULL, "ios"), timed = it_sum(its, NULL, "timed");
	char arr[96];

	if (!n)
		return;
	nb_result_stat(wl, "offered_iops", "median", &off);
	nb_result_stat(wl, "iops", "median", &ach);
	nb_result_stat(wl, "lat_p99_us", "median", &svc);
	win = json_number_value(json_object_get(o, "window_s"));
	arrival_said(arr, sizeof(arr), its);
	fprintf(out, "%s %s: open loop at %.0f IOPS (%s): ", nb_jstr(wl, "target"),
		nb_jstr(wl, "workload"), json_number_value(json_object_get(o, "rate_iops")),
		arr);
	if (json_object_get(o, "arrivals"))
		fprintf(out, "%zu iteration%s, %lld I/Os offered, %lld issued, %lld "
			"completed, %lld timed; ", n, n == 1 ? "" : "s",
			it_sum(its, "open", "arrivals"), it_sum(its, "open", "issued"),
			done, timed);
	if (n > 1)
		fprintf(out, "in the windows (the medians): ");
	else if (json_object_get(o, "cycles"))
		fprintf(out, "in the window (the whole schedule, %.2f s): ", win);
	else
		fprintf(out, "in the window (the schedule's last 4/5, %.2f s): ", win);
	fprintf(out, "%.0f IOPS achieved of %.0f offered (%.1f%%)", ach, off,
		off > 0 ? 100 * ach / off : 0);
	if (resp)
		fprintf(out, "; response p99 %.2f ms", json_number_value(
			json_object_get(resp, "p99_us")) / 1e3);
	if (json_array_size(ci) == 2)
		fprintf(out, " (95%%: %.2f-%.2f)",
			json_number_value(json_array_get(ci, 0)) / 1e3,
			json_number_value(json_array_get(ci, 1)) / 1e3);
	if (resp)
		fprintf(out, " over %lld I/Os", (long long)json_integer_value(
			json_object_get(resp, "samples")));
	fprintf(out, "; service p99 %.2f ms%s; %lld I/Os issued over 1 ms late\n",
		svc / 1e3, !strcmp(nb_jstr(o, "timed_from"), "submission") ?
		" (fio: timed from the submission)" : "",
		it_sum(its, "metrics", "late_ios"));
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
