/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The data written at a compression ratio and a share of duplicates
 * (core/datagen.h), and its ratio measured (core/compress.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/compress.h"
#include "../../core/datagen.h"
#include "../../core/err.h"
#include "../../core/guard.h"

static void ratio_parse(void **state)
{
	double r;
	char b[32];

	(void)state;
	assert_int_equal(nb_data_ratio_parse("incompressible", &r), 0);
	assert_true(r == 1);
	assert_int_equal(nb_data_ratio_parse("2:1", &r), 0);
	assert_true(r == 2);
	assert_int_equal(nb_data_ratio_parse("1.5:1", &r), 0);
	assert_true(r == 1.5);
	assert_int_equal(nb_data_ratio_parse("4x", &r), 0);
	assert_true(r == 4);
	/* fio's buffer_compress_percentage: the share that compresses away */
	assert_int_equal(nb_data_ratio_parse("50%", &r), 0);
	assert_true(r == 2);
	assert_int_equal(nb_data_ratio_parse("75%", &r), 0);
	assert_true(r == 4);
	assert_int_equal(nb_data_ratio_parse("0%", &r), 0);
	assert_true(r == 1);
	assert_int_equal(nb_data_ratio_parse("3:2", &r), -EINVAL);
	assert_string_equal(nb_err_last(), "compression '3:2': incompressible, a "
			    "ratio (2:1, 1.5:1, 2x) or the share that compresses "
			    "away (50%)");
	assert_int_equal(nb_data_ratio_parse("9:1", &r), -EINVAL);
	assert_string_equal(nb_err_last(), "compression '9:1': a ratio from 1:1 to 8:1");
	assert_int_equal(nb_data_ratio_parse("0.5:1", &r), -EINVAL);
	assert_int_equal(nb_data_ratio_parse("90%", &r), -EINVAL);
	assert_string_equal(nb_err_last(), "compression '90%': a share that "
			    "compresses away from 0% to 87.50% (8:1)");
	assert_int_equal(nb_data_ratio_parse("", &r), -EINVAL);
	assert_int_equal(nb_data_ratio_parse("nan:1", &r), -EINVAL);
	assert_string_equal(nb_data_ratio_str(1, b, sizeof(b)), "incompressible");
	assert_string_equal(nb_data_ratio_str(2, b, sizeof(b)), "2:1");
	assert_string_equal(nb_data_ratio_str(1.5, b, sizeof(b)), "1.5:1");
	assert_int_equal(nb_data_sector_random(1), 512);
	assert_int_equal(nb_data_sector_random(4), 128 - NB_DATA_OVERHEAD);
}

/* WRITES blocks of BS written as a run writes them, sampled and measured */
static void measure(const struct nb_dataspec *d, size_t bs, size_t writes,
		    struct nb_zratios *out)
{
	unsigned char *b = malloc(bs);
	struct nb_zsample z;
	struct nb_rng r;

	assert_non_null(b);
	nb_rng_seed(&r, 3);
	assert_int_equal(nb_zsample_init(&z, bs, 5), 0);
	for (size_t w = 0; w < writes; w++) {
		nb_datagen_write(d, &r, b, bs, w * bs, w + 1);
		nb_zsample_add(&z, b, bs);
	}
	assert_int_equal(nb_zsample_ratios(&z, out), 0);
	nb_zsample_free(&z);
	free(b);
}

/* The promise: 2:1 and 4:1 (and every ratio up to 8:1) within
 * 10% under lz4, gzip -6 and zstd -3, at 4 KiB and 512 KiB writes; lzjb
 * gets less (9 bits a random byte), and says so */
static void ratios_agree(void **state)
{
	static const double asked[] = { 1, 1.5, 2, 3, 4, 8 };
	static const size_t bs[] = { 4096, 8192, 512 * 1024 };
	struct nb_zratios o;

	(void)state;
	for (size_t b = 0; b < sizeof(bs) / sizeof(bs[0]); b++)
		for (size_t i = 0; i < sizeof(asked) / sizeof(asked[0]); i++) {
			struct nb_dataspec d = { .ratio = asked[i], .seed = 1 };

			measure(&d, bs[b], (8u << 20) / bs[b], &o);
			print_message("%6zu B at %.1f:1: lz4 %.3f gzip %.3f zstd %.3f "
				      "lzjb %.3f\n", bs[b], asked[i], o.ratio[NB_Z_LZ4],
				      o.ratio[NB_Z_GZIP], o.ratio[NB_Z_ZSTD],
				      o.ratio[NB_Z_LZJB]);
			assert_true(o.bytes >= NB_ZSAMPLE_BYTES - bs[b]);
			for (int a = NB_Z_LZ4; a <= NB_Z_ZSTD; a++)
				assert_true(fabs(o.ratio[a] - asked[i]) <= 0.10 * asked[i]);
			if (asked[i] >= 2)
				assert_true(o.ratio[NB_Z_LZJB] < 0.92 * asked[i]);
		}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* compressible data never repeats a 512 B sector (no duplicates asked),
 * and the guard still knows it for nasbench's */
static void unique_sectors(void **state)
{
	struct nb_dataspec d = { .ratio = 4, .seed = 9 };
	enum { BS = 8192, W = 64 };
	static unsigned char b[BS];
	static uint64_t sum[W * BS / 512];
	struct nb_rng r;
	size_t n = 0;

	(void)state;
	nb_rng_seed(&r, 1);
	for (uint64_t w = 0; w < W; w++) {
		assert_int_equal(nb_datagen_write(&d, &r, b, BS, (w & 1) << 20, w + 1), -1);
		for (size_t o = 0; o < BS; o += 512)
			sum[n++] = nb_fnv1a(b + o, 512, 0);
	}
	qsort(sum, n, sizeof(*sum), cmp_u64);
	for (size_t i = 1; i < n; i++)
		assert_true(sum[i] != sum[i - 1]);
	assert_null(nb_guard_identify(b, BS));
	/* a sector's tail is zeros after its random head */
	for (size_t i = nb_data_sector_random(4); i < 512; i++)
		assert_int_equal(b[512 + i], 0);
}

/* 50% duplicates: about half the writes are one of NB_DEDUPE_SET blocks,
 * each the same bytes whenever written, at the ratio asked */
static void duplicates(void **state)
{
	struct nb_dataspec d = { .ratio = 2, .dedupe_pct = 50, .seed = 4 };
	enum { BS = 4096, W = 20000 };
	static unsigned char b[BS], first[NB_DEDUPE_SET][BS];
	int seen[NB_DEDUPE_SET] = { 0 }, dups = 0, id;
	struct nb_rng r;

	(void)state;
	nb_rng_seed(&r, 2);
	for (int w = 0; w < W; w++) {
		id = nb_datagen_write(&d, &r, b, BS, (uint64_t)w * BS, (uint64_t)w + 1);
		if (id < 0)
			continue;
		assert_true(id < NB_DEDUPE_SET);
		dups++;
		if (!seen[id]++)
			memcpy(first[id], b, BS);
		else
			assert_memory_equal(first[id], b, BS);
	}
	print_message("50%% asked: %d of %d writes duplicates\n", dups, W);
	assert_true(dups > W * 0.48 && dups < W * 0.52);
	for (int i = 0; i < NB_DEDUPE_SET; i++)
		assert_true(seen[i] > 0);
	/* another seed (another run): other duplicates */
	d.seed = 5;
	nb_rng_seed(&r, 2);
	do
		id = nb_datagen_write(&d, &r, b, BS, 0, 1);
	while (id < 0);
	assert_memory_not_equal(first[id], b, BS);
}

/* the reservoir keeps a sample of the size it promises from any run, and
 * what it measures of random data is 1:1 */
static void sample(void **state)
{
	struct nb_dataspec d = { .ratio = 1 };
	struct nb_zsample z;
	struct nb_zratios o;

	(void)state;
	assert_int_equal(nb_zsample_init(&z, 4096, 1), 0);
	assert_int_equal(nb_zsample_ratios(&z, &o), -ENOENT);
	nb_zsample_free(&z);
	measure(&d, 1 << 20, 40, &o);
	assert_int_equal(o.blocks, NB_ZSAMPLE_BYTES / NB_ZRECORD);
	assert_true(o.ratio[NB_Z_GZIP] > 0.99 && o.ratio[NB_Z_GZIP] < 1.01);
	assert_int_equal(nb_zalg_of_zfs("gzip-9"), NB_Z_GZIP);
	assert_int_equal(nb_zalg_of_zfs("on"), NB_Z_LZJB);
	assert_int_equal(nb_zalg_of_zfs("zstd-fast"), NB_Z_ZSTD);
	assert_int_equal(nb_zalg_of_zfs("off"), -1);
	assert_string_equal(nb_zalg_name(NB_Z_LZJB), "lzjb");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ratio_parse), cmocka_unit_test(ratios_agree),
		cmocka_unit_test(unique_sectors), cmocka_unit_test(duplicates),
		cmocka_unit_test(sample),
	};

	return cmocka_run_group_tests_name("compress", tests, NULL, NULL);
}
