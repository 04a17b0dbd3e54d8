/*
 * crashcheck.c - does an acknowledged write survive the box crashing?
 *
 * One iteration is one crash (crashcheck.h has the journal):
 *
 *  1. write 4 KiB blocks (bs: a multiple) over the region, again and again
 *     with a new generation each sweep, at queue depth 1 with the sync
 *     semantics under test: sync = always (the default) makes every write
 *     durable on its own (O_DSYNC, NFS FILE_SYNC, iSCSI FUA); end follows
 *     each write with a flush (fsync, NFS UNSTABLE + COMMIT, SYNCHRONIZE
 *     CACHE) and counts it acknowledged when the flush is; none counts
 *     the plain write (a check that the box keeps what it was never told
 *     to keep: a baseline that should lose).  Each acknowledged write is
 *     journalled, fsync'ed, before it counts.
 *  2. at the crash point (crash-writes acknowledged writes, or crash-time
 *     after the start, whichever comes first) the [box] crash command runs
 *     (a PDU or IPMI power-off, 'ci/lab crash'); it returns when the box
 *     is back.  Without one the run prints "pull the plug now" and writes
 *     on until the box stops answering.  The command runs only when the
 *     box file configures it.  The crash comes between two writes (queue
 *     depth 1): the last acknowledged write is the last one sent.
 *  3. reconnect (every second, up to RECONNECT_S) and read back every
 *     location the journal holds an acknowledged write for, each checked
 *     against the journal's generation (crashverify.c).
 *
 * With run --verify JOURNAL (p->crash_verify) only step 3 runs, against
 * the journal's target, which must match it (nb_crash_journal_match).
 */
#include "crashcheck.h"
#include "seed.h"
#include "../core/clock.h"
#include "../core/datagen.h"
#include "../core/err.h"
#include "../core/hook.h"
#include "../core/journal.h"
#include "../core/knobs.h"
#include "../core/spawn.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_REGION (1ULL << 20)
#define RECONNECT_S 600
#define HOOK_LIMIT_US (600ULL * 1000000)

static const char *const sync_names[] = { "none", "end", "always" };

struct crash {
	struct nb_wl_ctx *c;
	struct nb_crash_journal j;       /* what the journal holds so far */
	struct nb_journal out;
	const char *path;
	char path_buf[1200];
	uint64_t region, acked, t0;
	uint32_t bs;
	int sync, at_point;
	json_t *info;                    /* the iteration's "crash" object */
};

/* p->journal, or with one journal per target "x.NAME.journal" for it. */
static void journal_name(struct crash *cr)
{
	const char *j = cr->c->p->journal, *dot = strrchr(j, '.');
	size_t n = dot && !strchr(dot, '/') ? (size_t)(dot - j) : strlen(j);

	if (cr->c->p->journal_each)
		snprintf(cr->path_buf, sizeof(cr->path_buf), "%.*s.%s%s", (int)n, j,
			 cr->c->t->cfg->name, j + n);
	else
		snprintf(cr->path_buf, sizeof(cr->path_buf), "%s", j);
	cr->path = cr->path_buf;
}

static int settings(struct crash *cr)
{
	struct nb_wl_ctx *c = cr->c;

	cr->bs = c->p->bs ? c->p->bs : NB_CRASH_BLOCK;
	cr->region = nb_wl_size(c->wl, c->p);
	cr->sync = c->p->sync >= 0 ? c->p->sync : NB_SYNC_ALWAYS;
	if (c->t->capacity && cr->region > c->t->capacity)
		cr->region = c->t->capacity;
	cr->region -= cr->region % cr->bs;
	if (cr->bs % NB_CRASH_BLOCK)
		return nb_err(-EINVAL, "crashcheck: the write size (bs %u) must be "
			      "a multiple of %u bytes", cr->bs, NB_CRASH_BLOCK);
	if (cr->region < cr->bs)
		return nb_err(-EINVAL, "crashcheck: the region (size) must hold at "
			      "least one write of %u bytes", cr->bs);
	journal_name(cr);
	return cr->path[0] ? 0 : nb_err(-EINVAL, "crashcheck: no journal file "
					"(--journal)");
}

