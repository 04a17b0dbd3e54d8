/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crashjournal.c - crashcheck's journal read back (crashcheck.h has its
 * records): what the last iteration acknowledged at each location, with
 * what the box promised for it, and whether its target is the one the
 * journal was written on.
 */
#include "crashcheck.h"
#include "../../core/err.h"
#include "crashlog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const nb_crash_class_keys[NB_CC_N] = { "durable", "flushed", "cached" };

static int bad(const char *path, int line, const char *why)
{
	return nb_err(-EINVAL, "journal '%s': line %d: %s", path, line, why);
}

static int header(struct nb_crash_journal *j, const char *text, const char *path)
{
	json_error_t e;
	json_int_t cap = 0, off = 0, region = 0, bs = 0, qd = 1, version = 1;
	const char *run_id = NULL, *target = NULL, *url = NULL, *runner = NULL;
	const char *sync = "always";
	int block = 0;

	if (strncmp(text, "h ", 2))
		return bad(path, 1, "not a crashcheck journal (no header)");
	j->header = json_loads(text + 2, 0, &e);
	if (!j->header || json_unpack(j->header, "{s:s, s:s, s:s, s:s, s:b, s:I, "
				      "s:I, s:I, s:I, s?I, s?I, s?s}", "run_id",
				      &run_id, "target", &target, "url", &url,
				      "runner", &runner, "block", &block,
				      "capacity", &cap, "window_offset", &off,
				      "region", &region, "bs", &bs, "qd", &qd,
				      "nasbench_journal", &version, "sync", &sync))
		return bad(path, 1, "the header lacks a field of a crashcheck journal");
	if (bs < NB_CRASH_BLOCK || bs % NB_CRASH_BLOCK || region < bs ||
	    region % bs || qd < 1)
		return bad(path, 1, "the header's region and write size do not fit");
	j->version = (int)version;
	snprintf(j->run_id, sizeof(j->run_id), "%s", run_id);
	snprintf(j->target, sizeof(j->target), "%s", target);
	snprintf(j->url, sizeof(j->url), "%s", url);
	snprintf(j->runner, sizeof(j->runner), "%s", runner);
	snprintf(j->sync, sizeof(j->sync), "%s", sync);
	j->block = block;
	j->capacity = (uint64_t)cap;
	j->window_offset = (uint64_t)off;
	j->region = (uint64_t)region;
	j->bs = (uint32_t)bs;
	j->qd = (uint32_t)qd;
	j->nblocks = j->region / j->bs;
	j->loc = calloc(j->nblocks, sizeof(*j->loc));
	return j->loc ? 0 : nb_err(-ENOMEM, "out of memory");
}

/* A new iteration: only its records are verified. */
static void iteration(struct nb_crash_journal *j, uint64_t iter, uint64_t next)
{
	j->iterations = (int)iter;
	j->next = next;
	j->iter_acked = j->inflight = 0;
	memset(j->acked, 0, sizeof(j->acked));
	memset(j->loc, 0, j->nblocks * sizeof(*j->loc));
	j->crashed = 0;
	j->boot[0] = j->ua[0] = '\0';
	j->verf = 0;
	j->has_verf = j->has_ua = 0;
	j->npending = 0;
}

/* Write number K of location IDX, generation GEN was sent: the next write
 * number is past it (acknowledged or in flight, in any order).  -1 when
 * GEN cannot be a write number's. */
static int sent(struct nb_crash_journal *j, uint64_t idx, uint64_t gen)
{
	uint64_t k;

	if (!gen || gen - 1 > (UINT64_MAX - idx) / j->nblocks - 1)
		return -1;
	k = (gen - 1) * j->nblocks + idx;
	if (k + 1 > j->next)
		j->next = k + 1;
	return 0;
}

static int promise(struct nb_crash_loc *l, uint64_t gen, int cls)
{
	if (gen >= l->promised) {
		l->promised = gen;
		l->promised_cls = (uint8_t)cls;
	}
	return 0;
}

