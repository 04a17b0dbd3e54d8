/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine_open.c - the open loop: each I/O is issued when its source's
 * arrival process says it is due, not when a slot frees
 * (docs/capacity.md, "Open and closed loops").
 *
 * One thread.  Sources (VMs) each have an arrival process, a region of the
 * file and a stream of offsets of their own; a heap orders them by their
 * next arrival.  An arrival that is due goes to the client's queue, and
 * from there into a free slot (QD slots: the most in flight); one that
 * finds no slot waits there, counted (queued), its time still running.
 * The thread waits for a completion or the next arrival, whichever comes
 * first, to the microsecond (reap's timeout), so an I/O leaves within
 * tens of microseconds of its time on an idle client.  Each I/O is timed
 * from its intended time (response) and from its submission (service,
 * as fio's clat); the start of its submission against the intended time
 * is its lateness.  A submission that blocks would hold up every arrival
 * behind it: the I/O is marked nowait, and the runner keeps it from
 * blocking (posix: IOSQE_ASYNC once one blocked; NFS and iSCSI send on a
 * non-blocking socket).
 *
 * Validity is judged on the schedule's last four fifths (the first fills
 * the pipe): completions per second there against arrivals per second
 * there, counted in 100 ms buckets.  When the schedule ends, what is
 * queued is still issued and waited for, up to a drain limit; what is
 * left then is abandoned, counted.
 */
#include "engine_rt.h"
#include "../core/clock.h"
#include "../core/err.h"
#include "../core/hook.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>

#define BUCKET_NS 100000000ULL           /* counts per 100 ms */
#define MAX_QUEUE (1u << 22)             /* arrivals waiting for a slot */
#define REAP_MAX 64
#define ADMIT_MAX 1024
#define WAIT_MAX_US 100000               /* wake at least this often */
#define PROGRESS_NS 250000000ULL
#define TIMER_SLACK_NS 10000UL           /* 10 us, not the default 50 */
#define DRAIN_MIN_NS 1000000000ULL
#define DRAIN_MAX_NS 60000000000ULL

struct osrc {
	struct nb_arrivals arr;
	struct nb_rng rng;       /* offsets and the read/write mix */
	struct nb_access_gen ag; /* where its random offsets fall */
	uint64_t due;            /* its next arrival, ns from the start */
	uint64_t base, blocks, next_off;
	uint32_t bs, bs_write;   /* its reads', its writes' */
	int rw, read_pct, pattern, rand_pct;
};

struct entry {
	uint64_t due;
	uint32_t src;
	uint32_t queued;         /* found every slot busy */
};

struct oslot {
	struct nb_io io;
	uint64_t intended;       /* absolute ns */
};

struct oloop {
	struct nb_target *t;
	struct nb_file *f;
	const struct nb_iospec *s;
	const struct nb_engine_hooks *h;
	struct nb_io_result *r;
	struct nb_open_result *o;
	struct osrc *src;
	uint32_t nsrc;
	uint32_t *heap;
	struct entry *q;         /* a ring: QHEAD, QLEN of QCAP */
	size_t qcap, qhead, qlen;
	struct oslot *slots;
	struct oslot **free;
	int nfree, inflight, err, over;
	uint64_t start, end_ns, limit, seq, drain_until, cpu0;
	uint64_t last_arrival;
	struct nb_rng drng;      /* the data written */
	uint32_t *arr_b, *done_b;
	uint64_t *bytes_b;
	size_t nbuckets;
	int whole;               /* one ON/OFF source in whole cycles: the
				  * window is the whole schedule */
	uint64_t sched_done, sched_bytes;   /* completions while it ran */
	struct nb_eng_secs secs;
	unsigned hook_sec;
};

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* ---- sources ------------------------------------------------------------ */

/* Source I's profile: the spec's own, or its SRC row. */
static int source_profile(const struct oloop *lp, uint32_t i,
			  struct nb_source *d)
{
	const struct nb_iospec *s = lp->s;
	uint64_t slice;

	if (s->src) {
		*d = s->src[i];
		if (!d->bs)
			d->bs = s->bs;
		if (!d->bs_write)
			d->bs_write = d->bs;
		if (d->bs > s->bs || d->bs_write > s->bs || !(d->rate > 0) ||
		    d->size < d->bs || d->size / d->bs * d->bs < d->bs_write ||
		    d->base + d->size > s->size ||
		    (lp->t->block_size > 1 && (d->bs % lp->t->block_size ||
					       d->bs_write % lp->t->block_size ||
					       d->base % lp->t->block_size)))
			return nb_err(-EINVAL, "target '%s': source %u's block size, "
				      "rate or region does not fit the run (block "
				      "size at most %u, region inside %llu bytes)",
				      lp->t->cfg->name, i + 1, s->bs,
				      (unsigned long long)s->size);
		return 0;
	}
	slice = s->size / s->bs / lp->nsrc;
	if (!slice)
		return nb_err(-EINVAL, "target '%s': %u sources over %llu bytes: "
			      "each needs at least one block of %u bytes",
			      lp->t->cfg->name, lp->nsrc,
			      (unsigned long long)s->size, s->bs);
	*d = (struct nb_source){ .rate = s->rate / lp->nsrc, .rw = s->rw,
				 .read_pct = s->read_pct, .pattern = s->pattern,
				 .rand_pct = s->rand_pct, .bs = s->bs,
				 .bs_write = s->bs, .base = (uint64_t)i * slice * s->bs,
				 .size = slice * s->bs };
	return 0;
}

/* The source's next arrival; where its whole cycles end, the schedule
 * does. */
static void source_next(struct oloop *lp, struct osrc *sc)
{
	sc->due = nb_arrivals_next(&sc->arr);
	if (sc->arr.end > 0 && (uint64_t)sc->arr.end < lp->end_ns)
		lp->end_ns = (uint64_t)sc->arr.end;
}

static int source_init(struct oloop *lp, uint32_t i)
{
	const struct nb_iospec *s = lp->s;
	struct osrc *sc = &lp->src[i];
	uint64_t seed = mix(s->seed ^ mix(i));
	struct nb_source d = { 0 };
	int rc = source_profile(lp, i, &d);

	if (rc)
		return rc;
	if (nb_arrivals_init(&sc->arr, s->arrival, d.rate, s->burst_on_us,
			     s->burst_off_us, mix(seed)))
		return nb_err(-EINVAL, "target '%s': no arrival process '%s' at "
			      "%.6g I/Os per second (bursts of %llu us, pauses "
			      "of %llu us)", lp->t->cfg->name,
			      nb_arrival_name(s->arrival) ? nb_arrival_name(s->arrival)
			      : "?", d.rate, (unsigned long long)s->burst_on_us,
			      (unsigned long long)s->burst_off_us);
	nb_rng_seed(&sc->rng, seed);
	/* one ON/OFF source runs whole cycles (arrival.h): a short run is
	 * never one pause, and its rate is that of whole bursts and pauses */
	if (lp->nsrc == 1 && !s->src && lp->end_ns && s->arrival == NB_ARR_ONOFF) {
		nb_arrivals_cycles(&sc->arr, (double)lp->end_ns);
		lp->whole = 1;
	}
	source_next(lp, sc);
	sc->base = d.base;
	sc->bs = d.bs;
	sc->bs_write = d.bs_write;
	sc->blocks = d.size / d.bs;
	/* a VM's hot set: the first blocks of its own region */
	nb_access_init(&sc->ag, &s->access, sc->blocks);
	sc->rw = d.rw;
	sc->read_pct = d.read_pct;
	sc->pattern = d.pattern;
	sc->rand_pct = d.rand_pct;
	/* one source starts where the spec says; many each at a point of
	 * their own, so no two streams walk the same blocks in step */
	if (lp->nsrc == 1 && !s->src)
		sc->next_off = (s->start - s->start % d.bs) % (sc->blocks * d.bs);
	else
		sc->next_off = nb_rng_below(&sc->rng, sc->blocks) * d.bs;
	return 0;
}

static void heap_down(struct oloop *lp, uint32_t i)
{
	uint32_t *hp = lp->heap, n = lp->nsrc;

	for (;;) {
		uint32_t l = 2 * i + 1, m = i;

		if (l < n && lp->src[hp[l]].due < lp->src[hp[m]].due)
			m = l;
		if (l + 1 < n && lp->src[hp[l + 1]].due < lp->src[hp[m]].due)
			m = l + 1;
		if (m == i)
			return;
		uint32_t x = hp[i];

		hp[i] = hp[m];
		hp[m] = x;
		i = m;
	}
}

static int sources_init(struct oloop *lp)
{
	const struct nb_iospec *s = lp->s;
	int rc;

	lp->nsrc = s->src ? s->nsrc : (s->sources ? s->sources : 1);
	if (!lp->nsrc)
		return nb_err(-EINVAL, "target '%s': an open loop without sources",
			      lp->t->cfg->name);
	lp->src = calloc(lp->nsrc, sizeof(*lp->src));
	lp->heap = calloc(lp->nsrc, sizeof(*lp->heap));
	if (!lp->src || !lp->heap)
		return nb_err(-ENOMEM, "out of memory for %u sources", lp->nsrc);
	for (uint32_t i = 0; i < lp->nsrc; i++) {
		rc = source_init(lp, i);
		if (rc)
			return rc;
		lp->heap[i] = i;
	}
	for (uint32_t i = lp->nsrc / 2 + 1; i-- > 0;)
		heap_down(lp, i);
	return 0;
}

/* ---- the client's queue and the buckets --------------------------------- */

static int queue_push(struct oloop *lp, struct entry e)
{
	if (lp->qlen == lp->qcap) {
		size_t cap = lp->qcap ? lp->qcap * 2 : 1024;
		struct entry *q;

		if (cap > MAX_QUEUE)
			return -ENOSPC;
		q = malloc(cap * sizeof(*q));
		if (!q)
			return -ENOMEM;
		for (size_t i = 0; i < lp->qlen; i++)
			q[i] = lp->q[(lp->qhead + i) % lp->qcap];
		free(lp->q);
		lp->q = q;
		lp->qcap = cap;
		lp->qhead = 0;
	}
	lp->q[(lp->qhead + lp->qlen++) % lp->qcap] = e;
	return 0;
}

static struct entry queue_pop(struct oloop *lp)
{
	struct entry e = lp->q[lp->qhead];

	lp->qhead = (lp->qhead + 1) % lp->qcap;
	lp->qlen--;
	return e;
}

/* Make the buckets reach time REL (ns from the start): its index, or
 * (size_t)-1 when memory ran out (the window's counts lose it). */
static size_t bucket_of(struct oloop *lp, uint64_t rel)
{
	size_t k = (size_t)(rel / BUCKET_NS);

	if (k >= lp->nbuckets) {
		size_t n = k + 64;
		uint32_t *a = realloc(lp->arr_b, n * sizeof(*a));
		uint32_t *d = a ? realloc(lp->done_b, n * sizeof(*d)) : NULL;
		uint64_t *y = d ? realloc(lp->bytes_b, n * sizeof(*y)) : NULL;

		if (a)
			lp->arr_b = a;
		if (d)
			lp->done_b = d;
		if (!y)
			return (size_t)-1;
		lp->bytes_b = y;
		memset(lp->arr_b + lp->nbuckets, 0, (n - lp->nbuckets) * sizeof(*a));
		memset(lp->done_b + lp->nbuckets, 0, (n - lp->nbuckets) * sizeof(*d));
		memset(lp->bytes_b + lp->nbuckets, 0, (n - lp->nbuckets) * sizeof(*y));
		lp->nbuckets = n;
	}
	return k;
}

/* Count an arrival due at REL. */
static void bucket_arrival(struct oloop *lp, uint64_t rel)
{
	size_t k = bucket_of(lp, rel);

	if (k != (size_t)-1)
		lp->arr_b[k]++;
}

/* Count a completion of LEN bytes at REL. */
static void bucket_done(struct oloop *lp, uint64_t rel, uint32_t len)
{
	size_t k = bucket_of(lp, rel);

	if (k != (size_t)-1) {
		lp->done_b[k]++;
		lp->bytes_b[k] += len;
	}
}

/* ---- arrivals, issues, completions -------------------------------------- */

static uint64_t thread_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}

