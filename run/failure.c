/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * failure.c - the failure walk (failure.h): the targets kept open while
 * the box goes healthy -> degraded -> rebuilding -> rebuilt, the run's
 * workloads measured in each state, records written before the failure
 * read back after it, the result's "failure" object.
 */
#include "failure_int.h"
#include "../core/escape.h"
#include "../core/clock.h"
#include "../core/err.h"
#include "../core/hook.h"
#include "../core/knobs.h"
#include "../core/result.h"
#include "../core/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the walk's states, named once (core/result.h) */
#define states nb_box_states

const char *nb_state_name(int state)
{
	return state >= 0 && state < NB_STATE_N ? states[state] : "healthy";
}

/* Consent and the commands: 0, or -EINVAL set (nothing touched). */
static int check(struct nb_failure *f)
{
	const struct nb_failure_cfg *c = f->cfg;

	if (!c->fail_cmd[0] || !c->replace_cmd[0])
		return nb_err(-EINVAL, "--rebuild %s walks the box through a failed "
			      "disk: the box file must name the commands, [box] "
			      "fail-disk and replace-disk (docs/failure.md); "
			      "nothing was touched", f->x->pl->p.rebuild);
	if (!c->consent)
		return nb_err(-EINVAL, "failing a disk takes the box's redundancy "
			      "away until the rebuild ends: say --fail-disks to let "
			      "this run run '%s'; nothing was touched", c->fail_cmd);
	return 0;
}

/* ---- the targets ---- */

/* Where target I's records go: a file of their own, or the last bytes
 * of a LUN's window, past the workloads' data.  0 or -EINVAL set. */
static int records_place(struct nb_failure *f, int i)
{
	const struct nb_target *t = &f->t[i];
	struct nb_records *r = &f->rec[i];
	uint64_t need = f->x->pl->p.size;

	r->size = f->records;
	if (!(t->caps & NB_CAP_BLOCK))
		return 0;
	r->offset = t->capacity > r->size ? (t->capacity - r->size) / (128 << 10) *
		    (128 << 10) : 0;
	if (need && need <= r->offset && r->offset + r->size <= t->capacity)
		return 0;
	return nb_err(-EINVAL, "target '%s': the failure walk keeps its records "
		      "in the last %llu MiB of the LUN (%llu MiB): the workloads' "
		      "size must leave them free (--size %llu MiB or less)",
		      t->cfg->name, (unsigned long long)(r->size >> 20),
		      (unsigned long long)(t->capacity >> 20),
		      (unsigned long long)(r->offset >> 20));
}

static int targets_open(struct nb_failure *f)
{
	const struct nb_config *cfg = f->x->cfg;
	int rc = 0;

	f->ntargets = cfg->ntargets;
	f->t = calloc((size_t)f->ntargets, sizeof(*f->t));
	f->tj = calloc((size_t)f->ntargets, sizeof(*f->tj));
	f->open = calloc((size_t)f->ntargets, sizeof(*f->open));
	f->rec = calloc((size_t)f->ntargets, sizeof(*f->rec));
	if (!f->t || !f->tj || !f->open || !f->rec)
		return nb_err(-ENOMEM, "out of memory");
	f->x->extra_space = f->records;
	for (int i = 0; i < f->ntargets && !rc && !*f->x->stop; i++) {
		rc = nb_exec_open(f->x, &cfg->targets[i], &f->t[i], &f->tj[i]);
		if (rc)
			return -ECANCELED;       /* said, the run's status set */
		f->open[i] = 1;
		rc = records_place(f, i);
	}
	return *f->x->stop ? -EINTR : rc;
}

static void targets_close(struct nb_failure *f)
{
	for (int i = 0; i < f->ntargets; i++)
		if (f->open[i])
			nb_exec_close(f->x, &f->t[i], f->tj[i]);
	free(f->t);
	free(f->tj);
	free(f->open);
	free(f->rec);
}

/* ---- measuring ---- */

static void phase_begin(struct nb_failure *f, int state)
{
	f->x->state_idx = state;
	f->phase_t0 = nb_now_ns();
	if (!nb_quiet)
		fprintf(stderr, "nasbench: failure walk: %s\n", states[state]);
}

