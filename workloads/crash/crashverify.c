/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crashverify.c - crashcheck's read back: every location the last
 * iteration wrote, checked against what the box promised for it; the
 * iteration's figures and the entry's verdict.
 */
#include "crashcheck.h"
#include "../../core/datagen.h"
#include "../../core/err.h"
#include "../../core/result.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one 4 KiB block holds of this run at its offset. */
enum { B_MISSING = -1, B_CORRUPT = -2 };

static int64_t block_gen(const unsigned char *blk, uint64_t off, uint64_t run_id)
{
	struct nb_block_hdr h;

	memcpy(&h, blk, sizeof(h));
	switch (nb_block_check(blk, NB_CRASH_BLOCK, off, run_id, h.seq)) {
	case NB_BLOCK_OK:
		return (int64_t)h.seq;
	case NB_BLOCK_CORRUPT:
		/* a header of this run and offset, the rest not: half written */
		return h.run_id == run_id && h.offset == off ? B_CORRUPT : B_MISSING;
	default:
		return B_MISSING;     /* zeros, another run's or another offset's */
	}
}

enum { K_MISSING, K_STALE, K_TORN, K_INTACT, K_UNPROMISED };

/*
 * A location of BS bytes whose last acknowledged write is L->last: intact
 * when every block holds it or a newer generation (a write acknowledged
 * after it, or one in flight); else, what was promised there (L->promised,
 * durable or flushed) must be there at least: a block older than it, gone,
 * or half written is a promised write lost (missing when every block is
 * gone, stale when every one is an older sound block, torn otherwise) -
 * except that a half-written block is what a later write that was never
 * promised (cached, or in flight) may leave.  What only lost writes that
 * were never promised is K_UNPROMISED: allowed.
 */
static int location_kind(const unsigned char *buf, uint32_t bs, uint64_t off,
			 uint64_t run_id, const struct nb_crash_loc *l)
{
	int all_new = 1, all_missing = 1, all_sound = 1, below = 0;
	int may_tear = l->last > l->promised || l->flying;

	for (uint32_t i = 0; i < bs; i += NB_CRASH_BLOCK) {
		int64_t g = block_gen(buf + i, off + i, run_id);

		all_new &= g >= 0 && (uint64_t)g >= l->last;
		all_missing &= g == B_MISSING;
		all_sound &= g >= 0;
		if (g == B_MISSING || (g >= 0 && (uint64_t)g < l->promised) ||
		    (g == B_CORRUPT && !may_tear))
			below = 1;
	}
	if (all_new)
		return K_INTACT;
	if (!l->promised || !below)
		return K_UNPROMISED;
	return all_missing ? K_MISSING : all_sound ? K_STALE : K_TORN;
}

static void count(struct nb_crash_counts *n, const struct nb_crash_loc *l,
		  int kind, uint64_t off)
{
	n->checked++;
	n->promised += l->promised != 0;
	if (kind == K_INTACT) {
		n->intact++;
		return;
	}
	if (kind == K_UNPROMISED) {
		n->lost[NB_CC_CACHED]++;
		return;
	}
	n->lost[l->promised_cls]++;
	*(kind == K_MISSING ? &n->missing : kind == K_STALE ? &n->stale : &n->torn) += 1;
	if (json_array_size(n->offsets[kind]) < NB_CRASH_OFFSETS)
		json_array_append_new(n->offsets[kind], json_integer((json_int_t)off));
}

static int read_all(struct nb_wl_ctx *c, const struct nb_crash_journal *j,
		    struct nb_file *f, struct nb_crash_counts *n)
{
	uint64_t run_id = nb_fnv1a(j->run_id, strlen(j->run_id), 0), done = 0;
	unsigned char *buf = nb_io_alloc(j->bs);
	int rc = 0;

	if (!buf)
		return nb_err(-ENOMEM, "out of memory");
	for (uint64_t i = 0; i < j->nblocks && !rc; i++) {
		const struct nb_crash_loc *l = &j->loc[i];
		uint64_t off = i * j->bs;
		int64_t got = 0;

		if (!l->last)
			continue;
		if (f)
			got = nb_target_pio(c->t, f, NB_OP_READ, buf, j->bs, off, 0);
		if (got < 0) {
			rc = (int)got;
			break;
		}
		/* past the end of the file, or no file: nothing there */
		memset(buf + got, 0, j->bs - (size_t)got);
		count(n, l, location_kind(buf, j->bs, off, run_id, l), off);
		done += j->bs;
		if ((n->checked & 63) == 0) {
			nb_progress_update(c->progress, done, 0);
			if (*c->stop)
				rc = -EINTR;
		}
	}
	free(buf);
	return rc;
}

