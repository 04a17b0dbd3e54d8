/* SPDX-License-Identifier: GPL-2.0-or-later */
/* common.c - what every workload uses: figures, warnings, data files. */
#include "workload.h"
#include "data_spec.h"
#include "netpath.h"
#include "../core/err.h"
#include "../core/knobs.h"
#include "../core/result.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define PREFILL_BS (1U << 20)
#define PREFILL_QD 8

void nb_wl_metric(struct nb_wl_ctx *c, const char *name, double v)
{
	json_object_set_new(c->metrics, name, json_real(v));
}

void nb_wl_hist_metrics(struct nb_wl_ctx *c, const char *what,
			const struct nb_hist *h)
{
	static const double pct[] = { 50, 90, 99, 99.9 };
	char name[32];

	snprintf(name, sizeof(name), "%s_mean_us", what);
	nb_wl_metric(c, name, nb_hist_mean(h) / 1e3);
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		snprintf(name, sizeof(name), "%s_p%g_us", what, pct[i]);
		nb_wl_metric(c, name, (double)nb_hist_percentile(h, pct[i]) / 1e3);
	}
	snprintf(name, sizeof(name), "%s_max_us", what);
	nb_wl_metric(c, name, (double)h->max / 1e3);
}

uint64_t nb_wl_size(const struct nb_workload *w, const struct nb_params *p)
{
	return p->size ? p->size : w->default_size;
}

uint64_t nb_wl_step_us(const struct nb_params *p)
{
	return p->step_us ? p->step_us : nb_knob_default("capacity", "step-time");
}

void nb_wl_warn(struct nb_wl_ctx *c, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (c->entry)
		nb_result_warn(c->entry, buf);
}

int nb_workload_serves(const struct nb_workload *w, const char *runner)
{
	size_t n = strlen(runner);

	if (!w->runners)
		return 1;
	for (const char *p = w->runners; *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, runner, n))
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

static unsigned needs_any(const struct nb_workload *w)
{
	return w->needs_any ? w->needs_any : NB_WL_DATA_CAPS;
}

int nb_workload_applies(const struct nb_workload *w, const char *runner,
			unsigned caps)
{
	if ((w->needs & caps) != w->needs)
		return 0;
	if (!(needs_any(w) & caps))
		return 0;
	return nb_workload_serves(w, runner);
}

const char *nb_workload_unsupported(const struct nb_workload *w,
				    const struct nb_target *t, char *buf,
				    size_t len)
{
	static const struct { unsigned cap; const char *what; } names[] = {
		{ NB_CAP_FILES, "files and directories" },
		{ NB_CAP_BLOCK, "a block address space" },
		{ NB_CAP_ASYNC, "more than one I/O in flight" },
		{ NB_CAP_SYNC, "durable (sync) writes" },
		{ NB_CAP_META, "metadata operations" },
	};
	unsigned missing = w->needs & ~t->caps;

	if (!nb_workload_serves(w, t->ops->name)) {
		snprintf(buf, len, "it serves %s targets only, not %s", w->runners,
			 t->ops->name);
		return buf;
	}

	if (!(needs_any(w) & t->caps))
		missing = needs_any(w);
	if (!missing)
		return NULL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (missing & names[i].cap) {
			snprintf(buf, len, "the %s runner on this target has no %s",
				 t->ops->name, names[i].what);
			return buf;
		}
	snprintf(buf, len, "the %s runner cannot serve it", t->ops->name);
	return buf;
}

void nb_iospec_resolve(const struct nb_iospec *def, const struct nb_params *p,
		       const struct nb_target *t, struct nb_iospec *s)
{
	*s = *def;
	if (p->bs)
		s->bs = p->bs;
	if (p->iodepth)
		s->qd = p->iodepth;
	s->size = p->size ? p->size : (def->size ? def->size :
		   nb_knob_default("suite", "size"));
	if (!p->size && t->capacity && s->size > t->capacity)
		s->size = t->capacity;
	s->size -= s->size % s->bs;
	if (p->runtime_us)
		s->runtime_us = p->runtime_us;
	if (p->direct >= 0)
		s->direct = p->direct;
	if (p->sync >= 0)
		s->sync = p->sync;
	nb_wl_data_resolve(p, s);
}

