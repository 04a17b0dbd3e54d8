#include "report.h"
#include "chart.h"
#include "escape.h"
#include "../core/err.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXV 65536               /* pooled iterations per configuration */

struct cfg {
	char name[256];
	json_t *docs;            /* array of borrowed results */
	json_t *labels;          /* the first result's labels */
};

struct chart {
	char name[160];
	char title[256];
	int workload;            /* index into wls, -1: across workloads */
};

struct nb_report {
	size_t ndocs;
	json_t *keys;            /* differing label keys, matrix order */
	struct cfg *cfgs;
	size_t ncfg;
	int by_target;           /* workload key "target/workload" */
	json_t *wls;             /* workload keys in order of appearance */
	struct chart *charts;
	size_t ncharts;
	double *v;               /* scratch for pooled values */
};

static const char *label(const json_t *doc, const char *key)
{
	const char *s = json_string_value(json_object_get(json_object_get(doc,
		"labels"), key));

	return s ? s : "-";
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Label keys whose value is not the same in every result: the matrix
 * keys first (layout, slog, sync, platform), then the others by name. */
static json_t *differing_keys(json_t *const *docs, size_t n)
{
	static const char *matrix[] = { "layout", "slog", "sync", "platform" };
	json_t *all = json_object(), *keys = json_array(), *v;
	const char *k, **rest;
	size_t nrest = 0;

	for (size_t i = 0; i < n; i++)
		json_object_foreach(json_object_get(docs[i], "labels"), k, v)
			json_object_set_new(all, k, json_true());
	rest = calloc(json_object_size(all) + 1, sizeof(*rest));
	json_object_foreach(all, k, v) {
		int differs = 0;

		for (size_t i = 1; i < n && !differs; i++)
			differs = strcmp(label(docs[i], k), label(docs[0], k)) != 0;
		if (!differs)
			continue;
		int m = 0;

		for (; m < 4 && strcmp(matrix[m], k); m++)
			;
		if (m == 4)
			rest[nrest++] = k;
	}
	for (int m = 0; m < 4; m++)
		for (size_t i = 1; i < n; i++)
			if (json_object_get(all, matrix[m]) &&
			    strcmp(label(docs[i], matrix[m]), label(docs[0], matrix[m]))) {
				json_array_append_new(keys, json_string(matrix[m]));
				break;
			}
	qsort(rest, nrest, sizeof(*rest), cmp_str);
	for (size_t i = 0; i < nrest; i++)
		json_array_append_new(keys, json_string(rest[i]));
	free(rest);
	json_decref(all);
	return keys;
}

static int is_matrix(const char *key)
{
	return !strcmp(key, "layout") || !strcmp(key, "slog") ||
	       !strcmp(key, "sync") || !strcmp(key, "platform");
}

/* "raidz1 / ssd / always / bare iodepth=32": the differing labels, the
 * matrix keys by value (their values say what they are), others as
 * key=value, absent ones left out. */
static void cfg_name(const struct nb_report *r, const json_t *doc,
		     const char *path, char *out, size_t len)
{
	json_t *k;
	size_t i, n = 0;

	out[0] = '\0';
	if (!json_array_size(r->keys)) {
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		size_t l = strlen(base);

		if (l > 5 && !strcmp(base + l - 5, ".json"))
			l -= 5;
		snprintf(out, len, "%.*s", (int)l, base);
		return;
	}
	json_array_foreach(r->keys, i, k) {
		const char *key = json_string_value(k), *v = label(doc, key);

		if (!strcmp(v, "-") || n >= len)
			continue;
		if (is_matrix(key))
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? " / " : "", v);
		else
			n += (size_t)snprintf(out + n, len - n, "%s%s=%s", n ? " " : "",
					      key, v);
	}
	if (!n)
		snprintf(out, len, "(no labels)");
}

static void wl_key(const struct nb_report *r, const json_t *e, char *out,
		   size_t len)
{
	if (r->by_target)
		snprintf(out, len, "%s/%s", nb_jstr(e, "target"), nb_jstr(e, "workload"));
	else
		snprintf(out, len, "%s", nb_jstr(e, "workload"));
}

