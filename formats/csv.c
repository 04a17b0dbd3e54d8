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

int nb_report_csv(json_t *const *docs, const char *const *paths, size_t n,
		  FILE *out)
{
	json_t *labels = json_object(), *metrics = json_object(), *v, *e, *it;
	const char **lk, **mk, *k;
	size_t nl = 0, nm = 0, i, j, x;
	char url[1024];

	for (i = 0; i < n; i++) {
		json_object_foreach(json_object_get(docs[i], "labels"), k, v)
			json_object_set_new(labels, k, json_true());
		json_array_foreach(json_object_get(docs[i], "results"), j, e)
			json_array_foreach(json_object_get(e, "iterations"), x, it)
				json_object_foreach(json_object_get(it, "metrics"), k, v)
					if (json_is_number(v))
						json_object_set_new(metrics, k, json_true());
	}
	lk = calloc(json_object_size(labels) + 1, sizeof(*lk));
	mk = calloc(json_object_size(metrics) + 1, sizeof(*mk));
	json_object_foreach(labels, k, v)
		lk[nl++] = k;
	json_object_foreach(metrics, k, v)
		mk[nm++] = k;
	qsort(lk, nl, sizeof(*lk), cmp_str);
	nb_metric_sort(mk, nm);
	csv_field(out, "file", 1);
	for (const char *h = "run_id\0started\0host\0version\0target\0url\0workload\0"
			     "status\0iteration\0"; *h; h += strlen(h) + 1)
		csv_field(out, h, 0);
	for (i = 0; i < nl; i++)
		csv_field(out, lk[i], 0);
	for (i = 0; i < NSPEC; i++) {
		char h[64];

		snprintf(h, sizeof(h), "spec.%s", spec_keys[i]);
		csv_field(out, h, 0);
	}
	for (i = 0; i < nm; i++)
		csv_field(out, mk[i], 0);
	fputs("\r\n", out);
	for (i = 0; i < n; i++) {
		const json_t *d = docs[i], *t;

		json_array_foreach(json_object_get(d, "results"), j, e) {
			const char *turl = "";

			json_array_foreach(json_object_get(d, "targets"), x, t)
				if (!strcmp(nb_jstr(t, "name"), nb_jstr(e, "target")))
					turl = nb_url_redact(nb_jstr(t, "url"), url, sizeof(url));
			json_array_foreach(json_object_get(e, "iterations"), x, it) {
				char num[32];
				const json_t *m = json_object_get(it, "metrics");

				csv_field(out, paths[i], 1);
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
	}
	free(lk);
	free(mk);
	json_decref(labels);
	json_decref(metrics);
	return ferror(out) ? -1 : 0;
}
