/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * planner.c - throughput ceilings and cost of a layout (the formulas are in
 * planner.h and docs/hw.md; capacity is hw/pool.c's).
 *
 * Constants:
 *   128 KiB: the aggregation of a throttled (ci/lab) disk's streaming I/O,
 *     zfs-fuse's vdev_queue.c zfs_vdev_aggregation_limit = SPA_MAXBLOCKSIZE.
 *   32 KiB: zfs_log.c zfs_immediate_write_sz: a larger sync write without
 *     a SLOG is written in place (WR_INDIRECT) and the log points to it.
 *   SLOG kinds: a consumer SATA SSD without power-loss protection takes
 *     about 1 ms per small write + cache flush (1000 sync IOPS); with PLP
 *     the flush is free (20000); NVMe likewise (2000 / 50000).  Give the
 *     figure of your device with ssd:NNNiops.
 */
#include "planner.h"
#include "../core/err.h"
#include "../core/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define AGGREGATE (128.0 * 1024)
#define IMMEDIATE_WRITE_SZ (32 * 1024)

const char *nb_planner_layouts(void)
{
	return nb_pool_layouts();
}

double nb_planner_efficiency(int mtu)
{
	/* payload: MTU - IP (20) - TCP (20) - timestamps (12);
	 * wire: MTU + Ethernet header (14) + FCS (4) + preamble (8) + gap (12) */
	return (double)(mtu - 52) / (double)(mtu + 38);
}

void nb_planner_defaults(struct nb_planner_in *in)
{
	memset(in, 0, sizeof(*in));
	uint64_t n = 0;

	in->pool.ashift = NB_PLAN_ASHIFT;
	nb_parse_size(NB_PLAN_RECORDSIZE, &n);
	in->pool.recordsize = n;
	in->pool.max_slop = 128ULL << 30;
	in->disk_mbs = in->disk_iops = in->price = in->box_mbs = -1;
	in->box_io = 0;
	in->efficiency = nb_planner_efficiency(NB_PLAN_MTU);
	nb_parse_size(NB_PLAN_SYNC_IO, &n);
	in->sync_io = n;
	in->sync_qd = NB_PLAN_SYNC_QD;
}

int nb_planner_parse_disks(const char *s, int *n, uint64_t *bytes, char *rest,
			size_t len)
{
	const char *x;

	if (nb_pool_parse_group(s, strlen(s), n, bytes, &x))
		return -EINVAL;
	if (rest) {
		while (isspace((unsigned char)*x))
			x++;
		snprintf(rest, len, "%s", x);
	}
	return 0;
}

/* ---- link and log device ---- */

int nb_planner_parse_link(const char *s, uint64_t *bps)
{
	char unit[32];
	const char *u;
	char *end;
	double v, mult = 1;
	int bytes = 0, binary = 0;
	size_t k;

	v = strtod(s ? s : "", &end);
	if (!s || end == s || !isfinite(v) || v <= 0)
		goto bad;
	while (isspace((unsigned char)*end))
		end++;
	k = strlen(end);
	while (k && isspace((unsigned char)end[k - 1]))
		k--;
	if (k >= sizeof(unit))
		goto bad;
	snprintf(unit, sizeof(unit), "%.*s", (int)k, end);
	u = unit;
	switch (tolower((unsigned char)*u)) {
	case 'k': mult = 1e3; u++; break;
	case 'm': mult = 1e6; u++; break;
	case 'g': mult = 1e9; u++; break;
	case 't': mult = 1e12; u++; break;
	default: goto bad;
	}
	if (*u == 'i' && u[1] == 'B') {
		binary = 1;
		u++;
		mult = mult == 1e3 ? 1024.0 : mult == 1e6 ? 1048576.0 :
		       mult == 1e9 ? 1073741824.0 : 1099511627776.0;
	}
	if (!strcmp(u, "B/s") || !strcmp(u, "Bps") || !strcmp(u, "B/sec"))
		bytes = 1;
	else if (binary)
		goto bad;
	else if (!*u || !strcasecmp(u, "bit") || !strcasecmp(u, "bits") ||
		 !strcasecmp(u, "bit/s") || !strcasecmp(u, "bps") ||
		 !strcmp(u, "b/s") || !strcmp(u, "b") || !strcasecmp(u, "be") ||
		 !strcasecmp(u, "bite"))
		bytes = 0;
	else
		goto bad;
	v *= mult * (bytes ? 8 : 1);
	if (v < 1e3 || v > 1e15)
		goto bad;
	*bps = (uint64_t)llround(v);
	return 0;
bad:
	return nb_err(-EINVAL, "invalid link speed '%s' (use e.g. 1gbit, 10GbE, "
		      "2.5G, 800mbit, 1gbps: bits/s; 125MB/s: bytes/s)", s ? s : "");
}

static const struct {
	const char *name;
	double mbs, sync_iops;
} slog_kinds[] = {
	{ "ssd", 400, 1000 },        /* consumer SATA, no power-loss protection */
	{ "plp-ssd", 450, 20000 },   /* SATA with PLP: flushes cost nothing */
	{ "nvme", 2000, 2000 },
	{ "plp-nvme", 2000, 50000 },
	{ "hdd", 150, 120 },
};

int nb_planner_parse_slog(const char *s, struct nb_planner_slog *slog)
{
	char buf[64], *save = NULL, *tok;
	int first = 1;

	memset(slog, 0, sizeof(*slog));
	if (!strcasecmp(s, "none") || !strcasecmp(s, "no"))
		return 0;
	if (strlen(s) >= sizeof(buf))
		return nb_err(-EINVAL, "invalid log device '%s'", s);
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		double v;
		char *end;

		if (first) {
			size_t i;

			for (i = 0; i < sizeof(slog_kinds) / sizeof(slog_kinds[0]); i++)
				if (!strcasecmp(tok, slog_kinds[i].name))
					break;
			if (i == sizeof(slog_kinds) / sizeof(slog_kinds[0]))
				return nb_err(-EINVAL, "unknown log device '%s' (use none, "
					      "ssd, plp-ssd, nvme, plp-nvme or hdd, with "
					      ":NNNiops and :NNNMB/s, e.g. ssd:20000iops)",
					      tok);
			slog->mbs = slog_kinds[i].mbs;
			slog->sync_iops = slog_kinds[i].sync_iops;
			first = 0;
			continue;
		}
		v = strtod(tok, &end);
		if (end == tok || v <= 0 || !isfinite(v))
			goto bad;
		if (!strcasecmp(end, "iops"))
			slog->sync_iops = v;
		else if (!strcmp(end, "MB/s"))
			slog->mbs = v;
		else
			goto bad;
	}
	if (first)
		goto bad;
	slog->present = 1;
	snprintf(slog->name, sizeof(slog->name), "%s", s);
	return 0;
bad:
	return nb_err(-EINVAL, "invalid log device '%s' (e.g. ssd, "
		      "ssd:20000iops, nvme:2000iops:1500MB/s)", s);
}

