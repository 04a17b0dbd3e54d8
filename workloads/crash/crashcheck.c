/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crashcheck.c - does an acknowledged write survive the box crashing?
 *
 * One iteration is one crash (crashcheck.h has the journal):
 *
 *  1. the box's identity before: its boot id over the telemetry's SSH, on
 *     iSCSI a control login (crashproof.c); on NFS the write verifier of
 *     the first answer
 *  2. write 4 KiB blocks (bs: a multiple) over the region, again and again
 *     with a new generation each sweep, QD writes in flight (iodepth,
 *     default NB_CRASH_QD), with the sync semantics under test: sync =
 *     always (the default) asks every write to be durable on its own
 *     (O_DSYNC, NFS FILE_SYNC, iSCSI FUA); end flushes after every QD
 *     writes (fsync, NFS COMMIT, SYNCHRONIZE CACHE); none never asks.
 *     Each acknowledged write is journalled, fsync'ed, with what the box
 *     promised for it in its answer (crashwrite.c).
 *  3. at the crash point (crash-writes acknowledged writes, or crash-time
 *     after the start, whichever comes first) the [box] crash command
 *     starts BESIDE the writers (a PDU or IPMI power-off, 'ci/lab crash'),
 *     who keep writing until the box stops answering; without a command
 *     the run prints "pull the plug now".  The command runs only when the
 *     box file configures it.
 *  4. reconnect (every second, up to RECONNECT_S), gather the evidence
 *     that the box went down (crashproof.c) and read back every location
 *     this iteration wrote, each against what was promised for it
 *     (crashverify.c).  No evidence and nothing lost: "no crash observed",
 *     and no loss figure.
 *
 * With run --verify JOURNAL (c->crash->verify) only step 4 runs, against
 * the journal's target, which must match it (nb_crash_journal_match).
 */
#include "crash_rt.h"
#include "crashrun.h"
#include "../seed/seed.h"
#include "../../core/err.h"
#include "../../core/escape.h"
#include "../../core/hook.h"
#include "crashlog.h"
#include "../../core/knobs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_REGION (1ULL << 20)
#define RECONNECT_S 600

static const char *const sync_names[] = { "none", "end", "always" };

/* The run's journal (crashrun.h), or with one journal per target
 * "x.NAME.journal" for it. */
static void journal_name(struct nb_crash_run *cr)
{
	const struct nb_crash_opts *o = cr->c->crash;
	const char *j = o ? o->path : "", *dot = strrchr(j, '.');
	size_t n = dot && !strchr(dot, '/') ? (size_t)(dot - j) : strlen(j);

	if (o && o->each)
		snprintf(cr->path_buf, sizeof(cr->path_buf), "%.*s.%s%s", (int)n, j,
			 cr->c->t->cfg->name, j + n);
	else
		snprintf(cr->path_buf, sizeof(cr->path_buf), "%s", j);
	cr->path = cr->path_buf;
}

static int settings(struct nb_crash_run *cr)
{
	struct nb_wl_ctx *c = cr->c;

	cr->bs = c->p->bs ? c->p->bs : NB_CRASH_BLOCK;
	cr->qd = c->p->iodepth ? c->p->iodepth : NB_CRASH_QD;
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
	cr->nblocks = cr->region / cr->bs;
	/* two writes in flight to one place would race each other */
	if (cr->qd > cr->nblocks / 2 || cr->qd > NB_MAX_QD)
		return nb_err(-EINVAL, "crashcheck: the region (size) holds %llu "
			      "writes of %u bytes: at most half of them (%llu) may be "
			      "in flight, not iodepth %u", (unsigned long long)cr->nblocks,
			      cr->bs, (unsigned long long)(cr->nblocks / 2), cr->qd);
	journal_name(cr);
	return cr->path[0] ? 0 : nb_err(-EINVAL, "crashcheck: no journal file "
					"(--journal)");
}

