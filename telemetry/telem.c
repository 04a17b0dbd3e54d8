/* SPDX-License-Identifier: GPL-2.0-or-later */
/* telem.c - the sampler: a thread that reads the box's counters. */
#include "telem.h"
#include "telem_ratio.h"
#include "telem_rt.h"
#include "../core/clock.h"
#include "../core/err.h"
#include "../core/fsutil.h"
#include "../core/spawn.h"
#include "../core/config.h"
#include "../core/knobs.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static _Thread_local char open_warning[640];

int nb_telem_check(const char *m)
{
	struct nb_telem_ssh s;

	if (!m || !strcmp(m, "local"))
		return 0;
	if (strncmp(m, "ssh://", 6))
		return nb_err(-EINVAL, "'%s' is not auto, local, off or "
			      "ssh://[user@]host[:port]", m);
	return nb_telem_ssh_parse(m, &s);
}

static void warnf(struct nb_telem *tm, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warnf(struct nb_telem *tm, const char *fmt, ...)
{
	char text[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (tm)
		nb_telem_warn(tm, text);
	else
		snprintf(open_warning, sizeof(open_warning),
			 "telemetry from '': %s", text);
}

int nb_telem_open(struct nb_telem **out, const struct nb_telem_cfg *cfg)
{
	struct nb_telem *tm;
	int rc;

	*out = NULL;
	open_warning[0] = 0;
	rc = nb_telem_check(cfg->monitor);
	if (rc)
		return rc;
	tm = calloc(1, sizeof(*tm));
	if (!tm)
		return nb_err(-ENOMEM, "out of memory");
	tm->cfg = *cfg;
	tm->interval_ns = (cfg->interval_us ? cfg->interval_us :
			   nb_knob_default("box", "monitor-interval")) * 1000;
	tm->timeout_us = cfg->timeout_us ? cfg->timeout_us : NB_TELEM_TIMEOUT_US;
	pthread_mutex_init(&tm->mu, NULL);
	pthread_condattr_init(&tm->ca);
	pthread_condattr_setclock(&tm->ca, CLOCK_MONOTONIC);
	pthread_cond_init(&tm->cv, &tm->ca);
	if (!cfg->monitor || !strcmp(cfg->monitor, "local")) {
		snprintf(tm->source, sizeof(tm->source), "local");
		tm->os = NB_TELEM_LINUX;
		rc = nb_telem_local_probe(tm);
	} else {
		nb_telem_ssh_parse(cfg->monitor, &tm->ssh);
		snprintf(tm->source, sizeof(tm->source), "%s", cfg->monitor);
		rc = nb_telem_ssh_open(tm);
	}
	if (rc) {
		/* the reason is the open's warning: the run goes on */
		snprintf(open_warning, sizeof(open_warning), "%s", tm->warning);
		nb_telem_close(tm);
		return 0;
	}
	*out = tm;
	return 0;
}

const char *nb_telem_warning(const struct nb_telem *tm)
{
	return tm ? tm->warning : open_warning;
}

const char *nb_telem_source(const struct nb_telem *tm)
{
	return tm ? tm->source : "";
}

/* One snapshot of every counter the source gives, into S. */
static int take(struct nb_telem *tm, struct nb_telem_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu.pct_all = -1;
	s->t_ns = nb_now_ns();
	return tm->ssh.host[0] ? nb_telem_ssh_sample(tm, s) :
				 nb_telem_local_sample(tm, s);
}

int nb_telem_box_ram(struct nb_telem *tm, uint64_t *bytes)
{
	struct nb_telem_snap *s;
	int rc = -ENOENT;

	if (!tm || !tm->ssh.host[0] || tm->running)
		return -ENOENT;
	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	if (!take(tm, s) && s->mem.total) {
		*bytes = s->mem.total;
		rc = 0;
	}
	free(s);
	return rc;
}

/* Wait until DEADLINE (monotonic ns) or a stop; 1 when stopped. */
static int wait_until(struct nb_telem *tm, uint64_t deadline)
{
	struct timespec ts = { (time_t)(deadline / 1000000000ULL),
			       (long)(deadline % 1000000000ULL) };
	int stop;

	pthread_mutex_lock(&tm->mu);
	while (!tm->stop && nb_now_ns() < deadline)
		if (pthread_cond_timedwait(&tm->cv, &tm->mu, &ts) == ETIMEDOUT)
			break;
	stop = tm->stop;
	pthread_mutex_unlock(&tm->mu);
	return stop;
}

static uint64_t cpu_us(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static void *sampler(void *arg)
{
	struct nb_telem *tm = arg;
	struct nb_telem_snap *cur = malloc(sizeof(*cur));
	uint64_t next = tm->t0 + tm->interval_ns;

	if (!cur)
		return NULL;
	nb_telem_vdevs(tm);
	if (take(tm, &tm->first) == 0) {
		tm->prev = tm->first;
		tm->have_first = 1;
	}
	while (tm->have_first && !wait_until(tm, next)) {
		int rc;

		tm->haltable = 1;
		rc = take(tm, cur);
		tm->haltable = 0;

		if (rc) {
			tm->lost = rc != -EINTR;
			break;
		}
		nb_telem_add(tm, cur);
		next += tm->interval_ns;
		/* a slow box (FreeBSD's iostat takes the interval): no catch-up */
		if (next < nb_now_ns())
			next = nb_now_ns() + tm->interval_ns / 10;
	}
	/* a last part-interval, so that a short iteration has a figure: not
	 * cut short by the stop, bounded by a timeout of its own */
	tm->halt = 0;
	tm->final = 1;
	if (tm->have_first && !tm->lost &&
	    (!tm->samples || nb_now_ns() - tm->prev.t_ns > tm->interval_ns / 5) &&
	    !take(tm, cur))
		nb_telem_add(tm, cur);
	free(cur);
	tm->thread_cpu_us = cpu_us(RUSAGE_THREAD);
	return NULL;
}

void nb_telem_set_path(struct nb_telem *tm, const char *path)
{
	if (tm)
		snprintf(tm->path, sizeof(tm->path), "%s", path ? path : "");
}

int nb_telem_start(struct nb_telem *tm)
{
	sigset_t all, old;
	int rc;

	if (!tm || tm->running)
		return 0;
	tm->warning[0] = 0;
	tm->stop = tm->lost = tm->have_first = 0;
	tm->halt = tm->final = 0;
	rc = nb_telem_series_new(tm);
	if (rc)
		return rc;
	tm->t0 = nb_now_ns();
	tm->thread_cpu_us = 0;
	tm->children_us0 = cpu_us(RUSAGE_CHILDREN);
	/* signals stay with the main thread (its SIGINT handler) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&tm->th, NULL, sampler, tm);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return nb_err(-rc, "cannot start the telemetry thread: %s",
			      strerror(rc));
	tm->running = 1;
	return 0;
}

static char *box_out(struct nb_telem *tm, char *const *argv, const char *script);

/* The ratios of the dataset that holds TM->path, into J's "zfs" (nothing
 * when the path is on no dataset, or the box has no zfs).  The error
 * detail of the iteration (its reason, when it failed) is kept. */
static void zfs_ratios_of(struct nb_telem *tm, json_t *j);

/* Run ARGV here or SCRIPT on the box, after (or beside) the sampler: its
 * stop flag and its last sample's short limit are not this call's. */
static char *box_now(struct nb_telem *tm, char *const *argv, const char *script)
{
	char err[256], *out = NULL;

	if (!tm->ssh.host[0])
		return box_out(tm, argv, script);
	if (nb_telem_ssh_exec(tm, script, tm->timeout_us, NULL, &out, err,
			      sizeof(err)))
		free(out), out = NULL;
	nb_err_clear();
	return out;
}

static void zfs_ratios(struct nb_telem *tm, json_t *j)
{
	char *why = nb_err_last()[0] ? strdup(nb_err_last()) : NULL;

	zfs_ratios_of(tm, j);
	if (why)
		nb_err_set("%s", why);
	free(why);
}

static void zfs_ratios_of(struct nb_telem *tm, json_t *j)
{
	char *const list[] = { "zfs", "list", "-H", "-o", "name,mountpoint", NULL };
	struct nb_tr_zfs z = { .compressratio = 0 };
	char script[768], *out;

	if (!tm->path[0])
		return;
	/* the dataset of a path, looked for once: one round trip less an
	 * iteration (a loaded box answers slowly) */
	if (strcmp(tm->zfs_for, tm->path)) {
		out = box_now(tm, list, "zfs list -H -o name,mountpoint 2>/dev/null");
		if (!out)
			return;         /* no answer: asked again next time */
		if (!nb_tr_dataset_of(out, tm->path, tm->zfs_ds, sizeof(tm->zfs_ds)))
			tm->zfs_ds[0] = 0;
		snprintf(tm->zfs_for, sizeof(tm->zfs_for), "%s", tm->path);
		free(out);
	}
	if (!tm->zfs_ds[0])
		return;
	snprintf(z.dataset, sizeof(z.dataset), "%s", tm->zfs_ds);
	snprintf(z.pool, sizeof(z.pool), "%.*s", (int)strcspn(z.dataset, "/"),
		 z.dataset);
	{
		char *const get[] = { "zfs", "get", "-H", "-o", "property,value",
				      "compressratio,compression,dedup", z.dataset,
				      NULL };
		char *const pget[] = { "zpool", "get", "dedupratio", z.pool, NULL };
		char *const sync[] = { "zpool", "sync", z.pool, NULL };


		/* the ratios move as transaction groups reach the disks: an
		 * OpenZFS that has 'zpool sync' ends the open one first (what
		 * it does within seconds anyway); an older ZFS lags one */
		snprintf(script, sizeof(script), "zpool sync '%s' >/dev/null 2>&1; "
			 "zfs get -H -o property,value compressratio,compression,dedup "
			 "'%s' 2>/dev/null; zpool get dedupratio '%s' 2>/dev/null",
			 z.pool, z.dataset, z.pool);
		if (!tm->ssh.host[0])
			free(box_now(tm, sync, NULL));
		out = box_now(tm, get, script);
		if (out)
			nb_tr_parse(out, &z);
		free(out);
		/* here, the two are two programs; over ssh the script ran both */
		out = tm->ssh.host[0] ? NULL : box_now(tm, pget, NULL);
		if (out)
			nb_tr_parse(out, &z);
		free(out);
	}
	if (z.compressratio > 0 || z.dedupratio > 0)
		json_object_set_new(j, "zfs", nb_tr_json(&z));
}

int nb_telem_on_zfs(struct nb_telem *tm)
{
	char *const list[] = { "zfs", "list", "-H", "-o", "name,mountpoint", NULL };
	char ds[256], *out;
	int on;

	if (!tm || !tm->path[0])
		return 0;
	out = box_now(tm, list, "zfs list -H -o name,mountpoint 2>/dev/null");
	on = out && nb_tr_dataset_of(out, tm->path, ds, sizeof(ds));
	free(out);
	return on;
}

json_t *nb_telem_stop(struct nb_telem *tm)
{
	json_t *j;

	if (!tm || !tm->running)
		return NULL;
	pthread_mutex_lock(&tm->mu);
	tm->stop = 1;
	tm->halt = 1;
	pthread_cond_signal(&tm->cv);
	pthread_mutex_unlock(&tm->mu);
	pthread_join(tm->th, NULL);
	tm->running = 0;
	if (tm->ssh.host[0])
		nb_telem_ssh_stream_end(tm);
	if (tm->lost && !tm->warning[0])
		warnf(tm, "the box stopped answering after %.0f s; the "
		      "figures of the iteration are kept",
		      (double)(tm->prev.t_ns - tm->t0) / 1e9);
	j = nb_telem_series_end(tm);
	if (j)
		zfs_ratios(tm, j);
	/* what watching cost this process: the thread, and the programs it
	 * ran (ssh, zpool; with engine = fio, fio's too) */
	if (j)
		json_object_set_new(j, "cost_cpu_ms", json_pack("{s:f, s:f}",
			"thread", (double)tm->thread_cpu_us / 1e3, "children",
			(double)(cpu_us(RUSAGE_CHILDREN) - tm->children_us0) / 1e3));
	return j;
}

void nb_telem_close(struct nb_telem *tm)
{
	char keep[1024];

	if (!tm)
		return;
	/* a close on a failure's way out keeps that failure's detail: the
	 * ssh master's exit (nb_telem_ssh_close) clears what its own spawn
	 * set, and a capture whose inventory timed out said "nasbench: " */
	snprintf(keep, sizeof(keep), "%s", nb_err_last());
	json_decref(nb_telem_stop(tm));
	nb_telem_series_free(tm);
	if (tm->ssh.host[0])
		nb_telem_ssh_close(tm);
	pthread_cond_destroy(&tm->cv);
	pthread_condattr_destroy(&tm->ca);
	pthread_mutex_destroy(&tm->mu);
	free(tm);
	if (keep[0])
		nb_err_set("%s", keep);
}

/* ---- the pools' vdevs, from this machine or the box ---- */

/* Run ARGV here or SCRIPT on the box: its output (free it), or NULL. */
static char *box_out(struct nb_telem *tm, char *const *argv, const char *script)
{
	struct nb_spawn sp = { .argv = argv, .limit_us = tm->timeout_us,
			       .out_max = NB_TELEM_ANSWER_MAX };
	char err[256], *out = NULL;

	if (tm->ssh.host[0]) {
		if (nb_telem_ssh_run(tm, script, &out, err, sizeof(err)))
			free(out), out = NULL;
		return out;
	}
	if (nb_spawn_run(&sp) == 0 && sp.status == 0 && !sp.out_cut) {
		nb_telem_text(sp.out, sp.out_len);
		out = sp.out, sp.out = NULL;
	}
	nb_spawn_free(&sp);
	nb_err_clear();
	return out;
}

/* Keep the vdevs of the pool that holds TM->path (none when it is on no
 * dataset); all of them when the path is not known. */
static void vdevs_of_path(struct nb_telem *tm)
{
	char *const argv[] = { "zfs", "list", "-H", "-o", "name,mountpoint", NULL };
	char *out, pool[NB_TP_NAME];
	int n = 0, on;

	if (!tm->path[0] || !tm->vdevs.n)
		return;
	out = box_out(tm, argv, "zfs list -H -o name,mountpoint 2>/dev/null");
	on = out && nb_tp_zfs_pool_of(out, tm->path, pool, sizeof(pool));
	free(out);
	for (int i = 0; i < tm->vdevs.n; i++)
		if (on && !strcmp(tm->vdevs.v[i].pool, pool))
			tm->vdevs.v[n++] = tm->vdevs.v[i];
	tm->vdevs.n = n;
}

void nb_telem_vdevs(struct nb_telem *tm)
{
	char *const argv[] = { "zpool", "iostat", "-v", NULL };
	char *out = box_out(tm, argv, "zpool iostat -v 2>/dev/null");

	/* no zpool, or no pool: no vdevs, and no slow-disk verdict */
	tm->vdevs.n = 0;
	if (out)
		nb_tp_zpool_iostat(out, &tm->vdevs);
	free(out);
	vdevs_of_path(tm);
}

/* the telemetry's rows: [box] monitor, monitor-interval,
 * monitor-identity, monitor-known-hosts (core/knobs.h). */
/* The monitor's URL: local, auto, off, or an ssh:// URL nasbench can use. */
static int monitor_check(const char *v)
{
	if (!strcmp(v, "auto") || !strcmp(v, "off") || !strcmp(v, "none"))
		return 0;
	return nb_telem_check(v);
}

const struct nb_knob nb_telem_knobs[] = {
	{ .section = "box", .name = "monitor", .type = NB_KT_STR,
	  NB_CFG(monitor.url), .def = "auto", .check = monitor_check,
	  .help = "what the box did during the run (docs/telemetry.md): local "
	  "(this machine is the box), ssh://[user@]host[:port] (OpenSSH, keys "
	  "or an agent only), auto (local for a local path target, else "
	  "none) or off",
	  .opt = "monitor", .metavar = "WHERE", .flags = NB_KF_NOLABEL,
	},
	{ .section = "box", .name = "monitor-interval", .type = NB_KT_DURATION,
	  NB_CFG(monitor.interval_us), .min = 100000, .max = 60000000, .def = "1s",
	  .help = "the box's telemetry: time between samples",
	  .opt = "monitor-interval", .metavar = "TIME", .flags = NB_KF_NOLABEL,
	},
	{ .section = "box", .name = "monitor-identity", .type = NB_KT_STR,
	  NB_CFG(monitor.identity), .unset = "",
	  .help = "ssh monitor: the private key file (else the agent's and "
	  "ssh's own)",
	  .flags = NB_KF_NOLABEL,
	},
	{ .section = "box", .name = "monitor-known-hosts", .type = NB_KT_STR,
	  NB_CFG(monitor.known_hosts), .unset = "",
	  .help = "ssh monitor: the known_hosts file that holds the box's host "
	  "key (else ssh's own)",
	  .flags = NB_KF_NOLABEL,
	},
	{ NULL },
};
