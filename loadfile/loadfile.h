/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadfile.h - the load file: the load of a box, as 'nasbench capture'
 *              measured it (or a user wrote it), for the replay to offer
 *              a candidate box (docs/capture.md).
 *
 * An INI file in the box file's conventions ('key = value', ';' and '#'
 * comments, errors "FILE:LINE: ..."), readable and editable:
 *
 *   [capture]       where and when it was measured: source, os, counters,
 *                   start, duration, interval, bucket, buckets, busy
 *                   (the percentile of the buckets that is the busiest-hour
 *                   level), complete, stopped, gaps (the spans the box's
 *                   counters could not be counted)
 *   [population]    growth (25%/year, 4vms/year: the replay's default)
 *   [total]         the sum of the VMs, bucket by bucket (as a VM's
 *                   figures, and peak_bucket: the busiest bucket)
 *   [vm NAME]       one VM (count = N: a class of N VMs like it): device,
 *                   count, size, share, iops, iops_mean, iops_peak,
 *                   peak_bucket, read, bs_read, bs_write, sequential,
 *                   sequential_from, burstiness, mbps, mbps_mean, mbps_peak
 *   [series NAME]   the VM's buckets: "INDEX = read_iops write_iops
 *                   read_MB/s write_MB/s sequential_%"
 *   [nfs]           the NFS server's operation mix
 *   [pool NAME]     a ZFS pool's own (physical) I/O
 *   [data]          the box's data and cache (docs/data.md): its ZFS
 *                   compressratio (the replay's data), dedupratio, arc_hit
 *                   (% of demand reads), arc_size, arc_max
 *
 * A VM needs iops, read and the request sizes its reads and writes use;
 * the rest has defaults (the mean and peak are the level, burstiness 1,
 * the sequential share the [vm] profile's).  Comments are not read:
 * nb_load_format(nb_load_parse(nb_load_format(L))) is nb_load_format(L).
 */
#ifndef NB_LOADFILE_H
#define NB_LOADFILE_H

#include <stddef.h>
#include <stdint.h>

#include "growth.h"
#include "../core/atomic_file.h"

#define NB_LOAD_NAME 128
#define NB_LOAD_MAX_VMS 4096
#define NB_LOAD_MAX_BUCKETS (60 * 24 * 31)    /* a month of minutes */

/* One bucket of a VM's series. */
struct nb_load_bucket {
	double r_iops, w_iops;   /* reads and writes a second */
	double r_mbps, w_mbps;   /* MB (10^6) a second */
	double seq;              /* % of its I/Os sequential (-1: unknown) */
};

/* Figures of a VM, of the total, or of a pool (what applies). */
struct nb_load_fig {
	double iops, iops_mean, iops_peak;   /* busiest-hour level, mean, peak */
	double mbps, mbps_mean, mbps_peak;   /* MB/s: the same */
	int peak_bucket;         /* the bucket of iops_peak (-1: unknown) */
	double read;             /* % of I/Os that read */
	double bs_read, bs_write;            /* mean bytes a request */
	double burstiness;       /* iops_peak / iops_mean */
};

enum nb_load_seq { NB_SEQ_ASSUMED, NB_SEQ_MERGES, NB_SEQ_AGGREGATED };

struct nb_load_vm {
	char name[NB_LOAD_NAME];
	char device[NB_LOAD_NAME];   /* the box's name of its volume ("dm-3") */
	int count;               /* VMs like this one (1, or a class) */
	uint64_t size;           /* bytes of its volume (0: unknown) */
	double share;            /* % of the population's data (-1: unknown) */
	struct nb_load_fig f;
	double sequential;       /* % of its I/Os that follow the one before */
	int seq_from;            /* enum nb_load_seq */
	int nbuckets;
	struct nb_load_bucket *series;   /* NULL: none */
	int line;                /* where its section began (0: not read) */
};

/* The NFS server's operations ([nfs]). */
enum { NB_NFS_READ, NB_NFS_WRITE, NB_NFS_COMMIT, NB_NFS_GETATTR,
       NB_NFS_LOOKUP, NB_NFS_ACCESS, NB_NFS_OTHER, NB_NFS_N };
extern const char *const nb_load_nfs_ops[NB_NFS_N];

struct nb_load_nfs {
	int have;
	char source[NB_LOAD_NAME];
	double ops, ops_mean, ops_peak;      /* operations a second */
	double mix[NB_NFS_N];                /* % of the operations */
	double read_mbps, write_mbps;        /* MB/s the server read, wrote
					      * (mean; -1: unknown) */
};

struct nb_load_pool {
	char name[NB_LOAD_NAME];
	char source[NB_LOAD_NAME];
	struct nb_load_fig f;
	double aggregated;       /* % of its requests aggregated (-1: unknown) */
};

/* [data]: ratios, the ARC's hit % and bytes; NAN when not said. */
struct nb_load_data {
	int have;
	double compressratio, dedupratio, arc_hit, arc_size, arc_max;
};

struct nb_load {
	/* [capture] */
	char source[320], os[16], counters[160], start[32];
	double duration_s, interval_s, bucket_s;
	int buckets;
	double busy_pct;         /* the busiest-hour level's percentile */
	int complete;
	char stopped[320];       /* why it stopped early ("": it did not) */
	char gaps[400];          /* what the box said that was not counted
				  * ("": nothing) */
	/* [population] */
	struct nb_growth growth;
	/* [total] */
	int have_total;
	struct nb_load_fig total;
	int nvms;
	struct nb_load_vm *vms;
	struct nb_load_nfs nfs;
	int npools;
	struct nb_load_pool *pools;
	struct nb_load_data data;
};

void nb_load_init(struct nb_load *l);
void nb_load_free(struct nb_load *l);

/* The buckets a percentile P of them needs to be below their peak:
 * 1 / (1 - P/100) (p95: 20).  Fewer, and the busiest-hour level is
 * near the peak of what was captured. */
int nb_load_busy_need(double p);

/* A new VM NAME at the end of L (its figures zero, count 1, share and
 * sequential unknown): NULL when out of memory or at NB_LOAD_MAX_VMS. */
struct nb_load_vm *nb_load_add_vm(struct nb_load *l, const char *name);
struct nb_load_pool *nb_load_add_pool(struct nb_load *l, const char *name);
/* Space for N buckets of VM's series (zeroed).  0 or -ENOMEM. */
int nb_load_series(struct nb_load_vm *vm, int n);
/* The VM named NAME, or NULL. */
struct nb_load_vm *nb_load_vm_find(const struct nb_load *l, const char *name);
/* The population: the sum of the VMs' counts. */
int nb_load_population(const struct nb_load *l);

/* TEXT (a file's contents, NAME in messages) into L, which it must hold
 * freshly initialised.  0, or -EINVAL with "NAME:LINE: ..." set. */
int nb_load_parse(struct nb_load *l, const char *text, const char *name);
/* The same from PATH ("-": standard input). */
int nb_load_read(struct nb_load *l, const char *path);

/* L as the file's text (malloc'd; NULL when out of memory). */
char *nb_load_format(const struct nb_load *l);
/* A load file as an output (core/atomic_file.h): an existing file is
 * replaced only when it is a load file (its header comment, or its
 * [capture] section near the start). */
extern const struct nb_out_kind nb_load_out;

/* L into PATH through nb_atomic_write ("-": standard output); PATH may
 * hold a load file (nb_load_out) and nothing else.  0 or -errno (detail
 * set; -EEXIST: PATH holds another file). */
int nb_load_write(const struct nb_load *l, const char *path);

#endif
