/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "pool.h"

#include <stdlib.h>

int nb_hist_from_json(const json_t *arr, struct nb_hist *h)
{
	const json_t *pair;
	size_t i;

	if (!json_is_array(arr))
		return -1;
	json_array_foreach(arr, i, pair) {
		const json_t *lo = json_array_get(pair, 0), *n = json_array_get(pair, 1);
		uint64_t v, c;
		unsigned idx;

		if (!json_is_integer(lo) || !json_is_integer(n) ||
		    json_integer_value(lo) < 0 || json_integer_value(n) < 0)
			return -1;
		v = (uint64_t)json_integer_value(lo);
		c = (uint64_t)json_integer_value(n);
		if (!c)
			continue;
		idx = nb_hist_index(v);
		h->bucket[idx] += c;
		h->count += c;
		h->sum += (double)v * (double)c;
		if (v < h->min)
			h->min = v;
		if (v > h->max)
			h->max = v;
	}
	return 0;
}

static json_t *ci(const struct nb_hist *h, double p)
{
	uint64_t lo, hi;

	if (h->count < nb_hist_min_samples(p) || nb_hist_ci(h, p, &lo, &hi) < 0)
		return json_null();
	return json_pack("[f, f]", (double)lo / 1e3, (double)hi / 1e3);
}

static json_t *pooled_one(const json_t *its, const char *key)
{
	struct nb_hist *h = malloc(sizeof(*h));
	const json_t *it;
	json_t *out = NULL;
	size_t i;
	int n = 0;

	if (!h)
		return NULL;
	nb_hist_init(h);
	json_array_foreach(its, i, it) {
		const json_t *arr = json_object_get(it, key);

		if (arr && !nb_hist_from_json(arr, h))
			n++;
	}
	if (n && h->count)
		out = json_pack("{s:I, s:i, s:f, s:f, s:f, s:f, s:o, s:o, s:b, s:b}",
				"samples", (json_int_t)h->count, "iterations", n,
				"p50_us", (double)nb_hist_percentile(h, 50) / 1e3,
				"p90_us", (double)nb_hist_percentile(h, 90) / 1e3,
				"p99_us", (double)nb_hist_percentile(h, 99) / 1e3,
				"p99.9_us", (double)nb_hist_percentile(h, 99.9) / 1e3,
				"p99_ci_us", ci(h, 99), "p99.9_ci_us", ci(h, 99.9),
				"enough_p99", h->count >= nb_hist_min_samples(99),
				"enough_p99.9", h->count >= nb_hist_min_samples(99.9));
	free(h);
	return out;
}

json_t *nb_result_pooled(const json_t *entry)
{
	const json_t *its = json_object_get(entry, "iterations");
	json_t *lat = pooled_one(its, "lat_hist_ns");
	json_t *resp = pooled_one(its, "resp_hist_ns");
	json_t *out;

	if (!lat && !resp)
		return NULL;
	out = json_object();
	if (lat)
		json_object_set_new(out, "lat", lat);
	if (resp)
		json_object_set_new(out, "resp", resp);
	return out;
}
