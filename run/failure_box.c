/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * failure_box.c - the box side of the failure walk: its pool read through
 * the telemetry's source, the [box] commands run, the pool's state
 * waited for, the rebuild timed.
 */
#include "failure_int.h"
#include "../core/boxtext.h"
#include "../core/escape.h"
#include "../core/clock.h"
#include "../core/err.h"
#include "../core/knobs.h"
#include "../core/result.h"
#include "../core/spawn.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern char **environ;

static int healthy(const char *state)
{
	return !strcmp(state, "ONLINE");
}

static int rebuilding(const struct nb_tp_scan *s)
{
	return s->active && nb_tp_scan_rebuilds(s->kind);
}

/* The telemetry's monitor the walk reads the box through: the box file's,
 * or on auto this machine when every target is a local path. */
static const char *monitor(const struct nb_config *cfg)
{
	const char *m = cfg->monitor.url;

	if (!strcmp(m, "off") || !strcmp(m, "none"))
		return NULL;
	if (m[0] && strcmp(m, "auto"))
		return m;
	for (int i = 0; i < cfg->ntargets; i++)
		if (strcmp(cfg->targets[i].u.scheme, "file"))
			return NULL;
	return "local";
}

static void pool_names(const struct nb_tp_pools *ps, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < ps->n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s'%s'", i ? ", " : "",
				      ps->p[i].name);
}

/* The pool of the walk, healthy: 0 or -errno set. */
static int pick_pool(struct nb_failure *f, const struct nb_tp_pools *ps)
{
	const struct nb_tp_pool *p = nb_tp_pool_find(ps, f->cfg->pool);
	char names[512];

	pool_names(ps, names, sizeof(names));
	if (!p && !ps->n)
		return nb_err(-EIO, "the box (%s) has no ZFS pool ('zpool status') "
			      "and no md array (/proc/mdstat): nothing to fail; "
			      "nothing was touched", nb_telem_source(f->tm));
	if (!p && !f->cfg->pool[0])
		return nb_err(-EINVAL, "the box has the pools %s: name the one "
			      "whose disk fails with [failure] pool (--fail-pool); "
			      "nothing was touched", names);
	if (!p)
		return nb_err(-EINVAL, "[failure] pool '%s' is not on the box (it "
			      "has %s); nothing was touched", f->cfg->pool, names);
	snprintf(f->pool, sizeof(f->pool), "%s", p->name);
	if (!healthy(p->state) || p->scan.active || p->scan.pending)
		return nb_err(-EIO, "pool '%s' is %s%s%s before the walk: a disk is "
			      "failed only in a healthy pool; nothing was touched",
			      p->name, p->state, p->scan.active ? ", its " : "",
			      p->scan.active ? nb_tp_scan_name(p->scan.kind) : "");
	return 0;
}

int nb_fb_open(struct nb_failure *f)
{
	static struct nb_tp_pools ps;
	const char *m = monitor(f->x->cfg);
	int rc;

	if (!m)
		return nb_err(-EINVAL, "the failure walk reads the pool's health "
			      "from the box: set [box] monitor (ssh://[user@]host, "
			      "or local when this machine is the box; "
			      "docs/telemetry.md); nothing was touched");
	f->tm = nb_run_telem_source(&f->x->telem, m);
	if (!f->tm)
		return nb_err(-EIO, "the failure walk cannot read the box's pools: "
			      "%s; nothing was touched", f->x->telem.warning);
	memset(&ps, 0, sizeof(ps));
	rc = nb_telem_pools(f->tm, &ps);
	if (rc) {
		char why[600];

		snprintf(why, sizeof(why), "%s", nb_err_last());
		return nb_err(-EIO, "the failure walk cannot read the box's pools: "
			      "%s; nothing was touched", why);
	}
	rc = pick_pool(f, &ps);
	if (!rc)
		rc = nb_telem_watch_start(f->tm, f->pool, &f->watch);
	return rc;
}

/* The environment of a command: ours, and what the walk says (the three
 * strings of OWN, freed by the caller). */
static char **command_env(struct nb_failure *f, const char *what, char **own)
{
	size_t n = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 4, sizeof(*env));
	if (!env)
		return NULL;
	memcpy(env, environ, n * sizeof(*env));
	if (asprintf(&own[0], "NASBENCH_FAIL_POOL=%s", f->pool) < 0)
		own[0] = NULL;
	if (asprintf(&own[1], "NASBENCH_FAIL_STEP=%s", what) < 0)
		own[1] = NULL;
	if (asprintf(&own[2], "NASBENCH_RUN_ID=%s", f->x->run_id) < 0)
		own[2] = NULL;
	for (int i = 0; i < 3; i++)
		if (own[i])
			env[n++] = own[i];
	return env;
}

