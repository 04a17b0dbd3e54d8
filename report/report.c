/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - the results of 'nasbench report' gathered into
 * configurations (the labels that differ) and workloads, and the pooled
 * iterations of one configuration and workload.
 */
#include "model.h"
#include "../decision/summary.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"

#include <math.h>
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

const char *nb_report_label(const json_t *labels, const char *key)
{
	const char *s = json_string_value(json_object_get(labels, key));

	return s ? s : "-";
}

const char *nb_report_cfg_of(const struct nb_report *r, const json_t *doc)
{
	for (size_t c = 0; c < r->ncfg; c++) {
		const json_t *d;
		size_t i;

		json_array_foreach(r->cfgs[c].docs, i, d)
			if (d == doc)
				return r->cfgs[c].name;
	}
	return "-";
}

static const char *label(const json_t *doc, const char *key)
{
	return nb_report_label(json_object_get(doc, "labels"), key);
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

/* The keys that name the configurations: of the differing ones, in
 * their order, each that tells apart results the ones before it do not
 * ('disks' and 'os' go when 'platform' already says it). */
static json_t *naming_keys(const json_t *keys, json_t *const *docs, size_t n)
{
	json_t *out = json_array(), *k;
	char **sig = calloc(n, sizeof(*sig));
	size_t i, groups = 1;

	for (i = 0; i < n; i++)
		sig[i] = strdup("");
	json_array_foreach(keys, i, k) {
		char **next = calloc(n, sizeof(*next));
		size_t g = 0;

		for (size_t d = 0; d < n; d++) {
			size_t l = strlen(sig[d]) + strlen(label(docs[d], json_string_value(k))) + 2;

			next[d] = malloc(l);
			snprintf(next[d], l, "%s\x1f%s", sig[d], label(docs[d],
								      json_string_value(k)));
		}
		for (size_t d = 0; d < n; d++) {
			size_t e = 0;

			for (; e < d && strcmp(next[e], next[d]); e++)
				;
			g += e == d;
		}
		if (g > groups) {
			json_array_append(out, k);
			groups = g;
			for (size_t d = 0; d < n; d++)
				free(sig[d]), sig[d] = next[d];
		} else {
			for (size_t d = 0; d < n; d++)
				free(next[d]);
		}
		free(next);
	}
	for (i = 0; i < n; i++)
		free(sig[i]);
	free(sig);
	return out;
}

/* "layout=raidz1 slog=SSD": the naming labels as key=value, absent ones
 * left out. */
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
	json_array_foreach(r->name_keys, i, k) {
		const char *key = json_string_value(k), *v = label(doc, key);

		if (!strcmp(v, "-") || n >= len)
			continue;
		n += (size_t)snprintf(out + n, len - n, "%s%s=%s", n ? " " : "", key, v);
	}
	if (!n)
		snprintf(out, len, "(no labels)");
}

void nb_report_wl_key(const struct nb_report *r, const json_t *e, char *out,
		   size_t len)
{
	/* a failure walk's states are not pooled: "rand4k-read (degraded)" */
	const char *st = nb_box_state(nb_jstr(e, "state")) > 0 ?
			 nb_jstr(e, "state") : "";

	if (r->by_target)
		snprintf(out, len, "%s/%s%s%s%s", nb_jstr(e, "target"),
			 nb_jstr(e, "workload"), *st ? " (" : "", st, *st ? ")" : "");
	else
		snprintf(out, len, "%s%s%s%s", nb_jstr(e, "workload"),
			 *st ? " (" : "", st, *st ? ")" : "");
}