json_t *nb_iospec_json(const struct nb_iospec *s)
{
	static const char *rw[] = { "read", "write", "mix" };
	static const char *sync[] = { "none", "end", "always" };

	char b[32];
	json_t *j = json_pack("{s:s, s:s, s:i, s:i, s:i, s:I, s:I, s:f, s:s, s:b,"
			      " s:s, s:i}",
			      "pattern", s->pattern == NB_PAT_SEQ ? "seq" : "rand",
			      "rw", rw[s->rw], "read_pct", s->read_pct, "bs", s->bs,
			      "qd", s->qd, "size", (json_int_t)s->size, "bytes",
			      (json_int_t)s->bytes, "runtime_s",
			      (double)s->runtime_us / 1e6, "sync", sync[s->sync],
			      "direct", s->direct, "compress",
			      nb_data_ratio_str(s->data.ratio, b, sizeof(b)),
			      "dedupe_pct", (int)s->data.dedupe_pct);

	nb_wl_access_json(j, s);
	return j;
}

json_t *nb_hist_json(const struct nb_hist *h)
{
	json_t *out = json_array();

	for (unsigned i = 0; i < NB_HIST_BUCKETS; i++) {
		uint64_t lo, hi;

		if (!h->bucket[i])
			continue;
		nb_hist_range(i, &lo, &hi);
		json_array_append_new(out, json_pack("[I, I]", (json_int_t)lo,
						     (json_int_t)h->bucket[i]));
	}
	return out;
}

void nb_wl_io_metrics(struct nb_wl_ctx *c, const struct nb_io_result *r)
{
	double secs = (double)r->elapsed_ns / 1e9;
	const struct nb_hist *h = &r->lat;

	if (secs <= 0)
		secs = 1e-9;
	nb_wl_metric(c, "bw_bytes", (double)(r->bytes_read + r->bytes_written) / secs);
	nb_wl_metric(c, "iops", (double)r->ios / secs);
	nb_wl_hist_metrics(c, "lat", h);
	nb_wl_metric(c, "seconds", secs);
	json_object_set_new(c->extra, "bytes_read", json_integer((json_int_t)r->bytes_read));
	json_object_set_new(c->extra, "bytes_written",
			    json_integer((json_int_t)r->bytes_written));
	json_object_set_new(c->extra, "ios", json_integer((json_int_t)r->ios));
	if (h->count)
		json_object_set_new(c->extra, "lat_hist_ns", nb_hist_json(h));
	if (r->flush_ns)
		json_object_set_new(c->extra, "flush_ms",
				    json_real((double)r->flush_ns / 1e6));
	if (c->t->paths)          /* several paths: each one's share */
		json_object_set_new(c->extra, "paths",
				    nb_wl_paths_json(c->t, r->elapsed_ns));
}

static void on_progress(uint64_t bytes, uint64_t elapsed_ns, void *payload)
{
	nb_progress_update(payload, bytes, elapsed_ns);
}

void nb_wl_wrote(struct nb_wl_ctx *c, uint64_t end)
{
	if ((c->t->caps & NB_CAP_BLOCK) && end > c->t->filled)
		c->t->filled = end;
}

/* Bytes from the start of data file NAME that hold data of ours. */
static uint64_t written(struct nb_wl_ctx *c, const char *name)
{
	struct nb_stat st;

	if (c->t->caps & NB_CAP_BLOCK)
		return c->t->filled;
	if (!(c->t->caps & NB_CAP_META) || c->t->ops->stat(c->t, name, &st))
		return 0;
	return st.size;
}

