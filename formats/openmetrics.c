/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * openmetrics.c - results and comparisons as OpenMetrics text
 * (openmetrics.h; docs/prometheus.md).  The samples are gathered by family
 * first (a family's samples must stand together), then written in the
 * order the families first appeared.
 */
#include "openmetrics.h"
#include "../core/err.h"
#include "../core/escape.h"
#include "../core/metrics.h"
#include "../core/result.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PREFIX "nasbench_"

/* The families being gathered: name -> { "help", "unit", "s": { labels:
 * value } }, and where each series came from (for the duplicate's
 * message). */
struct om {
	json_t *fams;
	json_t *from;            /* "family{labels}" -> path */
};

static int ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), l = strlen(suffix);

	return n >= l && !strcmp(s + n - l, suffix);
}

/* NAME made a Prometheus name (core/escape.h's nb_om_name()), the token
 * "iops" spelled "io_ops". */
static void sanitize(const char *name, char *out, size_t len)
{
	char safe[256];
	size_t i = 0;

	nb_om_name(safe, sizeof(safe), name);
	for (const char *s = safe; *s && i + 1 < len; s++) {
		int tok = (s == safe || s[-1] == '_') && !strncmp(s, "iops", 4) &&
			  (s[4] == '\0' || s[4] == '_');

		if (tok && i + 7 < len) {
			memcpy(out + i, "io_ops", 6);
			i += 6;
			s += 3;
			continue;
		}
		out[i++] = *s;
	}
	out[i] = '\0';
}

/* BASE without SUFFIX (when it ends with it) and with ADD, into OUT. */
static void resuffix(const char *base, const char *suffix, const char *add,
		     char *out, size_t len)
{
	size_t n = strlen(base);

	if (suffix && ends(base, suffix))
		n -= strlen(suffix);
	snprintf(out, len, "%.*s%s", (int)n, base, add);
}

const char *nb_openmetrics_name(const char *name, char *out, size_t len,
				double *scale)
{
	const char *unit = nb_metric_find(name)->unit;
	char base[256];

	sanitize(name, base, sizeof(base));
	*scale = 1;
	if (!strcmp(unit, "bytes/s")) {
		resuffix(base, "_bytes", "_bytes_per_second", out, len);
		return "bytes_per_second";
	}
	if (!strcmp(unit, "KiB/s")) {    /* bonnie++'s K/sec */
		*scale = 1024;
		resuffix(base, "_kps", "_bw_bytes_per_second", out, len);
		return "bytes_per_second";
	}
	if (!strcmp(unit, "us")) {
		*scale = 1e-6;
		resuffix(base, "_us", "_seconds", out, len);
		return "seconds";
	}
	if (!strcmp(unit, "s")) {        /* "seconds": the iteration's */
		if (!strcmp(base, "seconds"))
			snprintf(out, len, "wall_seconds");
		else
			resuffix(base, "_seconds", "_seconds", out, len);
		return "seconds";
	}
	if (!strcmp(unit, "%") || !strcmp(unit, "%CPU")) {
		*scale = 0.01;
		resuffix(base, "_pct", "_ratio", out, len);
		return "ratio";
	}
	if (!strcmp(unit, "bytes")) {
		resuffix(base, "_bytes", "_bytes", out, len);
		return "bytes";
	}
	if (!strcmp(unit, "ops/s")) {
		resuffix(base, "_per_s", "_per_second", out, len);
		return "";
	}
	snprintf(out, len, "%s", base);
	return "";
}

/* Labels being built: "k=\"v\"" parts, in order; K a name already (a
 * fixed one, or a label's through sanitize()), V escaped here. */
static void label(json_t *parts, const char *k, const char *v)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f)
		return;
	fprintf(f, "%s=\"", k);
	nb_om_value(f, v);
	fputc('"', f);
	if (!fclose(f))
		json_array_append_new(parts, json_string(s));
	free(s);
}

static char *joined(const json_t *parts)
{
	size_t n = 1, i;
	json_t *p;
	char *s;

	json_array_foreach(parts, i, p)
		n += strlen(json_string_value(p)) + 1;
	s = calloc(1, n);
	json_array_foreach(parts, i, p) {
		if (i)
			strcat(s, ",");
		strcat(s, json_string_value(p));
	}
	return s;
}

static const char *const reserved[] = { "target", "workload", "statistic",
					"metric", "side", "base", "new", "verdict",
					NULL };

