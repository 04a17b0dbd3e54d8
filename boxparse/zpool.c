/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zpool.c - 'zpool iostat -v', a row a line (zpool.h). */
#include "zpool.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 2^64: the most a figure of a tool may be. */
#define ZMAX 18446744073709551616.0

double nb_bp_zsize(const char *s)
{
	static const char units[] = "KMGTPE";
	char *e;
	double v = strtod(s, &e);
	const char *u = *e ? strchr(units, toupper((unsigned char)*e)) : NULL;

	if (!strcmp(s, "-"))
		return 0;
	if (e == s || !isdigit((unsigned char)*s) || !isfinite(v) || v < 0)
		return -1;
	for (int i = 0; u && i <= u - units; i++)
		v *= 1024;
	return v > ZMAX ? -1 : v;
}

static int is_class(const char *name)
{
	static const char *const classes[] = { "logs", "cache", "spares",
					       "special", "dedup" };

	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(name, classes[i]))
			return 1;
	return 0;
}

void nb_bp_zp_open(struct nb_bp_zp *z, const char *text)
{
	z->text = text;
	z->base = 0;
	z->headed = 0;
}

int nb_bp_zp_next(struct nb_bp_zp *z, struct nb_bp_zrow *row)
{
	while (nb_bp_line(&z->text, z->line, sizeof(z->line))) {
		char *line = z->line, **tok = z->tok;
		int ind = nb_bp_indent(line), n;

		if (strstr(line, "capacity") && strstr(line, "operations")) {
			z->headed = 0;
			row->kind = NB_BP_Z_REPORT;
			return 1;
		}
		if (!strncmp(line + ind, "pool ", 5)) {
			z->base = ind;
			z->headed = 1;
			continue;
		}
		n = nb_bp_split(line, tok, NB_BP_MAXTOK);
		if (n < 1 + NB_BP_Z_NFIG || tok[0][0] == '-')
			continue;
		row->name = tok[0];
		row->words = n;
		row->headed = z->headed;
		if (ind == z->base)
			row->kind = is_class(tok[0]) ? NB_BP_Z_CLASS : NB_BP_Z_POOL;
		else
			row->kind = ind <= z->base + 2 ? NB_BP_Z_VDEV : NB_BP_Z_DISK;
		for (int f = 0; f < NB_BP_Z_NFIG; f++)
			row->fig[f] = nb_bp_zsize(tok[1 + f]);
		return 1;
	}
	return 0;
}
