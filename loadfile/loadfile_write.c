/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loadfile_write.c - the load file written: every figure with what it is
 * and the period it covers (loadfile.h, docs/capture.md). */
#include "loadfile.h"
#include "../core/atomic_file.h"
#include "../core/boxtext.h"
#include "../core/err.h"
#include "../core/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "key = value" padded, then "; comment" when there is one. */
static void kv(FILE *f, const char *key, const char *value, const char *comment)
{
	int n = fprintf(f, "%-15s = %s", key, value);

	if (comment && *comment)
		fprintf(f, "%*s; %s", n < 34 ? 34 - n : 1, "", comment);
	fputc('\n', f);
}

static void kvn(FILE *f, const char *key, double v, const char *comment)
{
	char b[64];

	snprintf(b, sizeof(b), "%.6g", v);
	kv(f, key, b, comment);
}

/* TEXT as the reader reads it back into BUF: UTF-8 without control
 * characters (core/boxtext.h: a box's names are anyone's bytes), no
 * comment sign, no blank at either end. */
static void readable(char *buf, size_t len, const char *text)
{
	char *s = buf;
	size_t n;

	nb_boxtext(buf, len, text);
	for (char *p = buf; *p; p++)
		if (*p == ';' || *p == '#')
			*p = ',';
	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	memmove(buf, s, n);
	buf[n] = 0;
}

/* A string value as the reader reads it back. */
static void kvs(FILE *f, const char *key, const char *v, const char *comment)
{
	char b[400];

	readable(b, sizeof(b), v);
	kv(f, key, b, comment);
}

static void duration(FILE *f, const char *key, double s, const char *comment)
{
	char b[64];

	snprintf(b, sizeof(b), "%.6gs", s);
	kv(f, key, b, comment);
}

/* What a bucket is, for comments: "p95 of 60 buckets of 60s". */
struct ctx {
	char level[96], mean[96], period[64];
};

static void bytes(FILE *f, const char *key, double v, const char *what)
{
	char b[64], c[128], h[32];
	long long n = llround(v);

	snprintf(b, sizeof(b), "%lld", n);
	snprintf(c, sizeof(c), "bytes: %s (%s)", what,
		 nb_fmt_size((uint64_t)n, h, sizeof(h)));
	kv(f, key, b, c);
}

static void figures(FILE *f, const struct nb_load_fig *g, const struct ctx *c,
		    const char *bucket_at)
{
	char peak[96];

	snprintf(peak, sizeof(peak), "the busiest %s", c->period);
	kvn(f, "iops", g->iops, c->level);
	kvn(f, "iops_mean", g->iops_mean, c->mean);
	kvn(f, "iops_peak", g->iops_peak, peak);
	if (g->peak_bucket >= 0) {
		char b[32];

		snprintf(b, sizeof(b), "%d", g->peak_bucket);
		kv(f, "peak_bucket", b, bucket_at);
	}
	kvn(f, "read", g->read, "% of the I/Os that read (over the capture)");
	bytes(f, "bs_read", g->bs_read, "the mean read request");
	bytes(f, "bs_write", g->bs_write, "the mean write request");
	kvn(f, "burstiness", g->burstiness, "iops_peak / iops_mean");
	kvn(f, "mbps", g->mbps, "MB/s (10^6), the busiest-hour level");
	kvn(f, "mbps_mean", g->mbps_mean, "MB/s, mean");
	kvn(f, "mbps_peak", g->mbps_peak, "MB/s, the busiest bucket's");
}

