/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workload.h - what is run: one const table per workload, one per suite.
 *
 * A workload runs one iteration at a time against an open target and puts
 * its figures into c->metrics (names from core/metrics.h, or its own).  The
 * core repeats it, summarises, and records a workload whose needs the
 * target lacks as skipped, with the reason.  Workloads and suites are
 * listed in workloads/registry.c.
 */
#ifndef NB_WORKLOAD_H
#define NB_WORKLOAD_H

#include <jansson.h>
#include <signal.h>
#include <stdint.h>

#include "../engine/engine.h"
#include "../core/params.h"
#include "../core/progress.h"
#include "../runners/runner.h"

struct nb_workload;
struct nb_telem;
struct nb_crash_opts;

/* A rough estimate of one iteration, at the nominal rates of estimate.c. */
struct nb_estimate {
	double seconds;
	uint64_t written;        /* bytes written to the target */
};

/* Nominal rates for estimates: a box behind 1 GbE, xz at preset 6 on a
 * small client.  Estimates say "~", never promise. */
#define NB_ESTIMATE_RATE 100e6           /* bytes/s */
#define NB_ESTIMATE_META_RATE 1000.0     /* file operations/s */
#define NB_ESTIMATE_XZ_RATE 3e6          /* bytes/s */

/* One iteration of W with P: the workload's estimate, else plan_bytes at
 * NB_ESTIMATE_RATE (or the runtime when one is set). */
void nb_estimate_workload(const struct nb_workload *w, const struct nb_params *p,
		      struct nb_estimate *e);

/* A suite item "NAME" or "NAME*N" (N iterations of NAME): 0, or -EINVAL
 * with the detail set.  *ITERATIONS is 0 when no count is given. */
int nb_suite_item(const char *item, char *name, size_t len, int *iterations);

/* "~2h05m", "~40s": a rough duration. */
char *nb_estimate_fmt_secs(double secs, char *buf, size_t len);

struct nb_wl_ctx {
	struct nb_target *t;
	const struct nb_workload *wl;
	const struct nb_params *p;
	const char *run_id;
	uint64_t seed;                   /* differs per iteration */
	int iteration, iterations;       /* 1-based */
	volatile sig_atomic_t *stop;     /* set on SIGINT */
	struct nb_progress *progress;
	json_t *metrics;                 /* this iteration's figures */
	json_t *extra;                   /* anything else for this iteration */
	json_t *entry;                   /* the result entry (for warnings) */
	json_t *spec;                    /* what ran: fill on iteration 1 */
	const json_t *labels;            /* the box labels (media, slog...) */
	const char *phase;               /* shown with the iteration on the
					  * progress line ("step 3, 4
					  * outstanding"), or NULL */
	/* what 'nasbench run' set up for crashcheck (crashrun.h), or NULL */
	const struct nb_crash_opts *crash;
	struct nb_telem *box;            /* the box's telemetry source when
					  * the target is watched (core/
					  * telem.h), else NULL */
	/* the data a prefill writes, when the workload's is not the knobs'
	 * (the replay's, of the load file: docs/data.md); NULL: the knobs' */
	const struct nb_dataspec *data;
};

/* What every workload needs one of unless it says otherwise: a place for
 * its data, files or a block address space. */
#define NB_WL_DATA_CAPS (NB_CAP_FILES | NB_CAP_BLOCK)

struct nb_workload {
	const char *name;
	const char *help;
	unsigned needs;                  /* every one of these caps */
	unsigned needs_any;              /* at least one of these caps (0:
	                                  * NB_WL_DATA_CAPS) */
	const char *runners;             /* comma-separated runner names it
	                                  * serves (NULL: any with the caps) */
	const struct nb_iospec *io;      /* default spec of an I/O workload */
	/* The criteria suite 'accept' implies on every target it can run on,
	 * ';'-separated "METRIC OP VALUE" (accept/accept.c reads them). */
	const char *accept;
	/* One iteration: 0, -EINTR when stopped, or -errno (detail set). */
	int (*run)(struct nb_wl_ctx *c);
	/* Bytes it would write with P (for --dry-run and the space check);
	 * nb_wl_size() for a workload whose size is size= or default_size. */
	uint64_t (*plan_bytes)(const struct nb_workload *w,
			       const struct nb_params *p);
	uint64_t default_size;           /* without size= (nb_wl_size) */
	/* Optional: a rough estimate of one iteration (see nb_estimate_workload). */
	void (*estimate)(const struct nb_workload *w, const struct nb_params *p,
			 struct nb_estimate *e);
	/* Optional: refuse P before anything runs (a file the workload
	 * reads, missing or wrong): 0, or -EINVAL with the detail set. */
	int (*check)(const struct nb_params *p);
};

struct nb_suite {
	const char *name;
	const char *help;
	const char *workloads;           /* comma-separated */
	int iterations;                  /* 0: the default (3) */
	struct nb_params defaults;       /* applied under the user's knobs */
};

extern const struct nb_workload *const nb_workloads[];
extern const struct nb_suite nb_suites[];

const struct nb_workload *nb_workload_find(const char *name);
const struct nb_suite *nb_suite_find(const char *name);

/* Why target T cannot run W (NULL: it can). */
const char *nb_workload_unsupported(const struct nb_workload *w,
				    const struct nb_target *t, char *buf,
				    size_t len);

