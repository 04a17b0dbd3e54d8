/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * planner.h - the pre-purchase planner: what a set of disks in a layout gives
 * behind a network link, for the money.  Capacity is hw/pool.h's; this is
 * the speed model.  docs/hw.md says why each formula is what it is.
 *
 * One disk: B bytes/s streaming, I random 4 KiB IOPS.  A random I/O of s
 * bytes costs t(s) = 1/I + (s - 4K)/B on a real disk (1/I: seek, rotation
 * and the first 4 KiB);
 * on a throttled disk (a token bucket, ci/lab's cgroup) t(s) = max(1/I,
 * s/B), and streaming runs in aggregated I/Os of 128 KiB, so it gives
 * min(B, 128 KiB x I).  Bs below is the streaming rate.  A box that hands a
 * client's stream to throttled disks in smaller I/Os (--box-io: ci/lab's
 * reads with its 64 MiB ARC, 32 KiB) streams min(B, box_io x I); a
 * transaction group's records (random writes) still go out aggregated.
 *
 * Per vdev of w disks (raidz: P parity, d = w - P; eff = block / allocated
 * size of a block, hw/pool.c), block R = recordsize (or volblocksize):
 *   seq write   raidz w*Bs*eff     mirror Bs        stripe Bs
 *   seq read    raidz w*Bs*eff     mirror w*Bs      stripe Bs
 *   rand read   raidz (w/c)/t(R/c), c = min(d, R/sector) columns read
 *               mirror w/t(R)      stripe 1/t(R)    (a read reads its record)
 * The pool is the sum of its vdevs.  4 KiB random writes (copy on write):
 * read the record, then write it anew in the next transaction group:
 *   rand write  1 / (1/rand_read + R/seq_write)     (R = 4 KiB: seq_write/R)
 * mdadm: raid5/6 seq (N-P)*Bs, rand read N/t(4K), rand write N/t(4K)/(2(1+P));
 *   md-raid10 seq read N*Bs, write N/2*Bs, rand N/t(4K) and N/2/t(4K).
 *   (t(4K) = 1/I on a real disk.)
 *
 * Sync writes of W bytes, q in flight, committed together (the ZIL):
 *   no SLOG, W > 32 KiB: the data written in place, then a log block:
 *       T = t_data + t(4K); the commit's ceil(q*W/R) records spread over
 *       the vdevs, k = ceil(records / vdevs) a disk of c bytes each (raidz
 *       R/d rounded up to sectors, mirror and stripe R): t_data = t(k*c)
 *       on a real disk (one positioning), k*t(c) on a throttled one
 *   no SLOG, W <= 32 KiB: copied into the log block: T = q*W/seq_write + 1/I,
 *       and the data is written twice: at most seq_write/2
 *   SLOG (L bytes/s, J sync IOPS): T = q*W/L + 1/J, at most seq_write,
 *       and with --box-mbs B at most 1/(1/B + 1/seq_write): the box takes
 *       each byte into the log and out with its group, one after the other
 *   mdadm: T = q*W/seq_write + 2/I
 *   rate = q*W / (T + W/link1), at most the link.
 * The link carries rate/8 * efficiency bytes/s of payload, efficiency =
 * (MTU-52)/(MTU+38): 0.941 at MTU 1500.  With --paths N the box is
 * reached over N such links with the I/O spread over them (multipath
 * round robin, NFS over several addresses): the link's ceiling is N
 * links' payload, but one sync write crosses one link (link1).  Expected = the lower of disks and
 * link; random IOPS are capped by payload / 4 KiB.  --box-mbs caps every
 * bytes/s figure too (limit "box").
 */
#ifndef NB_HW_PLANNER_H
#define NB_HW_PLANNER_H

#include "pool.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

/* The plan's defaults, said once: nb_planner_defaults() parses them and
 * 'nasbench hw plan's usage shows them (cmd/hw.c). */
#define NB_PLAN_RECORDSIZE "128K"
#define NB_PLAN_ASHIFT 12
#define NB_PLAN_MTU 1500
#define NB_PLAN_SYNC_IO "512K"
#define NB_PLAN_SYNC_QD 1

struct nb_planner_slog {
	int present;
	char name[48];
	double mbs;              /* MB/s (10^6) */
	double sync_iops;        /* small write + cache flush per second */
};

struct nb_planner_in {
	struct nb_pool_in pool;  /* disks, spares, ashift, block sizes, reserve */
	double disk_mbs;         /* MB/s (10^6) per disk; < 0 unknown */
	double disk_iops;        /* random IOPS per disk; < 0 unknown */
	int throttled;           /* disks are a token bucket (ci/lab) */
	double price;            /* per disk; < 0 unknown */
	double base_price;       /* the rest of the box (chassis, RAM, HBA) */
	char currency[16];       /* "" or "EUR", "$"... */
	double box_mbs;          /* the box's own ceiling (CPU, software), MB/s;
				  * < 0 none: a figure measured on fast disks */
	uint64_t box_io;         /* the largest I/O a client's stream reaches a
				  * throttled disk in (ci/lab's reads with
				  * its 64 MiB ARC: 32 KiB); 0: aggregated */
	uint64_t nic_bps;        /* line rate, bits/s; 0: local, no link */
	int paths;               /* links of nic_bps each, the I/O spread over
				  * them (multipath; 1 or 0: one) */
	double efficiency;       /* payload / line rate, 0 < e <= 1 */
	struct nb_planner_slog slog;
	uint64_t sync_io;        /* bytes of one sync write (NB_PLAN_SYNC_IO) */
	int sync_qd;             /* sync writes committed together (1) */
};

