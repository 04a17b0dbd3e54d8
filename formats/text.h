/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text.h - the table a person reads at the end of a run.
 */
#ifndef NB_REPORT_TEXT_H
#define NB_REPORT_TEXT_H

#include <jansson.h>
#include <stdio.h>

/* One line per target x workload: median MB/s and IOPS with their spread,
 * latency percentiles, status; then warnings and reasons. */
void nb_text_result(FILE *out, const json_t *doc);

/* The seed workloads' own figures (bonnie++ layout, xz, syncprobe verdict);
 * nothing when the run had none.  Called at the end of nb_text_result. */
void nb_text_seed(FILE *out, const json_t *doc);

/* A load sweep's answers, a line per swept target x workload (its last
 * sweep's capacity, knee, saturation; the median over several); nothing
 * without sweeps.  Called by nb_text_result. */
void nb_text_sweeps(FILE *out, const json_t *doc);
/* An open loop at a fixed rate, a line per target x workload: the rate,
 * what it achieved, the pooled response p99 with its interval and sample
 * count, the service p99, the late I/Os (formats/sweep_text.c). */
void nb_text_open(FILE *out, const json_t *doc);
/* A replay of a captured load, a few lines per target x workload: the
 * headroom and the years, today's load and how faithfully it was
 * offered, the busiest bucket as it was (formats/replay_text.c). */
void nb_text_replays(FILE *out, const json_t *doc);
/* The data each entry wrote (its ratios, the box's), and a hot-set
 * sweep's steps and knee (formats/data_text.c, docs/data.md). */
void nb_text_data(FILE *out, const json_t *doc);
/* Steady state, preconditioning and TRIM of each entry, a line each
 * (formats/steady_text.c); called by nb_text_result. */
void nb_text_steady(FILE *out, const json_t *doc);

/* 1: entry WL ran for steady state and reached it, 0: it did not (its
 * figures are the last window's), -1: no steady-state run. */
int nb_text_steady_state(const json_t *wl);

#endif
