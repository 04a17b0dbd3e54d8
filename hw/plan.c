/*
 * plan.c - capacity, redundancy, throughput ceilings and cost of a layout
 * (the formulas are in plan.h and docs/hw.md).
 */
#include "plan.h"
#include "../core/err.h"
#include "../core/suggest.h"
#include "../core/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum kind { STRIPE, MIRROR, RAID10, RAID5, RAID6, RAIDZ };

static const struct layout {
	const char *name;
	enum kind kind;
	int parity;
	int min;
} layouts[] = {
	{ "stripe", STRIPE, 0, 1 },
	{ "mirror", MIRROR, 0, 2 },
	{ "raid10", RAID10, 0, 4 },
	{ "raidz1", RAIDZ, 1, 3 },
	{ "raidz2", RAIDZ, 2, 4 },
	{ "raidz3", RAIDZ, 3, 5 },
	{ "raid5", RAID5, 1, 3 },
	{ "raid6", RAID6, 2, 4 },
};

#define NLAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

static const struct {
	const char *alias, *name;
} aliases[] = {
	{ "raid0", "stripe" }, { "single", "stripe" }, { "raid1", "mirror" },
	{ "raidz", "raidz1" },
};

const char *nb_plan_layouts(void)
{
	return "stripe, mirror, raid10, raidz1, raidz2, raidz3, raid5, raid6";
}

double nb_plan_efficiency(int mtu)
{
	/* payload: MTU - IP (20) - TCP (20) - timestamps (12);
	 * wire: MTU + Ethernet header (14) + FCS (4) + preamble (8) + gap (12) */
	return (double)(mtu - 52) / (double)(mtu + 38);
}

int nb_plan_parse_disks(const char *s, int *n, uint64_t *bytes, char *rest,
			size_t len)
{
	char num[32], size[64];
	const char *p = s, *x;
	size_t k;
	uint64_t count;

	while (isspace((unsigned char)*p))
		p++;
	x = p;
	while (isdigit((unsigned char)*x))
		x++;
	k = (size_t)(x - p);
	while (isspace((unsigned char)*x))
		x++;
	if (!k || k >= sizeof(num) || (*x != 'x' && *x != 'X'))
		return nb_err(-EINVAL, "invalid disks '%s' (use COUNTxSIZE, e.g. 5x3TB)",
			      s);
	snprintf(num, sizeof(num), "%.*s", (int)k, p);
	if (nb_parse_uint(num, 1, 1000, &count))
		return nb_err(-EINVAL, "invalid disks '%s': the count must be 1 to 1000",
			      s);
	x++;
	while (isspace((unsigned char)*x))
		x++;
	k = strcspn(x, " \t");
	if (!k || k >= sizeof(size))
		return nb_err(-EINVAL, "invalid disks '%s': no size after 'x'", s);
	snprintf(size, sizeof(size), "%.*s", (int)k, x);
	if (nb_parse_size(size, bytes))
		return nb_err_prefix("invalid disks '%s'", s), -EINVAL;
	if (!*bytes)
		return nb_err(-EINVAL, "invalid disks '%s': a disk of 0 bytes", s);
	*n = (int)count;
	if (rest) {
		x += k;
		while (isspace((unsigned char)*x))
			x++;
		snprintf(rest, len, "%s", x);
	}
	return 0;
}

static const struct layout *find_layout(const char *name)
{
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcasecmp(name, aliases[i].alias))
			name = aliases[i].name;
	for (size_t i = 0; i < NLAYOUTS; i++)
		if (!strcasecmp(name, layouts[i].name))
			return &layouts[i];
	return NULL;
}

static int unknown_layout(const char *name)
{
	const char *cands[NLAYOUTS + 4];
	const char *near;
	size_t n = 0;

	for (size_t i = 0; i < NLAYOUTS; i++)
		cands[n++] = layouts[i].name;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		cands[n++] = aliases[i].alias;
	near = nb_suggest(name, cands, n);
	if (near)
		return nb_err(-EINVAL, "unknown layout '%s'; did you mean '%s'?",
			      name, near);
	return nb_err(-EINVAL, "unknown layout '%s' (layouts: %s)", name,
		      nb_plan_layouts());
}

/* Disk-side figures per layout kind (see the table in plan.h). */
static void disk_side(const struct layout *l, double n, double b, double i,
		      struct nb_plan_out *o)
{
	double p = l->parity;

