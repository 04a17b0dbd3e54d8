/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.c - the replay workload (docs/replay.md): the load of the box you
 *            have, as 'nasbench capture' wrote it, offered to this box.
 *
 * Each VM of the load file is its own open-loop source (replay/population.c):
 * at its busiest-hour rate, read share, request sizes and sequential
 * share, over its share of the data set.  The population is offered
 * scaled - today's load first, then a bisection to where the objective
 * ([capacity] slo) breaks, or the scales given - through the open sweep
 * (io_sweep_open.c, capacity/sweep_open.c): a step counts only when it
 * achieved 98% of what it offered and its response time meets the
 * objective.  The headroom is the largest scale that met it; the years
 * follow from the growth rate (loadfile/growth.h).  Then the busiest bucket
 * of the capture is replayed as it was, each VM at its rate of that
 * minute.  Every step counts what each source issued, so the result says
 * how faithfully the load was offered.
 */
#include "replay.h"
#include "../data.h"
#include "../io/io_sweep.h"
#include "../io/openload.h"
#include "../../core/err.h"
#include "../../core/knobs.h"
#include "../../core/units.h"
#include "../../core/escape.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the load does not say: the probe's pattern, the writes' durability
 * ([vm] sync), direct I/O. */
static const struct nb_iospec replay_default = {
	.pattern = NB_PAT_RAND, .rw = NB_RW_MIX, .read_pct = 70, .bs = 4096,
	.qd = 32, .direct = 1, .sync = NB_SYNC_END,
};

/* The data set a replay with P runs on when the target says nothing:
 * --size, else twice the box's RAM, else [suite] size's default. */
static uint64_t planned_size(const struct nb_params *p)
{
	return p->size ? p->size : p->ram ? NB_RAM_FACTOR * p->ram :
	       nb_knob_default("suite", "size");
}

/* The load file of P into L (initialised here; free it either way).
 * 0, or -EINVAL with the detail set. */
static int load_read(const struct nb_params *p, struct nb_load *l)
{
	nb_load_init(l);
	if (!p->replay_load[0])
		return nb_err(-EINVAL, "the replay workload needs a load file: "
			      "--load FILE or [replay] load ('nasbench capture' "
			      "writes one; docs/replay.md)");
	return nb_load_read(l, p->replay_load);
}

/* The growth rate: --growth, else the load file's (NONE: neither). */
static const char *growth_of(const struct nb_params *p, const struct nb_load *l,
			     struct nb_growth *g)
{
	if (p->replay_growth[0] && !nb_growth_parse(p->replay_growth, g))
		return "--growth";
	*g = l->growth;
	return g->kind != NB_GROWTH_NONE ? "the load file" : NULL;
}

/* Before anything runs: the load file reads, and its population fits the
 * data set planned. */
static int replay_check(const struct nb_params *p)
{
	struct nb_replay_pop pop = { 0 };
	struct nb_load l;
	int rc = load_read(p, &l);

	if (!rc)
		rc = nb_replay_population(&l, p->replay_load, NB_REPLAY_BUSY,
					  planned_size(p), 512, &pop);
	if (!rc && p->rate[0])
		rc = nb_err(-EINVAL, "--rate sets one load; the replay offers the "
			    "load file's, scaled (--scale): leave out --rate");
	if (!rc && p->steady[0])
		rc = nb_err(-EINVAL, "--steady-state runs one depth in rounds; the "
			    "replay runs the load file's VMs scaled: leave out one");
	nb_replay_pop_free(&pop);
	nb_load_free(&l);
	return rc;
}

/* ---- one step: the engine with every source counted -------------------- */

static void on_progress(uint64_t bytes, uint64_t elapsed_ns, void *payload)
{
	nb_progress_update(payload, bytes, elapsed_ns);
}

/* What each source issued over the schedule, into the "open" object. */
static void per_source(struct nb_wl_ctx *c, const struct nb_iospec *s,
		       const struct nb_io_result *r,
		       const struct nb_src_count *n)
{
	json_t *open = json_object_get(c->extra, "open");
	json_t *asked = json_array(), *reads = json_array(), *writes = json_array();

	for (uint32_t i = 0; i < s->nsrc; i++) {
		json_array_append_new(asked, json_real(s->src[i].rate));
		json_array_append_new(reads, json_integer((json_int_t)n[i].reads));
		json_array_append_new(writes, json_integer((json_int_t)n[i].writes));
	}
	json_object_set_new(open, "per_source", json_pack("{s:f, s:o, s:o, s:o}",
		"seconds", (double)r->open.sched_ns / 1e9, "asked", asked,
		"reads", reads, "writes", writes));
}

