/*
 * trend.c - 'nasbench history trend': one gnuplot chart per
 * workload over the runs of the history, and trend.html (history.h).
 */
#include "history.h"
#include "../formats/chart.h"
#include "../formats/escape.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/metrics.h"
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
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
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
			fprintf(f, "<figure class=\"chart\" id=\"chart-%s\">\n", nb_jstr(c, "name"));
			if (n > 0) {
				char *start = strstr(s, "<svg");

				fputs(start ? start : s, f);
			}
			fputs("</figure>\n", f);
			free(s);
		}
	}
	fputs("</body></html>\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/trend.html", dir);
	rc = nb_atomic_write(path, buf, len);
	free(buf);
	return rc;
}

int nb_history_trend(struct nb_history *h, const struct nb_history_filter *f,
		     int last, const char *dir, int *ncharts)
{
	json_t *runs, *charts = json_array(), *seen = json_object(), *r, *wl;
	size_t i, j, k, nruns;
	int rc;

	*ncharts = 0;
	if ((rc = nb_history_list_docs(h, f, &runs)))
		goto out;
	nruns = json_array_size(runs);
	if (!nruns) {
		rc = nb_err(-ENOENT, "no run in the history '%s' matches", nb_history_file(h));
		goto out;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		rc = nb_err(-errno, "cannot create '%s': %s", dir, strerror(errno));
		goto out;
	}
	/* every target/workload of the runs */
	json_array_foreach(runs, i, r)
		json_array_foreach(json_object_get(json_object_get(r, "doc"), "results"), j, wl)
			if (!strcmp(nb_jstr(wl, "status"), "ok") && primary_of(wl)) {
				char key[512];

				snprintf(key, sizeof(key), "%s/%s", nb_jstr(wl, "target"),
					 nb_jstr(wl, "workload"));
				if (!json_object_get(seen, key))
					json_object_set_new(seen, key, json_string(primary_of(wl)));
			}
	{
		const char *key;
		json_t *mv;
		const char **names = calloc(json_object_size(seen) + 1, sizeof(*names));
		size_t nn = 0;

		json_object_foreach(seen, key, mv) {
			const char *metric = json_string_value(mv);
			const struct nb_metric *m = nb_metric_find(metric);
			char label[128], name[300], title[700], slug[300];
			double *x = calloc(nruns, sizeof(double)), *y = calloc(nruns, sizeof(double));
			double *bx = calloc(nruns, sizeof(double)), *bm = calloc(nruns, sizeof(double));
			double *lo = calloc(nruns, sizeof(double)), *hi = calloc(nruns, sizeof(double));
			size_t n = 0, nb = 0;
			const char *slash = strchr(key, '/');

			snprintf(label, sizeof(label), "%s", m->label);
			/* oldest first */
			for (k = nruns; k-- > 0;) {
				json_t *doc = json_object_get(json_array_get(runs, k), "doc");
				char t[256];
				json_t *e;
				double v;

				snprintf(t, sizeof(t), "%.*s", (int)(slash - key), key);
				e = nb_result_find(doc, t, slash + 1);
				if (!e || nb_result_stat(e, metric, "median", &v))
					continue;
				x[n] = (double)(nruns - k);
				y[n] = v * m->show_scale;
				if (n >= 1) {
					size_t from = n > (size_t)last ? n - (size_t)last : 0;
					double w[1024], med, dev[1024];
					size_t c = 0;

					for (size_t q = from; q < n && c < 1024; q++)
						w[c++] = y[q];
					med = nb_stats_median(w, c);
					for (size_t q = 0; q < c; q++)
						dev[q] = fabs(w[q] - med);
					bx[nb] = x[n];
					bm[nb] = med;
					lo[nb] = med - 1.4826 * nb_stats_median(dev, c);
					hi[nb] = med + 1.4826 * nb_stats_median(dev, c);
					nb++;
				}
				n++;
			}
			nb_chart_slug(slug, sizeof(slug), key);
			snprintf(name, sizeof(name), "trend_%s", slug);
			snprintf(title, sizeof(title), "%s: %s by run", key, label);
			{
				const char *series[] = { label, "baseline (median of previous)",
							 "baseline - spread", "baseline + spread" };
				const size_t ns[] = { n, nb, nb, nb };
				const double *xs[] = { x, bx, bx, bx }, *ys[] = { y, bm, lo, hi };
				struct nb_lines l = { name, title, "run (oldest first)", label,
						      nb ? 4 : 1, series, ns, xs, ys };

				rc = n ? nb_chart_lines(dir, &l) : 0;
			}
			if (n && !rc) {
				json_array_append_new(charts, json_pack("{s:s, s:s}", "name", name,
									"title", title));
				names[nn++] = json_string_value(json_object_get(
					json_array_get(charts, json_array_size(charts) - 1), "name"));
			}
			free(x), free(y), free(bx), free(bm), free(lo), free(hi);
			if (rc)
				break;
		}
		if (!rc && nn)
			rc = nb_chart_render(dir, names, nn, NULL);
		free(names);
	}
	if (!rc)
		rc = write_html(dir, charts);
	if (!rc)
		*ncharts = (int)json_array_size(charts);
out:
	json_decref(runs);
	json_decref(charts);
	json_decref(seen);
	return rc;
}
