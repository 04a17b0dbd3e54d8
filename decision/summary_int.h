/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary_int.h - what summary.c and summary_out.c share: the items (one
 * workload entry of one result) and the questions they vary in.  Not for
 * use outside decision/summary*.c: summary.h is the interface.
 */
#ifndef NB_DECISION_SUMMARY_INT_H
#define NB_DECISION_SUMMARY_INT_H

#include <jansson.h>
#include <stddef.h>

#define NB_SUMMARY_MAXD 16

struct nb_sitem {
	const json_t *doc, *e;
	const char *path;
};

struct nb_sctx {
	struct nb_sitem *it;     /* the entries with figures */
	size_t nit;
	const char *dims[NB_SUMMARY_MAXD];   /* the questions */
	size_t ndims;
	json_t *keep;            /* the strings of dims */
	size_t nfiles;           /* distinct result files */
	json_t *lines;
};

/* The value of question DIM ("target", "file", a label) for IT. */
void nb_summary_dimval(const struct nb_sitem *it, const char *dim, char *out,
		       size_t len);
/* The winner and change lines. */
void nb_summary_winners(struct nb_sctx *s);

#endif
