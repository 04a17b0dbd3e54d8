/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse.c - devices' and NFS servers' counters from their tools' text
 * (parse.h); the tables (gstat, iostat -x, zpool iostat) are in table.c. */
#include "parse.h"
#include "parse_int.h"
#include "../boxparse/diskstats.h"
#include "../core/err.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int nb_cpi_num(const char *s, double *v)
{
	return nb_bp_num(s, NB_CPI_MAX, v);
}

struct nb_cp_dev *nb_cpi_dev_add(struct nb_cp_devs *d, const char *name)
{
	struct nb_cp_dev *k;

	if (d->n >= NB_CP_MAXDEV)
		return NULL;
	k = &d->d[d->n++];
	memset(k, 0, sizeof(*k));
	nb_bp_name(k->name, sizeof(k->name), name);
	k->rmerged = k->wmerged = -1;
	return k;
}

void nb_cpi_refused(struct nb_cp_devs *d, const char *name)
{
	if (!d->refused++)
		nb_bp_name(d->refused_name, sizeof(d->refused_name), name);
}

/* The counters at TOK[0..N) into V (as doubles): 0, or -1 when one is
 * not a counter. */
static int counters(char **tok, int n, double *v)
{
	for (int i = 0; i < n; i++) {
		uint64_t x;

		if (nb_bp_u64(tok[i], &x))
			return -1;
		v[i] = (double)x;
	}
	return 0;
}

const struct nb_cp_dev *nb_cp_dev_find(const struct nb_cp_devs *d,
				       const char *name)
{
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->d[i].name, name))
			return &d->d[i];
	return NULL;
}

int nb_cp_is_partition(const struct nb_cp_devs *d, const char *name)
{
	for (int i = 0; i < d->n; i++)
		if (nb_bp_partition_of(d->d[i].name, name))
			return 1;
	return 0;
}

int nb_cp_diskstats(const char *text, struct nb_cp_devs *d)
{
	struct nb_bp_ds ds;
	struct nb_bp_dsrow r;

	d->n = 0;
	d->totals = 1;
	d->dt = 0;
	d->refused = 0;
	d->refused_name[0] = 0;
	nb_bp_ds_open(&ds, text);
	while (nb_bp_ds_next(&ds, &r)) {
		struct nb_cp_dev *k;

		if (r.bad) {             /* a device's counters are all or none */
			nb_cpi_refused(d, r.name);
			continue;
		}
		if (!(k = nb_cpi_dev_add(d, r.name)))
			continue;
		k->reads = (double)r.v[NB_BP_DS_READS];
		k->rmerged = (double)r.v[NB_BP_DS_RMERGED];
		k->rbytes = (double)r.v[NB_BP_DS_RSECTORS] * 512;
		k->writes = (double)r.v[NB_BP_DS_WRITES];
		k->wmerged = (double)r.v[NB_BP_DS_WMERGED];
		k->wbytes = (double)r.v[NB_BP_DS_WSECTORS] * 512;
	}
	return d->n;
}

/* The kind of NFSv3 procedure I of /proc/net/rpc/nfsd's proc3 line, or -1
 * for NULL (not an operation a client asks of its data). */
static int v3_kind(int i)
{
	switch (i) {
	case 0: return -1;
	case 1: return NB_NFS_GETATTR;
	case 3: return NB_NFS_LOOKUP;
	case 4: return NB_NFS_ACCESS;
	case 6: return NB_NFS_READ;
	case 7: return NB_NFS_WRITE;
	case 21: return NB_NFS_COMMIT;
	default: return NB_NFS_OTHER;
	}
}

/* NFSv2: 0 null, 1 getattr, 4 lookup, 6 read, 8 write (RFC 1094). */
static int v2_kind(int i)
{
	switch (i) {
	case 0: return -1;
	case 1: return NB_NFS_GETATTR;
	case 4: return NB_NFS_LOOKUP;
	case 6: return NB_NFS_READ;
	case 8: return NB_NFS_WRITE;
	default: return NB_NFS_OTHER;
	}
}

/* An NFSv4 operation by its number (RFC 7530, 8881): the compound's file
 * handle plumbing (PUTFH, GETFH, SAVEFH, RESTOREFH, PUTROOTFH, PUTPUBFH,
 * SEQUENCE) and the unused numbers 0-2 are no operation of their own. */
