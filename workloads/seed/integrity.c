/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * integrity.c - every byte read back as written.
 *
 * Each iteration writes the data file (or LUN window) twice with
 * self-describing 4 KiB blocks (core/datagen.h: magic, offset, run id,
 * sequence number, checksum): pass 1 with sequence 2i-1, pass 2 over it
 * with sequence 2i; both passes end with a flush.  Then it reads all of it
 * back and checks every block:
 *
 *   corrupt    the header or checksum does not check out (bit rot, torn
 *              or partial writes, zeroes where data should be)
 *   misplaced  a good block that belongs at another offset (misdirected
 *              write or read)
 *   stale      a good block of an older sequence or an earlier run: a
 *              write the box acknowledged and then lost
 *
 * Metrics: corrupt_blocks, misplaced_blocks, stale_blocks, blocks_checked,
 * bw_bytes (the read-back).  The offsets (bytes from the start of the file
 * or window) go to the iteration's "corrupt_offsets", "misplaced_offsets",
 * "stale_offsets" (the first 256 of each) and "bad_blocks" (what the first
 * 32 bad blocks claimed to be).
 *
 * Test hook (core/hook.h): after each write pass N (flushed) the point
 * "pass-N", with the run id, the file name in the scratch directory
 * nasbench.<run-id>/ (empty on a block target), block size, size and
 * window offset.  The test build pauses there so a test can damage the
 * data on the box's own storage - flip a byte, or put back a copy of a
 * block saved after pass 1 once pass 2 has replaced it - exactly as a
 * faulty box would; the workload does nothing differently.
 */
#include "../workload.h"
#include "../../core/datagen.h"
#include "../../core/err.h"
#include "../../core/hook.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 4096u
#define DEFAULT_SIZE (64ULL << 20)
#define DEFAULT_BS (128u << 10)
#define DEFAULT_QD 8u
#define MAX_OFFSETS 256
#define MAX_DETAILS 32

enum { C_CORRUPT, C_MISPLACED, C_STALE, C_N };
static const char *const class_names[C_N] = { "corrupt", "misplaced", "stale" };

struct integ {
	uint64_t run_id, seq;
	uint64_t count[C_N], checked;
	json_t *offsets[C_N];
	json_t *details;
	struct nb_progress *progress;
};

static void fill(void *buf, uint32_t len, uint64_t off, void *payload)
{
	struct integ *g = payload;

	for (uint32_t i = 0; i + BLOCK <= len; i += BLOCK)
		nb_block_fill((char *)buf + i, BLOCK, off + i, g->run_id, g->seq);
}

static void record(struct integ *g, int cls, uint64_t off, const void *blk)
{
	struct nb_block_hdr h;

	g->count[cls]++;
	if (json_array_size(g->offsets[cls]) < MAX_OFFSETS)
		json_array_append_new(g->offsets[cls], json_integer((json_int_t)off));
	if (json_array_size(g->details) >= MAX_DETAILS)
		return;
	memcpy(&h, blk, sizeof(h));
	if (h.magic == NB_BLOCK_MAGIC && cls != C_CORRUPT)
		json_array_append_new(g->details, json_pack(
			"{s:I, s:s, s:I, s:I, s:b}", "offset", (json_int_t)off,
			"state", class_names[cls], "claims_offset",
			(json_int_t)h.offset, "seq", (json_int_t)h.seq,
			"this_run", h.run_id == g->run_id));
	else
		json_array_append_new(g->details, json_pack(
			"{s:I, s:s, s:b}", "offset", (json_int_t)off, "state",
			class_names[cls], "header", h.magic == NB_BLOCK_MAGIC));
}