/* Stop making arrivals (the schedule's end, a stop, an error), ABANDON_QUEUE
 * or not; the engine thread's CPU over the schedule is taken here. */
static void end_schedule(struct oloop *lp, int abandon_queue)
{
	if (!lp->over) {
		lp->o->sched_cpu_ns = thread_cpu_ns() - lp->cpu0;
		lp->o->sched_wall_ns = nb_now_ns() - lp->start;
	}
	lp->over = 1;
	if (abandon_queue) {
		lp->o->abandoned += lp->qlen;
		lp->qlen = 0;
	}
}

/* Move the arrivals due by REL into the client's queue, at most
 * ADMIT_MAX at a time (a generator that cannot keep up still issues and
 * reaps between batches). */
static void admit(struct oloop *lp, uint64_t rel)
{
	for (unsigned k = 0; k < ADMIT_MAX && !lp->over; k++) {
		struct osrc *sc = &lp->src[lp->heap[0]];
		struct entry e = { sc->due, lp->heap[0], 0 };

		/* the schedule ends at its end, not at the first arrival
		 * after it (an ON/OFF pause would stretch it) */
		if (lp->end_ns && sc->due >= lp->end_ns) {
			if (rel >= lp->end_ns)
				end_schedule(lp, 0);
			return;
		}
		if (sc->due > rel)
			return;
		if (lp->limit && lp->o->arrivals >= lp->limit) {
			end_schedule(lp, 0);
			return;
		}
		e.queued = lp->qlen >= (size_t)lp->nfree;
		if (queue_push(lp, e)) {
			lp->o->abandoned++;     /* the client cannot hold it */
		} else {
			lp->o->queued += e.queued;
		}
		lp->o->arrivals++;
		lp->last_arrival = sc->due;
		bucket_arrival(lp, sc->due);
		source_next(lp, sc);
		heap_down(lp, 0);
	}
}