/* ---- the speed model ---- */

struct disk {
	double B, I;             /* bytes/s, IOPS; < 0 unknown */
	int throttled;
};

static struct disk disk_of(const struct nb_planner_in *in)
{
	return (struct disk){ in->disk_mbs * 1e6, in->disk_iops, in->throttled };
}

/* seconds of a disk's time for a random I/O of s bytes: its IOPS figure
 * is for 4 KiB, a larger I/O adds the transfer of the rest */
static double io_time(const struct disk *d, double s)
{
	if (d->throttled)
		return fmax(1 / d->I, s / d->B);
	return 1 / d->I + fmax(0, s - 4096) / d->B;
}

/* bytes/s of one disk streaming in I/Os of IO bytes */
static double stream(const struct disk *d, double io)
{
	if (d->throttled)
		return fmin(d->B, io / io_time(d, io));
	return d->B;
}

static void speeds(const struct nb_planner_in *in, struct nb_planner_out *o)
{
	const struct nb_pool_layout *l = &o->l;
	struct disk d = disk_of(in);
	double n = in->pool.disks.total - in->pool.spares, w = l->width;
	double R = (double)o->cap.block, S = (double)(1 << in->pool.ashift);
	double eff = o->cap.block_eff, v = l->nvdevs, p = l->parity;
	int kb = d.B > 0, ki = d.I > 0;
	double io = in->box_io > 0 ? fmin(AGGREGATE, (double)in->box_io) : AGGREGATE;
	double Bs = kb && (!d.throttled || ki) ? stream(&d, io) : -1;
	/* a transaction group's records go out aggregated, whatever the box */
	double ratio = Bs > 0 ? stream(&d, AGGREGATE) / Bs : 1;
	double rr = -1, rw = -1, sr = -1, sw = -1;

	switch (l->kind) {
	case NB_POOL_STRIPE:
		sr = sw = v * Bs;
		if (kb && ki)
			rr = v / io_time(&d, R);
		break;
	case NB_POOL_MIRROR:
		sr = v * w * Bs;
		sw = v * Bs;
		if (kb && ki)
			rr = v * w / io_time(&d, R);
		break;
	case NB_POOL_RAIDZ: {
		double c = fmin(w - p, ceil(R / S));

		sr = sw = v * w * Bs * eff;
		if (kb && ki)
			rr = v * (w / c) / io_time(&d, R / c);
		break;
	}
	case NB_POOL_MD5:
	case NB_POOL_MD6:
		sr = sw = (n - p) * Bs;
		if (kb && ki) {
			rr = n / io_time(&d, 4096);
			rw = rr / (2 * (1 + p));
		}
		break;
	case NB_POOL_MD10:
		sr = n * Bs;
		sw = n / 2 * Bs;
		if (kb && ki) {
			rr = n / io_time(&d, 4096);
			rw = rr / 2;
		}
		break;
	}
	if (Bs < 0)
		sr = sw = -1;
	if (l->zfs && rr > 0 && sw > 0)
		/* copy on write: read the record, write it anew */
		rw = R <= 4096 ? sw * ratio / R : 1 / (1 / rr + R / (sw * ratio));
	o->disk_read = sr;
	o->disk_write = sw;
	o->rand_read = rr;
	o->rand_write = rw;
}

