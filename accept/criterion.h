/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * criterion.h - one acceptance criterion and a list of them: what the
 *               language (criteria.c) and a failure walk's criteria
 *               (failure_crit.c) both make, and accept.c judges.
 */
#ifndef NB_ACCEPT_CRITERION_H
#define NB_ACCEPT_CRITERION_H

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

/* Append one criterion (copied).  0 or -ENOMEM. */
int nb_accept_add(struct nb_accept *a, const struct nb_criterion *c);

#endif
