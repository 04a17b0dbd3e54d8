/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bigfile.c - write one large file of incompressible data (the second user
 * story's "100G file with data from /dev/rand"), with a throughput-per-
 * second series that shows where the box's caches fill and its disks take
 * over; verify=yes reads it back and checks every 4 KiB block.
 *
 * The data is fresh for every buffer (xoshiro256** seeded by the offset),
 * so neither compression nor deduplication nor xz's dictionary finds
 * anything, and it is made on the submitting thread faster than any box
 * takes it (datagen_bw_bytes in the result says how fast: several GB/s).
 * With verify each 4 KiB block carries a header (offset, run id, sequence,
 * checksum: nb_block_fill) and the read-back names the first bad offset.
 *
 * The file stays in the scratch directory until the target is closed, so
 * xz can compress it.  An interrupt keeps the figures of what was written.
 */
#include "seed.h"
#include "../../core/clock.h"
#include "../../core/datagen.h"
#include "../../core/err.h"
#include "../../core/hook.h"
#include "../../core/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BIGFILE_DEFAULT (100ULL * 1000 * 1000 * 1000)   /* 100 GB */
#define BIGFILE_BS (1U << 20)
#define BIGFILE_QD 16
#define VERIFY_BLOCK 4096

struct bigfile {
	struct nb_wl_ctx *c;
	uint64_t seed, run_id;
	int verify;
	uint64_t gen_ns, gen_bytes;
	json_t *series;
	uint64_t bad_off;
	int bad_state;
};

/* CPU time of this thread: data generation per core, whatever else the
 * machine is doing. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void fill(void *buf, uint32_t len, uint64_t off, void *payload)
{
	struct bigfile *b = payload;
	uint64_t t0 = thread_cpu_ns();

	if (b->verify) {
		for (uint32_t o = 0; o + VERIFY_BLOCK <= len; o += VERIFY_BLOCK)
			nb_block_fill((char *)buf + o, VERIFY_BLOCK, off + o,
				      b->run_id, 1);
	} else {
		struct nb_rng r;

		nb_rng_seed(&r, b->seed ^ (off * 0x9e3779b97f4a7c15ULL));
		nb_datagen_fill(&r, buf, len);
		nb_datagen_stamp(buf, len, off, 1);
	}
	b->gen_ns += thread_cpu_ns() - t0;
	b->gen_bytes += len;
}

static const char *state_name(int st)
{
	switch (st) {
	case NB_BLOCK_CORRUPT: return "corrupt (checksum mismatch)";
	case NB_BLOCK_MISPLACED: return "misplaced (a block of another offset)";
	case NB_BLOCK_STALE: return "stale (written by an earlier pass)";
	case NB_BLOCK_FOREIGN: return "not written by this run";
	default: return "bad";
	}
}

static int check(const void *buf, uint32_t len, uint64_t off, void *payload)
{
	struct bigfile *b = payload;

	for (uint32_t o = 0; o + VERIFY_BLOCK <= len; o += VERIFY_BLOCK) {
		int st = nb_block_check((const char *)buf + o, VERIFY_BLOCK,
					off + o, b->run_id, 1);

		if (st != NB_BLOCK_OK) {
			b->bad_off = off + o;
			b->bad_state = st;
			nb_err_set("target '%s': bigfile verify: the 4 KiB block at "
				   "offset %llu is %s", b->c->t->cfg->name,
				   (unsigned long long)(off + o), state_name(st));
			return 1;
		}
	}
	return 0;
}

static void on_progress(uint64_t bytes, uint64_t elapsed_ns, void *payload)
{
	nb_progress_update(((struct bigfile *)payload)->c->progress, bytes,
			   elapsed_ns);
}

static void on_second(unsigned sec, uint64_t bytes, void *payload)
{
	struct bigfile *b = payload;

	(void)sec;
	if (b->series)
		json_array_append_new(b->series, json_integer((json_int_t)bytes));
}

/* The size asked for, rounded down to whole I/Os, within the target. */
static uint64_t bigfile_size(const struct nb_wl_ctx *c, uint64_t want)
{
	uint64_t size = want ? want : BIGFILE_DEFAULT;

	if (!want && c->t->capacity && size > c->t->capacity)
		size = c->t->capacity;
	return size - size % BIGFILE_BS;
}

static int check_fits(struct nb_wl_ctx *c, uint64_t size)
{
	char a[32], b[32];

	if (size < BIGFILE_BS)
		return nb_err(-EINVAL, "target '%s': bigfile needs a size of at "
			      "least 1 MiB", c->t->cfg->name);
	if (c->t->capacity && size > c->t->capacity)
		return nb_err(-ENOSPC, "target '%s' has %s, less than the bigfile "
			      "size %s", c->t->cfg->name,
			      nb_fmt_size(c->t->capacity, a, sizeof(a)),
			      nb_fmt_size(size, b, sizeof(b)));
	return 0;
}

/* Write SIZE bytes; R holds what finished.  WHAT names the workload; with
 * UNTIMED the file is that workload's input, not a figure of its own. */
static int write_file(struct bigfile *b, uint64_t size, int direct,
		      struct nb_io_result *r, const char *what, int untimed)
{
	struct nb_wl_ctx *c = b->c;
	struct nb_iospec s = { .pattern = NB_PAT_SEQ, .rw = NB_RW_WRITE,
			       .bs = BIGFILE_BS, .qd = BIGFILE_QD, .size = size,
			       .sync = NB_SYNC_END, .direct = direct,
			       .seed = b->seed };
	struct nb_engine_hooks h = { .fill = fill, .progress = on_progress,
				     .live = c->progress,
				     .second = on_second, .payload = b,
				     .stop = c->stop };
	unsigned flags = NB_F_WRITE | NB_F_CREATE | NB_F_TRUNC;
	struct nb_file *f;
	char label[160];
	int rc;

	if (c->p->iodepth)
		s.qd = c->p->iodepth;
	if (direct)
		flags |= NB_F_DIRECT;
	rc = c->t->ops->fopen(c->t, NB_BIGFILE_NAME, flags, &f);
	if (rc)
		return rc;
	if (untimed) {
		/* another workload's input: written, not measured */
		snprintf(label, sizeof(label), "preparing the %s input on %s",
			 what, c->t->cfg->name);
		nb_progress_begin_untimed(c->progress, label, size);
	} else {
		snprintf(label, sizeof(label), "%s on %s (%d/%d)", what,
			 c->t->cfg->name, c->iteration, c->iterations);
		nb_progress_begin(c->progress, label, size, 0);
	}
	rc = nb_engine_run(c->t, f, &s, &h, r);
	nb_progress_end(c->progress);
	c->t->ops->fclose(f);
	if (!rc && (c->t->caps & NB_CAP_BLOCK)) {
		uint64_t done = r->bytes_written - r->bytes_written % BIGFILE_BS;

		if (done > c->t->filled)
			c->t->filled = done;
	}
	return rc;
}

static int verify_file(struct bigfile *b, uint64_t size, int direct,
		       struct nb_io_result *r)
{
	struct nb_wl_ctx *c = b->c;
	struct nb_iospec s = { .pattern = NB_PAT_SEQ, .rw = NB_RW_READ,
			       .bs = BIGFILE_BS, .qd = BIGFILE_QD, .size = size,
			       .direct = direct, .seed = b->seed };
	struct nb_engine_hooks h = { .check = check, .progress = on_progress,
				     .payload = b, .stop = c->stop };
	struct nb_file *f;
	char label[160];
	int rc;

	rc = c->t->ops->fopen(c->t, NB_BIGFILE_NAME,
			      NB_F_READ | (direct ? NB_F_DIRECT : 0), &f);
	if (rc)
		return rc;
	snprintf(label, sizeof(label), "bigfile verify on %s (%d/%d)",
		 c->t->cfg->name, c->iteration, c->iterations);
	nb_progress_begin(c->progress, label, size, 0);
	rc = nb_engine_run(c->t, f, &s, &h, r);
	nb_progress_end(c->progress);
	c->t->ops->fclose(f);
	return rc;
}

/* The write's figures: its rate, the data generator's, and a warning
 * where the generator may have been the bottleneck. */
static void bigfile_record(struct nb_wl_ctx *c, struct bigfile *b,
			   const struct nb_io_result *r, uint64_t size)
{
	double gen = b->gen_ns ? (double)b->gen_bytes / ((double)b->gen_ns / 1e9) : 0;

	nb_wl_io_metrics(c, r);
	nb_wl_metric(c, "datagen_bw_bytes", gen);
	nb_wl_steady_series(c, b->series, (unsigned)(r->elapsed_ns / 1000000000ULL));
	json_object_set_new(c->extra, "series_bw_bytes", b->series);
	json_object_set_new(c->extra, "size", json_integer((json_int_t)size));
	if (gen > 0 && gen < 2 * (double)r->bytes_written /
			      ((double)r->elapsed_ns / 1e9))
		nb_wl_warn(c, "data generation (%.0f MB/s) was less than twice "
			   "the write rate: the figure may be the client's, not "
			   "the box's", gen / 1e6);
}

/* Read the file back and check every block (--verify).  0 or -errno;
 * where a bad block stopped it, its offset is in the iteration. */
static int bigfile_verify(struct nb_wl_ctx *c, struct bigfile *b,
			  uint64_t size, int direct)
{
	struct nb_io_result *v = malloc(sizeof(*v));
	uint64_t cached;
	int rc;

	if (!v)
		return nb_err(-ENOMEM, "out of memory");
	nb_hook("before-verify", NULL, c->stop);
	cached = c->t->cached_opens;
	rc = verify_file(b, size, direct, v);
	if (!rc && !v->stopped && c->t->cached_opens > cached) {
		json_object_set_new(c->extra, "verified_bytes", json_integer(0));
		nb_wl_warn(c, "bigfile: not verified: the read-back went "
			   "through this client's page cache (O_DIRECT "
			   "refused), which can hand back what was written "
			   "whatever the media holds");
	} else if (!rc && !v->stopped) {
		nb_wl_metric(c, "verify_bw_bytes", (double)v->bytes_read /
			     ((double)v->elapsed_ns / 1e9));
		json_object_set_new(c->extra, "verified_bytes",
				    json_integer((json_int_t)v->bytes_read));
	} else if (!rc) {
		nb_wl_warn(c, "interrupted during verify: %llu of %llu "
			   "bytes checked",
			   (unsigned long long)v->bytes_read,
			   (unsigned long long)size);
	}
	if (rc && b->bad_state)
		json_object_set_new(c->extra, "bad_offset",
				    json_integer((json_int_t)b->bad_off));
	free(v);
	return rc;
}

static int bigfile_run(struct nb_wl_ctx *c)
{
	struct bigfile b = { .c = c, .seed = c->seed, .verify = c->p->verify > 0 };
	uint64_t size = bigfile_size(c, c->p->size);
	int direct = c->p->direct != 0;
	struct nb_io_result *r;
	int rc;

	rc = check_fits(c, size);
	if (rc)
		return rc;
	/* the run id of the block headers: this run, this iteration */
	b.run_id = nb_fnv1a(c->run_id, strlen(c->run_id), 0) ^
		   ((uint64_t)c->iteration << 56);
	if (c->iteration == 1)
		c->spec = json_pack("{s:I, s:i, s:i, s:b, s:b}", "size",
				    (json_int_t)size, "bs", BIGFILE_BS, "qd",
				    c->p->iodepth ? (int)c->p->iodepth : BIGFILE_QD,
				    "direct", direct, "verify", b.verify);
	r = malloc(sizeof(*r));
	b.series = json_array();
	if (!r || !b.series) {
		free(r);
		json_decref(b.series);
		return nb_err(-ENOMEM, "out of memory");
	}
	rc = write_file(&b, size, direct, r, "bigfile", 0);
	if (rc) {
		json_decref(b.series);
		free(r);
		return rc;
	}
	bigfile_record(c, &b, r, size);
	if (r->stopped) {
		char a[32], t[32];

		json_object_set_new(c->extra, "partial", json_true());
		nb_wl_warn(c, "interrupted after %s of %s: the figures are partial",
			   nb_fmt_size(r->bytes_written, a, sizeof(a)),
			   nb_fmt_size(size, t, sizeof(t)));
	} else if (b.verify) {
		rc = bigfile_verify(c, &b, size, direct);
	}
	free(r);
	return rc;
}

/* For xz: the file as bigfile writes it, when it is not there already. */
int nb_bigfile_ensure(struct nb_wl_ctx *c, uint64_t size)
{
	struct bigfile b = { .c = c, .seed = c->seed ^ 0x787a };
	struct nb_io_result *r;
	struct nb_stat st;
	int rc;

	size -= size % BIGFILE_BS;
	if (size < BIGFILE_BS)
		size = BIGFILE_BS;
	if (c->t->caps & NB_CAP_BLOCK) {
		if (c->t->filled >= size)
			return 0;
	} else if ((c->t->caps & NB_CAP_META) &&
		   !c->t->ops->stat(c->t, NB_BIGFILE_NAME, &st) && st.size >= size) {
		return 0;
	}
	rc = check_fits(c, size);
	if (rc)
		return rc;
	r = malloc(sizeof(*r));
	if (!r)
		return nb_err(-ENOMEM, "out of memory");
	rc = write_file(&b, size, c->p->direct != 0, r, c->wl->name, 1);
	if (!rc && r->stopped)
		rc = -EINTR;
	free(r);
	return rc;
}

static void bigfile_estimate(const struct nb_workload *w,
			     const struct nb_params *p, struct nb_estimate *e)
{
	e->written = nb_wl_size(w, p);
	e->seconds = (p->verify > 0 ? 2 : 1) * (double)e->written / NB_ESTIMATE_RATE;
}

const struct nb_workload nb_wl_bigfile = {
	.name = "bigfile",
	.help = "one file of incompressible data (default 100 GB), MB/s per second; "
		"verify=yes checks every block",
	.run = bigfile_run,
	.plan_bytes = nb_wl_size,
	.default_size = BIGFILE_DEFAULT,
	.estimate = bigfile_estimate,
};
