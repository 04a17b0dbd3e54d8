/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pool.h - a result entry's latency percentiles from its iterations'
 *          histograms pooled (docs/capacity.md, "Percentiles with enough
 *          samples").
 *
 * The median of the iterations' p99s lets one stalled iteration vanish,
 * and a short iteration's p99 rests on a handful of samples.  Every
 * iteration keeps its latency histogram at full resolution (lat_hist_ns,
 * and resp_hist_ns in an open loop); pooled, they give the percentiles a
 * person reads, with the sample count and a 95% confidence interval, and
 * say where a percentile has fewer samples than it needs to judge
 * anything (core/hist.h, nb_hist_min_samples).  The per-iteration
 * figures stay: compare's noise model reads them.
 */
#ifndef NB_POOL_H
#define NB_POOL_H

#include <jansson.h>

#include "hist.h"

/* Add a histogram as the result keeps it ([[lower bound ns, count],
 * ...]) to H.  0, or -1 when ARR is not one (H then holds what came
 * before the bad pair). */
int nb_hist_from_json(const json_t *arr, struct nb_hist *h);

/* ENTRY's iterations pooled: { "lat": {...}, "resp": {...} } for the
 * histograms they have, each { "samples", "iterations", "p50_us",
 * "p90_us", "p99_us", "p99.9_us", "p99_ci_us": [lo, hi] | null,
 * "p99.9_ci_us", "enough_p99", "enough_p99.9" }; NULL when no iteration
 * has one. */
json_t *nb_result_pooled(const json_t *entry);

#endif