/* A random offset of LEN bytes by the source's distribution: its block
 * (of its reads' size), aligned down to LEN, inside its span. */
static uint64_t hot_offset(struct osrc *sc, uint64_t span, uint32_t len)
{
	uint64_t off = nb_access_next(&sc->ag, &sc->rng) * sc->bs;

	off -= off % len;
	return off + len > span ? (span / len - 1) * len : off;
}

/* The offset of the source's next I/O of LEN bytes: a random one is
 * aligned to its own length (fio's blockalign), a sequential one follows
 * the I/O before it, whatever that one's length. */
static uint64_t source_offset(struct osrc *sc, uint32_t len)
{
	uint64_t span = sc->blocks * sc->bs, off;

	if (sc->pattern == NB_PAT_RAND &&
	    (sc->rand_pct <= 0 || sc->rand_pct >= 100 ||
	     nb_rng_below(&sc->rng, 100) < (uint64_t)sc->rand_pct))
		off = sc->ag.dist == NB_DIST_UNIFORM ?
		      nb_rng_below(&sc->rng, span / len) * len :
		      hot_offset(sc, span, len);
	else
		off = sc->next_off + len > span ? 0 : sc->next_off;
	sc->next_off = off + len;
	if (sc->next_off + sc->bs > span)
		sc->next_off = 0;
	return sc->base + off;
}

