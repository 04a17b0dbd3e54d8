/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.h - what the replay workload's files share (replay.c runs it,
 *            replay_out.c writes what it found); not for use outside them.
 *
 * The iteration's "replay" object (docs/replay.md):
 *   { "load", "source", "start", "duration_s", "bucket_s", "busy",
 *     "complete", "population", "idle", "classes",
 *     "today_iops", "read_pct", "sequential_pct", "mean_bytes",
 *     "data_set_bytes", "captured_bytes",
 *     "vms": [ { "name", "count", "iops", "read_pct", "bs_read", "bs_write",
 *                "sequential_pct", "share_pct", "region_bytes",
 *                "region_base", "iops_peak" } ],
 *     "objective", "scales", "headroom", "found", "lower_bound",
 *     "interpolated", "text", "growth", "growth_from", "years",
 *     "today": { "scale", "slo_met", "valid", "resp_p99_us", ...,
 *                "worst_iops_pct", "worst_read_points",
 *                "per_vm": [ { "name", "count", "asked_iops",
 *                              "issued_iops", "asked_read_pct",
 *                              "issued_read_pct" } ] } | null,
 *     "peak": { "bucket", "minute", "rate_iops", "of_busy", "slo_met",
 *               ..., "per_vm" } | null, "peak_why",
 *     "series": { "bucket_s", "read_iops": [], "write_iops": [] } | null }
 * and the metrics headroom, years (with a growth rate), beside the open
 * sweep's (iops_at_slo, sweep_steps, sat_iops, slo_bw_bytes); its curve
 * is the iteration's "sweep", each step with its "scale".
 */
#ifndef NB_WL_REPLAY_H
#define NB_WL_REPLAY_H

#include "../workload.h"
#include "../../replay/population.h"
#include "../../loadfile/growth.h"
#include "../../loadfile/loadfile.h"

/* Two scales this close are the same (the rates the sweep runs are
 * written with 9 digits). */
#define NB_WL_REPLAY_SAME 1e-7

struct nb_wl_replay {
	struct nb_wl_ctx *c;
	const char *path;        /* the load file */
	struct nb_load l;
	struct nb_replay_pop pop;        /* the busiest hour */
	struct nb_iospec s;
	struct nb_growth g;
	const char *growth_from; /* "--growth", "the load file", NULL */
	double scales[NB_REPLAY_SCALES];
	size_t nscales;          /* 0: auto */
	double headroom;
	int found, lower_bound, interpolated;
	json_t *today, *peak;    /* the steps at 1x and the busiest bucket */
	char peak_why[256];      /* why the busiest bucket was not replayed */
};

/* replay_out.c: the figures per VM of a step's "per_source" (taken out of
 * STEP) against what POP asked; NULL when STEP has none. */
json_t *nb_wl_replay_per_vm(const struct nb_wl_replay *r,
			 const struct nb_replay_pop *pop, json_t *step);
/* The iteration's "replay" object and its metrics into r->c. */
void nb_wl_replay_put(struct nb_wl_replay *r);

#endif
