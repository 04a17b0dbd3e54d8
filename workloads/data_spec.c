/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * data_spec.c - the knobs of the data an I/O workload writes and of where
 *               its random I/Os fall, onto the spec and into its JSON
 *               (data.h, docs/data.md); what the run wrote is data.c's.
 */
#include "data_spec.h"
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