int nb_crash_verify(struct nb_wl_ctx *c, const struct nb_crash_journal *j,
		    struct nb_crash_counts *n)
{
	struct nb_file *f = NULL;
	char label[160];
	int rc;

	memset(n, 0, sizeof(*n));
	for (int i = 0; i < 3; i++)
		n->offsets[i] = json_array();
	rc = c->t->ops->fopen(c->t, NB_CRASH_FILE, NB_F_READ | NB_F_DIRECT, &f);
	if (rc == -ENOENT && !j->block) {
		/* the box lost the file itself: every write in it is lost */
		nb_wl_warn(c, "crashcheck: the data file '%s' is gone from target "
			   "'%s' after the crash", NB_CRASH_FILE, c->t->cfg->name);
		f = NULL;
		rc = 0;
	}
	if (rc)
		return rc;
	snprintf(label, sizeof(label), "crashcheck verify on %s (%d/%d)",
		 c->t->cfg->name, c->iteration, c->iterations);
	nb_progress_begin(c->progress, label, j->region, 0);
	rc = read_all(c, j, f, n);
	nb_progress_end(c->progress);
	if (f)
		c->t->ops->fclose(f);
	return rc;
}

void nb_crash_counts_free(struct nb_crash_counts *n)
{
	for (int i = 0; i < 3; i++)
		json_decref(n->offsets[i]);
}

const char *nb_crash_class_name(const char *runner, int cls)
{
	static const char *const names[][NB_CC_N] = {
		{ "FILE_SYNC", "UNSTABLE + COMMIT", "UNSTABLE" },
		{ "FUA or write-through", "SYNCHRONIZE CACHE", "write cache" },
		{ "O_DSYNC", "fsync", "page cache" },
	};
	int r = !strcmp(runner, "nfs") ? 0 : !strcmp(runner, "iscsi") ? 1 : 2;

	return names[r][cls];
}

static const char *const kind_names[3] = { "missing", "stale", "torn" };

/* The first offset of a promised write lost (-1: none). */
static long long first_offset(const struct nb_crash_counts *n)
{
	long long first = -1;

	for (int i = 0; i < 3; i++) {
		json_t *o = json_array_get(n->offsets[i], 0);

		if (o && (first < 0 || json_integer_value(o) < first))
			first = (long long)json_integer_value(o);
	}
	return first;
}

/* The classes' figures: acknowledged writes and locations lost, by what
 * the box promised, named as the protocol names it. */
static json_t *classes(const struct nb_crash_counts *n,
		       const struct nb_crash_journal *j)
{
	json_t *o = json_object();

	for (int k = 0; k < NB_CC_N; k++)
		json_object_set_new(o, nb_crash_class_keys[k], json_pack(
			"{s:s, s:I, s:I, s:b}", "name",
			nb_crash_class_name(j->runner, k), "acked",
			(json_int_t)j->acked[k], "lost", (json_int_t)n->lost[k],
			"promised", k != NB_CC_CACHED));
	return o;
}

static void metric_u(struct nb_wl_ctx *c, const char *name, uint64_t v)
{
	nb_wl_metric(c, name, (double)v);
}