static void phase_end(struct nb_failure *f)
{
	json_array_append_new(f->phases, json_pack("{s:s, s:I, s:I}", "state",
		states[f->x->state_idx], "start_ms", nb_fw_ms(f, f->phase_t0),
		"end_ms", nb_fw_ms(f, nb_now_ns())));
}

/* A phase of the idle rebuild (nothing measured), from F->phase_t0. */
static void idle_phase(struct nb_failure *f, int state)
{
	json_array_append_new(f->phases, json_pack("{s:s, s:I, s:I, s:b}", "state",
		states[state], "start_ms", nb_fw_ms(f, f->phase_t0), "end_ms",
		nb_fw_ms(f, nb_now_ns()), "idle", 1));
	f->phase_t0 = nb_now_ns();
}

/* Iterations FROM..TO of every workload on target I; a workload that
 * fails leaves the target out of the rest of the walk (the box is
 * taken through its states all the same).  0 or -EINTR. */
static int measure_target(struct nb_failure *f, int i, int from, int to,
			  int (*done)(struct nb_failure *f))
{
	struct nb_exec *x = f->x;

	nb_run_telem_switch(&x->telem, &f->t[i], f->tj[i]);
	for (int w = 0; w < x->pl->nwl; w++) {
		int its = nb_runplan_iters(x->pl, w);
		int rc = nb_exec_workload(x, &f->t[i], w, from, to ? to : its);

		if (rc == -EINTR)
			return rc;
		if (rc) {
			nb_exec_fail(x, rc);
			nb_exec_skip_rest(x, f->t[i].cfg->name, w + 1);
			f->open[i] = 2;          /* open, not measured again */
			return 0;
		}
		if (done && done(f))
			return 0;
	}
	return 0;
}

static int measure(struct nb_failure *f)
{
	for (int i = 0; i < f->ntargets; i++)
		if (f->open[i] == 1 && measure_target(f, i, 1, 0, NULL))
			return -EINTR;
	return 0;
}

static json_t *check_json(const struct nb_records *r)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:b, s:f, s:I}", "checked",
			 (json_int_t)r->blocks, "intact", (json_int_t)r->intact,
			 "corrupt", (json_int_t)r->corrupt, "misplaced",
			 (json_int_t)r->misplaced, "stale", (json_int_t)r->stale,
			 "verified", r->verified, "seconds", r->seconds, "first_bad",
			 (json_int_t)r->first_bad);
}

/* The records of every measured target: written (WRITE), or read back
 * into the result's "records" under the state's name.  0 or -EINTR. */
static int records(struct nb_failure *f, int write)
{
	json_t *all = json_object_get(f->obj, "records");

	for (int i = 0; i < f->ntargets; i++) {
		struct nb_wl_ctx c = { .t = &f->t[i], .p = &f->x->pl->p,
				       .run_id = f->x->run_id, .stop = f->x->stop,
				       .progress = f->x->progress,
				       .phase = states[f->x->state_idx] };
		json_t *o = json_array_get(all, (size_t)i);
		int rc;

		if (f->open[i] != 1 || (!write && !json_is_true(json_object_get(o,
								"written"))))
			continue;
		rc = write ? nb_records_write(&c, &f->rec[i]) :
			     nb_records_check(&c, &f->rec[i]);
		if (rc == -EINTR)
			return rc;
		if (rc) {
			nb_die_msg("%s", nb_err_last());
			json_object_set_new(o, write ? "error" : states[f->x->state_idx],
					    json_pack("{s:o}", "error",
						      nb_json_text(nb_err_last())));
			continue;
		}
		if (write)
			json_object_set_new(o, "written", json_true());
		else
			json_object_set_new(o, states[f->x->state_idx],
					    check_json(&f->rec[i]));
	}
	return 0;
}

static void records_init(struct nb_failure *f)
{
	json_t *all = json_array();

	for (int i = 0; i < f->ntargets; i++)
		json_array_append_new(all, json_pack("{s:s, s:I, s:I, s:b}",
			"target", f->t[i].cfg->name, "bytes", (json_int_t)f->rec[i].size,
			"blocks", (json_int_t)(f->rec[i].size / 4096), "written", 0));
	json_object_set_new(f->obj, "records", all);
}

/* ---- the rebuild ---- */

