/*
 * crashverify.c - the crash check's journal read back and every
 * journalled write checked on the box (crashcheck.h).
 */
#include "crashcheck.h"
#include "../core/datagen.h"
#include "../core/err.h"
#include "../core/journal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_MISSING, K_STALE, K_TORN, K_INTACT, K_NEWER };

static int bad(const char *path, int line, const char *why)
{
	return nb_err(-EINVAL, "journal '%s': line %d: %s", path, line, why);
}

static int header(struct nb_crash_journal *j, const char *text, const char *path)
{
	json_error_t e;
	json_int_t cap = 0, off = 0, region = 0, bs = 0;
	const char *run_id = NULL, *target = NULL, *url = NULL, *runner = NULL;
	int block = 0;

	if (strncmp(text, "h ", 2))
		return bad(path, 1, "not a crashcheck journal (no header)");
	j->header = json_loads(text + 2, 0, &e);
	if (!j->header || json_unpack(j->header, "{s:s, s:s, s:s, s:s, s:b, s:I, "
				      "s:I, s:I, s:I}", "run_id", &run_id, "target",
				      &target, "url", &url, "runner", &runner,
				      "block", &block, "capacity", &cap,
				      "window_offset", &off, "region", &region,
				      "bs", &bs))
		return bad(path, 1, "the header lacks a field of a crashcheck journal");
	if (bs < NB_CRASH_BLOCK || bs % NB_CRASH_BLOCK || region < bs ||
	    region % bs)
		return bad(path, 1, "the header's region and write size do not fit");
	snprintf(j->run_id, sizeof(j->run_id), "%s", run_id);
	snprintf(j->target, sizeof(j->target), "%s", target);
	snprintf(j->url, sizeof(j->url), "%s", url);
	snprintf(j->runner, sizeof(j->runner), "%s", runner);
	j->block = block;
	j->capacity = (uint64_t)cap;
	j->window_offset = (uint64_t)off;
	j->region = (uint64_t)region;
	j->bs = (uint32_t)bs;
	j->nblocks = j->region / j->bs;
	j->gen = calloc(j->nblocks, sizeof(*j->gen));
	return j->gen ? 0 : nb_err(-ENOMEM, "out of memory");
}

struct load {
	struct nb_crash_journal *j;
	const char *path;
};

static int on_line(const char *text, int line, void *payload)
{
	struct load *l = payload;
	struct nb_crash_journal *j = l->j;
	uint64_t a, b;
	char kind, end;

	if (line == 1)
		return header(j, text, l->path);
	if (sscanf(text, "%c %" SCNu64 " %" SCNu64 "%c", &kind, &a, &b, &end) != 3)
		return bad(l->path, line, "not a record of a crashcheck journal");
	switch (kind) {
	case 'i':
		j->iterations = (int)a;
		j->next = b;
		j->iter_acked = 0;
		j->crashed = 0;
		return 0;
	case 'a':
		if (a % j->bs || a / j->bs >= j->nblocks || !b)
			return bad(l->path, line, "a write outside the journal's region");
		j->gen[a / j->bs] = b;
		j->writes++;
		j->iter_acked++;
		j->next++;
		return 0;
	case 'c':
		j->crashed = 1;
		return 0;
	}
	return bad(l->path, line, "not a record of a crashcheck journal");
}

int nb_crash_journal_load(struct nb_crash_journal *j, const char *path)
{
	struct load l = { .j = j, .path = path };
	int rc;

	memset(j, 0, sizeof(*j));
	rc = nb_journal_read(path, on_line, &l, &j->torn_tail);
	if (!rc && !j->header)
		rc = nb_err(-EINVAL, "journal '%s': no header line that checks out: "
			    "not a crashcheck journal", path);
	if (rc)
		nb_crash_journal_free(j);
	return rc;
}

void nb_crash_journal_free(struct nb_crash_journal *j)
{
	json_decref(j->header);
	free(j->gen);
	j->header = NULL;
	j->gen = NULL;
}

