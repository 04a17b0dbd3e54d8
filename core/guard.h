/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guard.h - the data-loss guard for block targets (LUNs, devices, files).
 *
 * Before the first write, the start and the end of the whole device, file
 * or LUN are read (not only the window a box file's offset, size or span
 * gives, and the window's start besides), and writing is refused when they
 * hold a partition table, a file system, or a volume manager's or RAID's
 * signature, or data nasbench did not write, unless the target says
 * destroy-data.
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

/* What the guard reads of a target before its first write: the whole
 * device, file or LUN through WHOLE (from its start, SIZE bytes), and the
 * window the workloads use through WIN (at OFFSET on the whole, LEN
 * bytes; the same as WHOLE when OFFSET is 0).  BUSY: the runner found the
 * target in use (a block device the kernel holds: mounted, swap, md,
 * LVM), said as what it holds; else NULL. */
struct nb_guard_view {
	struct nb_file *whole;
	uint64_t size;
	struct nb_file *win;
	uint64_t offset, len;
	const char *busy;
};

/* 0 when writing to the target is allowed: destroy-data is set, or the
 * whole device holds nothing at its start and end (zeroes or nasbench's
 * own data, no signature) and the window's start nothing either; else
 * -EPERM with what it holds, where, and the way forward set ("target
 * 'lun' (URL) holds an MBR partition table: writing would destroy it; if
 * that is intended, set 'destroy-data = yes' ...").  Reads through the
 * target's own runner.  Every path that writes a target passes here first
 * (docs/security.md, "One data-loss guard"): the block runners call it
 * from their fopen() for writing, once per target. */
int nb_guard_check(struct nb_target *t, const struct nb_guard_view *v);

/* What target T holds, read through F opened on the whole of it (its
 * start, and its end where it is large enough): 1 with WHAT set ("an
 * ext2/3/4 file system", "a ZFS pool member at its end"), 0 when nothing
 * (zeroes, nasbench's own data), -errno when it cannot be read (detail
 * set).  Reads only: nasbench init asks it of every target it offers. */
int nb_guard_holds(struct nb_target *t, struct nb_file *f, char *what,
		   size_t wlen);

#endif
