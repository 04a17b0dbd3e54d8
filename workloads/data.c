/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * data.c - the data an I/O workload writes and where its random I/Os
 *          fall (data.h, docs/data.md).
 */
#include "data.h"
#include "../core/err.h"
#include "../core/knobs.h"
#include "../core/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The hot set the spec names: the part that takes this share of I/Os. */
#define HOT_SHARE 0.8

static const char *knob(const char *v, const char *name)
{
	return v[0] ? v : nb_knob_find("suite", name)->def;
}

/* "50%" or "50": a share of blocks, 0..100. */
static int dedupe_parse(const char *s, unsigned *pct)
{
	double v;

	if (nb_parse_percent(s, &v) || v < 0 || v > 100 || v != floor(v))
		return nb_err(-EINVAL, "dedupe '%s': a whole share of the blocks "
			      "written, 0%% to 100%% (50%%)", s);
	*pct = (unsigned)v;
	return 0;
}

static int dedupe_check(const char *s)
{
	unsigned pct;

	return dedupe_parse(s, &pct);
}

void nb_wl_data_resolve(const struct nb_params *p, struct nb_iospec *s)
{
	/* each was checked when set; a row's default parses */
	if (nb_data_ratio_parse(knob(p->compress, "compress"), &s->data.ratio) ||
	    dedupe_parse(knob(p->dedupe, "dedupe"), &s->data.dedupe_pct) ||
	    nb_access_parse(knob(p->distribution, "random-distribution"),
			    &s->access))
		nb_err_clear();
}

void nb_wl_access_json(json_t *spec, const struct nb_iospec *s)
{
	char b[160];
	uint64_t n = s->bs ? s->size / s->bs : 0;
	double frac;

	json_object_set_new(spec, "random_distribution",
			    json_string(nb_access_str(&s->access, b, sizeof(b))));
	if (s->access.dist == NB_DIST_UNIFORM || s->pattern != NB_PAT_RAND || !n)
		return;
	/* a population's sources each have theirs in a region of their own:
	 * the same share of each, so of the whole */
	frac = nb_access_hot(&s->access, s->src && s->nsrc > 1 ? n / s->nsrc :
			     s->sources > 1 ? n / s->sources : n, HOT_SHARE);
	json_object_set_new(spec, "hot_set", json_pack("{s:f, s:f, s:I}",
		"share_pct", HOT_SHARE * 100, "data_pct", frac * 100,
		"bytes", (json_int_t)(frac * (double)s->size)));
}

int nb_wl_data_sample(struct nb_wl_ctx *c, const struct nb_iospec *s,
		      struct nb_zsample *z)
{
	if (s->rw == NB_RW_READ || (nb_dataspec_plain(&s->data) && !c->box))
		return 0;
	return nb_zsample_init(z, s->bs, c->seed) ? -ENOMEM : 1;
}

static double median3(double a, double b, double c)
{
	return a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
}

void nb_wl_data_record(struct nb_wl_ctx *c, const struct nb_iospec *s,
		       const struct nb_io_result *r, struct nb_zsample *z)
{
	struct nb_zratios zr;
	json_t *d, *ratio = json_object();
	uint64_t uniq, set = 0;
	double dd = 0;
	char b[32];

	if (nb_zsample_ratios(z, &zr)) {
		nb_zsample_free(z);
		json_decref(ratio);
		return;
	}
	nb_zsample_free(z);
	for (int a = 0; a < NB_Z_N; a++)
		json_object_set_new(ratio, nb_zalg_name(a), zr.ratio[a] > 0 ?
				    json_real(round(zr.ratio[a] * 1000) / 1000) :
				    json_null());
	d = json_pack("{s:s, s:f, s:o, s:I, s:i}", "compress",
		      nb_data_ratio_str(s->data.ratio, b, sizeof(b)), "ratio_asked",
		      s->data.ratio > 1 ? s->data.ratio : 1.0, "ratio", ratio,
		      "sample_bytes", (json_int_t)zr.bytes, "dedupe_pct",
		      (int)s->data.dedupe_pct);
	nb_wl_metric(c, "data_compress_ratio", median3(zr.ratio[NB_Z_LZ4],
		     zr.ratio[NB_Z_GZIP], zr.ratio[NB_Z_ZSTD]));
	if (r->data_blocks) {
		for (uint64_t m = r->data_dup_set; m; m &= m - 1)
			set++;
		uniq = r->data_blocks - r->data_dups + set;
		dd = (double)r->data_blocks / (double)uniq;
		json_object_set_new(d, "blocks", json_integer((json_int_t)r->data_blocks));
		json_object_set_new(d, "duplicates", json_integer((json_int_t)r->data_dups));
		json_object_set_new(d, "duplicate_set", json_integer((json_int_t)set));
		json_object_set_new(d, "dedupe_ratio_expected", json_real(dd));
		json_object_set_new(d, "dedupe_unit", json_integer(s->bs));
		nb_wl_metric(c, "data_dedupe_ratio", dd);
	}
	json_object_set_new(c->extra, "data", d);
}

