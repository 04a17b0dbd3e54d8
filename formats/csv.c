/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv.c - 'nasbench export --csv': results as one CSV table for a
 * spreadsheet, a row per result x workload entry x iteration; the labels
 * of every result and the metrics of every workload are columns (empty
 * where a row has none).  A load sweep's iteration is followed by a row
 * per step (columns step, outstanding and the step's figures; only when
 * some result has a sweep).  RFC 4180 quoting, formula-safe (core/escape.h).
 */
#include "csv.h"
#include "../core/escape.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/url.h"

#include <stdlib.h>
#include <string.h>

static const char *const spec_keys[] = { "pattern", "rw", "bs", "qd", "sync",
					  "direct", "runtime_s", "size" };
#define NSPEC (sizeof(spec_keys) / sizeof(spec_keys[0]))

/* Every cell, a label's or a number's, through the one CSV escaper:
 * RFC 4180, and a text that a spreadsheet would run as a formula
 * (=HYPERLINK(...), @SUM(...)) neutralised; numbers stay numbers. */
static void csv_field(FILE *out, const char *s, int first)
{
	if (!first)
		fputc(',', out);
	nb_csv_cell(out, s);
}

static void csv_json(FILE *out, const json_t *v)
{
	char buf[64];

	if (json_is_string(v))
		csv_field(out, json_string_value(v), 0);
	else if (json_is_integer(v))
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v)),
		csv_field(out, buf, 0);
	else if (json_is_real(v))
		snprintf(buf, sizeof(buf), "%.10g", json_real_value(v)),
		csv_field(out, buf, 0);
	else if (json_is_boolean(v))
		csv_field(out, json_is_true(v) ? "true" : "false", 0);
	else
		csv_field(out, "", 0);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The columns of the table: the labels and metrics any row has, and
 * whether a sweep's steps get rows (then the step's figures are metric
 * columns too). */
struct cols {
	const char **lk, **mk;
	size_t nl, nm;
	int steps;
	int states;              /* a failure walk: a "state" column */
	json_t *labels, *metrics;
};

/* Metric columns of a sweep step ST: its numbers and verdicts, but the
 * ones that have columns of their own or are no figure. */
static void step_columns(struct cols *c, const json_t *st)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)st, k, v)
		if ((json_is_number(v) || json_is_boolean(v)) &&
		    strcmp(k, "outstanding") && strcmp(k, "qd") && strcmp(k, "clients") &&
		    strcmp(k, "loop"))
			json_object_set_new(c->metrics, k, json_true());
}

static void columns(struct cols *c, json_t *const *docs, size_t n)
{
	json_t *v, *e, *it, *st;
	const char *k;
	size_t i, j, x, y;

	c->labels = json_object();
	c->metrics = json_object();
	for (i = 0; i < n; i++) {
		json_object_foreach(json_object_get(docs[i], "labels"), k, v)
			json_object_set_new(c->labels, k, json_true());
		json_array_foreach(json_object_get(docs[i], "results"), j, e) {
			c->states |= json_object_get(e, "state") != NULL;
			json_array_foreach(json_object_get(e, "iterations"), x, it) {
				json_object_foreach(json_object_get(it, "metrics"), k, v)
					if (json_is_number(v))
						json_object_set_new(c->metrics, k, json_true());
				for (int w = 0; w < 2; w++)
					json_array_foreach(json_object_get(json_object_get(it,
						w ? "sweep_closed" : "sweep"), "steps"), y, st) {
						c->steps = 1;
						step_columns(c, st);
					}
			}
		}
	}
	c->lk = calloc(json_object_size(c->labels) + 1, sizeof(*c->lk));
	c->mk = calloc(json_object_size(c->metrics) + 1, sizeof(*c->mk));
	json_object_foreach(c->labels, k, v)
		c->lk[c->nl++] = k;
	json_object_foreach(c->metrics, k, v)
		c->mk[c->nm++] = k;
	qsort(c->lk, c->nl, sizeof(*c->lk), cmp_str);
	nb_metric_sort(c->mk, c->nm);
}

