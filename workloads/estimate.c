/* SPDX-License-Identifier: GPL-2.0-or-later */
/* estimate.c - rough estimates of what a plan costs, and suite items. */
#include "workload.h"
#include "sweep_plan.h"
#include "../core/err.h"
#include "../core/knobs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nb_estimate_workload(const struct nb_workload *w, const struct nb_params *p,
		      struct nb_estimate *e)
{
	uint64_t b = w->plan_bytes ? w->plan_bytes(w, p) : 0;

	memset(e, 0, sizeof(*e));
	if (w->estimate) {
		w->estimate(w, p, e);
		return;
	}
	if (w->io && nb_wl_sweep_wanted(p)) {
		/* every step of the list at most, and the data file made first */
		struct nb_sweep sw;
		uint64_t step = nb_wl_step_us(p);

		double steps_s;

		if (nb_wl_sweep_setup(p, 1, &sw, NULL))
			sw.nplan = 0;
		steps_s = (double)sw.nplan * (double)step / 1e6;
		/* no step starts after sweep-time: the last one runs on */
		if (p->sweep_us && steps_s > (double)(p->sweep_us + step) / 1e6)
			steps_s = (double)(p->sweep_us + step) / 1e6;
		e->seconds = steps_s + (double)b / NB_ESTIMATE_RATE;
		e->written = b + (uint64_t)(NB_ESTIMATE_RATE * e->seconds *
			     (w->io->rw == NB_RW_READ ? 0 : w->io->rw == NB_RW_MIX ?
			      (100 - w->io->read_pct) / 100.0 : 1));
		return;
	}
	if (p->steady[0] && w->io) {
		/* in rounds until steady: at most the round limit of them */
		e->seconds = (double)p->steady_rounds * (double)p->round_us / 1e6;
		if (w->io->rw != NB_RW_READ)
			e->written = (uint64_t)(NB_ESTIMATE_RATE * e->seconds);
		return;
	}
	e->seconds = p->runtime_us ? (double)p->runtime_us / 1e6 :
		     (double)b / NB_ESTIMATE_RATE;
	if (!w->io || w->io->rw != NB_RW_READ)
		e->written = p->runtime_us ? (uint64_t)(NB_ESTIMATE_RATE * e->seconds) : b;
}

int nb_suite_item(const char *item, char *name, size_t len, int *iterations)
{
	const char *star = strchr(item, '*');
	size_t n = star ? (size_t)(star - item) : strlen(item);
	char *end;
	long it;

	*iterations = 0;
	if (!n || n >= len)
		return nb_err(-EINVAL, "bad workload item '%s'", item);
	memcpy(name, item, n);
	name[n] = '\0';
	if (!star)
		return 0;
	it = strtol(star + 1, &end, 10);
	if (*end || it < 1 || it > 1000)
		return nb_err(-EINVAL, "workload item '%s': expected NAME*N with N "
			      "from 1 to 1000", item);
	*iterations = (int)it;
	return 0;
}

char *nb_estimate_fmt_secs(double secs, char *buf, size_t len)
{
	uint64_t s = (uint64_t)(secs + 0.5);

	if (s < 120)
		snprintf(buf, len, "~%llus", (unsigned long long)s);
	else if (s < 7200)
		snprintf(buf, len, "~%llum", (unsigned long long)(s + 30) / 60);
	else
		snprintf(buf, len, "~%lluh%02llum", (unsigned long long)s / 3600,
			 (unsigned long long)(s % 3600) / 60);
	return buf;
}
