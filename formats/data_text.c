/* SPDX-License-Identifier: GPL-2.0-or-later */
/* data_text.c - the data written, what the box made of it and the hot-set
 * sweep, for a person (docs/data.md). */
#include "text.h"
#include "../core/result.h"
#include "../core/units.h"

#include <math.h>

static double num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* "2:1 asked: lz4 1.99x, gzip 2.00x, zstd 2.04x (lzjb 1.75x)" and the box's. */
static void data_line(FILE *out, const json_t *wl, const json_t *it)
{
	const json_t *d = json_object_get(it, "data");
	const json_t *r = json_object_get(d, "ratio");
	const json_t *z = json_object_get(json_object_get(it, "telemetry"), "zfs");

	if (!json_is_object(d))
		return;
	fprintf(out, "%s %s: data %s: lz4 %.2fx, gzip %.2fx, zstd %.2fx (lzjb %.2fx)",
		nb_jstr(wl, "target"), nb_jstr(wl, "workload"), nb_jstr(d, "compress"),
		num(r, "lz4"), num(r, "gzip"), num(r, "zstd"), num(r, "lzjb"));
	if (json_integer_value(json_object_get(d, "dedupe_pct")))
		fprintf(out, "; %lld%% duplicates, should dedupe %.2fx",
			(long long)json_integer_value(json_object_get(d, "dedupe_pct")),
			num(d, "dedupe_ratio_expected"));
	if (isfinite(num(z, "compressratio")))
		fprintf(out, "; the box's dataset %s (compression %s) %.2fx",
			nb_jstr(z, "dataset"), *nb_jstr(z, "compression") ?
			nb_jstr(z, "compression") : "?", num(z, "compressratio"));
	if (isfinite(num(z, "dedupratio")))
		fprintf(out, ", dedupratio %.2fx", num(z, "dedupratio"));
	fputc('\n', out);
}

static void hot_lines(FILE *out, const json_t *wl, const json_t *hs)
{
	const json_t *st;
	size_t i;
	char b[32];

	json_array_foreach(json_object_get(hs, "steps"), i, st) {
		fprintf(out, "%s %s: hot set %9s: %9.0f IOPS  mean %8.0f us  p99 %8.0f us",
			nb_jstr(wl, "target"), nb_jstr(wl, "workload"),
			nb_fmt_size((uint64_t)num(st, "hot_bytes"), b, sizeof(b)),
			num(st, "iops"), num(st, "lat_mean_us"), num(st, "lat_p99_us"));
		if (isfinite(num(st, "vms")))
			fprintf(out, "  %.1f VMs", num(st, "vms"));
		if (isfinite(num(st, "arc_hit_pct")))
			fprintf(out, "  ARC hits %.1f%%", num(st, "arc_hit_pct"));
		fputc('\n', out);
	}
	if (*nb_jstr(hs, "text"))
		fprintf(out, "%s %s: %s\n", nb_jstr(wl, "target"),
			nb_jstr(wl, "workload"), nb_jstr(hs, "text"));
}

void nb_text_data(FILE *out, const json_t *doc)
{
	const json_t *wl, *it;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		it = nb_result_last(wl);
		data_line(out, wl, it);
		if (json_is_object(json_object_get(it, "hot_sweep")))
			hot_lines(out, wl, json_object_get(it, "hot_sweep"));
	}
}
