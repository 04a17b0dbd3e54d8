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

struct nb_bands;

struct nb_sitem {
	const json_t *doc, *e;
	const char *path;
	int run;                 /* the result's index: its run */
};

struct nb_sctx {
	struct nb_sitem *it;     /* the entries with figures */
	size_t nit;
	const char *dims[NB_SUMMARY_MAXD];   /* the questions */
	size_t ndims;
	json_t *keep;            /* the strings of dims */
	size_t nfiles;           /* distinct result files */
	json_t *lines;
	/* each comparison the winner lines rest on, one object each:
	 * { dim, workload, target, what, metric, group, at: {dim: value},
	 *   win, run, wv, rv, t, same, sig, low, p, nw, nr, spw, spr, nvals } */
	json_t *evidence;
	json_t *decided;         /* { question: true } that decided something */
	const struct nb_bands *bands;    /* a report's --bands, or NULL */
};

/* The figures METRIC of entry E's iterations (at most MAX, into V), but
 * those of an iteration whose "status" says it is not ok (a figure
 * without the samples to carry it): their count. */
int nb_summary_values(const json_t *e, const char *metric, double *v, int max);

/* The value of question DIM ("target", "file", a label) for IT. */
void nb_summary_dimval(const struct nb_sitem *it, const char *dim, char *out,
		       size_t len);
/* The winner and change lines, and S->evidence. */
void nb_summary_winners(struct nb_sctx *s);
/* decide.c: the decision lines (kind "decision") of S->evidence, at most
 * NB_DECIDE_MAX, appended to S->lines. */
void nb_decide_dims(struct nb_sctx *s);
/* decide_lead.c: a capacity sweep's, a failure walk's and a replay's
 * decision, one per box and target (kind "decision"). */
void nb_decide_lead(struct nb_sctx *s, json_t *const *docs,
		    const char *const *paths, size_t ndocs);
/* decide.c: each comparison as a line of the detail (kind "detail"):
 * what, where, the two medians, the factor, n, spreads and the test. */
void nb_decide_detail(struct nb_sctx *s);
/* "(n=3 each, ±18%)", "(n=3-5, ±4%; not significant)": the iterations
 * (nw, nr), the widest spread (spw, spr) and, SIG given, what compare's
 * test says (sig, low) of the comparisons C. */
void nb_decide_confidence(const json_t *c, int sig, char *out, size_t len);
/* summary.c: compare's test (decision/judge.h) of NEW against BASE, one
 * run each, in J. */
struct nb_judgement;
void nb_summary_test(const double *base, size_t nbase, const double *new_,
		     size_t nnew, int better, struct nb_judgement *j);
/* summary_bands.c: the viability bands of S->bands, each result after
 * the first against the first: a decision per result, its figures in
 * the detail (kind "band"). */
void nb_summary_bands(struct nb_sctx *s, json_t *const *docs,
		      const char *const *paths, size_t ndocs);
/* "NFS", "iSCSI", "raidz1": value V of question DIM as a reader names it
 * (a target by its protocol when the targets' protocols differ). */
void nb_summary_shown(const struct nb_sctx *s, const char *dim, const char *v,
		      char *out, size_t len);

#endif
