/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep_plan.c - whether a run is a load sweep, and its steps and
 * objective from the knobs (sweep_plan.h). */
#include "sweep_plan.h"
#include "../core/err.h"
#include "../core/knobs.h"

#include <errno.h>

int nb_wl_sweep_wanted(const struct nb_params *p)
{
	return p->sweep > 0 || (p->sweep < 0 && (p->steps[0] || p->rates[0]));
}

int nb_wl_sweep_setup(const struct nb_params *p, unsigned clients,
		      struct nb_sweep *sw, size_t *dropped)
{
	uint32_t steps[NB_SWEEP_MAX];
	struct nb_slo slo;
	size_t n, all;

	if (nb_slo_parse(p->slo[0] ? p->slo : nb_knob_find("capacity", "slo")->def,
			 &slo))
		return -EINVAL;
	if (nb_sweep_steps_parse(p->steps, NB_SWEEP_MAX_OUTSTANDING, steps, &n))
		return -EINVAL;
	/* one engine keeps at most NB_MAX_QD in flight, each client as many */
	all = n;
	while (n && steps[n - 1] > NB_MAX_QD * (clients ? clients : 1))
		n--;
	if (dropped)
		*dropped = all - n;
	if (!n)
		return nb_err(-EINVAL, "every step of '%s' is above %u outstanding "
			      "I/Os (%u a client)", p->steps,
			      NB_MAX_QD * (clients ? clients : 1), NB_MAX_QD);
	nb_sweep_init(sw, steps, n, &slo);
	sw->max_us = p->sweep_us;
	return 0;
}