struct nb_report *nb_report_new(json_t *const *docs, const char *const *paths,
				size_t ndocs)
{
	struct nb_report *r = calloc(1, sizeof(*r));
	json_t *seen = json_object(), *e;
	size_t i, j;

	r->ndocs = ndocs;
	r->keys = differing_keys(docs, ndocs);
	r->cfgs = calloc(ndocs, sizeof(*r->cfgs));
	r->wls = json_array();
	r->v = malloc(MAXV * sizeof(*r->v));
	for (i = 0; i < ndocs; i++) {
		json_t *t = json_object_get(docs[i], "targets");

		r->by_target |= json_array_size(t) > 1;
	}
	for (i = 0; i < ndocs; i++) {
		char name[256];
		struct cfg *c = NULL;

		cfg_name(r, docs[i], paths[i], name, sizeof(name));
		for (j = 0; j < r->ncfg && !c; j++)
			if (!strcmp(r->cfgs[j].name, name))
				c = &r->cfgs[j];
		if (!c) {
			c = &r->cfgs[r->ncfg++];
			snprintf(c->name, sizeof(c->name), "%s", name);
			c->docs = json_array();
			c->labels = json_object_get(docs[i], "labels");
		}
		json_array_append(c->docs, docs[i]);
		json_array_foreach(json_object_get(docs[i], "results"), j, e) {
			char k[512];

			wl_key(r, e, k, sizeof(k));
			if (!json_object_get(seen, k)) {
				json_object_set_new(seen, k, json_true());
				json_array_append_new(r->wls, json_string(k));
			}
		}
	}
	json_decref(seen);
	return r;
}

void nb_report_free(struct nb_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->ncfg; i++)
		json_decref(r->cfgs[i].docs);
	json_decref(r->keys);
	json_decref(r->wls);
	free(r->cfgs);
	free(r->charts);
	free(r->v);
	free(r);
}

/* Run the block on each entry E of configuration C for workload WL. */
#define FOR_ENTRIES(r, c, wl, e, ...)                                         \
	do {                                                                   \
		json_t *doc_, *e;                                              \
		size_t i_, j_;                                                 \
		json_array_foreach((c)->docs, i_, doc_)                        \
			json_array_foreach(json_object_get(doc_, "results"), j_, e) { \
				char k_[512];                                  \
				wl_key(r, e, k_, sizeof(k_));                  \
				if (!strcmp(k_, wl)) { __VA_ARGS__ }                  \
			}                                                      \
	} while (0)

/* Pooled values of METRIC over the ok entries of C for WL. */
static size_t pool(const struct nb_report *r, const struct cfg *c,
		   const char *wl, const char *metric)
{
	size_t n = 0;

	FOR_ENTRIES(r, c, wl, e, {
		if (!strcmp(nb_jstr(e, "status"), "ok"))
			n += (size_t)nb_result_values(e, metric, r->v + n,
							(int)(MAXV - n));
	});
	return n;
}

/* Metric names measured for WL in any configuration, display order.
 * Returns a malloc'd array of borrowed strings; *N their count. */
static const char **wl_metrics(const struct nb_report *r, const char *wl,
			       size_t *n)
{
	json_t *seen = json_object(), *v;
	const char **names, *k;
	size_t cnt = 0;

	for (size_t c = 0; c < r->ncfg; c++)
		FOR_ENTRIES(r, &r->cfgs[c], wl, e, {
			json_t *it;
			size_t x;

			json_array_foreach(json_object_get(e, "iterations"), x, it)
				json_object_foreach(json_object_get(it, "metrics"), k, v)
					if (json_is_number(v))
						json_object_set_new(seen, k, json_true());
		});
	names = calloc(json_object_size(seen) + 1, sizeof(*names));
	/* keys live as long as the results do: take them from there */
	json_object_foreach(seen, k, v) {
		names[cnt] = strdup(k);
		cnt++;
	}
	nb_metric_sort(names, cnt);
	json_decref(seen);
	*n = cnt;
	return names;
}

static void free_names(const char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((char *)names[i]);
	free(names);
}

static int is_standard(const char *m)
{
	return !strcmp(m, "bw_bytes") || !strcmp(m, "iops") ||
	       !strcmp(m, "seconds") || !strncmp(m, "lat_", 4);
}

