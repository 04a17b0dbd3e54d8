/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * data.c - what an I/O workload's run wrote: its sample's compression
 *          and duplicates into the result (data.h, docs/data.md); the
 *          knobs onto the spec are data_spec.c's.
 */
#include "data.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
