/* SPDX-License-Identifier: GPL-2.0-or-later */
/* telem.c - the box's telemetry of a run, into its result. */
#include "telem.h"
#include "../core/clock.h"
#include "../core/err.h"
#include "../core/result.h"
#include "../telemetry/telem.h"
#include "../telemetry/telem_verdict.h"
#include "../workloads/data.h"
#include "netbase.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

void nb_run_telem_init(struct nb_run_telem *rt, const struct nb_config *cfg)
{
	memset(rt, 0, sizeof(*rt));
	rt->cfg = cfg;
}

static const char *monitor_of(const struct nb_run_telem *rt,
			      const struct nb_target *t)
{
	const char *m = rt->cfg->monitor.url;

	if (!strcmp(m, "off") || !strcmp(m, "none"))
		return NULL;
	if (!m[0] || !strcmp(m, "auto"))
		return t->ops && !strcmp(t->ops->name, "posix") ? "local" : NULL;
	return m;
}

/* The run's one source, opened the first time a target needs it. */
static void open_source(struct nb_run_telem *rt, const char *monitor)
{
	const struct nb_monitor_cfg *m = &rt->cfg->monitor;
	struct nb_telem_cfg c = {
		.monitor = monitor, .interval_us = m->interval_us,
		.identity = m->identity[0] ? m->identity : NULL,
		.known_hosts = m->known_hosts[0] ? m->known_hosts : NULL,
	};

	if (rt->tried)
		return;
	rt->tried = 1;
	if (nb_telem_open(&rt->tm, &c)) {
		snprintf(rt->warning, sizeof(rt->warning), "telemetry: %s",
			 nb_err_last());
		nb_err_clear();
	} else if (!rt->tm) {
		snprintf(rt->warning, sizeof(rt->warning), "%s",
			 nb_telem_warning(NULL));
	}
	if (rt->warning[0])
		nb_warn("%s", rt->warning);
}

static int netbase_wanted(const struct nb_run_telem *rt, const struct nb_target *t)
{
	int nb = rt->cfg->monitor.netbase;
	const char *m = rt->cfg->monitor.url;

	if (!t->ops || !t->ops->ping || nb == NB_NETBASE_NO)
		return 0;
	return nb == NB_NETBASE_YES ||
	       (m[0] && strcmp(m, "auto") && strcmp(m, "off") && strcmp(m, "none"));
}

void nb_run_telem_target(struct nb_run_telem *rt, struct nb_target *t,
			 const struct nb_params *p, json_t *tj,
			 const char *run_id, volatile sig_atomic_t *stop,
			 struct nb_progress *progress)
{
	const char *monitor = monitor_of(rt, t);
	struct nb_netbase_cfg nc = { .run_id = run_id, .stop = stop,
				     .progress = progress };
	json_t *net = NULL;

	rt->on = monitor != NULL;
	rt->ceiling = 0;
	rt->local = t->ops && !strcmp(t->ops->name, "posix");
	if (monitor)
		open_source(rt, monitor);
	/* which pool holds the target's data: its path on the box (a local
	 * path, an NFS export's); a LUN's is not known */
	nb_telem_set_path(rt->tm, t->ops && !strcmp(t->ops->name, "iscsi") ?
			  NULL : t->cfg->u.path);
	if (!netbase_wanted(rt, t))
		return;
	if (nb_netbase_run(t, p, &nc, &net)) {
		nb_warn("target '%s': no network baseline: %s", t->cfg->name,
			nb_err_last());
		nb_err_clear();
		return;
	}
	rt->ceiling = json_number_value(json_object_get(net, "ceiling_bytes"));
	json_object_set_new(tj, "network", net);
}

uint64_t nb_run_telem_box_ram(struct nb_run_telem *rt, struct nb_target *t)
{
	const char *monitor = monitor_of(rt, t);
	uint64_t ram = 0;

	if (!monitor || strncmp(monitor, "ssh://", 6))
		return 0;
	open_source(rt, monitor);
	return nb_telem_box_ram(rt->tm, &ram) ? 0 : ram;
}

/* This process's user and kernel CPU so far, seconds. */
static void self_cpu(double *user, double *sys)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru)) {
		*user = *sys = -1;
		return;
	}
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

struct nb_telem *nb_run_telem_source(struct nb_run_telem *rt, const char *monitor)
{
	open_source(rt, monitor);
	return rt->tm;
}

void nb_run_telem_switch(struct nb_run_telem *rt, const struct nb_target *t,
			 const json_t *tj)
{
	rt->on = monitor_of(rt, t) != NULL;
	rt->ceiling = json_number_value(json_object_get(json_object_get(tj,
		"network"), "ceiling_bytes"));
	nb_telem_set_path(rt->tm, t->ops && !strcmp(t->ops->name, "iscsi") ?
			  NULL : t->cfg->u.path);
}

