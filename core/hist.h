/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hist.h - a log-linear latency histogram in constant memory.
 *
 * Values (nanoseconds) below 128 have a bucket each; above, every power of
 * two is split into 64 equal buckets, so a bucket is at most 1/64 (1.6%) of
 * its value wide.  Min, max, count and sum are kept exactly.  Histograms can
 * be merged, so per-thread or per-iteration histograms add up.
 */
#ifndef NB_HIST_H
#define NB_HIST_H

#include <stdint.h>

#define NB_HIST_SUB_BITS 6
#define NB_HIST_LINEAR (1u << (NB_HIST_SUB_BITS + 1))                 /* 128 */
#define NB_HIST_BUCKETS (NB_HIST_LINEAR + (63 - NB_HIST_SUB_BITS) * (1u << NB_HIST_SUB_BITS))

struct nb_hist {
	uint64_t count;
	uint64_t min, max;
	double sum;
	uint64_t bucket[NB_HIST_BUCKETS];
};

void nb_hist_init(struct nb_hist *h);
void nb_hist_add(struct nb_hist *h, uint64_t v);

/* Value at percentile P (0..100, to 1e-4 %), nearest rank computed in
 * integers, within one bucket's width; 0 when empty. */
uint64_t nb_hist_percentile(const struct nb_hist *h, double p);
double nb_hist_mean(const struct nb_hist *h);

/* The RANK-th smallest value (1-based), within one bucket's width. */
uint64_t nb_hist_rank(const struct nb_hist *h, uint64_t rank);

/* Add SRC's samples to DST (iterations, fio clients pooled). */
void nb_hist_merge(struct nb_hist *dst, const struct nb_hist *src);

/* Samples a percentile P needs before it may judge an objective:
 * 10 / (1 - P/100), so that about ten samples lie above it (1000 for p99,
 * 10000 for p99.9; docs/capacity.md). */
uint64_t nb_hist_min_samples(double p);

/* A 95% confidence interval [*LO, *HI] for the P-th percentile from the
 * order statistics of H's samples (the binomial count below the true
 * percentile, normal approximation).  0; 1 when the interval reaches the
 * largest sample (*HI is the maximum: too few samples above it); -1 when
 * H is empty or P is not inside (0, 100). */
int nb_hist_ci(const struct nb_hist *h, double p, uint64_t *lo, uint64_t *hi);

/* Bucket index of V and the [lo, hi) range a bucket covers (for tests). */
unsigned nb_hist_index(uint64_t v);
void nb_hist_range(unsigned idx, uint64_t *lo, uint64_t *hi);

#endif