struct nb_planner_out {
	struct nb_pool_layout l;
	struct nb_pool_cap cap;
	const char *layout;      /* l.name */
	double data_disks;
	int may_fail, may_fail_best;
	double usable_bytes;
	double disk_read, disk_write;      /* bytes/s the disks give; < 0 unknown */
	double link;                        /* payload bytes/s of every path
					     * together; < 0 no link */
	double read, write;                 /* expected: min(disks, link) */
	const char *read_limit, *write_limit;  /* "disks" | "link" | "box" | NULL */
	double rand_read, rand_write;       /* IOPS; < 0 unknown */
	const char *rand_read_limit, *rand_write_limit;
	double sync_write;                  /* bytes/s, no SLOG; < 0 unknown */
	double sync_write_slog;             /* bytes/s with --slog; < 0 none */
	const char *sync_limit, *sync_slog_limit;
	double price_total;                 /* < 0 unknown */
	double per_tb, per_mbs_read, per_mbs_write;
	double per_iops_read, per_iops_write, per_sync_mbs;
};

/* Payload efficiency of TCP over Ethernet at MTU. */
double nb_planner_efficiency(int mtu);

/* One group "5x3TB", "5 x 3TB WD Red": count and size; REST (may be NULL)
 * gets what follows the size.  0, or -EINVAL with the detail set. */
int nb_planner_parse_disks(const char *s, int *n, uint64_t *bytes, char *rest,
			size_t len);

/* A link speed: 1gbit, 10GbE, 2.5G, 800mbit, 1gbps, 100Mb/s (bits);
 * 125MB/s, 1GB/s (bytes).  0, or -EINVAL with the detail set. */
int nb_planner_parse_link(const char *s, uint64_t *bits_per_s);

/* A log device: none, ssd, plp-ssd, nvme, plp-nvme, hdd, each optionally
 * with :NNNiops and :NNNMB/s (ssd:20000iops).  0, or -EINVAL. */
int nb_planner_parse_slog(const char *s, struct nb_planner_slog *slog);

/* Defaults: 12-bit sectors, 128 KiB records, 128 GiB slop cap, 512 KiB
 * sync writes one at a time, MTU 1500, unknown speeds and prices. */
void nb_planner_defaults(struct nb_planner_in *in);

/* Plan LAYOUT (hw/pool.h grammar).  0, or -EINVAL with the detail set. */
int nb_planner_compute(const struct nb_planner_in *in, const char *layout,
		    struct nb_planner_out *out);

/* The comma-separated list of layouts, for messages and help. */
const char *nb_planner_layouts(void);

/* ---- the plan as a document (plan_doc.c) ---- */

#define NB_PLANNER_KIND "nasbench-plan"
#define NB_PLANNER_SCHEMA 3

/* One layout, every figure with its unit: {"value": v, "unit": "B/s"} or
 * null (unknown); prices in the currency (or "price"); each ceiling's
 * limit ("disks", "link", "box" or null). */
json_t *nb_planner_json(const struct nb_planner_in *in, const struct nb_planner_out *o);

/* What the plan assumes, every figure with its unit: the disks (count and
 * size), one disk's B/s and IOPS, the box, block sizes, sync writes, the
 * SLOG, the link (bit/s) and its efficiency, prices and the currency. */
json_t *nb_planner_input_json(const struct nb_planner_in *in);

/* The same for a person, the header of the planner's table: three lines
 * (disks; ZFS and sync writes; the link), no final newline. */
void nb_planner_summary(FILE *f, const struct nb_planner_in *in);

/* What 'nasbench hw plan --json' prints: {"kind": "nasbench-plan",
 * "schema", "link_efficiency", "summary", "input", "layouts": [N of
 * nb_planner_json()], "measured": MEASURED (borrowed; NULL: [])}. */
json_t *nb_planner_doc(const struct nb_planner_in *in, const struct nb_planner_out *out,
		    int n, json_t *measured);

/* Read a layout of nb_planner_json() back: its name, vdevs, capacity,
 * ceilings, limits and prices (every figure's unit is checked; the
 * currency is one for all prices).  0, or -EINVAL with the detail set. */
int nb_planner_out_from_json(const json_t *layout, struct nb_planner_out *o);

/* Load a plan file (nb_planner_doc()'s shape, any schema up to this one) and
 * check each of its layouts.  0, or -ENOENT/-EINVAL with "... 'PATH' ..."
 * set (cannot read, not JSON, not a plan, which layout is wrong). */
int nb_planner_load(const char *path, json_t **doc);

#endif
