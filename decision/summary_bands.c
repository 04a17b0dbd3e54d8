/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary_bands.c - the viability bands in a report's summary: each
 * result after the first against the first, workload by workload, on the
 * figures compare judges (decision/bands.h: the headline figure and the
 * throughput of each phase).  A decision per result, its figures grouped
 * by verdict, worst first ("lab-raidz2 against ext4 (bands 10%,2x):
 * decide; decide: bonnie++ block writes 1.58x the time (n=5 each, ±2%);
 * viable: ..."), and each figure in the detail.
 */
#include "summary.h"
#include "summary_int.h"
#include "bands.h"
#include "judge.h"
#include "words.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

static const char *base_name(const char *p)
{
	return strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
}

/* Figure M of entry E: its median, spread (%) and count; the values in V. */
static size_t values(const json_t *e, const char *m, double *v, double *med,
		     double *sp)
{
	struct nb_summary st;
	int n = nb_summary_values(e, m, v, 256);

	nb_stats_summary(v, n > 0 ? (size_t)n : 0, &st);
	*med = n > 0 ? st.median : 0;
	*sp = n > 1 && st.median > 0 ? 100 * st.stddev / st.median : 0;
	return n > 0 ? (size_t)n : 0;
}

/* The judged figures of entry NEW against BASE: a line each in the
 * detail, an object each in FIGS ({what, t, band, nw, nr, spw, spr, sig,
 * low}); the worst verdict. */
static enum nb_band judge_entry(struct nb_sctx *s, const json_t *base,
				const json_t *new_, const char *who, json_t *figs)
{
	const char *primary = nb_summary_primary(base);
	const json_t *m = json_object_get(json_array_get(json_object_get(new_,
		"iterations"), 0), "metrics");
	enum nb_band worst = NB_BAND_NONE;
	const char *k;
	json_t *x;

	json_object_foreach((json_t *)m, k, x) {
		const struct nb_metric *d = nb_metric_find(k);
		double vb[256], vn[256], a, n, spa, spn, t;
		size_t nb = values(base, k, vb, &a, &spa), nn = values(new_, k, vn, &n, &spn);
		enum nb_band v;
		struct nb_judgement j;
		char fa[32], fn[32], what[160];

		t = nb_bands_time(a, n, d->better);
		v = nb_bands_judge(s->bands, t);
		if (!nb_bands_judged(k, primary) || v == NB_BAND_NONE)
			continue;
		nb_summary_test(vb, nb, vn, nn, d->better, &j);
		nb_metric_fig(a, k, fa, sizeof(fa));
		nb_metric_fig(n, k, fn, sizeof(fn));
		nb_words_what(new_, k, what, sizeof(what));
		nb_summary_fold(s->lines, "band", v == NB_BAND_NOT_VIABLE ? "fail" :
				v == NB_BAND_DECIDE ? "warn" : "ok", "bands %s, %s: %s on "
				"%s, %s %s -> %s (%.2fx the time): %s", s->bands->text, who,
				nb_jstr(new_, "workload"), nb_jstr(new_, "target"),
				d->label, fa, fn, t, nb_bands_word(v));
		json_array_append_new(figs, json_pack("{s:s, s:f, s:i, s:i, s:i, s:f, s:f,"
			" s:b, s:b}", "what", what, "t", t, "band", (int)v, "nw", (int)nn,
			"nr", (int)nb, "spw", spn, "spr", spa, "sig", (j.verdict == NB_V_BETTER ||
			j.verdict == NB_V_WORSE) && !j.low_confidence, "low",
			j.low_confidence));
		worst = nb_bands_worst(worst, v);
	}
	return worst;
}

/* "decide: bonnie++ block writes 1.58x the time (n=5 each, ±2%)": the
 * figures of FIGS with verdict V, or "". */
static void band_group(const json_t *figs, enum nb_band v, char *out, size_t len)
{
	json_t *sel = json_array();
	const json_t *x;
	double lo = INFINITY, hi = 0;
	char r[64], conf[128];
	size_t i, l = 0, n = 0;

	out[0] = '\0';
	json_array_foreach(figs, i, x)
		if (json_integer_value(json_object_get(x, "band")) == v)
			json_array_append(sel, (json_t *)x);
	l += (size_t)snprintf(out, len, "%s: ", nb_bands_word(v));
	json_array_foreach(sel, i, x) {
		double t = json_number_value(json_object_get(x, "t"));
		const char *w = nb_jstr(x, "what"), *sp = strchr(w, ' ');
		const char *prev = i ? nb_jstr(json_array_get(sel, i - 1), "what") : "";

		/* "bonnie++ block reads, block writes and rewrites" */
		if (sp && !strncmp(prev, w, (size_t)(sp - w + 1)))
			w = sp + 1;
		lo = fmin(lo, t), hi = fmax(hi, t);
		l += (size_t)snprintf(out + l, l < len ? len - l : 0, "%s%s",
				      i ? (i + 1 == json_array_size(sel) ? " and " : ", ") :
				      "", w);
		n++;
	}
	if (!n) {
		out[0] = '\0';
	} else {
		nb_words_factor(lo, hi, r, sizeof(r));
		nb_decide_confidence(sel, 1, conf, sizeof(conf));
		snprintf(out + l, l < len ? len - l : 0, " %s the time %s", r, conf);
	}
	json_decref(sel);
}

/* "lab-raidz2-ssd": result I named against the first (their name
 * labels when they differ, else their files without ".json"). */
static void who_of(json_t *const *docs, const char *const *paths, size_t i,
		   char *out, size_t len)
{
	const char *n = nb_jstr(json_object_get(docs[i], "labels"), "name");
	const char *n0 = nb_jstr(json_object_get(docs[0], "labels"), "name");
	const char *b = base_name(paths[i]), *b0 = base_name(paths[0]);
	size_t l = strlen(b), l0 = strlen(b0);

	if (*n && *n0 && strcmp(n, n0))
		snprintf(out, len, "%s against %s", n, n0);
	else
		snprintf(out, len, "%.*s against %.*s",
			 (int)(l > 5 && !strcmp(b + l - 5, ".json") ? l - 5 : l), b,
			 (int)(l0 > 5 && !strcmp(b0 + l0 - 5, ".json") ? l0 - 5 : l0), b0);
}

void nb_summary_bands(struct nb_sctx *s, json_t *const *docs,
		      const char *const *paths, size_t ndocs)
{
	static const enum nb_band order[] = { NB_BAND_NOT_VIABLE, NB_BAND_DECIDE,
					      NB_BAND_VIABLE };

	for (size_t i = 1; i < ndocs; i++) {
		enum nb_band worst = NB_BAND_NONE;
		json_t *figs = json_array();
		char who[600], files[600], text[2048], g[900];
		const json_t *e;
		size_t j, l, ng = 0;

		who_of(docs, paths, i, who, sizeof(who));
		snprintf(files, sizeof(files), "%s against %s", base_name(paths[i]),
			 base_name(paths[0]));
		json_array_foreach(json_object_get(docs[i], "results"), j, e) {
			const json_t *base = nb_result_find(docs[0], nb_jstr(e, "target"),
							    nb_jstr(e, "workload"));

			/* one target each side: matched by workload, as compare */
			if (!base && json_array_size(json_object_get(docs[0], "targets")) == 1)
				base = nb_result_find(docs[0], nb_jstr(json_array_get(
					json_object_get(docs[0], "targets"), 0), "name"),
					nb_jstr(e, "workload"));
			if (base && !strcmp(nb_jstr(e, "status"), "ok") &&
			    !strcmp(nb_jstr(base, "status"), "ok"))
				worst = nb_bands_worst(worst, judge_entry(s, base, e, files,
									  figs));
		}
		/* the worst group first: it is the overall verdict */
		l = (size_t)snprintf(text, sizeof(text), "%s (bands %s): ", who,
				     s->bands->text);
		for (size_t k = 0; k < 3; k++) {
			band_group(figs, order[k], g, sizeof(g));
			if (*g && l < sizeof(text))
				l += (size_t)snprintf(text + l, sizeof(text) - l, "%s%s",
						      ng++ ? "; " : "", g);
		}
		if (worst != NB_BAND_NONE)
			nb_summary_add(s->lines, "decision", worst == NB_BAND_NOT_VIABLE ?
				       "fail" : worst == NB_BAND_DECIDE ? "warn" : "ok",
				       "%s", text);
		json_decref(figs);
	}
}
