/* SPDX-License-Identifier: GPL-2.0-or-later */
/* telem_ratio.c - the ZFS dataset's compression and dedup ratios from
 * the text of 'zfs list', 'zfs get' and 'zpool get' (telem_ratio.h). */
#include "telem_ratio.h"
#include "telem_rt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A name nasbench will pass back to the box's shell in single quotes:
 * ZFS's own characters only. */
static int name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("_-.:/", *s)))
			return 0;
	return 1;
}

int nb_tr_dataset_of(const char *text, const char *path, char *ds, size_t len)
{
	char line[1024], *tok[NB_BP_MAXTOK];
	size_t best = 0;

	if (!path || path[0] != '/')
		return 0;
	while (nb_bp_line(&text, line, sizeof(line))) {
		size_t l;

		/* NAME<tab>MOUNTPOINT; "-", "none", "legacy" are no place */
		if (nb_bp_split(line, tok, NB_BP_MAXTOK) != 2 || tok[1][0] != '/' ||
		    !name_ok(tok[0]) || strlen(tok[0]) >= len)
			continue;
		l = strlen(tok[1]);
		while (l > 1 && tok[1][l - 1] == '/')
			l--;
		if (strncmp(path, tok[1], l) || (path[l] && path[l] != '/' && l > 1) ||
		    l <= best)
			continue;
		best = l;
		snprintf(ds, len, "%s", tok[0]);
	}
	return best > 0;
}

int nb_tr_ratio(const char *s, double *out)
{
	size_t digits = strspn(s, "0123456789.");
	char *end;
	double v;

	/* ZFS prints digits, a point and an x: nothing else is read (no
	 * sign, exponent, hex or "nan" from a box that says otherwise) */
	if (!digits || (s[digits] && strcmp(s + digits, "x")))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || (*end && strcmp(end, "x")) || !isfinite(v) ||
	    v < 1 || v > NB_TR_MAX)
		return -EINVAL;
	*out = v;
	return 0;
}

/* A property's value into DST (LEN), when it is a plain word. */
static void word(char *dst, size_t len, const char *v)
{
	if (strlen(v) < len && name_ok(v))
		snprintf(dst, len, "%s", v);
}

void nb_tr_parse(const char *text, struct nb_tr_zfs *z)
{
	char line[1024], *tok[NB_BP_MAXTOK];

	while (nb_bp_line(&text, line, sizeof(line))) {
		int n = nb_bp_split(line, tok, NB_BP_MAXTOK), i;

		/* "PROPERTY VALUE" (zfs get -H -o property,value), or a row of
		 * a table "NAME PROPERTY VALUE SOURCE" (zpool get): the
		 * value follows the property's name */
		for (i = 0; i + 1 < n && i < 2; i++) {
			if (!strcmp(tok[i], "compressratio"))
				nb_tr_ratio(tok[i + 1], &z->compressratio);
			else if (!strcmp(tok[i], "dedupratio"))
				nb_tr_ratio(tok[i + 1], &z->dedupratio);
			else if (!strcmp(tok[i], "compression"))
				word(z->compression, sizeof(z->compression), tok[i + 1]);
			else if (!strcmp(tok[i], "dedup"))
				word(z->dedup, sizeof(z->dedup), tok[i + 1]);
			else
				continue;
			break;
		}
	}
}

json_t *nb_tr_json(const struct nb_tr_zfs *z)
{
	json_t *j = json_pack("{s:s}", "dataset", z->dataset);

	if (z->compression[0])
		json_object_set_new(j, "compression", json_string(z->compression));
	if (z->compressratio > 0)
		json_object_set_new(j, "compressratio", json_real(z->compressratio));
	if (z->dedup[0])
		json_object_set_new(j, "dedup", json_string(z->dedup));
	if (z->dedupratio > 0)
		json_object_set_new(j, "dedupratio", json_real(z->dedupratio));
	return j;
}

int nb_telem_arc_now(struct nb_telem *tm, struct nb_tp_arc *arc)
{
	char err[256], *out = NULL, *sec;
	struct nb_tp_cpu cpu;
	struct nb_tp_mem mem;

	memset(arc, 0, sizeof(*arc));
	if (!tm)
		return -ENOENT;
	if (nb_telem_exec(tm, tm->os == NB_TELEM_FREEBSD ? "echo @sysctl; sysctl -i "
			  "kstat.zfs.misc.arcstats.hits kstat.zfs.misc.arcstats.misses "
			  "kstat.zfs.misc.arcstats.size kstat.zfs.misc.arcstats.c_max "
			  "kstat.zfs.misc.arcstats.demand_data_hits "
			  "kstat.zfs.misc.arcstats.demand_data_misses 2>/dev/null; true" :
			  "if [ -r /proc/spl/kstat/zfs/arcstats ]; then echo @kstat; "
			  "cat /proc/spl/kstat/zfs/arcstats; elif [ -d "
			  "/zfs-kstat/zfs/arcstats ]; then echo @kv; cd "
			  "/zfs-kstat/zfs/arcstats && for f in hits misses size c_max "
			  "demand_data_hits demand_data_misses; do echo \"$f $(cat $f)\"; "
			  "done; fi; true", &out, err, sizeof(err))) {
		free(out);
		return -ENOENT;
	}
	sec = strchr(out, '\n');
	if (sec && !strncmp(out, "@sysctl", 7)) {
		memset(&cpu, 0, sizeof(cpu));
		memset(&mem, 0, sizeof(mem));
		nb_tp_bsd_sysctl(sec + 1, &cpu, &mem, arc);
	} else if (sec && !strncmp(out, "@kstat", 6)) {
		nb_tp_arc_kstat(sec + 1, arc);
	} else if (sec && !strncmp(out, "@kv", 3)) {
		nb_tp_arc_kv(sec + 1, arc);
	}
	free(out);
	return arc->have ? 0 : -ENOENT;
}

double nb_tr_arc_hit(const struct nb_tp_arc *a, const struct nb_tp_arc *b)
{
	int demand = b->demand_data_hits || b->demand_data_misses;
	uint64_t h0 = demand ? a->demand_data_hits : a->hits;
	uint64_t m0 = demand ? a->demand_data_misses : a->misses;
	uint64_t h1 = demand ? b->demand_data_hits : b->hits;
	uint64_t m1 = demand ? b->demand_data_misses : b->misses;

	if (!a->have || !b->have || h1 < h0 || m1 < m0 || h1 - h0 + m1 - m0 == 0)
		return -1;
	return 100.0 * (double)(h1 - h0) / (double)(h1 - h0 + m1 - m0);
}