static void capture_section(FILE *f, const struct nb_load *l, struct ctx *c)
{
	char b[64];

	fputs("[capture]\n", f);
	if (l->source[0])
		kvs(f, "source", l->source, "where the counters were read");
	if (l->os[0])
		kvs(f, "os", l->os, NULL);
	if (l->counters[0])
		kvs(f, "counters", l->counters, "the devices' counters");
	if (l->start[0])
		kvs(f, "start", l->start, "UTC, this machine's clock");
	if (l->duration_s > 0)
		duration(f, "duration", l->duration_s, "whole buckets captured");
	if (l->interval_s > 0)
		duration(f, "interval", l->interval_s, "the counters read every");
	if (l->bucket_s > 0)
		duration(f, "bucket", l->bucket_s, "a figure of a series is a "
			 "bucket's mean");
	if (l->buckets > 0) {
		snprintf(b, sizeof(b), "%d", l->buckets);
		kv(f, "buckets", b, NULL);
	}
	snprintf(b, sizeof(b), "p%.6g", l->busy_pct);
	kv(f, "busy", b, "the busiest-hour level: this percentile of the buckets");
	if (l->buckets > 0 && l->buckets < nb_load_busy_need(l->busy_pct))
		fprintf(f, "; too short for a busiest-hour level: %d buckets, p%.6g "
			"needs %d; each iops is near the peak of what was captured\n",
			l->buckets, l->busy_pct, nb_load_busy_need(l->busy_pct));
	kv(f, "complete", l->complete ? "yes" : "no", l->complete ? NULL :
	   "stopped before the time asked");
	if (l->stopped[0])
		kvs(f, "stopped", l->stopped, NULL);
	if (l->gaps[0])
		kvs(f, "gaps", l->gaps, NULL);
	fputc('\n', f);
	if (l->bucket_s > 0)
		snprintf(c->period, sizeof(c->period), "%.6gs bucket", l->bucket_s);
	else
		snprintf(c->period, sizeof(c->period), "bucket");
	if (l->buckets > 0) {
		snprintf(c->level, sizeof(c->level), "busiest-hour level: p%.6g of "
			 "%d buckets of %.6gs", l->busy_pct, l->buckets, l->bucket_s);
		snprintf(c->mean, sizeof(c->mean), "the mean over the %.6gs captured",
			 l->duration_s);
	} else {
		snprintf(c->level, sizeof(c->level), "the busiest-hour level");
		snprintf(c->mean, sizeof(c->mean), "the mean");
	}
}

static void population(FILE *f, const struct nb_load *l)
{
	uint64_t data = 0;
	char g[64], c[160], h[32];
	int known = 1;

	for (int i = 0; i < l->nvms; i++) {
		data += l->vms[i].size * (uint64_t)l->vms[i].count;
		known &= l->vms[i].size > 0;
	}
	fputs("[population]\n", f);
	if (l->growth.kind != NB_GROWTH_NONE)
		kv(f, "growth", nb_growth_fmt(&l->growth, g, sizeof(g)),
		   "the load's growth: the replay's years");
	snprintf(c, sizeof(c), "; %d VMs: the [vm NAME] sections below (count = "
		 "VMs like it)%s%s\n", nb_load_population(l),
		 known ? ", " : "", known ? nb_fmt_size(data, h, sizeof(h)) : "");
	fputs(c, f);
	fputc('\n', f);
}

static void vm_section(FILE *f, const struct nb_load_vm *v, const struct ctx *c)
{
	static const char *const from[] = { "assumed", "merges", "aggregated" };
	static const char *const why[] = {
		"% assumed: the counters cannot tell (edit it)",
		"% estimated from merged requests (a lower bound)",
		"% estimated from aggregated requests",
	};
	char b[64], h[32], cm[96], name[NB_LOAD_NAME];
	int sf = v->seq_from >= 0 && v->seq_from <= 2 ? v->seq_from : 0;

	readable(name, sizeof(name), v->name);
	fprintf(f, "[vm %s]\n", name);
	if (v->device[0])
		kvs(f, "device", v->device, "its volume on the box");
	snprintf(b, sizeof(b), "%d", v->count);
	kv(f, "count", b, "VMs like this one");
	if (v->size > 0) {
		snprintf(b, sizeof(b), "%llu", (unsigned long long)v->size);
		snprintf(cm, sizeof(cm), "bytes of its volume (%s)",
			 nb_fmt_size(v->size, h, sizeof(h)));
		kv(f, "size", b, cm);
	}
	if (v->share >= 0)
		kvn(f, "share", v->share, "% of the population's data");
	figures(f, &v->f, c, "its busiest bucket");
	kvn(f, "sequential", v->sequential, why[sf]);
	kv(f, "sequential_from", from[sf], NULL);
	fputc('\n', f);
}

static void series_section(FILE *f, const struct nb_load_vm *v)
{
	char name[NB_LOAD_NAME];

	readable(name, sizeof(name), v->name);
	fprintf(f, "[series %s]\n; bucket = read IOPS, write IOPS, read MB/s, "
		"write MB/s, sequential %% (- unknown)\n", name);
	for (int i = 0; i < v->nbuckets; i++) {
		const struct nb_load_bucket *b = &v->series[i];

		fprintf(f, "%d = %.6g %.6g %.6g %.6g ", i, b->r_iops, b->w_iops,
			b->r_mbps, b->w_mbps);
		if (b->seq < 0)
			fputs("-\n", f);
		else
			fprintf(f, "%.6g\n", b->seq);
	}
	fputc('\n', f);
}

