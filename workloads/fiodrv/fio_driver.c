/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio_driver.c - the I/O workloads through fio (see fio_driver.h).
 *
 * Local runs: the data file is prepared (and the data-loss guard passed)
 * through the posix runner exactly as for the native engine, in the same
 * scratch directory nasbench.<run-id>/; fio gets its job file on standard
 * input and writes nothing else.  The job file's text is kept in the result
 * (iteration "fio"."job"): the result is the one file users keep, and it
 * then reproduces the run on its own ('fio JOB' with the text saved).
 *
 * Client runs are fio_driver_clients.c.
 */
#include "fio_driver.h"
#include "fio_driver_clients.h"
#include "fio_driver_common.h"
#include "fio_driver_paths.h"
#include "fio_driver_remote.h"
#include "../../fio/engines.h"
#include "../../core/err.h"
#include "../../core/progress.h"
#include "../../core/result.h"
#include "../../core/stats.h"
#include "../../core/knobs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int is_fio(const struct nb_target *t)
{
	return !strcmp(t->cfg->engine, "fio");
}

int nb_wl_fio_wanted(const struct nb_wl_ctx *c)
{
	return is_fio(c->t) || c->p->cross_check ||
	       (c->t->cfg->clients && c->t->cfg->clients->n);
}

/* fio on this machine: the file the native engine would use. */

/* The target's data file as an absolute path (so the recorded job file
 * works from anywhere) and its window's start, prepared (and guarded) as
 * the native engine prepares it.  0 or -errno. */
static int local_file(struct nb_wl_ctx *c, struct nb_iospec *s, char *path,
		      size_t len, uint64_t *base)
{
	struct nb_target *t = c->t;
	struct nb_file *f;
	int rc;

	rc = nb_wl_io_open(c, s, &f);
	if (rc)
		return rc;
	t->ops->fclose(f);
	rc = t->ops->local_path(t, "data", path, len, base);
	if (!rc && path[0] != '/') {
		char cwd[PATH_MAX], rel[PATH_MAX];

		snprintf(rel, sizeof(rel), "%s", path);
		if (!getcwd(cwd, sizeof(cwd)) ||
		    snprintf(path, len, "%s/%s", cwd,
			     rel[0] == '.' && rel[1] == '/' ? rel + 2 : rel) >= (int)len)
			rc = -ENAMETOOLONG;
	}
	if (rc)
		return nb_err(rc, "target '%s': path too long", t->cfg->name);
	return 0;
}

/* What fio will do differently from the spec, said before it runs: no
 * O_DIRECT where the file system refuses it, queue depth 1 with psync. */
static void local_adjust(struct nb_wl_ctx *c, struct nb_iospec *s,
			 const char *path, const char *ioengine)
{
	if (s->direct) {
		int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);

		if (fd < 0 && errno == EINVAL) {
			s->direct = 0;
			nb_wl_warn(c, "the file system of target '%s' refuses "
				   "O_DIRECT; fio measured through the page cache",
				   c->t->cfg->name);
		}
		if (fd >= 0)
			close(fd);
	}
	if (!strcmp(ioengine, "psync") && s->qd > 1)
		nb_wl_warn(c, "ioengine psync is synchronous: fio ran queue depth "
			   "%u as 1", s->qd);
}

/* Run job file TEXT through fio and read its figures into OUT; with W
 * of several paths each job's into the iteration's "paths". */
