/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "datagen.h"
#include "err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void nb_rng_seed(struct nb_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t nb_rng_next(struct nb_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t nb_rng_below(struct nb_rng *r, uint64_t n)
{
	/* Lemire's multiply-shift; the bias is < n / 2^64, immaterial here */
	return (uint64_t)(((__uint128_t)nb_rng_next(r) * n) >> 64);
}

void nb_datagen_fill(struct nb_rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t v;

	for (; len >= 8; len -= 8, p += 8) {
		v = nb_rng_next(r);
		memcpy(p, &v, 8);
	}
	if (len) {
		v = nb_rng_next(r);
		memcpy(p, &v, len);
	}
}

void nb_rng_wide_seed(struct nb_rng_wide *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		for (int l = 0; l < NB_RNG_LANES; l++)
			r->s[i][l] = splitmix64(&seed);
}

/* One step of every lane into OUT: xoshiro256** with the multiplications
 * by 5 and 9 as shifts and adds (no 64-bit vector multiply before AVX-512). */
static inline void wide_step(uint64_t s[4][NB_RNG_LANES], uint64_t *out)
{
	for (int l = 0; l < NB_RNG_LANES; l++) {
		uint64_t x = s[1][l] + (s[1][l] << 2), y = rotl(x, 7);
		uint64_t t = s[1][l] << 17;

		out[l] = y + (y << 3);
		s[2][l] ^= s[0][l];
		s[3][l] ^= s[1][l];
		s[1][l] ^= s[2][l];
		s[0][l] ^= s[3][l];
		s[2][l] ^= t;
		s[3][l] = rotl(s[3][l], 45);
	}
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
void nb_datagen_fill_wide(struct nb_rng_wide *r, void *buf, size_t len)
{
	uint64_t s[4][NB_RNG_LANES], out[NB_RNG_LANES];
	unsigned char *p = buf;

	memcpy(s, r->s, sizeof(s));
	for (; len >= sizeof(out); len -= sizeof(out), p += sizeof(out)) {
		wide_step(s, out);
		memcpy(p, out, sizeof(out));
	}
	if (len) {
		wide_step(s, out);
		memcpy(p, out, len);
	}
	memcpy(r->s, s, sizeof(s));
}

/* A bijection of 64-bit words that looks random (splitmix64's finaliser). */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void nb_datagen_stamp(void *buf, size_t len, uint64_t offset, uint64_t seq)
{
	unsigned char *p = buf;
	uint64_t key = mix64(seq ^ 0x6e62737461ULL);

	static const uint64_t magic = NB_BLOCK_MAGIC;

	/*
	 * Every 512 B sector differs from every sector of every other write:
	 * a slot's buffer is reused, and without this 7 of 8 sectors of each
	 * 4 KiB came back unchanged write after write (a box deduplicating
	 * below 4 KiB stored an eighth of what was sent).  A 4 KiB block's
	 * first sector starts with (magic, offset, seq), which the LUN guard
	 * and integrity know; the others with 16 bytes hashed from (offset,
	 * seq): plain counters there would repeat 14 of 16 bytes from one
	 * sector to the next, which a compressor finds (lz4, xz: ~1%).
	 */
	for (size_t o = 0; o + 24 <= len; o += 4096) {
		uint64_t off = offset + o, w[2];

		memcpy(p + o, &magic, 8);
		memcpy(p + o + 8, &off, 8);
		memcpy(p + o + 16, &seq, 8);
		for (size_t sec = o + 512; sec < o + 4096 && sec + 16 <= len;
		     sec += 512) {
			w[0] = mix64((offset + sec) ^ key);
			w[1] = mix64(w[0] + key);
			memcpy(p + sec, w, 16);
		}
	}
}

/* ---- what the data looks like (docs/data.md) ---- */

int nb_dataspec_plain(const struct nb_dataspec *d)
{
	return !d || (d->ratio <= 1 && !d->dedupe_pct);
}

int nb_data_ratio_parse(const char *s, double *ratio)
{
	char *end;
	double v;

	if (!strcmp(s, "incompressible") || !strcmp(s, "none")) {
		*ratio = 1;
		return 0;
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v))
		goto bad;
	if (*end == '%' && !end[1]) {
		if (v < 0 || v > 100 - 100 / NB_DATA_RATIO_MAX)
			return nb_err(-EINVAL, "compression '%s': a share that "
				      "compresses away from 0%% to %.2f%% (%g:1)", s,
				      100 - 100 / NB_DATA_RATIO_MAX, NB_DATA_RATIO_MAX);
		*ratio = 100 / (100 - v);
		return 0;
	}
	if (!strcmp(end, ":1") || !strcmp(end, "x")) {
		if (v < 1 || v > NB_DATA_RATIO_MAX)
			return nb_err(-EINVAL, "compression '%s': a ratio from 1:1 "
				      "to %g:1", s, NB_DATA_RATIO_MAX);
		*ratio = v;
		return 0;
	}
bad:
	return nb_err(-EINVAL, "compression '%s': incompressible, a ratio (2:1, "
		      "1.5:1, 2x) or the share that compresses away (50%%)", s);
}

