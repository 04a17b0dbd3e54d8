/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pool.c - layouts and their capacity as ZFS (OpenZFS 2.1+) or mdadm
 * computes it.  The steps are in pool.h; docs/hw.md works examples.
 *
 * Constants and where they come from (OpenZFS source, module/zfs/ unless
 * said otherwise):
 *   GPT of a whole disk: lib/libzfs zpool_label_disk(): the partition
 *     starts at NEW_START_BLOCK (2048 sectors), ends EFI_MIN_RESV_SIZE
 *     (16384 sectors, partition 9) before the last usable LBA, which is 34
 *     sectors before the end (backup GPT), and is aligned down to
 *     PARTITION_END_ALIGNMENT (2048 sectors); 512-byte sectors.
 *   vdev labels: include/sys/vdev_impl.h VDEV_LABEL_START_SIZE (2 labels
 *     of 256 KiB + 3.5 MiB boot reserve) and VDEV_LABEL_END_SIZE (2 x 256
 *     KiB); vdev.c vdev_open() aligns the size down to a label (256 KiB).
 *   raidz allocation: vdev_raidz.c vdev_raidz_asize(): sectors of data,
 *     plus P per row of (width - P) data columns, rounded up to a multiple
 *     of P + 1.
 *   deflate ratio: vdev.c vdev_set_deflate_ratio(): (1 << 17) /
 *     (asize(128 KiB) >> 9), an integer; space shown = (bytes >> 9) x ratio.
 *   metaslabs: vdev.c vdev_metaslab_set_size(): aim for 200 metaslabs
 *     (zfs_vdev_default_ms_count), size 2^29 (zfs_vdev_default_ms_shift)
 *     to 2^34 (zfs_vdev_max_ms_shift), at least 16 (zfs_vdev_min_ms_count),
 *     at most 131072 (zfs_vdev_ms_count_limit), never under 2^24
 *     (SPA_MAXBLOCKSHIFT); count = size >> shift.
 *   embedded log: metaslab.c zfs_embedded_slog_min_ms = 64: a vdev of more
 *     metaslabs gives one to the ZIL; spa_misc.c spa_get_slop_space()
 *     takes it back out of the slop.
 *   slop: spa_misc.c spa_slop_shift = 5 (1/32), spa_min_slop = 128 MiB,
 *     spa_max_slop = 128 GiB (OpenZFS 2.1; before it, no cap).
 */
#include "pool.h"
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

#define SECTOR 512ULL
#define GPT_START (2048 * SECTOR)
#define GPT_RESV (16384 * SECTOR)
#define GPT_TAIL (34 * SECTOR)
#define GPT_ALIGN (2048 * SECTOR)
#define LABEL (256ULL << 10)
#define LABELS_START (2 * LABEL + (7ULL << 19))   /* + 3.5 MiB boot */
#define LABELS_END (2 * LABEL)
#define MS_COUNT 200
#define MS_MIN_COUNT 16
#define MS_COUNT_LIMIT 131072
#define MS_SHIFT 29
#define MS_MAX_SHIFT 34
#define MAXBLOCKSHIFT 24
#define EMBEDDED_SLOG_MIN_MS 64
#define SLOP_SHIFT 5
#define MIN_SLOP (128ULL << 20)