/* S once through nasbench's engine, each source counted into N (NULL: a
 * closed loop).  0, -EINTR or -errno. */
static int engine_once(struct nb_wl_ctx *c, const struct nb_iospec *s,
		       struct nb_src_count *n)
{
	struct nb_engine_hooks h = { .progress = on_progress, .live = c->progress,
				     .payload = c->progress, .stop = c->stop,
				     .src_count = n };
	struct nb_io_result *r = malloc(sizeof(*r));
	struct nb_zsample z;
	struct nb_file *f;
	char label[160];
	int rc, sampled = 0;

	if (!r)
		return nb_err(-ENOMEM, "out of memory");
	rc = nb_wl_io_open(c, s, &f);
	if (!rc && (sampled = nb_wl_data_sample(c, s, &z)) < 0) {
		c->t->ops->fclose(f);
		rc = nb_err(-ENOMEM, "out of memory");
	}
	if (rc) {
		free(r);
		return rc;
	}
	if (sampled)
		h.sample = &z;
	snprintf(label, sizeof(label), "%s on %s (%d/%d%s%s)", c->wl->name,
		 c->t->cfg->name, c->iteration, c->iterations,
		 c->phase ? ", " : "", c->phase ? c->phase : "");
	nb_progress_begin(c->progress, label, 0, s->runtime_us * 1000);
	rc = nb_engine_run(c->t, f, s, &h, r);
	nb_progress_end(c->progress);
	c->t->ops->fclose(f);
	if (!rc && r->stopped)
		rc = -EINTR;
	if (!rc) {
		nb_wl_io_metrics(c, r);
		if (r->is_open) {
			nb_wl_open_metrics(c, s, r);
			per_source(c, s, r, n);
		}
		if (sampled)
			nb_wl_data_record(c, s, r, &z), sampled = 0;
	}
	if (sampled)
		nb_zsample_free(&z);
	free(r);
	return rc;
}

/* The probe's closed loop: one mix of the population - its read and
 * sequential shares and its mean request, weighted by rate. */
static int probe_once(struct nb_wl_ctx *c, const struct nb_iospec *s)
{
	struct nb_iospec ps = *s;
	uint32_t align = c->t->block_size > 512 ? c->t->block_size : 512;
	double all = 0, bytes = 0, rd = 0, seq = 0;
	long b;

	for (uint32_t i = 0; i < s->nsrc; i++) {
		const struct nb_source *x = &s->src[i];
		double pr = x->rw == NB_RW_READ ? 100 : x->rw == NB_RW_WRITE ? 0 :
			    x->read_pct;

		all += x->rate;
		rd += x->rate * pr;
		bytes += x->rate * (pr / 100 * x->bs + (1 - pr / 100) *
				    (x->bs_write ? x->bs_write : x->bs));
		seq += x->rate * (x->pattern == NB_PAT_SEQ ? 100 :
				  x->rand_pct ? 100 - x->rand_pct : 0);
	}
	b = all > 0 ? lround(bytes / all / align) * (long)align : (long)align;
	ps.bs = b < (long)align ? align : b > (long)s->bs ? s->bs : (uint32_t)b;
	ps.read_pct = all > 0 ? (int)lround(rd / all) : 50;
	seq = all > 0 ? seq / all : 0;
	ps.pattern = seq >= 99.5 ? NB_PAT_SEQ : NB_PAT_RAND;
	ps.rand_pct = seq < 0.5 || seq >= 99.5 ? 0 : (int)lround(100 - seq);
	ps.src = NULL;
	ps.nsrc = 0;
	return engine_once(c, &ps, NULL);
}

/* One step of the sweep (io_sweep_open.c): S's sources scaled to S's rate
 * (the population's at 1x is their sum), or the probe's closed loop. */
