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
	/* a failure walk (docs/failure.md): the box state of the figure
	 * ("WORKLOAD@TARGET:degraded", "min_vms_degraded"; "": healthy), and
	 * what is judged when it is no figure of an entry */
	char state[16];
	int walk;                /* enum nb_walk_crit */
};

enum nb_walk_crit {
	NB_WALK_NONE,
	NB_WALK_REBUILD,         /* max_rebuild_time: under the workloads */
	NB_WALK_REBUILD_IDLE,    /* max_rebuild_time_idle */
	NB_WALK_KEEPS,           /* STATE_keeps: of the healthy figure */
};

struct nb_accept {
	int n;
	struct nb_criterion *c;
};

void nb_accept_init(struct nb_accept *a);
void nb_accept_free(struct nb_accept *a);

/* The spelling of an operator (">=") and of a statistic ("median"). */
const char *nb_accept_op_name(int op);
const char *nb_accept_stat_name(int stat);

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

/* failure_crit.c: a failure walk's criteria: "max_rebuild_time = 2h",
 * "max_rebuild_time_idle = 1h", "degraded_keeps = 50%" (every workload of
 * the walk), "WORKLOAD@TARGET rebuilding_keeps >= 30%".  0 or -EINVAL. */
int nb_accept_parse_walk(struct nb_criterion *c, const char *text,
			 const char *where);
/* Whether TEXT is one of them (parsed by nb_accept_parse_walk). */
int nb_accept_is_walk(const char *text);

/* 'nasbench help accept': the syntax, operators, statistics, units and
 * every metric a criterion can name. */
void nb_accept_help(FILE *out);

#endif