/* The unit group of a non-standard metric: the table's unit, else the
 * name's last '_' part ("put_block_kps" -> "kps"). */
static const char *unit_group(const char *m)
{
	const struct nb_metric *d = nb_metric_find(m);
	const char *u = strrchr(m, '_');

	if (!strcmp(d->unit, "bytes/s"))
		return "MB/s";   /* every bytes/s figure is shown in MB/s */
	if (d->unit[0])
		return d->unit;
	return u ? u + 1 : m;
}

static int add_chart(struct nb_report *r, const char *name, const char *title,
		     int wl)
{
	struct chart *c;

	r->charts = realloc(r->charts, (r->ncharts + 1) * sizeof(*r->charts));
	c = &r->charts[r->ncharts++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->title, sizeof(c->title), "%s", title);
	c->workload = wl;
	return 0;
}

/* Bars of METRICS (rows) x configurations (series) for workload WL, or of
 * one metric across every workload when WL is NULL. */
static int bars(struct nb_report *r, const char *dir, const char *name,
		const char *title, const char *ylabel, int logy, const char *wl,
		const char *const *metrics, size_t nm, int wl_index)
{
	size_t nrows = wl ? nm : json_array_size(r->wls), ns = r->ncfg;
	const char **rows = calloc(nrows, sizeof(*rows));
	const char **series = calloc(ns, sizeof(*series));
	double *v = calloc(nrows * ns, sizeof(*v));
	double *lo = calloc(nrows * ns, sizeof(*v)), *hi = calloc(nrows * ns, sizeof(*v));
	size_t used = 0;
	int rc = 0;

	for (size_t s = 0; s < ns; s++)
		series[s] = r->cfgs[s].name;
	for (size_t row = 0; row < nrows; row++) {
		const char *w = wl ? wl : json_string_value(json_array_get(r->wls, row));
		const char *m = wl ? metrics[row] : metrics[0];
		const struct nb_metric *d = nb_metric_find(m);
		int any = 0;

		for (size_t s = 0; s < ns; s++) {
			size_t n = pool(r, &r->cfgs[s], w, m), k = used * ns + s;
			struct nb_summary sum;

			nb_stats_summary(r->v, n, &sum);
			v[k] = n ? sum.median * d->show_scale : NAN;
			lo[k] = n ? sum.min * d->show_scale : NAN;
			hi[k] = n ? sum.max * d->show_scale : NAN;
			any |= n > 0;
		}
		if (any)         /* the label may live in a thread-local buffer */
			rows[used++] = strdup(wl ? nb_metric_find(m)->label : w);
	}
	if (used) {
		struct nb_bars b = { name, title, ylabel, logy, used, ns, rows,
				     series, v, lo, hi };

		rc = nb_chart_bars(dir, &b);
		if (!rc)
			add_chart(r, name, title, wl_index);
	}
	for (size_t i = 0; i < used; i++)
		free((char *)rows[i]);
	free(rows), free(series), free(v), free(lo), free(hi);
	return rc;
}

/* The iteration of C for WL whose bw_bytes is the median, if it carries a
 * per-second series; else the first that carries one. */
static const json_t *series_of(const struct nb_report *r, const struct cfg *c,
			       const char *wl)
{
	const json_t *best = NULL;
	double med = NAN, dist = INFINITY;
	size_t n = pool(r, c, wl, "bw_bytes");

	if (n)
		med = nb_stats_median(r->v, n);
	FOR_ENTRIES(r, c, wl, e, {
		json_t *it;
		size_t x;

		json_array_foreach(json_object_get(e, "iterations"), x, it) {
			json_t *s = json_object_get(it, "series_bw_bytes");
			json_t *bw = json_object_get(json_object_get(it, "metrics"),
						     "bw_bytes");
			double d = json_is_number(bw) && !isnan(med) ?
				   fabs(json_number_value(bw) - med) : INFINITY / 2;

			if (json_array_size(s) && (!best || d < dist))
				best = s, dist = d;
		}
	});
	return best;
}

