/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * accept.h - acceptance criteria: does the box meet what we need?
 *
 * The criteria and their language are in criteria.h.  Evaluation reads a
 * finished result document and adds
 *   "accept": { "verdict": "pass"|"fail", "passed": N, "failed": N,
 *               "criteria": [ { "criterion", "where", "workload", "target",
 *                 "metric", "stored_metric", "statistic", "op",
 *                 "required", "measured", "unit", "iterations",
 *                 "verdict": "pass"|"fail", "reason" } ] }
 * A criterion whose workload did not run on its target (skipped, failed,
 * interrupted, not in the plan, metric absent) fails: it never passes by
 * default.
 */
#ifndef NB_REPORT_ACCEPT_H
#define NB_REPORT_ACCEPT_H

#include <jansson.h>
#include <stdio.h>

#include "criteria.h"
#include "../core/atomic_file.h"

/* The verdicts of A on result DOC, as the "accept" object described
 * above (a new reference).  *FAILED is the number of failing criteria. */
json_t *nb_accept_eval(const struct nb_accept *a, const json_t *doc,
		       int *failed);

/* The criteria suite 'accept' implies for DOC: every target on which
 * integrity, syncprobe or conform applies gets corrupt/misplaced/stale
 * blocks = 0, durable = yes, conform_failed = 0.  0 or -ENOMEM. */
int nb_accept_implied(struct nb_accept *a, const json_t *doc);

/* At the end of a run: add the criteria SUITE_ACCEPT implies, evaluate,
 * put "accept" into DOC (only when there are criteria).  Returns the exit
 * status the verdict asks for: NB_EXIT_OK or NB_EXIT_FAIL. */
int nb_accept_finish(struct nb_accept *a, json_t *doc, int suite_accept);

/* accept_out.c.  Print the table to OUT (NULL: not) and write JUNIT (NULL:
 * not).  0, or -errno with the detail printed. */
int nb_accept_report(const json_t *doc, FILE *out, const char *junit);

/* The pass/fail table a person reads. */
void nb_accept_print(FILE *out, const json_t *accept);

/* JUnit XML: a testsuite "nasbench.accept" with one testcase per
 * criterion (a failure carries measured vs required), then one testsuite
 * per target's protocol-conformance run.  Written atomically; PATH may
 * hold such a file (nb_accept_junit_out) and nothing else.  0 or -errno
 * (-EEXIST: PATH holds another file). */
int nb_accept_junit(const json_t *doc, const char *path);

/* The JUnit file of --junit as an output (core/atomic_file.h). */
extern const struct nb_out_kind nb_accept_junit_out;

#endif