static int local_exec(struct nb_wl_ctx *c, const struct nb_iospec *s,
		      const char *text, struct nb_fio_output *out,
		      const struct nb_wl_fio_where *w)
{
	const char *name = c->t->cfg->name;
	char *argv[] = { "fio", "--output-format=json+", "-", NULL };
	char label[200], line[512];
	struct nb_fio_exec x;
	int rc;

	snprintf(label, sizeof(label), "%s on %s (%d/%d, fio)", c->wl->name,
		 name, c->iteration, c->iterations);
	nb_progress_begin(c->progress, label, 0, s->runtime_us * 1000);
	rc = nb_fio_exec(argv, text, c->stop, nb_wl_fio_limit(s), &x);
	nb_progress_end(c->progress);
	if (rc)
		return rc;
	if (x.stopped || (c->stop && *c->stop)) {
		rc = -EINTR;
	} else if (x.timed_out) {
		rc = nb_err(-ETIMEDOUT, "target '%s': fio ran %llu s past its "
			    "runtime and was stopped", name,
			    (unsigned long long)(NB_FIO_GRACE_US / 1000000));
	} else if (x.status) {
		rc = nb_err(-EIO, "target '%s': fio failed (exit status %d): %s",
			    name, x.status,
			    nb_wl_fio_complaint(x.err, line, sizeof(line)));
	} else if (nb_fio_parse(x.out, x.out_len, out)) {
		rc = -EIO;
		nb_err_prefix("target '%s'", name);
	} else if (out->total.error) {
		rc = nb_err(-EIO, "target '%s': fio's job failed: %s", name,
			    strerror(out->total.error));
	} else if (w && w->npaths > 1) {
		json_t *paths = nb_wl_fio_paths_figures(x.out, x.out_len, w);

		if (paths)
			json_object_set_new(c->extra, "paths", paths);
	}
	nb_fio_exec_free(&x);
	return rc;
}

/* The iteration's figures and its "fio" record; W where fio reached the
 * box itself (its writes' durability), else NULL. */
static void local_record(struct nb_wl_ctx *c, const struct nb_iospec *s,
			 const struct nb_fio_job *job, const char *text,
			 const struct nb_fio_output *out, const struct nb_wl_fio_where *w)
{
	json_t *fj = json_pack("{s:s, s:s, s:s, s:s, s:f, s:f}", "version",
			       out->version, "ioengine", job->ioengine, "command",
			       "fio --output-format=json+ JOBFILE", "job", text,
			       "clat_p50_us", out->total.clat_p50_us,
			       "clat_p99_us", out->total.clat_p99_us);

	nb_fio_put_metrics(c->metrics, &out->total);
	nb_wl_fio_put_counts(c->extra, &out->total);
	if (w)
		json_object_set_new(fj, "durable", json_boolean(w->durable));
	json_object_set_new(c->extra, "fio", fj);
	/* what fio wrote, from offset 0 up (a runtime may end it early) */
	if (s->rw == NB_RW_WRITE && s->pattern == NB_PAT_SEQ)
		nb_wl_wrote(c, out->total.bytes_written < s->size ?
			    out->total.bytes_written : s->size);
}

static int run_local(struct nb_wl_ctx *c, const struct nb_iospec *spec)
{
	struct nb_iospec s = *spec;
	struct nb_fio_job job = { .ioengine = nb_wl_fio_ioengine(c->t) };
	struct nb_fio_output *out = NULL;
	struct nb_wl_fio_where w;
	char path[PATH_MAX], comment[256];
	char *text = NULL;
	int remote = nb_wl_fio_is_remote(c->t);
	uint64_t base = 0;
	int rc, n;

	if (!c->t->ops->local_path && !remote)
		return nb_fio_check_scheme(c->t->cfg->name, c->t->cfg->u.scheme,
					   "engine = fio");
	rc = remote ? nb_wl_fio_remote_prepare(c, &s, &w)
		    : local_file(c, &s, path, sizeof(path), &base);
	if (rc)
		return rc;
	if (!remote)
		local_adjust(c, &s, path, job.ioengine);
	job.s = s;
	job.filename = path;
	job.offset = base;
	if (remote)
		nb_wl_fio_remote_job(&w, 0, &job);
	nb_wl_fio_comment(c, comment, sizeof(comment));
	job.comment = comment;
	text = malloc(NB_FIO_JOB_MAX * NB_MAX_PATHS);
	out = malloc(sizeof(*out));
	if (!text || !out) {
		rc = nb_err(-ENOMEM, "out of memory");
		goto done;
	}
	/* several paths: a job each (fio_driver_paths.h) */
	n = remote && w.npaths > 1 ?
	    nb_wl_fio_paths_jobfile(&job, &w, text, NB_FIO_JOB_MAX * NB_MAX_PATHS) :
	    nb_fio_jobfile(&job, text, NB_FIO_JOB_MAX);
	if (n < 0) {
		rc = n;
		nb_err_prefix("target '%s'", c->t->cfg->name);
		goto done;
	}
	rc = local_exec(c, &s, text, out, remote ? &w : NULL);
	nb_wl_fio_stamp(c, &s);
	if (!rc)
		local_record(c, &s, &job, text, out, remote ? &w : NULL);
done:
	free(text);
	free(out);
	return rc;
}

