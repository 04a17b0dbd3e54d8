/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zdata.c - what the old box holds and caches (capture_int.h,
 * docs/data.md): its pools' compression and dedup ratios ('zfs get',
 * 'zpool get') and its ARC's counters, read at the capture's start and
 * end into the load file's [data]: the replay writes data as
 * compressible as the box's, and the ARC's hit rate and size say what
 * its cache did for the load.
 */
#include "capture_int.h"
#include "../core/err.h"
#include "../core/units.h"
#include "../telemetry/telem_ratio.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A pool's name nasbench passes back to the box's shell in quotes. */
static int name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("_-.:", *s)))
			return 0;
	return 1;
}

/* Whether pool I of B holds the VMs' data: the pool of a zvol picked
 * (Linux: its link's name, "tank/vm01"; FreeBSD: "zvol/tank/vm01"); with
 * no zvol picked, every pool of a box that serves NFS (its datastores are
 * on them); else none: LVs and files are no pool's data. */
static int holds_vms(const struct cp_box *b, int i)
{
	const char *p = b->pools[i];
	size_t l = strlen(p);
	int zvols = 0;

	for (int k = 0; k < b->nsel; k++) {
		const char *v = !strncmp(b->sel[k].name, "zvol/", 5) ? b->sel[k].name + 5 :
				!strncmp(b->sel[k].name, "zd", 2) ? b->sel[k].vm : NULL;

		if (!v || !strchr(v, '/'))
			continue;
		zvols = 1;
		if (!strncmp(v, p, l) && v[l] == '/')
			return 1;
	}
	return !zvols && b->have_nfs;
}

static void script_of(const struct cp_box *b, char *buf, size_t len)
{
	char pools[1024] = "";
	size_t n = 0;

	for (int i = 0; i < b->npools && n < sizeof(pools); i++)
		if (name_ok(b->pools[i]) && holds_vms(b, i))
			n += (size_t)snprintf(pools + n, sizeof(pools) - n, " '%s'",
					      b->pools[i]);
	if (b->freebsd)
		snprintf(buf, len, "echo @sysctl; sysctl -i "
			 "kstat.zfs.misc.arcstats.hits kstat.zfs.misc.arcstats.misses "
			 "kstat.zfs.misc.arcstats.size kstat.zfs.misc.arcstats.c_max "
			 "kstat.zfs.misc.arcstats.demand_data_hits "
			 "kstat.zfs.misc.arcstats.demand_data_misses 2>/dev/null; ");
	else
		snprintf(buf, len, "echo @arc-kstat; cat /proc/spl/kstat/zfs/arcstats "
			 "2>/dev/null; echo @arc-kv; [ -d /zfs-kstat/zfs/arcstats ] && "
			 "(cd /zfs-kstat/zfs/arcstats && for f in hits misses size c_max "
			 "demand_data_hits demand_data_misses; do echo \"$f $(cat $f)\"; "
			 "done); ");
	n = strlen(buf);
	if (pools[0] && n < len)
		snprintf(buf + n, len - n, "echo @zfs; zfs get -Hp -o "
			 "name,property,value compressratio,used%s 2>/dev/null; "
			 "echo @dedup; zpool get dedupratio%s 2>/dev/null; ", pools, pools);
	n = strlen(buf);
	if (n < len)
		snprintf(buf + n, len - n, "true");
}

/* The pool of B named NAME, or -1. */
static int pool_index(const struct cp_box *b, const char *name)
{
	for (int i = 0; i < b->npools; i++)
		if (!strcmp(b->pools[i], name))
			return i;
	return -1;
}

/* "@zfs": NAME PROPERTY VALUE lines; "@dedup": zpool get's table. */
static void zfs_lines(const struct cp_box *b, const char *text, int dedup,
		      struct cp_zdata *d)
{
	char line[512], *tok[NB_BP_MAXTOK];
	uint64_t used;

	while (nb_bp_line(&text, line, sizeof(line))) {
		int n = nb_bp_split(line, tok, NB_BP_MAXTOK), i;

		if (n < 3 || (i = pool_index(b, tok[0])) < 0)
			continue;
		if (dedup && !strcmp(tok[1], "dedupratio"))
			nb_tr_ratio(tok[2], &d->dedup[i]);
		else if (!dedup && !strcmp(tok[1], "compressratio"))
			nb_tr_ratio(tok[2], &d->ratio[i]);
		else if (!dedup && !strcmp(tok[1], "used") &&
			 !nb_parse_size(tok[2], &used))
			d->used[i] = (double)used;
		nb_err_clear();
	}
}

