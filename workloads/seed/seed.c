/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seed.c - what the seed workloads (bonnie, bigfile, xz, syncprobe) share:
 * the CPU clock for per-phase CPU%, the client's memory, box labels.
 */
#include "seed.h"
#include "../../core/clock.h"

#include <sys/resource.h>
#include <sys/sysinfo.h>

double nb_seed_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

uint64_t nb_seed_client_ram(void)
{
	struct sysinfo si;

	if (sysinfo(&si))
		return 0;
	return (uint64_t)si.totalram * si.mem_unit;
}

void nb_phase_begin(struct nb_phase *ph)
{
	ph->t0 = nb_now_ns();
	ph->cpu0 = nb_seed_cpu_s();
	ph->secs = ph->cpu_pct = 0;
}

void nb_phase_end(struct nb_phase *ph)
{
	ph->secs = (double)(nb_now_ns() - ph->t0) / 1e9;
	if (ph->secs <= 0)
		ph->secs = 1e-9;
	ph->cpu_pct = 100 * (nb_seed_cpu_s() - ph->cpu0) / ph->secs;
}

const char *nb_wl_label(const struct nb_wl_ctx *c, const char *key)
{
	return c->labels ? json_string_value(json_object_get(c->labels, key))
			 : NULL;
}