static char *header_text(struct crash *cr)
{
	struct nb_wl_ctx *c = cr->c;
	json_t *h = json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:b, s:I, s:I, s:I, "
			      "s:I, s:s, s:I, s:f, s:s}",
			      "nasbench_journal", 1, "workload", "crashcheck",
			      "run_id", c->run_id, "target", c->t->cfg->name,
			      "url", c->t->desc, "runner", c->t->ops->name,
			      "block", !!(c->t->caps & NB_CAP_BLOCK),
			      "capacity", (json_int_t)c->t->capacity,
			      "window_offset", (json_int_t)c->t->cfg->offset,
			      "region", (json_int_t)cr->region,
			      "bs", (json_int_t)cr->bs,
			      "sync", sync_names[cr->sync],
			      "crash_writes", (json_int_t)c->p->crash_writes,
			      "crash_time_s", (double)c->p->crash_time_us / 1e6,
			      "crash", c->p->crash_cmd[0] ? "hook" : "manual");
	char *s = h ? json_dumps(h, JSON_COMPACT) : NULL, *line = NULL;

	if (s && asprintf(&line, "h %s", s) < 0)
		line = NULL;
	free(s);
	json_decref(h);
	return line;
}

/* The journal for this iteration: made on the first, appended to after;
 * what it holds so far read back into cr->j. */
static int journal_begin(struct crash *cr)
{
	struct nb_wl_ctx *c = cr->c;
	char rec[64];
	int rc;

	if (c->iteration == 1) {
		char *h = header_text(cr);

		rc = h ? nb_journal_create(&cr->out, cr->path, h) :
		     nb_err(-ENOMEM, "out of memory");
		free(h);
	} else {
		rc = nb_journal_open(&cr->out, cr->path);
	}
	if (!rc)
		rc = nb_crash_journal_load(&cr->j, cr->path);
	if (rc)
		return rc;
	snprintf(rec, sizeof(rec), "i %d %" PRIu64, c->iteration, cr->j.next);
	return nb_journal_append(&cr->out, rec);
}

/* Write number K; journalled once acknowledged.  0 or -errno. */
static int write_one(struct crash *cr, struct nb_file *f, unsigned char *buf)
{
	struct nb_wl_ctx *c = cr->c;
	uint64_t k = cr->j.next, idx = k % cr->j.nblocks, gen = k / cr->j.nblocks + 1;
	uint64_t off = idx * cr->bs;
	uint64_t run = nb_fnv1a(c->run_id, strlen(c->run_id), 0);
	char rec[64];
	int64_t n;

	for (uint32_t i = 0; i < cr->bs; i += NB_CRASH_BLOCK)
		nb_block_fill(buf + i, NB_CRASH_BLOCK, off + i, run, gen);
	n = nb_target_pio(c->t, f, NB_OP_WRITE, buf, cr->bs, off,
			  cr->sync == NB_SYNC_ALWAYS);
	if (n >= 0 && (uint64_t)n != cr->bs)
		n = nb_err(-EIO, "target '%s': crashcheck: short write at offset %"
			   PRIu64, c->t->cfg->name, off);
	if (n >= 0 && cr->sync == NB_SYNC_END)
		n = c->t->ops->flush(f);
	if (n < 0)
		return (int)n;
	snprintf(rec, sizeof(rec), "a %" PRIu64 " %" PRIu64, off, gen);
	n = nb_journal_append(&cr->out, rec);
	if (n)
		return (int)n;
	cr->j.gen[idx] = gen;
	cr->j.next++;
	cr->acked++;
	return 0;
}

/* The [box] crash command, run to its end.  0, or -EIO (-EINTR) when it
 * failed (was stopped). */
static int run_hook(struct crash *cr)
{
	struct nb_wl_ctx *c = cr->c;
	char *argv[] = { "sh", "-c", (char *)c->p->crash_cmd, NULL };
	struct nb_spawn sp = { .argv = argv, .prog = "/bin/sh", .stop = c->stop,
			       .err_to_out = 1, .limit_us = HOOK_LIMIT_US,
			       .grace_us = 10000000 };
	char acked[32];
	uint64_t t0 = nb_now_ns();
	int rc;

	snprintf(acked, sizeof(acked), "%" PRIu64, cr->acked);
	setenv("NASBENCH_CRASH_TARGET", c->t->cfg->name, 1);
	setenv("NASBENCH_CRASH_URL", c->t->desc, 1);
	setenv("NASBENCH_CRASH_ACKED", acked, 1);
	setenv("NASBENCH_CRASH_JOURNAL", cr->path, 1);
	rc = nb_spawn_run(&sp);
	json_object_set_new(cr->info, "hook", json_pack(
		"{s:s, s:i, s:f}", "command", c->p->crash_cmd, "status",
		rc ? -1 : sp.status, "seconds", (double)(nb_now_ns() - t0) / 1e9));
	if (!rc && sp.stopped)
		rc = -EINTR;
	else if (!rc && sp.status)
		rc = nb_err(-EIO, "target '%s': the crash command '%s' %s %d%s%s",
			    c->t->cfg->name, c->p->crash_cmd, sp.timed_out ?
			    "timed out, status" : "exited with status", sp.status,
			    sp.out && *sp.out ? ": " : "", sp.out ? sp.out : "");
	nb_spawn_free(&sp);
	return rc;
}

