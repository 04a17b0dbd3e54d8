/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metrics.h - what each figure in a result means.
 *
 * Every iteration of a workload carries a flat object of metrics
 * ("bw_bytes": 9.3e7, "lat_p99_us": 812, ...).  This table says for each
 * metric its unit, whether more is better, and how to show it, so compare,
 * report and accept treat every workload's figures alike.  Names users
 * write ("mb_s", "p99_us") are aliases of stored metrics with a scale.
 */
#ifndef NB_METRICS_H
#define NB_METRICS_H

#include <stddef.h>

enum nb_better { NB_HIGHER = 1, NB_LOWER = -1, NB_NEITHER = 0 };

struct nb_metric {
	const char *name;        /* as stored in the result JSON */
	const char *label;       /* column heading: "MB/s" */
	const char *unit;        /* "bytes/s", "us", "ops/s" */
	int better;              /* enum nb_better */
	double show_scale;       /* shown value = stored * show_scale */
	const char *help;
};

/* The descriptor of a stored metric; unknown names get a generic one
 * from their suffix (_us: microseconds, lower is better; _kps: K/s,
 * _per_s: ops/s, _bw_bytes: bytes/s shown as "<prefix> MB/s", _cpu_pct:
 * no better direction; otherwise higher is better).  The generic one is thread-local, valid until the
 * next call (its label too: copy it to keep it). */
const struct nb_metric *nb_metric_find(const char *name);

/* Resolve a user-facing name ("mb_s", "p99_us", "iops", "lat_p99_us") to a
 * stored metric and the factor from stored to user units.  0 or -EINVAL. */
int nb_metric_alias(const char *user, const char **stored, double *factor);

/* Put NAMES in display order: the table's metrics in its order first,
 * then the others in the order given (a workload's own order, e.g. the
 * bonnie++ phases).  Stable. */
void nb_metric_sort(const char **names, size_t n);

/* The headline figure of a workload: the one compare's verdict, the
 * history's trend and the report's grid show.  A sweep's vms (VMs at
 * the objective), else its iops_at_slo; an open loop at a fixed rate's
 * response p99 (resp_p99_us); IOPS for random I/O
 * (RANDOM), else the first of bw_bytes, iops, put_block_bw_bytes (bonnie's
 * block write), sync_iops and seconds that HAS(SRC, name) says the
 * workload carries; NULL when none. */
const char *nb_metric_headline(int random,
			       int (*has)(const void *src, const char *name),
			       const void *src);

/* All known metrics, NULL-name terminated. */
extern const struct nb_metric nb_metrics[];

/* M, already in its display unit, as the grid shows it: "3155", "72.0",
 * "0.569" (whole from 1000, one decimal from 10, else 3 digits). */
void nb_metric_shown(double m, char *out, size_t len);
/* A figure V of METRIC (stored unit) the same way, in METRIC's display
 * unit ("72.0" for 72e6 bytes/s). */
void nb_metric_fig(double v, const char *metric, char *out, size_t len);

#endif
