/* SPDX-License-Identifier: GPL-2.0-or-later */
/* records.c - the failure walk's checked records, written and read back. */
#include "records.h"
#include "../core/datagen.h"
#include "../core/err.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 4096u
#define BS (128u << 10)
#define QD 8u
#define SEQ 1                    /* one generation: written once */

struct pass {
	struct nb_records *r;
	uint64_t run_id;
	struct nb_progress *progress;
};

static void fill(void *buf, uint32_t len, uint64_t off, void *payload)
{
	struct pass *p = payload;

	for (uint32_t i = 0; i + BLOCK <= len; i += BLOCK)
		nb_block_fill((char *)buf + i, BLOCK, off + i, p->run_id, SEQ);
}

static int check(const void *buf, uint32_t len, uint64_t off, void *payload)
{
	struct pass *p = payload;
	struct nb_records *r = p->r;

	for (uint32_t i = 0; i + BLOCK <= len; i += BLOCK) {
		const char *blk = (const char *)buf + i;
		struct nb_block_hdr h;
		int st = nb_block_check(blk, BLOCK, off + i, p->run_id, SEQ);

		r->blocks++;
		if (st == NB_BLOCK_OK) {
			r->intact++;
			continue;
		}
		if (!(r->corrupt + r->misplaced + r->stale))
			r->first_bad = off + i;
		memcpy(&h, blk, sizeof(h));
		if (st == NB_BLOCK_MISPLACED)
			r->misplaced++;
		else if (st == NB_BLOCK_STALE ||
			 (st == NB_BLOCK_FOREIGN && h.magic == NB_BLOCK_MAGIC))
			r->stale++;
		else
			r->corrupt++;
	}
	return 0;        /* count every bad block; never stop early */
}

static void on_progress(uint64_t bytes, uint64_t elapsed_ns, void *payload)
{
	nb_progress_update(((struct pass *)payload)->progress, bytes, elapsed_ns);
}

static int pass(struct nb_wl_ctx *c, struct nb_records *r, int rw)
{
	struct pass p = { r, nb_fnv1a(c->run_id, strlen(c->run_id), 0), c->progress };
	struct nb_engine_hooks h = { .fill = fill, .check = check,
				     .progress = on_progress, .payload = &p,
				     .stop = c->stop };
	int block = (c->t->caps & NB_CAP_BLOCK) != 0;
	struct nb_iospec s = { .pattern = NB_PAT_SEQ, .rw = rw, .bs = BS, .qd = QD,
			       .size = (block ? r->offset : 0) + r->size,
			       .start = block ? r->offset : 0, .bytes = r->size,
			       .sync = rw == NB_RW_WRITE ? NB_SYNC_END : NB_SYNC_NONE,
			       .direct = 1, .seed = p.run_id };
	unsigned flags = rw == NB_RW_WRITE ? NB_F_WRITE | NB_F_CREATE | NB_F_DIRECT :
			 NB_F_READ | NB_F_DIRECT;
	struct nb_io_result *res = malloc(sizeof(*res));
	uint64_t cached = c->t->cached_opens;
	struct nb_file *f;
	char label[200];
	int rc;

	if (!res)
		return nb_err(-ENOMEM, "out of memory");
	if (r->size % BLOCK || (block && r->offset % BS))
		rc = nb_err(-EINVAL, "records: %llu bytes at %llu: not whole "
			    "blocks", (unsigned long long)r->size,
			    (unsigned long long)r->offset);
	else
		rc = c->t->ops->fopen(c->t, "failure-records", flags, &f);
	if (rc) {
		free(res);
		return rc;
	}
	snprintf(label, sizeof(label), "records %s on %s%s%s", rw == NB_RW_WRITE ?
		 "written" : "read back", c->t->cfg->name, c->phase ? ", " : "",
		 c->phase ? c->phase : "");
	nb_progress_begin(c->progress, label, r->size, 0);
	rc = nb_engine_run(c->t, f, &s, &h, res);
	nb_progress_end(c->progress);
	c->t->ops->fclose(f);
	r->seconds = (double)res->elapsed_ns / 1e9;
	if (!rc && res->stopped)
		rc = -EINTR;
	if (!rc && rw == NB_RW_READ)
		r->verified = c->t->cached_opens == cached;
	free(res);
	return rc;
}

int nb_records_write(struct nb_wl_ctx *c, struct nb_records *r)
{
	return pass(c, r, NB_RW_WRITE);
}

int nb_records_check(struct nb_wl_ctx *c, struct nb_records *r)
{
	r->blocks = r->intact = r->corrupt = r->misplaced = r->stale = 0;
	r->first_bad = 0;
	return pass(c, r, NB_RW_READ);
}
