/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep_step.h - what the sweeps share (sweep_step.c): one step run, its
 *           figures read from its metrics, its seed, the answers.
 */
#ifndef NB_WL_SWEEP_STEP_H
#define NB_WL_SWEEP_STEP_H

#include "../workload.h"

/* Step K's seed from the iteration's SEED (splitmix64's finaliser): each
 * step a fresh random sequence, the same for the same seed. */
uint64_t nb_wl_mix_seed(uint64_t seed, uint64_t k);

/* Metric NAME of a step's metrics M; NAN when it has none. */
double nb_wl_step_metric(const json_t *m, const char *name);

/* V as JSON: a number, or null when not finite. */
json_t *nb_wl_json_num(double v);

/* One step of a sweep: ONCE runs SS with SC's PHASE, into fresh metrics
 * and extra objects of SC (the caller's to free); its seconds into
 * *SECS.  ONCE's return. */
int nb_wl_sweep_once(nb_wl_io_fn once, struct nb_wl_ctx *sc,
		     const struct nb_iospec *ss, const char *phase, double *secs);

/* The answers every sweep puts in its iteration's metrics: sweep_steps,
 * iops_at_slo, slo_bw_bytes, vms (when VM: a VM profile) and sat_iops. */
void nb_wl_sweep_answers(struct nb_wl_ctx *c, size_t steps, double iops,
			 double bw, int vm, double vms, double sat_iops);

#endif
