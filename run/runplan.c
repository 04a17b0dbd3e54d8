/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runplan.c - the run plan: config -> workloads x iterations, --dry-run. */
#include "runplan.h"
#include "../core/err.h"
#include "../core/knobs.h"
#include "../core/suggest.h"
#include "../core/units.h"

#include <errno.h>
#include <string.h>

/* "unknown workload 'x'; did you mean 'y'?" (KIND "workload" or "suite"),
 * else "(see 'nasbench list KINDs')". */
static int unknown(const char *kind, const char *name)
{
	const char *cands[256], *near;
	size_t n = 0;

	if (!strcmp(kind, "suite"))
		for (; nb_suites[n].name && n < 256; n++)
			cands[n] = nb_suites[n].name;
	else
		for (; nb_workloads[n] && n < 256; n++)
			cands[n] = nb_workloads[n]->name;
	near = nb_suggest(name, cands, n);
	if (near)
		return nb_err(-EINVAL, "unknown %s '%s'; did you mean '%s'?", kind,
			      name, near);
	return nb_err(-EINVAL, "unknown %s '%s' (see 'nasbench list %ss')", kind,
		      name, kind);
}

static int plan_add(struct nb_runplan *pl, const struct nb_workload *w, int its)
{
	if (pl->nwl == NB_RUNPLAN_MAX)
		return nb_err(-EINVAL, "too many workloads");
	pl->iters[pl->nwl] = its;
	pl->wl[pl->nwl++] = w;
	return 0;
}

static int plan_has(const struct nb_runplan *pl, const struct nb_workload *w)
{
	for (int k = 0; k < pl->nwl; k++)
		if (pl->wl[k] == w)
			return 1;
	return 0;
}

/* The workloads of LIST ("a,b*5"); --iterations overrides NAME*N. */
static int plan_list(struct nb_runplan *pl, const char *list, int iterations_set)
{
	char buf[1024], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *item = strtok_r(buf, ", ", &save); item;
	     item = strtok_r(NULL, ", ", &save)) {
		const struct nb_workload *w;
		char name[64];
		int its;

		if (nb_suite_item(item, name, sizeof(name), &its))
			return -EINVAL;
		w = nb_workload_find(name);
		if (!w)
			return unknown("workload", name);
		if (plan_add(pl, w, iterations_set ? 0 : its))
			return -EINVAL;
	}
	return 0;
}

/* The rows' defaults of the steady-state and preconditioning knobs. */
static void steady_defaults(struct nb_params *p)
{
	if (!p->round_us)
		p->round_us = nb_knob_default("suite", "round");
	if (!p->steady_window)
		p->steady_window = (uint32_t)nb_knob_default("suite", "steady-window");
	if (!p->steady_rounds)
		p->steady_rounds = (uint32_t)nb_knob_default("suite", "steady-rounds");
	if (!p->precondition_passes)
		p->precondition_passes =
			(uint32_t)nb_knob_default("suite", "precondition-passes");
	if (!p->fill_pct)
		p->fill_pct = (uint32_t)nb_knob_default("suite", "precondition-fill");
}

/* The steady-state knobs agree with each other: 0 or -EINVAL. */
static int steady_check(const struct nb_params *p)
{
	unsigned window = p->steady_window ? p->steady_window :
			  (unsigned)nb_knob_default("suite", "steady-window");
	unsigned rounds = p->steady_rounds ? p->steady_rounds :
			  (unsigned)nb_knob_default("suite", "steady-rounds");

	if (!p->steady[0]) {
		if (p->steady_window || p->steady_rounds || p->steady_max_us)
			return nb_err(-EINVAL, "--steady-window, --steady-rounds "
				      "and --steady-limit need --steady-state CRIT");
		return 0;
	}
	if (window > rounds)
		return nb_err(-EINVAL, "--steady-window %u is larger than the round "
			      "limit --steady-rounds %u: it accepts 2 to the round "
			      "limit", window, rounds);
	return 0;
}

/* The open loop's knobs agree with each other (docs/capacity.md): a sweep
 * chooses its own rates and populations; the arrival process, its bursts
 * and the sweep's loop each need what they shape.  0 or -EINVAL. */
static int open_check(const struct nb_params *p)
{
	int sweep = p->sweep > 0 || (p->sweep < 0 && (p->steps[0] || p->rates[0]));

	if (sweep && p->rate[0])
		return nb_err(-EINVAL, "--rate sets one load, a sweep (--sweep, "
			      "--rates, --steps, suite capacity) runs many: leave "
			      "out one");
	if (sweep && p->vm_count)
		return nb_err(-EINVAL, "--vms sets one population, a sweep (--sweep, "
			      "--rates, --steps, suite capacity) finds how many: "
			      "leave out one");
	if (p->steps[0] && p->rates[0])
		return nb_err(-EINVAL, "--steps are the closed sweep's, --rates the "
			      "open sweep's: give one");
	if (p->loop >= 0 && !sweep)
		return nb_err(-EINVAL, "--loop chooses a sweep's load: add --sweep "
			      "(without a sweep, --rate or --vms make an open "
			      "loop, --iodepth a closed one)");
	if (p->arrival >= 0 && !sweep && !p->rate[0] && !p->vm_count)
		return nb_err(-EINVAL, "--arrival shapes an open loop: add --rate, "
			      "--vms or --sweep");
	if (p->burst[0] && p->arrival != NB_ARR_ONOFF)
		return nb_err(-EINVAL, "--burst shapes arrival = onoff only: add "
			      "--arrival onoff");
	return 0;
}

