/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * steady.c - an I/O workload in rounds until its figures settle.
 *
 * With --steady-state the workload runs once, in rounds of round_us on one
 * open data file; after each round steady/judge.c judges the last window of
 * rounds, and the run stops when it holds or at the round or time limit.
 * The entry's "steady" object keeps every round; its "iterations" are the
 * window's rounds, so the summary (and compare, accept, report) is the
 * window's: of a steady run the settled figure, of an unsteady one the
 * last window, marked reached: false.  docs/result.md has the shape.
 */
#include "../workload.h"
#include "../../steady/judge.h"
#include "../../core/clock.h"
#include "../../core/err.h"
#include "../../core/hook.h"
#include "../../core/knobs.h"
#include "../../core/result.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rounds {
	struct nb_wl_ctx *c;
	struct nb_steady_crit crit;
	unsigned window, max;
	uint64_t max_ns, t0;
	json_t *list;            /* every round: { round, start_s, metrics } */
	json_t *extras;          /* each round's extra (bytes, histogram) */
	double *v;               /* the judged metric per round */
	unsigned n;
	struct nb_steady_verdict vd;
};

static void on_progress(uint64_t bytes, uint64_t elapsed_ns, void *payload)
{
	nb_progress_update(payload, bytes, elapsed_ns);
}

/* One round of S from *NEXT (sequential: where the last one ended). */
static int one_round(struct rounds *rs, struct nb_file *f,
		     const struct nb_iospec *s, uint64_t *next)
{
	struct nb_wl_ctx *c = rs->c;
	struct nb_engine_hooks h = { .progress = on_progress, .live = c->progress,
				     .payload = c->progress, .stop = c->stop };
	struct nb_iospec round = *s;
	struct nb_io_result *r = malloc(sizeof(*r));
	json_t *m = c->metrics, *x = c->extra;
	double start = (double)(nb_now_ns() - rs->t0) / 1e9;
	char label[200];
	int rc;

	if (!r)
		return nb_err(-ENOMEM, "out of memory");
	round.runtime_us = c->p->round_us;
	round.bytes = 0;
	round.start = *next;
	/* a fresh random sequence each round: a round must not re-read the
	 * offsets the one before pulled into the box's cache */
	round.seed = s->seed ^ (0x9e3779b97f4a7c15ULL * (rs->n + 1));
	snprintf(label, sizeof(label), "%s on %s (round %u/%u%s%s)", c->wl->name,
		 c->t->cfg->name, rs->n + 1, rs->max, rs->n ? ": " : "",
		 rs->n ? (rs->vd.steady ? "steady" : "not steady") : "");
	nb_progress_begin(c->progress, label, 0, round.runtime_us * 1000);
	rc = nb_engine_run(c->t, f, &round, &h, r);
	nb_progress_end(c->progress);
	if (!rc && r->stopped)
		rc = -EINTR;
	if (!rc) {
		c->metrics = json_object();
		c->extra = json_object();
		nb_wl_io_metrics(c, r);
		json_array_append_new(rs->list, json_pack("{s:i, s:f, s:o}", "round",
							  (int)rs->n + 1, "start_s",
							  start, "metrics", c->metrics));
		json_array_append_new(rs->extras, c->extra);
		rs->v[rs->n++] = json_number_value(json_object_get(
			c->metrics, nb_steady_metric_name(&rs->crit)));
		*next = (round.start + r->bytes_read + r->bytes_written) % s->size;
	}
	c->metrics = m;
	c->extra = x;
	free(r);
	return rc;
}