static int replay_once(struct nb_wl_ctx *c, const struct nb_iospec *s)
{
	struct nb_iospec ss = *s;
	struct nb_source *src;
	struct nb_src_count *n;
	double sum = 0, k;
	int rc;

	if (!nb_iospec_open(s))
		return probe_once(c, s);
	for (uint32_t i = 0; i < s->nsrc; i++)
		sum += s->src[i].rate;
	k = sum > 0 ? s->rate / sum : 1;
	src = malloc(s->nsrc * sizeof(*src));
	n = calloc(s->nsrc, sizeof(*n));
	if (!src || !n) {
		free(src);
		free(n);
		return nb_err(-ENOMEM, "out of memory for %u sources", s->nsrc);
	}
	for (uint32_t i = 0; i < s->nsrc; i++) {
		src[i] = s->src[i];
		src[i].rate *= k;
	}
	ss.src = src;
	rc = engine_once(c, &ss, n);
	free(src);
	free(n);
	return rc;
}

/* ---- the spec, the sweep, the busiest bucket ---------------------------- */

/* The population of the busiest hour over the data set, and the spec the
 * steps run: the slots as large as the largest request, the file opened
 * for what the sources do.  0 or -errno. */
static int replay_spec(struct nb_wl_replay *r)
{
	struct nb_wl_ctx *c = r->c;
	struct nb_params p = *c->p;
	struct nb_wl_ctx cc = *c;
	uint32_t align = c->t->block_size > 512 ? c->t->block_size : 512;
	int reads = 0, writes = 0, rc;

	p.bs = 0;
	p.sweep = 1;                     /* a capacity run: 2 x RAM */
	cc.p = &p;
	nb_iospec_resolve(&replay_default, &p, c->t, &r->s);
	nb_wl_capacity_size(&cc, &r->s);
	r->s.size -= r->s.size % align;
	rc = nb_replay_population(&r->l, r->path, NB_REPLAY_BUSY, r->s.size,
				  align, &r->pop);
	if (rc)
		return rc;
	for (uint32_t i = 0; i < r->pop.nsrc; i++) {
		reads |= r->pop.src[i].rw != NB_RW_WRITE;
		writes |= r->pop.src[i].rw != NB_RW_READ;
	}
	r->s.rw = reads && writes ? NB_RW_MIX : reads ? NB_RW_READ : NB_RW_WRITE;
	r->s.read_pct = (int)lround(r->pop.read_pct);
	r->s.bs = r->pop.bs_max;
	r->s.src = r->pop.src;
	r->s.nsrc = r->pop.nsrc;
	r->s.rate = r->pop.iops;
	if (c->p->vm_sync > 0)
		r->s.sync = NB_SYNC_ALWAYS;
	r->s.seed = c->seed;
	nb_iospec_arrivals(&r->s, c->p);
	/* the old box's data, unless --compress says otherwise */
	if (!c->p->compress[0] && r->l.data.compressratio > 1)
		r->s.data.ratio = fmin(r->l.data.compressratio, NB_DATA_RATIO_MAX);
	return 0;
}

/* The scales as the open sweep's rates (I/Os per second) into P. */
static void scale_rates(const struct nb_wl_replay *r, struct nb_params *p)
{
	size_t n = 0;

	snprintf(p->rates, sizeof(p->rates), "auto");
	for (size_t i = 0; i < r->nscales && n < sizeof(p->rates); i++)
		n += (size_t)snprintf(p->rates + n, sizeof(p->rates) - n, "%s%.9g",
				      i ? "," : "", r->scales[i] * r->pop.iops);
}

/* Each step of the sweep SW with its scale; the step at 1x is today's. */
static void steps_scaled(struct nb_wl_replay *r, json_t *sw)
{
	json_t *st;
	size_t i;

	json_array_foreach(json_object_get(sw, "steps"), i, st) {
		double scale = json_number_value(json_object_get(st, "rate_iops")) /
			       r->pop.iops;
		json_t *vms = nb_wl_replay_per_vm(r, &r->pop, st);

		json_object_set_new(st, "scale", json_real(scale));
		if (vms && !r->today && fabs(scale - 1) < NB_WL_REPLAY_SAME) {
			r->today = json_deep_copy(st);
			json_object_set_new(r->today, "per_vm", vms);
		} else {
			json_decref(vms);
		}
	}
}

