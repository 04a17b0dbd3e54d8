/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_pool.h - the box's pools, from the text of its tools (telem_pool.c):
 *                their vdevs and disks ('zpool iostat -v', the dataset a
 *                path is on), their health, their devices' error counters
 *                and their rebuild ('zpool status', /proc/mdstat).
 */
#ifndef NB_TELEM_POOL_H
#define NB_TELEM_POOL_H

#include "telem_parse.h"

/* ---- their vdevs ---- */

/* A top-level vdev of a pool and the disks it is made of (a single-disk
 * vdev names itself as its one disk). */
struct nb_tp_vdev {
	char pool[NB_TP_NAME], name[NB_TP_NAME];
	int ndisks;
	char disks[NB_TP_VDEV_DISKS][NB_TP_NAME];
	double ops_read, ops_write;   /* of the last report (0: none) */
	int special;             /* a logs, cache or spares device */
};

struct nb_tp_vdevs {
	int n;
	struct nb_tp_vdev v[NB_TP_MAXVDEV];
};

/* The pools' vdevs from 'zpool iostat -v [POOL] [INTERVAL COUNT]'; with
 * several reports, the operations of the last.  Disk names lose a
 * leading "/dev/" (they are then diskstats' and iostat's names). */
int nb_tp_zpool_iostat(const char *text, struct nb_tp_vdevs *v);

/* The pool whose dataset holds PATH, from 'zfs list -H -o name,mountpoint'
 * (the dataset with the longest mountpoint PATH is at or below), into
 * POOL.  1 when found, 0 when PATH is on no dataset. */
int nb_tp_zfs_pool_of(const char *text, const char *path, char *pool,
		      size_t len);

/* ---- their health and their rebuild ---- */

#define NB_TP_MAXPOOL 8
#define NB_TP_POOLDEV 48

/* What a pool's scan (or an md array's sync) is doing, or did last. */
enum nb_tp_scan_kind {
	NB_SCAN_NONE,            /* "none requested", no sync line */
	NB_SCAN_RESILVER,        /* ZFS: a replaced or returning disk filled */
	NB_SCAN_SCRUB,           /* ZFS: every block read and checked */
	NB_SCAN_RECOVERY,        /* md: a disk rebuilt */
	NB_SCAN_RESYNC,          /* md: the members made consistent */
	NB_SCAN_CHECK,           /* md: check or repair */
	NB_SCAN_RESHAPE,         /* md: a reshape */
};

struct nb_tp_scan {
	int kind;                /* enum nb_tp_scan_kind */
	int active;              /* in progress (a paused scrub: 0) */
	int finished;            /* the last one ran to its end */
	int canceled;            /* the last one was stopped */
	int pending;             /* md: DELAYED or PENDING */
	double pct;              /* % done (-1: not said) */
	double rate;             /* bytes/s (ZFS: issued, else scanned;
				  * md: speed) (-1: not said) */
	double eta_s;            /* seconds to go (-1: not said) */
	double took_s;           /* a finished one: how long (-1: not said;
				  * zfs-fuse says whole minutes) */
	double done_bytes;       /* resilvered or repaired (-1: not said) */
	double errors;           /* a finished one's errors (-1: not said) */
};

/* A device of a pool's configuration ('zpool status'), or a member of an
 * md array. */
struct nb_tp_pdev {
	char name[NB_TP_NAME];
	char state[16];          /* ONLINE OFFLINE DEGRADED FAULTED UNAVAIL
				  * REMOVED AVAIL INUSE; md: ONLINE, FAULTED
				  * (F), SPARE (S) */
	int depth;               /* 0 the pool, 1 a top-level vdev, 2 ... */
	int leaf;                /* a disk (no device below it) */
	int special;             /* in logs, cache, spares */
	double read, write, cksum;   /* error counters (-1: not given) */
	int resilvering;         /* "(resilvering)", "12M resilvered" */
};

struct nb_tp_pool {
	char name[NB_TP_NAME];
	char state[16];          /* ONLINE DEGRADED FAULTED ...; md: ONLINE
				  * or DEGRADED (a member missing) */
	int md;                  /* an md array */
	struct nb_tp_scan scan;
	int ndev;
	struct nb_tp_pdev dev[NB_TP_POOLDEV];
	double read, write, cksum;   /* summed over the disks */
	char errors[128];        /* ZFS's "errors:" line */
};

struct nb_tp_pools {
	int n;
	struct nb_tp_pool p[NB_TP_MAXPOOL];
};

/* Every pool of 'zpool status [POOL...]' (zfs-fuse's and Solaris'
 * " scrub:" line, OpenZFS's "  scan:" lines of 0.7 to 2.2, FreeBSD's the
 * same) appended to P.  Returns the number of pools read. */
int nb_tp_zpool_status(const char *text, struct nb_tp_pools *p);
/* Every array of /proc/mdstat appended to P.  Returns their number. */
int nb_tp_mdstat(const char *text, struct nb_tp_pools *p);
/* The pool or array named NAME in P (NULL or "": the only one), or NULL. */
const struct nb_tp_pool *nb_tp_pool_find(const struct nb_tp_pools *p,
					 const char *name);
/* "resilver", "scrub", "recovery", ... (enum nb_tp_scan_kind). */
const char *nb_tp_scan_name(int kind);
/* The scan rebuilds redundancy (a resilver, an md recovery). */
int nb_tp_scan_rebuilds(int kind);

#endif