void nb_run_telem_begin(struct nb_run_telem *rt)
{
	self_cpu(&rt->cpu0_user, &rt->cpu0_sys);
	rt->t0 = (double)nb_now_ns() / 1e9;
	if (rt->on && rt->tm && nb_telem_start(rt->tm)) {
		nb_warn("%s", nb_err_last());
		nb_err_clear();
	}
}

/* Where the I/O's per-second series began, from the iteration's start. */
static void align(json_t *tel, json_t *extra)
{
	json_t *s = json_object_get(extra, "series_t0_ms");
	json_t *t0 = json_object_get(tel, "t0_ms");

	if (json_is_integer(s) && json_is_integer(t0))
		json_object_set_new(tel, "io_offset_ms", json_integer(
			json_integer_value(s) - json_integer_value(t0)));
	json_object_del(tel, "t0_ms");
}

/* Whether the run's random I/Os fall on a hot spot: a box that answers
 * them from its ARC does what it is for (docs/data.md). */
static int hot(const struct nb_run_telem *rt)
{
	const char *d = rt->cfg ? rt->cfg->suite.p.distribution : "";

	return d[0] && strcmp(d, "uniform") && strcmp(d, "random");
}

static void verdicts(const struct nb_run_telem *rt, const struct nb_workload *w,
		     int iteration, json_t *tel, json_t *metrics, json_t *entry,
		     const json_t *extra)
{
	double ratio[NB_Z_N];
	struct nb_tv_ctx c = {
		.workload = w->name, .iteration = iteration,
		.uncached_read = w->io && w->io->rw == NB_RW_READ && !hot(rt),
		.figure_bytes = json_number_value(json_object_get(metrics, "bw_bytes")),
		.ceiling_bytes = rt->ceiling, .local = rt->local,
		.self_user_pct = -1, .self_sys_pct = -1,
	};
	double u, k, wall = (double)nb_now_ns() / 1e9 - rt->t0;

	/* what the data written gives, for the box's ratios */
	for (int a = 0; a < NB_Z_N; a++)
		ratio[a] = nb_wl_data_ratio(extra, a);
	if (ratio[NB_Z_GZIP] > 0)
		c.data_ratio = ratio;
	c.data_dedupe = json_number_value(json_object_get(metrics,
							  "data_dedupe_ratio"));

	/* nasbench's share: its threads' CPU over the iteration's time
	 * (the telemetry's own sampler thread is in it, a few ms) */
	self_cpu(&u, &k);
	if (u >= 0 && rt->cpu0_user >= 0 && wall > 0) {
		c.self_user_pct = 100 * (u - rt->cpu0_user) / wall;
		c.self_sys_pct = 100 * (k - rt->cpu0_sys) / wall;
	}

	/* what the client read: its throughput over the I/O's time */
	c.read_bytes = c.uncached_read ? c.figure_bytes *
		       json_number_value(json_object_get(metrics, "seconds")) : 0;
	json_t *v = nb_tv_judge(tel, &c, metrics), *all, *x;
	size_t i;

	if (!json_array_size(v)) {
		json_decref(v);
		return;
	}
	all = json_object_get(entry, "box_verdicts");
	if (!all) {
		all = json_array();
		json_object_set_new(entry, "box_verdicts", all);
	}
	json_array_foreach(v, i, x) {
		nb_result_warn(entry, json_string_value(json_object_get(x, "text")));
		json_array_append(all, x);
	}
	if (tel)
		json_object_set(tel, "verdicts", v);
	json_decref(v);
}

void nb_run_telem_end(struct nb_run_telem *rt, const struct nb_workload *w,
		      int iteration, json_t *metrics, json_t *extra,
		      json_t *entry)
{
	json_t *tel = NULL;

	if (rt->on && rt->warning[0])
		nb_result_warn(entry, rt->warning);
	if (rt->on && rt->tm) {
		tel = nb_telem_stop(rt->tm);
		if (nb_telem_warning(rt->tm)[0])
			nb_result_warn(entry, nb_telem_warning(rt->tm));
	}
	if (tel)
		align(tel, extra);
	verdicts(rt, w, iteration, tel, metrics, entry, extra);
	json_object_del(extra, "series_t0_ms");
	if (tel)
		json_object_set_new(extra, "telemetry", tel);
}

void nb_run_telem_close(struct nb_run_telem *rt)
{
	nb_telem_close(rt->tm);
	rt->tm = NULL;
}
