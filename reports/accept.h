/*
 * accept.h - acceptance criteria: does the box meet what we need?
 *
 * A criterion is one line of the box file's [accept] section or of an
 * --accept file:
 *
 *     WORKLOAD@TARGET METRIC[:STAT] OP VALUE[UNIT]
 *     seq512k-write-sync@nfs   mb_s    >= 80
 *     rand4k-read@iscsi        p99_us  <= 5ms
 *     syncprobe@nfs            durable  = yes
 *     integrity@nfs            corrupt_blocks = 0
 *
 * METRIC is a stored metric or a user alias (core/metrics.c: mb_s, p99_us,
 * iops...).  OP is one of >= <= > < = !=.  VALUE is a number in the
 * metric's user unit, or carries a unit of the metric's kind (80MB/s,
 * 1GiB/s, 5ms, 250us, 1000iops); yes/no for verdict metrics.  STAT picks
 * the statistic over the iterations: median (the default for figures),
 * worst (the default for verdicts and error counts: durable, *_blocks,
 * conform_failed), best, mean, min, max.
 *
 * Evaluation reads a finished result document and adds
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

#include "../core/config.h"

enum nb_accept_op { NB_OP_GE, NB_OP_LE, NB_OP_GT, NB_OP_LT, NB_OP_EQ, NB_OP_NE };
enum nb_accept_stat { NB_ST_DEFAULT, NB_ST_MEDIAN, NB_ST_WORST, NB_ST_BEST,
		      NB_ST_MEAN, NB_ST_MIN, NB_ST_MAX };

struct nb_criterion {
	char where[4200];        /* "box.ini:14", or "suite accept" when implied */
	char text[512];          /* the line as written */
	char workload[64], target[64];
	char metric[64];         /* as written: "mb_s" */
	char stored[64];         /* as in the result: "bw_bytes" */
	double factor;           /* user value = stored value * factor */
	char unit[16];           /* the user unit: "MB/s", "us", "" */
	int op;                  /* enum nb_accept_op */
	int stat;                /* enum nb_accept_stat, resolved (never DEFAULT) */
	double required;         /* in stored units */
	int boolean;             /* shown as yes/no */
	int implied;             /* added by suite accept, not written */
	int in_config;           /* its target is one of the box file's */
};

struct nb_accept {
	int n;
	struct nb_criterion *c;
};

void nb_accept_init(struct nb_accept *a);
void nb_accept_free(struct nb_accept *a);

/* Parse one criterion; WHERE ("box.ini:14") prefixes any error.  Checks
 * the metric, operator, value and unit, and that the workload exists.
 * 0 or -EINVAL. */
int nb_accept_parse(struct nb_criterion *c, const char *text, const char *where);

/* Add the [accept] lines of a loaded config.  0 or -EINVAL ("FILE:LINE: ..."). */
int nb_accept_from_config(struct nb_accept *a, const struct nb_config *cfg);
/* Add the criteria of a file: one a line, '#'/';' comments, blank lines and
 * an optional "[accept]" header.  0, -ENOENT or -EINVAL ("FILE:LINE: ..."). */
int nb_accept_from_file(struct nb_accept *a, const char *path);
/* Append one criterion (copied).  0 or -ENOMEM. */
int nb_accept_add(struct nb_accept *a, const struct nb_criterion *c);

/* Check that every criterion's target is one of NAMES (N of them); an
 * error names the criterion's place and the known targets.  0 or -EINVAL. */
int nb_accept_check_targets(const struct nb_accept *a, const char *const *names,
			    int n);

/* The verdicts of A on result DOC, as the "accept" object described
 * above (a new reference).  *FAILED is the number of failing criteria. */
json_t *nb_accept_eval(const struct nb_accept *a, const json_t *doc,
		       int *failed);

/* The criteria suite 'accept' implies for DOC: every target on which
 * integrity, syncprobe or conform applies gets corrupt/misplaced/stale
 * blocks = 0, durable = yes, conform_failed = 0.  0 or -ENOMEM. */
int nb_accept_implied(struct nb_accept *a, const json_t *doc);

/* What 'nasbench run' calls.  Setup: the criteria of FILE (--accept,
 * replacing the box file's [accept] section) or of CFG, targets checked
 * against the box file's (before --target narrows them).  Check: after
 * --target, every criterion names a target of the box file or of the run.
 * Both 0 or -EINVAL with the place set. */
int nb_accept_setup(struct nb_accept *a, const struct nb_config *cfg,
		    const char *file);
int nb_accept_check(const struct nb_accept *a, const struct nb_config *cfg);
/* At the end of a run: add the criteria SUITE_ACCEPT implies, evaluate,
 * put "accept" into DOC (only when there are criteria).  Returns the exit
 * status the verdict asks for: NB_EXIT_OK or NB_EXIT_FAIL. */
int nb_accept_finish(struct nb_accept *a, json_t *doc, int suite_accept);
/* Print the table to OUT (NULL: not) and write JUNIT (NULL: not).
 * 0, or -errno with the detail printed. */
int nb_accept_report(const json_t *doc, FILE *out, const char *junit);

/* 'nasbench help accept': the syntax, operators, statistics, units and
 * every metric a criterion can name. */
void nb_accept_help(FILE *out);

/* The pass/fail table a person reads. */
void nb_accept_print(FILE *out, const json_t *accept);

/* JUnit XML: a testsuite "nasbench.accept" with one testcase per
 * criterion (a failure carries measured vs required), then one testsuite
 * per target's protocol-conformance run.  Written atomically.  0 or -errno. */
int nb_accept_junit(const json_t *doc, const char *path);

#endif