	switch (l->kind) {
	case STRIPE:
		o->data_disks = n;
		o->disk_read = n * b; o->disk_write = n * b;
		o->rand_read = n * i; o->rand_write = n * i;
		o->may_fail = o->may_fail_best = 0;
		break;
	case MIRROR:
		o->data_disks = 1;
		o->disk_read = n * b; o->disk_write = b;
		o->rand_read = n * i; o->rand_write = i;
		o->may_fail = o->may_fail_best = (int)n - 1;
		break;
	case RAID10:
		o->data_disks = n / 2;
		o->disk_read = n * b; o->disk_write = n / 2 * b;
		o->rand_read = n * i; o->rand_write = n / 2 * i;
		o->may_fail = 1;
		o->may_fail_best = (int)n / 2;
		break;
	case RAID5:
	case RAID6:
		o->data_disks = n - p;
		o->disk_read = (n - p) * b; o->disk_write = (n - p) * b;
		/* a small write reads and writes data and each parity */
		o->rand_read = n * i; o->rand_write = n * i / (2 * (1 + p));
		o->may_fail = o->may_fail_best = (int)p;
		break;
	case RAIDZ:
		o->data_disks = n - p;
		o->disk_read = (n - p) * b; o->disk_write = (n - p) * b;
		/* every block spans the vdev: one disk's IOPS */
		o->rand_read = i; o->rand_write = i;
		o->may_fail = o->may_fail_best = (int)p;
		break;
	}
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

int nb_plan_compute(const struct nb_plan_in *in, const char *name,
		    struct nb_plan_out *o)
{
	const struct layout *l = find_layout(name);
	double b = in->disk_mbs * 1e6, tb;

	if (!l)
		return unknown_layout(name);
	if (in->ndisks < l->min)
		return nb_err(-EINVAL, "layout '%s' needs at least %d disks, not %d",
			      l->name, l->min, in->ndisks);
	memset(o, 0, sizeof(*o));
	o->layout = l->name;
	disk_side(l, in->ndisks, b, in->disk_iops, o);
	if (in->disk_mbs < 0)
		o->disk_read = o->disk_write = -1;
	if (in->disk_iops < 0)
		o->rand_read = o->rand_write = -1;
	o->usable_bytes = o->data_disks * (double)in->disk_bytes *
			  (1 - in->reserve);
	o->link = in->nic_bps ? (double)in->nic_bps / 8 * in->efficiency : -1;
	o->read = lower(o->disk_read, o->link, &o->read_limit);
	o->write = lower(o->disk_write, o->link, &o->write_limit);
	if (o->link >= 0) {
		/* the link caps 4 KiB random I/O too (far above disks) */
		if (o->rand_read > o->link / 4096)
			o->rand_read = o->link / 4096;
		if (o->rand_write > o->link / 4096)
			o->rand_write = o->link / 4096;
	}
	o->price_total = in->price < 0 ? -1 : in->price * in->ndisks + in->base_price;
	tb = o->usable_bytes / 1e12;
	o->per_tb = o->price_total < 0 || tb <= 0 ? -1 : o->price_total / tb;
	o->per_mbs_read = o->price_total < 0 || o->read <= 0 ? -1 :
			  o->price_total / (o->read / 1e6);
	o->per_mbs_write = o->price_total < 0 || o->write <= 0 ? -1 :
			   o->price_total / (o->write / 1e6);
	return 0;
}

static json_t *num_or_null(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

json_t *nb_plan_json(const struct nb_plan_in *in, const struct nb_plan_out *o)
{
	return json_pack("{s:s, s:i, s:I, s:f, s:f, s:i, s:i, s:f, s:o, s:o, s:o,"
			 " s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"layout", o->layout, "disks", in->ndisks,
		"disk_bytes", (json_int_t)in->disk_bytes, "reserve", in->reserve,
		"data_disks", o->data_disks, "may_fail", o->may_fail,
		"may_fail_best", o->may_fail_best, "usable_bytes", o->usable_bytes,
		"disks_read_bw_bytes", num_or_null(o->disk_read),
		"disks_write_bw_bytes", num_or_null(o->disk_write),
		"link_bw_bytes", num_or_null(o->link),
		"read_bw_bytes", num_or_null(o->read),
		"read_limit", o->read_limit ? json_string(o->read_limit) : json_null(),
		"write_bw_bytes", num_or_null(o->write),
		"write_limit", o->write_limit ? json_string(o->write_limit) : json_null(),
		"rand_read_iops", num_or_null(o->rand_read),
		"rand_write_iops", num_or_null(o->rand_write),
		"price_total", num_or_null(o->price_total),
		"price_per_tb", num_or_null(o->per_tb),
		"price_per_mb_s_read", num_or_null(o->per_mbs_read),
		"price_per_mb_s_write", num_or_null(o->per_mbs_write));
}
