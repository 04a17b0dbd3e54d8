/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "engine.h"
#include "engine_rt.h"
#include "../core/clock.h"
#include "../core/compress.h"
#include "../core/datagen.h"
#include "../core/err.h"
#include "../core/hook.h"
#include "../core/samples.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REAP_TIMEOUT_US 100000
#define PROGRESS_NS 250000000ULL

int nb_engine_check(const struct nb_target *t, const struct nb_iospec *s)
{
	const char *name = t->cfg ? t->cfg->name : "?";

	if (!s->bs || !s->qd || s->qd > NB_MAX_QD)
		return nb_err_set("target '%s': block size and queue depth must be "
				  "at least 1 (queue depth at most %d)", name,
				  NB_MAX_QD), -EINVAL;
	if (s->size < s->bs)
		return nb_err_set("target '%s': size %llu is smaller than one block "
				  "of %u bytes", name, (unsigned long long)s->size,
				  s->bs), -EINVAL;
	if (t->block_size > 1 && (s->bs % t->block_size || s->size % t->block_size))
		return nb_err_set("target '%s': block size %u and size must be "
				  "multiples of the target's %u-byte blocks", name,
				  s->bs, t->block_size), -EINVAL;
	return 0;
}

struct slot {
	struct nb_io io;
	uint64_t seq;
};

struct run {
	struct nb_target *t;
	struct nb_file *f;
	const struct nb_iospec *s;
	const struct nb_engine_hooks *h;
	struct nb_io_result *r;
	struct nb_rng rng;
	struct nb_rng drng;      /* the data's (the offsets stay the same) */
	struct nb_access_gen ag; /* where random offsets fall */
	uint64_t start, limit, issued, next_off, blocks, seq;
	struct nb_eng_secs secs;
	unsigned hook_sec;       /* the test build's "io:Ns" reached */
	int inflight, submitting, err;
};

static uint64_t next_offset(struct run *run)
{
	uint64_t off;

	if (run->s->pattern == NB_PAT_RAND &&
	    (run->s->rand_pct <= 0 || run->s->rand_pct >= 100 ||
	     nb_rng_below(&run->rng, 100) < (uint64_t)run->s->rand_pct)) {
		off = (run->s->access.dist == NB_DIST_UNIFORM ?
		       nb_rng_below(&run->rng, run->blocks) :
		       nb_access_next(&run->ag, &run->rng)) * run->s->bs;
		run->next_off = off + run->s->bs;
		if (run->next_off + run->s->bs > run->blocks * run->s->bs)
			run->next_off = 0;
		return off;
	}
	off = run->next_off;
	run->next_off += run->s->bs;
	if (run->next_off + run->s->bs > run->blocks * run->s->bs)
		run->next_off = 0;
	return off;
}

static int pick_op(struct run *run)
{
	if (run->s->rw != NB_RW_MIX)
		return run->s->rw == NB_RW_READ ? NB_OP_READ : NB_OP_WRITE;
	return nb_rng_below(&run->rng, 100) < (uint64_t)run->s->read_pct ?
	       NB_OP_READ : NB_OP_WRITE;
}

static int should_submit(struct run *run, uint64_t now)
{
	if (run->h && run->h->stop && *run->h->stop) {
		run->r->stopped = 1;
		return 0;
	}
	if (run->s->runtime_us && now - run->start >= run->s->runtime_us * 1000) {
		/* a figure needs NB_MEAN_MIN_SAMPLES I/Os (core/samples.h): a
		 * runtime that issued fewer runs on until it has, up to
		 * NB_RUNTIME_STRETCH times, and says so */
		if (run->seq >= NB_MEAN_MIN_SAMPLES ||
		    now - run->start >= NB_RUNTIME_STRETCH * run->s->runtime_us * 1000)
			return 0;
		run->r->stretched = 1;
	}
	return !run->limit || run->issued < run->limit;
}