static int rebuild_done(struct nb_failure *f)
{
	uint64_t end;

	return nb_fb_rebuild(f, &end) != 0;
}

static int rebuild_idle(struct nb_failure *f, uint64_t *end_ns)
{
	int rc;

	while (!(rc = nb_fb_rebuild(f, end_ns))) {
		struct timespec ts = { 0, 100000000 };

		if (*f->x->stop)
			return -EINTR;
		nanosleep(&ts, NULL);
	}
	return rc > 0 ? 0 : rc;
}

/* Round after round of every workload on every target until the rebuild
 * is over: 0 (*END_NS its end), -EINTR, or -EIO set. */
static int rebuild_load(struct nb_failure *f, uint64_t *end_ns)
{
	int rc;

	for (int round = 1;; round++) {
		int measured = 0;

		for (int i = 0; i < f->ntargets; i++) {
			if ((rc = nb_fb_rebuild(f, end_ns)))
				return rc > 0 ? 0 : rc;
			if (f->open[i] != 1)
				continue;
			measured++;
			if (measure_target(f, i, round, round, rebuild_done))
				return -EINTR;
		}
		/* no target left to measure: the rebuild timed idle */
		if (!measured)
			return rebuild_idle(f, end_ns);
	}
}

/* The disk failed, the pool degraded.  0, -EINTR or -EIO set. */
static int fail_disk(struct nb_failure *f)
{
	int rc = nb_fb_command(f, "fail", f->cfg->fail_cmd);

	return rc ? rc : nb_fb_degraded(f);
}

/* The replacement brought in and its rebuild waited for, with the
 * workloads or idle: the rebuild's object as KEY.  Under load the command
 * runs on a thread of its own and the workloads start with it ('zpool
 * replace' of zfs-fuse returns half way through the resilver).  0,
 * -EINTR, -EIO. */
static int replace_disk(struct nb_failure *f, const char *key, int load)
{
	uint64_t end = 0;
	int rc = load ? nb_fb_command_async(f, "replace", f->cfg->replace_cmd) :
		 nb_fb_command(f, "replace", f->cfg->replace_cmd), rj;

	if (rc)
		return rc;
	/* the rebuild runs from the replacement's coming in */
	f->rebuild_from = f->cmd_t0;
	f->started = 0;
	rc = nb_hook("failure:rebuilding", NULL, f->x->stop);
	if (!rc)
		rc = load ? rebuild_load(f, &end) : rebuild_idle(f, &end);
	rj = nb_fb_join(f);
	if (!rc && rj)
		rc = rj;
	if (!rc) {
		json_t *o = nb_fb_rebuild_obj(f, end, load);

		json_object_set_new(f->obj, key, o);
		if (!nb_quiet)
			fprintf(stderr, "nasbench: failure walk: rebuilt in %.1f s "
				"%s\n", json_number_value(json_object_get(o, "seconds")),
				load ? "under the workloads' load" : "idle");
	}
	return rc;
}

/* Was any target measured healthy?  A walk with none (each refused by
 * the data-loss guard, or failing) has nothing to compare a failed disk
 * with, and must not take the box's redundancy away for nothing. */
static int any_measured(const struct nb_failure *f)
{
	for (int i = 0; i < f->ntargets; i++)
		if (f->open[i] == 1)
			return 1;
	return 0;
}

/* The whole walk after the targets are open. */
static int walk(struct nb_failure *f)
{
	const char *mode = f->x->pl->p.rebuild;
	int load = strcmp(mode, "idle") != 0, rc;

	phase_begin(f, NB_STATE_HEALTHY);
	rc = measure(f);
	records_init(f);
	if (!rc)
		rc = records(f, 1);
	phase_end(f);
	if (!rc && !any_measured(f))
		rc = nb_err(-EIO, "failure walk: no target was measured "
			    "healthy: no disk was failed, the box is as it was");
	if (rc || (rc = fail_disk(f)))
		return rc;
	phase_begin(f, NB_STATE_DEGRADED);
	rc = nb_hook("failure:degraded", NULL, f->x->stop);
	if (!rc)
		rc = measure(f);
	if (!rc)
		rc = records(f, 0);
	phase_end(f);
	if (rc)
		return rc;
	phase_begin(f, NB_STATE_REBUILDING);
	rc = replace_disk(f, "rebuild", load);
	phase_end(f);
	if (rc)
		return rc;
	phase_begin(f, NB_STATE_REBUILT);
	rc = measure(f);
	if (!rc)
		rc = records(f, 0);
	json_object_set_new(f->obj, "counters", nb_fb_counters(f));
	phase_end(f);
	if (rc || strcmp(mode, "both"))
		return rc;
	/* again, the rebuild timed with no load: its phases marked idle */
	f->phase_t0 = nb_now_ns();
	rc = fail_disk(f);
	idle_phase(f, NB_STATE_DEGRADED);
	if (!rc)
		rc = replace_disk(f, "rebuild_idle", 0);
	idle_phase(f, NB_STATE_REBUILDING);
	return rc;
}