/* The sweep over the scales: the headroom.  0, -EINTR or -errno. */
static int replay_sweep(struct nb_wl_replay *r)
{
	struct nb_params p = *r->c->p;
	struct nb_wl_ctx cc = *r->c;
	struct nb_osweep_from from = { r->nscales ? 0 : r->pop.iops,
				       2 * r->pop.iops };
	const json_t *cap;
	json_t *sw;
	int rc;

	scale_rates(r, &p);
	p.sweep = 1;
	cc.p = &p;
	rc = nb_wl_osweep_run_from(&cc, &r->s, replay_once, &from);
	sw = json_object_get(r->c->extra, "sweep");
	cap = json_object_get(sw, "capacity");
	r->found = json_is_true(json_object_get(cap, "found"));
	r->lower_bound = json_is_true(json_object_get(cap, "lower_bound"));
	r->interpolated = json_is_true(json_object_get(cap, "interpolated"));
	r->headroom = r->found ? json_number_value(json_object_get(cap, "iops")) /
		      r->pop.iops : 0;
	steps_scaled(r, sw);
	if (json_object_get(r->c->metrics, "iops_at_slo"))
		nb_wl_metric(r->c, "slo_bw_bytes", r->found ? r->headroom *
			     r->pop.iops * r->pop.mean_bytes : 0);
	return rc;
}

/* The busiest bucket of the capture as it was: one step, each VM at its
 * rate of that bucket.  0, -EINTR or -errno (a population that does not
 * fit is said, not an error). */
static int replay_peak(struct nb_wl_replay *r, int bucket)
{
	struct nb_params p = *r->c->p;
	struct nb_wl_ctx pc = *r->c;
	struct nb_iospec s = r->s;
	struct nb_replay_pop pop;
	json_t *st;
	int rc = nb_replay_population(&r->l, r->path, bucket, r->s.size,
				      r->pop.align, &pop);

	if (rc) {
		snprintf(r->peak_why, sizeof(r->peak_why), "%s", nb_err_last());
		nb_replay_pop_free(&pop);
		return rc == -ENOMEM ? rc : 0;
	}
	snprintf(p.rates, sizeof(p.rates), "%.9g", pop.iops);
	p.sweep = 1;
	pc.p = &p;
	pc.metrics = json_object();
	pc.extra = json_object();
	s.src = pop.src;
	s.nsrc = pop.nsrc;
	s.rate = pop.iops;
	if (pop.bs_max > s.bs)
		s.bs = pop.bs_max;
	rc = nb_wl_osweep_run(&pc, &s, replay_once, NULL, 0);
	st = json_array_get(json_object_get(json_object_get(pc.extra, "sweep"),
					    "steps"), 0);
	if (!rc && st) {
		r->peak = json_deep_copy(st);
		json_object_set_new(r->peak, "per_vm",
				    nb_wl_replay_per_vm(r, &pop, r->peak));
		json_object_set_new(r->peak, "bucket", json_integer(bucket));
		json_object_set_new(r->peak, "minute", json_real(
			bucket * r->l.bucket_s / 60));
		json_object_set_new(r->peak, "of_busy", json_real(pop.iops / r->pop.iops));
	}
	json_decref(pc.metrics);
	json_decref(pc.extra);
	nb_replay_pop_free(&pop);
	return rc;
}

/* Whether and which bucket is the busiest to replay; else why not. */
static int peak_bucket(struct nb_wl_replay *r)
{
	int b = r->l.have_total ? r->l.total.peak_bucket : -1;

	if (r->c->p->replay_peak == 0)
		snprintf(r->peak_why, sizeof(r->peak_why), "not asked for (--peak no)");
	else if (b < 0)
		snprintf(r->peak_why, sizeof(r->peak_why), "the load file names no "
			 "busiest bucket ([total] peak_bucket)");
	else if (!nb_replay_has_bucket(&r->l, b))
		snprintf(r->peak_why, sizeof(r->peak_why), "not every VM of the load "
			 "file has bucket %d in its series", b);
	else
		return b;
	return -1;
}

static void replay_free(struct nb_wl_replay *r)
{
	nb_replay_pop_free(&r->pop);
	nb_load_free(&r->l);
	json_decref(r->today);
	json_decref(r->peak);
}

