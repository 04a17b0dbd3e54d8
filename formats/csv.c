/*
 * csv.c - 'nasbench export --csv': results as one CSV table for a
 * spreadsheet, a row per result x workload entry x iteration; the labels
 * of every result and the metrics of every workload are columns (empty
 * where a row has none).  RFC 4180 quoting.
 */
#include "csv.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/url.h"

#include <stdlib.h>
#include <string.h>

static const char *const spec_keys[] = { "pattern", "rw", "bs", "qd", "sync",
					  "direct", "runtime_s", "size" };
#define NSPEC (sizeof(spec_keys) / sizeof(spec_keys[0]))

static void csv_field(FILE *out, const char *s, int first)
{
	if (!first)
		fputc(',', out);
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
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

/* The columns that vary: every label (sorted) and every numeric metric
 * (in the metrics table's order) of DOCS, into *LK (*NL) and *MK (*NM);
 * the names are LABELS' and METRICS' keys. */
static void csv_columns(json_t *const *docs, size_t n, json_t *labels,
			json_t *metrics, const char ***lk, size_t *nl,
			const char ***mk, size_t *nm)
{
	const char *k;
	json_t *v, *e, *it;
	size_t j, x;

	for (size_t i = 0; i < n; i++) {
		json_object_foreach(json_object_get(docs[i], "labels"), k, v)
			json_object_set_new(labels, k, json_true());
		json_array_foreach(json_object_get(docs[i], "results"), j, e)
			json_array_foreach(json_object_get(e, "iterations"), x, it)
				json_object_foreach(json_object_get(it, "metrics"), k, v)
					if (json_is_number(v))
						json_object_set_new(metrics, k, json_true());
	}
	*lk = calloc(json_object_size(labels) + 1, sizeof(**lk));
	*mk = calloc(json_object_size(metrics) + 1, sizeof(**mk));
	json_object_foreach(labels, k, v)
		(*lk)[(*nl)++] = k;
	json_object_foreach(metrics, k, v)
		(*mk)[(*nm)++] = k;
	qsort(*lk, *nl, sizeof(**lk), cmp_str);
	nb_metric_sort(*mk, *nm);
}

static void csv_head(FILE *out, const char **lk, size_t nl, const char **mk,
		     size_t nm)
{
	csv_field(out, "file", 1);
	for (const char *h = "run_id\0started\0host\0version\0target\0url\0workload\0"
			     "status\0iteration\0"; *h; h += strlen(h) + 1)
		csv_field(out, h, 0);
	for (size_t i = 0; i < nl; i++)
		csv_field(out, lk[i], 0);
	for (size_t i = 0; i < NSPEC; i++) {
		char h[64];

		snprintf(h, sizeof(h), "spec.%s", spec_keys[i]);
		csv_field(out, h, 0);
	}
	for (size_t i = 0; i < nm; i++)
		csv_field(out, mk[i], 0);
	fputs("\r\n", out);
}

/* The rows of entry E of result D (read from PATH): one per iteration. */
static void csv_entry(FILE *out, const char *path, const json_t *d,
		      const json_t *e, const char **lk, size_t nl,
		      const char **mk, size_t nm)
{
	const char *turl = "";
	char url[1024];
	const json_t *t, *it;
	size_t x;

	json_array_foreach(json_object_get(d, "targets"), x, t)
		if (!strcmp(nb_jstr(t, "name"), nb_jstr(e, "target")))
			turl = nb_url_redact(nb_jstr(t, "url"), url, sizeof(url));
	json_array_foreach(json_object_get(e, "iterations"), x, it) {
		char num[32];
		const json_t *m = json_object_get(it, "metrics");

		csv_field(out, path, 1);
		csv_field(out, nb_jstr(d, "run_id"), 0);
		csv_field(out, nb_jstr(d, "started"), 0);
		csv_field(out, nb_jstr(json_object_get(d, "client"), "hostname"), 0);
		csv_field(out, nb_jstr(d, "version"), 0);
		csv_field(out, nb_jstr(e, "target"), 0);
		csv_field(out, turl, 0);
		csv_field(out, nb_jstr(e, "workload"), 0);
		csv_field(out, nb_jstr(e, "status"), 0);
		snprintf(num, sizeof(num), "%zu", x + 1);
		csv_field(out, num, 0);
		for (size_t l = 0; l < nl; l++)
			csv_field(out, nb_jstr(json_object_get(d, "labels"), lk[l]), 0);
		for (size_t s = 0; s < NSPEC; s++)
			csv_json(out, json_object_get(json_object_get(e, "spec"),
						      spec_keys[s]));
		for (size_t l = 0; l < nm; l++)
			csv_json(out, json_object_get(m, mk[l]));
		fputs("\r\n", out);
	}
}

int nb_report_csv(json_t *const *docs, const char *const *paths, size_t n,
		  FILE *out)
{
	json_t *labels = json_object(), *metrics = json_object(), *e;
	const char **lk, **mk;
	size_t nl = 0, nm = 0, j;

	csv_columns(docs, n, labels, metrics, &lk, &nl, &mk, &nm);
	csv_head(out, lk, nl, mk, nm);
	for (size_t i = 0; i < n; i++)
		json_array_foreach(json_object_get(docs[i], "results"), j, e)
			csv_entry(out, paths[i], docs[i], e, lk, nl, mk, nm);
	free(lk);
	free(mk);
	json_decref(labels);
	json_decref(metrics);
	return ferror(out) ? -1 : 0;
}
