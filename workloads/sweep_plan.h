/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep_plan.h - whether a run is a load sweep, and the sweep its knobs
 *           describe ([capacity]; sweep_plan.c): what the estimate and
 *           the run's plan read without running one (io/io_sweep.c runs).
 */
#ifndef NB_WL_SWEEP_PLAN_H
#define NB_WL_SWEEP_PLAN_H

#include "workload.h"
#include "../capacity/sweep.h"

/* Whether P asks for a sweep (sweep = a list, auto or yes). */
int nb_wl_sweep_wanted(const struct nb_params *p);

/* The sweep P describes (objective, steps up to NB_MAX_QD x CLIENTS;
 * *DROPPED, may be NULL, the steps above that left out).  0, or -EINVAL
 * with the detail set. */
int nb_wl_sweep_setup(const struct nb_params *p, unsigned clients,
		      struct nb_sweep *sw, size_t *dropped);

#endif
