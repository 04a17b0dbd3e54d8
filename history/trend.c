/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trend.c - 'nasbench history trend': one gnuplot chart per
 * workload over the runs of the history, and trend.html (history.h).
 */
#include "history.h"
#include "../formats/chart.h"
#include "../core/escape.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/metrics.h"
#include "../core/outdir.h"
#include "../core/result.h"
#include "../core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int in_summary(const void *sum, const char *name)
{
	return json_object_get(sum, name) != NULL;
}

static const char *primary_of(const json_t *wl)
{
	const char *pat = nb_jstr(json_object_get(wl, "spec"), "pattern");

	return nb_metric_headline(!strcmp(pat, "rand"), in_summary,
				  json_object_get(wl, "summary"));
}

static int write_html(const char *dir, const json_t *charts)
{
	char path[4200], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *c;
	size_t i;
	int rc;

	if (!f)
		return nb_err(-ENOMEM, "out of memory");
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>nasbench history trend</title>\n<style>body{font-family:"
	      "sans-serif;max-width:1100px;margin:2em auto}figure{margin:1em 0}"
	      "</style></head><body>\n<h1>nasbench history: trend</h1>\n"
	      "<p>Each workload's primary metric (median of each run's iterations), "
	      "oldest run first; the band is the median of the previous runs "
	      "&plusmn; their spread (the baseline 'compare --baseline history' "
	      "gates against).</p>\n", f);
	json_array_foreach(charts, i, c) {
		char svg[4200], *s = NULL;
		size_t cap = 0;
		FILE *in;

		fputs("<h2>", f), nb_xml_escape(f, nb_jstr(c, "title")), fputs("</h2>\n", f);
		snprintf(svg, sizeof(svg), "%s/%s.svg", dir, nb_jstr(c, "name"));
		in = fopen(svg, "r");
		if (in) {
			ssize_t n = getdelim(&s, &cap, '\0', in);

			fclose(in);
			fputs("<figure class=\"chart\" id=\"chart-", f);
			nb_xml_escape(f, nb_jstr(c, "name"));
			fputs("\">\n", f);
			if (n > 0) {
				char *start = strstr(s, "<svg");

				/* its ids unique in the page, as the report's */
				nb_chart_svg_inline(f, start ? start : s,
						    nb_jstr(c, "name"), nb_jstr(c, "title"));
			}
			fputs("</figure>\n", f);
			free(s);
		}
	}
	fputs("</body></html>\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/trend.html", dir);
	rc = nb_atomic_write(path, buf, len, NULL);
	free(buf);
	return rc;
}

/* Every target/workload with figures in RUNS, each with its primary
 * metric: { "TARGET/WORKLOAD": "metric" }. */
static json_t *trend_keys(const json_t *runs)
{
	json_t *seen = json_object(), *r, *wl;
	size_t i, j;

	json_array_foreach(runs, i, r)
		json_array_foreach(json_object_get(json_object_get(r, "doc"), "results"), j, wl)
			if (!strcmp(nb_jstr(wl, "status"), "ok") && primary_of(wl)) {
				char key[512];

				snprintf(key, sizeof(key), "%s/%s", nb_jstr(wl, "target"),
					 nb_jstr(wl, "workload"));
				if (!json_object_get(seen, key))
					json_object_set_new(seen, key, json_string(primary_of(wl)));
			}
	return seen;
}

/* One key's figures by run, oldest first (X, Y: N points), and the band
 * beside each point after the first: the median of the LAST runs before
 * it (BM) and that +- 1.4826 x their median absolute deviation (LO, HI),
 * at BX (NB points). */
struct trend {
	double *x, *y, *bx, *bm, *lo, *hi;
	size_t n, nb;
};

static void trend_band(struct trend *t, int last)
{
	size_t from = t->n > (size_t)last ? t->n - (size_t)last : 0;
	double w[1024], med, spread;
	size_t c = 0;

	for (size_t q = from; q < t->n && c < 1024; q++)
		w[c++] = t->y[q];
	med = nb_stats_median(w, c);
	spread = nb_stats_mad(w, c);
	t->bx[t->nb] = t->x[t->n];
	t->bm[t->nb] = med;
	t->lo[t->nb] = med - spread;
	t->hi[t->nb] = med + spread;
	t->nb++;
}

