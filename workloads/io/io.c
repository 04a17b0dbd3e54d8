/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io.c - the I/O-spec workloads: 512 KiB sequential and 4 KiB random.
 *
 * seq512k-* are VMware I/O Analyzer's "512k 0%Random" of the first user
 * story; rand4k-* the usual IOPS figures.  A plain write ends with one flush
 * (fsync / COMMIT / SYNCHRONIZE CACHE) whose time counts, so the figure is
 * what reached stable storage; -sync makes every write durable (O_DSYNC,
 * NFS FILE_SYNC, iSCSI FUA), which is what ESXi does over NFS.
 */
#include "../workload.h"
#include "../data.h"
#include "hotsweep.h"
#include "../../core/knobs.h"
#include "../fiodrv/fio_driver.h"
#include "io_sweep.h"
#include "openload.h"
#include "../../core/clock.h"
#include "../../core/err.h"
#include "../../core/samples.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* What the engine's hooks are given: the progress line, and the bytes of
 * each second for the throughput-over-time chart of 'report'; in a
 * failure walk each second's mean and p99 latency too (its timeline,
 * docs/failure.md), from the engine's histogram so far (the progress
 * line's) less the last second's. */
struct io_hooks {
	struct nb_progress *progress;
	json_t *series;
	json_t *lat_mean, *lat_p99;      /* NULL: not asked for */
	struct nb_hist *prev, *diff;
};

static void on_progress(uint64_t bytes, uint64_t elapsed_ns, void *payload)
{
	nb_progress_update(((struct io_hooks *)payload)->progress, bytes, elapsed_ns);
}

static void second_latency(struct io_hooks *ih)
{
	const struct nb_hist *h = ih->progress ? ih->progress->lat : NULL;
	struct nb_hist *d = ih->diff;

	if (!h || h->count <= ih->prev->count) {
		json_array_append_new(ih->lat_mean, json_null());
		json_array_append_new(ih->lat_p99, json_null());
		return;
	}
	for (unsigned i = 0; i < NB_HIST_BUCKETS; i++)
		d->bucket[i] = h->bucket[i] - ih->prev->bucket[i];
	d->count = h->count - ih->prev->count;
	d->sum = h->sum - ih->prev->sum;
	d->min = 0;
	d->max = h->max;
	json_array_append_new(ih->lat_mean, json_real(d->sum / (double)d->count / 1e3));
	json_array_append_new(ih->lat_p99, json_real(
		(double)nb_hist_percentile(d, 99) / 1e3));
	*ih->prev = *h;
}

static void on_second(unsigned sec, uint64_t bytes, void *payload)
{
	struct io_hooks *ih = payload;

	(void)sec;
	json_array_append_new(ih->series, json_integer((json_int_t)bytes));
	if (ih->lat_mean)
		second_latency(ih);
}

/* The per-second latency, asked for in a failure walk. */
static void lat_series(struct nb_wl_ctx *c, struct io_hooks *ih, int begin)
{
	if (begin && c->p->rebuild[0]) {
		ih->prev = calloc(1, sizeof(*ih->prev));
		ih->diff = calloc(1, sizeof(*ih->diff));
		if (ih->prev && ih->diff) {
			ih->lat_mean = json_array();
			ih->lat_p99 = json_array();
		}
		return;
	}
	if (!begin && ih->lat_mean && json_object_get(c->extra, "series_bw_bytes")) {
		size_t n = json_array_size(ih->series);

		while (json_array_size(ih->lat_mean) > n) {
			json_array_remove(ih->lat_mean, json_array_size(ih->lat_mean) - 1);
			json_array_remove(ih->lat_p99, json_array_size(ih->lat_p99) - 1);
		}
		json_object_set(c->extra, "series_lat_mean_us", ih->lat_mean);
		json_object_set(c->extra, "series_lat_p99_us", ih->lat_p99);
	}
	if (!begin) {
		json_decref(ih->lat_mean);
		json_decref(ih->lat_p99);
		free(ih->prev);
		free(ih->diff);
	}
}

