/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xz.c - compress the big file with liblzma's multithreaded encoder on
 * every CPU (the second user story's "compress it using xz, using all
 * processors"), reading it back through the runner.
 *
 * The input is the file bigfile wrote earlier in the run, or, when there
 * is none, one written the same way (incompressible data).  The encoder is
 * what `xz -T0 -PRESET` runs: lzma_stream_encoder_mt with lzma_cputhreads()
 * threads, the preset's default block size, CRC64.  The compressed stream
 * is counted and dropped.  Reads run one ahead of the encoder, so the box
 * is read while the CPUs compress.
 *
 * Preset 6 compresses random data at about 1.5 MB/s per core: 100 GB would
 * take most of a day on a small client.  Without size= or runtime= the
 * workload stops after XZ_DEFAULT_RUNTIME; with size= it compresses that
 * many bytes; with runtime= it stops after that long.  The figure is input
 * bytes per second including the final flush of the stream.
 *
 * The progress line shows that figure as it grows: the input the encoder's
 * threads have compressed so far (lzma_get_progress) over the time so far,
 * not the input read — the
 * encoder takes in a block per thread (24 MiB at preset 6) at memory speed
 * before it compresses any.  The encoder's timeout lets lzma_code() return
 * now and then so the line moves while the stream is finished.
 */
#include "seed.h"
#include "../../core/clock.h"
#include "../../core/err.h"
#include "../../core/units.h"
#include "../../core/knobs.h"

#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XZ_CHUNK (1U << 20)
#define XZ_OUT (1U << 20)
#define XZ_DEFAULT_RUNTIME_US 60000000ULL
#define XZ_DEFAULT_INPUT (256ULL << 20)  /* written when no bigfile exists */
#define XZ_WAIT_MS 300           /* lzma_code() returns at least this often */

struct xz {
	struct nb_wl_ctx *c;
	struct nb_file *f;
	lzma_stream strm;
	unsigned char *in[2], *out;
	uint64_t in_bytes, out_bytes, limit, file_size, deadline;
	uint64_t t0;             /* the timed work began (ns) */
	struct nb_io io;
	int pending;             /* a read is in flight */
};

static const char *lzma_msg(lzma_ret r)
{
	switch (r) {
	case LZMA_MEM_ERROR: return "out of memory";
	case LZMA_MEMLIMIT_ERROR: return "memory limit reached";
	case LZMA_OPTIONS_ERROR: return "unsupported options";
	case LZMA_UNSUPPORTED_CHECK: return "unsupported check";
	case LZMA_PROG_ERROR: return "programming error";
	default: return "error";
	}
}

/* Queue the read of the chunk at OFF into BUF. */
static int read_start(struct xz *x, unsigned char *buf, uint64_t off)
{
	uint64_t left = x->file_size - off;
	int rc;

	memset(&x->io, 0, sizeof(x->io));
	x->io.file = x->f;
	x->io.op = NB_OP_READ;
	x->io.off = off;
	x->io.len = left < XZ_CHUNK ? (uint32_t)left : XZ_CHUNK;
	x->io.buf = buf;
	rc = x->c->t->ops->submit(x->c->t, &x->io);
	if (rc < 0)
		return rc;
	x->pending = 1;
	return 0;
}

static int64_t read_wait(struct xz *x)
{
	struct nb_io *done;
	int rc;

	while (x->pending) {
		rc = x->c->t->ops->reap(x->c->t, &done, 1, 1000000);
		if (rc < 0) {
			x->pending = 0;
			return rc;
		}
		if (rc == 1)
			x->pending = 0;
	}
	if (x->io.result < 0)
		return nb_err((int)x->io.result, "target '%s': xz: read at offset "
			      "%llu failed: %s", x->c->t->cfg->name,
			      (unsigned long long)x->io.off,
			      strerror((int)-x->io.result));
	if (x->io.result == 0)
		return nb_err(-EIO, "target '%s': xz: the input ended early at "
			      "offset %llu", x->c->t->cfg->name,
			      (unsigned long long)x->io.off);
	return x->io.result;
}

/* The progress line: the input compressed so far, over the time so far. */
static void show(struct xz *x)
{
	uint64_t in = 0, out = 0;

	lzma_get_progress(&x->strm, &in, &out);
	nb_progress_update(x->c->progress, in, nb_now_ns() - x->t0);
}

static int code(struct xz *x, const unsigned char *buf, size_t len,
		lzma_action action)
{
	lzma_ret r;

	x->strm.next_in = buf;
	x->strm.avail_in = len;
	for (;;) {
		x->strm.next_out = x->out;
		x->strm.avail_out = XZ_OUT;
		r = lzma_code(&x->strm, action);
		x->out_bytes += XZ_OUT - x->strm.avail_out;
		show(x);
		if (r == LZMA_STREAM_END)
			return 0;
		if (r != LZMA_OK)
			return nb_err(-EIO, "xz: liblzma: %s", lzma_msg(r));
		if (action == LZMA_RUN && !x->strm.avail_in)
			return 0;
	}
}

static int input_size(struct xz *x, uint64_t want)
{
	struct nb_wl_ctx *c = x->c;
	struct nb_stat st;
	int rc;

	if (c->t->caps & NB_CAP_BLOCK) {
		if (c->t->filled < want) {
			rc = nb_bigfile_ensure(c, want);
			if (rc)
				return rc;
		}
		x->file_size = c->t->filled;
		return 0;
	}
	if (!c->t->ops->stat(c->t, NB_BIGFILE_NAME, &st) && st.size >= want) {
		x->file_size = st.size;
		return 0;
	}
	rc = nb_bigfile_ensure(c, want);
	if (rc)
		return rc;
	rc = c->t->ops->stat(c->t, NB_BIGFILE_NAME, &st);
	if (rc)
		return rc;
	x->file_size = st.size;
	return 0;
}

static char *fmt_secs(uint64_t us, char *buf, size_t len)
{
	double s = (double)us / 1e6;

	snprintf(buf, len, s < 10 ? "%.1f s" : "%.0f s", s);
	return buf;
}

static void xz_free(struct xz *x)
{
	if (x->pending)
		read_wait(x);
	if (x->f)
		x->c->t->ops->fclose(x->f);
	lzma_end(&x->strm);
	free(x->in[0]);
	free(x->in[1]);
	free(x->out);
}

/* The first iteration's spec, and what the user should expect of it. */
static void xz_spec(struct nb_wl_ctx *c, const struct xz *x, int preset,
		    uint32_t threads, uint64_t runtime)
{
	char a[32], b[32];

	c->spec = json_pack("{s:i, s:i, s:I, s:f, s:s}", "preset", preset,
			    "threads", (int)threads, "size", (json_int_t)x->limit,
			    "runtime_s", (double)runtime / 1e6, "check", "crc64");
	if (!nb_quiet)
		nb_warn("xz: preset %d on %u thread(s) compresses random data "
			"at a few MB/s (about 3 MB/s on 2 cores at preset 6): "
			"compressing at most %s%s%s", preset, threads,
			nb_fmt_size(x->limit, a, sizeof(a)),
			runtime ? " or for " : "",
			runtime ? fmt_secs(runtime, b, sizeof(b)) : "");
}

/* The encoder, the buffers and the big file open.  0, or -errno with
 * everything freed. */
static int xz_open(struct xz *x, const lzma_mt *mt, int preset)
{
	struct nb_wl_ctx *c = x->c;
	lzma_ret lr = lzma_stream_encoder_mt(&x->strm, mt);
	int rc;

	if (lr != LZMA_OK)
		return nb_err(-EIO, "xz: cannot start the encoder (preset %d, %u "
			      "threads): %s", preset, mt->threads, lzma_msg(lr));
	x->in[0] = nb_io_alloc(XZ_CHUNK);
	x->in[1] = nb_io_alloc(XZ_CHUNK);
	x->out = malloc(XZ_OUT);
	if (!x->in[0] || !x->in[1] || !x->out) {
		xz_free(x);
		return nb_err(-ENOMEM, "out of memory");
	}
	rc = c->t->ops->fopen(c->t, NB_BIGFILE_NAME,
			      NB_F_READ | (nb_switch(c->p->direct, 1) ? NB_F_DIRECT : 0), &x->f);
	if (rc) {
		x->f = NULL;
		xz_free(x);
	}
	return rc;
}

/* Read the file (the next chunk while this one is compressed) and
 * compress it, up to the limit or RUNTIME; then finish the stream.  The
 * phase PH measures it. */
static int xz_compress(struct xz *x, uint64_t runtime, struct nb_phase *ph)
{
	struct nb_wl_ctx *c = x->c;
	uint64_t off = 0, t0;
	int cur = 0, rc;

	nb_phase_begin(ph);
	t0 = x->t0 = ph->t0;
	rc = read_start(x, x->in[cur], 0);
	while (!rc) {
		int64_t n = read_wait(x);
		uint64_t now;

		if (n < 0) {
			rc = (int)n;
			break;
		}
		off += (uint64_t)n;
		now = nb_now_ns();
		/* read the next chunk while this one is compressed */
		if (off < x->limit && !*c->stop &&
		    (!runtime || now - t0 < runtime * 1000)) {
			rc = read_start(x, x->in[cur ^ 1], off);
			if (rc)
				break;
		} else if (runtime && off < x->limit && !*c->stop) {
			/* the bound: what the encoder took in is still compressed */
			nb_progress_phase(c->progress, "time is up, compressing "
					  "what was read");
		}
		if (off > x->limit)
			n -= (int64_t)(off - x->limit);
		rc = code(x, x->in[cur], (size_t)n, LZMA_RUN);
		x->in_bytes += (uint64_t)n;
		cur ^= 1;
		if (!x->pending)
			break;
	}
	if (!rc && *c->stop)
		rc = -EINTR;
	if (!rc) {
		nb_progress_phase(c->progress, "finishing the stream");
		rc = code(x, NULL, 0, LZMA_FINISH);
	}
	nb_phase_end(ph);
	return rc;
}

/* The iteration's figures, and a warning when the runtime cut it short. */
static void xz_record(struct nb_wl_ctx *c, const struct xz *x,
		      const struct nb_phase *ph, uint32_t threads,
		      uint64_t runtime, int preset)
{
	char a[32], b[32], d[32];

	nb_wl_metric(c, "bw_bytes", (double)x->in_bytes / ph->secs);
	nb_wl_metric(c, "xz_ratio", x->out_bytes ? (double)x->in_bytes /
		     (double)x->out_bytes : 0);
	nb_wl_metric(c, "cpu_pct", ph->cpu_pct);
	nb_wl_metric(c, "cpu_util_pct", ph->cpu_pct / (double)threads);
	nb_wl_metric(c, "seconds", ph->secs);
	json_object_set_new(c->extra, "bytes_in", json_integer((json_int_t)x->in_bytes));
	json_object_set_new(c->extra, "bytes_out",
			    json_integer((json_int_t)x->out_bytes));
	json_object_set_new(c->extra, "threads", json_integer(threads));
	if (x->in_bytes < x->limit)
		nb_wl_warn(c, "xz stopped after %s of %s (runtime bound %s): preset "
			   "%d is slow on incompressible data",
			   nb_fmt_size(x->in_bytes, a, sizeof(a)),
			   nb_fmt_size(x->limit, b, sizeof(b)),
			   fmt_secs(runtime, d, sizeof(d)), preset);
}

static int xz_run(struct nb_wl_ctx *c)
{
	struct xz x = { .c = c, .strm = LZMA_STREAM_INIT };
	int preset = c->p->preset >= 0 ? c->p->preset :
		     (int)nb_knob_default("suite", "preset");
	uint32_t threads = lzma_cputhreads();
	uint64_t runtime = c->p->runtime_us;
	lzma_mt mt = { .threads = threads ? threads : 1, .preset = (uint32_t)preset,
		       .check = LZMA_CHECK_CRC64, .timeout = XZ_WAIT_MS };
	struct nb_phase ph;
	char label[160];
	int rc;

	if (preset < 0 || preset > 9)
		return nb_err(-EINVAL, "xz: preset %d is out of range (0 to 9)",
			      preset);
	if (!c->p->size && !runtime)
		runtime = XZ_DEFAULT_RUNTIME_US;
	rc = input_size(&x, nb_wl_size(c->wl, c->p));
	if (rc)
		return rc;
	x.limit = c->p->size && c->p->size < x.file_size ? c->p->size : x.file_size;
	if (c->iteration == 1)
		xz_spec(c, &x, preset, mt.threads, runtime);
	rc = xz_open(&x, &mt, preset);
	if (rc)
		return rc;
	snprintf(label, sizeof(label), "xz -%d on %s (%d/%d)", preset,
		 c->t->cfg->name, c->iteration, c->iterations);
	nb_progress_begin(c->progress, label, x.limit, runtime * 1000);
	nb_progress_average(c->progress);   /* the figure is the average */
	rc = xz_compress(&x, runtime, &ph);
	nb_progress_end(c->progress);
	xz_free(&x);
	if (rc)
		return rc;
	xz_record(c, &x, &ph, mt.threads, runtime, preset);
	return 0;
}

static void xz_estimate(const struct nb_workload *w, const struct nb_params *p,
			struct nb_estimate *e)
{
	double secs = p->size ? (double)p->size / NB_ESTIMATE_XZ_RATE :
		      (double)XZ_DEFAULT_RUNTIME_US / 1e6;

	(void)w;
	if (p->runtime_us && (double)p->runtime_us / 1e6 < secs)
		secs = (double)p->runtime_us / 1e6;
	e->seconds = secs;
	e->written = 0;      /* it reads bigfile's file (or writes its own) */
}

const struct nb_workload nb_wl_xz = {
	.name = "xz",
	.help = "compress the big file with liblzma on every CPU (preset 6; "
		"bounded by size= or runtime=, default 60 s)",
	.run = xz_run,
	.plan_bytes = nb_wl_size,
	.default_size = XZ_DEFAULT_INPUT,
	.estimate = xz_estimate,
};

/* xz's row: [suite] preset (core/knobs.h). */
const struct nb_knob nb_xz_knobs[] = {
	{ .section = "suite", .name = "preset", .type = NB_KT_UINT, NB_PRM(preset),
	  .def = "6",
	  .max = 9, .help = "xz preset" },
	{ NULL },
};