void nb_crash_record(struct nb_wl_ctx *c, const struct nb_crash_counts *n,
		     const struct nb_crash_journal *j,
		     const struct nb_crash_proof *pr, json_t *crash)
{
	uint64_t lost = n->lost[NB_CC_DURABLE] + n->lost[NB_CC_FLUSHED];
	char key[32];

	metric_u(c, "crash_observed", (uint64_t)pr->observed);
	metric_u(c, "crash_acked", j->iter_acked);
	metric_u(c, "crash_acked_durable", j->acked[NB_CC_DURABLE]);
	metric_u(c, "crash_acked_flushed", j->acked[NB_CC_FLUSHED]);
	metric_u(c, "crash_acked_cached", j->acked[NB_CC_CACHED]);
	metric_u(c, "crash_inflight", j->inflight);
	metric_u(c, "crash_checked", n->checked);
	metric_u(c, "crash_intact", n->intact);
	/* no crash seen and nothing lost: no loss figure at all (a "0 lost"
	 * of a crash that did not happen would pass a box never tested) */
	if (pr->observed || lost || n->lost[NB_CC_CACHED]) {
		metric_u(c, "crash_lost", lost);
		metric_u(c, "crash_lost_durable", n->lost[NB_CC_DURABLE]);
		metric_u(c, "crash_lost_flushed", n->lost[NB_CC_FLUSHED]);
		metric_u(c, "crash_lost_cached", n->lost[NB_CC_CACHED]);
		metric_u(c, "crash_missing", n->missing);
		metric_u(c, "crash_stale", n->stale);
		metric_u(c, "crash_torn", n->torn);
	}
	for (int i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s_offsets", kind_names[i]);
		json_object_set(crash, key, n->offsets[i]);
	}
	json_object_set_new(crash, "classes", classes(n, j));
	json_object_set_new(crash, "evidence", nb_crash_proof_json(pr));
	json_object_set_new(crash, "promised_locations", json_integer((json_int_t)n->promised));
	json_object_set_new(c->extra, "crash", crash);
	if (lost)
		nb_wl_warn(c, "crash %d: %llu of %llu locations lost a promised-durable "
			   "write (%llu missing, %llu stale, %llu torn; %s %llu, %s "
			   "%llu; first at offset %lld)", c->iteration,
			   (unsigned long long)lost, (unsigned long long)n->promised,
			   (unsigned long long)n->missing, (unsigned long long)n->stale,
			   (unsigned long long)n->torn,
			   nb_crash_class_name(j->runner, NB_CC_DURABLE),
			   (unsigned long long)n->lost[NB_CC_DURABLE],
			   nb_crash_class_name(j->runner, NB_CC_FLUSHED),
			   (unsigned long long)n->lost[NB_CC_FLUSHED], first_offset(n));
	if (!pr->observed)
		nb_wl_warn(c, "crash %d: no crash observed (%s): %s", c->iteration,
			   pr->how, lost ? "the losses are real all the same" :
			   "nothing is proven about what a crash loses");
}

/* ---- the verdict over the iterations ---- */

struct tally {
	int crashes, observed, unproven, losing, first;
	double lost, lost_cls[NB_CC_N], missing, stale, torn, checked, promised;
	double acked, acked_cls[NB_CC_N], first_lost;
	char why[400];               /* the first unproven iteration's evidence */
	char names[NB_CC_N][32];     /* the classes as the protocol names them */
};

static double metric(const json_t *m, const char *name)
{
	return json_number_value(json_object_get(m, name));
}

static void tally_names(struct tally *t, const json_t *crash)
{
	const json_t *cl = json_object_get(crash, "classes");

	for (int k = 0; k < NB_CC_N && cl; k++)
		if (!t->names[k][0])
			snprintf(t->names[k], sizeof(t->names[k]), "%s", nb_jstr(
				json_object_get(cl, nb_crash_class_keys[k]), "name"));
}

static void tally_one(struct tally *t, const json_t *m, const json_t *crash)
{
	double lost = metric(m, "crash_lost");
	/* a result of an older nasbench has no crash_observed: its crashes
	 * were counted as crashes */
	int obs = !json_object_get(m, "crash_observed") || metric(m, "crash_observed");

	if (!json_object_get(m, "crash_checked"))
		return;
	t->crashes++;
	tally_names(t, crash);
	if (obs) {
		t->observed++;
	} else if (!json_object_get(m, "crash_lost") && !t->unproven++) {
		snprintf(t->why, sizeof(t->why), "%s", nb_jstr(json_object_get(crash,
			 "evidence"), "how"));
	}
	if (lost > 0 && !t->losing++) {
		t->first = t->crashes;
		t->first_lost = lost;
	}
	t->lost += lost;
	for (int k = 0; k < NB_CC_N; k++) {
		t->lost_cls[k] += metric(m, k == NB_CC_DURABLE ? "crash_lost_durable" :
					 k == NB_CC_FLUSHED ? "crash_lost_flushed" :
					 "crash_lost_cached");
		t->acked_cls[k] += metric(m, k == NB_CC_DURABLE ? "crash_acked_durable" :
					  k == NB_CC_FLUSHED ? "crash_acked_flushed" :
					  "crash_acked_cached");
	}
	t->missing += metric(m, "crash_missing");
	t->stale += metric(m, "crash_stale");
	t->torn += metric(m, "crash_torn");
	t->checked += metric(m, "crash_checked");
	t->promised += metric(crash, "promised_locations");
	t->acked += metric(m, "crash_acked");
}