/* The result's labels, Prometheus-safe, sorted by name. */
static void doc_labels(json_t *parts, const json_t *doc)
{
	const json_t *labels = json_object_get(doc, "labels");
	json_t *seen = json_object(), *v;
	const char **keys = calloc(json_object_size(labels) + 1, sizeof(*keys));
	const char *k;
	size_t n = 0;

	json_object_foreach((json_t *)labels, k, v)
		keys[n++] = k;
	for (size_t i = 1; i < n; i++)         /* a few: insertion sort */
		for (size_t j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
			const char *t = keys[j];

			keys[j] = keys[j - 1], keys[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		char name[200], safe[160];
		int clash = 0;

		sanitize(keys[i], safe, sizeof(safe));
		for (int r = 0; reserved[r]; r++)
			clash |= !strcmp(safe, reserved[r]);
		snprintf(name, sizeof(name), "%s%s", clash || !strncmp(safe, "__", 2) ?
			 "label_" : "", safe);
		if (json_object_get(seen, name) || !json_is_string(json_object_get(labels, keys[i])))
			continue;
		json_object_set_new(seen, name, json_true());
		label(parts, name, json_string_value(json_object_get(labels, keys[i])));
	}
	free(keys);
	json_decref(seen);
}

/* Add a sample of family FAM (HELP, UNIT) with LABELS; -EINVAL when the
 * series is there already (from another file). */
static int sample(struct om *o, const char *fam, const char *help, const char *unit,
		  const char *labels, double v, const char *path)
{
	json_t *f = json_object_get(o->fams, fam), *s;
	char key[4096];

	if (!isfinite(v))
		return 0;
	if (!f) {
		f = json_pack("{s:s, s:s, s:o}", "help", help, "unit", unit, "s",
			      json_object());
		json_object_set_new(o->fams, fam, f);
	}
	s = json_object_get(f, "s");
	snprintf(key, sizeof(key), "%s{%s}", fam, labels);
	if (json_object_get(s, labels))
		return nb_err(-EINVAL, "'%s' and '%s' give the same series %s: a "
			      "label must tell them apart (run --label, or export "
			      "them one at a time)",
			      json_string_value(json_object_get(o->from, key)), path, key);
	json_object_set_new(s, labels, json_real(v));
	json_object_set_new(o->from, key, nb_json_text(path));
	return 0;
}

static const char *const stats[] = { "median", "mean", "min", "max", "stddev" };

/* Metric M of one entry's summary SUM (labels BASE) as its family. */
static int one_metric(struct om *o, const json_t *sum, const char *m,
		      const json_t *base, const char *path)
{
	const struct nb_metric *d = nb_metric_find(m);
	char fam[300], name[256], help[512];
	const char *unit;
	double scale;
	int rc = 0;

	/* bonnie++'s K/s beside the same figure in bytes/s: once */
	if (ends(m, "_kps")) {
		char twin[256];

		resuffix(m, "_kps", "_bw_bytes", twin, sizeof(twin));
		if (json_object_get(sum, twin))
			return 0;
	}
	unit = nb_openmetrics_name(m, name, sizeof(name), &scale);
	snprintf(fam, sizeof(fam), PREFIX "%s", name);
	snprintf(help, sizeof(help), "%s (nasbench's %s%s%s)", d->help[0] ? d->help : m,
		 m, d->unit[0] ? ", stored in " : "", d->unit);
	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]) && !rc; i++) {
		const json_t *v = json_object_get(json_object_get(sum, m), stats[i]);
		json_t *parts = json_deep_copy(base);
		char *l;

		if (!json_is_number(v)) {
			json_decref(parts);
			continue;
		}
		label(parts, "statistic", stats[i]);
		l = joined(parts);
		rc = sample(o, fam, help, unit, l, json_number_value(v) * scale, path);
		free(l);
		json_decref(parts);
	}
	return rc;
}

/* One workload entry E of document DOC. */
static int entry(struct om *o, const json_t *doc, const json_t *e, const char *path)
{
	json_t *parts = json_array(), *x;
	const json_t *sum = json_object_get(e, "summary");
	const char **names;
	const char *k;
	size_t n = 0;
	char *l;
	int rc;

	label(parts, "target", nb_jstr(e, "target"));
	label(parts, "workload", nb_jstr(e, "workload"));
	doc_labels(parts, doc);
	l = joined(parts);
	rc = sample(o, PREFIX "workload_ok", "1 when the workload ran to its end "
		    "(status ok), else 0", "", l,
		    !strcmp(nb_jstr(e, "status"), "ok"), path);
	if (!rc)
		rc = sample(o, PREFIX "iterations", "iterations the figures are "
			    "made of", "", l,
			    (double)json_array_size(json_object_get(e, "iterations")),
			    path);
	free(l);
	names = calloc(json_object_size(sum) + 1, sizeof(*names));
	json_object_foreach((json_t *)sum, k, x)
		names[n++] = k;
	nb_metric_sort(names, n);
	for (size_t i = 0; i < n && !rc; i++)
		rc = one_metric(o, sum, names[i], parts, path);
	free(names);
	json_decref(parts);
	return rc;
}

/* ISO 8601 UTC "2026-11-29T20:55:00Z" as seconds since 1970; NAN. */
static double epoch(const char *iso)
{
	struct tm tm = { 0 };
	const char *end = strptime(iso, "%Y-%m-%dT%H:%M:%S", &tm);

	return end ? (double)timegm(&tm) : NAN;
}