/* One iteration of S with nasbench's own engine. */
static int io_native(struct nb_wl_ctx *c, const struct nb_iospec *sp)
{
	struct io_hooks ih = { c->progress, json_array(), NULL, NULL, NULL, NULL };
	struct nb_engine_hooks h = { .progress = on_progress, .live = c->progress,
				     .second = on_second, .payload = &ih,
				     .stop = c->stop };
	const struct nb_iospec s = *sp;
	struct nb_io_result *r;
	struct nb_zsample z;
	struct nb_file *f;
	char label[160];
	int rc, sampled;

	rc = nb_wl_io_open(c, &s, &f);
	if (rc) {
		json_decref(ih.series);
		return rc;
	}
	r = malloc(sizeof(*r));
	sampled = nb_wl_data_sample(c, &s, &z);
	if (!r || sampled < 0) {
		free(r);
		if (sampled > 0)
			nb_zsample_free(&z);
		c->t->ops->fclose(f);
		json_decref(ih.series);
		return nb_err_set("out of memory"), -ENOMEM;
	}
	if (sampled)
		h.sample = &z;
	lat_series(c, &ih, 1);
	snprintf(label, sizeof(label), "%s on %s (%d/%d%s%s)", c->wl->name,
		 c->t->cfg->name, c->iteration, c->iterations,
		 c->phase ? ", " : "", c->phase ? c->phase : "");
	nb_progress_begin(c->progress, label, s.runtime_us ? 0 : (s.bytes ? s.bytes : s.size),
			  s.runtime_us * 1000);
	/* where the series begins on the clock (telemetry aligns to it) */
	json_object_set_new(c->extra, "series_t0_ms", json_integer((json_int_t)nb_now_ms()));
	rc = nb_engine_run(c->t, f, &s, &h, r);
	nb_progress_end(c->progress);
	c->t->ops->fclose(f);
	if (!rc && r->stopped)
		rc = -EINTR;
	if (!rc) {
		/* whole seconds only: the last part-second is no rate */
		size_t whole = (size_t)(r->elapsed_ns / 1000000000ULL);

		while (json_array_size(ih.series) > whole)
			json_array_remove(ih.series, json_array_size(ih.series) - 1);
		if (whole >= 2)
			json_object_set(c->extra, "series_bw_bytes", ih.series);
		nb_wl_io_metrics(c, r);
		if (r->is_open)
			nb_wl_open_metrics(c, &s, r);
		/* the samples behind its figures (core/samples.h) */
		json_object_set_new(c->extra, "timed", json_integer((json_int_t)
				    (r->is_open ? r->open.resp.count : r->lat.count)));
		if (r->stretched)
			nb_wl_warn(c, "iteration %d ran %.2f s, past its %.2f s "
				   "runtime, until it had issued the %d I/Os a "
				   "figure needs (at most %d runtimes)", c->iteration,
				   (double)r->elapsed_ns / 1e9,
				   (double)s.runtime_us / 1e6, NB_MEAN_MIN_SAMPLES,
				   NB_RUNTIME_STRETCH);
		if (sampled)
			nb_wl_data_record(c, &s, r, &z), sampled = 0;
		/* what completed, from offset 0 up (a runtime may end it early) */
		if (s.rw == NB_RW_WRITE && s.pattern == NB_PAT_SEQ)
			nb_wl_wrote(c, r->bytes_written < s.size ?
				    r->bytes_written : s.size);
	}
	lat_series(c, &ih, 0);
	if (sampled)
		nb_zsample_free(&z);
	free(r);
	json_decref(ih.series);
	return rc;
}

/* One run of S at its depth: engine = fio, --cross-check, --clients go
 * through workloads/fiodrv/fio_driver.c. */
static int io_once(struct nb_wl_ctx *c, const struct nb_iospec *s)
{
	int rc;

	if (!nb_wl_fio_wanted(c))
		return io_native(c, s);
	rc = nb_wl_fio_run(c, s, io_native);
	/* fio carried it (not the native half of a cross-check) */
	if (!rc && nb_iospec_open(s) && !json_object_get(c->extra, "open"))
		nb_wl_open_fio_metrics(c, s);
	return rc;
}