/* The last line of TEXT that is not empty, into BUF: carried as
 * core/boxtext.h makes it (a command on the box prints the box's words,
 * and they go into the result and to the terminal). */
static const char *last_line(const char *text, char *buf, size_t len)
{
	size_t n = strlen(text ? text : "");

	while (n && (text[n - 1] == '\n' || text[n - 1] == ' ' ||
		     text[n - 1] == '\r'))
		n--;
	size_t b = n;

	while (b && text[b - 1] != '\n')
		b--;
	nb_boxtextn(buf, len, n ? text + b : "", n - b);
	return buf;
}

/* The command; its start into *T0 (NULL: not kept). */
static int run_command(struct nb_failure *f, const char *what, const char *cmd,
		       uint64_t *t0)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL }, line[400] = "";
	char *own[3] = { NULL, NULL, NULL };
	char **env = command_env(f, what, own);
	struct nb_spawn sp = { .argv = argv, .envp = env, .err_to_out = 1,
			       .stop = f->x->stop, .limit_us = NB_FAILURE_CMD_US,
			       .grace_us = 10000000 };
	uint64_t t = nb_now_ns();
	int rc;

	if (t0)
		*t0 = t;
	rc = env ? nb_spawn_run(&sp) : nb_err(-ENOMEM, "out of memory");
	double secs = (double)(nb_now_ns() - t) / 1e9;

	free(env);
	for (int i = 0; i < 3; i++)
		free(own[i]);
	if (!rc)
		json_array_append_new(f->events, json_pack(
			"{s:s, s:I, s:s, s:i, s:f, s:o}", "what", what, "t_ms",
			nb_fw_ms(f, t), "command", cmd, "status", sp.status,
			"seconds", secs, "output",
			nb_json_text(last_line(sp.out, line, sizeof(line)))));
	if (!rc && sp.stopped)
		rc = -EINTR;
	else if (!rc && (sp.status || sp.timed_out))
		rc = nb_err(-EIO, "the %s command '%s' %s %d%s%s", what, cmd,
			    sp.timed_out ? "did not end in" : "exited with status",
			    sp.timed_out ? (int)(NB_FAILURE_CMD_US / 1000000) : sp.status,
			    sp.timed_out ? " s" : line[0] ? ": " : "",
			    sp.timed_out ? "" : line);
	else if (rc && rc != -EINTR)
		nb_err_prefix("the %s command", what);
	nb_spawn_free(&sp);
	if (!rc && !nb_quiet)
		fprintf(stderr, "nasbench: failure walk: %s: '%s' (%.1f s)%s%s\n",
			what, cmd, secs, line[0] ? ": " : "", line);
	return rc;
}

int nb_fb_command(struct nb_failure *f, const char *what, const char *cmd)
{
	return run_command(f, what, cmd, &f->cmd_t0);
}

struct cmd_args {
	struct nb_failure *f;
	const char *what, *cmd;
};

static void *cmd_main(void *arg)
{
	struct cmd_args *a = arg;
	struct nb_failure *f = a->f;

	f->cmd_rc = run_command(f, a->what, a->cmd, NULL);
	if (f->cmd_rc)
		snprintf(f->cmd_err, sizeof(f->cmd_err), "%s", nb_err_last());
	__atomic_store_n(&f->cmd_done, 1, __ATOMIC_RELEASE);
	free(a);
	return NULL;
}

