/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hotsweep.c - the ARC a hot set needs (hotsweep.h, docs/data.md).
 */
#include "hotsweep.h"
#include "../data.h"
#include "io_sweep.h"
#include "../../core/clock.h"
#include "../../core/err.h"
#include "../../core/hook.h"
#include "../../core/knobs.h"
#include "../../core/units.h"
#include "../../telemetry/telem_ratio.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int nb_wl_hot_wanted(const struct nb_params *p)
{
	return p->hot_sizes[0] != 0;
}

static int size_entry(const char *s, void *arg, double *out)
{
	uint64_t v;

	(void)arg;
	if (nb_parse_size(s, &v) || !v)
		return -EINVAL;
	*out = (double)v;
	return 0;
}

static const struct nb_rising how = {
	"hot-set sizes", "rising sizes (16M,32M,64M)", size_entry, NULL,
};

/* P's sizes into LIST (*N of them), "auto": the data set's 1/256 to 1/2,
 * doubling. */
static int sizes(const char *s, uint64_t size, double *list, size_t *n)
{
	int rc = nb_parse_rising(s, list, NB_HOT_STEPS, n, &how);

	if (rc || *n)
		return rc;
	for (uint64_t h = size / 256; h && h <= size / 2; h *= 2)
		list[(*n)++] = (double)h;
	return *n ? 0 : nb_err(-EINVAL, "hot-set sizes 'auto': the data set of %llu "
			       "bytes is too small to sweep", (unsigned long long)size);
}

int nb_wl_hot_sizes_check(const char *s)
{
	double list[NB_HOT_STEPS];
	size_t n;

	if (nb_parse_rising(s, list, NB_HOT_STEPS, &n, &how))
		nb_err_clear();
	else
		return 0;
	return nb_err(-EINVAL, "invalid hot-set sizes '%s': give rising sizes "
		      "(16M,32M,64M), or auto", s);
}

/* The step's distribution: SHARE% of the random I/Os on the first FRAC of
 * each region. */
static void hot_zones(struct nb_access *a, double share, double frac)
{
	memset(a, 0, sizeof(*a));
	a->dist = NB_DIST_ZONED;
	a->zone_io[0] = share;
	a->zone_size[0] = frac * 100;
	a->nzones = 1;
	if (frac < 1) {
		a->zone_io[1] = 100 - share;
		a->zone_size[1] = 100 - frac * 100;
		a->nzones = 2;
	}
}

struct hot_run {
	struct nb_wl_ctx *c;
	const struct nb_iospec *s;
	nb_wl_io_fn once;
	double share, vm_iops;
	int zfs;                 /* the data is on a ZFS dataset of the box */
	uint64_t arc_max;
	json_t *steps;
	double p99[NB_HOT_STEPS], bytes[NB_HOT_STEPS];
	size_t n;
};