/* The crash point: recorded, then the command, or the user's plug. */
static int crash_point(struct crash *cr)
{
	struct nb_wl_ctx *c = cr->c;
	char rec[64], detail[1300];
	int rc;

	cr->at_point = 1;
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
		return rc ? rc : run_hook(cr);
	fprintf(stderr, "nasbench: crashcheck on target '%s': %" PRIu64
		" acknowledged writes journalled in '%s': pull the plug now "
		"(crash the box); writing on until it stops answering, then "
		"waiting for it to come back (interrupt to stop and verify later "
		"with: nasbench run BOX.ini -t %s --verify %s)\n",
		c->t->cfg->name, cr->acked, cr->path, c->t->cfg->name, cr->path);
	return 0;
}

static int crash_due(const struct crash *cr)
{
	const struct nb_params *p = cr->c->p;
	uint64_t n = p->crash_writes ? p->crash_writes :
		     p->crash_time_us ? 0 : nb_knob_default("suite", "crash-writes");

	if (n && cr->acked >= n)
		return 1;
	return p->crash_time_us &&
	       (nb_now_ns() - cr->t0) / 1000 >= p->crash_time_us;
}

/* Write until the crash point and through it.  0, or -errno of a write
 * that failed before the crash point (after it, a failure is the crash). */
static int write_phase(struct crash *cr)
{
	struct nb_wl_ctx *c = cr->c;
	unsigned flags = NB_F_READ | NB_F_WRITE | NB_F_CREATE | NB_F_DIRECT |
			 (cr->sync == NB_SYNC_ALWAYS ? NB_F_SYNC : 0);
	unsigned char *buf = nb_io_alloc(cr->bs);
	struct nb_file *f = NULL;
	char label[160];
	int rc;

	if (!buf)
		return nb_err(-ENOMEM, "out of memory");
	rc = c->t->ops->fopen(c->t, NB_CRASH_FILE, flags, &f);
	snprintf(label, sizeof(label), "crashcheck on %s (%d/%d)",
		 c->t->cfg->name, c->iteration, c->iterations);
	nb_progress_begin(c->progress, label, 0, 0);
	cr->t0 = nb_now_ns();
	while (!rc) {
		if (*c->stop) {
			rc = -EINTR;
			break;
		}
		rc = write_one(cr, f, buf);
		if (rc && cr->at_point) {
			/* the box stopped answering: the crash */
			json_object_set_new(cr->info, "stopped_answering",
					    json_string(nb_err_last()));
			rc = 0;
			break;
		}
		if ((cr->acked & 15) == 0)
			nb_progress_update(c->progress, cr->acked * cr->bs,
					   nb_now_ns() - cr->t0);
		if (!rc && !cr->at_point && crash_due(cr)) {
			rc = crash_point(cr);
			if (!rc && c->p->crash_cmd[0])
				break;
		}
	}
	nb_progress_end(c->progress);
	if (f && !rc) {
		c->t->ops->fclose(f);     /* the box may be gone: whatever it says */
		nb_err_clear();
	} else if (f) {
		char keep[1024];

		snprintf(keep, sizeof(keep), "%s", nb_err_last());
		c->t->ops->fclose(f);
		nb_err_set("%s", keep);
	}
	free(buf);
	return rc;
}

static int reconnect(struct crash *cr)
{
	struct nb_wl_ctx *c = cr->c;
	int rc = 0;

	for (int s = 0; s < RECONNECT_S; s++) {
		rc = nb_target_reconnect(c->t);
		if (!rc || *c->stop)
			break;
		if (s == 0)
			nb_warn("crashcheck: target '%s' does not answer yet (%s): "
				"trying again every second for %d s", c->t->cfg->name,
				nb_err_last(), RECONNECT_S);
		sleep(1);
	}
	return *c->stop ? -EINTR : rc;
}

