/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - the run of a plan: every target in turn (exec.c), or the box
 * walked through a failed disk and its rebuild (failure.c), the box's
 * telemetry around either.
 */
#include "exec.h"
#include "failure.h"
#include "../workloads/crash/crashrun.h"

int nb_run(struct nb_exec *x)
{
	int walk = x->pl->p.rebuild[0] != '\0';

	if (nb_exec_refused(x))
		return x->exit_code;
	nb_run_telem_init(&x->telem, x->cfg);
	if (walk)
		nb_failure_walk(x);    /* every target through the box's states */
	for (int i = 0; !walk && i < x->cfg->ntargets && !*x->stop; i++)
		nb_exec_target(x, &x->cfg->targets[i]);
	nb_run_telem_close(&x->telem);
	if (!walk)
		nb_crash_durability(x->doc);
	return x->exit_code;
}