/* This process's CPU time so far (user + system, all threads), seconds. */
static double cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* Write [FROM, SIZE) of NAME (FROM rounded down to the prefill's block);
 * *DONE: the bytes written.  The CPU it took is the iteration's
 * "prefill_cpu_s" (so a whole-process CPU figure can leave it out). */
static int prefill(struct nb_wl_ctx *c, const char *name, uint64_t from,
		   uint64_t size, uint64_t *done)
{
	struct nb_iospec s = { .pattern = NB_PAT_SEQ, .rw = NB_RW_WRITE,
			       .bs = PREFILL_BS, .qd = PREFILL_QD, .size = size,
			       .sync = NB_SYNC_END, .direct = 1, .seed = c->seed };
	struct nb_engine_hooks h = { .progress = on_progress, .live = c->progress,
				     .payload = c->progress, .stop = c->stop };
	struct nb_io_result *r = malloc(sizeof(*r));
	struct nb_file *f;
	char label[160];
	double cpu0 = cpu_s();
	int rc;

	*done = 0;
	if (!r)
		return nb_err_set("out of memory"), -ENOMEM;
	/* the data the workload writes: a pool's ratio is of all of it */
	nb_wl_data_resolve(c->p, &s);
	if (c->data)
		s.data = *c->data;
	/* a block that divides SIZE, so the prefill reaches its end (SIZE is
	 * a multiple of the target's block size) */
	while (s.bs > 1 && (s.bs > size || size % s.bs))
		s.bs /= 2;
	s.size = size - size % s.bs;
	s.start = from - from % s.bs;
	s.bytes = s.size - s.start;
	rc = c->t->ops->fopen(c->t, name, NB_F_WRITE | NB_F_CREATE | NB_F_DIRECT, &f);
	if (rc) {
		free(r);
		return rc;
	}
	snprintf(label, sizeof(label), "preparing the %s data file on %s",
		 c->wl->name, c->t->cfg->name);
	nb_progress_begin_untimed(c->progress, label, s.bytes);
	rc = nb_engine_run(c->t, f, &s, &h, r);
	nb_progress_end(c->progress);
	c->t->ops->fclose(f);
	json_object_set_new(c->extra, "prefill_cpu_s",
			    json_real((double)(long)((cpu_s() - cpu0) * 1000) / 1000));
	if (!rc && r->stopped)
		rc = -EINTR;
	*done = r->bytes_written;
	if (!rc && r->bytes_written >= s.bytes)
		nb_wl_wrote(c, s.size);
	free(r);
	return rc;
}

int nb_wl_prepare(struct nb_wl_ctx *c, const char *name, uint64_t size,
		  unsigned flags, struct nb_file **f)
{
	uint64_t have = size ? written(c, name) : 0, done = 0;
	int rc;

	if (size && have < size) {
		rc = prefill(c, name, have, size, &done);
		/* reading a LUN or device needs no destroy-data: when the guard
		 * keeps nasbench from writing it, the reads read what is there */
		if (rc == -EPERM && (c->t->caps & NB_CAP_BLOCK) &&
		    !(flags & NB_F_WRITE)) {
			nb_wl_warn(c, "read what the target holds, not data nasbench "
				   "wrote (%s): unwritten areas of a thin LUN may "
				   "read faster than real data", nb_err_last());
			nb_err_clear();
			rc = 0;
		}
		if (rc)
			return rc;
	}
	json_object_set_new(c->extra, "prefilled_bytes", json_integer((json_int_t)done));
	return c->t->ops->fopen(c->t, name, flags | NB_F_CREATE, f);
}

int nb_wl_io_open(struct nb_wl_ctx *c, const struct nb_iospec *s,
		  struct nb_file **f)
{
	unsigned flags = NB_F_READ;

	if (s->rw != NB_RW_READ)
		flags |= NB_F_WRITE;
	if (s->sync == NB_SYNC_ALWAYS && s->rw != NB_RW_READ)
		flags |= NB_F_SYNC;
	if (s->direct)
		flags |= NB_F_DIRECT;
	/*
	 * Every iteration does the same work.  A sequential write makes a new
	 * file each time on file targets (else the first would allocate and
	 * the next overwrite); on a block target it cannot, so all iterations
	 * overwrite: what this run has not written yet is prefilled first.
	 */
	if (s->pattern == NB_PAT_SEQ && s->rw == NB_RW_WRITE &&
	    !(c->t->caps & NB_CAP_BLOCK))
		return nb_wl_prepare(c, "data", 0, flags | NB_F_TRUNC, f);
	return nb_wl_prepare(c, "data", s->size, flags, f);
}
