/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job.c - fio job files (see job.h).
 */
#include "job.h"
#include "overlap.h"
#include "../core/err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const ioengines[] = { "io_uring", "libaio", "psync" };

int nb_fio_ioengine_check(const char *name)
{
	for (size_t i = 0; i < sizeof(ioengines) / sizeof(ioengines[0]); i++)
		if (!strcmp(name, ioengines[i]))
			return 0;
	return nb_err(-EINVAL, "ioengine '%s' is not one nasbench drives "
		      "(io_uring, libaio, psync)", name);
}

static const char *rw_name(const struct nb_iospec *s)
{
	static const char *const names[2][3] = {
		{ "read", "write", "rw" },
		{ "randread", "randwrite", "randrw" },
	};

	return names[s->pattern == NB_PAT_RAND][s->rw];
}

/* fio's engines for nfs:// and iscsi:// targets: no page cache (direct=
 * means nothing), no local file to lay out or remove; the nfs engine has
 * no flush ("nfs: unhandled io 3"), the libiscsi one sends SYNCHRONIZE
 * CACHE but no FUA. */
static int is_nfs(const char *e) { return !strcmp(e, "nfs"); }
static int is_iscsi(const char *e) { return !strcmp(e, "libiscsi"); }

/* FILENAME as fio reads filename=: ':' separates files, '\:' is a colon */
static size_t put_filename(char *buf, size_t len, const char *name)
{
	size_t n = 0;

	for (; *name; name++) {
		if (*name == ':' && n + 1 < len)
			buf[n] = '\\';
		n += *name == ':';
		if (n + 1 < len)
			buf[n] = *name;
		n++;
	}
	if (len)
		buf[n < len ? n : len - 1] = '\0';
	return n;
}

/* A job file being written: BUF of LEN bytes, N written so far (N may
 * pass LEN: the text did not fit). */
struct out {
	char *buf;
	size_t len, n;
};

static void __attribute__((format(printf, 2, 3)))
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(o->buf + (o->n < o->len ? o->n : o->len),
		      o->n < o->len ? o->len - o->n : 0, fmt, ap);
	va_end(ap);
	o->n += w > 0 ? (size_t)w : 0;
}

/* 0, or -EINVAL with the detail set: what fio cannot be given. */
static int check_job(const struct nb_fio_job *j, const char *ioengine)
{
	const struct nb_iospec *s = &j->s;

	if (!j->filename || !*j->filename || strchr(j->filename, '\n') ||
	    (strchr(j->filename, ':') && !is_iscsi(ioengine)) ||
	    (j->nfs_url && (strchr(j->nfs_url, '\n') || !is_nfs(ioengine))))
		/* fio splits filename= at ':' (several files in one job) */
		return nb_err(-EINVAL, "fio cannot use the path '%s' (empty, or "
			      "holding ':' or a newline)",
			      j->filename ? j->filename : "");
	if (!s->bs || !s->qd || s->size < s->bs || s->rw < 0 || s->rw > 2 ||
	    s->sync < 0 || s->sync > 2)
		return nb_err(-EINVAL, "invalid I/O spec for fio (bs %u, queue "
			      "depth %u, size %llu)", s->bs, s->qd,
			      (unsigned long long)s->size);
	if (!is_nfs(ioengine) && !is_iscsi(ioengine) &&
	    nb_fio_ioengine_check(ioengine))
		return -EINVAL;
	if (nb_iospec_open(s) && (s->arrival == NB_ARR_ONOFF || s->src ||
				  s->sources > 1))
		return nb_err(-EINVAL, "fio has no %s: an open loop through fio is "
			      "one Poisson or uniform source (leave out engine = "
			      "fio and --clients for it)", s->arrival == NB_ARR_ONOFF ?
			      "bursty arrivals (arrival = onoff)" :
			      "sources of their own (populations of VMs)");
	return 0;
}

/* ioengine= and what says where the data is */
static void put_where(struct out *o, const struct nb_fio_job *j,
		      const char *ioengine)
{
	put(o, "ioengine=%s\n", ioengine);
	if (is_nfs(ioengine))
		put(o, "nfs_url=%s\n", j->nfs_url ? j->nfs_url : "");
	if (is_iscsi(ioengine) && j->initiator)
		put(o, "initiator=%s\n", j->initiator);
	put(o, "filename=");
	o->n += put_filename(o->buf + (o->n < o->len ? o->n : o->len),
			     o->n < o->len ? o->len - o->n : 0, j->filename);
	put(o, "\n");
	put(o, "size=%llu\n", (unsigned long long)j->s.size);
	if (j->offset)
		put(o, "offset=%llu\n", (unsigned long long)j->offset);
}

/* how long: a byte count, a runtime */
static void put_bounds(struct out *o, const struct nb_iospec *s)
{
	if (s->bytes)
		put(o, "io_size=%llu\n", (unsigned long long)s->bytes);
	if (!s->runtime_us)
		return;
	put(o, "time_based=1\n");
	if (s->runtime_us % 1000000)
		put(o, "runtime=%llums\n",
		    (unsigned long long)((s->runtime_us + 999) / 1000));
	else
		put(o, "runtime=%llu\n",
		    (unsigned long long)(s->runtime_us / 1000000));
}