/* Read back what the journal on disk says was acknowledged. */
static int verify(struct crash *cr, uint64_t acked)
{
	struct nb_crash_counts n = { 0 };
	int rc;

	nb_crash_journal_free(&cr->j);
	rc = nb_crash_journal_load(&cr->j, cr->path);
	if (!rc)
		rc = nb_crash_verify(cr->c, &cr->j, &n);
	if (!rc) {
		json_object_set_new(cr->info, "journal_torn_tail",
				    json_boolean(cr->j.torn_tail));
		nb_crash_record(cr->c, &n, acked, cr->info);
		cr->info = NULL;
		json_object_set_new(cr->c->entry, "crash_verdict", nb_crash_verdict(
			cr->c->entry, cr->c->metrics, nb_wl_label(cr->c, "sync")));
	}
	nb_crash_counts_free(&n);
	return rc;
}

/* run --verify JOURNAL: the journal's target, read back; nothing written. */
static int verify_only(struct crash *cr)
{
	struct nb_wl_ctx *c = cr->c;
	int rc;

	rc = nb_crash_journal_load(&cr->j, cr->path);
	if (!rc)
		rc = nb_crash_journal_match(&cr->j, c->t, cr->path);
	if (rc)
		return rc;
	json_object_set_new(cr->info, "crashed_at_point", json_boolean(cr->j.crashed));
	if (!cr->j.crashed)
		nb_wl_warn(c, "crashcheck: the journal's last iteration did not reach "
			   "its crash point (the client stopped first): every write "
			   "it journalled is checked all the same");
	if (c->iteration == 1)
		c->spec = json_pack("{s:s, s:s, s:I, s:I}", "journal", cr->path,
				    "journal_run_id", cr->j.run_id, "region",
				    (json_int_t)cr->j.region, "bs", (json_int_t)cr->j.bs);
	return verify(cr, cr->j.iter_acked);
}

static int crashcheck_run(struct nb_wl_ctx *c)
{
	struct crash cr = { .c = c, .out = { .fd = -1 } };
	int rc;

	journal_name(&cr);
	cr.info = json_pack("{s:s, s:s}", "mode", c->p->crash_verify ? "verify" :
			    c->p->crash_cmd[0] ? "hook" : "manual", "journal",
			    cr.path);
	if (c->p->crash_verify) {
		rc = verify_only(&cr);
	} else {
		rc = settings(&cr);
		if (!rc && c->iteration == 1)
			c->spec = json_pack("{s:I, s:I, s:s, s:I, s:f, s:s, s:s}",
					    "region", (json_int_t)cr.region, "bs",
					    (json_int_t)cr.bs, "sync",
					    sync_names[cr.sync], "crash_writes",
					    (json_int_t)c->p->crash_writes,
					    "crash_time_s",
					    (double)c->p->crash_time_us / 1e6,
					    "crash", c->p->crash_cmd[0] ? "hook" :
					    "manual", "journal", cr.path);
		if (!rc)
			json_object_set_new(cr.info, "sync",
					    json_string(sync_names[cr.sync]));
		if (!rc)
			rc = journal_begin(&cr);
		if (!rc)
			rc = write_phase(&cr);
		nb_journal_close(&cr.out);
		if (!rc)
			nb_wl_wrote(c, (cr.j.next < cr.j.nblocks ? cr.j.next :
					cr.j.nblocks) * cr.bs);
		if (!rc)
			rc = reconnect(&cr);
		if (!rc)
			rc = verify(&cr, cr.acked);
	}
	nb_journal_close(&cr.out);
	nb_crash_journal_free(&cr.j);
	json_decref(cr.info);
	return rc;
}

static void crashcheck_estimate(const struct nb_workload *w,
				const struct nb_params *p, struct nb_estimate *e)
{
	uint64_t n = p->crash_writes ? p->crash_writes :
		     nb_knob_default("suite", "crash-writes");
	uint32_t bs = p->bs ? p->bs : NB_CRASH_BLOCK;

	(void)w;
	/* queue depth 1 sync writes: ~1 ms each on a fast box, then the crash */
	e->seconds = p->crash_time_us ? (double)p->crash_time_us / 1e6 :
		     (double)n / 1000;
	e->written = n * bs;
}

const struct nb_workload nb_wl_crashcheck = {
	.name = "crashcheck",
	.help = "journal every acknowledged sync write, crash the box ([box] crash "
		"or pull the plug), read every one back: lost, stale, torn",
	.needs = NB_CAP_SYNC,
	.accept = "crash_lost = 0",
	.run = crashcheck_run,
	.plan_bytes = nb_wl_size,
	.default_size = DEFAULT_REGION,
	.estimate = crashcheck_estimate,
};
