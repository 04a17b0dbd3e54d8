/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * marks.h - what overrides a verdict of compare.c: a side not steady, a
 *           side unmeasured (core/samples.h); and why a verdict is
 *           inconclusive.  Each sets J's verdict and *REASON (a static
 *           string of the thread) when it applies, else leaves them.
 */
#ifndef NB_COMPARE_MARKS_H
#define NB_COMPARE_MARKS_H

#include <jansson.h>

#include "compare.h"

/* A steady-state run on either side of B, N that did not reach it (ALLOW:
 * --allow-unsteady, judged anyway): not-steady, nothing gates. */
void nb_compare_mark_unsteady(const json_t *b, const json_t *n, int allow,
			      struct nb_judgement *j, const char **reason);

/* A side whose METRIC lacks the samples to carry it (its entry
 * unmeasured, or METRIC listed in an iteration's "unmeasured"):
 * unmeasured, no regression, inconclusive (when gated). */
void nb_compare_mark_unmeasured(const json_t *b, const json_t *n,
				const char *metric, struct nb_judgement *j,
				const char **reason);

/* What a test of assumed noise could have detected, for a metric whose
 * better direction is BETTER. */
const char *nb_compare_inconclusive_why(const struct nb_judgement *j, int better);

#endif