int nb_data_ratio_check(const char *s)
{
	double r;

	return nb_data_ratio_parse(s, &r);
}

char *nb_data_ratio_str(double ratio, char *buf, size_t len)
{
	if (ratio <= 1)
		snprintf(buf, len, "incompressible");
	else
		snprintf(buf, len, "%.3g:1", ratio);
	return buf;
}

unsigned nb_data_sector_random(double ratio)
{
	long k;

	if (ratio <= 1)
		return 512;
	k = lround(512 / ratio) - NB_DATA_OVERHEAD;
	return k < 24 ? 24 : k > 512 ? 512 : (unsigned)k;
}

/* BUF's sectors: K random bytes from R each, zeros after. */
static void fill_sectors(struct nb_rng *r, unsigned char *p, size_t len,
			 unsigned k)
{
	if (k >= 512) {
		nb_datagen_fill(r, p, len);
		return;
	}
	for (size_t o = 0; o < len; o += 512) {
		size_t n = len - o < 512 ? len - o : 512;

		nb_datagen_fill(r, p + o, n < k ? n : k);
		if (n > k)
			memset(p + o + k, 0, n - k);
	}
}

int nb_datagen_write(const struct nb_dataspec *d, struct nb_rng *r, void *buf,
		     size_t len, uint64_t off, uint64_t seq)
{
	unsigned k = nb_data_sector_random(d->ratio);
	struct nb_rng dup;
	uint64_t id;

	if (d->dedupe_pct && nb_rng_below(r, 100) < d->dedupe_pct) {
		id = nb_rng_below(r, NB_DEDUPE_SET);
		/* the same bytes whenever block ID of this length is written */
		nb_rng_seed(&dup, mix64(d->seed ^ mix64(id + 1) ^ (len * 0x9e3779b97f4a7c15ULL)));
		fill_sectors(&dup, buf, len, k);
		nb_datagen_stamp(buf, len, ~id, 0);
		return (int)id;
	}
	fill_sectors(r, buf, len, k);
	nb_datagen_stamp(buf, len, off, seq);
	return -1;
}

uint64_t nb_fnv1a(const void *buf, size_t len, uint64_t h)
{
	const unsigned char *p = buf;

	if (!h)
		h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/*
 * The block checksum: FNV-1a's xor-multiply step over 64-bit words rather
 * than bytes, 8x faster (bigfile's verify must outrun any box) and just as
 * sure to see a single corrupted word: each step is a bijection of the
 * state, so two blocks that differ in one word always sum differently.
 */
static uint64_t sum_words(const unsigned char *p, size_t len, uint64_t h)
{
	uint64_t w;

	for (; len >= 8; len -= 8, p += 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0x100000001b3ULL;
	}
	return len ? nb_fnv1a(p, len, h) : h;
}

static uint64_t block_sum(const unsigned char *p, size_t block)
{
	size_t at = offsetof(struct nb_block_hdr, sum);
	uint64_t h = sum_words(p, at, 0xcbf29ce484222325ULL);

	h = sum_words(p + at + 8, block - at - 8, h);
	return h ^ (h >> 29);
}

void nb_block_fill(void *buf, size_t block, uint64_t offset, uint64_t run_id,
		   uint64_t seq)
{
	struct nb_block_hdr h = { NB_BLOCK_MAGIC, offset, run_id, seq, 0 };
	unsigned char *p = (unsigned char *)buf + sizeof(h);
	size_t len = block - sizeof(h);
	struct nb_rng r;
	uint64_t sum, v;

	/* one pass: generate and checksum together (what block_sum computes) */
	nb_rng_seed(&r, run_id ^ (offset * 0x9e3779b97f4a7c15ULL) ^ (seq << 48));
	sum = sum_words((const unsigned char *)&h,
			offsetof(struct nb_block_hdr, sum), 0xcbf29ce484222325ULL);
	for (; len >= 8; len -= 8, p += 8) {
		v = nb_rng_next(&r);
		memcpy(p, &v, 8);
		sum = (sum ^ v) * 0x100000001b3ULL;
	}
	if (len) {
		v = nb_rng_next(&r);
		memcpy(p, &v, len);
		sum = nb_fnv1a(p, len, sum);
	}
	h.sum = sum ^ (sum >> 29);
	memcpy(buf, &h, sizeof(h));
}

enum nb_block_state nb_block_check(const void *buf, size_t block,
				   uint64_t offset, uint64_t run_id, uint64_t seq)
{
	struct nb_block_hdr h;

	memcpy(&h, buf, sizeof(h));
	if (h.magic != NB_BLOCK_MAGIC)
		return NB_BLOCK_FOREIGN;
	if (h.sum != block_sum(buf, block))
		return NB_BLOCK_CORRUPT;
	if (h.run_id != run_id)
		return NB_BLOCK_FOREIGN;
	if (h.offset != offset)
		return NB_BLOCK_MISPLACED;
	if (h.seq != seq)
		return NB_BLOCK_STALE;
	return NB_BLOCK_OK;
}