/* Seconds to write a commit's BYTES in place (zfs_log.c WR_INDIRECT,
 * dmu_sync): whole records of R bytes (a record partly written is written
 * whole), spread over the vdevs, so a disk takes k of them, c bytes each (a
 * raidz column, and a small record is on fewer disks than the vdev's; a
 * mirror's or stripe's whole record).  A disk with heads positions once and
 * streams the k; a throttled one charges each I/O (zfs-fuse issues a
 * record's columns separately: ci/lab's 512 KiB sync writes on raidz1 of 5
 * take four 32 KiB tokens a disk, on raid10 two 128 KiB ones).  The commit
 * waits for its busiest disk: k is rounded up. */
static double in_place(const struct nb_planner_in *in, const struct nb_planner_out *o,
		       const struct disk *d, double bytes)
{
	double R = (double)o->cap.block, S = (double)(1 << in->pool.ashift);
	double recs = ceil(ceil(bytes / R) / o->l.nvdevs), k = recs, c = R;

	if (o->l.kind == NB_POOL_RAIDZ) {
		/* a record of n sectors: n data sectors in columns of
		 * ceil(n/d) and P parity columns, on min(w, n + P) disks */
		double w = o->l.width, n = ceil(R / S);

		c = ceil(n / (w - o->l.parity)) * S;
		k = ceil(recs * fmin(w, n + o->l.parity) / w);
	}
	return d->throttled ? k * io_time(d, c) : io_time(d, k * c);
}

/* Sync writes: q writes of W per commit.  SLOG null: the log on the pool:
 * above 32 KiB the data is written in place and a log block points to it
 * (one more I/O); up to 32 KiB it is copied into the log block and written
 * again with its transaction group (at most half the pool's stream).  A
 * SLOG takes the copy; the pool writes the data with its group, and a box
 * of its own ceiling (--box-mbs) handles each byte twice, into the log and
 * out with the group: the times add (at most 1/(1/box + 1/stream)).  The
 * lab's writers wait while a group syncs (its SLOG idle for seconds, the
 * disks busy), so the lab writes below even that sum (docs/hw.md has the
 * figures). */
