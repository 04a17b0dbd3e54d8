/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../core/datagen.h"
#include "../../core/guard.h"

/* random data does not compress: xz gains nothing on it */
/* the size of BUF compressed by xz -6 */
static size_t xz_size(const unsigned char *buf, size_t len)
{
	size_t out_len = len + len / 2, out_pos = 0;
	unsigned char *out = malloc(out_len);

	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_NONE, NULL, buf, len,
						 out, &out_pos, out_len), LZMA_OK);
	free(out);
	return out_pos;
}

static void incompressible(void **state)
{
	size_t len = 1 << 20;
	unsigned char *buf = malloc(len);
	struct nb_rng r;

	(void)state;
	nb_rng_seed(&r, 1);
	nb_datagen_fill(&r, buf, len);
	assert_true(xz_size(buf, len) > len * 0.99);
	free(buf);
}

/* the wide generator: as incompressible, deterministic from its seed,
 * any length (a tail shorter than one step of the lanes) */
static void wide(void **state)
{
	size_t len = 1 << 20;
	unsigned char *buf = malloc(len), again[100];
	struct nb_rng_wide r;

	(void)state;
	nb_rng_wide_seed(&r, 1);
	nb_datagen_fill_wide(&r, buf, len);
	assert_true(xz_size(buf, len) > len * 0.99);
	/* no two lanes alike: the first 8 bytes of each lane differ */
	for (int l = 1; l < NB_RNG_LANES; l++)
		assert_memory_not_equal(buf, buf + 8 * l, 8);
	nb_rng_wide_seed(&r, 1);
	nb_datagen_fill_wide(&r, again, 100);
	assert_memory_equal(buf, again, 100);
	/* the next call goes on after the step the tail came from (100
	 * bytes took four steps of 32) */
	nb_datagen_fill_wide(&r, again, 32);
	assert_memory_equal(buf + 128, again, 32);
	free(buf);
}

static void rng_range(void **state)
{
	struct nb_rng r;
	int seen[10] = { 0 };

	(void)state;
	nb_rng_seed(&r, 7);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = nb_rng_below(&r, 10);

		assert_true(v < 10);
		seen[v]++;
	}
	for (int i = 0; i < 10; i++)
		assert_true(seen[i] > 9000 && seen[i] < 11000);
}

static void stamp(void **state)
{
	unsigned char buf[8192] = { 0 };
	uint64_t v;

	(void)state;
	nb_datagen_stamp(buf, sizeof(buf), 1 << 20, 5);
	memcpy(&v, buf, 8);
	assert_true(v == NB_BLOCK_MAGIC);
	memcpy(&v, buf + 4096 + 8, 8);
	assert_true(v == (1 << 20) + 4096);
	memcpy(&v, buf + 16, 8);
	assert_true(v == 5);
	/* the guard knows nasbench's own data */
	assert_null(nb_guard_identify(buf, sizeof(buf)));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* one buffer reused for 64 writes of 8 KiB, at two offsets (overwrites) and
 * sizes that end inside a sector: no 512 B sector repeats */
static void stamp_every_sector(void **state)
{
	static unsigned char buf[8192];
	static uint64_t sum[64 * 16];
	struct nb_rng r;
	size_t n = 0;

	(void)state;
	nb_rng_seed(&r, 9);
	nb_datagen_fill(&r, buf, sizeof(buf));
	for (uint64_t seq = 1; seq <= 64; seq++) {
		nb_datagen_stamp(buf, sizeof(buf), (seq & 1) << 20, seq);
		for (size_t o = 0; o < sizeof(buf); o += 512)
			sum[n++] = nb_fnv1a(buf + o, 512, 0);
	}
	qsort(sum, n, sizeof(*sum), cmp_u64);
	for (size_t i = 1; i < n; i++)
		assert_true(sum[i] != sum[i - 1]);
	/* the stamps add nothing a compressor finds: xz gains no more on a
	 * stamped 1 MiB than on the random data alone (plain offset and seq
	 * counters in every sector let it gain 1%) */
	{
		size_t len = 1 << 20, plain, stamped;
		unsigned char *big = malloc(len);

		nb_rng_seed(&r, 11);
		nb_datagen_fill(&r, big, len);
		plain = xz_size(big, len);
		nb_datagen_stamp(big, len, 1 << 30, 12345);
		stamped = xz_size(big, len);
		print_message("xz: random 1 MiB -> %zu bytes, stamped -> %zu\n", plain, stamped);
		assert_true(stamped >= plain - plain / 500);
		free(big);
	}
	/* a sector cut short still gets what fits; nothing past LEN */
	memset(buf, 0, sizeof(buf));
	nb_datagen_stamp(buf, 512 + 16, 0, 7);
	assert_true(buf[512 + 8] || buf[512 + 9] || buf[512 + 15]);
	assert_true(buf[512 + 16] == 0);
}

/* printed, not asserted (a shared machine): the stamp costs a fraction of
 * the copy any target makes of the same bytes */
static void stamp_speed(void **state)
{
	size_t len = 1 << 20, rounds = 512;
	unsigned char *buf = malloc(len), *dst = malloc(len);
	struct timespec a, b, c;
	struct nb_rng r;

	(void)state;
	nb_rng_seed(&r, 1);
	nb_datagen_fill(&r, buf, len);
	memset(dst, 0, len);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (size_t i = 0; i < rounds; i++)
		nb_datagen_stamp(buf, len, i * len, i + 1);
	clock_gettime(CLOCK_MONOTONIC, &b);
	for (size_t i = 0; i < rounds; i++) {
		memcpy(dst, buf, len);
		buf[i] ^= dst[len - 1 - i];
	}
	clock_gettime(CLOCK_MONOTONIC, &c);
	double ts = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	double tc = (double)(c.tv_sec - b.tv_sec) + (double)(c.tv_nsec - b.tv_nsec) / 1e9;
	print_message("datagen: stamping every 512 B sector %.1f GB/s, memcpy of the same "
		      "buffer %.1f GB/s\n", (double)(len * rounds) / ts / 1e9,
		      (double)(len * rounds) / tc / 1e9);
	free(buf);
	free(dst);
}

static void blocks(void **state)
{
	static unsigned char b[4096], c[4096];

	(void)state;
	nb_block_fill(b, sizeof(b), 8192, 77, 3);
	assert_int_equal(nb_block_check(b, sizeof(b), 8192, 77, 3), NB_BLOCK_OK);
	assert_int_equal(nb_block_check(b, sizeof(b), 4096, 77, 3), NB_BLOCK_MISPLACED);
	assert_int_equal(nb_block_check(b, sizeof(b), 8192, 77, 4), NB_BLOCK_STALE);
	assert_int_equal(nb_block_check(b, sizeof(b), 8192, 78, 3), NB_BLOCK_FOREIGN);
	memcpy(c, b, sizeof(c));
	c[2000] ^= 1;
	assert_int_equal(nb_block_check(c, sizeof(c), 8192, 77, 3), NB_BLOCK_CORRUPT);
	memset(c, 0, sizeof(c));
	assert_int_equal(nb_block_check(c, sizeof(c), 8192, 77, 3), NB_BLOCK_FOREIGN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(incompressible), cmocka_unit_test(wide),
		cmocka_unit_test(rng_range),
		cmocka_unit_test(stamp), cmocka_unit_test(stamp_every_sector),
		cmocka_unit_test(stamp_speed), cmocka_unit_test(blocks),
	};

	return cmocka_run_group_tests_name("datagen", tests, NULL, NULL);
}