static int v4_kind(int op)
{
	switch (op) {
	case 0: case 1: case 2: case 10: case 22: case 23: case 24: case 31:
	case 32: case 53:
		return -1;
	case 3: return NB_NFS_ACCESS;
	case 5: return NB_NFS_COMMIT;
	case 9: return NB_NFS_GETATTR;
	case 15: return NB_NFS_LOOKUP;
	case 25: return NB_NFS_READ;
	case 38: return NB_NFS_WRITE;
	default: return NB_NFS_OTHER;
	}
}

int nb_cp_nfsd(const char *text, struct nb_cp_nfs *nfs)
{
	char line[4096], *tok[128];
	int got = 0;

	memset(nfs, 0, sizeof(*nfs));
	nfs->rbytes = nfs->wbytes = -1;
	while (nb_bp_line(&text, line, sizeof(line))) {
		int n = nb_bp_split(line, tok, 128), (*kind)(int) = NULL;

		double io[2];

		if (n < 3)
			continue;
		if (!strcmp(tok[0], "io")) {
			if (counters(tok + 1, 2, io)) {
				nfs->refused++;
				continue;
			}
			nfs->rbytes = io[0];
			nfs->wbytes = io[1];
			got++;
			continue;
		}
		if (!strcmp(tok[0], "proc3"))
			kind = v3_kind;
		else if (!strcmp(tok[0], "proc2"))
			kind = v2_kind;
		else if (!strcmp(tok[0], "proc4ops"))
			kind = v4_kind;
		if (!kind || !nb_bp_uint(tok[1]))
			continue;
		/* "procN COUNT v0 v1 ...": COUNT values follow */
		for (int i = 2; i < n && i - 2 < atoi(tok[1]); i++) {
			int k = kind(i - 2);
			double x;

			if (k >= 0 && counters(tok + i, 1, &x))
				nfs->refused++;
			else if (k >= 0)
				nfs->ops[k] += x;
		}
		got++;
	}
	return got;
}

