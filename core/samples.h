/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * samples.h - no figure without the samples to carry it (docs/result.md,
 *             "Counts, windows and samples").
 *
 * One rule for every run, step and iteration.  A figure made of per-I/O
 * samples says something only from a number of them on: a mean or a rate
 * NB_MEAN_MIN_SAMPLES, a percentile p nb_hist_min_samples(p) (about ten
 * samples above it: 20 for p50, 1000 for p99, 10000 for p99.9), a maximum
 * one.  An iteration whose I/Os were timed carries the count ("timed")
 * and lists the figures those samples cannot carry ("unmeasured"); an
 * iteration that cannot carry even a mean is unmeasured as a whole, and
 * its result entry too (status "unmeasured", exit 5): its figures are
 * shown, marked, and never judged (compare, accept, history, report,
 * capacity).
 */
#ifndef NB_SAMPLES_H
#define NB_SAMPLES_H

#include <jansson.h>
#include <stdint.h>

/* Samples a mean or a rate needs (a sweep's objective on the mean too). */
#define NB_MEAN_MIN_SAMPLES 100

/* The samples figure METRIC of an I/O iteration needs: a percentile
 * ("lat_p99_us", "resp_p99.9_us") nb_hist_min_samples(p); a mean or a
 * rate ("lat_mean_us", "iops", "bw_bytes", "achieved_iops", ...)
 * NB_MEAN_MIN_SAMPLES; a maximum 1.  0: not a figure of per-I/O samples
 * (a count, a bonnie++ phase, a capacity): the rule does not apply. */
uint64_t nb_samples_need(const char *metric);

/* Mark iteration IT (its "metrics" read) as timed on TIMED samples of
 * OFFERED I/Os (an open loop's arrivals; 0: a closed loop's, TIMED):
 * sets "timed", and "unmeasured" to the names of the metrics whose need
 * is above their samples (removed when none): the latencies' are TIMED,
 * the rates' the larger of TIMED and OFFERED (a box that answered 5 of
 * 10000 I/Os offered has a measured rate, and no latency).  Returns 1
 * when the rates are unmeasured (the iteration is, as a whole), else 0. */
int nb_samples_mark(json_t *it, uint64_t timed, uint64_t offered);

/* Whether iteration IT lists METRIC as unmeasured. */
int nb_samples_short(const json_t *it, const char *metric);

/* Whether any iteration of result entry ENTRY lists METRIC as
 * unmeasured. */
int nb_samples_entry_short(const json_t *entry, const char *metric);

/* "iteration 2 timed 37 I/Os, fewer than the 100 a mean needs" for
 * iteration number N (1-based) of TIMED samples, into BUF. */
void nb_samples_why(char *buf, size_t len, int n, uint64_t timed);

#endif