static double metric(const json_t *m, const char *a, const char *b)
{
	const json_t *v = json_object_get(m, a);

	if (!json_is_number(v))
		v = json_object_get(m, b);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* One step: the hot set of HOT bytes.  0, -EINTR or -errno. */
static int hot_step(struct hot_run *h, double hot)
{
	struct nb_wl_ctx sc = *h->c;
	struct nb_iospec ss = *h->s;
	struct nb_tp_arc a0 = { 0 }, a1 = { 0 };
	double secs, frac = fmin(1, hot / (double)h->s->size), p99, arc = -1;
	char phase[64], b[32];
	int rc, have0;

	hot_zones(&ss.access, h->share, frac);
	ss.seed = h->s->seed ^ (uint64_t)(h->n + 1) * 0x9e3779b97f4a7c15ULL;
	snprintf(phase, sizeof(phase), "hot:%s:%zu", h->c->wl->name, h->n + 1);
	rc = nb_hook(phase, NULL, h->c->stop);
	if (rc)
		return rc;
	snprintf(phase, sizeof(phase), "hot set %zu, %s", h->n + 1,
		 nb_fmt_size((uint64_t)hot, b, sizeof(b)));
	have0 = h->zfs && !nb_telem_arc_now(h->c->box, &a0);
	rc = nb_wl_sweep_once(h->once, &sc, &ss, phase, &secs);
	if (!rc) {
		if (have0 && !nb_telem_arc_now(h->c->box, &a1)) {
			arc = nb_tr_arc_hit(&a0, &a1);
			if (a1.c_max)
				h->arc_max = a1.c_max;
		}
		p99 = metric(sc.metrics, "resp_p99_us", "lat_p99_us");
		h->p99[h->n] = p99;
		h->bytes[h->n] = frac * (double)h->s->size;
		json_array_append_new(h->steps, json_pack(
			"{s:f, s:f, s:o, s:o, s:o, s:o, s:o, s:f}",
			"hot_bytes", frac * (double)h->s->size, "hot_pct", frac * 100,
			"iops", num(metric(sc.metrics, "achieved_iops", "iops")),
			"lat_mean_us", num(metric(sc.metrics, "resp_mean_us",
						  "lat_mean_us")),
			"lat_p99_us", num(p99),
			"vms", h->vm_iops > 0 ? num(metric(sc.metrics, "achieved_iops",
				"iops") / h->vm_iops) : json_null(),
			"arc_hit_pct", arc >= 0 ? json_real(arc) : json_null(),
			"seconds", secs));
		json_object_set_new(json_array_get(h->steps, h->n), "arc_size_bytes",
				    a1.have && have0 ? json_integer((json_int_t)a1.size) :
				    json_null());
		h->n++;
		nb_wl_data_keep(h->c, &sc);
	}
	json_decref(sc.metrics);
	json_decref(sc.extra);
	return rc;
}

/* The knee: the first step whose p99 is NB_HOT_KNEE x the first's. */
static void answers(struct hot_run *h, json_t *hs)
{
	struct nb_wl_ctx *c = h->c;
	size_t k;
	char a[32], b[32], m[32], t[400];

	for (k = 1; k < h->n; k++)
		if (h->p99[k] >= NB_HOT_KNEE * h->p99[0])
			break;
	json_object_set_new(hs, "arc_max_bytes", h->arc_max ?
			    json_integer((json_int_t)h->arc_max) : json_null());
	json_object_set_new(hs, "knee_bytes", json_null());
	json_object_set_new(hs, "knee_ratio", json_null());
	json_object_set_new(hs, "fits_bytes", json_null());
	json_object_set_new(hs, "text", json_string(""));
	if (!h->n || !isfinite(h->p99[0]))
		return;
	if (k == h->n) {
		snprintf(t, sizeof(t), "the hot set fits at every size swept, up to "
			 "%s: p99 %.2f ms against %.2f ms at %s",
			 nb_fmt_size((uint64_t)h->bytes[k - 1], a, sizeof(a)),
			 h->p99[k - 1] / 1e3, h->p99[0] / 1e3,
			 nb_fmt_size((uint64_t)h->bytes[0], b, sizeof(b)));
	} else {
		snprintf(t, sizeof(t), "the hot set fits in %s%s%s%s; at %s its p99 is "
			 "%.1fx (%.2f ms against %.2f ms)",
			 nb_fmt_size((uint64_t)h->bytes[k - 1], a, sizeof(a)),
			 h->arc_max ? " (the box's ARC may hold " : "",
			 h->arc_max ? nb_fmt_size(h->arc_max, m, sizeof(m)) : "",
			 h->arc_max ? ")" : "",
			 nb_fmt_size((uint64_t)h->bytes[k], b, sizeof(b)),
			 h->p99[k] / h->p99[0], h->p99[k] / 1e3, h->p99[0] / 1e3);
		json_object_set_new(hs, "knee_bytes", json_real(h->bytes[k]));
		json_object_set_new(hs, "knee_ratio", json_real(h->p99[k] / h->p99[0]));
	}
	json_object_set_new(hs, "fits_bytes", json_real(h->bytes[k - 1]));
	json_object_set_new(hs, "text", json_string(t));
	nb_wl_metric(c, "hot_fits_bytes", h->bytes[k - 1]);
}

int nb_wl_hot_run(struct nb_wl_ctx *c, const struct nb_iospec *s,
		  nb_wl_io_fn once, double vm_iops)
{
	struct hot_run h = { .c = c, .s = s, .once = once, .vm_iops = vm_iops };
	struct nb_iospec ss = *s;
	double list[NB_HOT_STEPS];
	size_t n;
	json_t *hs;
	int rc = 0;

	if (sizes(c->p->hot_sizes, s->size, list, &n))
		return -EINVAL;
	h.share = c->p->hot_share ? c->p->hot_share :
		  (double)nb_knob_default("suite", "hot-share");
	/* each step as long as a run of the workload, else a sweep's step */
	if (!ss.runtime_us)
		ss.runtime_us = nb_wl_step_us(c->p);
	ss.bytes = 0;
	h.s = &ss;
	/* the data file made before the first step: no step's time */
	{
		struct nb_file *f;

		rc = nb_wl_io_open(c, &ss, &f);
		if (rc)
			return rc;
		c->t->ops->fclose(f);
	}
	h.zfs = nb_telem_on_zfs(c->box);
	h.steps = json_array();
	for (size_t i = 0; i < n && !rc; i++)
		rc = hot_step(&h, list[i]);
	hs = json_pack("{s:f, s:f, s:o}", "share_pct", h.share, "step_s",
		       (double)ss.runtime_us / 1e6, "steps", h.steps);
	answers(&h, hs);
	json_object_set_new(hs, "complete", json_boolean(!rc));
	json_object_set_new(c->extra, "hot_sweep", hs);
	return rc;
}

/* the hot-set sweep's rows: [suite] hot-sizes, hot-share (core/knobs.h) */
const struct nb_knob nb_wl_hot_knobs[] = {
	{ .section = "suite", .name = "hot-sizes", .type = NB_KT_STR,
	  NB_PRM(hot_sizes), .unset = "no sweep", .check = nb_wl_hot_sizes_check,
	  .help = "the ARC a hot set needs: each iteration of a random workload "
	  "runs once per hot-set size (rising: 16M,32M,64M; auto: the data "
	  "set's 1/256 to 1/2), hot-share of its random I/Os on the first SIZE "
	  "of the data set, and finds where its p99 doubles (docs/data.md)",
	  .opt = "hot-sizes", .metavar = "SIZES",
	},
	{ .section = "suite", .name = "hot-share", .type = NB_KT_UINT32,
	  NB_PRM(hot_share), .min = 1, .max = 100, .def = "100",
	  .help = "the hot-set sweep: % of the random I/Os on the hot set (the "
	  "rest uniform over the rest; under 99 the cold ones are the p99)",
	  .opt = "hot-share", .metavar = "PCT",
	},
	{ NULL },
};