static double sync_rate(const struct nb_planner_in *in, const struct nb_planner_out *o,
			const struct nb_planner_slog *slog)
{
	struct disk d = disk_of(in);
	double W = (double)in->sync_io, q = in->sync_qd, sw = o->disk_write;
	double T, cap = sw, rate;

	if (sw <= 0 || d.I <= 0 || d.B <= 0)
		return -1;
	if (slog) {
		T = q * W / (slog->mbs * 1e6) + 1 / slog->sync_iops;
		if (in->box_mbs > 0)
			cap = 1 / (1 / (in->box_mbs * 1e6) + 1 / sw);
	} else if (!o->l.zfs) {
		T = q * W / sw + 2 / d.I;       /* the data's positioning, a flush */
	} else if (W > IMMEDIATE_WRITE_SZ) {
		T = in_place(in, o, &d, q * W) + io_time(&d, 4096);
	} else {
		T = q * W / sw + 1 / d.I;
		cap = sw / 2;
	}
	if (o->link > 0)          /* one write crosses one link */
		T += W / (o->link / (in->paths > 1 ? in->paths : 1));
	rate = q * W / T;
	return fmin(rate, cap);
}

static double lower(double disks, double link, const char **why)
{
	if (disks < 0) {
		*why = NULL;
		return -1;
	}
	if (link >= 0 && link < disks) {
		*why = "link";
		return link;
	}
	*why = "disks";
	return disks;
}

/* bytes/s: the lower of disks, link and the box's own ceiling */
static double lower_box(const struct nb_planner_in *in, double disks, double link,
			const char **why)
{
	double v = lower(disks, link, why);

	if (v >= 0 && in->box_mbs > 0 && in->box_mbs * 1e6 < v) {
		*why = "box";
		return in->box_mbs * 1e6;
	}
	return v;
}

static double per(double price, double v, double unit)
{
	return price < 0 || v <= 0 ? -1 : price / (v / unit);
}

int nb_planner_compute(const struct nb_planner_in *in, const char *name,
		    struct nb_planner_out *o)
{
	int n = in->pool.disks.total - in->pool.spares;

	memset(o, 0, sizeof(*o));
	if (n < 1)
		return nb_err(-EINVAL, "no disks left for a layout after %d spare(s) "
			      "of %d disks", in->pool.spares, in->pool.disks.total);
	if (nb_pool_parse_layout(name, n, &o->l) ||
	    nb_pool_capacity(&in->pool, &o->l, &o->cap))
		return -EINVAL;
	o->layout = o->l.name;
	o->data_disks = o->cap.data_disks;
	o->may_fail = o->cap.may_fail;
	o->may_fail_best = o->cap.may_fail_best;
	o->usable_bytes = o->cap.usable;
	o->link = in->nic_bps ? (double)in->nic_bps / 8 * in->efficiency *
			       (in->paths > 1 ? in->paths : 1) : -1;
	speeds(in, o);
	o->read = lower_box(in, o->disk_read, o->link, &o->read_limit);
	o->write = lower_box(in, o->disk_write, o->link, &o->write_limit);
	o->rand_read = lower(o->rand_read, o->link > 0 ? o->link / 4096 : -1,
			     &o->rand_read_limit);
	o->rand_write = lower(o->rand_write, o->link > 0 ? o->link / 4096 : -1,
			      &o->rand_write_limit);
	o->sync_write = lower_box(in, sync_rate(in, o, NULL), o->link,
				  &o->sync_limit);
	o->sync_write_slog = -1;
	if (in->slog.present && o->l.zfs)
		o->sync_write_slog = lower_box(in, sync_rate(in, o, &in->slog),
					       o->link, &o->sync_slog_limit);
	o->price_total = in->price < 0 ? -1 :
			 in->price * in->pool.disks.total + in->base_price;
	o->per_tb = per(o->price_total, o->usable_bytes, 1e12);
	o->per_mbs_read = per(o->price_total, o->read, 1e6);
	o->per_mbs_write = per(o->price_total, o->write, 1e6);
	o->per_iops_read = per(o->price_total, o->rand_read, 1);
	o->per_iops_write = per(o->price_total, o->rand_write, 1);
	o->per_sync_mbs = per(o->price_total, o->sync_write_slog > 0 ?
			      o->sync_write_slog : o->sync_write, 1e6);
	return 0;
}
