/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pool.h - what a set of disks holds in a layout: the layout grammar and
 * capacity as ZFS computes it (OpenZFS 2.1 and later), or as mdadm does.
 *
 * Disks: "5x3TB", "4x4TB,2x8TB" (groups in the order given; vdevs take
 * disks in that order, as 'zpool create tank mirror a b mirror c d' does).
 * Spares are the last disks of the list.
 *
 * Layouts (ZFS unless marked):
 *   stripe        every disk its own vdev              (raid0, single)
 *   mirror        one N-way mirror                     (raid1)
 *   KxmirrorM     K mirrors of the disks split evenly  (3xmirror)
 *   raid10        2-way mirrors, even disks only       (N/2 x mirror)
 *   raidzP        one raidz vdev of every disk         (raidz = raidz1)
 *   KxraidzP      K raidz vdevs of the disks split evenly (2xraidz2)
 *   md-raid5/6/10 mdadm (raid5, raid6: the same); md-raid10 is near-2,
 *                 odd counts allowed
 *
 * ZFS capacity, step by step (docs/hw.md works examples; each constant
 * cites its source in pool.c):
 *   1. each disk: the GPT partition zpool makes of a whole disk, less the
 *      vdev labels and boot reserve (4.5 MiB), aligned to 256 KiB;
 *   2. a vdev: its smallest member x width (raidz, stripe) or x 1 (mirror);
 *   3. metaslabs: the vdev is cut into 2^ms_shift pieces; the rest is lost;
 *   4. deflate: raidz space is shown as if every block were 128 KiB:
 *      x (128 KiB / allocated size of a 128 KiB block, parity and padding
 *      included), in 1/512ths;
 *   5. slop: min(space / 32, 128 GiB) held back (at least 128 MiB);
 *   = usable: what 'zfs list' shows as AVAIL on an empty pool.
 * Data written in records of another size fits usable x (128 KiB ratio /
 * that size's ratio): "at recordsize" below.
 */
#ifndef NB_HW_POOL_H
#define NB_HW_POOL_H

#include <stddef.h>
#include <stdint.h>

#define NB_POOL_MAX_GROUPS 8
#define NB_POOL_MAX_DISKS 1000

enum nb_pool_kind {
	NB_POOL_STRIPE, NB_POOL_MIRROR, NB_POOL_RAIDZ,
	NB_POOL_MD5, NB_POOL_MD6, NB_POOL_MD10,
};

struct nb_pool_disks {
	int ngroups;
	int n[NB_POOL_MAX_GROUPS];
	uint64_t bytes[NB_POOL_MAX_GROUPS];
	int total;
};

struct nb_pool_layout {
	char name[32];           /* canonical: "raidz1", "2xraidz2", "3xmirror" */
	enum nb_pool_kind kind;
	int parity;              /* raidz P; md 1 or 2 */
	int nvdevs;              /* top-level vdevs (md: 1) */
	int width;               /* disks per vdev */
	int zfs;                 /* a ZFS pool (1) or mdadm (0) */
};

struct nb_pool_in {
	struct nb_pool_disks disks;
	int spares;              /* the last disks of the list */
	int ashift;              /* sector = 2^ashift bytes; 12 */
	uint64_t recordsize;     /* bytes (the plan's NB_PLAN_RECORDSIZE) */
	uint64_t volblocksize;   /* 0: a file system; else a zvol's block */
	double reserve;          /* share of each disk left unpartitioned */
	uint64_t max_slop;       /* 128 GiB (OpenZFS 2.1+); 0: no cap (older) */
};

struct nb_pool_cap {
	double raw;              /* every disk of the layout, spares not */
	double after_parity;     /* raw less parity/copies and size mismatch */
	double allocatable;      /* metaslabs, deflated (zpool's free x ratio) */
	double slop;
	double usable;           /* 'zfs list' AVAIL of an empty pool */
	double usable_block;     /* data that fits written at the block size */
	double block_eff;        /* data / allocated at the block size */
	uint64_t block;          /* the record or volblock size used */
	double deflate;          /* 128 KiB data / allocated, as ZFS rounds it */
	int ms_shift;            /* of the first vdev */
	long ms_count;           /* all vdevs */
	double data_disks;       /* disks' worth of data (raidz: width - P per vdev) */
	int may_fail, may_fail_best;
};

/* One group "5x3TB" in the LEN bytes at S: count (1 to NB_POOL_MAX_DISKS)
 * and size; *AFTER (may be NULL) points past the size.  0, or -EINVAL
 * with the detail set. */
int nb_pool_parse_group(const char *s, size_t len, int *n, uint64_t *bytes,
			const char **after);

/* "4x4TB,2x8TB": 0, or -EINVAL with the detail set. */
int nb_pool_parse_disks(const char *s, struct nb_pool_disks *d);

/* LAYOUT for NDISKS disks: 0, or -EINVAL (unknown name with the nearest,
 * too few disks, odd raid10, disks that do not split evenly). */
int nb_pool_parse_layout(const char *s, int ndisks, struct nb_pool_layout *l);

/* Allocated bytes of a block of PSIZE on a raidz vdev of WIDTH disks with
 * PARITY (vdev_raidz_asize), or on a mirror/stripe (PARITY < 0). */
uint64_t nb_pool_asize(uint64_t psize, int width, int parity, int ashift);

/* Capacity of layout L over IN's disks (spares excluded). */
int nb_pool_capacity(const struct nb_pool_in *in, const struct nb_pool_layout *l,
		     struct nb_pool_cap *c);

/* Every layout name for messages and help. */
const char *nb_pool_layouts(void);

#endif
