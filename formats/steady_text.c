/* SPDX-License-Identifier: GPL-2.0-or-later */
/* steady_text.c - what a person reads about steady state, preconditioning
 * and TRIM under the table of a run (docs/steady-state.md). */
#include "text.h"
#include "../core/result.h"
#include "../core/units.h"

#include <string.h>

int nb_text_steady_state(const json_t *wl)
{
	const json_t *s = json_object_get(wl, "steady");

	return s ? (json_is_true(json_object_get(s, "reached")) ? 1 : 0) : -1;
}

static double num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

static void steady_line(FILE *out, const json_t *wl, const json_t *s)
{
	int reached = json_is_true(json_object_get(s, "reached"));
	int first = (int)json_integer_value(json_object_get(s, "window_first"));
	int last = (int)json_integer_value(json_object_get(s, "window_last"));
	int n = (int)json_integer_value(json_object_get(s, "rounds_run"));
	double scale = !strcmp(nb_jstr(s, "metric"), "iops") ? 1 : 1e-6;

	fprintf(out, "%s %s: %s (%s, rounds of %gs): %d round(s), window %d-%d "
		": mean %.1f %s, range %.1f%%, slope %.1f%% of the mean",
		nb_jstr(wl, "target"), nb_jstr(wl, "workload"),
		reached ? "steady" : "NOT STEADY", nb_jstr(s, "criterion"),
		num(s, "round_s"), n, first, last, num(s, "mean") * scale,
		scale == 1 ? "IOPS" : "MB/s", num(s, "range_pct"),
		num(s, "excursion_pct"));
	if (reached && first > 1)
		fprintf(out, "; rounds 1-%d the transient", first - 1);
	if (!reached)
		fprintf(out, "; %s: the figures are the last window's, not settled "
			"ones", nb_jstr(s, "why"));
	fputc('\n', out);
}

static void care_lines(FILE *out, const json_t *wl)
{
	const json_t *d = json_object_get(wl, "discard");
	const json_t *p = json_object_get(wl, "preconditioning");
	char a[32], b[32];

	if (d)
		fprintf(out, "%s %s: TRIM %s: %s of %s %s%s%s\n", nb_jstr(wl, "target"),
			nb_jstr(wl, "workload"), nb_jstr(d, "when"), nb_jstr(d, "method"),
			nb_fmt_size((uint64_t)num(d, "bytes"), a, sizeof(a)),
			json_is_true(json_object_get(d, "accepted")) ? "accepted" :
			"REFUSED", *nb_jstr(d, "error") ? ": " : "", nb_jstr(d, "error"));
	if (p)
		fprintf(out, "%s %s: preconditioned: %s, %d pass(es) over %s, %s "
			"written in %.1f s\n", nb_jstr(wl, "target"),
			nb_jstr(wl, "workload"), nb_jstr(p, "mode"),
			(int)json_integer_value(json_object_get(p, "passes")),
			nb_fmt_size((uint64_t)num(p, "span_bytes"), a, sizeof(a)),
			nb_fmt_size((uint64_t)num(p, "bytes_written"), b, sizeof(b)),
			num(p, "seconds"));
}

/* bigfile: the verdict on each iteration's last minutes. */
static void series_lines(FILE *out, const json_t *wl)
{
	const json_t *it;
	size_t i;

	json_array_foreach(json_object_get(wl, "iterations"), i, it) {
		const json_t *s = json_object_get(it, "steady");

		if (!s || !json_integer_value(json_object_get(s, "rounds_run")))
			continue;
		fprintf(out, "%s %s (%zu): the last %d x %gs %s: mean %.1f MB/s, "
			"range %.1f%%, slope %.1f%%%s%s\n", nb_jstr(wl, "target"),
			nb_jstr(wl, "workload"), i + 1,
			(int)json_integer_value(json_object_get(s, "window")),
			num(s, "round_s"), json_is_true(json_object_get(s, "reached")) ?
			"are steady" : "are NOT STEADY", num(s, "mean") / 1e6,
			num(s, "range_pct"), num(s, "excursion_pct"),
			json_is_true(json_object_get(s, "reached")) ? "" : ": ",
			json_is_true(json_object_get(s, "reached")) ? "" : nb_jstr(s, "why"));
	}
}

void nb_text_steady(FILE *out, const json_t *doc)
{
	const json_t *wl;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		const json_t *s = json_object_get(wl, "steady");

		care_lines(out, wl);
		if (s)
			steady_line(out, wl, s);
		series_lines(out, wl);
	}
}
