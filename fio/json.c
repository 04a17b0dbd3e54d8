/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.c - reading fio's JSON output (see json.h).
 *
 * One direction of one job is read by nb_fio_side(); nb_fio_parse() adds
 * directions, jobs and clients up from those same figures, so the figures
 * of a lone direction are nb_fio_side()'s whoever reads them.
 */
#include "json.h"
#include "../core/err.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bin {
	double val;              /* ns, the value fio gives the bucket */
	double n;
};

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static int add_bins(struct bin **b, size_t *n, const json_t *bins)
{
	const char *key;
	json_t *v;
	struct bin *nb;

	if (!json_is_object(bins) || !json_object_size(bins))
		return 0;
	nb = realloc(*b, (*n + json_object_size(bins)) * sizeof(**b));
	if (!nb)
		return nb_err(-ENOMEM, "out of memory");
	*b = nb;
	json_object_foreach((json_t *)bins, key, v) {
		nb[*n].val = strtod(key, NULL);
		nb[*n].n = json_number_value(v);
		(*n)++;
	}
	return 0;
}

static int cmp_bin(const void *a, const void *b)
{
	double x = ((const struct bin *)a)->val, y = ((const struct bin *)b)->val;

	return x < y ? -1 : x > y;
}

/* The value of the first bucket whose running count reaches P% of all,
 * as fio's calc_clat_percentiles() does. */
static double bins_pct(struct bin *b, size_t n, double p)
{
	long double total = 0, sum = 0;

	for (size_t i = 0; i < n; i++)
		total += b[i].n;
	for (size_t i = 0; i < n; i++) {
		sum += b[i].n;
		if (sum >= (long double)p / 100.0L * total)
			return b[i].val;
	}
	return n ? b[n - 1].val : 0;
}

/* fio's own percentile KEY of PCT, in microseconds; NAN when absent. */
static double pct_of(const json_t *pct, const char *key)
{
	const json_t *v = json_object_get(pct, key);

	return json_is_number(v) ? json_number_value(v) / 1e3 : NAN;
}

/* Percentiles P50/P90/P99/P99.9 (any may be NULL), in microseconds, from
 * the json+ BINS (sorted here) when there are any, else from fio's
 * PCT object. */
static void percentiles(struct bin *bins, size_t n, const json_t *pct,
			double *p50, double *p90, double *p99, double *p999)
{
	static const char *const keys[] = { "50.000000", "90.000000",
					     "99.000000", "99.900000" };
	static const double at[] = { 50, 90, 99, 99.9 };
	double *out[] = { p50, p90, p99, p999 };

	if (n)
		qsort(bins, n, sizeof(*bins), cmp_bin);
	for (int i = 0; i < 4; i++)
		if (out[i])
			*out[i] = n ? bins_pct(bins, n, at[i]) / 1e3
				    : pct_of(pct, keys[i]);
}

/* Mean and max of a latency object in microseconds; NAN when absent. */
static double lat_us(const json_t *lat, const char *key)
{
	const json_t *v = json_object_get(lat, key);

	return json_is_number(v) ? json_number_value(v) / 1e3 : NAN;
}

/* nb_fio_side() keeping the direction's bins (for the caller to merge). */
static int side(const json_t *d, enum nb_fio_dir dir, struct nb_fio_stats *st,
		struct bin **lat_bins, size_t *nlat, struct bin **clat_bins,
		size_t *nclat)
{
	const json_t *lat = json_object_get(d, "lat_ns");
	const json_t *clat = json_object_get(d, "clat_ns");
	const json_t *pct = json_object_get(lat, "percentile");
	int rc;

	memset(st, 0, sizeof(*st));
	*lat_bins = *clat_bins = NULL;
	*nlat = *nclat = 0;
	rc = add_bins(lat_bins, nlat, json_object_get(lat, "bins"));
	if (!rc)
		rc = add_bins(clat_bins, nclat, json_object_get(clat, "bins"));
	if (rc) {
		free(*lat_bins);
		free(*clat_bins);
		*lat_bins = *clat_bins = NULL;
		return rc;
	}
	st->bw_bytes = num(d, "bw_bytes");
	st->iops = num(d, "iops");
	st->seconds = num(d, "runtime") / 1e3;
	if (dir == NB_FIO_READ)
		st->bytes_read = (uint64_t)num(d, "io_bytes");
	else if (dir == NB_FIO_WRITE)
		st->bytes_written = (uint64_t)num(d, "io_bytes");
	st->ios = (uint64_t)num(d, "total_ios");
	st->lat_mean_us = lat_us(lat, "mean");
	st->lat_max_us = lat_us(lat, "max");
	if (!pct)
		pct = json_object_get(clat, "percentile");
	percentiles(*lat_bins, *nlat, pct, &st->lat_p50_us, &st->lat_p90_us,
		    &st->lat_p99_us, &st->lat_p999_us);
	percentiles(*clat_bins, *nclat, json_object_get(clat, "percentile"),
		    &st->clat_p50_us, NULL, &st->clat_p99_us, NULL);
	return 0;
}

