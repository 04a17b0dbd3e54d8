/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * openmetrics.h - results and comparisons as OpenMetrics / Prometheus text
 * ('nasbench export --openmetrics', 'nasbench compare --format
 * openmetrics'), for node_exporter's textfile collector, a Pushgateway or
 * any scraper (docs/prometheus.md).
 *
 * Every figure is a gauge named nasbench_<metric>_<unit> in Prometheus'
 * base units: bytes/s as _bytes_per_second, microseconds as _seconds,
 * percentages as _ratio (0..1), bonnie++'s K/s as bytes per second, ops/s
 * as _per_second ("iops" spelled io_ops); a figure without a unit keeps its
 * name.  Its labels: target, workload, every label of the result (names
 * made Prometheus-safe, "label_" before one that would clash), and
 * statistic (median, mean, min, max, stddev over the iterations).  Beside
 * them: nasbench_iterations (how many), nasbench_workload_ok (1: status ok)
 * and nasbench_run_start_timestamp_seconds per result.  A comparison gives
 * nasbench_compare_change_ratio, _regression, _verdict (one sample, value
 * 1, the verdict a label) and the two medians as nasbench_compare_<metric>
 * {side="base"|"new"}, labelled target, workload, metric, base, new.
 *
 * The text ends with "# EOF" (OpenMetrics; a comment to Prometheus' text
 * parser): `promtool check metrics` accepts it.
 */
#ifndef NB_FORMATS_OPENMETRICS_H
#define NB_FORMATS_OPENMETRICS_H

#include <jansson.h>
#include <stdio.h>

/* NDOCS results (read from PATHS, named in messages) to OUT.  0; -EINVAL
 * with the message set when two of them would give the same series (same
 * target, workload and labels: a label must tell them apart); -EIO on a
 * write error. */
int nb_openmetrics_results(json_t *const *docs, const char *const *paths,
			   size_t ndocs, FILE *out);

/* A comparison document (nb_compare_doc()) to OUT.  0 or -EIO. */
int nb_openmetrics_compare(const json_t *doc, FILE *out);

/* The metric family of stored metric NAME: its name without the
 * "nasbench_" prefix ("bw_bytes_per_second") into OUT, the factor from
 * the stored value to it into *SCALE, and its OpenMetrics unit ("seconds",
 * "" when none) returned. */
const char *nb_openmetrics_name(const char *name, char *out, size_t len,
				double *scale);

#endif
