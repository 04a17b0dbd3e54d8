/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * words.h - the words of the decision sentences (decision/decide.c): how
 * each configuration dimension is said, one row of a table each (a new
 * dimension is a row of words.c), what a figure is called in the seeds'
 * terms, and how a factor reads.
 */
#ifndef NB_DECISION_WORDS_H
#define NB_DECISION_WORDS_H

#include <jansson.h>
#include <stddef.h>

struct nb_dim_words {
	const char *dim;         /* the label ("slog"), or "target", "file" */
	/* the value that means its absence ("none"): with two values, one
	 * of them this, the sentence is about having THING ("A SLOG: 19x
	 * the sync IOPS"); NULL: a choice of values ("raid10 over raidz1") */
	const char *without;
	const char *thing;       /* printf format, %s the other value */
	/* a condition on it: "with a SLOG" (%s the value), "without a SLOG";
	 * both: "with and without a SLOG" */
	const char *on, *off, *both;
	const char *plural;      /* its values together: "layouts" */
	int bare;                /* values read alone ("raid10"); 0: "arc=64M" */
};

/* The row of DIM, or a generic one (a choice, "DIM values", values
 * said as "DIM=value"). */
const struct nb_dim_words *nb_words_dim(const char *dim);

/* "with a SLOG", "without a SLOG", "on raidz1", "on arc=64M": where
 * DIM is V, as a condition (SHOWN: V as shown). */
void nb_words_on(const char *dim, const char *v, const char *shown, char *out,
		 size_t len);

/* What figure METRIC of result entry E is, in the seeds' terms: "sync
 * IOPS", "sequential sync writes", "reads", "bonnie++ block writes",
 * "VMs at the objective". */
void nb_words_what(const json_t *e, const char *metric, char *out, size_t len);

/* "19-27x", "3.1-3.8x", "1.50x", "1.10-1.15x": factors LO to HI (>= 1),
 * to two figures; one when they read the same. */
void nb_words_factor(double lo, double hi, char *out, size_t len);

/* "(n=3 each, ±18%)", "(n=3-5, ±4%; not significant)": N iterations
 * NLO to NHI a side, the widest SPREAD (%), and with SIG what compare's
 * test said of N comparisons: NSIG significant, NLOW too few to test. */
void nb_words_confidence(int nlo, int nhi, double spread, size_t n, size_t nsig,
			 size_t nlow, int sig, char *out, size_t len);

#endif
