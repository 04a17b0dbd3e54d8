/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * data.h - the data an I/O workload writes and where its random I/Os
 *          fall (docs/data.md): the knobs ([suite] compress, dedupe,
 *          random-distribution) onto the spec, and what the run wrote
 *          into the result.
 *
 * What the iteration gets ("data", docs/result.md), when it wrote data
 * nasbench chose and either asked for more than the default or its box
 * is watched (the verdict holds the box's ratio against it):
 *
 *   "data": { "compress": "2:1", "ratio_asked": 2,
 *             "ratio": { "lz4": 1.99, "gzip": 2.0, "zstd": 2.04,
 *                        "lzjb": 1.75 },
 *             "sample_bytes": 4194304, "dedupe_pct": 50,
 *             "blocks": 4096, "duplicates": 2041, "duplicate_set": 64,
 *             "dedupe_ratio_expected": 1.95, "dedupe_unit": 524288 }
 *
 * and the metrics data_compress_ratio (the median of lz4's, gzip's and
 * zstd's) and data_dedupe_ratio (what the blocks written should dedupe
 * to: all of them over the unique ones and the distinct duplicates).
 */
#ifndef NB_WL_DATA_H
#define NB_WL_DATA_H

#include "workload.h"
#include "../core/compress.h"
#include "data_spec.h"

/* Whether C's run of S keeps a sample of what it writes into Z (the
 * engine's hooks->sample): 0 (no sample, Z untouched), 1, or -ENOMEM. */
int nb_wl_data_sample(struct nb_wl_ctx *c, const struct nb_iospec *s,
		      struct nb_zsample *z);

/* What the run R of S wrote (its sample Z, freed) into C's iteration:
 * "data" and the metrics above. */
void nb_wl_data_record(struct nb_wl_ctx *c, const struct nb_iospec *s,
		       const struct nb_io_result *r, struct nb_zsample *z);

/* A sweep's step SC wrote data: its "data" and data_* metrics become
 * C's iteration's (the last step's stand for the sweep's). */
void nb_wl_data_keep(struct nb_wl_ctx *c, const struct nb_wl_ctx *sc);

/* The ratio of the data a run measured, from its iteration's "data" under
 * ALG (enum nb_zalg; -1: the median of lz4, gzip and zstd): 0 when not
 * measured. */
double nb_wl_data_ratio(const json_t *extra, int alg);

#endif
