/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * records.h - the failure walk's checked records (docs/failure.md): data
 *             written before a disk fails and read back after, every 4 KiB
 *             block saying what it is (core/datagen.h: magic, offset, run
 *             id, sequence, checksum), as the integrity workload writes.
 *
 * On a file target they are the file 'failure-records' of the scratch
 * directory nasbench.<run-id>/; on a LUN or device, SIZE bytes of the
 * window from OFFSET (past the workloads' data, so no workload writes
 * over them).  The write ends with a flush: the records are on stable
 * storage before the disk fails.
 */
#ifndef NB_WORKLOADS_RECORDS_H
#define NB_WORKLOADS_RECORDS_H

#include <stdint.h>

#include "../workloads/workload.h"

struct nb_records {
	uint64_t offset, size;   /* where (a LUN's window), how many bytes */
	uint64_t blocks;         /* checked in the last read-back */
	uint64_t intact, corrupt, misplaced, stale;
	uint64_t first_bad;      /* the first bad block's offset */
	int verified;            /* 0: the read-back went through this
				  * client's cache (O_DIRECT refused): no
				  * counts */
	double seconds;          /* the last pass's */
};

/* Write R->size bytes of records with C's target, run id, stop and
 * progress (C->iteration unused).  0, -EINTR or -errno (detail set). */
int nb_records_write(struct nb_wl_ctx *c, struct nb_records *r);

/* Read them all back, every block checked: R's counts.  0, -EINTR or
 * -errno (a block that does not check out is a count, not an error). */
int nb_records_check(struct nb_wl_ctx *c, struct nb_records *r);

#endif