/* ---- cross-check ---------------------------------------------------- */

static double metric(const json_t *m, const char *name)
{
	return json_number_value(json_object_get(m, name));
}

/* A sequential write extends a new file the first time and overwrites it
 * afterwards, which differ in cost: each engine starts from no file. */
static void fresh_file(struct nb_wl_ctx *c, const struct nb_iospec *s)
{
	if (s->pattern == NB_PAT_SEQ && s->rw == NB_RW_WRITE &&
	    (c->t->caps & NB_CAP_META) && c->t->ops->unlink)
		c->t->ops->unlink(c->t, "data");
	nb_err_clear();
}

/* After the last iteration: the median fio/nasbench throughput ratio of
 * all iterations (R is this one's), flagged when over the tolerance. */
static void xcheck_verdict(struct nb_wl_ctx *c, double r)
{
	double v[1001];
	int n = c->entry ? nb_result_values(c->entry, "xcheck_bw_ratio", v, 1000)
			 : 0;
	struct nb_summary s;
	char msg[400];

	v[n++] = r;
	nb_stats_summary(v, (size_t)n, &s);
	if (fabs(s.median - 1) <= NB_XCHECK_TOLERANCE)
		return;
	snprintf(msg, sizeof(msg), "cross-check: fio/nasbench throughput %.2f "
		 "(median of %d iteration%s, %.2f to %.2f): more than %.0f%% apart",
		 s.median, n, n == 1 ? "" : "s", s.min, s.max,
		 NB_XCHECK_TOLERANCE * 100);
	nb_wl_warn(c, "%s", msg);
	nb_warn("%s on '%s': %s", c->wl->name, c->t->cfg->name, msg);
}

static int cross_check(struct nb_wl_ctx *c, const struct nb_iospec *s,
		       nb_wl_io_fn native)
{
	static const char *const ratios[] = { "bw_bytes", "iops", "lat_mean_us",
					      "lat_p50_us", "lat_p99_us" };
	int fio_first = is_fio(c->t);
	json_t *m = c->metrics, *e = c->extra, *om, *oe, *ratio, *fm, *nm;
	double r;
	int rc;

	fresh_file(c, s);
	rc = fio_first ? run_local(c, s) : native(c, s);
	if (rc)
		return rc;
	fresh_file(c, s);
	om = json_object();
	oe = json_object();
	c->metrics = om;
	c->extra = oe;
	rc = fio_first ? native(c, s) : run_local(c, s);
	c->metrics = m;
	c->extra = e;
	if (rc) {
		json_decref(om);
		json_decref(oe);
		return rc;
	}
	fm = fio_first ? m : om;
	nm = fio_first ? om : m;
	ratio = json_object();
	for (size_t i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++)
		if (metric(nm, ratios[i]) > 0)
			json_object_set_new(ratio, ratios[i],
					    json_real(metric(fm, ratios[i]) /
						      metric(nm, ratios[i])));
	r = metric(nm, "bw_bytes") > 0 ? metric(fm, "bw_bytes") /
					 metric(nm, "bw_bytes") : 0;
	json_object_set_new(c->metrics, "xcheck_bw_ratio", json_real(r));
	json_object_set_new(c->extra, "cross_check",
			    json_pack("{s:s, s:o, s:o, s:o}", "engine",
				      fio_first ? "native" : "fio", "metrics", om,
				      "extra", oe, "ratio", ratio));
	json_object_set_new(json_object_get(c->extra, "cross_check"), "flagged",
			    json_boolean(fabs(r - 1) > NB_XCHECK_TOLERANCE));
	if (c->iteration == c->iterations)
		xcheck_verdict(c, r);
	return 0;
}