static json_t *verdict_json(const struct rounds *rs)
{
	const struct nb_steady_verdict *o = &rs->vd;
	const struct nb_params *p = rs->c->p;
	char name[64];
	json_t *j = json_pack(
		"{s:s, s:s, s:f, s:i, s:i, s:b, s:i, s:i, s:i}",
		"criterion", nb_steady_name(&rs->crit, name, sizeof(name)),
		"metric", nb_steady_metric_name(&rs->crit),
		"round_s", (double)p->round_us / 1e6,
		"window", (int)rs->window, "max_rounds", (int)rs->max,
		"reached", o->steady, "rounds_run", (int)rs->n,
		"window_first", (int)(o->n ? o->first + 1 : 0),
		"window_last", (int)(o->first + o->n));

	if (p->steady_max_us)
		json_object_set_new(j, "max_s", json_real((double)p->steady_max_us / 1e6));
	if (o->n)
		json_object_update_new(j, json_pack(
			"{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
			"mean", o->mean, "min", o->min, "max", o->max,
			"range", o->range, "range_pct", o->range_pct,
			"slope", o->slope, "excursion", o->excursion,
			"excursion_pct", o->excursion_pct, "max_dev_pct", o->dev_pct));
	if (!o->steady)
		json_object_set_new(j, "why", json_string(o->why));
	return j;
}

/*
 * The entry's "steady" and its iterations: the window's rounds.  The last
 * one is left in c->metrics / c->extra, where run/exec.c takes every
 * iteration from; when the run was stopped (FINAL != 0) exec takes none,
 * so all are appended here.
 */
static void record(struct rounds *rs, int final)
{
	struct nb_wl_ctx *c = rs->c;
	unsigned last = rs->vd.first + rs->vd.n;
	json_t *j = verdict_json(rs);

	for (unsigned i = 0; i < rs->n; i++)
		json_object_set_new(json_array_get(rs->list, i), "transient",
				    json_boolean(i < rs->vd.first));
	json_object_set(j, "rounds", rs->list);
	json_object_set_new(c->entry, "steady", j);
	for (unsigned i = rs->vd.first; i < last; i++) {
		json_t *m = json_object_get(json_array_get(rs->list, i), "metrics");
		json_t *x = json_array_get(rs->extras, i);

		if (i + 1 < last || final) {
			json_t *copy = json_deep_copy(m);

			json_object_set_new(copy, "steady", json_real(rs->vd.steady));
			nb_result_iteration(c->entry, copy, json_incref(x));
			continue;
		}
		json_object_update(c->metrics, m);
		json_object_set_new(c->metrics, "steady", json_real(rs->vd.steady));
		json_object_update(c->extra, x);
	}
}

/* After round N: tell a test build, and judge. */
static int after_round(struct rounds *rs)
{
	struct nb_wl_ctx *c = rs->c;
	char point[96], detail[64];

	nb_steady_judge(&rs->crit, rs->v, rs->n, rs->window, &rs->vd);
	/* a test build may stop here: "round:seq512k-write:4" */
	snprintf(point, sizeof(point), "round:%s:%u", c->wl->name, rs->n);
	snprintf(detail, sizeof(detail), "steady=%d\n", rs->vd.steady);
	return nb_hook(point, detail, c->stop);
}

static int done(const struct rounds *rs)
{
	return rs->vd.steady || rs->n >= rs->max ||
	       (rs->max_ns && nb_now_ns() - rs->t0 >= rs->max_ns);
}

int nb_wl_steady_run(struct nb_wl_ctx *c, const struct nb_iospec *s)
{
	const struct nb_params *p = c->p;
	struct rounds rs = { .c = c, .window = p->steady_window,
			     .max = p->steady_rounds,
			     .max_ns = p->steady_max_us * 1000,
			     .list = json_array(), .extras = json_array() };
	uint64_t next = s->start, moved = 0;
	struct nb_file *f;
	int rc;

	nb_steady_parse(p->steady, &rs.crit);     /* its row checked it */
	rs.v = calloc(rs.max, sizeof(*rs.v));
	rc = rs.v ? nb_wl_io_open(c, s, &f) : nb_err(-ENOMEM, "out of memory");
	if (rc) {
		json_decref(rs.list);
		json_decref(rs.extras);
		free(rs.v);
		return rc;
	}
	rs.t0 = nb_now_ns();
	while (!rc && !done(&rs)) {
		uint64_t before = next;

		rc = one_round(&rs, f, s, &next);
		moved += next >= before ? next - before : s->size - before + next;
		if (!rc)
			rc = after_round(&rs);
	}
	c->t->ops->fclose(f);
	if (rs.n) {
		nb_steady_judge(&rs.crit, rs.v, rs.n, rs.window, &rs.vd);
		record(&rs, rc != 0);
	}
	/* a block target's window is written once the rounds went round it */
	if (s->rw == NB_RW_WRITE && s->pattern == NB_PAT_SEQ &&
	    (moved >= s->size || next < s->start))
		nb_wl_wrote(c, s->size);
	json_decref(rs.list);
	json_decref(rs.extras);
	free(rs.v);
	return rc;
}