/* LVM names a volume "VG-LV" with each '-' of either name doubled. */
static void lv_name(const char *dm, char *out, size_t len)
{
	size_t o = 0;
	int split = 0;

	for (const char *p = dm; *p && o + 1 < len; p++) {
		if (*p == '-' && p[1] == '-') {
			out[o++] = '-';
			p++;
		} else if (*p == '-' && !split) {
			out[o++] = '/';
			split = 1;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = 0;
}

static int info_find(struct nb_cp_info *info, const char *raw, int add)
{
	char name[NB_CP_NAME];

	nb_bp_name(name, sizeof(name), raw);
	for (int i = 0; i < info->n; i++)
		if (!strcmp(info->d[i].name, name))
			return i;
	if (!add || info->n >= NB_CP_MAXDEV)
		return -1;
	memset(&info->d[info->n], 0, sizeof(info->d[0]));
	snprintf(info->d[info->n].name, NB_CP_NAME, "%s", name);
	return info->n++;
}

int nb_cp_sysblock(const char *text, struct nb_cp_info *info)
{
	char line[1024], *tok[8];
	int got = 0;

	while (nb_bp_line(&text, line, sizeof(line))) {
		int n = nb_bp_split(line, tok, 8), i;

		if (n == 3 && !strcmp(tok[0], "zvol")) {
			/* zvol /dev/zvol/POOL/VOL /dev/zdN */
			const char *dev = strrchr(tok[2], '/');
			const char *vol = strncmp(tok[1], "/dev/zvol/", 10) ? NULL :
					  tok[1] + 10;

			if (!vol || (i = info_find(info, dev ? dev + 1 : tok[2], 1)) < 0)
				continue;
			nb_bp_name(info->d[i].alias, NB_CP_NAME, vol);
			got++;
		} else if (n == 4 && nb_bp_uint(tok[1]) &&
			   (i = info_find(info, tok[0], 1)) >= 0) {
			uint64_t sectors = 0;

			/* a size past 2^63 bytes is none known */
			nb_bp_u64(tok[1], &sectors);
			info->d[i].size = sectors < (1ULL << 54) ? sectors * 512ULL : 0;
			/* a logical volume's uuid is LVM- and the VG's and LV's
			 * ids; LVM's own devices add a suffix (-tpool, -real,
			 * -cow, -cdata ...): not a volume a VM uses */
			info->d[i].lv = !strncmp(tok[3], "LVM-", 4) && !strchr(tok[3] + 4, '-');
			info->d[i].whole = 1;
			if (strcmp(tok[2], "-")) {
				char alias[NB_CP_NAME];

				if (info->d[i].lv)
					lv_name(tok[2], alias, sizeof(alias));
				else
					snprintf(alias, sizeof(alias), "%s", tok[2]);
				nb_bp_name(info->d[i].alias, NB_CP_NAME, alias);
			}
			got++;
		}
	}
	return got;
}

int nb_cp_diskinfo(const char *text, struct nb_cp_info *info)
{
	char line[1024], *tok[12];
	int got = 0;

	while (nb_bp_line(&text, line, sizeof(line))) {
		int n = nb_bp_split(line, tok, 12), i;

		/* /dev/ada0  512  2000398934016  3907029168  ... */
		if (n < 3 || strncmp(tok[0], "/dev/", 5) || !nb_bp_uint(tok[1]) ||
		    !nb_bp_uint(tok[2]) || (i = info_find(info, tok[0] + 5, 1)) < 0)
			continue;
		uint64_t bytes = 0;

		nb_bp_u64(tok[2], &bytes);
		info->d[i].size = bytes < (1ULL << 63) ? bytes : 0;
		info->d[i].whole = 1;
		if (!strncmp(info->d[i].name, "zvol/", 5))
			nb_bp_name(info->d[i].alias, NB_CP_NAME, tok[0] + 10);
		got++;
	}
	return got;
}

/* An operation named in nfsstat -s's header (its %9.9s names), or -1
 * when the name is no operation nasbench counts apart. */
static int bsd_kind(const char *name)
{
	static const char *const plumbing[] = { "PutFH", "PutPubFH", "PutRootFH",
						"GetFH", "SaveFH", "RestoreFH",
						"Sequence" };
	static const struct { const char *n; int k; } ops[] = {
		{ "Getattr", NB_NFS_GETATTR }, { "Lookup", NB_NFS_LOOKUP },
		{ "Access", NB_NFS_ACCESS }, { "Read", NB_NFS_READ },
		{ "Write", NB_NFS_WRITE }, { "Commit", NB_NFS_COMMIT },
	};

	for (size_t i = 0; i < sizeof(plumbing) / sizeof(plumbing[0]); i++)
		if (!strcasecmp(name, plumbing[i]))
			return -1;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcasecmp(name, ops[i].n))
			return ops[i].k;
	return NB_NFS_OTHER;
}

/* nfsstat -s: the "Server Info:" part, a line of names over a line of as
 * many numbers, until the next "Title:" line that is not "RPC Counts:"
 * (FreeBSD 13 puts one before the counts) -- the rest (Server:, Server
 * Cache Stats:) counts no operation. */
int nb_cp_nfsstat(const char *text, struct nb_cp_nfs *nfs)
{
	char line[1024], hdr[1024], cur[1024], *tok[32], *val[32];
	int in = 0, title = 0, seen = 0, nn = 0, key = 0;

	memset(nfs, 0, sizeof(*nfs));
	nfs->rbytes = nfs->wbytes = -1;
	while (nb_bp_line(&text, line, sizeof(line))) {
		size_t l = strlen(line);
		int n;

		while (l && isspace((unsigned char)line[l - 1]))
			line[--l] = 0;
		if (l && line[l - 1] == ':') {
			in = strstr(line, "Server Info") ? 1 :
			     (in && !strcasecmp(line, "RPC Counts:"));
			title |= in;
			continue;
		}
		if (!in)
			continue;
		memcpy(cur, line, sizeof(cur));
		n = nb_bp_split(cur, val, 32);
		if (n && !nb_bp_uint(val[0])) {
			memcpy(hdr, line, sizeof(hdr));
			nn = nb_bp_split(hdr, tok, 32);
			continue;
		}
		if (!nn || n != nn)
			continue;
		for (int i = 0; i < n && nb_bp_uint(val[i]); i++) {
			int k = bsd_kind(tok[i]);
			double x;

			if (counters(val + i, 1, &x)) {
				nfs->refused++;
				break;
			}
			if (k >= 0)
				nfs->ops[k] += x;
			key += k == NB_NFS_READ || k == NB_NFS_WRITE ||
			       k == NB_NFS_GETATTR;
			seen++;
		}
		nn = 0;
	}
	if (title && key < 3)
		return nb_err(-EINVAL, "nfsstat -s: its server counts name no "
			      "Getattr, Read and Write: a layout nasbench does "
			      "not read");
	return seen;
}
