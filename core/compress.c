/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "compress.h"
#include "err.h"

#include <errno.h>
#include <lz4.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

const char *nb_zalg_name(int alg)
{
	static const char *names[NB_Z_N] = { "lz4", "gzip", "zstd", "lzjb" };

	return alg >= 0 && alg < NB_Z_N ? names[alg] : "?";
}

int nb_zalg_of_zfs(const char *prop)
{
	if (!strcmp(prop, "lz4"))
		return NB_Z_LZ4;
	if (!strncmp(prop, "gzip", 4))
		return NB_Z_GZIP;
	if (!strncmp(prop, "zstd", 4))
		return NB_Z_ZSTD;
	/* "on" is lzjb on pools older than the lz4 feature (zfs-fuse's) */
	if (!strcmp(prop, "lzjb") || !strcmp(prop, "on"))
		return NB_Z_LZJB;
	return -1;
}

/*
 * lzjb's format, counted: items in groups of eight behind a map byte; a
 * literal is its byte; a copy of 3 to 66 bytes from up to 1023 bytes back
 * is two bytes.  One position is remembered for each hash of three bytes
 * (1024 of them), as lzjb does; the hash is nasbench's.  Returns the
 * bytes the encoding takes.
 */
#define LZJB_MIN 3
#define LZJB_MAX 66
#define LZJB_WINDOW 1024

static size_t lzjb_size(const unsigned char *p, size_t n)
{
	uint32_t last[1024];
	size_t out = 0, items = 0, i = 0;

	memset(last, 0xff, sizeof(last));
	while (i < n) {
		uint32_t h, c;
		size_t len = LZJB_MIN;

		if (items++ % 8 == 0)
			out++;
		if (i + LZJB_MIN > n) {
			out++, i++;
			continue;
		}
		h = ((uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2]) *
		    2654435761u >> 22;
		c = last[h];
		last[h] = (uint32_t)i;
		if (c == UINT32_MAX || i - c >= LZJB_WINDOW ||
		    memcmp(p + c, p + i, LZJB_MIN)) {
			out++, i++;
			continue;
		}
		while (len < LZJB_MAX && i + len < n && p[c + len] == p[i + len])
			len++;
		out += 2;
		i += len;
	}
	return out;
}

size_t nb_zsize(int alg, const void *buf, size_t len)
{
	size_t cap, got = 0;
	void *out;

	if (alg == NB_Z_LZJB)
		return lzjb_size(buf, len);
	cap = alg == NB_Z_LZ4 ? (size_t)LZ4_compressBound((int)len) :
	      alg == NB_Z_GZIP ? compressBound(len) : ZSTD_compressBound(len);
	out = malloc(cap);
	if (!out)
		return 0;
	if (alg == NB_Z_LZ4) {
		int n = LZ4_compress_default(buf, out, (int)len, (int)cap);

		got = n > 0 ? (size_t)n : 0;
	} else if (alg == NB_Z_GZIP) {
		uLongf n = cap;

		got = compress2(out, &n, buf, len, 6) == Z_OK ? n : 0;
	} else if (alg == NB_Z_ZSTD) {
		size_t n = ZSTD_compress(out, cap, buf, len, 3);

		got = ZSTD_isError(n) ? 0 : n;
	}
	free(out);
	return got;
}

int nb_zsample_init(struct nb_zsample *z, size_t block, uint64_t seed)
{
	memset(z, 0, sizeof(*z));
	z->block = block < NB_ZRECORD ? block : NB_ZRECORD;
	if (!z->block)
		z->block = 512;
	z->cap = NB_ZSAMPLE_BYTES / z->block;
	z->buf = malloc(z->cap * z->block);
	z->len = calloc(z->cap, sizeof(*z->len));
	if (!z->buf || !z->len) {
		nb_zsample_free(z);
		return nb_err(-ENOMEM, "out of memory for a sample of %zu blocks",
			      NB_ZSAMPLE_BYTES / (block ? block : 512));
	}
	nb_rng_seed(&z->rng, seed ^ 0x7a73616d706c65ULL);
	return 0;
}

void nb_zsample_add(struct nb_zsample *z, const void *buf, size_t len)
{
	uint64_t at;

	if (!z->buf)
		return;
	/* a block larger than a record: each record of it offered */
	for (; len > z->block; len -= z->block, buf = (const char *)buf + z->block)
		nb_zsample_add(z, buf, z->block);
	z->seen++;
	/* a reservoir: the Nth block replaces one held with chance cap / N */
	at = z->n < z->cap ? z->n++ : nb_rng_below(&z->rng, z->seen);
	if (at >= z->cap)
		return;
	memcpy(z->buf + at * z->block, buf, len);
	z->len[at] = (uint32_t)len;
}

void nb_zsample_free(struct nb_zsample *z)
{
	free(z->buf);
	free(z->len);
	z->buf = NULL;
	z->len = NULL;
	z->n = z->cap = 0;
}

int nb_zsample_ratios(const struct nb_zsample *z, struct nb_zratios *out)
{
	uint64_t in = 0, packed[NB_Z_N] = { 0 };
	unsigned char *rec = malloc(NB_ZRECORD);
	size_t fill = 0;

	memset(out, 0, sizeof(*out));
	if (!z->n || !rec) {
		free(rec);
		return -ENOENT;
	}
	/* consecutive blocks of the sample into records, each compressed */
	for (size_t i = 0; i <= z->n; i++) {
		size_t len = i < z->n ? z->len[i] : 0;

		if (fill && (i == z->n || fill + len > NB_ZRECORD)) {
			for (int a = 0; a < NB_Z_N; a++) {
				size_t s = nb_zsize(a, rec, fill);

				packed[a] = s && packed[a] != UINT64_MAX ?
					    packed[a] + s : UINT64_MAX;
			}
			in += fill;
			fill = 0;
		}
		if (i < z->n) {
			memcpy(rec + fill, z->buf + i * z->block, len);
			fill += len;
		}
	}
	free(rec);
	for (int a = 0; a < NB_Z_N; a++)
		out->ratio[a] = packed[a] && packed[a] != UINT64_MAX ?
				(double)in / (double)packed[a] : 0;
	out->bytes = in;
	out->blocks = z->n;
	return 0;
}