/* The records that did not read back intact: said, exit 1. */
static void records_verdict(struct nb_failure *f)
{
	json_t *o;
	size_t i;

	json_array_foreach(json_object_get(f->obj, "records"), i, o) {
		json_int_t lost = 0;

		for (int s = NB_STATE_DEGRADED; s < NB_STATE_N; s++) {
			json_t *c = json_object_get(o, states[s]);
			json_int_t n = json_integer_value(json_object_get(c, "corrupt")) +
				json_integer_value(json_object_get(c, "misplaced")) +
				json_integer_value(json_object_get(c, "stale"));

			if (n > lost)
				lost = n;
		}
		json_object_set_new(o, "lost", json_integer(lost));
		if (!lost)
			continue;
		nb_die_msg("failure walk: target '%s': %lld of %lld records written "
			   "before the failure did not read back intact",
			   nb_jstr(o, "target"), (long long)lost, (long long)
			   json_integer_value(json_object_get(o, "blocks")));
		if (f->x->exit_code == NB_EXIT_OK)
			f->x->exit_code = NB_EXIT_FAIL;
	}
}

static void finish(struct nb_failure *f, int rc)
{
	char state[32];
	json_t *left = nb_fb_left(f, state, sizeof(state));

	json_object_set_new(f->obj, "complete", json_boolean(!rc));
	json_object_set_new(f->obj, "box_left", left);
	if (f->watch)
		json_object_set_new(f->obj, "timeline",
				    nb_telem_watch_series(f->watch, f->t0));
	records_verdict(f);
	json_object_set(f->x->doc, "failure", f->obj);
	if (rc == -EINTR || *f->x->stop) {
		nb_die_msg("failure walk interrupted: the box is left %s (pool '%s' "
			   "%s)%s", state, f->pool, nb_jstr(left, "pool_state"),
			   strcmp(state, "degraded") ? "" :
			   ": bring in its replacement ([box] replace-disk)");
		return;
	}
	if (rc && rc != -ECANCELED)
		nb_exec_fail(f->x, rc);
	if (rc && strcmp(state, "healthy") && strcmp(state, "unknown"))
		nb_die_msg("failure walk: the box is left %s (pool '%s' %s)",
			   state, f->pool, nb_jstr(left, "pool_state"));
}

void nb_failure_walk(struct nb_exec *x)
{
	struct nb_failure f = { .x = x, .cfg = &x->cfg->failure };
	int rc;

	f.records = f.cfg->records ? f.cfg->records :
		    nb_knob_default("failure", "records");
	f.records -= f.records % 4096;
	rc = check(&f);
	if (rc) {
		nb_exec_fail(x, rc);
		return;
	}
	f.t0 = nb_now_ns();
	f.obj = json_pack("{s:s, s:s, s:[], s:[]}", "pool", "", "rebuild_mode",
			  x->pl->p.rebuild, "events", "phases");
	f.events = json_object_get(f.obj, "events");
	f.phases = json_object_get(f.obj, "phases");
	x->walk = &f;
	x->walk_iteration = nb_failure_iteration;
	rc = nb_fb_open(&f);
	json_object_set_new(f.obj, "pool", nb_json_text(f.pool));
	if (!rc)
		rc = targets_open(&f);
	if (!rc)
		rc = walk(&f);
	finish(&f, rc);
	if (f.t)
		targets_close(&f);
	nb_fb_close(&f);
	json_decref(f.obj);
	x->walk = NULL;
	x->walk_iteration = NULL;
}

