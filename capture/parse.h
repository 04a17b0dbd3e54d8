/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse.h - what a box's kernel and tools say of its devices' and its NFS
 *           server's I/O, read from their text (docs/capture.md).
 *
 * Pure functions: a text in, counters out; no file is opened and no
 * program run here (capture.c samples, these read what it got), so each is
 * tested on recorded and transcribed outputs (tests/golden/capture/).
 *
 *   Linux    /proc/diskstats       totals since boot, per device
 *            /proc/net/rpc/nfsd    NFS operations since boot (v2, v3, v4)
 *            /sys/block, /dev/zvol the devices' sizes and names (a script's
 *                                  lines, capture.c)
 *   FreeBSD  gstat -b [-d] [-o] [-s]   rates over its interval
 *            iostat -x [-I]        rates, or totals since boot (-I)
 *            nfsstat -s            NFS operations since boot
 *            diskinfo DEV...       the devices' sizes
 *   both     zpool iostat -v [-p]  a pool's operations and bandwidth
 *            zpool iostat -r [-p]  a pool's request sizes, individual and
 *                                  aggregated
 *
 * A table's columns are read by their names in its header; a header with
 * a column nasbench does not know, or without one it needs, is refused
 * (-EINVAL, "gstat: unknown column 'x' in its header: ...") rather than
 * read wrong.  Otherwise a parser returns how many items it read (0: the
 * text was not what it reads).
 *
 * The text is another machine's: a device's name is carried as
 * core/boxtext.h makes it (UTF-8, "\xNN" for the rest); a counter is a
 * whole number of 64 bits at most, a figure finite and at most 2^64; a
 * device (or an NFS line) whose numbers are not is refused and counted
 * (REFUSED), not read as a wrapped or infinite value.  Lines as
 * telemetry/telem_parse.h reads them (CR LF, a line too long refused).
 * A pool's name is kept as the box gave it (it goes back to the box, as
 * a quoted argument of zpool; capture/box.c).
 */
#ifndef NB_CAPTURE_PARSE_H
#define NB_CAPTURE_PARSE_H

#include "../loadfile/loadfile.h"

#include <stddef.h>

#define NB_CP_NAME 96
#define NB_CP_MAXDEV 512
#define NB_CP_MAXPOOL 32

/* A device's I/O: totals since boot (TOTALS) or rates a second over the
 * tool's interval. */
struct nb_cp_dev {
	char name[NB_CP_NAME];
	double reads, writes;        /* requests completed */
	double rmerged, wmerged;     /* requests merged into others (Linux;
				      * -1: the source does not say) */
	double rbytes, wbytes;
};

struct nb_cp_devs {
	int n;
	int totals;              /* 1: since boot; 0: rates over DT */
	double dt;               /* the tool's interval in seconds (0: unknown) */
	struct nb_cp_dev d[NB_CP_MAXDEV];
	int refused;             /* devices whose numbers were not numbers */
	char refused_name[NB_CP_NAME];   /* the first of them */
};

/* The NFS server's operations since boot, by kind (loadfile/loadfile.h's
 * NB_NFS_*), and the bytes it read and wrote (-1: not given). */
struct nb_cp_nfs {
	double ops[NB_NFS_N];
	double rbytes, wbytes;
	int refused;             /* counters that were not numbers */
};

/* A pool's I/O over the tool's last interval: operations and bytes a
 * second; from -r, the histogram's sums (requests, bytes, of which
 * aggregated) over the interval (or a second: only ratios are used). */
struct nb_cp_pool {
	char name[NB_CP_NAME];
	double rops, wops, rbw, wbw;
	int have_hist;
	double h_rreq, h_wreq, h_rbytes, h_wbytes, h_agg;
};

struct nb_cp_pools {
	int n;
	struct nb_cp_pool p[NB_CP_MAXPOOL];
	int refused;             /* rows whose numbers were not numbers */
};

/* A device's size and other name (an LV's "vg0/vm01", a zvol's
 * "tank/vm01"). */
struct nb_cp_info {
	int n;
	struct {
		char name[NB_CP_NAME], alias[NB_CP_NAME];
		unsigned long long size;     /* bytes (0: unknown) */
		int lv;                      /* an LVM logical volume */
		int whole;                   /* a device of its own, not a
					      * partition (a size line) */
	} d[NB_CP_MAXDEV];
};

int nb_cp_diskstats(const char *text, struct nb_cp_devs *d);
int nb_cp_nfsd(const char *text, struct nb_cp_nfs *n);
/* "NAME SECTORS DM_NAME DM_UUID" lines ('-' for none) and "zvol PATH
 * DEVICE" lines (the script of capture/box.c). */
int nb_cp_sysblock(const char *text, struct nb_cp_info *info);

int nb_cp_gstat(const char *text, struct nb_cp_devs *d);
int nb_cp_iostat(const char *text, struct nb_cp_devs *d);
int nb_cp_nfsstat(const char *text, struct nb_cp_nfs *n);
/* diskinfo(8) lines: "/dev/NAME SECTORSIZE BYTES ..." (tabs). */
int nb_cp_diskinfo(const char *text, struct nb_cp_info *info);

/* The pools of 'zpool iostat -v' (the last report), -r's histograms
 * added to those found (or new ones). */
int nb_cp_zpool(const char *text, struct nb_cp_pools *p);
int nb_cp_zpool_hist(const char *text, struct nb_cp_pools *p);

/* NAME is a partition of another device of D ("sda1" of "sda", "loop0p1"
 * of "loop0", "ada0p3" of "ada0"). */
int nb_cp_is_partition(const struct nb_cp_devs *d, const char *name);

const struct nb_cp_dev *nb_cp_dev_find(const struct nb_cp_devs *d,
				       const char *name);

#endif
