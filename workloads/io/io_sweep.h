/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_sweep.h - an I/O workload as a load sweep (docs/capacity.md).
 *
 * The iteration's "sweep" object (its shape: docs/capacity.md):
 *   { "objective": "p99=20ms", "objective_text": "p99 <= 20 ms",
 *     "plan": "1,2,4,...", "step_s": 10, "complete": true,
 *     "stop": "objective-broken" | "throughput-flat" | "time-limit" |
 *             "steps-done" | "interrupted" | "error",
 *     "clients": 1, "vm": { profile } | null,
 *     "steps": [ { "outstanding", "qd", "clients", "bw_bytes", "iops",
 *                  "lat_mean_us", "lat_p50_us", "lat_p90_us", "lat_p99_us",
 *                  "lat_p99.9_us", "seconds", "cpu_per_thread",
 *                  "slo_met", "little", "little_ok", "client_bound",
 *                  "per_client": [ fio's clients ] (with --clients) } ],
 *     "capacity": { "found", "iops", "bw_bytes", "outstanding", "vms",
 *                   "interpolated", "lower_bound", "objective_broken",
 *                   "flagged", "client_bound", "step", "text" },
 *     "knee": { "step", "outstanding", "iops", "bw_bytes", "vms" } | null,
 *     "saturation": { "iops", "saturated", "vms" },
 *     "little": { "failed", "tolerance" }, "client_bound_steps" }
 * and its metrics: sweep_steps, iops_at_slo, slo_bw_bytes, vms (with a VM
 * profile), sat_iops, sat_bw_bytes, little_failed (the knee, which a curve
 * may lack, is the sweep's alone: a metric missing in one result would
 * read as a regression to compare).
 */
#ifndef NB_IO_SWEEP_H
#define NB_IO_SWEEP_H

#include "../fiodrv/fio_driver.h"
#include "sweep_step.h"
#include "../sweep_plan.h"
#include "../../capacity/sweep.h"

/* One iteration of S as a sweep; ONCE runs S at one depth (the usual
 * single run).  VM (borrowed, may be NULL) is recorded as the profile and
 * VM_IOPS > 0 turns capacity into VMs.  0, -EINTR or -errno; the finished
 * steps are kept either way ("partial" set when not 0). */
int nb_wl_sweep_run(struct nb_wl_ctx *c, const struct nb_iospec *s,
		    nb_wl_io_fn once, json_t *vm, double vm_iops);

/* The closed sweep alone (io_sweep.c): steps of outstanding I/O. */
int nb_wl_sweep_closed(struct nb_wl_ctx *c, const struct nb_iospec *s,
		       nb_wl_io_fn once, json_t *vm, double vm_iops);

/* The open loop's sweep (io_sweep_open.c): the same contract; the
 * "sweep" object has "loop": "open" (docs/capacity.md). */
int nb_wl_osweep_run(struct nb_wl_ctx *c, const struct nb_iospec *s,
		     nb_wl_io_fn once, json_t *vm, double vm_iops);

/* What a sweep of a whole load (the replay's, workloads/replay/replay.c) sets:
 * the first step's rate (today's load) and a floor under the probe's
 * maximum (a closed-loop probe of one mix may miss what the population
 * reaches); 0: as nb_wl_osweep_run.  A step's "open" object's
 * "per_source" is kept in its step. */
struct nb_osweep_from {
	double first, max_floor;
};
int nb_wl_osweep_run_from(struct nb_wl_ctx *c, const struct nb_iospec *s,
			  nb_wl_io_fn once, const struct nb_osweep_from *from);

/* Whether the last iteration of result entry ENTRY is a sweep no step of
 * which met the objective: 1, or 2 when too thin a step leaves that
 * unmeasured (core/samples.h); BUF gets what to say.  0: neither. */
int nb_wl_sweep_missed(const json_t *entry, char *buf, size_t len);

#endif
