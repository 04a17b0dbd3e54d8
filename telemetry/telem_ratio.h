/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_ratio.h - what the box made of the data (docs/data.md): the
 *                 compression and dedup ratios of the ZFS dataset that
 *                 holds the target's data, read over the telemetry's
 *                 source ('zfs list', 'zfs get', 'zpool get'; zfs-fuse,
 *                 OpenZFS and FreeBSD all answer them).
 *
 * The ratios are ZFS's, of everything in the dataset (the pool, for
 * dedup), and move as each transaction group reaches the disks: a few
 * seconds behind the writes.  An answer that is no ratio (absent, not a
 * number, below 1 or above NB_TR_MAX) is left out, never guessed.
 */
#ifndef NB_TELEM_RATIO_H
#define NB_TELEM_RATIO_H

#include <jansson.h>
#include <stddef.h>

#include "telem_parse.h"
#include "telem_pool.h"

#define NB_TR_MAX 1000.0

struct nb_tr_zfs {
	char dataset[256], pool[NB_TP_NAME];
	char compression[32], dedup[32];   /* the properties ("" unknown) */
	double compressratio, dedupratio;  /* 0: not said */
};

/* The dataset whose mountpoint holds PATH, from 'zfs list -H -o
 * name,mountpoint' (the longest match): 1 with DS set, else 0. */
int nb_tr_dataset_of(const char *text, const char *path, char *ds, size_t len);

/* A ratio as ZFS prints it ("1.99x", "1.99", "1.00x"): 0 with *OUT, or
 * -EINVAL (nothing set) for anything else. */
int nb_tr_ratio(const char *s, double *out);

/* 'zfs get -H -o property,value compressratio,compression,dedup DS' and
 * 'zpool get dedupratio POOL' (its table, header or not), joined, into
 * Z's properties and ratios (what they do not say is left as it was). */
void nb_tr_parse(const char *text, struct nb_tr_zfs *z);

/* Z as the telemetry's "zfs" object: { "dataset", "compression",
 * "compressratio", "dedup", "dedupratio" } (what was said). */
json_t *nb_tr_json(const struct nb_tr_zfs *z);

/* Whether the target's data (nb_telem_set_path) is on a ZFS dataset of
 * TM's box: its ARC then caches it. */
struct nb_telem;
int nb_telem_on_zfs(struct nb_telem *tm);

/* The ARC's counters now, one reading over TM's source (not the
 * sampler's: a workload's own steps, docs/data.md): 0 with ARC set, or
 * -ENOENT (the box has no ARC, or did not answer). */
int nb_telem_arc_now(struct nb_telem *tm, struct nb_tp_arc *arc);
/* The hit % of demand reads (all reads where the box counts no demand)
 * between readings A and B; -1 when either has none, or a counter went
 * back (a reload: a gap, not a figure). */
double nb_tr_arc_hit(const struct nb_tp_arc *a, const struct nb_tp_arc *b);

#endif