static void header(FILE *out, const struct cols *c)
{
	csv_field(out, "file", 1);
	for (const char *h = "run_id\0started\0host\0version\0target\0url\0workload\0"
			     "status\0iteration\0"; *h; h += strlen(h) + 1)
		csv_field(out, h, 0);
	if (c->states)
		csv_field(out, "state", 0);
	if (c->steps) {
		csv_field(out, "step", 0);
		csv_field(out, "loop", 0);
		csv_field(out, "outstanding", 0);
	}
	for (size_t i = 0; i < c->nl; i++)
		csv_field(out, c->lk[i], 0);
	for (size_t i = 0; i < NSPEC; i++) {
		char h[64];

		snprintf(h, sizeof(h), "spec.%s", spec_keys[i]);
		csv_field(out, h, 0);
	}
	for (size_t i = 0; i < c->nm; i++)
		csv_field(out, c->mk[i], 0);
	fputs("\r\n", out);
}

/* One row: iteration X (0-based) of entry E of document D; with a sweep
 * step ST (STEP 1-based, of a sweep whose loop is LOOP) its figures, else
 * the iteration's metrics. */
static void row(FILE *out, const struct cols *c, const char *path, const json_t *d,
		const json_t *e, const char *url, size_t x, const json_t *m,
		size_t step, const json_t *st, const char *loop)
{
	char num[32];

	csv_field(out, path, 1);
	csv_field(out, nb_jstr(d, "run_id"), 0);
	csv_field(out, nb_jstr(d, "started"), 0);
	csv_field(out, nb_jstr(json_object_get(d, "client"), "hostname"), 0);
	csv_field(out, nb_jstr(d, "version"), 0);
	csv_field(out, nb_jstr(e, "target"), 0);
	csv_field(out, url, 0);
	csv_field(out, nb_jstr(e, "workload"), 0);
	csv_field(out, nb_jstr(e, "status"), 0);
	snprintf(num, sizeof(num), "%zu", x + 1);
	csv_field(out, num, 0);
	if (c->states)
		csv_field(out, nb_jstr(e, "state"), 0);
	if (c->steps) {
		snprintf(num, sizeof(num), "%zu", step);
		csv_field(out, st ? num : "", 0);
		csv_field(out, st ? loop : "", 0);
		csv_json(out, json_object_get(st, "outstanding"));
	}
	for (size_t l = 0; l < c->nl; l++)
		csv_field(out, nb_jstr(json_object_get(d, "labels"), c->lk[l]), 0);
	for (size_t s = 0; s < NSPEC; s++)
		csv_json(out, json_object_get(json_object_get(e, "spec"), spec_keys[s]));
	for (size_t l = 0; l < c->nm; l++)
		csv_json(out, json_object_get(st ? st : m, c->mk[l]));
	fputs("\r\n", out);
}

int nb_csv_write(json_t *const *docs, const char *const *paths, size_t n,
		 FILE *out)
{
	struct cols c = { 0 };
	const json_t *e, *it, *t, *st;
	size_t i, j, x, y;
	char url[1024];

	columns(&c, docs, n);
	header(out, &c);
	for (i = 0; i < n; i++) {
		const json_t *d = docs[i];

		json_array_foreach(json_object_get(d, "results"), j, e) {
			const char *turl = "";

			json_array_foreach(json_object_get(d, "targets"), x, t)
				if (!strcmp(nb_jstr(t, "name"), nb_jstr(e, "target")))
					turl = nb_url_redact(nb_jstr(t, "url"), url, sizeof(url));
			json_array_foreach(json_object_get(e, "iterations"), x, it) {
				const json_t *m = json_object_get(it, "metrics");

				/* the iteration (a sweep's answers), then its steps */
				row(out, &c, paths[i], d, e, turl, x, m, 0, NULL, "");
				for (int k = 0; k < 2; k++) {
					const json_t *sw = json_object_get(it, k ? "sweep_closed" :
									   "sweep");
					/* a sweep from before the open loop was closed */
					const char *loop = json_object_get(sw, "loop") ?
							   nb_jstr(sw, "loop") : "closed";

					json_array_foreach(json_object_get(sw, "steps"), y, st)
						row(out, &c, paths[i], d, e, turl, x, m, y + 1, st,
						    loop);
				}
			}
		}
	}
	free(c.lk);
	free(c.mk);
	json_decref(c.labels);
	json_decref(c.metrics);
	return ferror(out) ? -1 : 0;
}
