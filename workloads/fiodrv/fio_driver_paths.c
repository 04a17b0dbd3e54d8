/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fio_driver_paths.c - engine = fio over several paths (see its header). */
#include "fio_driver_paths.h"
#include "fio_driver_common.h"
#include "../../core/err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int nb_wl_fio_paths_where(struct nb_target *t, struct nb_wl_fio_where *w)
{
	struct nb_paths *ps = t->paths;
	char path[sizeof(w->path)];
	uint64_t base;
	int rc = 0;

	w->npaths = 0;
	for (int i = 0; ps && i < ps->n && !rc; i++) {
		if (ps->p[i].state == NB_PATH_DEAD)
			continue;
		ps->pin = i;
		rc = t->ops->remote_path(t, "data", w->purl[w->npaths],
					 sizeof(w->purl[0]), path, sizeof(path), &base);
		snprintf(w->pname[w->npaths], sizeof(w->pname[0]), "%s", ps->p[i].name);
		/* one initiator name per session: the target would drop the
		 * first of two under one name */
		snprintf(w->pinit[w->npaths], sizeof(w->pinit[0]),
			 "iqn.2026-11.org.nasbench:fio-p%d", w->npaths + 1);
		w->npaths++;
	}
	if (ps)
		ps->pin = -1;
	return rc;
}

/* JOB's share for path I of N: its slice of the data, its part of the
 * depth and the rate. */
static void share(struct nb_fio_job *j, const struct nb_wl_fio_where *w, int i,
		  int n)
{
	struct nb_iospec *s = &j->s;
	uint64_t slice = s->size / (uint64_t)n;

	slice -= slice % (s->bs ? s->bs : 1);
	s->qd = s->qd / (uint32_t)n ? s->qd / (uint32_t)n : 1;
	s->size = slice;
	s->start = 0;
	if (s->bytes)
		s->bytes = s->bytes / (uint64_t)n - s->bytes / (uint64_t)n % s->bs;
	s->rate /= n;
	s->seed += (uint64_t)i;
	j->offset += (uint64_t)i * slice;
	if (!strcmp(w->engine, "nfs")) {
		j->nfs_url = w->purl[i];
	} else {
		j->filename = w->purl[i];
		j->initiator = w->pinit[i];
	}
}

int nb_wl_fio_paths_jobfile(const struct nb_fio_job *job,
			    const struct nb_wl_fio_where *w, char *buf, size_t len)
{
	size_t used = 0;
	int n = w->npaths, k;
	char *sec;

	for (int i = 0; i < n; i++) {
		struct nb_fio_job j = *job;

		share(&j, w, i, n);
		if (i)
			j.comment = NULL;
		k = nb_fio_jobfile(&j, buf + used, len - used);
		if (k < 0)
			return k;
		/* the job's section is named after its path's number */
		sec = strstr(buf + used, "\n[nasbench]\n");
		if (!sec || used + (size_t)k + 8 >= len)
			return nb_err(-ENOSPC, "fio job file longer than %zu bytes", len);
		used = (size_t)(sec - buf) + (size_t)snprintf(sec, len - (size_t)(sec - buf),
							       "\n[path%d]\n", i + 1);
	}
	return (int)used;
}

/* The figures of one job: its read and write sides together. */
static json_t *job_figures(const json_t *job, const char *name)
{
	struct nb_fio_stats r, wr;
	double ios, mean;

	if (nb_fio_side(json_object_get(job, "read"), NB_FIO_READ, &r) ||
	    nb_fio_side(json_object_get(job, "write"), NB_FIO_WRITE, &wr))
		return NULL;
	ios = (double)(r.ios + wr.ios);
	mean = ios > 0 ? ((isnan(r.lat_mean_us) ? 0 : r.lat_mean_us * (double)r.ios) +
			  (isnan(wr.lat_mean_us) ? 0 : wr.lat_mean_us * (double)wr.ios)) / ios
		       : 0;
	return json_pack("{s:s, s:s, s:I, s:I, s:f, s:f, s:f, s:f}", "path", name,
			 "state", "active", "ios", (json_int_t)(r.ios + wr.ios),
			 "bytes", (json_int_t)(r.bytes_read + wr.bytes_written),
			 "bw_bytes", r.bw_bytes + wr.bw_bytes, "iops", r.iops + wr.iops,
			 "lat_mean_us", mean, "lat_p99_us",
			 fmax(isnan(r.lat_p99_us) ? 0 : r.lat_p99_us,
			      isnan(wr.lat_p99_us) ? 0 : wr.lat_p99_us));
}

json_t *nb_wl_fio_paths_figures(const char *text, size_t len,
				const struct nb_wl_fio_where *w)
{
	const char *start = nb_fio_json_start(text, len, NULL);
	json_t *doc, *jobs, *out, *o;
	size_t i;

	if (!start)
		return NULL;
	doc = json_loadb(start, len - (size_t)(start - text), 0, NULL);
	jobs = json_object_get(doc, "jobs");
	if (json_array_size(jobs) != (size_t)w->npaths) {
		json_decref(doc);
		return NULL;
	}
	out = json_array();
	for (i = 0; i < json_array_size(jobs); i++) {
		o = job_figures(json_array_get(jobs, i), w->pname[i]);
		if (!o)
			break;
		json_array_append_new(out, o);
	}
	json_decref(doc);
	if (i < (size_t)w->npaths) {
		json_decref(out);
		return NULL;
	}
	return out;
}
