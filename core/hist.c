/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hist.h"

#include <math.h>
#include <string.h>

#define SUB (1u << NB_HIST_SUB_BITS)     /* 64 buckets per power of two */

void nb_hist_init(struct nb_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned nb_hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < NB_HIST_LINEAR)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - NB_HIST_SUB_BITS;         /* keeps the top 7 bits */
	return NB_HIST_LINEAR + (shift - 1) * SUB +
	       (unsigned)((v >> shift) - SUB);
}

void nb_hist_range(unsigned idx, uint64_t *lo, uint64_t *hi)
{
	unsigned shift;
	uint64_t sub;

	if (idx < NB_HIST_LINEAR) {
		*lo = idx;
		*hi = idx + 1;
		return;
	}
	shift = (idx - NB_HIST_LINEAR) / SUB + 1;
	sub = (idx - NB_HIST_LINEAR) % SUB + SUB;
	*lo = sub << shift;
	*hi = (sub + 1) << shift;
	if (*hi < *lo)          /* the last bucket ends at 2^64 */
		*hi = UINT64_MAX;
}

void nb_hist_add(struct nb_hist *h, uint64_t v)
{
	h->bucket[nb_hist_index(v)]++;
	h->count++;
	h->sum += (double)v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

uint64_t nb_hist_percentile(const struct nb_hist *h, double p)
{
	uint64_t rank, ppm;

	if (!h->count)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	/*
	 * nearest-rank: the smallest value with at least p% at or below it.
	 * The rank is computed in integers, p in millionths of the whole:
	 * in floating point ceil(99.9 / 100 * 1000) is 1000, not 999.
	 */
	ppm = (uint64_t)llround(p * 10000.0);
	rank = (uint64_t)(((unsigned __int128)ppm * h->count + 999999) / 1000000);
	return nb_hist_rank(h, rank);
}

uint64_t nb_hist_rank(const struct nb_hist *h, uint64_t rank)
{
	uint64_t seen = 0, lo, hi, mid;

	if (!h->count)
		return 0;
	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return h->max;
	for (unsigned i = 0; i < NB_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen < rank)
			continue;
		nb_hist_range(i, &lo, &hi);
		mid = lo + (hi - lo) / 2;
		if (mid < h->min)
			mid = h->min;
		if (mid > h->max)
			mid = h->max;
		return mid;
	}
	return h->max;
}

double nb_hist_mean(const struct nb_hist *h)
{
	return h->count ? h->sum / (double)h->count : 0.0;
}

void nb_hist_merge(struct nb_hist *dst, const struct nb_hist *src)
{
	if (!src->count)
		return;
	for (unsigned i = 0; i < NB_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t nb_hist_min_samples(double p)
{
	double n;

	if (p <= 0 || p >= 100)
		return 1;
	n = 10.0 / (1.0 - p / 100.0);
	/* 1 - 0.999 is a little less than 0.001 in binary: a relative
	 * slack keeps p99.9's 10000 from becoming 10001 */
	return (uint64_t)ceil(n * (1 - 1e-9));
}

int nb_hist_ci(const struct nb_hist *h, double p, uint64_t *lo, uint64_t *hi)
{
	double n = (double)h->count, q = p / 100.0, np, sd;

	if (!h->count || p <= 0 || p >= 100)
		return -1;
	np = n * q;
	sd = sqrt(n * q * (1.0 - q));
	/* the ranks of the order statistics around the p-quantile that
	 * bracket it with 95% confidence (normal approximation of the
	 * binomial count of samples below it) */
	*lo = np - 1.96 * sd < 1 ? h->min :
	      nb_hist_rank(h, (uint64_t)floor(np - 1.96 * sd));
	if (np + 1.96 * sd + 1 > n)
		return (*hi = h->max), 1;      /* the top is the largest sample */
	*hi = nb_hist_rank(h, (uint64_t)ceil(np + 1.96 * sd) + 1);
	return 0;
}
