/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskstats.h - Linux's /proc/diskstats, a row a device, its counters
 * raw: totals since boot as the kernel keeps them
 * (Documentation/admin-guide/iostats.rst).  capture/ derives a device's
 * requests and bytes from them, telemetry/ a disk's time busy.
 *
 * A row is a line of 14 words or more whose first two (major, minor) are
 * digits; other lines are passed over.  A counter that is not one
 * (digits, 64 bits at most) is 0 and its bit set in BAD: the reader
 * decides which of them it needs (a row it cannot read is refused and
 * counted, never read as a wrapped value).  A sector is 512 bytes
 * whatever the device's.
 */
#ifndef NB_BOXPARSE_DISKSTATS_H
#define NB_BOXPARSE_DISKSTATS_H

#include "text.h"

#include <stdint.h>

/* The counters of a row, in the kernel's order after its name. */
enum nb_bp_dscol {
	NB_BP_DS_READS,          /* reads completed */
	NB_BP_DS_RMERGED,        /* reads merged */
	NB_BP_DS_RSECTORS,       /* sectors read */
	NB_BP_DS_RMS,            /* milliseconds reading */
	NB_BP_DS_WRITES,         /* writes completed */
	NB_BP_DS_WMERGED,        /* writes merged */
	NB_BP_DS_WSECTORS,       /* sectors written */
	NB_BP_DS_WMS,            /* milliseconds writing */
	NB_BP_DS_INFLIGHT,       /* I/Os in progress */
	NB_BP_DS_IOMS,           /* milliseconds doing I/O (busy) */
	NB_BP_DS_WEIGHTED,       /* weighted milliseconds doing I/O */
	NB_BP_DS_N
};

#define NB_BP_DS_BIT(c) (1u << (c))

/* One device's row: its name as the box wrote it (not yet carried as
 * core/boxtext.h makes it; good until the next row is read). */
struct nb_bp_dsrow {
	const char *name;
	uint64_t v[NB_BP_DS_N];
	unsigned bad;            /* NB_BP_DS_BIT(c): v[c] was no counter */
};

/* A reader of a text: nb_bp_ds_open, then nb_bp_ds_next until 0. */
struct nb_bp_ds {
	const char *text;
	char line[NB_BP_LINE];
	char *tok[NB_BP_MAXTOK];
};

void nb_bp_ds_open(struct nb_bp_ds *ds, const char *text);
/* The next device's row into ROW: 1, or 0 at the end of the text. */
int nb_bp_ds_next(struct nb_bp_ds *ds, struct nb_bp_dsrow *row);

#endif
