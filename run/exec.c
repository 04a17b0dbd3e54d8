/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exec.c - targets x workloads x iterations into the result document. */
#include "exec.h"
#include "net.h"
#include "../workloads/crash/crashrun.h"
#include "../core/escape.h"
#include "../core/clock.h"
#include "../core/datagen.h"
#include "../core/err.h"
#include "../core/hook.h"
#include "../core/result.h"
#include "../core/samples.h"
#include "../core/units.h"
#include "../runners/runner.h"
#include "../workloads/io/io_sweep.h"

#include <errno.h>
#include <string.h>

static void fail(struct nb_exec *x, int rc)
{
	int code = rc == -EINVAL ? NB_EXIT_USAGE : NB_EXIT_TARGET;

	nb_die_msg("%s", nb_err_last());
	if (code > x->exit_code || x->exit_code == NB_EXIT_OK)
		x->exit_code = code;
}

static int space_check(struct nb_exec *x, struct nb_target *t)
{
	uint64_t need = nb_runplan_space(x->pl) + x->extra_space, avail;
	char a[32], b[32];

	if (t->ops->space(t, &avail))
		return -EIO;
	if (need <= avail)
		return 0;
	/* I/O workloads use all of a LUN smaller than their default size */
	if ((t->caps & NB_CAP_BLOCK) && !x->pl->p.size)
		return 0;
	if (t->caps & NB_CAP_BLOCK)
		return nb_err(-ENOSPC, "target '%s' has %s (the LUN, device or its "
			      "window), fewer than the size %s asked for: lower "
			      "--size", t->cfg->name, nb_fmt_size(avail, a, sizeof(a)),
			      nb_fmt_size(need, b, sizeof(b)));
	return nb_err(-ENOSPC, "target '%s' has %s free, but the workloads need "
		      "%s: lower the size (--size)", t->cfg->name,
		      nb_fmt_size(avail, a, sizeof(a)), nb_fmt_size(need, b, sizeof(b)));
}

/* The samples rule (core/samples.h) on ENTRY's last iteration, when its
 * I/Os were timed: an iteration that cannot carry a mean leaves the
 * entry unmeasured, its figures shown, never judged (exit 5). */
static void samples_check(json_t *entry)
{
	const json_t *its = json_object_get(entry, "iterations");
	size_t n = json_array_size(its);
	json_t *it = json_array_get(its, n - 1);
	const json_t *timed = json_object_get(it, "timed"), *offered;
	uint64_t t;
	char why[512];

	if (!n || !json_is_integer(timed) || json_integer_value(timed) < 0)
		return;
	t = (uint64_t)json_integer_value(timed);
	offered = json_object_get(json_object_get(it, "open"), "arrivals");
	if (!nb_samples_mark(it, t, json_is_integer(offered) ?
			     (uint64_t)json_integer_value(offered) : 0) ||
	    !strcmp(nb_jstr(entry, "status"), "unmeasured"))
		return;
	nb_samples_why(why, sizeof(why), (int)n, t);
	strncat(why, ": its figures are shown, not measured (run longer: "
		"--runtime, --step-time)", sizeof(why) - strlen(why) - 1);
	nb_result_set_status(entry, "unmeasured", why);
}

/* A crash check none of whose crashes was observed, and that lost
 * nothing, proves nothing about what a crash loses: unmeasured, not ok
 * (a loss, observed or not, is a finding: it stays). */
static void proof_check(json_t *entry)
{
	const json_t *v = json_object_get(entry, "crash_verdict");
	char why[800];

	if (!v || !json_integer_value(json_object_get(v, "unproven")) ||
	    json_integer_value(json_object_get(v, "lost")) ||
	    strcmp(nb_jstr(entry, "status"), "ok"))
		return;
	snprintf(why, sizeof(why), "%s: nothing is proven about what a crash "
		 "loses", nb_jstr(v, "summary"));
	nb_result_set_status(entry, "unmeasured", why);
}

/* One iteration; its figures join ENTRY when it finished (or when a
 * workload kept the figures of a partly failed one: fio clients). */
