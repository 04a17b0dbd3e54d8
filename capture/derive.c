/* SPDX-License-Identifier: GPL-2.0-or-later */
/* derive.c - the buckets into the load file's figures (capture_int.h):
 * per VM and in total, the busiest-hour level (a high percentile of the
 * buckets), the mean and the peak; read share, request sizes, sequential
 * share, burstiness; the NFS server's mix and the pools' own I/O. */
#include "capture_int.h"
#include "../core/boxtext.h"
#include "../core/knobs.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The P-th percentile of V (N), linear between the order statistics. */
static double percentile(const double *v, int n, double p)
{
	double *s, r, x;
	int lo;

	if (n <= 0)
		return 0;
	s = malloc((size_t)n * sizeof(*s));
	if (!s)
		return 0;
	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp);
	r = p / 100.0 * (n - 1);
	lo = (int)floor(r);
	x = lo + 1 < n ? s[lo] + (r - lo) * (s[lo + 1] - s[lo]) : s[n - 1];
	free(s);
	return x;
}

/* Sums over the buckets: requests, bytes, the seconds they cover. */
struct sums {
	double r, w, rb, wb, m, cover;
};

/* F from per-bucket IOPS and MB/s (K of them) and the sums S. */
static void figures(struct nb_load_fig *f, const double *iops, const double *mbps,
		    int k, double busy, const struct sums *s)
{
	double cover = s->cover > 0 ? s->cover : 1;

	memset(f, 0, sizeof(*f));
	f->peak_bucket = -1;
	for (int j = 0; j < k; j++)
		if (f->peak_bucket < 0 || iops[j] > f->iops_peak) {
			f->iops_peak = iops[j];
			f->peak_bucket = j;
		}
	for (int j = 0; j < k; j++)
		f->mbps_peak = fmax(f->mbps_peak, mbps[j]);
	f->iops = percentile(iops, k, busy);
	f->mbps = percentile(mbps, k, busy);
	f->iops_mean = (s->r + s->w) / cover;
	f->mbps_mean = (s->rb + s->wb) / cover / 1e6;
	f->read = s->r + s->w > 0 ? 100 * s->r / (s->r + s->w) : 0;
	f->bs_read = s->r > 0 ? s->rb / s->r : 0;
	f->bs_write = s->w > 0 ? s->wb / s->w : 0;
	f->burstiness = f->iops_mean > 0 ? f->iops_peak / f->iops_mean : 1;
}

static void vm_of(struct nb_load_vm *v, const struct cp_acc *a, int i, int k,
		  const struct cp_sel *sel, const struct nb_capture_cfg *c,
		  double *iops, double *mbps)
{
	struct sums s = { 0 };

	for (int j = 0; j < k; j++) {
		const struct cp_cell *e = &a->dev[(size_t)j * (size_t)a->ndev + (size_t)i];
		struct nb_load_bucket *b = &v->series[j];
		double cov = e->cover > 0 ? e->cover : a->bucket, all;

		/* a request merged into another was issued all the same */
		b->r_iops = (e->r + e->rm) / cov;
		b->w_iops = (e->w + e->wm) / cov;
		b->r_mbps = e->rb / cov / 1e6;
		b->w_mbps = e->wb / cov / 1e6;
		all = e->r + e->w + e->rm + e->wm;
		b->seq = sel->merges && all > 0 ? 100 * (e->rm + e->wm) / all : -1;
		iops[j] = b->r_iops + b->w_iops;
		mbps[j] = b->r_mbps + b->w_mbps;
		s.r += e->r + e->rm, s.w += e->w + e->wm;
		s.rb += e->rb, s.wb += e->wb, s.m += e->rm + e->wm;
		s.cover += cov;
	}
	figures(&v->f, iops, mbps, k, c->busy_pct, &s);
	if (sel->merges) {
		v->sequential = s.r + s.w > 0 ? 100 * s.m / (s.r + s.w) : 0;
		v->seq_from = NB_SEQ_MERGES;
	} else {
		v->sequential = c->sequential >= 0 ? c->sequential :
				100.0 - (double)nb_knob_default("vm", "random");
		v->seq_from = NB_SEQ_ASSUMED;
	}
}

/* The total: the VMs' buckets summed. */
static void total_of(struct nb_load *l, int k, double busy, double *iops,
		     double *mbps)
{
	struct sums s = { 0 };

	for (int j = 0; j < k; j++) {
		iops[j] = mbps[j] = 0;
		for (int i = 0; i < l->nvms; i++) {
			const struct nb_load_bucket *b = &l->vms[i].series[j];

			iops[j] += b->r_iops + b->w_iops;
			mbps[j] += b->r_mbps + b->w_mbps;
		}
	}
	for (int i = 0; i < l->nvms; i++) {
		const struct nb_load_fig *f = &l->vms[i].f;
		double ios = f->iops_mean * k;

		s.r += ios * f->read / 100;
		s.w += ios * (100 - f->read) / 100;
		s.rb += ios * f->read / 100 * f->bs_read;
		s.wb += ios * (100 - f->read) / 100 * f->bs_write;
	}
	s.cover = k;
	figures(&l->total, iops, mbps, k, busy, &s);
	l->have_total = 1;
}