int nb_fio_side(const json_t *d, enum nb_fio_dir dir, struct nb_fio_stats *st)
{
	struct bin *lat, *clat;
	size_t nlat, nclat;
	int rc = side(d, dir, st, &lat, &nlat, &clat, &nclat);

	free(lat);
	free(clat);
	return rc;
}

/* What is summed over directions and jobs before it becomes figures. */
struct acc {
	struct nb_fio_stats one;     /* the figures of the first source */
	double bw, iops, lat_sum, lat_n, lat_max, runtime_ms;
	uint64_t bytes_r, bytes_w, ios;
	struct bin *lat, *clat;
	size_t nlat, nclat;
	int sources, error;
};

/* Append B (N bins) to *TO (*NTO); B is freed.  0 or -ENOMEM. */
static int merge_bins(struct bin **to, size_t *nto, struct bin *b, size_t n)
{
	struct bin *more;

	if (!n) {
		free(b);
		return 0;
	}
	more = realloc(*to, (*nto + n) * sizeof(*more));
	if (!more) {
		free(b);
		return nb_err(-ENOMEM, "out of memory");
	}
	memcpy(more + *nto, b, n * sizeof(*b));
	*to = more;
	*nto += n;
	free(b);
	return 0;
}

static int acc_dir(struct acc *a, const json_t *d, enum nb_fio_dir dir)
{
	const json_t *lat = json_object_get(d, "lat_ns");
	struct nb_fio_stats st;
	struct bin *lb, *cb;
	size_t nl, nc;
	double n = num(lat, "N");

	if (!json_is_object(d))
		return 0;
	if (!num(d, "io_bytes") && !n)
		return 0;
	if (side(d, dir, &st, &lb, &nl, &cb, &nc))
		return -ENOMEM;
	if (merge_bins(&a->lat, &a->nlat, lb, nl) ||
	    merge_bins(&a->clat, &a->nclat, cb, nc))
		return -ENOMEM;
	if (!a->sources)
		a->one = st;
	a->bw += st.bw_bytes;
	a->iops += st.iops;
	a->bytes_r += st.bytes_read;
	a->bytes_w += st.bytes_written;
	a->ios += st.ios;
	if (num(d, "runtime") > a->runtime_ms)
		a->runtime_ms = num(d, "runtime");
	a->lat_sum += num(lat, "mean") * n;
	a->lat_n += n;
	if (num(lat, "max") > a->lat_max)
		a->lat_max = num(lat, "max");
	a->sources++;
	return 0;
}

static int acc_entry(struct acc *a, const json_t *e)
{
	if (num(e, "error") && !a->error)
		a->error = (int)num(e, "error");
	if (acc_dir(a, json_object_get(e, "read"), NB_FIO_READ) ||
	    acc_dir(a, json_object_get(e, "write"), NB_FIO_WRITE))
		return -ENOMEM;
	return 0;
}

static double or0(double v)
{
	return isnan(v) ? 0 : v;
}

static void acc_figures(struct acc *a, struct nb_fio_stats *st)
{
	if (a->sources == 1) {
		/* one direction of one job: its own figures */
		*st = a->one;
		st->lat_mean_us = or0(st->lat_mean_us);
		st->lat_max_us = or0(st->lat_max_us);
		st->lat_p50_us = or0(st->lat_p50_us);
		st->lat_p90_us = or0(st->lat_p90_us);
		st->lat_p99_us = or0(st->lat_p99_us);
		st->lat_p999_us = or0(st->lat_p999_us);
		st->clat_p50_us = or0(st->clat_p50_us);
		st->clat_p99_us = or0(st->clat_p99_us);
		st->error = a->error;
		return;
	}
	memset(st, 0, sizeof(*st));
	st->bw_bytes = a->bw;
	st->iops = a->iops;
	st->seconds = a->runtime_ms / 1e3;
	st->bytes_read = a->bytes_r;
	st->bytes_written = a->bytes_w;
	st->ios = a->ios;
	st->error = a->error;
	st->lat_mean_us = a->lat_n ? a->lat_sum / a->lat_n / 1e3 : 0;
	st->lat_max_us = a->lat_max / 1e3;
	/* percentiles of several sources only from their bins */
	if (a->nlat)
		percentiles(a->lat, a->nlat, NULL, &st->lat_p50_us,
			    &st->lat_p90_us, &st->lat_p99_us, &st->lat_p999_us);
	if (a->nclat)
		percentiles(a->clat, a->nclat, NULL, &st->clat_p50_us, NULL,
			    &st->clat_p99_us, NULL);
}