int nb_wl_fio_run(struct nb_wl_ctx *c, const struct nb_iospec *s,
		  nb_wl_io_fn native)
{
	if (c->t->cfg->clients && c->t->cfg->clients->n) {
		if (c->p->cross_check && c->iteration == 1)
			nb_wl_warn(c, "cross-check does not apply to runs on fio "
				   "clients: not done");
		return nb_wl_fio_clients(c, s);
	}
	if (!c->p->cross_check)
		return is_fio(c->t) ? run_local(c, s) : native(c, s);
	if (!c->t->ops->local_path &&
	    (!nb_wl_fio_is_remote(c->t) ||
	     nb_fio_check_engine(c->t->cfg->name, c->t->cfg->u.scheme,
				 "--cross-check"))) {
		nb_wl_warn(c, "cross-check skipped: fio cannot reach '%s://' "
			   "targets (the fio found, '%s', has no %s engine)",
			   c->t->cfg->u.scheme, nb_fio_program(),
			   c->t->cfg->u.scheme);
		nb_err_clear();
		return native(c, s);
	}
	return cross_check(c, s, native);
}

/* ---- set-up ------------------------------------------------------------ */

int nb_wl_fio_target_setup(struct nb_target_cfg *t, const char *engine,
			   const char *ioengine, const struct nb_fio_clients *cl)
{
	if (engine) {
		if (strcmp(engine, "fio") && strcmp(engine, "native"))
			return nb_err(-EINVAL, "--engine: '%s' is not one of "
				      "native|fio", engine);
		snprintf(t->engine, sizeof(t->engine), "%s", engine);
	}
	if (ioengine) {
		if (nb_fio_ioengine_check(ioengine))
			return nb_err_prefix("--ioengine"), -EINVAL;
		snprintf(t->ioengine, sizeof(t->ioengine), "%s", ioengine);
	}
	if (cl && cl->n) {
		t->clients = cl;
		/* the engine runs on the fio servers: a server without it
		 * fails its job, and says so */
		if (nb_fio_remote_engine(t->u.scheme))
			return nb_fio_check_credentials(t->name, &t->u);
		if (nb_fio_check_scheme(t->name, t->u.scheme, "--clients (fio "
					"client/server)"))
			return -EINVAL;
		if (t->u.path[0] != '/')
			return nb_err(-EINVAL, "target '%s': with --clients the path "
				      "'%s' names a directory on every client host: "
				      "give it absolute", t->name, t->u.path);
		return 0;
	}
	if (strcmp(t->engine, "fio"))
		return 0;
	if (nb_fio_remote_engine(t->u.scheme))
		return nb_fio_check_credentials(t->name, &t->u) ||
		       nb_fio_check_engine(t->name, t->u.scheme, "engine = fio")
		       ? -EINVAL : 0;
	return nb_fio_check_scheme(t->name, t->u.scheme, "engine = fio");
}

/* the cross-check's row: [suite] cross-check (core/knobs.h). */
const struct nb_knob nb_wl_fio_knobs[] = {
	{ .section = "suite", .name = "cross-check", .type = NB_KT_BOOL,
	  NB_PRM(cross_check), .def = "no",
	  .help = "run I/O workloads with nasbench and fio, flag >10% differences",
	  .opt = "cross-check", .flags = NB_KF_NOARG,
	},
	{ NULL },
};
