/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_sweep_run.c - which sweep an I/O workload runs ([capacity] loop):
 *           the closed one (io_sweep.c), the open one (io_sweep_open.c)
 *           or both side by side; above both, so neither calls the other.
 */
#include "io_sweep.h"
#include "../../core/knobs.h"

/* loop = both: the closed sweep beside the open one, its curve as
 * "sweep_closed" and its answers as closed_vms, closed_iops_at_slo. */
static int closed_beside(struct nb_wl_ctx *c, const struct nb_iospec *s,
			 nb_wl_io_fn once, json_t *vm, double vm_iops)
{
	static const char *const answers[][2] = {
		{ "vms", "closed_vms" }, { "iops_at_slo", "closed_iops_at_slo" },
	};
	struct nb_wl_ctx sc = *c;
	int rc;

	sc.metrics = json_object();
	sc.extra = json_object();
	rc = nb_wl_sweep_closed(&sc, s, once, vm, vm_iops);
	json_object_set(c->extra, "sweep_closed", json_object_get(sc.extra, "sweep"));
	for (size_t i = 0; i < sizeof(answers) / sizeof(*answers); i++) {
		json_t *v = json_object_get(sc.metrics, answers[i][0]);

		if (v)
			json_object_set(c->metrics, answers[i][1], v);
	}
	json_decref(sc.metrics);
	json_decref(sc.extra);
	return rc;
}

int nb_wl_sweep_run(struct nb_wl_ctx *c, const struct nb_iospec *s,
		    nb_wl_io_fn once, json_t *vm, double vm_iops)
{
	/* steps of outstanding I/O are the closed sweep's: given without a
	 * loop, they choose it */
	int loop = c->p->loop >= 0 ? c->p->loop : c->p->steps[0] ?
		   NB_LOOP_CLOSED : (int)nb_knob_default("capacity", "loop");
	int rc;

	if (loop == NB_LOOP_CLOSED)
		return nb_wl_sweep_closed(c, s, once, vm, vm_iops);
	rc = nb_wl_osweep_run(c, s, once, vm, vm_iops);
	if (rc || loop != NB_LOOP_BOTH)
		return rc;
	return closed_beside(c, s, once, vm, vm_iops);
}
