/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crashwrite.c - crashcheck's writers: QD writes in flight until the box
 * stops answering, the [box] crash command run beside them.
 *
 * A crash that waits for the writers to stop gives the box the command's
 * whole run (a power-off over IPMI takes seconds, a transaction group
 * commits every 5 s) to make durable what it never promised: a box that
 * loses writes passes.  So the command starts at the crash point and the
 * writers go on: every write the box acknowledges until it stops
 * answering is journalled with what it promised.  The writes in flight
 * when it stops are journalled as such ('p'): they may read back old or
 * new.  When the command returns and the box never stopped answering, the
 * writers stop and the evidence (crashproof.c) decides whether a crash
 * happened at all.
 */
#include "crash_rt.h"
#include "../../core/clock.h"
#include "../../core/datagen.h"
#include "../../core/err.h"
#include "../../core/hook.h"
#include "../../core/knobs.h"
#include "../../core/spawn.h"
#include "../../core/escape.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOOK_LIMIT_US (600ULL * 1000000)
#define LINE 96

/* The crash command, run to its end in a thread of its own. */
struct hook {
	pthread_t th;
	int started, done;       /* done: read and written with __atomic */
	struct nb_spawn sp;
	char *argv[4];
	int rc;
	char err[512];
	uint64_t t0, t1;
};

struct slot {
	struct nb_io io;
	uint64_t gen;            /* the write's generation */
	int busy;
};

struct writers {
	struct nb_crash_run *cr;
	struct nb_file *f;
	struct slot *slot;
	unsigned char *bufs;
	char (*line)[LINE];      /* a reap's records, journalled at once */
	size_t nline;
	uint32_t inflight;
	uint64_t run_id, since_flush, acked_at_point;
	int stopping, flush_due, gone;
	uint64_t gone_ns;
	char gone_why[512];
	struct hook hook;
};