int nb_crash_journal_match(const struct nb_crash_journal *j,
			   const struct nb_target *t, const char *path)
{
	const char *name = t->cfg->name;
	int block = !!(t->caps & NB_CAP_BLOCK);

	if (strcmp(j->url, t->desc) || strcmp(j->runner, t->ops->name))
		return nb_err(-EINVAL, "journal '%s' was written on '%s', not on "
			      "target '%s' (%s): verify it against the target it "
			      "was written on", path, j->url, name, t->desc);
	if (block != j->block)
		return nb_err(-EINVAL, "journal '%s' is of a %s, target '%s' is a %s",
			      path, j->block ? "LUN or device" : "file",
			      name, block ? "LUN or device" : "directory");
	if (block && (t->capacity != j->capacity ||
		      t->cfg->offset != j->window_offset))
		return nb_err(-EINVAL, "journal '%s' was written on a window of %"
			      PRIu64 " bytes at offset %" PRIu64 "; target '%s' "
			      "has %" PRIu64 " bytes at offset %" PRIu64 ": not "
			      "the LUN it was written on", path, j->capacity,
			      j->window_offset, name, t->capacity,
			      (uint64_t)t->cfg->offset);
	if (block && j->region > t->capacity)
		return nb_err(-EINVAL, "journal '%s': its region (%" PRIu64 " bytes) "
			      "is larger than target '%s' (%" PRIu64 " bytes)",
			      path, j->region, name, t->capacity);
	return 0;
}

/* One 4 KiB block: what of write GEN at OFF it holds. */
static int block_kind(const unsigned char *blk, uint64_t off, uint64_t run_id,
		      uint64_t gen)
{
	struct nb_block_hdr h;

	memcpy(&h, blk, sizeof(h));
	switch (nb_block_check(blk, NB_CRASH_BLOCK, off, run_id, gen)) {
	case NB_BLOCK_OK:
		return K_INTACT;
	case NB_BLOCK_STALE:
		return h.seq > gen ? K_NEWER : K_STALE;
	case NB_BLOCK_CORRUPT:
		/* a header of this run and offset, the rest not: half written */
		return h.run_id == run_id && h.offset == off ? K_TORN : K_MISSING;
	default:
		return K_MISSING;     /* zeros, another run's or another offset's */
	}
}

/* A write of BS bytes: intact when each block is, stale or missing when
 * all are, torn when they differ or one is half written. */
static int write_kind(const unsigned char *buf, uint32_t bs, uint64_t off,
		      uint64_t run_id, uint64_t gen)
{
	int kind = -1;

	for (uint32_t i = 0; i < bs; i += NB_CRASH_BLOCK) {
		int k = block_kind(buf + i, off + i, run_id, gen);

		if (k == K_NEWER)
			k = K_INTACT;     /* a later write, acknowledged or not */
		if (k == K_TORN || (kind >= 0 && k != kind))
			return K_TORN;
		kind = k;
	}
	return kind;
}

