/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gate.h - the regression thresholds of 'nasbench compare'.
 *
 * A threshold is the largest change in the worse direction a metric may
 * show before it counts as a regression (a fraction: 0.05 = 5%), or "off"
 * (reported, never a regression).  The default comes from --max-regress
 * (5%); a gate file refines it per metric, per workload, or both:
 *
 *   [gate]
 *   max-regress = 5%          ; the default (--max-regress wins over it)
 *   alpha       = 0.05        ; significance level of the tests
 *
 *   [metric]                  ; any workload
 *   lat_p99_us  = 20%
 *   lat_max_us  = off
 *   mb_s        = 3%          ; user names (core/metrics.c aliases) work
 *
 *   [workload rand4k-write]   ; this workload
 *   max-regress = 10%         ;   its primary metric
 *   primary     = lat_p99_us  ;   its verdict's metric (default: MB/s for
 *                             ;   sequential, IOPS for random workloads)
 *   lat_p99_us  = 30%         ;   one metric (wins over everything)
 *   bands       = 5%,1.5x     ;   its viability bands (decision/bands.h)
 *
 *   [bands]                   ; viability bands (compare --bands wins)
 *   default     = 10%,2x      ;   every judged figure
 *   lat_p99_us  = 20%,3x      ;   a metric: judged too
 *
 * Precedence: workload+metric > workload > metric > default.  Only the
 * primary metric of a workload gates unless a rule names a metric: a
 * [metric] or workload+metric rule makes that metric gate too.
 */
#ifndef NB_REPORT_GATE_H
#define NB_REPORT_GATE_H

#include <stdio.h>

#include "../decision/bands.h"
#include "../decision/judge.h"

#define NB_GATE_OFF NB_JUDGE_OFF
/* compare's defaults, said once (cmd/compare.c shows them): the largest
 * change for the worse that passes, in percent (also the threshold of the
 * words under --max-regress off), the test's alpha, and the history runs
 * --baseline history takes. */
#define NB_GATE_MAX_REGRESS_PCT 5
#define NB_GATE_ALPHA NB_JUDGE_ALPHA
#define NB_COMPARE_LAST 5
#define NB_GATE_MAX_RULES 256

struct nb_gate_rule {
	char workload[128];      /* "" = any */
	char metric[64];         /* stored name; "" = all */
	double max_regress;      /* fraction or NB_GATE_OFF */
	int line;
	int used;
};

struct nb_gate_primary {
	char workload[128];
	char metric[64];         /* stored name */
	int line;
	int used;
};

#define NB_GATE_MAX_PRIMARY 64

struct nb_gate {
	char path[4096];         /* "" without a file */
	double max_regress;      /* the default */
	double alpha;
	int nrules;
	struct nb_gate_rule rules[NB_GATE_MAX_RULES];
	int nprimary;
	struct nb_gate_primary primary[NB_GATE_MAX_PRIMARY];
	struct nb_bands_set bands;   /* [bands], a workload's bands, --bands */
};

void nb_gate_init(struct nb_gate *g);

/* Read a gate file.  0, or -EINVAL/-errno with "PATH:LINE: ..." set. */
int nb_gate_load(struct nb_gate *g, const char *path);

/* "5%", "5", "0.5%" -> fraction; "off"/"none"/"ignore" -> NB_GATE_OFF.
 * 0 or -EINVAL (no message set). */
int nb_gate_parse_threshold(const char *s, double *out);

/* The threshold for METRIC (stored name) of WORKLOAD; marks the rule used.
 * *NAMED (may be NULL) is set when the rule that decided names the metric
 * (a [metric] or a workload+metric rule): such a metric gates even when it
 * is not the workload's primary one. */
double nb_gate_threshold(struct nb_gate *g, const char *workload,
			 const char *metric, int *named);

/* The primary metric a gate file sets for WORKLOAD, or NULL. */
const char *nb_gate_primary(struct nb_gate *g, const char *workload);

/* Warn (stderr) about rules that matched nothing: a typo in a gate file
 * must not pass silently. */
void nb_gate_warn_unused(const struct nb_gate *g);

#endif
