/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zpool.h - 'zpool iostat -v', a row a line: the pools, their classes
 * (logs, cache, spares, special, dedup), their top-level vdevs and the
 * disks below them, with the figures as zpool printed them.  capture/
 * derives a pool's load from the pools' rows, telemetry/ the vdevs and
 * their disks.
 *
 * The rows are told apart by their indent against the header's "pool"
 * (0 before a header): the header's own indent a pool or a class, up to
 * two more a vdev, deeper a disk.  Lines of fewer than 7 words and the
 * dashed rules are no rows.  A "capacity ... operations" line starts a
 * new report (NB_BP_Z_REPORT): with several, the last counts.
 */
#ifndef NB_BOXPARSE_ZPOOL_H
#define NB_BOXPARSE_ZPOOL_H

#include "text.h"

enum nb_bp_zkind {
	NB_BP_Z_REPORT,          /* a new report: forget the rows before */
	NB_BP_Z_POOL,
	NB_BP_Z_CLASS,           /* logs, cache, spares, special, dedup */
	NB_BP_Z_VDEV,
	NB_BP_Z_DISK
};

/* The figures of a row, in zpool's order after its name. */
enum nb_bp_zfig {
	NB_BP_Z_ALLOC, NB_BP_Z_FREE,
	NB_BP_Z_ROPS, NB_BP_Z_WOPS,  /* operations a second */
	NB_BP_Z_RBW, NB_BP_Z_WBW,    /* bytes a second */
	NB_BP_Z_NFIG
};

/* One row: its name as the box wrote it (good until the next row). */
struct nb_bp_zrow {
	enum nb_bp_zkind kind;
	const char *name;
	int words;               /* on its line, the name's with them */
	int headed;              /* a "pool" header came in this report */
	double fig[NB_BP_Z_NFIG];    /* nb_bp_zsize()'s: -1 where no figure */
};

/* A reader of a text: nb_bp_zp_open, then nb_bp_zp_next until 0. */
struct nb_bp_zp {
	const char *text;
	char line[NB_BP_LINE];
	char *tok[NB_BP_MAXTOK];
	int base, headed;
};

void nb_bp_zp_open(struct nb_bp_zp *z, const char *text);
/* The next row into ROW: 1, or 0 at the end of the text. */
int nb_bp_zp_next(struct nb_bp_zp *z, struct nb_bp_zrow *row);

/* "1.2K", "300M", "12", "-": a figure of zpool, a binary suffix (base
 * 1024 unless -p) up to E; "-" is 0; -1 when S is no such figure, or
 * one past 2^64 (inf, 1e999, nan). */
double nb_bp_zsize(const char *s);

#endif