int nb_runplan_make(struct nb_runplan *pl, const struct nb_config *cfg,
		 const char *workloads, const char *const *extra, int n)
{
	const struct nb_suite_cfg *sc = &cfg->suite;
	const char *list;

	memset(pl, 0, sizeof(*pl));
	if (sc->suite[0]) {
		pl->suite = nb_suite_find(sc->suite);
		if (!pl->suite)
			return unknown("suite", sc->suite);
	}
	if (workloads && *workloads) {
		list = workloads;
		pl->why = "the workloads given with --workload";
	} else if (sc->workloads[0] && !pl->suite) {
		list = sc->workloads;
		pl->why = "the workloads of [suite] workloads";
	} else if (pl->suite) {
		list = pl->suite->workloads;
		pl->why = "suite";
	} else {
		list = NB_RUNPLAN_DEFAULT;
		pl->why = "the default workloads: no --suite or --workload given";
	}
	if (plan_list(pl, list, sc->iterations != 0))
		return -EINVAL;
	if (pl->suite && !strcmp(pl->suite->name, "accept") &&
	    !(workloads && *workloads))
		for (int i = 0; i < n; i++) {
			const struct nb_workload *w = nb_workload_find(extra[i]);

			if (w && !plan_has(pl, w) && plan_add(pl, w, 0))
				return -EINVAL;
		}
	pl->p = sc->p;
	if (pl->suite)
		nb_params_merge(&pl->p, &pl->suite->defaults);
	if (pl->p.size == NB_SIZE_AUTO) {
		if (!pl->p.ram)
			return nb_err(-EINVAL, "size = auto is twice the box's RAM, "
				      "which is not known: set 'ram' in [box] or "
				      "pass --label ram=SIZE");
		pl->p.size = NB_RAM_FACTOR * pl->p.ram;
	}
	if (steady_check(&pl->p) || open_check(&pl->p))
		return -EINVAL;
	for (int w = 0; w < pl->nwl; w++)
		if (pl->wl[w]->check && pl->wl[w]->check(&pl->p))
			return -EINVAL;
	steady_defaults(&pl->p);
	pl->iterations = sc->iterations ? (int)sc->iterations :
			 pl->suite && pl->suite->iterations ?
			 pl->suite->iterations :
			 (int)nb_knob_default("suite", "iterations");
	return 0;
}

int nb_runplan_iters(const struct nb_runplan *pl, int w)
{
	/* in rounds until steady: once (workloads/io/steady.c) */
	if (pl->p.steady[0] && pl->wl[w]->io)
		return 1;
	return pl->iters[w] ? pl->iters[w] : pl->iterations;
}

static uint64_t plan_bytes(const struct nb_runplan *pl, int w)
{
	const struct nb_workload *wl = pl->wl[w];

	return wl->plan_bytes ? wl->plan_bytes(wl, &pl->p) : 0;
}

/* Workload W of the plan: its iterations; E the estimate for all of them,
 * added to *SECS and *WRITTEN. */
static int plan_row(const struct nb_runplan *pl, int w, struct nb_estimate *e,
		    double *secs, uint64_t *written)
{
	int its = nb_runplan_iters(pl, w);

	nb_estimate_workload(pl->wl[w], &pl->p, e);
	e->seconds *= its;
	e->written *= (uint64_t)its;
	*secs += e->seconds;
	*written += e->written;
	return its;
}

uint64_t nb_runplan_space(const struct nb_runplan *pl)
{
	uint64_t need = 0;

	for (int w = 0; w < pl->nwl; w++)
		if (plan_bytes(pl, w) > need)
			need = plan_bytes(pl, w);
	return need;
}

static const char *plan_source(const struct nb_runplan *pl, char *buf, size_t len);

void nb_runplan_headline(FILE *out, const struct nb_runplan *pl,
		      const struct nb_config *cfg)
{
	int uniform = 1;
	char src[160];

	for (int w = 0; w < pl->nwl; w++)
		uniform &= nb_runplan_iters(pl, w) == nb_runplan_iters(pl, 0);
	fprintf(out, "plan: %d target(s) x %d workload(s) x ", cfg->ntargets,
		pl->nwl);
	if (uniform && pl->nwl)
		fprintf(out, "%d iteration(s)", nb_runplan_iters(pl, 0));
	else
		fprintf(out, "the iterations listed");
	fprintf(out, " (%s)\n", plan_source(pl, src, sizeof(src)));
}