int nb_fb_command_async(struct nb_failure *f, const char *what, const char *cmd)
{
	struct cmd_args *a = malloc(sizeof(*a));
	sigset_t all, old;
	int rc;

	if (!a)
		return nb_err(-ENOMEM, "out of memory");
	*a = (struct cmd_args){ f, what, cmd };
	f->cmd_done = 0;
	f->cmd_t0 = nb_now_ns();
	/* signals stay with the main thread (its SIGINT handler) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&f->cmd_th, NULL, cmd_main, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		free(a);
		return nb_err(-rc, "cannot start the %s command: %s", what, strerror(rc));
	}
	f->cmd_async = 1;
	return 0;
}

int nb_fb_join(struct nb_failure *f)
{
	if (!f->cmd_async)
		return 0;
	pthread_join(f->cmd_th, NULL);
	f->cmd_async = 0;
	if (f->cmd_rc && f->cmd_rc != -EINTR)
		return nb_err(f->cmd_rc, "%s", f->cmd_err);
	return f->cmd_rc;
}

/* Sleep a tenth of a second, or less when stopped: 1 when stopped. */
static int nap(struct nb_failure *f)
{
	struct timespec ts = { 0, 100000000 };

	if (*f->x->stop)
		return 1;
	nanosleep(&ts, NULL);
	return *f->x->stop != 0;
}

static int is_degraded(const struct nb_telem_reading *x, void *arg)
{
	(void)arg;
	return !healthy(x->state);
}

/* The leaf devices of P that are not online, into a JSON array. */
static json_t *not_online(const struct nb_tp_pool *p)
{
	json_t *a = json_array();

	for (int i = 0; i < p->ndev; i++)
		if (p->dev[i].leaf && !p->dev[i].special &&
		    strcmp(p->dev[i].state, "ONLINE"))
			json_array_append_new(a, json_pack("{s:o, s:o}", "name",
				nb_json_text(p->dev[i].name), "state",
				nb_json_text(p->dev[i].state)));
	return a;
}

int nb_fb_degraded(struct nb_failure *f)
{
	uint64_t since = nb_now_ns(), t;
	struct nb_tp_pool *p = malloc(sizeof(*p));
	json_t *failed;

	if (!p)
		return nb_err(-ENOMEM, "out of memory");
	while (!(t = nb_telem_watch_find(f->watch, since, is_degraded, NULL, NULL))) {
		if (nap(f)) {
			free(p);
			return -EINTR;
		}
		if ((nb_now_ns() - since) / 1000 > NB_FAILURE_SHOW_US) {
			free(p);
			return nb_err(-EIO, "the fail command returned, but pool '%s' "
				      "still reads ONLINE %llu s later: no disk "
				      "failed", f->pool,
				      (unsigned long long)(NB_FAILURE_SHOW_US / 1000000));
		}
	}
	nb_telem_watch_latest(f->watch, p);
	failed = not_online(p);
	json_array_append_new(f->events, json_pack("{s:s, s:I, s:o, s:O}", "what",
		"degraded", "t_ms", nb_fw_ms(f, t), "pool_state",
		nb_json_text(p->state), "not_online", failed));
	/* the walk's failed disk: the first (rebuild = both fails twice) */
	if (!json_object_get(f->obj, "failed"))
		json_object_set(f->obj, "failed", failed);
	if (!nb_quiet)
		fprintf(stderr, "nasbench: failure walk: pool '%s' %s (%s %s)\n",
			f->pool, p->state, nb_jstr(json_array_get(failed, 0), "name"),
			nb_jstr(json_array_get(failed, 0), "state"));
	if (json_array_size(failed) != 1)
		nb_warn("failure walk: the fail command took %zu devices of pool "
			"'%s' out, not one", json_array_size(failed), f->pool);
	json_decref(failed);
	free(p);
	return 0;
}

static int rebuild_seen(const struct nb_telem_reading *x, void *arg)
{
	(void)arg;
	return rebuilding(&x->scan) || (healthy(x->state) && !x->scan.active &&
					!x->scan.pending);
}

static int is_healed(const struct nb_telem_reading *x, void *arg)
{
	(void)arg;
	return healthy(x->state) && !x->scan.active && !x->scan.pending;
}

static int rebuild_over(const struct nb_telem_reading *x, void *arg)
{
	(void)arg;
	return !x->scan.active && !x->scan.pending;
}

int nb_fb_rebuild(struct nb_failure *f, uint64_t *end_ns)
{
	struct nb_telem_reading x;
	uint64_t now = nb_now_ns(), t;
	uint64_t limit = f->cfg->limit_us ? f->cfg->limit_us :
			 nb_knob_default("failure", "rebuild-limit");

	/* the replace command on its thread failed: no rebuild will come */
	if (f->cmd_async && __atomic_load_n(&f->cmd_done, __ATOMIC_ACQUIRE) &&
	    f->cmd_rc)
		return f->cmd_rc == -EINTR ? -EINTR : nb_err(-EIO, "%s", f->cmd_err);
	if (!f->started) {
		t = nb_telem_watch_find(f->watch, f->rebuild_from, rebuild_seen,
					NULL, &x);
		if (t && healthy(x.state) && !x.scan.active) {
			/* over before the first reading after the command */
			f->started = t;
			*end_ns = t;
			return 1;
		}
		if (t)
			f->started = t;
		else if (f->cmd_async && !__atomic_load_n(&f->cmd_done, __ATOMIC_ACQUIRE))
			return 0;       /* the command still brings it in */
		else if ((now - f->rebuild_from) / 1000 > NB_FAILURE_SHOW_US)
			return nb_err(-EIO, "the replace command returned, but pool "
				      "'%s' shows no rebuild %llu s later", f->pool,
				      (unsigned long long)(NB_FAILURE_SHOW_US / 1000000));
		else
			return 0;
	}
	t = nb_telem_watch_find(f->watch, f->started, rebuild_over, NULL, &x);
	if (t && !healthy(x.state)) {
		/* the scan ended; the pool heals once the old disk is let go of
		 * (zfs-fuse: a reading or two later) */
		uint64_t h = nb_telem_watch_find(f->watch, t, is_healed, NULL, NULL);

		if (h) {
			*end_ns = h;
			return 1;
		}
		if ((now - t) / 1000 > NB_FAILURE_SHOW_US)
			return nb_err(-EIO, "the rebuild of pool '%s' ended, but the "
				      "pool still reads %s %llu s later", f->pool,
				      x.state, (unsigned long long)(NB_FAILURE_SHOW_US /
								    1000000));
		return 0;
	}
	if (t) {
		*end_ns = t;
		return 1;
	}
	if ((now - f->rebuild_from) / 1000 > limit) {
		int active;
		double pct = nb_fb_pct(f, 0, &active);

		return nb_err(-EIO, "the rebuild of pool '%s' did not end within "
			      "%.0f s ([failure] rebuild-limit; at %.1f%%)", f->pool,
			      (double)limit / 1e6, pct);
	}
	return 0;
}

double nb_fb_pct(struct nb_failure *f, uint64_t since_ns, int *active)
{
	struct nb_telem_reading x;
	struct nb_tp_pool *p;
	double pct = -1;

	*active = 0;
	if (since_ns) {
		if (nb_telem_watch_find(f->watch, since_ns, NULL, NULL, &x)) {
			*active = rebuilding(&x.scan);
			pct = *active ? x.scan.pct : -1;
		}
		return pct;
	}
	p = malloc(sizeof(*p));
	if (p && nb_telem_watch_latest(f->watch, p)) {
		*active = rebuilding(&p->scan);
		pct = *active ? p->scan.pct : -1;
	}
	free(p);
	return pct;
}

json_t *nb_fb_rebuild_obj(struct nb_failure *f, uint64_t end_ns, int load)
{
	struct nb_telem_reading x = { 0 };
	json_t *o;

	nb_telem_watch_find(f->watch, end_ns, NULL, NULL, &x);
	o = json_pack("{s:f, s:b, s:s, s:I, s:I}", "seconds",
		      (double)(end_ns - f->rebuild_from) / 1e9, "load", load,
		      "kind", nb_tp_scan_name(x.scan.kind), "start_ms",
		      nb_fw_ms(f, f->rebuild_from), "end_ms", nb_fw_ms(f, end_ns));
	/* what the box says of it (zfs-fuse: whole minutes) */
	if (x.scan.took_s >= 0)
		json_object_set_new(o, "box_seconds", json_real(x.scan.took_s));
	if (x.scan.done_bytes >= 0)
		json_object_set_new(o, "bytes", json_real(x.scan.done_bytes));
	if (x.scan.errors >= 0)
		json_object_set_new(o, "errors", json_real(x.scan.errors));
	json_array_append_new(f->events, json_pack("{s:s, s:I}", "what",
		"rebuilt", "t_ms", nb_fw_ms(f, end_ns)));
	return o;
}

json_t *nb_fb_left(struct nb_failure *f, char *state, size_t len)
{
	struct nb_tp_pool *p = malloc(sizeof(*p));
	json_t *o;

	if (!p || !f->watch || !nb_telem_watch_latest(f->watch, p)) {
		snprintf(state, len, "unknown");
		free(p);
		return json_pack("{s:s}", "state", state);
	}
	snprintf(state, len, "%s", rebuilding(&p->scan) ? "rebuilding" :
		 healthy(p->state) ? "healthy" : "degraded");
	o = json_pack("{s:s, s:o, s:o, s:o}", "state", state, "pool",
		      nb_json_text(p->name), "pool_state", nb_json_text(p->state),
		      "not_online", not_online(p));
	if (rebuilding(&p->scan) && p->scan.pct >= 0)
		json_object_set_new(o, "pct", json_real(p->scan.pct));
	free(p);
	return o;
}

static json_t *count(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

json_t *nb_fb_counters(struct nb_failure *f)
{
	struct nb_tp_pool *p = malloc(sizeof(*p));
	json_t *devs = json_array(), *o;

	if (!p || !nb_telem_watch_latest(f->watch, p)) {
		free(p);
		json_decref(devs);
		return json_null();
	}
	for (int i = 0; i < p->ndev; i++)
		if (p->dev[i].leaf && p->dev[i].read >= 0)
			json_array_append_new(devs, json_pack(
				"{s:o, s:o, s:o, s:o, s:o}", "name",
				nb_json_text(p->dev[i].name), "state",
				nb_json_text(p->dev[i].state), "read", count(p->dev[i].read),
				"write", count(p->dev[i].write), "cksum",
				count(p->dev[i].cksum)));
	o = json_pack("{s:f, s:f, s:f, s:s, s:o}", "read", p->read, "write",
		      p->write, "cksum", p->cksum, "errors", p->errors, "devices", devs);
	free(p);
	return o;
}

void nb_fb_close(struct nb_failure *f)
{
	nb_telem_watch_stop(f->watch);
	f->watch = NULL;
}