int nb_wl_io_spec_run(struct nb_wl_ctx *c, const struct nb_iospec *s,
		      json_t *vm, double vm_iops)
{
	if (c->t->capacity && s->size > c->t->capacity)
		return nb_err_set("target '%s' has %llu bytes, fewer than the size "
				  "%llu asked for", c->t->cfg->name,
				  (unsigned long long)c->t->capacity,
				  (unsigned long long)s->size), -ENOSPC;
	if (c->p->steady[0] && (nb_wl_fio_wanted(c) || nb_wl_sweep_wanted(c->p)))
		return nb_err(-EINVAL, "--steady-state runs on nasbench's own "
			      "engine at one depth: leave out engine = fio, "
			      "--clients, --cross-check and --sweep");
	if (nb_wl_hot_wanted(c->p) && s->pattern == NB_PAT_RAND) {
		if (c->p->steady[0] || nb_wl_sweep_wanted(c->p))
			return nb_err(-EINVAL, "--hot-sizes sweeps the hot set at one "
				      "load: leave out --steady-state and --sweep");
		return nb_wl_hot_run(c, s, io_once, vm_iops);
	}
	if (nb_wl_hot_wanted(c->p) && c->iteration == 1)
		nb_wl_warn(c, "hot-sizes: %s is sequential, run once without a hot "
			   "set (a hot set is where random I/Os fall)", c->wl->name);
	if (c->p->steady[0])
		return nb_wl_steady_run(c, s);
	if (nb_wl_sweep_wanted(c->p))
		return nb_wl_sweep_run(c, s, io_once, vm, vm_iops);
	return io_once(c, s);
}

static int io_run(struct nb_wl_ctx *c)
{
	struct nb_iospec s;

	nb_iospec_resolve(c->wl->io, c->p, c->t, &s);
	nb_wl_capacity_size(c, &s);
	if (!nb_wl_sweep_wanted(c->p))
		nb_iospec_load(&s, c->p);
	s.seed = c->seed;
	if (c->iteration == 1) {
		c->spec = nb_iospec_json(&s);
		nb_open_spec_json(c->spec, &s);
	}
	return nb_wl_io_spec_run(c, &s, NULL, 0);
}

static uint64_t io_plan_bytes(const struct nb_workload *w,
			      const struct nb_params *p)
{
	return p->size ? p->size : nb_wl_capacity_bytes(p, w->io->size ? w->io->size :
							 nb_knob_default("suite", "size"));
}

#define IO_WORKLOAD(wname, uname, whelp, ...)                                       \
	static const struct nb_iospec spec_##wname = { __VA_ARGS__ };        \
	const struct nb_workload nb_wl_##wname = {                           \
		.name = uname, .help = whelp,                               \
		.io = &spec_##wname, .run = io_run,                          \
		.plan_bytes = io_plan_bytes,                                 \
	}

#define SEQ .pattern = NB_PAT_SEQ, .bs = 512 * 1024, .qd = 16, .direct = 1
#define RAND .pattern = NB_PAT_RAND, .bs = 4096, .qd = 32, .direct = 1

IO_WORKLOAD(seq512k_read, "seq512k-read", "512 KiB sequential reads, 16 in flight",
	    SEQ, .rw = NB_RW_READ);
IO_WORKLOAD(seq512k_write, "seq512k-write", "512 KiB sequential writes, 16 in flight, flushed at the end",
	    SEQ, .rw = NB_RW_WRITE, .sync = NB_SYNC_END);
IO_WORKLOAD(seq512k_write_sync, "seq512k-write-sync", "512 KiB sequential writes, each durable (ESXi over NFS)",
	    SEQ, .rw = NB_RW_WRITE, .sync = NB_SYNC_ALWAYS);
IO_WORKLOAD(rand4k_read, "rand4k-read", "4 KiB random reads, 32 in flight",
	    RAND, .rw = NB_RW_READ);
IO_WORKLOAD(rand4k_write, "rand4k-write", "4 KiB random writes, 32 in flight, flushed at the end",
	    RAND, .rw = NB_RW_WRITE, .sync = NB_SYNC_END);
IO_WORKLOAD(rand4k_write_sync, "rand4k-write-sync", "4 KiB random writes, each durable",
	    RAND, .rw = NB_RW_WRITE, .sync = NB_SYNC_ALWAYS);
IO_WORKLOAD(rand4k_mix, "rand4k-mix", "4 KiB random, 70% reads / 30% writes, 32 in flight",
	    RAND, .rw = NB_RW_MIX, .read_pct = 70, .sync = NB_SYNC_END);