static int series_chart(struct nb_report *r, const char *dir, const char *wl,
			const char *slug, int wl_index)
{
	size_t ns = 0, *n = calloc(r->ncfg, sizeof(*n));
	double **x = calloc(r->ncfg, sizeof(*x)), **y = calloc(r->ncfg, sizeof(*y));
	const char **names = calloc(r->ncfg, sizeof(*names));
	char name[160], title[300];
	int rc = 0;

	for (size_t c = 0; c < r->ncfg; c++) {
		const json_t *s = series_of(r, &r->cfgs[c], wl);
		size_t len = json_array_size(s);

		if (!len)
			continue;
		x[ns] = calloc(len, sizeof(double));
		y[ns] = calloc(len, sizeof(double));
		for (size_t i = 0; i < len; i++) {
			x[ns][i] = (double)(i + 1);
			y[ns][i] = json_number_value(json_array_get(s, i)) * 1e-6;
		}
		n[ns] = len;
		names[ns++] = r->cfgs[c].name;
	}
	if (ns) {
		snprintf(name, sizeof(name), "series_%s", slug);
		snprintf(title, sizeof(title), "%s: throughput over time", wl);
		struct nb_lines l = { name, title, "seconds", "MB/s", ns, names, n,
				      (const double *const *)x,
				      (const double *const *)y };

		rc = nb_chart_lines(dir, &l);
		if (!rc)
			add_chart(r, name, title, wl_index);
	}
	for (size_t i = 0; i < ns; i++)
		free(x[i]), free(y[i]);
	free(x), free(y), free(n), free(names);
	return rc;
}

/* File-name form of workload W, unique among the workloads. */
static void wl_slug(const struct nb_report *r, size_t w, char *out, size_t len)
{
	char other[128];

	nb_chart_slug(out, len, json_string_value(json_array_get(r->wls, w)));
	for (size_t i = 0; i < w; i++) {
		nb_chart_slug(other, sizeof(other),
			      json_string_value(json_array_get(r->wls, i)));
		if (!strcmp(other, out)) {
			size_t l = strlen(out);

			snprintf(out + l, len - l, "_%zu", w);
			return;
		}
	}
}

static int workload_charts(struct nb_report *r, const char *dir, size_t w)
{
	const char *wl = json_string_value(json_array_get(r->wls, w));
	static const char *pct[] = { "lat_p50_us", "lat_p90_us", "lat_p99_us",
				     "lat_p99.9_us", "lat_max_us" };
	const char *lat[5], **ms, *done[256];
	size_t nm, nlat = 0, ndone = 0;
	char slug[128], name[200], title[300];
	int rc = 0;

	wl_slug(r, w, slug, sizeof(slug));
	ms = wl_metrics(r, wl, &nm);
	for (size_t p = 0; p < 5; p++)
		for (size_t i = 0; i < nm; i++)
			if (!strcmp(ms[i], pct[p]))
				lat[nlat++] = pct[p];
	if (nlat) {
		snprintf(name, sizeof(name), "latency_%s", slug);
		snprintf(title, sizeof(title), "%s: latency percentiles", wl);
		rc = bars(r, dir, name, title, "microseconds (log)", 1, wl, lat,
			  nlat, (int)w);
	}
	if (!rc)
		rc = series_chart(r, dir, wl, slug, (int)w);
	/* the other metrics (bonnie phases...), side by side per unit */
	for (size_t i = 0; i < nm && !rc; i++) {
		const char *g = unit_group(ms[i]), *grp[256];
		size_t ng = 0, d;
		char gs[64];

		if (is_standard(ms[i]))
			continue;
		for (d = 0; d < ndone && strcmp(done[d], g); d++)
			;
		if (d < ndone || ndone == 256)
			continue;
		done[ndone++] = g;
		for (size_t j = i; j < nm && ng < 256; j++)
			if (!is_standard(ms[j]) && !strcmp(unit_group(ms[j]), g))
				grp[ng++] = ms[j];
		nb_chart_slug(gs, sizeof(gs), g);
		snprintf(name, sizeof(name), "phases_%s_%s", slug, gs);
		snprintf(title, sizeof(title), "%s: %s", wl, g);
		rc = bars(r, dir, name, title, g, !strcmp(g, "us"), wl, grp, ng,
			  (int)w);
	}
	free_names(ms, nm);
	return rc;
}