static int check(const void *buf, uint32_t len, uint64_t off, void *payload)
{
	struct integ *g = payload;

	for (uint32_t i = 0; i + BLOCK <= len; i += BLOCK) {
		const char *blk = (const char *)buf + i;

		g->checked++;
		switch (nb_block_check(blk, BLOCK, off + i, g->run_id, g->seq)) {
		case NB_BLOCK_OK:
			break;
		case NB_BLOCK_MISPLACED:
			record(g, C_MISPLACED, off + i, blk);
			break;
		case NB_BLOCK_STALE:
			record(g, C_STALE, off + i, blk);
			break;
		case NB_BLOCK_FOREIGN: {
			struct nb_block_hdr h;

			/* a sound block of an earlier run is a lost write too */
			memcpy(&h, blk, sizeof(h));
			record(g, h.magic == NB_BLOCK_MAGIC ? C_STALE : C_CORRUPT,
			       off + i, blk);
			break;
		}
		default:
			record(g, C_CORRUPT, off + i, blk);
		}
	}
	return 0;        /* count every bad block; never stop early */
}

static void on_progress(uint64_t bytes, uint64_t elapsed_ns, void *payload)
{
	struct integ *g = payload;

	nb_progress_update(g->progress, bytes, elapsed_ns);
}

/* After write pass PASS (flushed): where a test may damage the data. */
static int pause_point(struct nb_wl_ctx *c, int pass, const struct nb_iospec *s)
{
	char point[16], detail[512];

	snprintf(point, sizeof(point), "pass-%d", pass);
	snprintf(detail, sizeof(detail), "run_id=%s\nfile=%s\nblock=%u\nsize=%llu\n"
		 "window_offset=%llu\n", c->run_id,
		 c->t->caps & NB_CAP_BLOCK ? "" : "integrity", BLOCK,
		 (unsigned long long)s->size,
		 (unsigned long long)c->t->cfg->offset);
	return nb_hook(point, detail, c->stop);
}

static int one_pass(struct nb_wl_ctx *c, struct nb_iospec *s, int rw,
		    struct integ *g, const char *what, struct nb_io_result *r)
{
	struct nb_engine_hooks h = { .fill = fill, .check = check,
				     .progress = on_progress, .payload = g,
				     .stop = c->stop };
	unsigned flags = rw == NB_RW_WRITE ? NB_F_WRITE | NB_F_CREATE : NB_F_READ;
	struct nb_file *f;
	char label[200];
	int rc;

	s->rw = rw;
	if (s->direct)
		flags |= NB_F_DIRECT;
	rc = c->t->ops->fopen(c->t, "integrity", flags, &f);
	if (rc)
		return rc;
	snprintf(label, sizeof(label), "integrity %s on %s (%d/%d)", what,
		 c->t->cfg->name, c->iteration, c->iterations);
	nb_progress_begin(c->progress, label, s->size, 0);
	rc = nb_engine_run(c->t, f, s, &h, r);
	nb_progress_end(c->progress);
	c->t->ops->fclose(f);
	if (!rc && r->stopped)
		rc = -EINTR;
	return rc;
}

/* The spec: the user's knobs over the defaults, sequential, every byte,
 * each pass ending durable; blocks that fit the target.  0 or -errno. */
static int integrity_spec(struct nb_wl_ctx *c, struct nb_iospec *s)
{
	static const struct nb_iospec def = { .pattern = NB_PAT_SEQ,
					      .bs = DEFAULT_BS, .qd = DEFAULT_QD,
					      .size = DEFAULT_SIZE,
					      .sync = NB_SYNC_END, .direct = 1 };

	nb_iospec_resolve(&def, c->p, c->t, s);
	s->sync = NB_SYNC_END;        /* each pass ends durable */
	s->pattern = NB_PAT_SEQ;
	s->runtime_us = 0;            /* all of it, every time */
	s->bytes = 0;
	if (s->bs % BLOCK || s->size < BLOCK)
		return nb_err(-EINVAL, "integrity: the block size (%u) must be a "
			      "multiple of %u bytes", s->bs, BLOCK);
	s->seed = c->seed;
	if (c->iteration == 1)
		c->spec = nb_iospec_json(s);
	if (c->t->capacity && s->size > c->t->capacity)
		return nb_err(-ENOSPC, "target '%s' has %llu bytes, fewer than the "
			      "size %llu asked for", c->t->cfg->name,
			      (unsigned long long)c->t->capacity,
			      (unsigned long long)s->size);
	return 0;
}

/* Two write passes, then the read-back that checks every block; *CACHED
 * the target's cached opens before the read-back. */
