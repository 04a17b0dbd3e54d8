/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * openload.h - the open loop in a workload: its spec from the knobs, its
 *              figures, and whether the run was the load it was asked
 *              to be (docs/capacity.md, "Open and closed loops").
 */
#ifndef NB_WL_OPENLOAD_H
#define NB_WL_OPENLOAD_H

#include "../workload.h"

/* An open-loop run counts only when it achieved at least this share of
 * the rate it offered (SPECstorage's rule: a load point is the load it
 * names, or it is not one). */
#define NB_OPEN_VALID 0.98

/* The arrival process and its bursts from P onto S (whatever the rate). */
void nb_iospec_arrivals(struct nb_iospec *s, const struct nb_params *p);

/* P's open loop onto the resolved spec S: the rate (a throughput divided
 * by S's block size), the arrival process; QD becomes the most in flight
 * (NB_MAX_QD unless iodepth is given) and a run without a runtime lasts
 * [capacity] step-time.  Nothing when P has no rate. */
void nb_iospec_load(struct nb_iospec *s, const struct nb_params *p);

/* Whether P measures capacity: a sweep, a population (--vms) or an open
 * loop at a rate. */
int nb_wl_capacity_run(const struct nb_params *p);

/* The data set of a capacity run that gives no size: twice the box's RAM
 * when it is known ([box] ram, --label ram, an ssh:// monitor), so the
 * box cannot answer from its cache; else DEF. */
uint64_t nb_wl_capacity_bytes(const struct nb_params *p, uint64_t def);

/* S's size as nb_wl_capacity_bytes() says (within the target); on the
 * first iteration a warning when the box's RAM is not known. */
void nb_wl_capacity_size(struct nb_wl_ctx *c, struct nb_iospec *s);

/* Whether a run was the load it was asked to be, and if not who fell
 * behind. */
struct nb_open_verdict {
	int valid;               /* achieved >= NB_OPEN_VALID x offered, nothing
				  * abandoned */
	double achieved_pct;     /* achieved / offered x 100 */
	const char *behind;      /* NULL, "client" (its CPU: I/Os late with a
				  * slot free), "slots" (the in-flight limit
				  * asked for), "box" (it answered slower than
				  * the arrivals came) */
	char text[512];          /* for a person, "" when valid */
};

void nb_open_judge(const struct nb_iospec *s, const struct nb_io_result *r,
		   struct nb_open_verdict *v);

/* R's open-loop figures into C's iteration: the metrics (offered and
 * achieved IOPS, response percentiles, late and queued I/Os), the
 * "open" object (counts, the verdict, the p99's confidence interval) and
 * the response histogram; a warning when the run fell behind. */
void nb_wl_open_metrics(struct nb_wl_ctx *c, const struct nb_iospec *s,
			const struct nb_io_result *r);

/* The same for a run fio carried (rate_iops, rate_process=poisson): what
 * fio achieved against the rate asked, its latencies timed from the
 * submission ("timed_from": "submission"), said in a warning once. */
void nb_wl_open_fio_metrics(struct nb_wl_ctx *c, const struct nb_iospec *s);

/* The open loop's description for the spec (rate, arrival, sources). */
void nb_open_spec_json(json_t *spec, const struct nb_iospec *s);

#endif
