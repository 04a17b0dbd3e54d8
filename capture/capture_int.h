/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capture_int.h - what the capture's files share (not a public header):
 * box.c (the box: what it has, which devices, its scripts), stream.c (the
 * loops on the box and their answers), acc.c (answers into buckets) and
 * derive.c (buckets into the load file's figures).
 */
#ifndef NB_CAPTURE_INT_H
#define NB_CAPTURE_INT_H

#include "capture.h"
#include "parse.h"
#include "../core/spawn.h"
#include "../telemetry/telem.h"
#include "../telemetry/telem_parse.h"

#define CP_MAXSEL 256
#define CP_MAXSTREAM 3

/* A device picked: its name on the box, the VM's name, its size, and
 * whether its counters can tell sequential I/O (request-based devices
 * merge adjacent requests; dm, md, zvols and drbd do not). */
struct cp_sel {
	char name[NB_CP_NAME], vm[NB_CP_NAME];
	unsigned long long size;
	int merges;
};

struct cp_box {
	struct nb_telem *tm;
	int freebsd;
	struct nb_cp_info info;
	int nsel;
	struct cp_sel sel[CP_MAXSEL];
	int npools;
	char pools[NB_CP_MAXPOOL][NB_CP_NAME];   /* as the box names them */
	int pools_left;          /* pools whose figures cannot be read */
	char pool_left[NB_CP_NAME + 64];         /* the first (boxtext) */
	int have_hist;           /* zpool iostat -r answers */
	int have_nfs;            /* /proc/net/rpc/nfsd, or nfsstat -s */
	int have_gstat;          /* FreeBSD: gstat (else iostat -x -I) */
};

/* The box of C: connected, its system told.  0, or -EIO (detail set). */
int cp_box_open(struct cp_box *b, const struct nb_capture_cfg *c);
/* What it has (devices, sizes, names, pools, NFS) and the devices C's
 * pattern picks.  0, -EINVAL (none matches), -EIO. */
int cp_box_inventory(struct cp_box *b, const struct nb_capture_cfg *c,
		     char *picked, size_t len);
void cp_box_close(struct cp_box *b);

enum cp_kind { CP_COUNTERS, CP_ZPOOL, CP_ZPOOL_R };

/* A loop on the box, its answers through a FIFO. */
struct cp_stream {
	int kind;                /* enum cp_kind */
	struct nb_spawn sp;
	struct nb_telem_cmd cmd;
	char script[2048];
	char fifo[128], errpath[128];
	int fd, gone;
	int too_long;            /* an answer passed NB_TELEM_ANSWER_MAX */
	char *buf;
	size_t len, cap;
};

/* The script of each stream of B (interval in seconds), into S; the
 * count. */
int cp_box_streams(struct cp_box *b, double interval, struct cp_stream *s);

/* Start stream S, its FIFO in DIR.  0 or -errno (detail set). */
int cp_stream_start(struct cp_box *b, struct cp_stream *s, const char *dir);
/* What its FIFO holds now, appended; -1 at its end. */
int cp_stream_drain(struct cp_stream *s);
/* The next whole answer ("...@end") of S, cut out (free it), or NULL. */
char *cp_stream_next(struct cp_stream *s);
/* Why S ended: ssh's last line of complaint, or "". */
void cp_stream_why(const struct cp_stream *s, char *buf, size_t len);
void cp_stream_stop(struct cp_stream *s);

/* One answer, its sections parsed. */
struct cp_answer {
	double t;                /* the box's own time (s; < 0: none) */
	int have_devs, have_nfs, have_zpool, have_hist;
	struct nb_cp_devs devs;
	struct nb_cp_nfs nfs;
	struct nb_cp_pools zpool, hist;
};

/* TEXT's "@NAME" sections into A.  0, or -EINVAL when a tool's layout is
 * refused (detail set). */
int cp_answer_parse(const char *text, struct cp_answer *a);

/* The buckets: per picked device, per pool, and the NFS server. */
struct cp_cell {
	double r, w, rm, wm, rb, wb;     /* requests, merged, bytes */
	double cover;            /* seconds of the bucket observed */
};

struct cp_nfscell {
	double ops[NB_NFS_N], rb, wb;
	double cover, bcover;    /* seconds observed (of the bytes) */
};

struct cp_poolcell {
	double r, w, rb, wb, cover;
};

enum cp_gap { CP_GAP_BACK, CP_GAP_JUMP, CP_GAP_REFUSED, CP_GAP_N };

struct cp_acc {
	double t0;               /* the capture's start (this machine, s) */
	double bucket;           /* seconds */
	int nbuckets, ndev, npools;
	struct cp_cell *dev;     /* [bucket * ndev + dev] */
	struct cp_nfscell *nfs;  /* [bucket] */
	struct cp_poolcell *pool;        /* [bucket * npools + pool] */
	struct nb_cp_pool hist[NB_CP_MAXPOOL];   /* -r's sums, per pool */
	int any_merges[CP_MAXSEL];       /* the device merged since boot */
	/* the last totals seen, and when (this machine's clock, s) */
	int have_prev, have_prev_nfs;
	double prev_t, prev_nfs_t;
	struct nb_cp_devs *prev;
	struct nb_cp_nfs prev_nfs;
	double last_t;           /* the latest moment the counters cover */
	/* what the box said that could not be counted: a gap each, its span
	 * left out of the buckets (their figures are over the seconds they
	 * saw), said at the end (cp_acc_gaps) */
	int gaps[CP_GAP_N];
	char gap_first[160];     /* what the first was of: "device 'dm-3'" */
};

int cp_acc_init(struct cp_acc *a, const struct cp_box *b, int nbuckets,
		double bucket);
void cp_acc_free(struct cp_acc *a);
/* An answer of stream KIND received at T (this machine's clock, s). */
void cp_acc_add(struct cp_acc *a, const struct cp_box *b, int kind,
		const struct cp_answer *ans, double t, double interval);
/* Bucket K is covered (counters seen past its end, most of it observed). */
int cp_acc_whole(const struct cp_acc *a, int k);
/* The gaps of A said into BUF ("" when none): "3 spans left out: ...". */
void cp_acc_gaps(const struct cp_acc *a, char *buf, size_t len);

/* What the box holds and caches (zdata.c, docs/data.md): its ARC's
 * counters, each pool's ratios and the bytes it uses (0: not said). */
struct cp_zdata {
	struct nb_tp_arc arc;
	double ratio[NB_CP_MAXPOOL], dedup[NB_CP_MAXPOOL], used[NB_CP_MAXPOOL];
};

/* The box's answer TEXT ("@arc-kstat", "@arc-kv", "@sysctl", "@zfs",
 * "@dedup" sections; cut up in place) into D, B's pools only. */
void cp_zdata_parse(const struct cp_box *b, char *text, struct cp_zdata *d);
/* One reading of B's, of the pools that hold the VMs' data (the picked
 * zvols' pools; with none picked, all of a box that serves NFS): 0,
 * -ENOENT (the VMs' data is on no pool: LVs, files), -EIO (the box did
 * not answer). */
int cp_zdata_read(struct cp_box *b, struct cp_zdata *d);
/* The load file's [data] from the readings at the start S and end E: the
 * VMs' pools' ratios together, the ARC's hit rate over the capture (demand
 * reads where the box counts them), its size at the end. */
void cp_zdata_into(struct nb_load *l, const struct cp_box *b,
		   const struct cp_zdata *s, const struct cp_zdata *e);

/* The load file's figures from the first K buckets of A. */
int cp_derive(struct nb_load *l, const struct cp_acc *a, const struct cp_box *b,
	      const struct nb_capture_cfg *c, int k);

#endif