static void nfs_of(struct nb_load *l, const struct cp_acc *a, int k,
		   const struct cp_box *b, double busy, double *ops)
{
	struct nb_load_nfs *n = &l->nfs;
	double all = 0, cover = 0, rb = 0, wb = 0, bcover = 0, kinds[NB_NFS_N] = { 0 };

	for (int j = 0; j < k; j++) {
		const struct cp_nfscell *e = &a->nfs[j];
		double sum = 0;

		for (int i = 0; i < NB_NFS_N; i++)
			sum += e->ops[i], kinds[i] += e->ops[i];
		ops[j] = e->cover > 0 ? sum / e->cover : 0;
		all += sum, cover += e->cover;
		rb += e->rb, wb += e->wb, bcover += e->bcover;
	}
	if (!(all > 0))
		return;
	n->have = 1;
	snprintf(n->source, sizeof(n->source), "%s", b->freebsd ? "nfsstat -s" :
		 "/proc/net/rpc/nfsd");
	n->ops = percentile(ops, k, busy);
	n->ops_mean = cover > 0 ? all / cover : 0;
	n->ops_peak = 0;
	for (int j = 0; j < k; j++)
		n->ops_peak = fmax(n->ops_peak, ops[j]);
	for (int i = 0; i < NB_NFS_N; i++)
		n->mix[i] = 100 * kinds[i] / all;
	n->read_mbps = bcover > 0 ? rb / bcover / 1e6 : -1;
	n->write_mbps = bcover > 0 ? wb / bcover / 1e6 : -1;
}

static void pools_of(struct nb_load *l, const struct cp_acc *a, int k,
		     const struct cp_box *b, double busy, double *iops, double *mbps)
{
	for (int p = 0; p < b->npools; p++) {
		const struct nb_cp_pool *h = &a->hist[p];
		struct nb_load_pool *x;
		struct sums s = { 0 };
		char name[NB_LOAD_NAME];

		for (int j = 0; j < k; j++) {
			const struct cp_poolcell *e = &a->pool[(size_t)j * (size_t)a->npools +
							       (size_t)p];
			double cov = e->cover > 0 ? e->cover : 1;

			iops[j] = (e->r + e->w) / cov;
			mbps[j] = (e->rb + e->wb) / cov / 1e6;
			s.r += e->r, s.w += e->w, s.rb += e->rb, s.wb += e->wb;
			s.cover += e->cover;
		}
		/* the pool's name as the box gave it, carried as text */
		nb_boxtext(name, sizeof(name), b->pools[p]);
		if (!(s.cover > 0) || !(x = nb_load_add_pool(l, name)))
			continue;
		snprintf(x->source, sizeof(x->source), "zpool iostat -v%s",
			 h->have_hist ? ", -r" : "");
		figures(&x->f, iops, mbps, k, busy, &s);
		if (h->have_hist && h->h_rreq + h->h_wreq > 0) {
			/* the histogram's rows are power-of-two sizes: a lower
			 * bound of each request's */
			x->f.bs_read = h->h_rreq > 0 ? h->h_rbytes / h->h_rreq : 0;
			x->f.bs_write = h->h_wreq > 0 ? h->h_wbytes / h->h_wreq : 0;
			x->aggregated = 100 * h->h_agg / (h->h_rreq + h->h_wreq);
		}
	}
}

int cp_derive(struct nb_load *l, const struct cp_acc *a, const struct cp_box *b,
	      const struct nb_capture_cfg *c, int k)
{
	double *iops = calloc((size_t)(k ? k : 1), sizeof(double));
	double *mbps = calloc((size_t)(k ? k : 1), sizeof(double));
	unsigned long long data = 0;
	int known = 1, rc = 0;

	if (!iops || !mbps)
		goto nomem;
	for (int i = 0; i < b->nsel; i++) {
		struct nb_load_vm *v = nb_load_add_vm(l, b->sel[i].vm);

		if (!v || nb_load_series(v, k))
			goto nomem;
		snprintf(v->device, sizeof(v->device), "%s", b->sel[i].name);
		v->size = b->sel[i].size;
		data += v->size;
		known &= v->size > 0;
		vm_of(v, a, i, k, &b->sel[i], c, iops, mbps);
	}
	for (int i = 0; known && data && i < l->nvms; i++)
		l->vms[i].share = 100.0 * (double)l->vms[i].size / (double)data;
	total_of(l, k, c->busy_pct, iops, mbps);
	nfs_of(l, a, k, b, c->busy_pct, iops);
	pools_of(l, a, k, b, c->busy_pct, iops, mbps);
	l->buckets = k;
	l->bucket_s = a->bucket;
	l->duration_s = k * a->bucket;
	l->interval_s = (double)c->interval_us / 1e6;
	l->busy_pct = c->busy_pct;
	l->growth = c->growth;
	goto out;
nomem:
	rc = -ENOMEM;
out:
	free(iops);
	free(mbps);
	return rc;
}