static int source_op(struct osrc *sc)
{
	if (sc->rw != NB_RW_MIX)
		return sc->rw == NB_RW_READ ? NB_OP_READ : NB_OP_WRITE;
	return nb_rng_below(&sc->rng, 100) < (uint64_t)sc->read_pct ?
	       NB_OP_READ : NB_OP_WRITE;
}

/* Send E's I/O in slot SL.  0 or -errno. */
static int issue(struct oloop *lp, struct oslot *sl, struct entry e)
{
	struct nb_open_result *o = lp->o;
	struct osrc *sc = &lp->src[e.src];
	struct nb_io *io = &sl->io;
	uint64_t t0, late;
	int rc;

	io->file = lp->f;
	io->op = source_op(sc);
	io->len = io->op == NB_OP_WRITE ? sc->bs_write : sc->bs;
	io->off = source_offset(sc, io->len);
	io->fua = io->op == NB_OP_WRITE && lp->s->sync == NB_SYNC_ALWAYS;
	io->nowait = 1;
	io->result = 0;
	io->priv = sl;
	sl->intended = lp->start + e.due;
	if (io->op == NB_OP_WRITE)
		nb_eng_fill(lp->s, lp->h, lp->r, &lp->drng, io, ++lp->seq);
	t0 = nb_now_ns();
	late = t0 > sl->intended ? t0 - sl->intended : 0;
	nb_hist_add(&o->late, late);
	if (late > NB_LATE_NS) {
		o->late_ios++;
		o->late_free += !e.queued;
	}
	rc = lp->t->ops->submit(lp->t, io);
	if (rc < 0)
		return rc;
	o->issued++;
	io->t_submit = nb_now_ns();
	nb_hist_add(&o->slat, io->t_submit - t0);
	o->blocked += io->t_submit - t0 > NB_BLOCKED_NS;
	lp->inflight++;
	if (lp->h && lp->h->src_count) {
		struct nb_src_count *n = &lp->h->src_count[e.src];

		if (io->op == NB_OP_WRITE)
			n->writes++;
		else
			n->reads++;
	}
	return 0;
}