static void acc_free(struct acc *a)
{
	free(a->lat);
	free(a->clat);
	memset(a, 0, sizeof(*a));
}

void nb_fio_put_metrics(json_t *m, const struct nb_fio_stats *st)
{
	static const struct {
		const char *name;
		size_t off;
	} names[] = {
		{ "bw_bytes", offsetof(struct nb_fio_stats, bw_bytes) },
		{ "iops", offsetof(struct nb_fio_stats, iops) },
		{ "lat_mean_us", offsetof(struct nb_fio_stats, lat_mean_us) },
		{ "lat_p50_us", offsetof(struct nb_fio_stats, lat_p50_us) },
		{ "lat_p90_us", offsetof(struct nb_fio_stats, lat_p90_us) },
		{ "lat_p99_us", offsetof(struct nb_fio_stats, lat_p99_us) },
		{ "lat_p99.9_us", offsetof(struct nb_fio_stats, lat_p999_us) },
		{ "lat_max_us", offsetof(struct nb_fio_stats, lat_max_us) },
		{ "seconds", offsetof(struct nb_fio_stats, seconds) },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		double v = *(const double *)((const char *)st + names[i].off);

		if (isfinite(v))
			json_object_set_new(m, names[i].name, json_real(v));
	}
}

const char *nb_fio_json_start(const char *text, size_t len, int *line)
{
	int l = 1;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '{' && (i == 0 || text[i - 1] == '\n')) {
			if (line)
				*line = l;
			return text + i;
		}
		l += text[i] == '\n';
	}
	return NULL;
}

int nb_fio_parse(const char *text, size_t len, struct nb_fio_output *out)
{
	const char *start = nb_fio_json_start(text, len, NULL);
	struct acc total = { 0 };
	json_error_t e;
	json_t *doc, *arr, *ent;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!start)
		return nb_err(-EINVAL, "fio printed no JSON");
	doc = json_loadb(start, len - (size_t)(start - text),
			 JSON_DISABLE_EOF_CHECK, &e);
	if (!doc)
		return nb_err(-EINVAL, "fio's JSON is not valid (line %d: %s)",
			      e.line, e.text);
	snprintf(out->version, sizeof(out->version), "%s",
		 json_string_value(json_object_get(doc, "fio version")) ?: "");
	arr = json_object_get(doc, "client_stats");
	if (!json_is_array(arr))
		arr = json_object_get(doc, "jobs");
	if (!json_is_array(arr)) {
		json_decref(doc);
		return nb_err(-EINVAL, "fio's JSON has neither 'jobs' nor "
			      "'client_stats'");
	}
	json_array_foreach(arr, i, ent) {
		const char *jobname = json_string_value(json_object_get(ent, "jobname"));
		const char *host = json_string_value(json_object_get(ent, "hostname"));
		struct nb_fio_client_stats *cs;
		struct acc one = { 0 };

		if (jobname && !strcmp(jobname, "All clients")) {
			const json_t *rd = json_object_get(ent, "read");
			const json_t *wr = json_object_get(ent, "write");

			out->has_all = 1;
			out->all_bw_bytes = num(rd, "bw_bytes") + num(wr, "bw_bytes");
			out->all_iops = num(rd, "iops") + num(wr, "iops");
			out->all_bytes = (uint64_t)(num(rd, "io_bytes") +
						    num(wr, "io_bytes"));
			continue;
		}
		if (acc_entry(&total, ent)) {
			rc = -ENOMEM;
			break;
		}
		if (!host)
			continue;
		if (out->nclients == NB_FIO_MAX_CLIENTS) {
			rc = nb_err(-EINVAL, "fio reported more than %d clients",
				    NB_FIO_MAX_CLIENTS);
			break;
		}
		cs = &out->client[out->nclients++];
		snprintf(cs->host, sizeof(cs->host), "%s", host);
		cs->port = (unsigned)num(ent, "port");
		if (acc_entry(&one, ent)) {
			acc_free(&one);
			rc = -ENOMEM;
			break;
		}
		acc_figures(&one, &cs->st);
		acc_free(&one);
	}
	if (!rc && !total.sources && !total.error)
		rc = nb_err(-EINVAL, "fio's JSON holds no job that did I/O");
	if (!rc)
		acc_figures(&total, &out->total);
	acc_free(&total);
	json_decref(doc);
	return rc;
}
