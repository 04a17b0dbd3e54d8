/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diskstats.c - /proc/diskstats, a row a device (diskstats.h). */
#include "diskstats.h"

void nb_bp_ds_open(struct nb_bp_ds *ds, const char *text)
{
	ds->text = text;
}

int nb_bp_ds_next(struct nb_bp_ds *ds, struct nb_bp_dsrow *row)
{
	while (nb_bp_line(&ds->text, ds->line, sizeof(ds->line))) {
		char **tok = ds->tok;
		int n = nb_bp_split(ds->line, tok, NB_BP_MAXTOK);

		/* maj min name, then the counters */
		if (n < 3 + NB_BP_DS_N || !nb_bp_uint(tok[0]) || !nb_bp_uint(tok[1]))
			continue;
		row->name = tok[2];
		row->bad = 0;
		for (int c = 0; c < NB_BP_DS_N; c++)
			if (nb_bp_u64(tok[3 + c], &row->v[c])) {
				row->v[c] = 0;
				row->bad |= NB_BP_DS_BIT(c);
			}
		return 1;
	}
	return 0;
}