void nb_wl_data_keep(struct nb_wl_ctx *c, const struct nb_wl_ctx *sc)
{
	static const char *const m[] = { "data_compress_ratio", "data_dedupe_ratio" };
	json_t *d = json_object_get(sc->extra, "data");

	if (!d || c->extra == sc->extra)
		return;
	json_object_set(c->extra, "data", d);
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (json_object_get(sc->metrics, m[i]))
			json_object_set(c->metrics, m[i], json_object_get(sc->metrics, m[i]));
}

double nb_wl_data_ratio(const json_t *extra, int alg)
{
	const json_t *r = json_object_get(json_object_get(extra, "data"), "ratio");
	double v[NB_Z_N];

	if (!json_is_object(r))
		return 0;
	for (int a = 0; a < NB_Z_N; a++) {
		const json_t *x = json_object_get(r, nb_zalg_name(a));

		v[a] = json_is_number(x) ? json_number_value(x) : 0;
	}
	if (alg >= 0 && alg < NB_Z_N)
		return v[alg];
	return median3(v[NB_Z_LZ4], v[NB_Z_GZIP], v[NB_Z_ZSTD]);
}

/* the data's and the offsets' rows: [suite] (core/knobs.h) */
const struct nb_knob nb_wl_data_knobs[] = {
	{ .section = "suite", .name = "compress", .type = NB_KT_STR,
	  NB_PRM(compress), .def = "incompressible", .check = nb_data_ratio_check,
	  .help = "how well the data the I/O workloads, the VM profile and the "
	  "replay write compresses: incompressible, a ratio (2:1, 1.5:1) or the "
	  "share that compresses away, as fio's buffer_compress_percentage "
	  "(50%); the same under lz4, gzip and zstd, no block twice; the seed "
	  "workloads' data stays incompressible (docs/data.md)",
	  .opt = "compress", .metavar = "RATIO",
	},
	{ .section = "suite", .name = "dedupe", .type = NB_KT_STR,
	  NB_PRM(dedupe), .def = "0%", .check = dedupe_check,
	  .help = "share of the blocks written that repeat one of 64 blocks of "
	  "the run, as fio's dedupe_percentage: a box that deduplicates at the "
	  "block size stores about 1 / (1 - share) less",
	  .opt = "dedupe", .metavar = "PCT",
	},
	{ .section = "suite", .name = "random-distribution", .type = NB_KT_STR,
	  NB_PRM(distribution), .def = "uniform", .check = nb_access_check,
	  .help = "where random I/Os fall, as fio's random_distribution: "
	  "uniform, zipf:THETA (zipf:1.2), pareto:H (pareto:0.2: 80% of the "
	  "I/Os on 20% of the data) or zoned:IO/SIZE[:IO/SIZE...] (zoned:80/20); "
	  "the hot blocks first in the data set, in each VM's own region",
	  .opt = "random-distribution", .metavar = "DIST",
	},
	{ NULL },
};