void cp_zdata_parse(const struct cp_box *b, char *text, struct cp_zdata *d)
{
	char *sec = strstr(text, "@"), *next;
	struct nb_tp_cpu cpu;
	struct nb_tp_mem mem;

	while (sec) {
		char *body = strchr(sec, '\n');

		if (!body)
			break;
		*body++ = 0;
		if (*body == '@') {      /* an empty section */
			sec = body;
			continue;
		}
		next = strstr(body, "\n@");
		if (next)
			*next++ = 0;
		if (!strcmp(sec, "@arc-kstat") && *body)
			nb_tp_arc_kstat(body, &d->arc);
		else if (!strcmp(sec, "@arc-kv") && *body)
			nb_tp_arc_kv(body, &d->arc);
		else if (!strcmp(sec, "@sysctl")) {
			memset(&cpu, 0, sizeof(cpu));
			memset(&mem, 0, sizeof(mem));
			nb_tp_bsd_sysctl(body, &cpu, &mem, &d->arc);
		} else if (!strcmp(sec, "@zfs") || !strcmp(sec, "@dedup"))
			zfs_lines(b, body, sec[1] == 'd', d);
		sec = next;
	}
}

int cp_zdata_read(struct cp_box *b, struct cp_zdata *d)
{
	char script[2048], err[256], *out = NULL;
	int any = 0;

	memset(d, 0, sizeof(*d));
	for (int i = 0; i < b->npools; i++)
		any |= holds_vms(b, i);
	if (!any)
		return -ENOENT;         /* the VMs' data is on no pool of the box */
	script_of(b, script, sizeof(script));
	if (nb_telem_exec(b->tm, script, &out, err, sizeof(err))) {
		free(out);
		return -EIO;
	}
	cp_zdata_parse(b, out, d);
	free(out);
	return 0;
}

/* The pools' ratio together: each weighted by what it uses on its disks
 * (the data's logical bytes over the physical). */
static double combined(const struct cp_box *b, const double *ratio,
		       const double *used)
{
	double phys = 0, logical = 0;
	int n = 0;

	for (int i = 0; i < b->npools; i++) {
		if (ratio[i] <= 0 || !holds_vms(b, i))
			continue;
		n++;
		phys += used[i];
		logical += used[i] * ratio[i];
	}
	if (!n)
		return NAN;
	if (phys <= 0) {             /* no sizes said: the plain mean */
		for (int i = 0; i < b->npools; i++)
			logical += ratio[i] > 0 && holds_vms(b, i) ? ratio[i] : 0;
		return logical / n;
	}
	return logical / phys;
}

void cp_zdata_into(struct nb_load *l, const struct cp_box *b,
		   const struct cp_zdata *s, const struct cp_zdata *e)
{
	struct nb_load_data *d = &l->data;
	uint64_t h, m;

	d->compressratio = combined(b, e->ratio, e->used);
	d->dedupratio = combined(b, e->dedup, e->used);
	if (e->arc.have) {
		d->arc_size = (double)e->arc.size;
		d->arc_max = e->arc.c_max ? (double)e->arc.c_max : NAN;
	}
	if (s->arc.have && e->arc.have) {
		int demand = e->arc.demand_data_hits || e->arc.demand_data_misses;
		uint64_t h0 = demand ? s->arc.demand_data_hits : s->arc.hits;
		uint64_t m0 = demand ? s->arc.demand_data_misses : s->arc.misses;

		h = demand ? e->arc.demand_data_hits : e->arc.hits;
		m = demand ? e->arc.demand_data_misses : e->arc.misses;
		/* counters that went back (a reload) are a gap, not a figure */
		if (h >= h0 && m >= m0 && h - h0 + m - m0 > 0)
			d->arc_hit = 100.0 * (double)(h - h0) /
				     (double)(h - h0 + m - m0);
	}
	d->have = !isnan(d->compressratio) || !isnan(d->dedupratio) ||
		  !isnan(d->arc_size) || !isnan(d->arc_hit);
}