/* Issue what is queued into the free slots. */
static void issue_queued(struct oloop *lp)
{
	while (!lp->err && lp->nfree && lp->qlen) {
		struct oslot *sl = lp->free[--lp->nfree];
		int rc = issue(lp, sl, queue_pop(lp));

		if (rc < 0) {
			lp->free[lp->nfree++] = sl;
			lp->err = rc;
		}
	}
}

static void complete(struct oloop *lp, struct nb_io *io, uint64_t now)
{
	struct oslot *sl = io->priv;
	int rc;

	lp->inflight--;
	lp->free[lp->nfree++] = sl;
	rc = nb_eng_done(lp->t, lp->h, lp->r, io, now);
	if (rc < 0) {
		if (!lp->err)
			lp->err = rc;
		return;
	}
	nb_hist_add(&lp->o->resp, now > sl->intended ? now - sl->intended : 0);
	bucket_done(lp, now - lp->start, io->len);
	if (now - lp->start < lp->end_ns) {
		lp->sched_done++;
		lp->sched_bytes += io->len;
	}
	nb_eng_second(&lp->secs, lp->h, now, io->len);
}

/* ---- the loop ----------------------------------------------------------- */

/* How long the thread may wait at REL: until the next arrival (or a
 * while, once the schedule is over), in microseconds. */
static int wait_us(const struct oloop *lp, uint64_t rel)
{
	uint64_t due;

	if (lp->over || lp->qlen)
		return lp->qlen && lp->nfree ? 0 : WAIT_MAX_US;
	due = lp->src[lp->heap[0]].due;
	if (lp->end_ns && due > lp->end_ns)
		due = lp->end_ns;
	if (due <= rel)
		return 0;
	return due - rel > (uint64_t)WAIT_MAX_US * 1000 ? WAIT_MAX_US :
	       (int)((due - rel) / 1000);
}

/* Wait for completions (or the next arrival) and take them.  0, or
 * -errno when the runner lost the target. */
static int wait_and_reap(struct oloop *lp, uint64_t rel)
{
	struct nb_io *done[REAP_MAX];
	int us = wait_us(lp, rel), n;
	uint64_t now, t0 = nb_now_ns();

	if (!lp->inflight) {
		struct timespec ts;
		uint64_t until = lp->start + rel + (uint64_t)us * 1000;

		if (!us)
			return 0;
		ts.tv_sec = (time_t)(until / 1000000000ULL);
		ts.tv_nsec = (long)(until % 1000000000ULL);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (!lp->over)
			lp->o->idle_ns += nb_now_ns() - t0;
		return 0;
	}
	n = lp->t->ops->reap(lp->t, done, REAP_MAX, us);
	if (n < 0) {
		lp->inflight = 0;       /* the runner abandoned them all */
		return n;
	}
	now = nb_now_ns();
	/* time spent waiting for the box or the next arrival */
	if (us && !lp->over)
		lp->o->idle_ns += now - t0;
	for (int i = 0; i < n; i++)
		complete(lp, done[i], now);
	return 0;
}