static int run_iteration(struct nb_exec *x, struct nb_target *t,
			 const struct nb_workload *w, int widx, int it,
			 json_t *entry)
{
	struct nb_wl_ctx c = {
		.t = t, .wl = w, .p = &x->pl->p, .run_id = x->run_id,
		/* each box state its own offsets: no state re-reads what
		 * the one before pulled into the box's cache */
		.seed = nb_fnv1a(x->run_id, strlen(x->run_id), 0) +
			(uint64_t)widx * 1000003 + (uint64_t)it +
			(uint64_t)x->state_idx * 7919 * 1000003,
		.iteration = it, .iterations = x->state_idx == NB_STATE_REBUILDING ?
			it : nb_runplan_iters(x->pl, widx),
		.stop = x->stop, .progress = x->progress,
		.metrics = json_object(), .extra = json_object(),
		.entry = entry, .labels = json_object_get(x->doc, "labels"),
		.phase = x->walk ? nb_box_states[x->state_idx] : NULL,
		.crash = x->crash,
		.box = x->telem.on ? x->telem.tm : NULL,
	};
	uint64_t cached = t->cached_opens, t0 = nb_now_ns();
	char point[96];
	json_t *spec;
	int rc;

	nb_err_clear();
	nb_run_telem_begin(&x->telem);
	/* a test build may stop here: "start:rand4k-read:1" (telemetry runs) */
	snprintf(point, sizeof(point), "start:%s:%d", w->name, it);
	rc = nb_hook(point, NULL, x->stop);
	if (!rc)
		rc = w->run(&c);
	if (x->walk)
		x->walk_iteration(x->walk, c.extra, t0);
	nb_run_telem_end(&x->telem, w, it, c.metrics, c.extra, entry);
	nb_run_net_iteration(x, t, c.extra, entry);
	if (c.spec)
		json_object_set_new(entry, "spec", c.spec);
	spec = json_object_get(entry, "spec");
	if (t->cached_opens > cached &&
	    !json_is_true(json_object_get(spec, "direct_refused"))) {
		/* the run asked for O_DIRECT and did not get it: say so where
		 * the figures are, not only once on stderr */
		if (spec) {
			json_object_set_new(spec, "direct", json_false());
			json_object_set_new(spec, "direct_refused", json_true());
		}
		nb_wl_warn(&c, "O_DIRECT was refused on target '%s': I/O went "
			   "through this client's page cache, so reads may have "
			   "come from its RAM (the cache was dropped after writing, "
			   "as far as the kernel allows)", t->cfg->name);
	}
	if (!rc || json_is_true(json_object_get(c.extra, "partial"))) {
		nb_result_iteration(entry, c.metrics, c.extra);
		samples_check(entry);
	} else {
		json_decref(c.metrics);
		json_decref(c.extra);
	}
	return rc;
}

/*
 * An I/O workload's data set under twice the box's RAM fits in its cache
 * (ZFS's ARC takes most of it): reads then measure RAM at line rate and
 * writes the write-back, not the disks.  Say so in the result.
 */
static void cache_check(struct nb_exec *x, const struct nb_workload *w,
			json_t *entry)
{
	const struct nb_params *p = &x->pl->p;
	uint64_t bytes = w->plan_bytes ? w->plan_bytes(w, p) : 0;
	char a[32], b[32], m[400];

	if (!w->io || !p->ram || !bytes || bytes >= NB_RAM_FACTOR * p->ram)
		return;
	snprintf(m, sizeof(m), "data set %s is less than twice the box's RAM "
		 "(%s): it can sit in the box's cache, so the figures may "
		 "measure RAM, not the disks; use --size auto (twice the RAM) "
		 "for disk figures", nb_fmt_size(bytes, a, sizeof(a)),
		 nb_fmt_size(p->ram, b, sizeof(b)));
	nb_result_warn(entry, m);
}

/* --trim and --precondition before workload WIDX (workloads/io/ssd.c): TRIM
 * before the first workload that runs on a target or before each, then
 * preconditioning when the target was not preconditioned since. */
static int ssd_care(struct nb_exec *x, struct nb_target *t, int widx,
		    json_t *entry)
{
	const struct nb_params *p = &x->pl->p;
	struct nb_wl_ctx c = {
		.t = t, .wl = x->pl->wl[widx], .p = p, .run_id = x->run_id,
		.seed = nb_fnv1a(x->run_id, strlen(x->run_id), 0) ^ 0x7072,
		.stop = x->stop, .progress = x->progress, .entry = entry,
	};
	int rc = 0;

	if (p->trim == NB_TRIM_EACH || (p->trim == NB_TRIM_BEFORE && !x->trimmed)) {
		rc = nb_wl_trim(&c, p->trim == NB_TRIM_EACH ? "each" : "before");
		x->trimmed = 1;
		x->conditioned = 0;
	}
	if (!rc && p->precondition > 0 && !x->conditioned) {
		rc = nb_wl_precondition(&c);
		x->conditioned = 1;
	}
	return rc;
}