int nb_report_charts(struct nb_report *r, const char *dir, char ***names,
		     size_t *n)
{
	static const char *top[] = { "bw_bytes", "iops" };
	static const char *titles[] = { "Throughput per workload (median, min-max)",
					"IOPS per workload (median, min-max)" };
	int rc = 0;

	for (size_t i = 0; i < 2 && !rc; i++) {
		char name[64];
		const struct nb_metric *d = nb_metric_find(top[i]);

		snprintf(name, sizeof(name), "bars_%s", top[i]);
		rc = bars(r, dir, name, titles[i], d->label, 0, NULL, &top[i], 1, -1);
	}
	for (size_t w = 0; w < json_array_size(r->wls) && !rc; w++)
		rc = workload_charts(r, dir, w);
	*n = r->ncharts;
	*names = calloc(r->ncharts + 1, sizeof(**names));
	for (size_t i = 0; i < r->ncharts; i++)
		(*names)[i] = strdup(r->charts[i].name);
	return rc;
}

/* ---- tables ---- */

/* "3155 ±9%" (spread: sample stddev / median), "-" when not measured. */
static void cell(char *buf, size_t len, const double *v, size_t n,
		 const struct nb_metric *d)
{
	struct nb_summary s;
	double m;

	if (!n) {
		snprintf(buf, len, "-");
		return;
	}
	nb_stats_summary(v, n, &s);
	m = s.median * d->show_scale;
	if (fabs(m) >= 1000 || m == 0)
		snprintf(buf, len, "%.0f", m);
	else if (fabs(m) >= 10)
		snprintf(buf, len, "%.1f", m);
	else
		snprintf(buf, len, "%.3g", m);
	if (n > 1 && s.median != 0)
		snprintf(buf + strlen(buf), len - strlen(buf), " ±%.0f%%",
			 100 * s.stddev / fabs(s.median));
}

/* Status of C's entries for WL: "" when one is ok, else "skipped: why". */
static void status_of(const struct nb_report *r, const struct cfg *c,
		      const char *wl, char *buf, size_t len, int *present)
{
	int ok = 0;

	buf[0] = '\0';
	*present = 0;
	FOR_ENTRIES(r, c, wl, e, {
		*present = 1;
		if (!strcmp(nb_jstr(e, "status"), "ok"))
			ok = 1;
		else if (!buf[0])
			snprintf(buf, len, "%s%s%s", nb_jstr(e, "status"),
				 *nb_jstr(e, "reason") ? ": " : "", nb_jstr(e, "reason"));
	});
	if (ok)
		buf[0] = '\0';
}

/* A table as JSON: { "head": [...], "rows": [[...], ...] } - one shape for
 * both renderers. */
static json_t *wl_table(const struct nb_report *r, const char *wl)
{
	size_t nm;
	const char **ms = wl_metrics(r, wl, &nm);
	json_t *head = json_array(), *rows = json_array();
	int any_status = 0;

	json_array_append_new(head, json_string("configuration"));
	for (size_t i = 0; i < nm; i++)
		json_array_append_new(head, json_string(nb_metric_find(ms[i])->label));
	json_array_append_new(head, json_string("n"));
	for (size_t c = 0; c < r->ncfg; c++) {
		char st[512], buf[64];
		int present;
		json_t *row;
		size_t n = 0;

		status_of(r, &r->cfgs[c], wl, st, sizeof(st), &present);
		if (!present)
			continue;
		row = json_array();
		json_array_append_new(row, json_string(r->cfgs[c].name));
		for (size_t i = 0; i < nm; i++) {
			size_t k = pool(r, &r->cfgs[c], wl, ms[i]);

			cell(buf, sizeof(buf), r->v, k, nb_metric_find(ms[i]));
			json_array_append_new(row, json_string(buf));
			n = k > n ? k : n;
		}
		json_array_append_new(row, json_integer((json_int_t)n));
		json_array_append_new(row, json_string(st));
		any_status |= st[0] != 0;
		json_array_append_new(rows, row);
	}
	if (any_status)
		json_array_append_new(head, json_string("status"));
	else {
		json_t *row;
		size_t i;

		json_array_foreach(rows, i, row)
			json_array_remove(row, json_array_size(row) - 1);
	}
	free_names(ms, nm);
	return json_pack("{s:o, s:o}", "head", head, "rows", rows);
}