/* Write the families gathered. */
static int write_all(const struct om *o, FILE *out)
{
	const char *fam, *labels;
	json_t *f, *v;

	json_object_foreach(o->fams, fam, f) {
		const char *help = nb_jstr(f, "help"), *unit = nb_jstr(f, "unit");

		fprintf(out, "# HELP %s ", fam);
		nb_om_help(out, help);
		fprintf(out, "\n# TYPE %s gauge\n", fam);
		if (*unit)
			fprintf(out, "# UNIT %s %s\n", fam, unit);
		json_object_foreach(json_object_get(f, "s"), labels, v)
			fprintf(out, *labels ? "%s{%s} %.10g\n" : "%s%s %.10g\n", fam,
				labels, json_real_value(v));
	}
	fputs("# EOF\n", out);
	return ferror(out) ? -EIO : 0;
}

static void om_init(struct om *o)
{
	o->fams = json_object();
	o->from = json_object();
}

static void om_free(struct om *o)
{
	json_decref(o->fams);
	json_decref(o->from);
}

int nb_openmetrics_results(json_t *const *docs, const char *const *paths,
			   size_t ndocs, FILE *out)
{
	struct om o;
	int rc = 0;

	om_init(&o);
	for (size_t i = 0; i < ndocs && !rc; i++) {
		json_t *parts = json_array(), *e;
		size_t j;
		char *l;

		doc_labels(parts, docs[i]);
		l = joined(parts);
		rc = sample(&o, PREFIX "run_start_timestamp_seconds", "when the run "
			    "began, seconds since 1970 (UTC)", "seconds", l,
			    epoch(nb_jstr(docs[i], "started")), paths[i]);
		free(l);
		json_decref(parts);
		json_array_foreach(json_object_get(docs[i], "results"), j, e)
			if (!rc)
				rc = entry(&o, docs[i], e, paths[i]);
	}
	if (!rc)
		rc = write_all(&o, out);
	om_free(&o);
	return rc;
}

/* One verdict V of comparison C. */
static void verdict(struct om *o, const json_t *c, const json_t *v)
{
	const char *m = nb_jstr(v, "metric");
	json_t *parts = json_array();
	char fam[300], name[256], help[512], *l;
	const char *unit;
	double scale;
	const json_t *ch = json_object_get(v, "change_pct");

	label(parts, "target", nb_jstr(v, "target"));
	label(parts, "workload", nb_jstr(v, "workload"));
	label(parts, "metric", m);
	label(parts, "base", nb_jstr(c, "base"));
	label(parts, "new", nb_jstr(c, "new"));
	l = joined(parts);
	if (json_is_number(ch))
		sample(o, PREFIX "compare_change_ratio", "(new - base) / base of the "
		       "metric's median: 0.1 is 10% more", "ratio", l,
		       json_number_value(ch) / 100, "");
	sample(o, PREFIX "compare_regression", "1 when the change is a regression "
	       "that gates (exit status 1), else 0", "", l,
	       json_is_true(json_object_get(v, "regression")), "");
	free(l);
	label(parts, "verdict", nb_jstr(v, "verdict"));
	l = joined(parts);
	sample(o, PREFIX "compare_verdict", "the comparison's verdict (label "
	       "verdict: unchanged, better, worse, noise, changed, missing, "
	       "changed-settings, not-steady); always 1", "", l, 1, "");
	free(l);
	json_array_remove(parts, json_array_size(parts) - 1);
	unit = nb_openmetrics_name(m, name, sizeof(name), &scale);
	snprintf(fam, sizeof(fam), PREFIX "compare_%s", name);
	snprintf(help, sizeof(help), "the median of %s on each side (label side: "
		 "base or new)", m);
	for (int side = 0; side < 2; side++) {
		const json_t *x = json_object_get(v, side ? "new" : "base");
		json_t *p = json_deep_copy(parts);

		label(p, "side", side ? "new" : "base");
		l = joined(p);
		if (json_is_number(x))
			sample(o, fam, help, unit, l, json_number_value(x) * scale, "");
		free(l);
		json_decref(p);
	}
	json_decref(parts);
}

int nb_openmetrics_compare(const json_t *doc, FILE *out)
{
	const json_t *c, *v;
	struct om o;
	size_t i, j;
	int rc;

	om_init(&o);
	sample(&o, PREFIX "compare_regressions", "regressions that gate, over "
	       "every comparison (exit status 1 when not 0)", "", "",
	       (double)json_integer_value(json_object_get(doc, "regressions")), "");
	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		json_array_foreach(json_object_get(c, "verdicts"), j, v)
			verdict(&o, c, v);
	nb_err_clear();          /* a comparison repeats no series it keeps */
	rc = write_all(&o, out);
	om_free(&o);
	return rc;
}
