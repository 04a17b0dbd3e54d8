/* SPDX-License-Identifier: GPL-2.0-or-later */
/* capture.c - the capture's loop: the box's answers read as they come,
 * into buckets, until the period is over, the user stops it or the box
 * stops answering (capture.h). */
#include "capture_int.h"
#include "../core/clock.h"
#include "../core/err.h"
#include "../core/fsutil.h"
#include "../core/hook.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct loop {
	const struct nb_capture_cfg *c;
	struct cp_box *b;
	struct cp_acc *acc;
	struct cp_stream s[CP_MAXSTREAM];
	int ns;
	struct cp_answer *ans;
	double t0;               /* this machine's clock at the first answer */
	double box0;             /* the box's at the same (< 0: not timed) */
	double last_box;         /* the last answer's time by the box's clock */
	int started;
	double last_answer;      /* when the counters last answered */
	int done;                /* whole buckets */
};

static double now_s(void)
{
	return (double)nb_now_us() / 1e6;
}

/* One answer of stream S: its time, its counters into the buckets. */
static int answer(struct loop *L, struct cp_stream *s, const char *text)
{
	double t = now_s(), iv = (double)L->c->interval_us / 1e6;
	int rc = cp_answer_parse(text, L->ans);

	if (rc)
		return rc;
	if (s->kind == CP_COUNTERS) {
		if (!L->started) {
			L->started = 1;
			L->t0 = t;
			L->box0 = L->ans->t;
		}
		/* the box's own clock where it gives one (Linux's uptime):
		 * the answers' journey does not move the figures; a clock that
		 * went back (a restart) or runs off ours is set by ours again */
		if (L->box0 >= 0 && L->ans->t >= 0) {
			double bt = L->t0 + (L->ans->t - L->box0);

			if (bt < L->last_box || fabs(bt - t) > 10 + iv) {
				L->box0 = L->ans->t - (t - L->t0);
				bt = t;
			}
			t = L->last_box = bt;
		}
		L->last_answer = now_s();
	} else if (!L->started) {
		return 0;            /* nothing counts before the counters' start */
	}
	cp_acc_add(L->acc, L->b, s->kind, L->ans, t - L->t0, iv);
	return 0;
}

static void progress(struct loop *L)
{
	const struct cp_acc *a = L->acc;
	double iops = 0, mbps = 0, r = 0, all = 0;
	int k = L->done - 1;
	char detail[64];

	for (int i = 0; i < a->ndev; i++) {
		const struct cp_cell *e = &a->dev[(size_t)k * (size_t)a->ndev + (size_t)i];
		double cov = e->cover > 0 ? e->cover : a->bucket;

		iops += (e->r + e->w + e->rm + e->wm) / cov;
		mbps += (e->rb + e->wb) / cov / 1e6;
		r += e->r + e->rm;
		all += e->r + e->w + e->rm + e->wm;
	}
	if (L->c->progress)
		fprintf(L->c->progress, "capture: bucket %d of %d: %.1f IOPS, %.2f "
			"MB/s, %.0f%% reads (%d devices)\n", L->done, a->nbuckets, iops,
			mbps, all > 0 ? 100 * r / all : 0, a->ndev);
	snprintf(detail, sizeof(detail), "bucket=%d\n", L->done);
	{
		char point[48];

		snprintf(point, sizeof(point), "capture-bucket-%d", L->done);
		nb_hook(point, detail, L->c->stop);
	}
}

/* Read what the streams have; 1 when the capture ends (O says how). */
static int step(struct loop *L, struct nb_capture_outcome *o)
{
	struct pollfd pf[CP_MAXSTREAM];
	double limit = (double)(L->c->timeout_us ? L->c->timeout_us : 10000000) / 1e6 +
		       (double)L->c->interval_us / 1e6;

	for (int i = 0; i < L->ns; i++)
		pf[i] = (struct pollfd){ L->s[i].fd, POLLIN, 0 };
	poll(pf, (nfds_t)L->ns, 200);
	for (int i = 0; i < L->ns; i++) {
		struct cp_stream *s = &L->s[i];
		char *text;

		cp_stream_drain(s);
		while ((text = cp_stream_next(s))) {
			int rc = answer(L, s, text);

			free(text);
			if (rc) {
				o->end = NB_CAPTURE_LOST;
				snprintf(o->why, sizeof(o->why), "%s", nb_err_last());
				return 1;
			}
		}
		if (s->gone) {
			char why[320];

			cp_stream_why(s, why, sizeof(why));
			o->end = NB_CAPTURE_LOST;
			snprintf(o->why, sizeof(o->why), "the box stopped answering%s%s",
				 why[0] ? " (" : "", why[0] ? why : "");
			if (why[0])
				strcat(o->why, ")");
			return 1;
		}
	}
	while (cp_acc_whole(L->acc, L->done)) {
		L->done++;
		progress(L);
	}
	if (L->done >= L->acc->nbuckets) {
		o->end = NB_CAPTURE_DONE;
		return 1;
	}
	if (L->c->stop && *L->c->stop) {
		o->end = NB_CAPTURE_STOPPED;
		return 1;
	}
	if (now_s() - (L->started ? L->last_answer : L->t0) > limit) {
		o->end = NB_CAPTURE_LOST;
		snprintf(o->why, sizeof(o->why), "no answer from the box within %.0f s",
			 limit);
		return 1;
	}
	return 0;
}

