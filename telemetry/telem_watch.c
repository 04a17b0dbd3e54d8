/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_watch.c - the box's pools watched: 'zpool status' and /proc/mdstat
 * read through the telemetry's source (this machine, or the box over the
 * run's SSH connection), once, or every interval on a thread of its own
 * for the length of a failure walk (docs/failure.md).
 */
#include "telem_rt.h"
#include "../core/clock.h"
#include "../core/err.h"
#include "../core/grow.h"
#include "../core/spawn.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Both systems: zpool status (OpenZFS, zfs-fuse, FreeBSD); Linux's md. */
static const char script[] =
	"echo @zpool-status; zpool status 2>/dev/null; "
	"echo; echo @mdstat; cat /proc/mdstat 2>/dev/null; true";

/* The answer's two sections into P. */
static void parse(char *text, struct nb_tp_pools *p)
{
	char *md = strstr(text, "@mdstat\n");

	memset(p, 0, sizeof(*p));
	if (md)
		*md = 0;
	nb_tp_zpool_status(text, p);
	if (md)
		nb_tp_mdstat(md + 8, p);
}

static int read_pools(struct nb_telem *tm, volatile sig_atomic_t *stop,
		      struct nb_tp_pools *p)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL }, err[400] = "";
	struct nb_spawn sp = { .argv = argv, .limit_us = tm->timeout_us,
			       .stop = stop, .stop_sig = SIGTERM,
			       .out_max = NB_TELEM_ANSWER_MAX };
	char *out = NULL;
	int rc;

	if (tm->ssh.host[0]) {
		rc = nb_telem_ssh_exec(tm, script, tm->timeout_us, stop, &out, err,
				       sizeof(err));
	} else {
		rc = nb_spawn_run(&sp);
		if (!rc && (sp.stopped || sp.timed_out || sp.out_cut))
			rc = sp.stopped ? -EINTR : -EIO;
		if (!rc) {
			nb_telem_text(sp.out, sp.out_len);
			out = sp.out, sp.out = NULL;
		} else if (!err[0]) {
			snprintf(err, sizeof(err), "%s", sp.out_cut ? "its answer "
				 "passed the most an answer may hold: not read" :
				 sp.timed_out ? "no answer in time" : nb_err_last());
		}
		nb_spawn_free(&sp);
	}
	if (rc) {
		free(out);
		return nb_err(rc, "telemetry from '%s': cannot read the pools' "
			      "health: %s", tm->source, err);
	}
	parse(out, p);
	free(out);
	return 0;
}

int nb_telem_pools(struct nb_telem *tm, struct nb_tp_pools *p)
{
	return read_pools(tm, NULL, p);
}

/* ---- watching ---- */

/* A reading is kept small (a long rebuild is tens of thousands); the
 * latest one whole. */
typedef struct nb_telem_reading reading_t;

struct nb_telem_watch {
	struct nb_telem *tm;
	char name[NB_TP_NAME];
	pthread_t th;
	pthread_mutex_t mu;
	pthread_condattr_t ca;
	pthread_cond_t cv;
	volatile sig_atomic_t stop;
	int running;
	reading_t *r;            /* every reading, in time order */
	size_t n, cap;
	struct nb_tp_pool last;  /* the latest the box answered, whole */
	uint64_t last_ns;
	struct nb_tp_pools scratch;
};

static void add(struct nb_telem_watch *w, const reading_t *x,
		const struct nb_tp_pool *p)
{
	reading_t *r;

	pthread_mutex_lock(&w->mu);
	r = nb_grow(w->r, &w->cap, (w->n + 1) * sizeof(*r), 64 * sizeof(*r));
	if (r) {
		w->r = r;
		w->r[w->n++] = *x;
	}
	if (p) {
		w->last = *p;
		w->last_ns = x->t_ns;
	}
	pthread_mutex_unlock(&w->mu);
}

void nb_telem_reading_of(struct nb_telem_reading *x, const struct nb_tp_pool *p)
{
	x->ok = 1;
	snprintf(x->state, sizeof(x->state), "%s", p->state);
	x->scan = p->scan;
	x->read = p->read;
	x->write = p->write;
	x->cksum = p->cksum;
}