/* The progress line, the test build's per-second hook ("io:5s"). */
static int tick(struct oloop *lp, uint64_t now, uint64_t *last)
{
	const struct nb_engine_hooks *h = lp->h;
	unsigned sec = (unsigned)((now - lp->start) / 1000000000ULL);
	char point[32];

	if (h && h->progress && now - *last >= PROGRESS_NS) {
		nb_progress_io(h->live, lp->r->ios, &lp->o->resp);
		h->progress(lp->r->bytes_read + lp->r->bytes_written,
			    now - lp->start, h->payload);
		*last = now;
	}
	if (sec > lp->hook_sec && !lp->over) {
		lp->hook_sec = sec;
		snprintf(point, sizeof(point), "io:%us", sec);
		return nb_hook(point, NULL, h ? h->stop : NULL);
	}
	return 0;
}

/* After the schedule, how long what is queued may still be issued: a
 * quarter of the schedule, within DRAIN_MIN_NS..DRAIN_MAX_NS. */
static uint64_t drain_ns(const struct oloop *lp)
{
	uint64_t d = (lp->end_ns ? lp->end_ns : lp->last_arrival) / 4;

	return d < DRAIN_MIN_NS ? DRAIN_MIN_NS : d > DRAIN_MAX_NS ? DRAIN_MAX_NS : d;
}

static int open_loop(struct oloop *lp)
{
	const struct nb_engine_hooks *h = lp->h;
	uint64_t last = 0, now, rel;
	int rc = 0;

	for (;;) {
		now = nb_now_ns();
		rel = now - lp->start;
		if (h && h->stop && *h->stop)
			lp->r->stopped = 1;
		if (!lp->over && (lp->r->stopped || lp->err))
			end_schedule(lp, 1);
		admit(lp, rel);
		if (lp->over && !lp->drain_until)
			lp->drain_until = now + drain_ns(lp);
		if (lp->over && lp->qlen && now > lp->drain_until)
			end_schedule(lp, 1);
		issue_queued(lp);
		if (lp->over && !lp->qlen && !lp->inflight)
			break;
		rc = wait_and_reap(lp, rel);
		if (rc < 0)
			break;
		rc = tick(lp, nb_now_ns(), &last);
		if (rc == -EINTR)
			lp->r->stopped = 1;
		else if (rc < 0 && !lp->err)
			lp->err = rc;
		rc = 0;
	}
	return lp->err ? lp->err : rc;
}

/* Offered and achieved rates over the schedule's last four fifths, from
 * the 100 ms buckets; a schedule too short for two buckets there is
 * judged whole.  Whole ON/OFF cycles are judged whole: a burst's I/Os
 * complete in the pause after it, inside the schedule, and a window that
 * cut a cycle would count a burst's part. */
static void window(struct oloop *lp, uint64_t elapsed)
{
	struct nb_open_result *o = lp->o;
	uint64_t len = lp->end_ns ? lp->end_ns : lp->last_arrival;
	size_t b1 = (size_t)(len / BUCKET_NS), b0 = b1 / 5;
	uint64_t arr = 0, done = 0, bytes = 0;

	o->sched_ns = len;
	if (lp->whole && len) {
		o->window_s = (double)len / 1e9;
		o->offered_iops = (double)o->arrivals / o->window_s;
		o->achieved_iops = (double)lp->sched_done / o->window_s;
		o->achieved_bps = (double)lp->sched_bytes / o->window_s;
		return;
	}
	if (b1 >= b0 + 2) {
		for (size_t k = b0; k < b1 && k < lp->nbuckets; k++) {
			arr += lp->arr_b[k];
			done += lp->done_b[k];
			bytes += lp->bytes_b[k];
		}
		o->window_s = (double)(b1 - b0) * BUCKET_NS / 1e9;
		o->offered_iops = (double)arr / o->window_s;
		o->achieved_iops = (double)done / o->window_s;
		o->achieved_bps = (double)bytes / o->window_s;
		return;
	}
	if (!len || !elapsed)
		return;
	o->window_s = (double)len / 1e9;
	o->offered_iops = (double)o->arrivals / o->window_s;
	elapsed = elapsed > len ? elapsed : len;
	o->achieved_iops = (double)lp->r->ios / ((double)elapsed / 1e9);
	o->achieved_bps = (double)(lp->r->bytes_read + lp->r->bytes_written) /
			  ((double)elapsed / 1e9);
}