static int submit_one(struct run *run, struct slot *sl)
{
	struct nb_io *io = &sl->io;
	int rc;

	io->file = run->f;
	io->op = pick_op(run);
	io->off = next_offset(run);
	io->len = run->s->bs;
	io->fua = io->op == NB_OP_WRITE && run->s->sync == NB_SYNC_ALWAYS;
	io->result = 0;
	io->priv = sl;
	sl->seq = ++run->seq;
	if (io->op == NB_OP_WRITE)
		nb_eng_fill(run->s, run->h, run->r, &run->drng, io, sl->seq);
	rc = run->t->ops->submit(run->t, io);
	if (rc < 0)
		return rc;
	/* sent: where fio's issue_time, the start of its clat, is */
	io->t_submit = nb_now_ns();
	run->inflight++;
	run->issued += io->len;
	return 0;
}

static int complete_one(struct run *run, struct nb_io *io, uint64_t now)
{
	int rc;

	run->inflight--;
	rc = nb_eng_done(run->t, run->h, run->r, io, now);
	if (!rc)
		nb_eng_second(&run->secs, run->h, now, io->len);
	return rc;
}

/*
 * One pass, as fio's defaults (iodepth_batch_submit=1,
 * iodepth_batch_complete_min=1, iodepth_batch_complete_max = the min): send
 * an I/O into every free slot, each on its own, then take one completion,
 * waiting for it if there is none, so each slot is refilled before the
 * next completion is taken and the target holds QD I/Os all the time.
 * Completions are timed when taken, not when a runner first sees them:
 * otherwise the depth the target holds falls below the one named
 * (docs/fio.md, "Which latency", has the measurement).
 */
static int pump(struct run *run, struct slot **free_slots, int *nfree)
{
	struct nb_io *done;
	uint64_t now = nb_now_ns();
	int n, rc;

	while (!run->err && run->submitting && *nfree) {
		if (!should_submit(run, now)) {
			run->submitting = 0;
			break;
		}
		rc = submit_one(run, free_slots[*nfree - 1]);
		if (rc < 0) {
			run->err = rc;
			run->submitting = 0;
			break;
		}
		(*nfree)--;
	}
	if (!run->inflight)
		return 0;
	n = run->t->ops->reap(run->t, &done, 1, REAP_TIMEOUT_US);
	if (n < 0) {
		run->inflight = 0;      /* the runner abandoned them all */
		return n;
	}
	if (!n)
		return 0;
	rc = complete_one(run, done, nb_now_ns());
	if (rc < 0 && !run->err) {
		run->err = rc;
		run->submitting = 0;
	}
	free_slots[(*nfree)++] = done->priv;
	return 0;
}

/* The QD slots, each with a buffer of the spec's first data, all free.
 * Reads nobody checks share one buffer where the runner copies into it
 * (not own_read_buffers): the bytes still cross the wire and land in
 * memory, but QD x BS of buffers would thrash the client's cache and cost
 * CPU per I/O that the protocol's own tools do not pay (docs/fio.md).
 * 0 or -ENOMEM; *SHARED whether they share. */
static int engine_slots(struct run *run, struct slot **slots,
			struct slot ***free_slots, int *shared)
{
	const struct nb_iospec *s = run->s;

	*slots = calloc(s->qd, sizeof(**slots));
	*free_slots = calloc(s->qd, sizeof(**free_slots));
	*shared = 0;
	if (!*slots || !*free_slots)
		return nb_err_set("out of memory"), -ENOMEM;
	*shared = !run->t->ops->own_read_buffers && s->rw == NB_RW_READ &&
		  !(run->h && run->h->check);
	for (unsigned i = 0; i < s->qd; i++) {
		struct slot *sl = &(*slots)[i];

		sl->io.buf = *shared && i ? (*slots)[0].io.buf : nb_io_alloc(s->bs);
		if (!sl->io.buf)
			return nb_err_set("out of memory for %u buffers of %u bytes",
					  s->qd, s->bs), -ENOMEM;
		if (!*shared || !i)
			nb_datagen_fill(&run->rng, sl->io.buf, s->bs);
		(*free_slots)[i] = sl;
	}
	return 0;
}