static json_t *cfg_table(const struct nb_report *r)
{
	json_t *head = json_array(), *rows = json_array(), *k;
	size_t i;

	json_array_append_new(head, json_string("configuration"));
	json_array_foreach(r->keys, i, k)
		json_array_append_new(head, json_incref(k));
	json_array_append_new(head, json_string("results"));
	for (size_t c = 0; c < r->ncfg; c++) {
		json_t *row = json_array();

		json_array_append_new(row, json_string(r->cfgs[c].name));
		json_array_foreach(r->keys, i, k) {
			const char *v = json_string_value(json_object_get(
				r->cfgs[c].labels, json_string_value(k)));

			json_array_append_new(row, json_string(v ? v : "-"));
		}
		json_array_append_new(row, json_integer(
			(json_int_t)json_array_size(r->cfgs[c].docs)));
		json_array_append_new(rows, row);
	}
	return json_pack("{s:o, s:o}", "head", head, "rows", rows);
}

static void intro(const struct nb_report *r, char *buf, size_t len)
{
	json_t *k;
	size_t i, n;

	n = (size_t)snprintf(buf, len, "%zu result%s, %zu configuration%s",
			     r->ndocs, r->ndocs == 1 ? "" : "s", r->ncfg,
			     r->ncfg == 1 ? "" : "s");
	if (json_array_size(r->keys)) {
		n += (size_t)snprintf(buf + n, len - n, " (");
		json_array_foreach(r->keys, i, k)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
					      i ? " / " : "", json_string_value(k));
		snprintf(buf + n, n < len ? len - n : 0, ")");
	} else {
		snprintf(buf + n, len - n, " (no label differs: one per file)");
	}
}

/* ---- Markdown ---- */

static void md_table(FILE *out, const json_t *t)
{
	json_t *head = json_object_get(t, "head"), *row, *v;
	size_t i, j;

	json_array_foreach(head, i, v)
		fputs("| ", out), nb_md_escape(out, json_string_value(v)), fputc(' ', out);
	fputs("|\n", out);
	/* numbers to the right: judged by the first row */
	json_array_foreach(head, i, v) {
		json_t *c = json_array_get(json_array_get(json_object_get(t, "rows"), 0), i);
		const char *s = json_string_value(c);

		fputs(i && (json_is_integer(c) || (s && (isdigit((unsigned char)*s) ||
			(*s == '-' && isdigit((unsigned char)s[1]))))) ?
		      "|--:" : "|---", out);
	}
	fputs("|\n", out);
	json_array_foreach(json_object_get(t, "rows"), i, row) {
		json_array_foreach(row, j, v) {
			fputs("| ", out);
			if (json_is_integer(v))
				fprintf(out, "%lld", (long long)json_integer_value(v));
			else
				nb_md_escape(out, json_string_value(v));
			fputc(' ', out);
		}
		fputs("|\n", out);
	}
	fputc('\n', out);
}

static void md_charts(FILE *out, const struct nb_report *r, int wl)
{
	for (size_t i = 0; i < r->ncharts; i++)
		if (r->charts[i].workload == wl) {
			fputs("![", out), nb_md_escape(out, r->charts[i].title);
			fprintf(out, "](%s.png)\n\n", r->charts[i].name);
		}
}

int nb_report_markdown(const struct nb_report *r, FILE *out)
{
	char buf[1024];
	json_t *t;

	intro(r, buf, sizeof(buf));
	fprintf(out, "# nasbench report\n\n%s.\n\n## Configurations\n\n", buf);
	t = cfg_table(r);
	md_table(out, t);
	json_decref(t);
	if (r->ncharts && r->charts[0].workload < 0)
		fputs("## All workloads\n\n", out);
	md_charts(out, r, -1);
	for (size_t w = 0; w < json_array_size(r->wls); w++) {
		const char *wl = json_string_value(json_array_get(r->wls, w));

		fputs("## ", out), nb_md_escape(out, wl), fputs("\n\n", out);
		t = wl_table(r, wl);
		md_table(out, t);
		json_decref(t);
		md_charts(out, r, (int)w);
	}
	return 0;
}