static void *watcher(void *arg)
{
	struct nb_telem_watch *w = arg;
	reading_t x0, *x = &x0;
	uint64_t next = nb_now_ns();

	while (!w->stop) {
		const struct nb_tp_pool *p = NULL;
		struct timespec ts;

		memset(x, 0, sizeof(*x));
		if (!read_pools(w->tm, &w->stop, &w->scratch) &&
		    (p = nb_tp_pool_find(&w->scratch, w->name)))
			nb_telem_reading_of(x, p);
		/* when the answer came: 'zpool status' waits while a 'zpool
		 * replace' holds the pool (a reading asked for before the
		 * replacement can tell of a resilver already done) */
		x->t_ns = nb_now_ns();
		nb_err_clear();
		if (!w->stop)
			add(w, x, p);
		next += w->tm->interval_ns;
		if (next < nb_now_ns())
			next = nb_now_ns();
		ts.tv_sec = (time_t)(next / 1000000000ULL);
		ts.tv_nsec = (long)(next % 1000000000ULL);
		pthread_mutex_lock(&w->mu);
		while (!w->stop && nb_now_ns() < next)
			if (pthread_cond_timedwait(&w->cv, &w->mu, &ts) == ETIMEDOUT)
				break;
		pthread_mutex_unlock(&w->mu);
	}
	return NULL;
}

int nb_telem_watch_start(struct nb_telem *tm, const char *name,
			 struct nb_telem_watch **out)
{
	struct nb_telem_watch *w = calloc(1, sizeof(*w));
	sigset_t all, old;
	int rc;

	*out = NULL;
	if (!w)
		return nb_err(-ENOMEM, "out of memory");
	w->tm = tm;
	snprintf(w->name, sizeof(w->name), "%s", name);
	pthread_mutex_init(&w->mu, NULL);
	pthread_condattr_init(&w->ca);
	pthread_condattr_setclock(&w->ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cv, &w->ca);
	/* signals stay with the main thread (its SIGINT handler) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&w->th, NULL, watcher, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		nb_telem_watch_stop(w);
		return nb_err(-rc, "cannot start the pool watcher: %s", strerror(rc));
	}
	w->running = 1;
	*out = w;
	return 0;
}

void nb_telem_watch_stop(struct nb_telem_watch *w)
{
	if (!w)
		return;
	if (w->running) {
		pthread_mutex_lock(&w->mu);
		w->stop = 1;
		pthread_cond_signal(&w->cv);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->th, NULL);
	}
	pthread_cond_destroy(&w->cv);
	pthread_condattr_destroy(&w->ca);
	pthread_mutex_destroy(&w->mu);
	free(w->r);
	free(w);
}

uint64_t nb_telem_watch_find(struct nb_telem_watch *w, uint64_t since_ns,
			     int (*fn)(const struct nb_telem_reading *x, void *arg),
			     void *arg, struct nb_telem_reading *out)
{
	uint64_t t = 0;

	pthread_mutex_lock(&w->mu);
	for (size_t i = 0; i < w->n && !t; i++) {
		const reading_t *x = &w->r[i];

		if (x->t_ns < since_ns || !x->ok || (fn && !fn(x, arg)))
			continue;
		t = x->t_ns;
		if (out)
			*out = *x;
	}
	pthread_mutex_unlock(&w->mu);
	return t;
}

uint64_t nb_telem_watch_latest(struct nb_telem_watch *w, struct nb_tp_pool *out)
{
	uint64_t t;

	pthread_mutex_lock(&w->mu);
	t = w->last_ns;
	if (out && t)
		*out = w->last;
	pthread_mutex_unlock(&w->mu);
	return t;
}

static json_t *num(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

json_t *nb_telem_watch_series(struct nb_telem_watch *w, uint64_t t0_ns)
{
	json_t *s = json_pack("{s:[], s:[], s:[], s:[], s:[], s:[], s:[]}", "t_ms",
			      "state", "scan", "active", "pct", "rate_bytes", "eta_s");

	pthread_mutex_lock(&w->mu);
	for (size_t i = 0; i < w->n; i++) {
		const reading_t *x = &w->r[i];

		if (x->t_ns < t0_ns)
			continue;
		json_array_append_new(json_object_get(s, "t_ms"), json_integer(
			(json_int_t)((x->t_ns - t0_ns) / 1000000)));
		json_array_append_new(json_object_get(s, "state"), x->ok ?
				      json_string(x->state) : json_null());
		json_array_append_new(json_object_get(s, "scan"), json_string(
			x->ok ? nb_tp_scan_name(x->scan.kind) : "none"));
		json_array_append_new(json_object_get(s, "active"),
				      json_boolean(x->ok && x->scan.active));
		json_array_append_new(json_object_get(s, "pct"), x->ok ?
				      num(x->scan.pct) : json_null());
		json_array_append_new(json_object_get(s, "rate_bytes"), x->ok ?
				      num(x->scan.rate) : json_null());
		json_array_append_new(json_object_get(s, "eta_s"), x->ok ?
				      num(x->scan.eta_s) : json_null());
	}
	pthread_mutex_unlock(&w->mu);
	return s;
}