struct nb_report *nb_report_new(json_t *const *docs, const char *const *paths,
				size_t ndocs)
{
	struct nb_report *r = calloc(1, sizeof(*r));
	json_t *seen = json_object(), *e;
	size_t i, j;

	r->ndocs = ndocs;
	r->docs = docs;
	r->paths = paths;
	r->keys = differing_keys(docs, ndocs);
	r->name_keys = naming_keys(r->keys, docs, ndocs);
	r->cfgs = calloc(ndocs, sizeof(*r->cfgs));
	r->wls = json_array();
	r->v = malloc(NB_REPORT_MAXV * sizeof(*r->v));
	for (i = 0; i < ndocs; i++) {
		json_t *t = json_object_get(docs[i], "targets");

		r->by_target |= json_array_size(t) > 1;
	}
	for (i = 0; i < ndocs; i++) {
		char name[256];
		struct nb_report_cfg *c = NULL;

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

			nb_report_wl_key(r, e, k, sizeof(k));
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
	json_decref(r->name_keys);
	json_decref(r->grids);
	json_decref(r->grid_note);
	json_decref(r->plan);
	json_decref(r->wls);
	free(r->cfgs);
	free(r->charts);
	free(r->v);
	free(r);
}

/* Pooled values of METRIC over the ok entries of C for WL. */
size_t nb_report_pool(const struct nb_report *r, const struct nb_report_cfg *c,
		   const char *wl, const char *metric)
{
	size_t n = 0;

	NB_REPORT_FOR_ENTRIES(r, c, wl, e, {
		if (nb_report_entry_counts(e))
			n += (size_t)nb_result_values(e, metric, r->v + n,
							(int)(NB_REPORT_MAXV - n));
	});
	return n;
}

/* Metric names measured for WL in any configuration, display order.
 * Returns a malloc'd array of borrowed strings; *N their count. */
const char **nb_report_metrics(const struct nb_report *r, const char *wl,
			       size_t *n)
{
	json_t *seen = json_object(), *v;
	const char **names, *k;
	size_t cnt = 0;

	for (size_t c = 0; c < r->ncfg; c++)
		NB_REPORT_FOR_ENTRIES(r, &r->cfgs[c], wl, e, {
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

void nb_report_names_free(const char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((char *)names[i]);
	free(names);
}

int nb_report_entry_counts(const json_t *e)
{
	return !strcmp(nb_jstr(e, "status"), "ok") ||
	       json_array_size(json_object_get(e, "iterations")) > 0;
}

void nb_report_fmt(char *buf, size_t len, const double *v, size_t n,
		   const struct nb_metric *d)
{
	struct nb_summary s;

	if (!n) {
		snprintf(buf, len, "-");
		return;
	}
	nb_stats_summary(v, n, &s);
	nb_metric_shown(s.median * d->show_scale, buf, len);
	if (n > 1 && s.median != 0)
		snprintf(buf + strlen(buf), len - strlen(buf), " ±%.0f%%",
			 100 * s.stddev / fabs(s.median));
}

void nb_report_bands(struct nb_report *r, const struct nb_bands *b)
{
	r->bands = *b;
	r->has_bands = 1;
}

void nb_report_skip_charts(struct nb_report *r, const char *why)
{
	r->no_charts = 1;
	snprintf(r->skip_why, sizeof(r->skip_why), "%s", why ? why : "");
}

/* The list of charts (model.h). */
int nb_report_add_chart(struct nb_report *r, const char *name, const char *title,
			int wl)
{
	struct nb_report_chart *c;

	r->charts = realloc(r->charts, (r->ncharts + 1) * sizeof(*r->charts));
	c = &r->charts[r->ncharts++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->title, sizeof(c->title), "%s", title);
	c->workload = wl;
	return 0;
}

/* Workload key KEY's panel name (the workload, without its target) and
 * its series' name in the panel: the target and/or the configuration. */
void nb_report_panel_names(const struct nb_report *r, const char *key, size_t c,
			    char *panel, size_t plen, char *series, size_t slen)
{
	const char *slash = r->by_target ? strrchr(key, '/') : NULL;

	snprintf(panel, plen, "%s", slash ? slash + 1 : key);
	if (slash && r->ncfg > 1)
		snprintf(series, slen, "%.*s %s", (int)(slash - key), key, r->cfgs[c].name);
	else if (slash)
		snprintf(series, slen, "%.*s", (int)(slash - key), key);
	else
		snprintf(series, slen, "%s", r->cfgs[c].name);
}
