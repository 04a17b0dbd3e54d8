/*
 * job.c - fio job files (see job.h).
 */
#include "job.h"
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

	if (!j->filename || !*j->filename || strchr(j->filename, '\n') ||
	    strchr(j->filename, ':'))
		/* fio splits filename= at ':' (several files in one job) */
		return nb_err(-EINVAL, "fio cannot use the path '%s' (empty, or "
			      "holding ':' or a newline)",
			      j->filename ? j->filename : "");
	if (!s->bs || !s->qd || s->size < s->bs || s->rw < 0 || s->rw > 2 ||
	    s->sync < 0 || s->sync > 2)
		return nb_err(-EINVAL, "invalid I/O spec for fio (bs %u, queue "
			      "depth %u, size %llu)", s->bs, s->qd,
			      (unsigned long long)s->size);
	if (nb_fio_ioengine_check(ioengine))
		return -EINVAL;
	if (j->comment)
		PUT("; %s\n", j->comment);
	PUT("[global]\n");
	/* one process: a stop or a kill reaches the job too */
	PUT("thread=1\n");
	PUT("ioengine=%s\n", ioengine);
	PUT("filename=%s\n", j->filename);
	PUT("size=%llu\n", (unsigned long long)s->size);
	if (j->offset)
		PUT("offset=%llu\n", (unsigned long long)j->offset);
	PUT("rw=%s\n", rw_name(s));
	if (s->rw == NB_RW_MIX)
		PUT("rwmixread=%d\n", s->read_pct);
	if (s->pattern == NB_PAT_RAND && s->rand_pct > 0 && s->rand_pct < 100)
		PUT("percentage_random=%d\n", s->rand_pct);
	PUT("bs=%u\n", s->bs);
	PUT("iodepth=%u\n", s->qd);
	PUT("direct=%d\n", s->direct ? 1 : 0);
	/* sync always: every write O_DSYNC and, as the native engine, one
	 * flush at the end too (a device may cache what FUA does not cover) */
	if (s->rw != NB_RW_READ && s->sync != NB_SYNC_NONE)
		PUT("end_fsync=1\n");
	if (s->rw != NB_RW_READ && s->sync == NB_SYNC_ALWAYS)
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
	PUT("fallocate=none\n");
	if (j->unlink)
		PUT("unlink=1\n");
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