/* ---- HTML ---- */

static void html_table(FILE *out, const json_t *t)
{
	json_t *row, *v;
	size_t i, j;

	fputs("<table>\n<tr>", out);
	json_array_foreach(json_object_get(t, "head"), i, v)
		fputs("<th>", out), nb_xml_escape(out, json_string_value(v)),
			fputs("</th>", out);
	fputs("</tr>\n", out);
	json_array_foreach(json_object_get(t, "rows"), i, row) {
		fputs("<tr>", out);
		json_array_foreach(row, j, v) {
			fputs(j ? "<td class=\"num\">" : "<td>", out);
			if (json_is_integer(v))
				fprintf(out, "%lld", (long long)json_integer_value(v));
			else
				nb_xml_escape(out, json_string_value(v));
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* Inline DIR/NAME.svg without its XML prologue. */
static int html_svg(FILE *out, const char *dir, const struct chart *c)
{
	char path[4400], *buf = NULL, *start;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.svg", dir, c->name);
	f = fopen(path, "r");
	if (!f)
		return nb_err(-errno, "chart '%s' was not drawn: %s", path,
			      strerror(errno));
	if (getdelim(&buf, &cap, '\0', f) < 0) {
		fclose(f);
		free(buf);
		return nb_err(-EIO, "chart '%s' is empty", path);
	}
	fclose(f);
	start = strstr(buf, "<svg");
	if (!start) {
		free(buf);
		return nb_err(-EIO, "chart '%s' is not SVG", path);
	}
	fputs("<figure class=\"chart\" id=\"chart-", out);
	nb_xml_escape(out, c->name);
	fputs("\">\n", out);
	fputs(start, out);
	fputs("<figcaption>", out), nb_xml_escape(out, c->title);
	fprintf(out, " (<a href=\"%s.png\">PNG</a>, <a href=\"%s.gp\">gnuplot "
		"script</a>)</figcaption>\n</figure>\n", c->name, c->name);
	free(buf);
	return 0;
}

static int html_charts(FILE *out, const struct nb_report *r, const char *dir,
		       int wl)
{
	for (size_t i = 0; i < r->ncharts; i++)
		if (r->charts[i].workload == wl && html_svg(out, dir, &r->charts[i]))
			return -EIO;
	return 0;
}

int nb_report_html(const struct nb_report *r, const char *dir, FILE *out)
{
	char buf[1024];
	json_t *t;

	intro(r, buf, sizeof(buf));
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>nasbench report</title>\n<style>\n"
	      "body { font-family: sans-serif; margin: 2em; color: #222; }\n"
	      "table { border-collapse: collapse; margin: 1em 0; }\n"
	      "th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; }\n"
	      "th { background: #f0f0f0; } td.num { text-align: right; }\n"
	      "figure.chart { margin: 1em 0; } figure.chart svg { max-width: 100%; "
	      "height: auto; }\n"
	      "figcaption { font-size: 0.9em; color: #555; }\n"
	      "</style>\n</head>\n<body>\n<h1>nasbench report</h1>\n<p>", out);
	nb_xml_escape(out, buf);
	fputs(".</p>\n<h2>Configurations</h2>\n", out);
	t = cfg_table(r);
	html_table(out, t);
	json_decref(t);
	if (r->ncharts && r->charts[0].workload < 0)
		fputs("<h2>All workloads</h2>\n", out);
	if (html_charts(out, r, dir, -1))
		return -EIO;
	for (size_t w = 0; w < json_array_size(r->wls); w++) {
		const char *wl = json_string_value(json_array_get(r->wls, w));

		fputs("<h2>", out), nb_xml_escape(out, wl), fputs("</h2>\n", out);
		t = wl_table(r, wl);
		html_table(out, t);
		json_decref(t);
		if (html_charts(out, r, dir, (int)w))
			return -EIO;
	}
	fputs("</body>\n</html>\n", out);
	return 0;
}
