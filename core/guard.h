/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guard.h - the data-loss guard for block targets (LUNs, devices, files).
 *
 * Before the first write, the start of the target is read and writing is
 * refused when it holds a partition table, a file system, or a volume
 * manager's or RAID's signature, unless the target says destroy-data.
 * A target of zeroes, or one nasbench wrote before (its blocks start with
 * NB_BLOCK_MAGIC), needs no confirmation.  Partition tables name the first
 * partition type they know (VMFS, ZFS, Linux, ...); checks that a random
 * block could pass by chance (ext's 2-byte magic, the MBR's 0x55aa) also
 * test the fields around the magic, so nasbench's own data never trips them.
 */
#ifndef NB_GUARD_H
#define NB_GUARD_H

#include <stddef.h>

#include "target.h"

/* Bytes nb_guard_identify() wants to see (the start of the target). */
#define NB_GUARD_PROBE (1024 * 1024 + 64 * 1024)
/* Bytes nb_guard_identify_tail() wants to see (the end of the target):
 * md 0.90/1.0 superblocks and ZFS labels L2/L3 (on 256 KiB alignment). */
#define NB_GUARD_TAIL (768 * 1024)

/* What the first LEN bytes of a target hold: NULL for zeroes or nasbench's
 * own data, else a name ("an MBR partition table", "an ext4 file system",
 * "data nasbench did not write"). */
const char *nb_guard_identify(const unsigned char *buf, size_t len);

/* What the last LEN bytes of a target of SIZE bytes hold (an md RAID
 * member with its superblock at the end, ZFS's end labels), or NULL. */
const char *nb_guard_identify_tail(const unsigned char *buf, size_t len,
				   uint64_t size);

/* What target T holds, read through F (its start, and its end where the
 * target is large enough): 1 with WHAT set ("an ext2/3/4 file system",
 * "a ZFS pool member at its end"), 0 when nothing (zeroes, nasbench's own
 * data), -errno when it cannot be read (detail set).  Reads only. */
int nb_guard_holds(struct nb_target *t, struct nb_file *f, char *what,
		   size_t wlen);

/* 0 when writing to F is allowed; else -EPERM with the reason and the way
 * forward set.  Reads through the target's own runner. */
int nb_guard_check(struct nb_target *t, struct nb_file *f);

#endif