static int integrity_passes(struct nb_wl_ctx *c, struct nb_iospec *s,
			    struct integ *g, struct nb_io_result *r,
			    uint64_t *cached)
{
	int rc = 0;

	for (int pass = 1; pass <= 2 && !rc; pass++) {
		g->seq = (uint64_t)c->iteration * 2 - 2 + (uint64_t)pass;
		rc = one_pass(c, s, NB_RW_WRITE, g, pass == 1 ? "write 1/2" :
			      "write 2/2", r);
		if (!rc && (c->t->caps & NB_CAP_BLOCK) && s->size > c->t->filled)
			c->t->filled = s->size;
		if (!rc)
			rc = pause_point(c, pass, s);
	}
	*cached = c->t->cached_opens;
	return rc ? rc : one_pass(c, s, NB_RW_READ, g, "read-back", r);
}

/* The read-back's verdict: the block counts and where the bad ones are. */
static void integrity_record(struct nb_wl_ctx *c, const struct integ *g,
			     const struct nb_io_result *r)
{
	double secs = r->elapsed_ns ? (double)r->elapsed_ns / 1e9 : 1e-9;

	nb_wl_metric(c, "corrupt_blocks", (double)g->count[C_CORRUPT]);
	nb_wl_metric(c, "misplaced_blocks", (double)g->count[C_MISPLACED]);
	nb_wl_metric(c, "stale_blocks", (double)g->count[C_STALE]);
	nb_wl_metric(c, "blocks_checked", (double)g->checked);
	nb_wl_metric(c, "bw_bytes", (double)r->bytes_read / secs);
	for (int i = 0; i < C_N; i++) {
		char key[32];

		snprintf(key, sizeof(key), "%s_offsets", class_names[i]);
		json_object_set(c->extra, key, g->offsets[i]);
	}
	json_object_set(c->extra, "bad_blocks", g->details);
	json_object_set_new(c->extra, "block_size", json_integer(BLOCK));
	if (g->count[C_CORRUPT] + g->count[C_MISPLACED] + g->count[C_STALE])
		nb_wl_warn(c, "iteration %d: %llu corrupt, %llu misplaced, %llu "
			   "stale of %llu blocks (first at offset %lld)",
			   c->iteration, (unsigned long long)g->count[C_CORRUPT],
			   (unsigned long long)g->count[C_MISPLACED],
			   (unsigned long long)g->count[C_STALE],
			   (unsigned long long)g->checked,
			   (long long)json_integer_value(json_object_get(
				   json_array_get(g->details, 0), "offset")));
}

static int integrity_run(struct nb_wl_ctx *c)
{
	struct nb_io_result *r = malloc(sizeof(*r));
	struct integ g = { 0 };
	struct nb_iospec s;
	uint64_t cached;
	int rc;

	if (!r)
		return nb_err(-ENOMEM, "out of memory");
	rc = integrity_spec(c, &s);
	if (rc) {
		free(r);
		return rc;
	}
	g.run_id = nb_fnv1a(c->run_id, strlen(c->run_id), 0);
	for (int i = 0; i < C_N; i++)
		g.offsets[i] = json_array();
	g.details = json_array();
	g.progress = c->progress;
	rc = integrity_passes(c, &s, &g, r, &cached);
	if (!rc && c->t->cached_opens > cached) {
		/* what came back may be this client's cache of what it wrote */
		json_object_set_new(c->extra, "verified", json_false());
		nb_wl_warn(c, "integrity: not verified: the read-back went through "
			   "this client's page cache (O_DIRECT refused), which can "
			   "hand back what was written whatever the media holds; "
			   "no block counts are reported");
	} else if (!rc) {
		integrity_record(c, &g, r);
	}
	for (int i = 0; i < C_N; i++)
		json_decref(g.offsets[i]);
	json_decref(g.details);
	free(r);
	return rc;
}

const struct nb_workload nb_wl_integrity = {
	.name = "integrity",
	.help = "write every block twice with a checked header, read all back: "
		"corrupt, misplaced and stale (lost-write) blocks",
	.accept = "corrupt_blocks = 0; misplaced_blocks = 0; stale_blocks = 0",
	.run = integrity_run,
	.plan_bytes = nb_wl_size,
	.default_size = DEFAULT_SIZE,
};