/* Why W must not run on targets of the runner named RUNNER, with what to
 * run instead (NULL: it may).  A refusal is a usage error before anything
 * runs (run/exec.c); the rules are in workloads/refusal.c. */
const char *nb_workload_refused(const struct nb_workload *w, const char *runner,
				char *buf, size_t len);

/* Whether W serves targets of the runner named RUNNER (w->runners). */
int nb_workload_serves(const struct nb_workload *w, const char *runner);

/* Whether W can run at all on a target of runner RUNNER that can do CAPS
 * (the runner's widest capabilities, as a result records them). */
int nb_workload_applies(const struct nb_workload *w, const char *runner,
			unsigned caps);

/* Set a metric of the current iteration. */
void nb_wl_metric(struct nb_wl_ctx *c, const char *name, double v);
/* H's figures as metrics WHAT_mean_us, WHAT_p50_us, _p90_us, _p99_us,
 * _p99.9_us and WHAT_max_us (WHAT: "lat", "resp"), in microseconds. */
struct nb_hist;
void nb_wl_hist_metrics(struct nb_wl_ctx *c, const char *what,
			const struct nb_hist *h);
/* The size W works on with P: size=, else W's default_size. */
uint64_t nb_wl_size(const struct nb_workload *w, const struct nb_params *p);
/* A sweep's step time under P: step-time, else its row's default
 * ([capacity] step-time). */
uint64_t nb_wl_step_us(const struct nb_params *p);
void nb_wl_warn(struct nb_wl_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Resolve an I/O workload's spec under the user's knobs and the target. */
void nb_iospec_resolve(const struct nb_iospec *def, const struct nb_params *p,
		       const struct nb_target *t, struct nb_iospec *out);
json_t *nb_iospec_json(const struct nb_iospec *s);
/* One run of a resolved I/O spec (the engine's, fio's): what a sweep
 * runs at each step. */
typedef int (*nb_wl_io_fn)(struct nb_wl_ctx *c, const struct nb_iospec *s);
/* Run the resolved spec S of an I/O workload: once (nasbench's engine
 * or fio, as the target says) or, with --sweep, as a load sweep
 * (workloads/io/io_sweep.c; VM, borrowed, and VM_IOPS > 0 give capacity in
 * VMs).  0, -EINTR or -errno. */
int nb_wl_io_spec_run(struct nb_wl_ctx *c, const struct nb_iospec *s,
		      json_t *vm, double vm_iops);
/* Put the standard figures of an engine run into c->metrics. */
void nb_wl_io_metrics(struct nb_wl_ctx *c, const struct nb_io_result *r);
/* A latency histogram as the result keeps it (lat_hist_ns, resp_hist_ns):
 * [[lower bound ns, count], ...] of the buckets that have any, at the
 * histogram's own resolution (1.6%), so iterations pool exactly
 * (core/result.c). */
json_t *nb_hist_json(const struct nb_hist *h);

/* Make sure the data file NAME holds SIZE bytes nasbench wrote (for reads
 * and writes that overwrite); opens it with FLAGS into *F.  0 or -errno.
 * Only the part not yet written is prefilled (the bytes are recorded as
 * the iteration's "prefilled_bytes").  A block target opened without
 * NB_F_WRITE is prefilled only when the data-loss guard lets nasbench
 * write it; else the reads read what the LUN holds, with a warning. */
int nb_wl_prepare(struct nb_wl_ctx *c, const char *name, uint64_t size,
		  unsigned flags, struct nb_file **f);

/* The run wrote the first END bytes of a block target's window (what
 * really completed, from offset 0 up): t->filled grows to END. */
void nb_wl_wrote(struct nb_wl_ctx *c, uint64_t end);

/* Open the data file an I/O spec runs on, with the flags the spec implies
 * (write, sync, direct), prepared as nb_wl_prepare() does.  0 or -errno. */
int nb_wl_io_open(struct nb_wl_ctx *c, const struct nb_iospec *s,
		  struct nb_file **f);

/* Precondition target c->t (workloads/io/ssd.c): a block target's span
 * written sequentially c->p->precondition_passes times with fresh
 * incompressible data, a directory target filled to c->p->fill_pct of its
 * free space; recorded as the entry's "preconditioning".  0 or -errno. */
int nb_wl_precondition(struct nb_wl_ctx *c);

/* Discard (TRIM) the span of c->t or its data file, recorded as the
 * entry's "discard" with WHEN ("before", "each").  A refusal is -errno
 * with the detail set, or 0 with a warning when c->p->trim_optional. */
int nb_wl_trim(struct nb_wl_ctx *c, const char *when);

/* Run the I/O spec S in rounds until steady (c->p->steady; workloads/
 * steady.c): the entry gets "steady", the window's rounds become its
 * iterations (the last one in c->metrics).  0, -EINTR or -errno. */
int nb_wl_steady_run(struct nb_wl_ctx *c, const struct nb_iospec *s);

/* Judge the last window of rounds of a per-second throughput SERIES
 * (bytes per second; bigfile's), of which the first WHOLE seconds count
 * (the last part-second is no rate), by c->p->steady (default snia:bw)
 * with rounds of c->p->round_us: the iteration's "steady". */
void nb_wl_steady_series(struct nb_wl_ctx *c, const json_t *series,
			 unsigned whole);

#endif
