/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary_bands.c - the viability bands in a report's summary: each
 * result after the first against the first, workload by workload, on the
 * figures compare judges (decision/bands.h: the headline figure and the
 * throughput of each phase).
 */
#include "summary.h"
#include "summary_int.h"
#include "bands.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"

#include <string.h>

static const char *base_name(const char *p)
{
	return strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
}

static double median_of(const json_t *e, const char *m)
{
	double v[256];
	int n = nb_result_values(e, m, v, 256);

	return n > 0 ? nb_stats_median(v, (size_t)n) : 0;
}

/* The judged figures of entry NEW against BASE: lines, the worst verdict. */
static enum nb_band judge_entry(json_t *lines, const json_t *base,
				const json_t *new_, const char *who,
				const struct nb_bands *b)
{
	const char *primary = nb_summary_primary(base);
	const json_t *m = json_object_get(json_array_get(json_object_get(new_,
		"iterations"), 0), "metrics");
	enum nb_band worst = NB_BAND_NONE;
	const char *k;
	json_t *x;

	json_object_foreach((json_t *)m, k, x) {
		const struct nb_metric *d = nb_metric_find(k);
		double a = median_of(base, k), n = median_of(new_, k);
		double t = nb_bands_time(a, n, d->better);
		enum nb_band v = nb_bands_judge(b, t);
		char fa[32], fn[32];

		if (!nb_bands_judged(k, primary) || v == NB_BAND_NONE)
			continue;
		nb_metric_fig(a, k, fa, sizeof(fa));
		nb_metric_fig(n, k, fn, sizeof(fn));
		nb_summary_add(lines, "band", v == NB_BAND_NOT_VIABLE ? "fail" :
			       v == NB_BAND_DECIDE ? "warn" : "ok", "bands %s, %s: %s on "
			       "%s, %s %s -> %s (%.2fx the time): %s", b->text, who,
			       nb_jstr(new_, "workload"), nb_jstr(new_, "target"),
			       nb_metric_find(k)->label, fa, fn, t, nb_bands_word(v));
		worst = nb_bands_worst(worst, v);
	}
	return worst;
}

void nb_summary_bands(json_t *lines, json_t *const *docs, const char *const *paths,
		      size_t ndocs, const struct nb_bands *b)
{
	for (size_t i = 1; i < ndocs; i++) {
		enum nb_band worst = NB_BAND_NONE;
		char who[600];
		const json_t *e;
		size_t j;

		snprintf(who, sizeof(who), "%s against %s", base_name(paths[i]),
			 base_name(paths[0]));
		json_array_foreach(json_object_get(docs[i], "results"), j, e) {
			const json_t *base = nb_result_find(docs[0], nb_jstr(e, "target"),
							    nb_jstr(e, "workload"));

			if (base && !strcmp(nb_jstr(e, "status"), "ok") &&
			    !strcmp(nb_jstr(base, "status"), "ok"))
				worst = nb_bands_worst(worst, judge_entry(lines, base, e,
									  who, b));
		}
		if (worst != NB_BAND_NONE)
			nb_summary_add(lines, "band", worst == NB_BAND_NOT_VIABLE ? "fail" :
				       worst == NB_BAND_DECIDE ? "warn" : "ok", "bands %s, "
				       "%s overall: %s", b->text, who, nb_bands_word(worst));
	}
}