void nb_runplan_print(FILE *out, const struct nb_runplan *pl,
		   const struct nb_config *cfg)
{
	uint64_t written = 0;
	double secs = 0;
	char sz[32], wr[32], dur[32];

	nb_runplan_headline(out, pl, cfg);
	for (int i = 0; i < cfg->ntargets; i++) {
		const struct nb_target_cfg *t = &cfg->targets[i];
		char red[1100];

		fprintf(out, "  target %-12s %s", t->name,
			nb_url_redact(t->url, red, sizeof(red)));
		/* several paths (docs/network.md) */
		if (t->paths[0] || t->connections > 1)
			fprintf(out, " via %s%s, %d connection%s each",
				t->paths[0] ? "paths " : "the URL's host", t->paths,
				t->connections > 1 ? t->connections : 1,
				t->connections > 1 ? "s" : "");
		if ((t->paths[0] || t->connections > 1) && t->path_policy[0])
			fprintf(out, ", %s", t->path_policy);
		fputc('\n', out);
	}
	fprintf(out, "  %-20s %5s %12s %12s %10s\n", "workload", "iter",
		"space", "writes", "time");
	for (int w = 0; w < pl->nwl; w++) {
		struct nb_estimate e;
		int its = plan_row(pl, w, &e, &secs, &written);

		fprintf(out, "  %-20s %5d %12s %12s %10s\n", pl->wl[w]->name, its,
			nb_fmt_size(plan_bytes(pl, w), sz, sizeof(sz)),
			nb_fmt_size(e.written, wr, sizeof(wr)),
			nb_estimate_fmt_secs(e.seconds, dur, sizeof(dur)));
	}
	fprintf(out, "  per target: space %s, writes %s, time %s (at ~%.0f MB/s, "
		"xz ~%.0f MB/s)\n", nb_fmt_size(nb_runplan_space(pl), sz, sizeof(sz)),
		nb_fmt_size(written, wr, sizeof(wr)),
		nb_estimate_fmt_secs(secs, dur, sizeof(dur)), NB_ESTIMATE_RATE / 1e6,
		NB_ESTIMATE_XZ_RATE / 1e6);
	if (pl->p.rebuild[0])
		fprintf(out, "  failure walk (--rebuild %s, docs/failure.md): each workload "
			"healthy, degraded, rebuilding, rebuilt; fail-disk '%s', "
			"replace-disk '%s'%s\n", pl->p.rebuild,
			cfg->failure.fail_cmd[0] ? cfg->failure.fail_cmd : "(none)",
			cfg->failure.replace_cmd[0] ? cfg->failure.replace_cmd : "(none)",
			cfg->failure.consent ? "" : "; no --fail-disks: it would be refused");
	if (cfg->ntargets > 1)
		fprintf(out, "  all %d targets: writes %s, time %s\n",
			cfg->ntargets,
			nb_fmt_size(written * (uint64_t)cfg->ntargets, wr, sizeof(wr)),
			nb_estimate_fmt_secs(secs * cfg->ntargets, dur, sizeof(dur)));
}

/* Where the workload list came from, as the headline says it. */
static const char *plan_source(const struct nb_runplan *pl, char *buf, size_t len)
{
	if (pl->suite && !strcmp(pl->why, "suite"))
		snprintf(buf, len, "suite '%s'", pl->suite->name);
	else
		snprintf(buf, len, "%s", pl->why ? pl->why : "");
	return buf;
}

json_t *nb_runplan_json(const struct nb_runplan *pl, const struct nb_config *cfg)
{
	json_t *doc, *targets = json_array(), *wls = json_array();
	uint64_t written = 0;
	double secs = 0;
	char src[160];

	for (int i = 0; i < cfg->ntargets; i++) {
		char red[1100];

		json_array_append_new(targets, json_pack("{s:s, s:s, s:s}",
			"name", cfg->targets[i].name, "url",
			nb_url_redact(cfg->targets[i].url, red, sizeof(red)),
			"scheme", cfg->targets[i].u.scheme));
	}
	for (int w = 0; w < pl->nwl; w++) {
		struct nb_estimate e;
		int its = plan_row(pl, w, &e, &secs, &written);

		json_array_append_new(wls, json_pack("{s:s, s:i, s:I, s:I, s:f}",
			"name", pl->wl[w]->name, "iterations", its, "space_bytes",
			(json_int_t)plan_bytes(pl, w), "written_bytes",
			(json_int_t)e.written, "seconds", e.seconds));
	}
	doc = json_pack("{s:s, s:s?, s:i, s:I, s:o, s:o, s:{s:I, s:I, s:f}, "
			"s:{s:I, s:f}, s:{s:f, s:f}}",
		"source", plan_source(pl, src, sizeof(src)),
		"suite", pl->suite ? pl->suite->name : NULL,
		"iterations", pl->iterations,
		"size_bytes", (json_int_t)pl->p.size,
		"targets", targets, "workloads", wls,
		"per_target", "space_bytes", (json_int_t)nb_runplan_space(pl),
		"written_bytes", (json_int_t)written, "seconds", secs,
		"total", "written_bytes", (json_int_t)(written * (uint64_t)cfg->ntargets),
		"seconds", secs * cfg->ntargets,
		"assumed", "bw_bytes", (double)NB_ESTIMATE_RATE, "xz_bw_bytes",
		(double)NB_ESTIMATE_XZ_RATE);
	return doc;
}