void nb_wl_steady_series(struct nb_wl_ctx *c, const json_t *series,
			 unsigned whole)
{
	const struct nb_params *p = c->p;
	struct rounds rs = { .c = c, .window = p->steady_window };
	unsigned size = (unsigned)json_array_size(series), round_s;
	unsigned n = size < whole ? size : whole;
	double *sec = calloc(n + 1, sizeof(*sec)), *v = calloc(n + 1, sizeof(*v));
	json_t *j;

	round_s = (unsigned)(p->round_us / 1000000);
	if (!round_s)
		round_s = 1;
	nb_steady_parse(p->steady[0] ? p->steady : "snia", &rs.crit);
	for (unsigned i = 0; sec && i < n; i++)
		sec[i] = json_number_value(json_array_get(series, i));
	rs.v = v;
	rs.max = rs.n = sec && v ? nb_steady_rounds(sec, n, round_s, v, n) : 0;
	nb_steady_judge(&rs.crit, v, rs.n, rs.window, &rs.vd);
	j = verdict_json(&rs);
	/* the window's rounds, and where they start in the series */
	json_object_set_new(j, "round_s", json_integer(round_s));
	json_object_set_new(j, "window_first_s", json_integer(
		n - (rs.n - rs.vd.first) * round_s));
	json_object_del(j, "max_rounds");
	json_object_set_new(c->extra, "steady", j);
	free(sec);
	free(v);
}

/* steady state's rows: [suite] steady-state, round, steady-window,
 * steady-rounds, steady-limit (core/knobs.h). */
const struct nb_knob nb_wl_steady_knobs[] = {
	{ .section = "suite", .name = "steady-state", .type = NB_KT_STR,
	  NB_PRM(steady), .unset = "", .check = nb_steady_check,
	  .help = "run each I/O workload once, in rounds, until the last rounds "
	  "agree: snia (SNIA PTS: range 20%, slope 10%), bw:P%, iops:P%, "
	  "bw_slope:P% or iops_slope:P% (docs/steady-state.md)",
	  .opt = "steady-state", .metavar = "CRIT",
	},
	{ .section = "suite", .name = "round", .type = NB_KT_DURATION,
	  NB_PRM(round_us), .min = 100000, .def = "60s",
	  .help = "steady state: the length of a round",
	  .opt = "round", .metavar = "TIME",
	},
	{ .section = "suite", .name = "steady-window", .type = NB_KT_UINT32,
	  NB_PRM(steady_window), .min = 2, .max = 1000, .def = "5",
	  .help = "steady state: rounds judged together",
	  .opt = "steady-window", .metavar = "N",
	},
	{ .section = "suite", .name = "steady-rounds", .type = NB_KT_UINT32,
	  NB_PRM(steady_rounds), .min = 2, .max = 100000, .def = "25",
	  .help = "steady state: the round limit, after which the last window "
	  "is reported, not steady",
	  .opt = "steady-rounds", .metavar = "N",
	},
	{ .section = "suite", .name = "steady-limit", .type = NB_KT_DURATION,
	  NB_PRM(steady_max_us), .unset = "only the round limit", .min = 1000000,
	  .help = "steady state: stop the rounds after this long",
	  .opt = "steady-limit", .metavar = "TIME",
	},
	{ NULL },
};