static void nfs_section(FILE *f, const struct nb_load_nfs *n, const struct ctx *c)
{
	fputs("[nfs]\n", f);
	if (n->source[0])
		kvs(f, "source", n->source, "the NFS server's counters");
	kvn(f, "ops", n->ops, c->level);
	kvn(f, "ops_mean", n->ops_mean, c->mean);
	kvn(f, "ops_peak", n->ops_peak, "the busiest bucket's");
	for (int i = 0; i < NB_NFS_N; i++)
		kvn(f, nb_load_nfs_ops[i], n->mix[i], i ? NULL :
		    "% of the operations (over the capture)");
	if (n->read_mbps >= 0)
		kvn(f, "read_mbps", n->read_mbps, "MB/s the server read (mean)");
	if (n->write_mbps >= 0)
		kvn(f, "write_mbps", n->write_mbps, "MB/s the server wrote (mean)");
	fputc('\n', f);
}

static void pool_section(FILE *f, const struct nb_load_pool *p, const struct ctx *c)
{
	char name[NB_LOAD_NAME];

	readable(name, sizeof(name), p->name);
	fprintf(f, "[pool %s]\n", name);
	if (p->source[0])
		kvs(f, "source", p->source, "the pool's own I/O, to its disks");
	figures(f, &p->f, c, "its busiest bucket");
	if (p->aggregated >= 0)
		kvn(f, "aggregated", p->aggregated, "% of its requests "
		    "aggregated (zpool iostat -r)");
	fputc('\n', f);
}

static void data_section(FILE *f, const struct nb_load_data *d)
{
	fputs("[data]\n; what the box holds and caches (docs/data.md)\n", f);
	if (!isnan(d->compressratio))
		kvn(f, "compressratio", d->compressratio, "ZFS's, of the pools' data: "
		    "the replay writes data this compressible");
	if (!isnan(d->dedupratio))
		kvn(f, "dedupratio", d->dedupratio, "the pools' (zpool get)");
	if (!isnan(d->arc_hit))
		kvn(f, "arc_hit", d->arc_hit, "% of the ARC's demand reads it "
		    "answered over the capture");
	if (!isnan(d->arc_size))
		bytes(f, "arc_size", d->arc_size, "the ARC at the end");
	if (!isnan(d->arc_max))
		bytes(f, "arc_max", d->arc_max, "the most the ARC may hold (c_max)");
	fputc('\n', f);
}

char *nb_load_format(const struct nb_load *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ctx c;

	if (!f)
		return NULL;
	fputs("; nasbench load file: the load of a box, for the replay on a "
	      "candidate\n; (nasbench capture, docs/capture.md).  Edit it "
	      "freely; comments are not read.\n\n", f);
	capture_section(f, l, &c);
	population(f, l);
	if (l->have_total) {
		fputs("[total]\n; the sum of the VMs, bucket by bucket\n", f);
		figures(f, &l->total, &c, "the population's busiest bucket (from "
			"0; it began bucket x its length after the start)");
		fputc('\n', f);
	}
	if (l->nfs.have)
		nfs_section(f, &l->nfs, &c);
	for (int i = 0; i < l->npools; i++)
		pool_section(f, &l->pools[i], &c);
	if (l->data.have)
		data_section(f, &l->data);
	for (int i = 0; i < l->nvms; i++)
		vm_section(f, &l->vms[i], &c);
	for (int i = 0; i < l->nvms; i++)
		if (l->vms[i].series)
			series_section(f, &l->vms[i]);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* TEXT read back by nasbench's own reader (what it refuses is never
 * written): 0, or -EINVAL with why set. */
static int reads_back(const char *text, const char *path)
{
	struct nb_load back;
	char why[600];
	int rc;

	nb_load_init(&back);
	rc = nb_load_parse(&back, text, path);
	nb_load_free(&back);
	if (!rc)
		return 0;
	snprintf(why, sizeof(why), "%s", nb_err_last());
	return nb_err(-EINVAL, "load file '%s' not written: nasbench's own reader "
		      "would refuse it (%s)", path, why);
}

static int load_ours(const char *head, size_t len)
{
	return nb_out_starts(head, len, "; nasbench load file") ||
	       nb_out_has(head, len, "\n[capture]\n");
}

const struct nb_out_kind nb_load_out = { "a nasbench load file", load_ours };

int nb_load_write(const struct nb_load *l, const char *path)
{
	char *text = nb_load_format(l);
	int rc;

	if (!text)
		return nb_err(-ENOMEM, "out of memory");
	rc = reads_back(text, path);
	if (!rc)
		rc = nb_atomic_write(path, text, strlen(text), &nb_load_out);
	free(text);
	return rc;
}
