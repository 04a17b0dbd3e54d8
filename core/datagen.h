/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * datagen.h - incompressible data, fast.
 *
 * A xoshiro256** generator fills buffers at several GB/s per core; writes
 * are stamped with their offset and a sequence number (nb_datagen_stamp) so
 * no two 512 B sectors are equal and a deduplicating box cannot cheat.  Verifying
 * workloads use nb_block_* to put a checked header in every block.
 */
#ifndef NB_DATAGEN_H
#define NB_DATAGEN_H

#include <stddef.h>
#include <stdint.h>

struct nb_rng {
	uint64_t s[4];
};

void nb_rng_seed(struct nb_rng *r, uint64_t seed);
uint64_t nb_rng_next(struct nb_rng *r);
/* Uniform in [0, n); n > 0. */
uint64_t nb_rng_below(struct nb_rng *r, uint64_t n);

/* Fill BUF with LEN random bytes. */
void nb_datagen_fill(struct nb_rng *r, void *buf, size_t len);

/*
 * A wide generator: NB_RNG_LANES xoshiro256** streams stepped together, so
 * the compiler makes vector instructions of them (AVX2 where the CPU has
 * it): several times nb_datagen_fill's rate on one core (about 15 GB/s
 * here against 3-6), for workloads that write fresh data in every chunk
 * from the thread that times the I/O (bonnie's put_block).
 */
#define NB_RNG_LANES 4
struct nb_rng_wide {
	uint64_t s[4][NB_RNG_LANES];
};

void nb_rng_wide_seed(struct nb_rng_wide *r, uint64_t seed);
/* Fill BUF with LEN random bytes (any LEN; fastest in multiples of 32). */
void nb_datagen_fill_wide(struct nb_rng_wide *r, void *buf, size_t len);

/* Overwrite the first 24 bytes of every 4 KiB of BUF with (NB_BLOCK_MAGIC,
 * offset, seq), recognisable as nasbench's by the LUN guard, and the first
 * 16 bytes of every other 512 B sector with (offset, seq): with a distinct
 * SEQ per write, no 512 B sector of one write equals one of another, even
 * when the rest of BUF is reused. */
void nb_datagen_stamp(void *buf, size_t len, uint64_t offset, uint64_t seq);

/*
 * What the data written looks like (docs/data.md): how well it compresses
 * and what share of its blocks repeat.  The zero value (ratio 0 or 1, no
 * duplicates) is nasbench's default, incompressible data of which no two
 * 512 B sectors are equal.
 *
 * Compressible data is fio's buffer_compress_percentage with its default
 * chunk: every 512 B sector is K bytes of fresh random data (the stamp
 * of nb_datagen_stamp among them) and zeros after.  lz4, gzip -6 and zstd
 * -3 all store a random byte in about a byte and a run of zeros in almost
 * nothing, so the three agree on the ratio (within a few %, docs/data.md);
 * K leaves NB_DATA_OVERHEAD bytes a sector for what they spend on a
 * sector's literal run and match.  lzjb (ZFS's old default) spends 9 bits
 * on a random byte and gets about 18% less at 4:1.
 *
 * A duplicate is one of NB_DEDUPE_SET blocks of a run, each a function of
 * the seed, its number and its length, so a box that deduplicates at the
 * block size (ZFS: a record of recordsize or volblocksize, aligned) stores
 * each once: the share D of duplicates gives a ratio of about 1 / (1 - D).
 */
#define NB_DATA_RATIO_MAX 8.0
#define NB_DATA_OVERHEAD 4
#define NB_DEDUPE_SET 64

struct nb_dataspec {
	double ratio;            /* compression ratio asked; <= 1: incompressible */
	unsigned dedupe_pct;     /* % of written blocks that repeat, 0..100 */
	uint64_t seed;           /* the duplicates' contents */
};

/* Whether D asks for the default: incompressible, no duplicates. */
int nb_dataspec_plain(const struct nb_dataspec *d);

/* A compressibility as a user writes it: "incompressible", "R:1" or "Rx"
 * (R from 1 to NB_DATA_RATIO_MAX, "2:1", "1.5:1"), or the share of a
 * block that compresses away, "P%" (fio's buffer_compress_percentage:
 * "50%" is 2:1, "75%" 4:1).  0 with *RATIO (1: incompressible), or
 * -EINVAL with the detail set ("compression '3:2': ..."). */
int nb_data_ratio_parse(const char *s, double *ratio);
/* nb_data_ratio_parse() as a knob's check: 0 or -EINVAL. */
int nb_data_ratio_check(const char *s);
/* The ratio as nb_data_ratio_parse reads it back: "incompressible", "2:1",
 * "1.5:1". */
char *nb_data_ratio_str(double ratio, char *buf, size_t len);

/* The random bytes a 512 B sector holds at RATIO (24..512). */
unsigned nb_data_sector_random(double ratio);

/*
 * Fill BUF, the LEN bytes written at OFF as write SEQ (every write its
 * own), with D's data from R: a duplicate drawn with D's share (its
 * number returned, 0..NB_DEDUPE_SET-1), else fresh data of D's ratio,
 * stamped as nb_datagen_stamp does (-1).
 */
int nb_datagen_write(const struct nb_dataspec *d, struct nb_rng *r, void *buf,
		     size_t len, uint64_t off, uint64_t seq);

/*
 * Self-describing blocks for verification.  Each block of BLOCK bytes
 * starts with a header (magic, offset, run id, sequence, checksum of the
 * block); the rest is derived from (run id, offset, seq), so a reader can
 * tell a corrupted block from one written at another offset (misplaced)
 * or by an earlier pass (stale).
 */
#define NB_BLOCK_MAGIC 0x6e617362656e6368ULL    /* "nasbench" */

struct nb_block_hdr {
	uint64_t magic;
	uint64_t offset;
	uint64_t run_id;
	uint64_t seq;
	uint64_t sum;             /* FNV-1a of the block with this field zero */
};

enum nb_block_state {
	NB_BLOCK_OK = 0,
	NB_BLOCK_CORRUPT,          /* header or payload does not check out */
	NB_BLOCK_MISPLACED,        /* a good block of another offset */
	NB_BLOCK_STALE,            /* a good block of an older sequence */
	NB_BLOCK_FOREIGN,          /* not written by this run */
};

void nb_block_fill(void *buf, size_t block, uint64_t offset, uint64_t run_id,
		   uint64_t seq);
enum nb_block_state nb_block_check(const void *buf, size_t block,
				   uint64_t offset, uint64_t run_id, uint64_t seq);
uint64_t nb_fnv1a(const void *buf, size_t len, uint64_t h);

#endif