static void *hook_main(void *arg)
{
	struct hook *h = arg;

	h->rc = nb_spawn_run(&h->sp);
	if (h->rc)
		snprintf(h->err, sizeof(h->err), "%s", nb_err_last());
	h->t1 = nb_now_ns();
	__atomic_store_n(&h->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int hook_done(struct hook *h)
{
	return h->started && __atomic_load_n(&h->done, __ATOMIC_ACQUIRE);
}

static int hook_start(struct writers *w)
{
	struct nb_crash_run *cr = w->cr;
	struct nb_wl_ctx *c = cr->c;
	struct hook *h = &w->hook;
	char acked[32];

	snprintf(acked, sizeof(acked), "%" PRIu64, cr->acked);
	setenv("NASBENCH_CRASH_TARGET", c->t->cfg->name, 1);
	setenv("NASBENCH_CRASH_URL", c->t->desc, 1);
	setenv("NASBENCH_CRASH_ACKED", acked, 1);
	setenv("NASBENCH_CRASH_JOURNAL", cr->path, 1);
	h->argv[0] = "sh";
	h->argv[1] = "-c";
	h->argv[2] = (char *)c->p->crash_cmd;
	h->sp = (struct nb_spawn){ .argv = h->argv, .prog = "/bin/sh", .stop = c->stop,
				   .err_to_out = 1, .limit_us = HOOK_LIMIT_US,
				   .grace_us = 10000000 };
	h->t0 = nb_now_ns();
	if (pthread_create(&h->th, NULL, hook_main, h))
		return nb_err(-EAGAIN, "target '%s': cannot start the crash command",
			      c->t->cfg->name);
	h->started = 1;
	return 0;
}

/* Wait for the command; its status and time into the "crash" object.
 * 0, or -EIO (-EINTR) when it failed (was stopped). */
static int hook_end(struct writers *w)
{
	struct nb_crash_run *cr = w->cr;
	struct nb_wl_ctx *c = cr->c;
	struct hook *h = &w->hook;
	struct nb_spawn *sp = &h->sp;
	int rc = h->rc;

	pthread_join(h->th, NULL);
	json_object_set_new(cr->info, "hook", json_pack(
		"{s:s, s:i, s:f}", "command", c->p->crash_cmd, "status",
		rc ? -1 : sp->status, "seconds", (double)(h->t1 - h->t0) / 1e9));
	if (rc)
		nb_err_set("%s", h->err);
	else if (sp->stopped)
		rc = -EINTR;
	else if (sp->status)
		rc = nb_err(-EIO, "target '%s': the crash command '%s' %s %d%s%s",
			    c->t->cfg->name, c->p->crash_cmd, sp->timed_out ?
			    "timed out, status" : "exited with status", sp->status,
			    sp->out && *sp->out ? ": " : "", sp->out ? sp->out : "");
	nb_spawn_free(sp);
	return rc;
}

/* The crash point: recorded, then the command beside the writers, or the
 * user's plug. */
static int crash_point(struct writers *w)
{
	struct nb_crash_run *cr = w->cr;
	struct nb_wl_ctx *c = cr->c;
	char rec[64], detail[1300];
	int rc;

	cr->at_point = 1;
	w->acked_at_point = cr->acked;
	snprintf(rec, sizeof(rec), "c %d %" PRIu64, c->iteration, cr->acked);
	rc = nb_journal_append(&cr->out, rec);
	json_object_set_new(cr->info, "point", json_pack(
		"{s:I, s:f}", "acked", (json_int_t)cr->acked, "seconds",
		(double)(nb_now_ns() - cr->t0) / 1e9));
	if (rc)
		return rc;
	/* a test build may stop here: "crash:1" */
	snprintf(rec, sizeof(rec), "crash:%d", c->iteration);
	snprintf(detail, sizeof(detail), "acked=%" PRIu64 "\njournal=%s\n",
		 cr->acked, cr->path);
	rc = nb_hook(rec, detail, c->stop);
	if (rc || c->p->crash_cmd[0])
		return rc ? rc : hook_start(w);
	fprintf(stderr, "nasbench: crashcheck on target '%s': %" PRIu64
		" acknowledged writes journalled in '%s': pull the plug now "
		"(crash the box); writing on until it stops answering, then "
		"waiting for it to come back (interrupt to stop and verify later "
		"with: nasbench run BOX.ini -t %s --verify %s)\n",
		c->t->cfg->name, cr->acked, cr->path, c->t->cfg->name, cr->path);
	return 0;
}

static int crash_due(const struct nb_crash_run *cr)
{
	const struct nb_params *p = cr->c->p;
	uint64_t n = p->crash_writes ? p->crash_writes :
		     p->crash_time_us ? 0 : nb_knob_default("suite", "crash-writes");

	if (n && cr->acked >= n)
		return 1;
	return p->crash_time_us &&
	       (nb_now_ns() - cr->t0) / 1000 >= p->crash_time_us;
}

static void record(struct writers *w, const char *fmt, uint64_t a, uint64_t b)
{
	snprintf(w->line[w->nline++], LINE, fmt, a, b);
}

/* The next write number into a free slot, sent. */
static int submit_one(struct writers *w)
{
	struct nb_crash_run *cr = w->cr;
	struct nb_target *t = cr->c->t;
	uint64_t k = cr->next, idx = k % cr->nblocks, gen = k / cr->nblocks + 1;
	struct slot *s = w->slot;
	unsigned char *buf;
	int rc;

	while (s->busy)
		s++;
	buf = s->io.buf;
	for (uint32_t i = 0; i < cr->bs; i += NB_CRASH_BLOCK)
		nb_block_fill(buf + i, NB_CRASH_BLOCK, idx * cr->bs + i, w->run_id, gen);
	s->io = (struct nb_io){ .file = w->f, .op = NB_OP_WRITE, .buf = buf,
				.fua = cr->sync == NB_SYNC_ALWAYS, .len = cr->bs,
				.off = idx * cr->bs, .priv = s };
	rc = t->ops->submit(t, &s->io);
	if (rc)
		return rc;
	s->busy = 1;
	s->gen = gen;
	cr->next++;
	w->inflight++;
	return 0;
}

/* The box stopped answering (after the crash point: the crash). */
static void box_gone(struct writers *w, int rc)
{
	if (w->gone)
		return;
	w->gone = 1;
	w->stopping = 1;
	w->gone_ns = nb_now_ns();
	snprintf(w->gone_why, sizeof(w->gone_why), "%s", rc ? nb_err_last() : "");
	nb_err_clear();
}

/* A finished write: journalled with its promise, or in flight for ever. */
static int complete(struct writers *w, struct slot *s)
{
	struct nb_crash_run *cr = w->cr;
	struct nb_io *io = &s->io;
	uint64_t gen = s->gen;
	char p;

	s->busy = 0;
	w->inflight--;
	if (io->result != (int64_t)cr->bs) {
		if (!cr->at_point)
			return io->result < 0 ? (int)io->result : nb_err(-EIO,
				"target '%s': crashcheck: short write at offset %"
				PRIu64, cr->c->t->cfg->name, io->off);
		box_gone(w, (int)io->result);
		record(w, "p %" PRIu64 " %" PRIu64, io->off, gen);
		return 0;
	}
	p = io->promise == NB_PROMISE_DURABLE ? 'd' : io->promise == NB_PROMISE_CACHED ?
	    'c' : cr->sync == NB_SYNC_ALWAYS ? 'd' : 'c';
	snprintf(w->line[w->nline++], LINE, "a %" PRIu64 " %" PRIu64 " %c %" PRIx64,
		 io->off, gen, p, io->verf);
	if (io->verf && !cr->proof.verf_before) {
		cr->proof.verf_before = io->verf;
		snprintf(w->line[w->nline++], LINE, "b verf %" PRIx64, io->verf);
	}
	cr->acked++;
	w->since_flush++;
	return 0;
}

/* The reap: the one call of the runner's reap() in crashcheck.  Negative:
 * the target is lost and every write in flight was abandoned. */
static int reap_some(struct writers *w, int timeout_ms)
{
	struct nb_target *t = w->cr->c->t;
	struct nb_io *done[NB_MAX_QD];
	int n = t->ops->reap(t, done, (int)w->cr->qd,
				 timeout_ms * 1000), rc = 0;

	if (n < 0) {
		if (!w->cr->at_point)
			return n;
		box_gone(w, n);
		for (uint32_t i = 0; i < w->cr->qd; i++)
			if (w->slot[i].busy) {
				w->slot[i].busy = 0;
				record(w, "p %" PRIu64 " %" PRIu64, w->slot[i].io.off,
				       w->slot[i].gen);
			}
		w->inflight = 0;
		return 0;
	}
	for (int i = 0; i < n && !rc; i++)
		rc = complete(w, done[i]->priv);
	return rc;
}

/* sync = end: a flush after every QD acknowledged writes, none in flight:
 * it covers every write journalled before its 'f' record. */
static int flush_now(struct writers *w)
{
	struct nb_crash_run *cr = w->cr;
	char rec[64];
	int rc = cr->c->t->ops->flush(w->f);

	w->flush_due = 0;
	if (rc && cr->at_point) {
		box_gone(w, rc);
		return 0;
	}
	if (rc)
		return rc;
	w->since_flush = 0;
	snprintf(rec, sizeof(rec), "f %" PRIx64, cr->c->t->verf);
	return nb_journal_append(&cr->out, rec);
}

/* One round: fill the queue, reap, journal what finished. */
static int round_trip(struct writers *w)
{
	struct nb_crash_run *cr = w->cr;
	char *lines[2 * NB_MAX_QD + 8];
	int rc = 0;

	while (!w->stopping && !w->flush_due && w->inflight < cr->qd && !rc) {
		rc = submit_one(w);
		if (rc && cr->at_point) {
			box_gone(w, rc);
			rc = 0;
		}
	}
	if (rc)
		return rc;
	if (!w->inflight)
		return w->flush_due && !w->stopping ? flush_now(w) : 0;
	w->nline = 0;
	rc = reap_some(w, 100);
	for (size_t i = 0; i < w->nline; i++)
		lines[i] = w->line[i];
	if (!rc && w->nline)
		rc = nb_journal_append_n(&cr->out, lines, w->nline);
	if (cr->sync == NB_SYNC_END && w->since_flush >= cr->qd)
		w->flush_due = 1;
	return rc;
}

static int writers_open(struct writers *w, struct nb_crash_run *cr)
{
	struct nb_wl_ctx *c = cr->c;
	unsigned flags = NB_F_READ | NB_F_WRITE | NB_F_CREATE | NB_F_DIRECT |
			 (cr->sync == NB_SYNC_ALWAYS ? NB_F_SYNC : 0);

	memset(w, 0, sizeof(*w));
	w->cr = cr;
	w->run_id = nb_fnv1a(c->run_id, strlen(c->run_id), 0);
	w->slot = calloc(cr->qd, sizeof(*w->slot));
	w->line = calloc(2 * (size_t)cr->qd + 8, LINE);
	w->bufs = nb_io_alloc((size_t)cr->qd * cr->bs);
	if (!w->slot || !w->line || !w->bufs)
		return nb_err(-ENOMEM, "out of memory");
	for (uint32_t i = 0; i < cr->qd; i++)
		w->slot[i].io.buf = w->bufs + (size_t)i * cr->bs;
	return c->t->ops->fopen(c->t, NB_CRASH_FILE, flags, &w->f);
}

/* What the writers did at and after the crash point, for the result. */
static void writers_info(struct writers *w)
{
	struct nb_crash_run *cr = w->cr;
	json_t *o;

	if (!cr->at_point)
		return;
	o = json_pack("{s:I, s:I, s:b}", "acked_after_point",
		      (json_int_t)(cr->acked - w->acked_at_point), "queue_depth",
		      (json_int_t)cr->qd, "stopped_answering", w->gone);
	if (w->gone && w->hook.started)
		json_object_set_new(o, "stopped_after_s", json_real(
			(double)(w->gone_ns - w->hook.t0) / 1e9));
	if (w->gone)
		json_object_set_new(o, "why", nb_json_text(w->gone_why));
	json_object_set_new(cr->info, "writers", o);
}

static void writers_close(struct writers *w, int rc)
{
	struct nb_wl_ctx *c = w->cr->c;
	char keep[1024];

	snprintf(keep, sizeof(keep), "%s", nb_err_last());
	if (w->f)
		c->t->ops->fclose(w->f);  /* the box may be gone: whatever it says */
	nb_err_clear();
	if (rc)
		nb_err_set("%s", keep);
	free(w->slot);
	free(w->line);
	free(w->bufs);
}

int nb_crash_write_phase(struct nb_crash_run *cr)
{
	struct nb_wl_ctx *c = cr->c;
	struct writers w;
	char label[160];
	int rc = writers_open(&w, cr), hrc;
	unsigned rounds = 0;

	snprintf(label, sizeof(label), "crashcheck on %s (%d/%d)",
		 c->t->cfg->name, c->iteration, c->iterations);
	nb_progress_begin(c->progress, label, 0, 0);
	cr->t0 = nb_now_ns();
	while (!rc) {
		if (*c->stop) {
			rc = -EINTR;
			break;
		}
		/* the command is done and the box still answers: stop */
		if (cr->at_point && hook_done(&w.hook))
			w.stopping = 1;
		if (w.stopping && !w.inflight)
			break;
		rc = round_trip(&w);
		if ((++rounds & 15) == 0)
			nb_progress_update(c->progress, cr->acked * cr->bs,
					   nb_now_ns() - cr->t0);
		if (!rc && !cr->at_point && crash_due(cr))
			rc = crash_point(&w);
	}
	nb_progress_end(c->progress);
	writers_info(&w);
	if (w.hook.started) {
		hrc = hook_end(&w);
		rc = rc ? rc : hrc;
	}
	writers_close(&w, rc);
	return rc;
}