/* The entry of workload W on target T in the current box state: found,
 * or new with its first checks (skipped, cache, --trim/--precondition);
 * *FRESH set when new.  NULL when the workload is skipped there. */
static json_t *entry_of(struct nb_exec *x, struct nb_target *t, int widx,
			int *fresh, int *rc)
{
	const struct nb_workload *w = x->pl->wl[widx];
	const char *state = x->walk ? nb_box_states[x->state_idx] : NULL;
	json_t *entry = state ? nb_result_find_state(x->doc, t->cfg->name,
						     w->name, state) : NULL;
	char why[256];
	const char *skip;

	*fresh = !entry;
	if (entry)
		return strcmp(nb_jstr(entry, "status"), "skipped") ? entry : NULL;
	entry = nb_result_add(x->doc, t->cfg->name, w->name);
	if (state)
		json_object_set_new(entry, "state", json_string(state));
	skip = nb_workload_unsupported(w, t, why, sizeof(why));
	if (skip) {
		nb_result_set_status(entry, "skipped", skip);
		return NULL;
	}
	cache_check(x, w, entry);
	/* the walk's later states run on what the first prepared */
	if (x->state_idx <= NB_STATE_HEALTHY)
		*rc = ssd_care(x, t, widx, entry);
	return entry;
}

int nb_exec_workload(struct nb_exec *x, struct nb_target *t, int widx,
		     int from, int to)
{
	const struct nb_workload *w = x->pl->wl[widx];
	char why[512];
	int rc = 0, said = 0, fresh, missed;
	json_t *entry = entry_of(x, t, widx, &fresh, &rc);

	if (!entry)
		return 0;
	for (int it = from; it <= to && !rc; it++) {
		rc = run_iteration(x, t, w, widx, it, entry);
		missed = rc || said ? 0 : nb_wl_sweep_missed(entry, why, sizeof(why));
		/* a sweep no step of which met the objective fails the run
		 * (exit 1), its curve kept (docs/capacity.md); one too thin
		 * to say is unmeasured (exit 5) */
		if (missed == 2) {
			nb_result_set_status(entry, "unmeasured", why);
		} else if (missed) {
			said = 1;
			nb_die_msg("target '%s': %s: %s", t->cfg->name, w->name, why);
			if (x->exit_code == NB_EXIT_OK)
				x->exit_code = NB_EXIT_FAIL;
		}
	}
	if (rc == -EINTR || (rc == 0 && *x->stop))
		nb_result_set_status(entry, "interrupted",
				     "stopped by a signal; finished iterations kept");
	else if (rc)
		nb_result_set_status(entry, "failed", nb_err_last());
	else
		proof_check(entry);
	return *x->stop ? -EINTR : rc;
}

/* Every iteration of one workload; returns 0, -EINTR, or -errno. */
static int run_workload(struct nb_exec *x, struct nb_target *t, int widx)
{
	return nb_exec_workload(x, t, widx, 1, nb_runplan_iters(x->pl, widx));
}

/* The target's entry in "targets": name, URL, runner and what it can do. */
static json_t *target_json(struct nb_exec *x, const struct nb_target *t,
			   const struct nb_target_cfg *tc)
{
	json_t *tj = json_pack("{s:s, s:s}", "name", tc->name, "url", t->desc);

	if (t->ops) {
		json_t *caps = json_array();

		for (int i = 0; nb_cap_name(t->ops->caps, i); i++)
			json_array_append_new(caps,
					      json_string(nb_cap_name(t->ops->caps, i)));
		json_object_set_new(tj, "runner", json_string(t->ops->name));
		json_object_set_new(tj, "runner_caps", caps);
	}
	json_array_append_new(json_object_get(x->doc, "targets"), tj);
	return tj;
}

int nb_exec_open(struct nb_exec *x, const struct nb_target_cfg *tc,
		 struct nb_target *t, json_t **tjp)
{
	int rc = nb_target_open(t, tc);
	json_t *tj = target_json(x, t, tc);