static char *header_text(struct nb_crash_run *cr)
{
	struct nb_wl_ctx *c = cr->c;
	json_t *h = json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:b, s:I, s:I, s:I, "
			      "s:I, s:I, s:s, s:I, s:f, s:s}",
			      "nasbench_journal", 2, "workload", "crashcheck",
			      "run_id", c->run_id, "target", c->t->cfg->name,
			      "url", c->t->desc, "runner", c->t->ops->name,
			      "block", !!(c->t->caps & NB_CAP_BLOCK),
			      "capacity", (json_int_t)c->t->capacity,
			      "window_offset", (json_int_t)c->t->cfg->offset,
			      "region", (json_int_t)cr->region,
			      "bs", (json_int_t)cr->bs, "qd", (json_int_t)cr->qd,
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
 * the next write number read back from what it holds. */
static int journal_begin(struct nb_crash_run *cr)
{
	struct nb_wl_ctx *c = cr->c;
	struct nb_crash_journal j;
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
		rc = nb_crash_journal_load(&j, cr->path);
	if (rc)
		return rc;
	cr->next = j.next;
	nb_crash_journal_free(&j);
	snprintf(rec, sizeof(rec), "i %d %" PRIu64, c->iteration, cr->next);
	return nb_journal_append(&cr->out, rec);
}

static int reconnect(struct nb_crash_run *cr)
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

/* Read back what the journal on disk says this iteration acknowledged. */
static int verify(struct nb_crash_run *cr)
{
	struct nb_wl_ctx *c = cr->c;
	struct nb_crash_counts n = { 0 };
	struct nb_crash_journal j;
	json_t *info = cr->info;
	int rc;

	rc = nb_crash_journal_load(&j, cr->path);
	if (!rc)
		rc = nb_crash_verify(c, &j, &n);
	if (!rc) {
		/* writes the box acknowledged and lost although it never promised
		 * them: it lost what it held in memory, a crash all the same */
		if (!cr->proof.observed && n.lost[NB_CC_CACHED]) {
			cr->proof.observed = 1;
			snprintf(cr->proof.how, sizeof(cr->proof.how), "%llu writes the "
				 "box acknowledged without a promise were lost: it lost "
				 "what it held in memory", (unsigned long long)
				 n.lost[NB_CC_CACHED]);
		}
		json_object_set_new(info, "journal_torn_tail", json_boolean(j.torn_tail));
		json_object_set_new(info, "write_cache", json_string(
			c->t->write_cache == NB_WC_ON ? "on" : c->t->write_cache ==
			NB_WC_OFF ? "off" : "unknown"));
		nb_crash_record(c, &n, &j, &cr->proof, info);
		cr->info = NULL;
		json_object_set_new(c->entry, "crash_verdict", nb_crash_verdict(
			c->entry, c->metrics, info, nb_wl_label(c, "sync")));
	}
	nb_crash_counts_free(&n);
	nb_crash_journal_free(&j);
	return rc;
}

/* run --verify JOURNAL: the journal's target, read back; nothing written.
 * The evidence before comes from the journal's 'b' records. */
static int verify_only(struct nb_crash_run *cr)
{
	struct nb_wl_ctx *c = cr->c;
	struct nb_crash_journal j;
	int rc;

	rc = nb_crash_journal_load(&j, cr->path);
	if (!rc)
		rc = nb_crash_journal_match(&j, c->t, cr->path);
	if (rc) {
		nb_crash_journal_free(&j);
		return rc;
	}
	json_object_set_new(cr->info, "crashed_at_point", json_boolean(j.crashed));
	if (!j.crashed)
		nb_wl_warn(c, "crashcheck: the journal's last iteration did not reach "
			   "its crash point (the client stopped first): every write "
			   "it journalled is checked all the same");
	if (c->iteration == 1)
		c->spec = json_pack("{s:o, s:s, s:I, s:I}", "journal",
				    nb_json_text(cr->path),
				    "journal_run_id", j.run_id, "region",
				    (json_int_t)j.region, "bs", (json_int_t)j.bs);
	memset(&cr->proof, 0, sizeof(cr->proof));
	snprintf(cr->proof.boot_before, sizeof(cr->proof.boot_before), "%s", j.boot);
	cr->proof.verf_before = j.has_verf ? j.verf : 0;
	cr->proof.ua_checked = j.has_ua;
	snprintf(cr->proof.ua_control, sizeof(cr->proof.ua_control), "%s", j.ua);
	if (!j.boot[0])
		snprintf(cr->proof.boot_why, sizeof(cr->proof.boot_why), "none was "
			 "journalled before the crash");
	nb_crash_journal_free(&j);
	nb_crash_proof_after(c, &cr->proof);
	return verify(cr);
}

/* Write, crash, reconnect, prove, verify: one iteration. */
static int crash_iteration(struct nb_crash_run *cr)
{
	struct nb_wl_ctx *c = cr->c;
	int rc = settings(cr);

	if (!rc && c->iteration == 1)
		c->spec = json_pack("{s:I, s:I, s:I, s:s, s:I, s:f, s:s, s:s}",
				    "region", (json_int_t)cr->region, "bs",
				    (json_int_t)cr->bs, "qd", (json_int_t)cr->qd,
				    "sync", sync_names[cr->sync], "crash_writes",
				    (json_int_t)c->p->crash_writes, "crash_time_s",
				    (double)c->p->crash_time_us / 1e6, "crash",
				    c->p->crash_cmd[0] ? "hook" : "manual", "journal",
				    cr->path);
	if (!rc)
		json_object_set_new(cr->info, "sync", json_string(sync_names[cr->sync]));
	if (!rc)
		rc = journal_begin(cr);
	if (!rc)
		rc = nb_crash_proof_before(c, &cr->proof, &cr->out);
	if (!rc)
		rc = nb_crash_write_phase(cr);
	nb_journal_close(&cr->out);
	if (!rc)
		nb_wl_wrote(c, (cr->next < cr->nblocks ? cr->next : cr->nblocks) * cr->bs);
	if (!rc)
		rc = reconnect(cr);
	if (!rc) {
		char point[32];

		nb_crash_proof_after(c, &cr->proof);
		/* a test build may stop here, the box back, nothing read yet:
		 * "crashverify:1" (a fault test damages the data) */
		snprintf(point, sizeof(point), "crashverify:%d", c->iteration);
		rc = nb_hook(point, NULL, c->stop);
	}
	if (!rc)
		rc = verify(cr);
	return rc;
}

static int crashcheck_run(struct nb_wl_ctx *c)
{
	struct nb_crash_run cr = { .c = c, .out = { .fd = -1 } };
	int only = c->crash && c->crash->verify, rc;

	journal_name(&cr);
	cr.info = json_pack("{s:s, s:s}", "mode", only ? "verify" :
			    c->p->crash_cmd[0] ? "hook" : "manual", "journal",
			    cr.path);
	rc = only ? verify_only(&cr) : crash_iteration(&cr);
	nb_journal_close(&cr.out);
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
	/* sync writes: ~1 ms each on a fast box, then the crash (the writes
	 * during the command are not counted) */
	e->seconds = p->crash_time_us ? (double)p->crash_time_us / 1e6 :
		     (double)n / 1000;
	e->written = n * bs;
}

const struct nb_workload nb_wl_crashcheck = {
	.name = "crashcheck",
	.help = "journal every acknowledged write with what the box promised, "
		"crash the box while writing ([box] crash or pull the plug), prove "
		"it went down, read every one back: promised writes lost",
	.needs = NB_CAP_SYNC,
	.accept = "crash_lost = 0",
	.run = crashcheck_run,
	.plan_bytes = nb_wl_size,
	.default_size = DEFAULT_REGION,
	.estimate = crashcheck_estimate,
};

/* crashcheck's rows: [box] crash, [suite] crash-writes, crash-time (core/knobs.h). */
const struct nb_knob nb_crash_knobs[] = {
	{ .section = "box", .name = "crash", .type = NB_KT_STR,
	  NB_PRM(crash_cmd), .unset = "",
	  .help = "crashcheck: the command that crashes the box at the crash "
	  "point (a PDU or IPMI power-off, 'ci/lab crash'; run with sh -c, it "
	  "returns once the box is back); without it the run says 'pull the "
	  "plug now'",
	  .flags = NB_KF_NOLABEL,
	},
	{ .section = "suite", .name = "crash-writes", .type = NB_KT_UINT,
	  NB_PRM(crash_writes), .min = 1, .def = "1000",
	  .help = "crashcheck: crash after this many acknowledged writes",
	  .opt = "crash-writes", .metavar = "N",
	},
	{ .section = "suite", .name = "crash-time", .type = NB_KT_DURATION,
	  NB_PRM(crash_time_us), .unset = "", .min = 1000,
	  .help = "crashcheck: crash this long after the first write (with "
	  "crash-writes: whichever comes first)",
	  .opt = "crash-time", .metavar = "TIME",
	},
	{ NULL },
};
