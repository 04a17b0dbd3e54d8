/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seed_text.c - the seed workloads' figures for a person: bonnie's in
 * bonnie++'s layout (K/sec and %CP, files/s), xz's ratio and CPU, the sync
 * probe's verdict.  Medians over the iterations, like the main table.
 */
#include "text.h"
#include "../core/result.h"

#include <string.h>

/* "337690 58" (K/sec %CP), or "- -" when absent */
static void pair(FILE *out, const json_t *wl, const char *fig, const char *cpu,
		 int width)
{
	double v, c;

	if (nb_result_stat(wl, fig, "median", &v))
		fprintf(out, " %*s %3s", width, "-", "-");
	else if (nb_result_stat(wl, cpu, "median", &c))
		fprintf(out, " %*.0f %3s", width, v, "-");
	else
		fprintf(out, " %*.0f %3.0f", width, v, c);
}

static void bonnie(FILE *out, const json_t *wl)
{
	static const char *const io[] = { "put_char", "put_block", "rewrite",
					  "get_char", "get_block" };
	static const char *const files[] = { "seq_create", "seq_stat", "seq_delete",
					     "ran_create", "ran_stat", "ran_delete" };
	char a[64], b[64];
	double seek_io;

	fprintf(out, "\nbonnie on %s (median of %zu, bonnie++ 2.00 layout)\n",
		nb_jstr(wl, "target"),
		json_array_size(json_object_get(wl, "iterations")));
	fprintf(out, "  -Per Chr-- --Block--- -Rewrite-- -Per Chr-- --Block--- "
		"--Seeks--\n");
	fprintf(out, "   K/sec %%CP    K/sec %%CP    K/sec %%CP    K/sec %%CP    "
		"K/sec %%CP   /sec %%CP\n ");
	for (size_t i = 0; i < 5; i++) {
		snprintf(a, sizeof(a), "%s_kps", io[i]);
		snprintf(b, sizeof(b), "%s_cpu_pct", io[i]);
		pair(out, wl, a, b, 6 + (i > 0 ? 2 : 0));
	}
	pair(out, wl, "seeks_per_s", "seeks_cpu_pct", 6);
	fprintf(out, "\n");
	if (!nb_result_stat(wl, "seeks_io_per_s", "median", &seek_io))
		fprintf(out, "  Seeks timed as bonnie++ does, until the file is synced "
			"and removed; the random I/O alone: %.0f/sec\n", seek_io);
	if (nb_result_stat(wl, "seq_create_per_s", "median", &(double){ 0 }))
		return;
	fprintf(out, "  --Seq Create-- --Seq Stat---- --Seq Delete-- --Ran Create-- "
		"--Ran Stat---- --Ran Delete--\n ");
	for (size_t i = 0; i < 6; i++) {
		snprintf(a, sizeof(a), "%s_per_s", files[i]);
		snprintf(b, sizeof(b), "%s_cpu_pct", files[i]);
		pair(out, wl, a, b, 9);
		fprintf(out, " ");
	}
	fprintf(out, "  (files/s %%CP)\n");
}

/* syncprobe's timing verdict and crashcheck's beside it (workloads/crash/crashrun.h). */
static void durability(FILE *out, const json_t *doc)
{
	const json_t *d;
	size_t i;

	json_array_foreach(json_object_get(doc, "durability"), i, d)
		fprintf(out, "\ndurability of %s: syncprobe: %s (%s); crashcheck: %s; "
			"%s\n", nb_jstr(d, "target"), nb_jstr(d, "syncprobe"),
			json_is_true(json_object_get(d, "syncprobe_durable")) ?
			"durable" : "not judged durable", nb_jstr(d, "crash"),
			json_is_true(json_object_get(d, "agree")) ? "they agree" :
			"they DISAGREE");
}

void nb_text_seed(FILE *out, const json_t *doc)
{
	const json_t *wl;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		const char *w = nb_jstr(wl, "workload");
		const json_t *last = nb_result_last(wl);
		double v, c;

		if (!last)
			continue;
		if (!strcmp(w, "bonnie")) {
			bonnie(out, wl);
		} else if (!strcmp(w, "xz") &&
			   !nb_result_stat(wl, "xz_ratio", "median", &v) &&
			   !nb_result_stat(wl, "cpu_pct", "median", &c)) {
			fprintf(out, "\nxz on %s: ratio %.3f, %.0f%% CPU (%.0f%% of %lld "
				"threads)\n", nb_jstr(wl, "target"), v, c,
				c / (double)json_integer_value(json_object_get(last,
							       "threads")),
				json_integer_value(json_object_get(last, "threads")));
		} else if (!strcmp(w, "crashcheck") &&
			   json_object_get(wl, "crash_verdict")) {
			fprintf(out, "\ncrashcheck on %s: %s\n", nb_jstr(wl, "target"),
				nb_jstr(json_object_get(wl, "crash_verdict"), "summary"));
		} else if (!strcmp(w, "syncprobe")) {
			fprintf(out, "\nsyncprobe on %s: %s\n", nb_jstr(wl, "target"),
				nb_jstr(last, "verdict"));
		} else if (!strcmp(w, "bigfile") &&
			   !nb_result_stat(wl, "datagen_bw_bytes", "median", &v)) {
			fprintf(out, "\nbigfile on %s: data generated at %.0f MB/s per "
				"core; %zu-second series in the result "
				"(series_bw_bytes)\n", nb_jstr(wl, "target"), v / 1e6,
				json_array_size(json_object_get(last,
								"series_bw_bytes")));
		}
	}
	durability(out, doc);
}