static void start_time(struct nb_load *l)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(l->start, sizeof(l->start), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void describe(struct nb_load *l, const struct cp_box *b,
		     const struct nb_capture_cfg *c)
{
	snprintf(l->source, sizeof(l->source), "%s", nb_telem_source(b->tm));
	snprintf(l->os, sizeof(l->os), "%s", b->freebsd ? "freebsd" : "linux");
	snprintf(l->counters, sizeof(l->counters), "%s%s",
		 !b->freebsd ? "/proc/diskstats" : b->have_gstat ? "gstat -b" :
		 "iostat -x -I", b->have_nfs ? (b->freebsd ? ", nfsstat -s" :
		 ", /proc/net/rpc/nfsd") : "");
	(void)c;
}

/* The streams started in a scratch directory DIR, the loop run. */
static int run_loop(struct loop *L, struct nb_load *l, struct nb_capture_outcome *o,
		    const char *dir)
{
	int rc = 0;

	L->ns = cp_box_streams(L->b, (double)L->c->interval_us / 1e6, L->s);
	for (int i = 0; i < L->ns && !rc; i++)
		rc = cp_stream_start(L->b, &L->s[i], dir);
	if (!rc) {
		start_time(l);
		L->t0 = now_s();
		while (!step(L, o))
			;
	}
	for (int i = 0; i < L->ns; i++)
		cp_stream_stop(&L->s[i]);
	o->buckets = L->done;
	return rc;
}

static void notes(const struct cp_box *b, struct nb_capture_outcome *o)
{
	int seq = b->freebsd, hist = b->npools && !b->have_hist;
	size_t n;

	for (int i = 0; !b->freebsd && i < b->nsel; i++)
		seq |= !b->sel[i].merges;
	n = (size_t)snprintf(o->notes, sizeof(o->notes), "%s%s%s",
		 seq ? "the sequential share is assumed where the counters cannot "
		 "tell it (FreeBSD, LVs, zvols, md: no merges counted)" : "",
		 seq && hist ? "; " : "",
		 hist ? "the pools' ZFS has no 'zpool iostat -r': no request-size "
		 "histogram" : "");
	if (b->pools_left && n < sizeof(o->notes))
		snprintf(o->notes + n, sizeof(o->notes) - n, "%s%d pool%s left out "
			 "(a name that begins with '-' or is too long, or more than "
			 "a script holds; the first: '%s')", n ? "; " : "",
			 b->pools_left, b->pools_left > 1 ? "s" : "", b->pool_left);
}

/* The gaps of A, into the load file ([capture] gaps) and the notes. */
static void gaps_said(const struct cp_acc *a, struct nb_load *l,
		      struct nb_capture_outcome *o)
{
	size_t n = strlen(o->notes);

	cp_acc_gaps(a, l->gaps, sizeof(l->gaps));
	if (l->gaps[0] && n < sizeof(o->notes))
		snprintf(o->notes + n, sizeof(o->notes) - n, "%s%s", n ? "; " : "",
			 l->gaps);
}

int nb_capture_run(const struct nb_capture_cfg *c, struct nb_load *l,
		   struct nb_capture_outcome *o)
{
	struct cp_box *b = calloc(1, sizeof(*b));
	struct cp_acc acc;
	struct loop L = { .c = c, .b = b, .acc = &acc };
	struct cp_zdata z0, z1;
	char dir[] = "/tmp/nb-capture.XXXXXX";
	int rc, nb = (int)(c->for_us / c->bucket_us);

	memset(o, 0, sizeof(*o));
	o->total = nb;
	o->need = nb_load_busy_need(c->busy_pct);
	memset(&acc, 0, sizeof(acc));
	if (!b)
		return nb_err(-ENOMEM, "out of memory");
	rc = cp_box_open(b, c);
	if (!rc)
		rc = cp_box_inventory(b, c, o->picked, sizeof(o->picked));
	if (!rc && cp_acc_init(&acc, b, nb, (double)c->bucket_us / 1e6))
		rc = nb_err(-ENOMEM, "out of memory");
	L.ans = malloc(sizeof(*L.ans));
	if (!rc && !L.ans)
		rc = nb_err(-ENOMEM, "out of memory");
	if (!rc && !mkdtemp(dir))
		rc = nb_err(-errno, "cannot make a scratch directory: %s",
			    strerror(errno));
	else if (!rc) {
		describe(l, b, c);
		notes(b, o);
		if (c->progress)
			fprintf(c->progress, "capture: %s (%s): %s\n", l->source,
				l->os, o->picked);
		cp_zdata_read(b, &z0);
		rc = run_loop(&L, l, o, dir);
		nb_rmtree(dir);
		if (!rc && o->buckets && !cp_zdata_read(b, &z1))
			cp_zdata_into(l, b, &z0, &z1);
	}
	if (!rc && o->buckets)
		rc = cp_derive(l, &acc, b, c, o->buckets);
	if (!rc)
		gaps_said(&acc, l, o);
	l->complete = o->end == NB_CAPTURE_DONE;
	if (o->end == NB_CAPTURE_STOPPED)
		snprintf(l->stopped, sizeof(l->stopped), "interrupted after %d of %d "
			 "buckets", o->buckets, nb);
	else if (o->end == NB_CAPTURE_LOST)
		snprintf(l->stopped, sizeof(l->stopped), "%s after %d of %d buckets",
			 o->why, o->buckets, nb);
	free(L.ans);
	cp_acc_free(&acc);
	if (b->tm) {
		/* closing the source clears the last error: keep the capture's */
		char why[1024];

		snprintf(why, sizeof(why), "%s", rc ? nb_err_last() : "");
		cp_box_close(b);
		if (rc)
			nb_err_set("%s", why);
	}
	free(b);
	return rc;
}