/* The test build stops at "io:Ns" when a run crosses its Nth second (a
 * fault test freezes a server there); the shipped binary returns at
 * once.  0, -EINTR or -errno. */
static int second_hook(struct run *run, uint64_t now)
{
	unsigned sec = (unsigned)((now - run->start) / 1000000000ULL);
	char point[32];

	if (sec <= run->hook_sec || !run->submitting)
		return 0;
	run->hook_sec = sec;
	snprintf(point, sizeof(point), "io:%us", sec);
	return nb_hook(point, NULL, run->h ? run->h->stop : NULL);
}

/* Pump until nothing is left to send or in flight, telling the progress
 * hook every PROGRESS_NS; then flush what was written where the spec
 * asks for durability.  0 or -errno. */
static int engine_loop(struct run *run, struct slot **free_slots)
{
	const struct nb_engine_hooks *h = run->h;
	struct nb_io_result *r = run->r;
	uint64_t last_progress = 0, end;
	int nfree = (int)run->s->qd, rc;

	run->start = nb_now_ns();
	run->secs.start = run->start;
	while (run->submitting || run->inflight) {
		rc = pump(run, free_slots, &nfree);
		if (rc < 0)
			return rc;
		end = nb_now_ns();
		if (h && h->progress && end - last_progress >= PROGRESS_NS) {
			nb_progress_io(h->live, r->ios, &r->lat);
			h->progress(r->bytes_read + r->bytes_written, end - run->start,
				    h->payload);
			last_progress = end;
		}
		rc = second_hook(run, end);
		if (rc == -EINTR)
			r->stopped = 1, run->submitting = 0;
		else if (rc < 0 && !run->err)
			run->err = rc, run->submitting = 0;
	}
	rc = run->err;
	if (!rc)
		rc = nb_eng_flush(run->t, run->f, run->s, h, r);
	return rc;
}

int nb_engine_run(struct nb_target *t, struct nb_file *f,
		  const struct nb_iospec *s, const struct nb_engine_hooks *h,
		  struct nb_io_result *r)
{
	struct run run = { .t = t, .f = f, .s = s, .h = h, .r = r,
			   .submitting = 1 };
	struct slot *slots = NULL, **free_slots = NULL;
	uint64_t end;
	int rc, shared;

	memset(r, 0, sizeof(*r));
	nb_hist_init(&r->lat);
	rc = nb_engine_check(t, s);
	if (rc)
		return rc;
	nb_target_paths_reset(t);     /* each path's figures: this run's */
	if (nb_iospec_open(s))
		return nb_engine_open_run(t, f, s, h, r);
	nb_rng_seed(&run.rng, s->seed ? s->seed : 0x6e62);
	nb_rng_seed(&run.drng, (s->seed ? s->seed : 0x6e62) ^ 0x64617461ULL);
	run.blocks = s->size / s->bs;
	nb_access_init(&run.ag, &s->access, run.blocks);
	run.next_off = s->start - s->start % s->bs;
	if (run.next_off + s->bs > run.blocks * s->bs)
		run.next_off = 0;
	run.limit = s->bytes ? s->bytes : (s->runtime_us ? 0 : s->size);
	rc = engine_slots(&run, &slots, &free_slots, &shared);
	if (!rc)
		rc = engine_loop(&run, free_slots);
	end = nb_now_ns();
	r->elapsed_ns = run.start ? end - run.start : 0;
	if (run.start)
		nb_eng_second_end(&run.secs, h, end);
	for (unsigned i = 0; slots && i < (shared ? 1 : s->qd); i++)
		free(slots[i].io.buf);
	free(slots);
	free(free_slots);
	return rc;
}
