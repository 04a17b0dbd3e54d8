/*
 * plan.h - the pre-purchase planner: what a set of disks in a layout gives,
 * behind a network link, for the money.
 *
 * For N disks of size S, each streaming B MB/s and doing I random IOPS:
 *
 *   layout   min N  data disks  may fail      seq read  seq write  rand read  rand write
 *   stripe   1      N           0             N*B       N*B        N*I        N*I
 *   mirror   2      1           N-1           N*B       B          N*I        I
 *   raid10   4      N/2         1 (to N/2)    N*B       N/2*B      N*I        N/2*I
 *   raid5    3      N-1         1             (N-1)*B   (N-1)*B    N*I        N*I/4
 *   raid6    4      N-2         2             (N-2)*B   (N-2)*B    N*I        N*I/6
 *   raidzP   P+2    N-P         P             (N-P)*B   (N-P)*B    I          I
 *
 * usable = data disks * S * (1 - reserve).  The link carries
 * rate/8 * efficiency bytes/s of payload, efficiency = (MTU-52)/(MTU+38)
 * (TCP/IP headers with timestamps in the MTU; Ethernet header, FCS,
 * preamble and gap outside): 0.941 at MTU 1500.  Expected = the lower of
 * disks and link; random IOPS are capped by payload / 4 KiB.  docs/hw.md
 * says why each formula is what it is.
 */
#ifndef NB_HW_PLAN_H
#define NB_HW_PLAN_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

struct nb_plan_in {
	int ndisks;
	uint64_t disk_bytes;
	double disk_mbs;         /* MB/s (10^6) per disk; < 0 unknown */
	double disk_iops;        /* random IOPS per disk; < 0 unknown */
	double price;            /* per disk; < 0 unknown */
	double base_price;       /* the rest of the box (chassis, RAM, HBA) */
	uint64_t nic_bps;        /* line rate, bits/s; 0: local, no link */
	double efficiency;       /* payload / line rate, 0 < e <= 1 */
	double reserve;          /* fraction of each disk left unused, 0..<1 */
};

struct nb_plan_out {
	const char *layout;      /* canonical name */
	double data_disks;       /* N/2 may be fractional (mdadm raid10, odd N) */
	int may_fail;            /* any this many disks may fail */
	int may_fail_best;       /* at best (raid10: one per mirror) */
	double usable_bytes;
	double disk_read, disk_write;      /* bytes/s the disks give; < 0 unknown */
	double link;                        /* payload bytes/s; < 0 no link */
	double read, write;                 /* expected: min(disks, link) */
	const char *read_limit, *write_limit;  /* "disks" | "link" | NULL */
	double rand_read, rand_write;       /* IOPS; < 0 unknown */
	double price_total;                 /* < 0 unknown */
	double per_tb, per_mbs_read, per_mbs_write;
};

/* Payload efficiency of TCP over Ethernet at MTU. */
double nb_plan_efficiency(int mtu);

/* "5x3TB", "5 x 3TB WD Red", "10x500GB": count and size; REST (may be
 * NULL) gets what follows the size.  0, or -EINVAL with the detail set. */
int nb_plan_parse_disks(const char *s, int *n, uint64_t *bytes, char *rest,
			size_t len);

/* Plan LAYOUT ("raidz1", "raid10", aliases raid0/raid1/single).  0, or
 * -EINVAL: unknown layout (with the nearest name) or too few disks. */
int nb_plan_compute(const struct nb_plan_in *in, const char *layout,
		    struct nb_plan_out *out);

/* The comma-separated list of layouts, for messages and help. */
const char *nb_plan_layouts(void);

json_t *nb_plan_json(const struct nb_plan_in *in, const struct nb_plan_out *o);

#endif
