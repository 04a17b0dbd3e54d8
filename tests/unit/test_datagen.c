#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/datagen.h"
#include "../../core/guard.h"

/* random data does not compress: xz gains nothing on it */
static void incompressible(void **state)
{
	size_t len = 1 << 20, out_len = len + len / 2, out_pos = 0;
	unsigned char *buf = malloc(len), *out = malloc(out_len);
	struct nb_rng r;

	(void)state;
	nb_rng_seed(&r, 1);
	nb_datagen_fill(&r, buf, len);
	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_NONE, NULL, buf, len,
						 out, &out_pos, out_len), LZMA_OK);
	assert_true(out_pos > len * 0.99);
	free(buf);
	free(out);
}

/* the wide generator: as incompressible, deterministic from its seed,
 * any length (a tail shorter than one step of the lanes) */
static void wide(void **state)
{
	size_t len = 1 << 20, out_len = len + len / 2, out_pos = 0;
	unsigned char *buf = malloc(len), *out = malloc(out_len), again[100];
	struct nb_rng_wide r;

	(void)state;
	nb_rng_wide_seed(&r, 1);
	nb_datagen_fill_wide(&r, buf, len);
	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_NONE, NULL, buf, len,
						 out, &out_pos, out_len), LZMA_OK);
	assert_true(out_pos > len * 0.99);
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
	free(out);
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
		cmocka_unit_test(stamp), cmocka_unit_test(blocks),
	};

	return cmocka_run_group_tests_name("datagen", tests, NULL, NULL);
}
