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
	uint64_t rank, ppm, seen = 0, lo, hi, mid;

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
	if (rank < 1)
		rank = 1;
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