static int replay_run(struct nb_wl_ctx *c)
{
	struct nb_wl_replay r = { .c = c, .path = c->p->replay_load };
	int rc = load_read(c->p, &r.l), b;

	if (!rc && nb_wl_fio_wanted(c))
		rc = nb_err(-EINVAL, "fio has no sources of their own (populations "
			    "of VMs): the replay runs on nasbench's own engine (leave "
			    "out engine = fio, --clients and --cross-check for it)");
	if (!rc)
		rc = nb_replay_scales_parse(c->p->replay_scale[0] ?
					    c->p->replay_scale : "auto",
					    r.scales, &r.nscales);
	if (!rc)
		rc = replay_spec(&r);
	if (rc) {
		replay_free(&r);
		return rc;
	}
	r.growth_from = growth_of(c->p, &r.l, &r.g);
	if (c->iteration == 1) {
		c->spec = nb_iospec_json(&r.s);
		nb_open_spec_json(c->spec, &r.s);
		json_object_set_new(c->spec, "load", nb_json_text(r.path));
		json_object_set_new(c->spec, "compress_from", json_string(
			!c->p->compress[0] && r.l.data.compressratio > 1 ?
			"load file" : "knobs"));
	}
	c->data = &r.s.data;
	rc = replay_sweep(&r);
	b = rc ? -1 : peak_bucket(&r);
	if (b >= 0)
		rc = replay_peak(&r, b);
	c->data = NULL;
	nb_wl_replay_put(&r);
	replay_free(&r);
	return rc;
}

static uint64_t replay_plan_bytes(const struct nb_workload *w,
				  const struct nb_params *p)
{
	(void)w;
	return planned_size(p);
}

/* Today's step, the bisection's (about eight) or the scales given, the
 * busiest bucket, a probe: step-times each, and the data file made. */
static void replay_estimate(const struct nb_workload *w, const struct nb_params *p,
			    struct nb_estimate *e)
{
	double list[NB_REPLAY_SCALES], step = (double)nb_wl_step_us(p) / 1e6;
	size_t n = 0;

	if (nb_replay_scales_parse(p->replay_scale[0] ? p->replay_scale : "auto",
				   list, &n) || !n)
		n = 9;
	e->seconds = step * (double)(n + 1) + (double)replay_plan_bytes(w, p) /
		     NB_ESTIMATE_RATE;
	e->written = replay_plan_bytes(w, p);
}

const struct nb_workload nb_wl_replay = {
	.name = "replay",
	.help = "a captured load ([replay] load, 'nasbench capture') offered to "
		"the box, each VM its own open-loop source, scaled until the "
		"objective breaks: the headroom, and the years it holds at the "
		"load's growth",
	.io = &replay_default,
	.run = replay_run,
	.plan_bytes = replay_plan_bytes,
	.estimate = replay_estimate,
	.check = replay_check,
};

/* the replay's rows: [replay] (core/knobs.h; docs/replay.md). */
const struct nb_knob nb_replay_knobs[] = {
	{ NB_SECTION("replay") },
	{ .section = "replay", .name = "load", .type = NB_KT_STR,
	  NB_PRM(replay_load), .unset = "",
	  .help = "the replay workload's load file ('nasbench capture' wrote "
	  "it, or you did): its VMs offered to the box as open-loop sources, "
	  "scaled until the objective ([capacity] slo) breaks",
	  .opt = "load", .metavar = "FILE",
	},
	{ .section = "replay", .name = "scale", .type = NB_KT_STR,
	  NB_PRM(replay_scale), .def = "auto", .check = nb_replay_scales_check,
	  .help = "the replay's scales of the captured load: auto (today's load, "
	  "then a bisection to where the objective breaks) or rising multiples "
	  "1,1.25,1.5,2",
	  .opt = "scale", .metavar = "LIST",
	},
	{ .section = "replay", .name = "growth", .type = NB_KT_STR,
	  NB_PRM(replay_growth), .check = nb_growth_check,
	  .unset = "the load file's [population] growth",
	  .help = "the load's growth, for the years the replay's headroom holds: "
	  "25%/year, or VMs a year 4vms/year",
	  .opt = "growth", .metavar = "RATE",
	},
	{ .section = "replay", .name = "peak", .type = NB_KT_BOOL,
	  NB_PRM(replay_peak), .def = "yes",
	  .help = "replay also the capture's busiest bucket as it was, each VM "
	  "at its rate of that minute",
	  .opt = "peak", .metavar = "yes|no",
	},
	{ NULL },
};