/* "FILE_SYNC 2400, UNSTABLE + COMMIT 0": acknowledged writes by class. */
static void acked_text(char *buf, size_t len, const struct tally *t)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < NB_CC_N && n < len; k++)
		if (t->acked_cls[k] > 0 && t->names[k][0])
			n += (size_t)snprintf(buf + n, len - n, "%s%s %.0f", n ? ", " : "",
					      t->names[k], t->acked_cls[k]);
}

static void summary(char *s, size_t len, const struct tally *t, const char *sync)
{
	char pre[80] = "", acked[160];

	acked_text(acked, sizeof(acked), t);
	if (sync && *sync && t->losing)
		snprintf(pre, sizeof(pre), "sync=%s: ", sync);
	if (t->losing)
		snprintf(s, len, "%s%.0f promised-durable writes lost in %d of %d "
			 "crash%s (%.0f in crash %d; %s %.0f, %s %.0f; %.0f writes "
			 "never promised lost too)", pre, t->lost, t->losing, t->crashes,
			 t->crashes == 1 ? "" : "es", t->first_lost, t->first,
			 t->names[NB_CC_DURABLE], t->lost_cls[NB_CC_DURABLE],
			 t->names[NB_CC_FLUSHED], t->lost_cls[NB_CC_FLUSHED],
			 t->lost_cls[NB_CC_CACHED]);
	else if (t->unproven)
		snprintf(s, len, "no crash observed in %d of %d iteration%s (%s): not "
			 "proven%s", t->unproven, t->crashes, t->crashes == 1 ? "" : "s",
			 t->why, t->observed ? "; the crashes observed lost 0 "
			 "promised-durable writes" : "");
	else
		snprintf(s, len, "%d of %d crash%s observed: 0 promised-durable writes "
			 "lost (%.0f locations held one; acknowledged: %s; %.0f never "
			 "promised lost)", t->observed, t->crashes,
			 t->crashes == 1 ? "" : "es", t->promised,
			 *acked ? acked : "none", t->lost_cls[NB_CC_CACHED]);
}

json_t *nb_crash_verdict(const json_t *entry, const json_t *current,
			 const json_t *cur_crash, const char *sync_label)
{
	struct tally t = { 0 };
	const json_t *it;
	char s[600];
	size_t i;

	json_array_foreach(json_object_get(entry, "iterations"), i, it)
		tally_one(&t, json_object_get(it, "metrics"), json_object_get(it, "crash"));
	if (current)
		tally_one(&t, current, cur_crash);
	summary(s, sizeof(s), &t, sync_label);
	return json_pack("{s:i, s:i, s:i, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
			 "s:I, s:I, s:I, s:o, s:s, s:s}",
			 "crashes", t.crashes, "observed", t.observed,
			 "unproven", t.unproven, "crashes_losing", t.losing,
			 "lost", (json_int_t)t.lost,
			 "lost_durable", (json_int_t)t.lost_cls[NB_CC_DURABLE],
			 "lost_flushed", (json_int_t)t.lost_cls[NB_CC_FLUSHED],
			 "lost_cached", (json_int_t)t.lost_cls[NB_CC_CACHED],
			 "missing", (json_int_t)t.missing, "stale", (json_int_t)t.stale,
			 "torn", (json_int_t)t.torn, "checked", (json_int_t)t.checked,
			 "promised", (json_int_t)t.promised, "acked", (json_int_t)t.acked,
			 "first_losing", t.losing ? json_integer(t.first) : json_null(),
			 "sync_label", sync_label ? sync_label : "", "summary", s);
}
