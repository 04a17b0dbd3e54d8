/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zpool.c - a pool's own I/O from 'zpool iostat -v' (its rows read by
 * boxparse/zpool.c) and its request sizes from 'zpool iostat -r'
 * (parse.h). */
#include "parse.h"
#include "parse_int.h"
#include "../boxparse/zpool.h"
#include "../core/err.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct nb_cp_pool *pool_get(struct nb_cp_pools *p, const char *name)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->p[i].name, name))
			return &p->p[i];
	if (p->n >= NB_CP_MAXPOOL)
		return NULL;
	memset(&p->p[p->n], 0, sizeof(p->p[0]));
	snprintf(p->p[p->n].name, NB_CP_NAME, "%s", name);
	return &p->p[p->n++];
}

int nb_cp_zpool(const char *text, struct nb_cp_pools *p)
{
	struct nb_bp_zp z;
	struct nb_bp_zrow r;

	p->n = 0;
	p->refused = 0;
	nb_bp_zp_open(&z, text);
	while (nb_bp_zp_next(&z, &r)) {
		struct nb_cp_pool *x;

		if (r.kind == NB_BP_Z_REPORT) {
			p->n = 0;           /* a new report: the last counts */
			continue;
		}
		/* pool alloc free read write read write, under its header */
		if (r.kind != NB_BP_Z_POOL || !r.headed || r.words != 7 ||
		    !(x = pool_get(p, r.name)))
			continue;
		x->rops = r.fig[NB_BP_Z_ROPS];
		x->wops = r.fig[NB_BP_Z_WOPS];
		x->rbw = r.fig[NB_BP_Z_RBW];
		x->wbw = r.fig[NB_BP_Z_WBW];
		if (x->rops < 0 || x->wops < 0 || x->rbw < 0 || x->wbw < 0) {
			p->refused++;        /* not a row of figures: not the pool's */
			p->n--;
		}
	}
	return p->n;
}

/* The groups of an -r header ("tank  sync_read  sync_write ..."): per
 * group, 1 a read, 2 a write, 0 neither (scrub, trim, rebuild). */
static int hist_groups(char **tok, int n, int *kind, const char *hdr)
{
	static const struct { const char *n; int k; } groups[] = {
		{ "sync_read", 1 }, { "async_read", 1 }, { "sync_write", 2 },
		{ "async_write", 2 }, { "scrub", 0 }, { "trim", 0 },
		{ "rebuild", 0 },
	};

	for (int i = 1; i < n; i++) {
		kind[i - 1] = -1;
		for (size_t j = 0; j < sizeof(groups) / sizeof(groups[0]); j++)
			if (!strcmp(tok[i], groups[j].n))
				kind[i - 1] = groups[j].k;
		if (kind[i - 1] < 0)
			return nb_err(-EINVAL, "zpool iostat -r: unknown column '%s' "
				      "in its header '%s': a layout nasbench does "
				      "not read (docs/capture.md)", tok[i], hdr);
	}
	return 0;
}

/* One row "SIZE ind agg ind agg ..." of pool X's histogram. */
static void hist_row(struct nb_cp_pool *x, char **tok, int n, const int *kind,
		     int ngroups)
{
	double size = nb_bp_zsize(tok[0]);

	if (n != 1 + 2 * ngroups || size <= 0)
		return;
	for (int i = 1; i < n; i++)
		if (nb_bp_zsize(tok[i]) < 0)
			return;             /* not a row of counts */
	for (int g = 0; g < ngroups; g++)
		for (int a = 0; a < 2; a++) {
			double c = nb_bp_zsize(tok[1 + 2 * g + a]);

			if (kind[g] == 1) {
				x->h_rreq += c;
				x->h_rbytes += c * size;
			} else if (kind[g] == 2) {
				x->h_wreq += c;
				x->h_wbytes += c * size;
			}
			if (kind[g] && a)
				x->h_agg += c;
		}
}

int nb_cp_zpool_hist(const char *text, struct nb_cp_pools *p)
{
	char line[1024], prev[1024] = "", hdr[1024], *tok[40];
	int kind[40], ngroups = 0, got = 0;
	struct nb_cp_pool *x = NULL;

	while (nb_bp_line(&text, line, sizeof(line))) {
		char copy[1024];
		int n;

		memcpy(copy, line, sizeof(copy));
		n = nb_bp_split(copy, tok, 40);
		if (n && !strcmp(tok[0], "req_size")) {
			char *g[40];
			int ng;

			memcpy(hdr, prev, sizeof(hdr));
			ng = nb_bp_split(prev, g, 40);
			if (ng < 2 || n != 1 + 2 * (ng - 1))
				return nb_err(-EINVAL, "zpool iostat -r: its header "
					      "'%s' does not name the groups of "
					      "'%s': a layout nasbench does not "
					      "read (docs/capture.md)", hdr, line);
			if (hist_groups(g, ng, kind, hdr))
				return -EINVAL;
			ngroups = ng - 1;
			x = pool_get(p, g[0]);
			if (x) {           /* a new report of it: the last counts */
				x->have_hist = 1;
				x->h_rreq = x->h_wreq = x->h_rbytes = 0;
				x->h_wbytes = x->h_agg = 0;
				got++;
			}
			continue;
		}
		memcpy(prev, line, sizeof(prev));
		if (!n || tok[0][0] == '-') {
			if (n && x && ngroups)
				continue;   /* the rule under the header */
			x = NULL;
			continue;
		}
		if (x && isdigit((unsigned char)tok[0][0]))
			hist_row(x, tok, n, kind, ngroups);
	}
	return got;
}