/* 'a OFF GEN P VERF' (or version 1's 'a OFF GEN'). */
static int acked(struct nb_crash_journal *j, const char *text, int line,
		 const char *path)
{
	uint64_t off, gen, verf = 0;
	char kind = 0, p = 0, end;
	int n = sscanf(text, "%c %" SCNu64 " %" SCNu64 " %c %" SCNx64 "%c", &kind,
		       &off, &gen, &p, &verf, &end);
	struct nb_crash_loc *l;
	int cls;

	if ((n != 3 && n != 5) || (n == 5 && p != 'd' && p != 'c'))
		return bad(path, line, "not a record of a crashcheck journal");
	if (off % j->bs || off / j->bs >= j->nblocks || sent(j, off / j->bs, gen))
		return bad(path, line, "a write outside the journal's region");
	if (n == 3)              /* version 1: counted once the sync returned */
		p = strcmp(j->sync, "none") ? 'd' : 'c';
	cls = p == 'd' ? NB_CC_DURABLE : NB_CC_CACHED;
	l = &j->loc[off / j->bs];
	l->last = gen;
	l->last_cls = (uint8_t)cls;
	l->verf = verf;
	if (cls == NB_CC_DURABLE)
		promise(l, gen, cls);
	else if (!strcmp(j->sync, "end")) {
		/* cached until the next flush: remember it for 'f' */
		if (j->npending == j->cap_pending) {
			size_t cap = j->cap_pending ? 2 * j->cap_pending : 256;
			void *q = realloc(j->pending, cap * sizeof(*j->pending));

			if (!q)
				return nb_err(-ENOMEM, "out of memory");
			j->pending = q;
			j->cap_pending = cap;
		}
		j->pending[j->npending][0] = off / j->bs;
		j->pending[j->npending][1] = gen;
		j->pending[j->npending++][2] = verf;
	}
	j->acked[cls]++;
	j->writes++;
	j->iter_acked++;
	return 0;
}

/* 'f VERF': every cached write since the last flush whose verifier is
 * VERF is promised now; one with another verifier was written by a
 * server that restarted before the COMMIT: never promised. */
static void flushed(struct nb_crash_journal *j, uint64_t verf)
{
	for (size_t i = 0; i < j->npending; i++) {
		uint64_t *w = j->pending[i];
		struct nb_crash_loc *l = &j->loc[w[0]];

		if (verf && w[2] && verf != w[2])
			continue;
		j->acked[NB_CC_CACHED]--;
		j->acked[NB_CC_FLUSHED]++;
		if (l->last == w[1])
			l->last_cls = NB_CC_FLUSHED;
		promise(l, w[1], NB_CC_FLUSHED);
	}
	j->npending = 0;
}

/* 'b KIND VALUE': the box's identity before the writes. */
static int before(struct nb_crash_journal *j, const char *text, int line,
		  const char *path)
{
	const char *v = strlen(text) > 2 ? strchr(text + 2, ' ') : NULL;

	if (!v)
		return bad(path, line, "not a record of a crashcheck journal");
	v++;
	if (!strncmp(text, "b boot ", 7))
		snprintf(j->boot, sizeof(j->boot), "%s", v);
	else if (!strncmp(text, "b ua ", 5)) {
		snprintf(j->ua, sizeof(j->ua), "%s", strcmp(v, "none") ? v : "");
		j->has_ua = 1;
	}
	else if (!strncmp(text, "b verf ", 7) && sscanf(v, "%" SCNx64, &j->verf) == 1)
		j->has_verf = 1;
	else
		return bad(path, line, "not a record of a crashcheck journal");
	return 0;
}

struct load {
	struct nb_crash_journal *j;
	const char *path;
};

static int on_line(const char *text, int line, void *payload)
{
	struct load *l = payload;
	struct nb_crash_journal *j = l->j;
	uint64_t a = 0, b = 0;
	char kind = text[0], end;
	int n;

	if (line == 1)
		return header(j, text, l->path);
	if (kind == 'a')
		return acked(j, text, line, l->path);
	if (kind == 'b')
		return before(j, text, line, l->path);
	n = sscanf(text, "%c %" SCNx64 " %" SCNu64 "%c", &kind, &a, &b, &end);
	if (kind == 'f' && n == 2) {
		flushed(j, a);
		return 0;
	}
	n = sscanf(text, "%c %" SCNu64 " %" SCNu64 "%c", &kind, &a, &b, &end);
	if (n != 3)
		return bad(l->path, line, "not a record of a crashcheck journal");
	switch (kind) {
	case 'i':
		iteration(j, a, b);
		return 0;
	case 'c':
		j->crashed = 1;
		return 0;
	case 'p':
		if (a % j->bs || a / j->bs >= j->nblocks || sent(j, a / j->bs, b))
			return bad(l->path, line, "a write outside the journal's region");
		if (b > j->loc[a / j->bs].flying)
			j->loc[a / j->bs].flying = b;
		j->inflight++;
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
	free(j->loc);
	free(j->pending);
	j->header = NULL;
	j->loc = NULL;
	j->pending = NULL;
	j->npending = j->cap_pending = 0;
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