	*tjp = tj;
	/* a capacity's data set is twice the box's RAM: the box says it
	 * over an ssh:// monitor when the box file does not */
	if (!rc && !x->pl->p.ram) {
		x->pl->p.ram = nb_run_telem_box_ram(&x->telem, t);
		if (x->pl->p.ram)
			json_object_set_new(tj, "box_ram_bytes",
					    json_integer((json_int_t)x->pl->p.ram));
	}
	if (!rc && !x->no_space_check)
		rc = space_check(x, t);
	x->trimmed = x->conditioned = 0;
	if (!rc && t->span_of)
		json_object_set_new(tj, "span", json_pack(
			"{s:I, s:I, s:f}", "bytes", (json_int_t)t->capacity, "of",
			(json_int_t)t->span_of, "pct", tc->span.pct ? tc->span.pct :
			100.0 * (double)t->capacity / (double)t->span_of));
	if (!rc)
		nb_run_telem_target(&x->telem, t, &x->pl->p, tj, x->run_id,
				    x->stop, x->progress);
	if (!rc)
		nb_run_net_open(x, t, tj);
	if (rc) {
		json_object_set_new(tj, "error", nb_json_text(nb_err_last()));
		fail(x, rc);
		nb_target_close(t);
	}
	return rc;
}

void nb_exec_close(struct nb_exec *x, struct nb_target *t, json_t *tj)
{
	nb_run_net_close(x, t, tj);
	nb_target_close(t);
	if (t->leftover[0])
		json_object_set_new(tj, "leftover", nb_json_text(t->leftover));
}

void nb_exec_fail(struct nb_exec *x, int rc)
{
	fail(x, rc);
}

void nb_exec_skip_rest(struct nb_exec *x, const char *target, int from)
{
	/* a lost or failing target would fail the rest slowly */
	for (int w = from; w < x->pl->nwl; w++) {
		json_t *e = nb_result_add(x->doc, target, x->pl->wl[w]->name);

		if (x->walk)
			json_object_set_new(e, "state", json_string(
				nb_box_states[x->state_idx]));
		nb_result_set_status(e, "skipped", "an earlier workload on this "
				     "target failed");
	}
}

void nb_exec_target(struct nb_exec *x, const struct nb_target_cfg *tc)
{
	struct nb_target t;
	json_t *tj;
	int rc;

	if (nb_exec_open(x, tc, &t, &tj))
		return;
	for (int w = 0; w < x->pl->nwl && !*x->stop; w++) {
		rc = run_workload(x, &t, w);
		if (rc == -EINTR)
			break;
		if (rc) {
			fail(x, rc);
			nb_exec_skip_rest(x, tc->name, w + 1);
			break;
		}
	}
	nb_exec_close(x, &t, tj);
}

/*
 * A workload refused on a target's runner (workloads/refusal.c) is a usage
 * error: said for every such pair before any target is opened, and then
 * nothing runs.  Non-zero when there was one.
 */
int nb_exec_refused(struct nb_exec *x)
{
	char why[1024];
	int n = 0;

	for (int i = 0; i < x->cfg->ntargets; i++) {
		const struct nb_target_cfg *tc = &x->cfg->targets[i];
		const struct nb_runner_ops *ops = tc->ops ? tc->ops :
						  nb_runner_find(tc->u.scheme);

		for (int w = 0; ops && w < x->pl->nwl; w++) {
			if (!nb_workload_refused(x->pl->wl[w], ops->name, why,
						 sizeof(why)))
				continue;
			nb_die_msg("target '%s': %s", tc->name, why);
			n++;
		}
	}
	if (n)
		x->exit_code = NB_EXIT_USAGE;
	return n;
}

json_t *nb_exec_doc_new(const struct nb_config *cfg, const char *run_id,
			const char *command)
{
	json_t *doc = nb_result_new(run_id, command);
	json_t *labels = json_object_get(doc, "labels");

	for (int i = 0; i < cfg->nlabels; i++)
		json_object_set_new(labels, cfg->labels[i].key,
				    json_string(cfg->labels[i].value));
	return doc;
}

void nb_exec_unmeasured(struct nb_exec *x)
{
	int n = nb_result_count_status(x->doc, "unmeasured");

	/* a figure without what carries it is no success (core/samples.h) */
	if (!n || x->exit_code != NB_EXIT_OK)
		return;
	x->exit_code = NB_EXIT_INCONCLUSIVE;
	nb_die_msg("%d result%s unmeasured: %s figures are shown, not measured",
		   n, n == 1 ? "" : "s", n == 1 ? "its" : "their");
}