/* QD slots with a buffer of the spec's block size each (reads nobody
 * checks share one where the runner copies into it: engine.c says why). */
static int slots_init(struct oloop *lp)
{
	const struct nb_iospec *s = lp->s;
	int shared = !lp->t->ops->own_read_buffers && s->rw == NB_RW_READ &&
		     !s->src && !(lp->h && lp->h->check);
	struct nb_rng rng;

	lp->slots = calloc(s->qd, sizeof(*lp->slots));
	lp->free = calloc(s->qd, sizeof(*lp->free));
	if (!lp->slots || !lp->free)
		return nb_err(-ENOMEM, "out of memory");
	nb_rng_seed(&rng, mix(s->seed));
	nb_rng_seed(&lp->drng, mix(s->seed ^ 0x64617461ULL));
	for (unsigned i = 0; i < s->qd; i++) {
		struct oslot *sl = &lp->slots[i];

		sl->io.buf = shared && i ? lp->slots[0].io.buf : nb_io_alloc(s->bs);
		if (!sl->io.buf)
			return nb_err(-ENOMEM, "out of memory for %u buffers of %u "
				      "bytes", s->qd, s->bs);
		if (!shared || !i)
			nb_datagen_fill(&rng, sl->io.buf, s->bs);
		lp->free[lp->nfree++] = sl;
	}
	return 0;
}

static void oloop_free(struct oloop *lp)
{
	const struct nb_iospec *s = lp->s;
	int shared = !lp->t->ops->own_read_buffers && s->rw == NB_RW_READ &&
		     !s->src && !(lp->h && lp->h->check);

	for (unsigned i = 0; lp->slots && i < s->qd; i++)
		if (!shared || !i)
			free(lp->slots[i].io.buf);
	free(lp->slots);
	free(lp->free);
	free(lp->src);
	free(lp->heap);
	free(lp->q);
	free(lp->arr_b);
	free(lp->done_b);
	free(lp->bytes_b);
}

int nb_engine_open_run(struct nb_target *t, struct nb_file *f,
		       const struct nb_iospec *s,
		       const struct nb_engine_hooks *h, struct nb_io_result *r)
{
	struct oloop lp = { .t = t, .f = f, .s = s, .h = h, .r = r,
			    .o = &r->open };
	int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	uint64_t end;
	int rc;

	r->is_open = 1;
	nb_hist_init(&r->open.resp);
	nb_hist_init(&r->open.late);
	nb_hist_init(&r->open.slat);
	r->open.rate = s->rate;
	lp.end_ns = s->runtime_us * 1000;
	/* without a time, the schedule makes the I/Os the size (or bytes) holds */
	if (!lp.end_ns)
		lp.limit = (s->bytes ? s->bytes : s->size) / s->bs;
	rc = sources_init(&lp);
	if (!rc)
		rc = slots_init(&lp);
	if (!rc && h && h->src_count)
		memset(h->src_count, 0, lp.nsrc * sizeof(*h->src_count));
	r->open.sources = lp.nsrc;
	if (rc) {
		oloop_free(&lp);
		return rc;
	}
	prctl(PR_SET_TIMERSLACK, TIMER_SLACK_NS, 0, 0, 0);
	lp.cpu0 = thread_cpu_ns();
	lp.start = nb_now_ns();
	lp.secs.start = lp.start;
	rc = open_loop(&lp);
	end = nb_now_ns();
	r->open.cpu_ns = thread_cpu_ns() - lp.cpu0;
	if (slack > 0)
		prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
	r->elapsed_ns = end - lp.start;
	nb_eng_second_end(&lp.secs, h, end);
	window(&lp, r->elapsed_ns);
	r->open.cycles = lp.src[0].arr.horizon > 0 ? (int)lp.src[0].arr.cycles : -1;
	r->open.cut = lp.src[0].arr.cut;
	if (!rc)
		rc = nb_eng_flush(t, f, s, h, r);
	oloop_free(&lp);
	return rc;
}
