/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "text.h"
#include "failure.h"
#include "../core/escape.h"
#include "../core/result.h"

#include <math.h>
#include <string.h>

/* "812.3" or "-" when the metric is absent. */
static void cell(char *buf, size_t len, const json_t *wl, const char *metric,
		 double scale, int decimals)
{
	double v;

	/* a steady-state run's figure is its window's mean */
	if (nb_result_stat(wl, metric, json_object_get(wl, "steady") ? "mean" :
			   "median", &v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", decimals, v * scale);
}

/* A latency percentile KEY ("p99_us") as the table shows it: pooled over
 * the iterations (the response time of an open loop), else the median of
 * the iterations' METRIC.  Marked "~" where the pool has fewer samples
 * than the percentile needs to judge anything. */
static void lat_cell(char *buf, size_t len, const json_t *wl, const char *key,
		     const char *metric)
{
	const json_t *pool = json_object_get(wl, "pooled");
	const json_t *p = json_object_get(pool, "resp");
	const json_t *v;
	const char *enough = !strcmp(key, "p99_us") ? "enough_p99" :
			     !strcmp(key, "p99.9_us") ? "enough_p99.9" : NULL;

	if (!p)
		p = json_object_get(pool, "lat");
	v = json_object_get(p, key);
	if (!json_is_number(v)) {
		cell(buf, len, wl, metric, 1, 0);
		return;
	}
	snprintf(buf, len, "%s%.0f", enough && json_is_false(json_object_get(p, enough))
		 ? "~" : "", json_number_value(v));
}

/* "±3%" (sample stddev / median); empty below two samples, where a
 * spread is not measured (and ±0% would claim it were). */
static void spread(char *buf, size_t len, const json_t *wl, const char *metric)
{
	double med, sd, n;

	if (nb_result_stat(wl, metric, "n", &n) || n < 2 ||
	    nb_result_stat(wl, metric, "median", &med) ||
	    nb_result_stat(wl, metric, "stddev", &sd) || med <= 0)
		buf[0] = '\0';
	else
		snprintf(buf, len, "±%.0f%%", 100 * sd / med);
}

/* One line "TARGET NAME: WHAT: TEXT", each part shown, never sent. */
static void entry_line(FILE *out, const json_t *wl, const char *name,
		       const char *what, const char *text)
{
	fprintf(out, "%s %s: %s: ", NB_TERM(nb_jstr(wl, "target")), name, what);
	nb_term_escape(out, text);
	fputc('\n', out);
}

static void table(FILE *out, const json_t *doc);

/* A result read from a file, the history or the box: whatever it holds
 * reaches the terminal through nb_term_open() (core/escape.h), its names
 * a line each. */
void nb_text_result(FILE *under, const json_t *doc)
{
	FILE *out = nb_term_open(under);

	table(out ? out : under, doc);
	if (out)
		fclose(out);
}

static void table(FILE *out, const json_t *doc)
{
	const json_t *results = json_object_get(doc, "results"), *wl;
	size_t i;

	int walk = json_object_get(doc, "failure") != NULL;

	fprintf(out, "%-12s %-20s %-*s%s%10s %5s %10s %9s %9s %9s %3s  %s\n", "target",
		"workload", walk ? 10 : 0, walk ? "state" : "", walk ? " " : "",
		"MB/s", "", "IOPS", "p50 us", "p99 us", "p99.9 us", "n", "status");
	json_array_foreach(results, i, wl) {
		char mb[32], sp[32], iops[32], p50[32], p99[32], p999[32];
		size_t n = json_array_size(json_object_get(wl, "iterations"));

		cell(mb, sizeof(mb), wl, "bw_bytes", 1e-6, 1);
		spread(sp, sizeof(sp), wl, "bw_bytes");
		cell(iops, sizeof(iops), wl, "iops", 1, 0);
		lat_cell(p50, sizeof(p50), wl, "p50_us", "lat_p50_us");
		lat_cell(p99, sizeof(p99), wl, "p99_us", "lat_p99_us");
		lat_cell(p999, sizeof(p999), wl, "p99.9_us", "lat_p99.9_us");
		fprintf(out, "%-12s %-20s %-*s%s%10s %5s %10s %9s %9s %9s %3zu  %s%s\n",
			NB_TERM(nb_jstr(wl, "target")), NB_TERM(nb_jstr(wl, "workload")),
			walk ? -10 : 0, walk ? NB_TERM(nb_jstr(wl, "state")) : "",
			walk ? " " : "", mb, sp, iops, p50, p99, p999, n,
			NB_TERM(nb_jstr(wl, "status")),
			nb_text_steady_state(wl) == 1 ? ", steady" :
			nb_text_steady_state(wl) == 0 ? ", not steady" : "");
	}
	json_array_foreach(results, i, wl) {
		const json_t *w;
		size_t j;

		char name[96];

		snprintf(name, sizeof(name), "%s%s%s", NB_TERM(nb_jstr(wl, "workload")),
			 *nb_jstr(wl, "state") ? " " : "", NB_TERM(nb_jstr(wl, "state")));
		if (*nb_jstr(wl, "reason"))
			entry_line(out, wl, name, NB_TERM(nb_jstr(wl, "status")),
				   nb_jstr(wl, "reason"));
		json_array_foreach(json_object_get(wl, "warnings"), j, w)
			entry_line(out, wl, name, "warning", json_string_value(w) ?: "");
	}
	nb_failure_print(out, doc);
	nb_text_sweeps(out, doc);
	nb_text_replays(out, doc);
	nb_text_data(out, doc);
	nb_text_open(out, doc);
	nb_text_steady(out, doc);
	nb_text_seed(out, doc);
}
