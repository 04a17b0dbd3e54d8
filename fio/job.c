/*
 * job.c - fio job files (see job.h).
 */
#include "job.h"
#include "overlap.h"
#include "../core/err.h"

#include <errno.h>
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

int nb_fio_jobfile(const struct nb_fio_job *j, char *buf, size_t len)
{
	const struct nb_iospec *s = &j->s;
	const char *ioengine = j->ioengine && *j->ioengine ? j->ioengine
							    : "io_uring";
	size_t n = 0;
	int w;

#define PUT(...)                                                          \
	do {                                                              \
		w = snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__);    \
		n += (size_t)w;                                           \
	} while (0)

	int remote = is_nfs(ioengine) || is_iscsi(ioengine);

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
	if (!remote && nb_fio_ioengine_check(ioengine))
		return -EINVAL;
	if (j->comment)
		PUT("; %s\n", j->comment);
	PUT("[global]\n");
	/* one process: a stop or a kill reaches the job too */
	PUT("thread=1\n");
	PUT("ioengine=%s\n", ioengine);
	if (is_nfs(ioengine))
		PUT("nfs_url=%s\n", j->nfs_url ? j->nfs_url : "");
	if (is_iscsi(ioengine) && j->initiator)
		PUT("initiator=%s\n", j->initiator);
	PUT("filename=");
	n += put_filename(buf + (n < len ? n : len), n < len ? len - n : 0,
			  j->filename);
	PUT("\n");
	PUT("size=%llu\n", (unsigned long long)s->size);
	if (j->offset)
		PUT("offset=%llu\n", (unsigned long long)j->offset);
	PUT("rw=%s\n", rw_name(s));
	if (s->rw == NB_RW_MIX)
		PUT("rwmixread=%d\n", s->read_pct);
	PUT("bs=%u\n", s->bs);
	PUT("iodepth=%u\n", s->qd);
	if (!remote)
		PUT("direct=%d\n", s->direct ? 1 : 0);
	/* sync always: every write O_DSYNC and, as the native engine, one
	 * flush at the end too (a device may cache what FUA does not cover) */
	if (s->rw != NB_RW_READ && s->sync != NB_SYNC_NONE && !is_nfs(ioengine))
		PUT("end_fsync=1\n");
	if (s->rw != NB_RW_READ && s->sync == NB_SYNC_ALWAYS && !remote)
		PUT("sync=dsync\n");
	if (s->bytes)
		PUT("io_size=%llu\n", (unsigned long long)s->bytes);
	if (s->runtime_us) {
		PUT("time_based=1\n");
		if (s->runtime_us % 1000000)
			PUT("runtime=%llums\n",
			    (unsigned long long)((s->runtime_us + 999) / 1000));
		else
			PUT("runtime=%llu\n",
			    (unsigned long long)(s->runtime_us / 1000000));
	}
	if (s->pattern == NB_PAT_RAND || s->rw == NB_RW_MIX) {
		/* nasbench draws offsets uniformly, with replacement */
		/* fio parses randseed as a signed number: keep 32 bits */
		PUT("randseed=%llu\n", (unsigned long long)(s->seed & 0xffffffffu));
		PUT("norandommap=1\n");
	}
	/* extend the file as the native engine does, no preallocation */
	if (!remote)
		PUT("fallocate=none\n");
	if (j->unlink && !remote)
		PUT("unlink=1\n");
	if (j->span_log) {
		PUT("write_bw_log=%s\n", j->span_log);
		PUT("log_unix_epoch=1\n");
		PUT("log_avg_msec=%d\n", NB_FIO_SPAN_AVG_MS);
	}
	PUT("lat_percentiles=1\n");
	PUT("percentile_list=50:90:99:99.9\n");
	PUT("\n[nasbench]\n");
#undef PUT
	if (n >= len)
		return nb_err(-ENOSPC, "fio job file longer than %zu bytes", len);
	return (int)n;
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