static void trend_series(struct trend *t, const json_t *runs, const char *key,
			 const char *metric, const struct nb_metric *m, int last)
{
	size_t nruns = json_array_size(runs);
	const char *slash = strchr(key, '/');
	char target[256];

	snprintf(target, sizeof(target), "%.*s", (int)(slash - key), key);
	for (size_t k = nruns; k-- > 0;) {
		json_t *doc = json_object_get(json_array_get(runs, k), "doc");
		json_t *e = nb_result_find(doc, target, slash + 1);
		double v;

		if (!e || nb_result_stat(e, metric, "median", &v))
			continue;
		t->x[t->n] = (double)(nruns - k);
		t->y[t->n] = v * m->show_scale;
		if (t->n >= 1)
			trend_band(t, last);
		t->n++;
	}
}

/* KEY's chart (with METRIC's figures) into DIR, listed in CHARTS when it
 * has any.  0 or -errno. */
static int trend_chart(const char *dir, const json_t *runs, const char *key,
		       const char *metric, int last, json_t *charts)
{
	const struct nb_metric *m = nb_metric_find(metric);
	size_t nruns = json_array_size(runs);
	char label[128], name[300], title[700], slug[300];
	struct trend t = {
		.x = calloc(nruns, sizeof(double)), .y = calloc(nruns, sizeof(double)),
		.bx = calloc(nruns, sizeof(double)), .bm = calloc(nruns, sizeof(double)),
		.lo = calloc(nruns, sizeof(double)), .hi = calloc(nruns, sizeof(double)),
	};
	const char *series[] = { label, "baseline (median of previous)",
				 "baseline - spread", "baseline + spread" };
	int rc = 0;

	snprintf(label, sizeof(label), "%s", m->label);
	trend_series(&t, runs, key, metric, m, last);
	nb_chart_slug(slug, sizeof(slug), key);
	snprintf(name, sizeof(name), "trend_%s", slug);
	/* two keys of one file name ("a b/w", "a_b/w"): the second numbered,
	 * never written over the first */
	for (size_t i = 0; i < json_array_size(charts); i++)
		if (!strcmp(nb_jstr(json_array_get(charts, i), "name"), name))
			snprintf(name, sizeof(name), "trend_%s_%zu", slug,
				 json_array_size(charts));
	snprintf(title, sizeof(title), "%s: %s by run", key, label);
	if (t.n) {
		const size_t ns[] = { t.n, t.nb, t.nb, t.nb };
		const double *xs[] = { t.x, t.bx, t.bx, t.bx };
		const double *ys[] = { t.y, t.bm, t.lo, t.hi };
		struct nb_lines l = { name, title, "run (oldest first)", label,
				      t.nb ? 4 : 1, series, ns, xs, ys };

		rc = nb_chart_lines(dir, &l);
		if (!rc)
			json_array_append_new(charts, json_pack("{s:s, s:s}", "name",
								name, "title", title));
	}
	free(t.x), free(t.y), free(t.bx), free(t.bm), free(t.lo), free(t.hi);
	return rc;
}

/* A chart per key of SEEN into DIR, listed in CHARTS, and their SVGs. */
static int trend_charts(const char *dir, const json_t *runs, json_t *seen,
			int last, json_t *charts)
{
	const char **names = calloc(json_object_size(seen) + 1, sizeof(*names));
	const char *key;
	size_t nn = 0;
	json_t *mv;
	int rc = 0;

	json_object_foreach(seen, key, mv) {
		size_t had = json_array_size(charts);

		rc = trend_chart(dir, runs, key, json_string_value(mv), last, charts);
		if (rc)
			break;
		if (json_array_size(charts) > had)
			names[nn++] = nb_jstr(json_array_get(charts, had), "name");
	}
	if (!rc && nn)
		rc = nb_chart_render(dir, names, nn, NULL);
	free(names);
	return rc;
}

int nb_history_trend(struct nb_history *h, const struct nb_history_filter *f,
		     int last, const char *dir, int *ncharts)
{
	json_t *runs = NULL, *charts = json_array(), *seen = NULL;
	char tmp[4200];
	int rc;

	*ncharts = 0;
	if ((rc = nb_history_list_docs(h, f, &runs)))
		goto out;
	if (!json_array_size(runs)) {
		rc = nb_err(-ENOENT, "no run in the history '%s' matches", nb_history_file(h));
		goto out;
	}
	/* made whole beside DIR, then swapped in (core/outdir.h) */
	if ((rc = nb_outdir_begin(dir, tmp, sizeof(tmp))))
		goto out;
	seen = trend_keys(runs);
	rc = trend_charts(tmp, runs, seen, last, charts);
	if (!rc)
		rc = write_html(tmp, charts);
	if (!rc)
		rc = nb_outdir_commit(tmp, dir, "history trend");
	if (rc)
		nb_outdir_abort(tmp, dir);
	else
		*ncharts = (int)json_array_size(charts);
out:
	json_decref(runs);
	json_decref(charts);
	json_decref(seen);
	return rc;
}
