/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * criteria.h - the acceptance criteria language.
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
 * accept.h evaluates criteria on a result.
 */
#ifndef NB_REPORT_CRITERIA_H
#define NB_REPORT_CRITERIA_H

#include <stdio.h>

#include "criterion.h"
#include "../core/config.h"

/* Parse one criterion; WHERE ("box.ini:14") prefixes any error.  Checks
 * the metric, operator, value and unit, and that the workload exists.
 * 0 or -EINVAL. */
int nb_accept_parse(struct nb_criterion *c, const char *text, const char *where);

/* Add the [accept] lines of a loaded config.  0 or -EINVAL ("FILE:LINE: ..."). */
int nb_accept_from_config(struct nb_accept *a, const struct nb_config *cfg);
/* Add the criteria of a file: one a line, '#'/';' comments, blank lines and
 * an optional "[accept]" header.  0, -ENOENT or -EINVAL ("FILE:LINE: ..."). */
int nb_accept_from_file(struct nb_accept *a, const char *path);
/* Check that every criterion's target is one of NAMES (N of them); an
 * error names the criterion's place and the known targets.  0 or -EINVAL. */
int nb_accept_check_targets(const struct nb_accept *a, const char *const *names,
			    int n);

/* What 'nasbench run' calls.  Setup: the criteria of FILE (--accept,
 * replacing the box file's [accept] section) or of CFG, targets checked
 * against the box file's (before --target narrows them).  Check: after
 * --target, every criterion names a target of the box file or of the run.
 * Both 0 or -EINVAL with the place set. */
int nb_accept_setup(struct nb_accept *a, const struct nb_config *cfg,
		    const char *file);
int nb_accept_check(const struct nb_accept *a, const struct nb_config *cfg);

/* The workloads A's criteria name, into NAMES (at most MAX; "*" of a
 * floor such as min_iops_at_slo is none).  Returns the count. */
int nb_accept_workloads(const struct nb_accept *a, const char **names, int max);

/* 'nasbench help accept': the syntax, operators, statistics, units and
 * every metric a criterion can name. */
void nb_accept_help(FILE *out);

#endif