int nb_pool_parse_group(const char *s, size_t len, int *n, uint64_t *bytes,
			const char **after)
{
	char num[32], size[64], whole[256];
	const char *p = s, *x, *end = s + len;
	size_t k;
	uint64_t count;

	snprintf(whole, sizeof(whole), "%.*s", (int)len, s);
	while (p < end && isspace((unsigned char)*p))
		p++;
	x = p;
	while (x < end && isdigit((unsigned char)*x))
		x++;
	k = (size_t)(x - p);
	while (x < end && isspace((unsigned char)*x))
		x++;
	if (!k || k >= sizeof(num) || x == end || (*x != 'x' && *x != 'X'))
		return nb_err(-EINVAL, "invalid disks '%s' (use COUNTxSIZE, e.g. 5x3TB)",
			      whole);
	snprintf(num, sizeof(num), "%.*s", (int)k, p);
	if (nb_parse_uint(num, 1, NB_POOL_MAX_DISKS, &count))
		return nb_err(-EINVAL, "invalid disks '%s': the count must be 1 to %d",
			      whole, NB_POOL_MAX_DISKS);
	x++;
	while (x < end && isspace((unsigned char)*x))
		x++;
	k = 0;
	while (x + k < end && !isspace((unsigned char)x[k]))
		k++;
	if (!k || k >= sizeof(size))
		return nb_err(-EINVAL, "invalid disks '%s': no size after 'x'", whole);
	snprintf(size, sizeof(size), "%.*s", (int)k, x);
	if (nb_parse_size(size, bytes))
		return nb_err_prefix("invalid disks '%s'", whole), -EINVAL;
	if (!*bytes)
		return nb_err(-EINVAL, "invalid disks '%s': a disk of 0 bytes", whole);
	*n = (int)count;
	if (after)
		*after = x + k;
	return 0;
}

