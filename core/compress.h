/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compress.h - how well the data a run wrote compresses, measured on
 *              the client (docs/data.md).
 *
 * A sample of the written blocks (a reservoir: every block written has
 * the same chance to be in it, whatever the run's length) is compressed
 * in pieces of NB_ZRECORD bytes, ZFS's default recordsize, made of
 * consecutive blocks of the sample (a record of a file written at 4 KiB
 * holds 32 such writes; a larger block is cut into records), by
 *
 *   lz4    liblz4's LZ4_compress_default (what ZFS's lz4 is)
 *   gzip   zlib's deflate at level 6 (gzip -6, ZFS's gzip)
 *   zstd   libzstd at level 3 (zstd -3, ZFS's zstd)
 *   lzjb   ZFS's old default, which no Debian library has: its format
 *          (a map byte before 8 items, a literal a byte, a copy of 3..66
 *          bytes from the last 1 KiB two bytes, one remembered position a
 *          hash of 3 bytes) counted by nasbench's own encoder
 *
 * The ratio is the bytes in over the bytes out of all records.
 */
#ifndef NB_COMPRESS_H
#define NB_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "datagen.h"

#define NB_ZRECORD (128 * 1024)
#define NB_ZSAMPLE_BYTES (4u << 20)   /* the sample at most */

enum nb_zalg { NB_Z_LZ4, NB_Z_GZIP, NB_Z_ZSTD, NB_Z_LZJB, NB_Z_N };

/* "lz4", "gzip", "zstd", "lzjb". */
const char *nb_zalg_name(int alg);

/* The algorithm a ZFS compression property names ("lz4", "gzip-9",
 * "lzjb", "on": lzjb on the old pools that say it, "zstd-3"), or -1
 * ("off", "zle", unknown). */
int nb_zalg_of_zfs(const char *prop);

/* The size of BUF (LEN bytes) compressed by ALG, or 0 when it failed. */
size_t nb_zsize(int alg, const void *buf, size_t len);

struct nb_zsample {
	size_t block;            /* bytes of a block held (a record at most) */
	size_t cap, n;           /* blocks it holds at most, and holds */
	uint64_t seen;           /* blocks offered */
	unsigned char *buf;      /* CAP x BLOCK */
	uint32_t *len;           /* each held block's length */
	struct nb_rng rng;
};

/* A sample of blocks of up to BLOCK bytes (a larger one is taken as
 * records of NB_ZRECORD): 0 or -ENOMEM (detail set). */
int nb_zsample_init(struct nb_zsample *z, size_t block, uint64_t seed);
/* Offer a written block: kept with the reservoir's chance. */
void nb_zsample_add(struct nb_zsample *z, const void *buf, size_t len);
void nb_zsample_free(struct nb_zsample *z);

struct nb_zratios {
	double ratio[NB_Z_N];    /* 0: the algorithm failed */
	uint64_t bytes;          /* compressed: the sample's bytes */
	uint64_t blocks;         /* ... in this many blocks */
};

/* Z's records compressed by every algorithm: 0, or -ENOENT when Z holds
 * nothing. */
int nb_zsample_ratios(const struct nb_zsample *z, struct nb_zratios *out);

#endif
