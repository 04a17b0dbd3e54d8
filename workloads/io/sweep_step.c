/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep_step.c - what the closed and the open sweep (io_sweep.c,
 *           io_sweep_open.c) and the hot-set sweep share: one step run,
 *           its figures read, its seed, and the answers both put.
 */
#include "sweep_step.h"
#include "../../core/clock.h"

#include <math.h>

uint64_t nb_wl_mix_seed(uint64_t seed, uint64_t k)
{
	uint64_t x = seed ^ (k * 0x9e3779b97f4a7c15ULL);

	x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ULL;
	return x ^ (x >> 29);
}

double nb_wl_step_metric(const json_t *m, const char *name)
{
	const json_t *v = json_object_get(m, name);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

json_t *nb_wl_json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

int nb_wl_sweep_once(nb_wl_io_fn once, struct nb_wl_ctx *sc,
		     const struct nb_iospec *ss, const char *phase, double *secs)
{
	uint64_t t0;
	int rc;

	sc->phase = phase;
	sc->metrics = json_object();
	sc->extra = json_object();
	sc->spec = NULL;
	t0 = nb_now_ns();
	rc = once(sc, ss);
	*secs = (double)(nb_now_ns() - t0) / 1e9;
	if (sc->spec)
		json_decref(sc->spec);
	return rc;
}

void nb_wl_sweep_answers(struct nb_wl_ctx *c, size_t steps, double iops,
			 double bw, int vm, double vms, double sat_iops)
{
	nb_wl_metric(c, "sweep_steps", (double)steps);
	nb_wl_metric(c, "iops_at_slo", iops);
	nb_wl_metric(c, "slo_bw_bytes", bw);
	if (vm)
		nb_wl_metric(c, "vms", vms);
	nb_wl_metric(c, "sat_iops", sat_iops);
}