int nb_pool_parse_disks(const char *s, struct nb_pool_disks *d)
{
	const char *p = s;

	memset(d, 0, sizeof(*d));
	for (;;) {
		size_t len = strcspn(p, ",");

		if (d->ngroups == NB_POOL_MAX_GROUPS)
			return nb_err(-EINVAL, "invalid disks '%s': at most %d groups",
				      s, NB_POOL_MAX_GROUPS);
		if (nb_pool_parse_group(p, len, &d->n[d->ngroups],
					&d->bytes[d->ngroups], NULL))
			return -EINVAL;
		d->total += d->n[d->ngroups++];
		if (d->total > NB_POOL_MAX_DISKS)
			return nb_err(-EINVAL, "invalid disks '%s': more than %d disks",
				      s, NB_POOL_MAX_DISKS);
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* ---- layouts ---- */

static const struct {
	const char *alias, *name;
} aliases[] = {
	{ "raid0", "stripe" }, { "single", "stripe" }, { "raid1", "mirror" },
	{ "raidz", "raidz1" }, { "raid5", "md-raid5" }, { "raid6", "md-raid6" },
};

static const char *const names[] = {
	"stripe", "mirror", "raid10", "raidz1", "raidz2", "raidz3",
	"md-raid5", "md-raid6", "md-raid10",
};

const char *nb_pool_layouts(void)
{
	return "stripe, mirror, raid10, raidz1, raidz2, raidz3, KxmirrorM "
	       "(3xmirror), KxraidzP (2xraidz2), md-raid5, md-raid6, md-raid10";
}

static int unknown_layout(const char *name)
{
	const char *cands[16];
	const char *near;
	size_t n = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		cands[n++] = names[i];
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		cands[n++] = aliases[i].alias;
	near = nb_suggest(name, cands, n);
	if (near)
		return nb_err(-EINVAL, "unknown layout '%s'; did you mean '%s'?",
			      name, near);
	return nb_err(-EINVAL, "unknown layout '%s' (layouts: %s)", name,
		      nb_pool_layouts());
}

static int too_few(const char *name, int min, int n)
{
	return nb_err(-EINVAL, "layout '%s' needs at least %d disks, not %d", name,
		      min, n);
}

/* "raidz2" -> kind, parity; "mirror" -> mirror; NULL when not a vdev type */
static int vdev_type(const char *s, enum nb_pool_kind *kind, int *parity)
{
	if (!strcasecmp(s, "mirror")) {
		*kind = NB_POOL_MIRROR;
		*parity = 0;
		return 0;
	}
	if (!strncasecmp(s, "raidz", 5) && s[5] >= '1' && s[5] <= '3' && !s[6]) {
		*kind = NB_POOL_RAIDZ;
		*parity = s[5] - '0';
		return 0;
	}
	if (!strcasecmp(s, "raidz")) {
		*kind = NB_POOL_RAIDZ;
		*parity = 1;
		return 0;
	}
	return -1;
}

/* NAME as KxTYPE ("2xraidz1": K vdevs of one type over the N disks):
 * whether it is one; then *RC is 0 or -EINVAL (S, as the user wrote it,
 * named in the message). */
static int parse_vdevs(const char *s, const char *name, int n,
		       struct nb_pool_layout *l, int *rc)
{
	const char *x = name;
	char type[16];
	int k = 0, min;

	while (isdigit((unsigned char)*x)) {
		/* past the largest pool, stop counting (no int overflow) */
		if (k <= NB_POOL_MAX_DISKS)
			k = k * 10 + (*x - '0');
		x++;
	}
	if (x == name || (*x != 'x' && *x != 'X') || k <= 0 || k > NB_POOL_MAX_DISKS ||
	    vdev_type(x + 1, &l->kind, &l->parity))
		return 0;
	min = l->kind == NB_POOL_MIRROR ? 2 : l->parity + 2;
	if (n % k) {
		*rc = nb_err(-EINVAL, "layout '%s': %d disks do not split into "
			     "%d equal vdevs", s, n, k);
		return 1;
	}
	if (n / k < min) {
		*rc = nb_err(-EINVAL, "layout '%s' needs at least %d disks per "
			     "vdev, not %d (%d disks in %d vdevs)", s, min,
			     n / k, n, k);
		return 1;
	}
	l->nvdevs = k;
	l->width = n / k;
	if (l->kind == NB_POOL_MIRROR)
		snprintf(type, sizeof(type), "mirror");
	else
		snprintf(type, sizeof(type), "raidz%d", l->parity);
	if (k == 1)
		snprintf(l->name, sizeof(l->name), "%s", type);
	else
		snprintf(l->name, sizeof(l->name), "%dx%s", k, type);
	*rc = 0;
	return 1;
}

/* The layouts with a name of their own: stripe, raid10, md-raid5/6/10. */
static int parse_named(const char *s, const char *name, int n,
		       struct nb_pool_layout *l)
{
	if (!strcasecmp(name, "stripe")) {
		snprintf(l->name, sizeof(l->name), "stripe");
		l->kind = NB_POOL_STRIPE;
		l->nvdevs = n;
		l->width = 1;
		return n < 1 ? too_few("stripe", 1, n) : 0;
	}
	if (!strcasecmp(name, "raid10")) {
		snprintf(l->name, sizeof(l->name), "raid10");
		l->kind = NB_POOL_MIRROR;
		if (n < 4)
			return too_few("raid10", 4, n);
		if (n % 2)
			return nb_err(-EINVAL, "layout 'raid10' needs an even number of "
				      "disks, not %d (a ZFS pool of 2-way mirrors; "
				      "md-raid10 takes odd counts)", n);
		l->nvdevs = n / 2;
		l->width = 2;
		return 0;
	}
	if (!strcasecmp(name, "md-raid5") || !strcasecmp(name, "md-raid6") ||
	    !strcasecmp(name, "md-raid10")) {
		l->zfs = 0;
		l->kind = name[7] == '5' ? NB_POOL_MD5 : name[7] == '6' ?
			  NB_POOL_MD6 : NB_POOL_MD10;
		l->parity = l->kind == NB_POOL_MD5 ? 1 : l->kind == NB_POOL_MD6 ? 2 : 0;
		snprintf(l->name, sizeof(l->name), "md-raid%s", name + 7);
		return n < (l->kind == NB_POOL_MD5 ? 3 : 4) ?
		       too_few(l->name, l->kind == NB_POOL_MD5 ? 3 : 4, n) : 0;
	}
	return unknown_layout(s);
}

int nb_pool_parse_layout(const char *s, int n, struct nb_pool_layout *l)
{
	const char *name = s;
	int rc;

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcasecmp(name, aliases[i].alias))
			name = aliases[i].name;
	l->zfs = 1;
	l->nvdevs = 1;
	l->width = n;
	if (parse_vdevs(s, name, n, l, &rc))
		return rc;
	if (!vdev_type(name, &l->kind, &l->parity)) {
		int min = l->kind == NB_POOL_MIRROR ? 2 : l->parity + 2;

		snprintf(l->name, sizeof(l->name), l->kind == NB_POOL_MIRROR ?
			 "mirror" : "raidz%d", l->parity);
		return n < min ? too_few(l->name, min, n) : 0;
	}
	return parse_named(s, name, n, l);
}

/* ---- capacity ---- */

uint64_t nb_pool_asize(uint64_t psize, int width, int parity, int ashift)
{
	uint64_t sectors = ((psize - 1) >> ashift) + 1;

	if (parity <= 0)
		return sectors << ashift;
	sectors += (uint64_t)parity * ((sectors + width - parity - 1) /
				       (width - parity));
	sectors = (sectors + parity) / (parity + 1) * (parity + 1);
	return sectors << ashift;
}

static int highbit64(uint64_t v)
{
	int h = 0;

	while (v) {
		h++;
		v >>= 1;
	}
	return h;
}

static int ms_shift(uint64_t asize)
{
	uint64_t count = asize >> MS_SHIFT;
	int shift;

	if (count < MS_MIN_COUNT)
		shift = highbit64(asize / MS_MIN_COUNT);
	else if (count > MS_COUNT)
		shift = highbit64(asize / MS_COUNT);
	else
		shift = MS_SHIFT;
	if (shift < MAXBLOCKSHIFT)
		shift = MAXBLOCKSHIFT;
	else if (shift > MS_MAX_SHIFT) {
		shift = MS_MAX_SHIFT;
		if ((asize >> shift) > MS_COUNT_LIMIT)
			shift = highbit64(asize / MS_COUNT_LIMIT);
	}
	return shift;
}

/* What ZFS can use of one whole disk given to zpool create. */
static uint64_t leaf_asize(uint64_t disk)
{
	uint64_t part;

	if (disk < GPT_START + GPT_RESV + GPT_TAIL + GPT_ALIGN + LABELS_START +
		   LABELS_END + (64ULL << 20))
		return 0;
	part = (disk - GPT_TAIL - GPT_RESV - GPT_START) / GPT_ALIGN * GPT_ALIGN;
	part = part / LABEL * LABEL;
	return part - LABELS_START - LABELS_END;
}

/* the size of disk I of the layout (groups in order) */
static uint64_t disk_at(const struct nb_pool_disks *d, int i)
{
	for (int g = 0; g < d->ngroups; g++) {
		if (i < d->n[g])
			return d->bytes[g];
		i -= d->n[g];
	}
	return 0;
}

static void zfs_capacity(const struct nb_pool_in *in, const struct nb_pool_layout *l,
			 struct nb_pool_cap *c)
{
	int w = l->width, p = l->kind == NB_POOL_RAIDZ ? l->parity : -1;
	uint64_t a128 = nb_pool_asize(1 << 17, w, p, in->ashift);
	uint64_t ratio = (1 << 17) / (a128 >> 9);
	uint64_t normal = 0, embedded = 0, blk_asize, slop, defl_blk;
	int idx = 0;

	c->deflate = ratio / 512.0;
	for (int v = 0; v < l->nvdevs; v++) {
		uint64_t small = UINT64_MAX, asize, ms;
		int shift;

		for (int j = 0; j < w; j++, idx++) {
			uint64_t b = disk_at(&in->disks, idx);

			b = (uint64_t)((double)b * (1 - in->reserve));
			b = leaf_asize(b);
			if (b < small)
				small = b;
		}
		asize = l->kind == NB_POOL_MIRROR ? small : small * (uint64_t)w;
		c->after_parity += l->kind == NB_POOL_RAIDZ ?
			(double)small * (w - l->parity) : (double)small;
		shift = ms_shift(asize);
		if (!v)
			c->ms_shift = shift;
		ms = asize >> shift;
		c->ms_count += (long)ms;
		if (ms > EMBEDDED_SLOG_MIN_MS) {
			embedded += ((1ULL << shift) >> 9) * ratio;
			ms--;
		}
		normal += ((ms << shift) >> 9) * ratio;
	}
	c->allocatable = (double)normal + (double)embedded;
	/* spa_get_slop_space() */
	slop = normal >> SLOP_SHIFT;
	if (in->max_slop && slop > in->max_slop)
		slop = in->max_slop;
	slop -= embedded < slop / 2 ? embedded : slop / 2;
	if (slop < (normal / 2 < MIN_SLOP ? normal / 2 : MIN_SLOP))
		slop = normal / 2 < MIN_SLOP ? normal / 2 : MIN_SLOP;
	c->slop = (double)slop;
	c->usable = (double)normal - (double)slop;
	/* data written in blocks of c->block: each costs its deflated asize */
	blk_asize = nb_pool_asize(c->block, w, p, in->ashift);
	defl_blk = (blk_asize >> 9) * ratio;
	c->block_eff = (double)c->block / (double)blk_asize;
	c->usable_block = c->usable * (double)c->block / (double)defl_blk;
}

int nb_pool_capacity(const struct nb_pool_in *in, const struct nb_pool_layout *l,
		     struct nb_pool_cap *c)
{
	int n = in->disks.total - in->spares;

	memset(c, 0, sizeof(*c));
	if (n < 1)
		return nb_err(-EINVAL, "no disks left for the layout after %d spare(s)",
			      in->spares);
	for (int i = 0; i < n; i++)
		c->raw += (double)disk_at(&in->disks, i) * (1 - in->reserve);
	c->block = in->volblocksize ? in->volblocksize : in->recordsize;
	switch (l->kind) {
	case NB_POOL_STRIPE:
		c->data_disks = n;
		break;
	case NB_POOL_MIRROR:
		c->data_disks = l->nvdevs;
		c->may_fail = l->width - 1;
		c->may_fail_best = l->nvdevs * (l->width - 1);
		break;
	case NB_POOL_RAIDZ:
		c->data_disks = (double)l->nvdevs * (l->width - l->parity);
		c->may_fail = l->parity;
		c->may_fail_best = l->nvdevs * l->parity;
		break;
	case NB_POOL_MD5:
	case NB_POOL_MD6:
		c->data_disks = n - l->parity;
		c->may_fail = c->may_fail_best = l->parity;
		break;
	case NB_POOL_MD10:
		c->data_disks = n / 2.0;
		c->may_fail = 1;
		c->may_fail_best = n / 2;
		break;
	}
	if (l->zfs) {
		for (int i = 0; i < n; i++)
			if (leaf_asize((uint64_t)((double)disk_at(&in->disks, i) *
						  (1 - in->reserve))) == 0)
				return nb_err(-EINVAL, "a disk of %.0f bytes is too "
					      "small for a ZFS vdev",
					      (double)disk_at(&in->disks, i));
		zfs_capacity(in, l, c);
		return 0;
	}
	/* mdadm: every member counts as the smallest (superblock ignored) */
	{
		double small = INFINITY;

		for (int i = 0; i < n; i++)
			small = fmin(small, (double)disk_at(&in->disks, i) *
					    (1 - in->reserve));
		c->after_parity = c->data_disks * small;
		c->allocatable = c->usable = c->usable_block = c->after_parity;
		c->block_eff = c->deflate = 1;
	}
	return 0;
}