static void count(struct nb_crash_counts *n, int kind, uint64_t off)
{
	uint64_t *slot[] = { &n->missing, &n->stale, &n->torn, &n->intact };

	(*slot[kind])++;
	n->checked++;
	if (kind < 3 && json_array_size(n->offsets[kind]) < NB_CRASH_OFFSETS)
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
		uint64_t off = i * j->bs;
		int64_t got;

		if (!j->gen[i])
			continue;
		if (!f) {
			count(n, K_MISSING, off);
			continue;
		}
		got = nb_target_pio(c->t, f, NB_OP_READ, buf, j->bs, off, 0);
		if (got < 0) {
			rc = (int)got;
			break;
		}
		/* past the end of the file: nothing there */
		memset(buf + got, 0, j->bs - (size_t)got);
		count(n, write_kind(buf, j->bs, off, run_id, j->gen[i]), off);
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

static const char *const kind_names[3] = { "missing", "stale", "torn" };

/* The first offset of a write not read back intact (-1: none). */
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

void nb_crash_record(struct nb_wl_ctx *c, const struct nb_crash_counts *n,
		     uint64_t acked, json_t *crash)
{
	uint64_t lost = n->missing + n->stale + n->torn;
	char key[32];

	nb_wl_metric(c, "crash_lost", (double)lost);
	nb_wl_metric(c, "crash_missing", (double)n->missing);
	nb_wl_metric(c, "crash_stale", (double)n->stale);
	nb_wl_metric(c, "crash_torn", (double)n->torn);
	nb_wl_metric(c, "crash_intact", (double)n->intact);
	nb_wl_metric(c, "crash_checked", (double)n->checked);
	nb_wl_metric(c, "crash_acked", (double)acked);
	for (int i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s_offsets", kind_names[i]);
		json_object_set(crash, key, n->offsets[i]);
	}
	json_object_set_new(c->extra, "crash", crash);
	if (lost)
		nb_wl_warn(c, "crash %d: %llu of %llu acknowledged writes not read "
			   "back intact (%llu missing, %llu stale, %llu torn; first "
			   "at offset %lld)", c->iteration, (unsigned long long)lost,
			   (unsigned long long)n->checked,
			   (unsigned long long)n->missing,
			   (unsigned long long)n->stale, (unsigned long long)n->torn,
			   first_offset(n));
}

struct tally {
	int crashes, losing, first;
	double lost, missing, stale, torn, checked, first_lost;
};

static double metric(const json_t *m, const char *name)
{
	return json_number_value(json_object_get(m, name));
}

static void tally_one(struct tally *t, const json_t *m)
{
	double lost = metric(m, "crash_lost");

	if (!json_object_get(m, "crash_checked"))
		return;
	t->crashes++;
	if (lost > 0 && !t->losing++) {
		t->first = t->crashes;
		t->first_lost = lost;
	}
	t->lost += lost;
	t->missing += metric(m, "crash_missing");
	t->stale += metric(m, "crash_stale");
	t->torn += metric(m, "crash_torn");
	t->checked += metric(m, "crash_checked");
}

json_t *nb_crash_verdict(const json_t *entry, const json_t *current,
			 const char *sync_label)
{
	struct tally t = { 0 };
	const json_t *it;
	char s[256], pre[80] = "";
	size_t i;

	json_array_foreach(json_object_get(entry, "iterations"), i, it)
		tally_one(&t, json_object_get(it, "metrics"));
	if (current)
		tally_one(&t, current);
	if (sync_label && *sync_label && t.losing)
		snprintf(pre, sizeof(pre), "sync=%s: ", sync_label);
	if (!t.losing)
		snprintf(s, sizeof(s), "%d of %d crash%s: 0 acknowledged writes lost",
			 t.crashes, t.crashes, t.crashes == 1 ? "" : "es");
	else if (t.losing == 1)
		snprintf(s, sizeof(s), "%s%.0f acknowledged writes lost in crash "
			 "%d of %d", pre, t.lost, t.first, t.crashes);
	else
		snprintf(s, sizeof(s), "%s%.0f acknowledged writes lost in %d of %d "
			 "crashes (%.0f in crash %d)", pre, t.lost, t.losing,
			 t.crashes, t.first_lost, t.first);
	return json_pack("{s:i, s:i, s:I, s:I, s:I, s:I, s:I, s:o, s:s, s:s}",
			 "crashes", t.crashes, "crashes_losing", t.losing,
			 "lost", (json_int_t)t.lost, "missing", (json_int_t)t.missing,
			 "stale", (json_int_t)t.stale, "torn", (json_int_t)t.torn,
			 "checked", (json_int_t)t.checked, "first_losing",
			 t.losing ? json_integer(t.first) : json_null(),
			 "sync_label", sync_label ? sync_label : "", "summary", s);
}
