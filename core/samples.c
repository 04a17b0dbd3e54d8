/* SPDX-License-Identifier: GPL-2.0-or-later */
/* samples.c - the samples a figure needs (samples.h). */
#include "samples.h"
#include "hist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the figures of per-I/O samples that are a mean or a rate */
static const char *const rates[] = {
	"iops", "bw_bytes", "achieved_iops", "offered_iops", "achieved_pct",
};

/* "lat_", "resp_", "late_": the histograms' figures */
static const char *hist_stat(const char *metric)
{
	static const char *const prefix[] = { "lat_", "resp_", "late_" };

	for (size_t i = 0; i < sizeof(prefix) / sizeof(*prefix); i++)
		if (!strncmp(metric, prefix[i], strlen(prefix[i])))
			return metric + strlen(prefix[i]);
	return NULL;
}

static int is_rate(const char *metric)
{
	for (size_t i = 0; i < sizeof(rates) / sizeof(*rates); i++)
		if (!strcmp(metric, rates[i]))
			return 1;
	return 0;
}

uint64_t nb_samples_need(const char *metric)
{
	const char *st = hist_stat(metric);
	char *end;
	double p;

	if (is_rate(metric))
		return NB_MEAN_MIN_SAMPLES;
	if (!st)
		return 0;
	if (!strcmp(st, "mean_us"))
		return NB_MEAN_MIN_SAMPLES;
	if (!strcmp(st, "max_us"))
		return 1;
	if (st[0] != 'p')
		return 0;
	p = strtod(st + 1, &end);
	if (end == st + 1 || strcmp(end, "_us") || !(p > 0 && p < 100))
		return 0;
	return nb_hist_min_samples(p);
}

int nb_samples_mark(json_t *it, uint64_t timed, uint64_t offered)
{
	const json_t *m = json_object_get(it, "metrics");
	json_t *list = json_array();
	uint64_t most = offered > timed ? offered : timed;
	const char *name;
	json_t *v;

	json_object_foreach((json_t *)m, name, v) {
		uint64_t need = nb_samples_need(name);

		if (need && (is_rate(name) ? most : timed) < need)
			json_array_append_new(list, json_string(name));
	}
	json_object_set_new(it, "timed", json_integer((json_int_t)timed));
	json_object_del(it, "unmeasured");
	if (json_array_size(list))
		json_object_set_new(it, "unmeasured", list);
	else
		json_decref(list);
	return most < NB_MEAN_MIN_SAMPLES;
}

int nb_samples_short(const json_t *it, const char *metric)
{
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(it, "unmeasured"), i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), metric))
			return 1;
	return 0;
}

int nb_samples_entry_short(const json_t *entry, const char *metric)
{
	const json_t *it;
	size_t i;

	json_array_foreach(json_object_get(entry, "iterations"), i, it)
		if (nb_samples_short(it, metric))
			return 1;
	return 0;
}

void nb_samples_why(char *buf, size_t len, int n, uint64_t timed)
{
	snprintf(buf, len, "iteration %d timed %llu I/O%s, fewer than the %d a "
		 "mean needs", n, (unsigned long long)timed, timed == 1 ? "" : "s",
		 NB_MEAN_MIN_SAMPLES);
}