void nb_failure_iteration(struct nb_failure *f, json_t *extra, uint64_t t0_ns)
{
	json_t *s0 = json_object_get(extra, "series_t0_ms");
	uint64_t start = json_is_integer(s0) ?
			 (uint64_t)json_integer_value(s0) * 1000000 : t0_ns;
	int state = f->x->state_idx, a0, a1;
	struct nb_tp_pool *p = malloc(sizeof(*p));

	json_object_set_new(extra, "box_state", json_string(states[state]));
	json_object_set_new(extra, "walk_t_ms", json_integer(nb_fw_ms(f, start)));
	if (p && nb_telem_watch_latest(f->watch, p))
		json_object_set_new(extra, "pool_state", nb_json_text(p->state));
	free(p);
	if (state == NB_STATE_REBUILDING) {
		double p0 = nb_fb_pct(f, t0_ns, &a0), p1 = nb_fb_pct(f, 0, &a1);

		json_object_set_new(extra, "rebuild", json_pack(
			"{s:o, s:o, s:b}", "pct_start", p0 < 0 ? json_null() :
			json_real(p0), "pct_end", p1 < 0 ? json_null() : json_real(p1),
			"ended", f->started && !a1));
	}
}

/* the failure walk's rows: [box] fail-disk, replace-disk, [failure] (core/knobs.h). */
const struct nb_knob nb_failure_knobs[] = {
	{ .section = "box", .name = "fail-disk", .type = NB_KT_STR,
	  NB_CFG(failure.fail_cmd), .unset = "",
	  .help = "failure walk: the command that fails one disk of the pool "
	  "(sh -c; 'ci/lab fail-disk 2', a slot's power-off); runs only with "
	  "run --fail-disks (docs/failure.md)",
	  .flags = NB_KF_NOLABEL,
	},
	{ .section = "box", .name = "replace-disk", .type = NB_KT_STR,
	  NB_CFG(failure.replace_cmd), .unset = "",
	  .help = "failure walk: the command that brings in the failed disk's "
	  "replacement and so starts the rebuild (sh -c; 'ci/lab replace-disk "
	  "2', 'zpool replace tank da3 da7')",
	  .flags = NB_KF_NOLABEL,
	},
	{ NB_SECTION("failure") },
	{ .section = "failure", .name = "rebuild", .type = NB_KT_STR,
	  NB_PRM(rebuild), .unset = "", .choices = "load|idle|both",
	  .help = "walk the box through a failed disk: healthy, degraded, "
	  "rebuilding, rebuilt, the workloads measured in each; the rebuild "
	  "under the workloads' load, idle (timed, no rebuilding figures), or "
	  "both (the disk failed again and the rebuild timed idle); needs "
	  "--fail-disks",
	  .opt = "rebuild", .metavar = "WHEN",
	},
	{ .section = "failure", .name = "fail-disks", .type = NB_KT_BOOL,
	  NB_CFG(failure.consent), .def = "no",
	  .help = "consent: the run may fail a disk of the box with [box] "
	  "fail-disk (its redundancy is gone until the rebuild ends)",
	  .opt = "fail-disks", .flags = NB_KF_NOARG | NB_KF_CMDLINE,
	},
	{ .section = "failure", .name = "pool", .type = NB_KT_STR,
	  NB_CFG(failure.pool), .unset = "the box's only one",
	  .help = "the pool or md array whose disk fails",
	  .opt = "fail-pool", .metavar = "NAME",
	},
	{ .section = "failure", .name = "rebuild-limit", .type = NB_KT_DURATION,
	  NB_CFG(failure.limit_us), .min = 1000000, .def = "24h",
	  .help = "give up waiting for a rebuild after this long (the box is "
	  "left rebuilding, exit 3)",
	  .opt = "rebuild-limit", .metavar = "TIME",
	},
	{ .section = "failure", .name = "records", .type = NB_KT_SIZE,
	  NB_CFG(failure.records), .min = 4096, .def = "64M",
	  .help = "checked records written to each target before the disk "
	  "fails, read back degraded and after the rebuild",
	  .opt = "records", .metavar = "SIZE",
	},
	{ NULL },
};