/* The open loop as fio has it: rate_iops (per direction: fio holds each
 * to its own rate, so a mix gets its shares) with rate_process=poisson;
 * fio times from the submission, not from when the I/O was due
 * (docs/capacity.md).  A uniform process is fio's default linear one;
 * fio has no bursts (refused before a job is written). */
static void put_rate(struct out *o, const struct nb_iospec *s)
{
	double r = s->rate;

	if (!nb_iospec_open(s))
		return;
	if (s->rw == NB_RW_MIX)
		put(o, "rate_iops=%.0f,%.0f\n", r * s->read_pct / 100.0 + 0.5 > 1 ?
		    r * s->read_pct / 100.0 : 1,
		    r * (100 - s->read_pct) / 100.0 + 0.5 > 1 ?
		    r * (100 - s->read_pct) / 100.0 : 1);
	else
		put(o, "rate_iops=%.0f\n", r < 1 ? 1 : r);
	if (s->arrival == NB_ARR_POISSON)
		put(o, "rate_process=poisson\n");
}

/* The data and the distribution (docs/data.md) as fio's options: the
 * ratio as buffer_compress_percentage (whole percents: 1.5:1 is 33%)
 * over 512 B chunks refilled every write, as nasbench writes it;
 * duplicates as dedupe_percentage (fio repeats earlier writes of its own
 * rather than one of a set of 64: the share is the same); the
 * distribution as random_distribution, whose zipf and pareto put the hot
 * blocks where a hash says, not first in the file (the same law). */
static void put_data(struct out *o, const struct nb_iospec *s)
{
	char b[160];

	if (s->rw != NB_RW_READ && s->data.ratio > 1) {
		put(o, "buffer_compress_percentage=%d\n",
		    (int)(100 - 100 / s->data.ratio + 0.5));
		put(o, "buffer_compress_chunk=512\n");
		put(o, "refill_buffers=1\n");
	}
	if (s->rw != NB_RW_READ && s->data.dedupe_pct)
		put(o, "dedupe_percentage=%u\n", s->data.dedupe_pct);
	if (s->pattern == NB_PAT_RAND && nb_access_fio(&s->access, b, sizeof(b)))
		put(o, "random_distribution=%s\n", b);
}

int nb_fio_jobfile(const struct nb_fio_job *j, char *buf, size_t len)
{
	const struct nb_iospec *s = &j->s;
	const char *ioengine = j->ioengine && *j->ioengine ? j->ioengine
							    : "io_uring";
	int remote = is_nfs(ioengine) || is_iscsi(ioengine);
	struct out o = { buf, len, 0 };

	if (check_job(j, ioengine))
		return -EINVAL;
	if (j->comment)
		put(&o, "; %s\n", j->comment);
	put(&o, "[global]\n");
	/* one process: a stop or a kill reaches the job too */
	put(&o, "thread=1\n");
	put_where(&o, j, ioengine);
	put(&o, "rw=%s\n", rw_name(s));
	if (s->rw == NB_RW_MIX)
		put(&o, "rwmixread=%d\n", s->read_pct);
	if (s->pattern == NB_PAT_RAND && s->rand_pct > 0 && s->rand_pct < 100)
		put(&o, "percentage_random=%d\n", s->rand_pct);
	put(&o, "bs=%u\n", s->bs);
	put(&o, "iodepth=%u\n", s->qd);
	if (!remote)
		put(&o, "direct=%d\n", s->direct ? 1 : 0);
	/* sync always: every write O_DSYNC and, as the native engine, one
	 * flush at the end too (a device may cache what FUA does not cover) */
	if (s->rw != NB_RW_READ && s->sync != NB_SYNC_NONE && !is_nfs(ioengine))
		put(&o, "end_fsync=1\n");
	if (s->rw != NB_RW_READ && s->sync == NB_SYNC_ALWAYS && !remote)
		put(&o, "sync=dsync\n");
	put_bounds(&o, s);
	put_rate(&o, s);
	put_data(&o, s);
	if (s->pattern == NB_PAT_RAND || s->rw == NB_RW_MIX) {
		/* nasbench draws offsets uniformly, with replacement */
		/* fio parses randseed as a signed number: keep 32 bits */
		put(&o, "randseed=%llu\n", (unsigned long long)(s->seed & 0xffffffffu));
		put(&o, "norandommap=1\n");
	}
	/* extend the file as the native engine does, no preallocation */
	if (!remote)
		put(&o, "fallocate=none\n");
	if (j->unlink && !remote)
		put(&o, "unlink=1\n");
	if (j->span_log) {
		put(&o, "write_bw_log=%s\n", j->span_log);
		put(&o, "log_unix_epoch=1\n");
		put(&o, "log_avg_msec=%d\n", NB_FIO_SPAN_AVG_MS);
	}
	put(&o, "lat_percentiles=1\n");
	put(&o, "percentile_list=50:90:99:99.9\n");
	put(&o, "\n[nasbench]\n");
	if (o.n >= len)
		return nb_err(-ENOSPC, "fio job file longer than %zu bytes", len);
	return (int)o.n;
}

int nb_fio_check_scheme(const char *target, const char *scheme,
			const char *why)
{
	if (!strcmp(scheme, "file"))
		return 0;
	return nb_err(-EINVAL, "target '%s': %s needs a local file, directory or "
		      "block device; Debian's fio 3.33 has no %s engine, so "
		      "'%s://' targets run with the native engine only", target,
		      why, scheme, scheme);
}
