/* SPDX-License-Identifier: GPL-2.0-or-later */
/* failure.c - a failure walk's result read: figures per box state. */
#include "failure.h"
#include "../core/metrics.h"

#include <math.h>
#include <string.h>

static int has(const void *e, const char *name)
{
	double v;

	return nb_result_stat(e, name, "median", &v) == 0;
}

static double median(const json_t *e, const char *metric)
{
	double v;

	return e && metric && !nb_result_stat(e, metric, "median", &v) ? v : NAN;
}

static struct nb_failure_row *row_of(struct nb_failure_row *rows, int *n,
				     int max, const json_t *e)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(rows[i].target, nb_jstr(e, "target")) &&
		    !strcmp(rows[i].workload, nb_jstr(e, "workload")))
			return &rows[i];
	if (*n >= max)
		return NULL;
	struct nb_failure_row *r = &rows[(*n)++];

	memset(r, 0, sizeof(*r));
	snprintf(r->target, sizeof(r->target), "%s", nb_jstr(e, "target"));
	snprintf(r->workload, sizeof(r->workload), "%s", nb_jstr(e, "workload"));
	for (int s = 0; s < NB_BOX_STATES; s++)
		r->v[s] = r->p99[s] = NAN;
	return r;
}

int nb_failure_rows(const json_t *doc, struct nb_failure_row *rows, int max)
{
	const json_t *e;
	size_t i;
	int n = 0;

	if (!json_object_get(doc, "failure"))
		return 0;
	json_array_foreach(json_object_get(doc, "results"), i, e) {
		int s = nb_box_state(nb_jstr(e, "state"));
		struct nb_failure_row *r;

		if (s < 0 || !json_array_size(json_object_get(e, "iterations")) ||
		    !(r = row_of(rows, &n, max, e)))
			continue;
		/* the primary figure: the healthy entry's, as compare's */
		if (!r->metric)
			r->metric = nb_metric_headline(!strncmp(r->workload, "rand", 4),
						       has, e);
		r->v[s] = median(e, r->metric);
		r->p99[s] = median(e, "lat_p99_us");
	}
	return n;
}

double nb_failure_keeps(const struct nb_failure_row *r, int state)
{
	double h = r->v[0], x = r->v[state];

	if (!r->metric || isnan(h) || isnan(x) || h == 0 || x == 0)
		return NAN;
	return nb_metric_find(r->metric)->better == NB_LOWER ? h / x : x / h;
}

double nb_failure_rebuild_s(const json_t *doc, int idle)
{
	const json_t *f = json_object_get(doc, "failure");
	const json_t *r = json_object_get(f, idle ? "rebuild_idle" : "rebuild");

	/* a walk with no load timed its one rebuild idle */
	if (idle && !r && !strcmp(nb_jstr(f, "rebuild_mode"), "idle"))
		r = json_object_get(f, "rebuild");
	if (!idle && r && !json_is_true(json_object_get(r, "load")))
		return NAN;
	return json_is_number(json_object_get(r, "seconds")) ?
	       json_number_value(json_object_get(r, "seconds")) : NAN;
}

long long nb_failure_records_lost(const json_t *doc)
{
	const json_t *o;
	long long lost = -1;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(doc, "failure"),
					   "records"), i, o)
		if (json_is_integer(json_object_get(o, "lost")) &&
		    json_integer_value(json_object_get(o, "lost")) > lost)
			lost = json_integer_value(json_object_get(o, "lost"));
	return lost;
}

/* "236" or "41.2 MB/s" of a figure (its metric's shown scale). */
static const char *fig(char *buf, size_t len, const char *metric, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		nb_metric_fig(v, metric, buf, len);
	return buf;
}

static void print_row(FILE *out, const struct nb_failure_row *r)
{
	const struct nb_metric *m = nb_metric_find(r->metric);
	char a[32];

	fprintf(out, "  %s on %s (%s): healthy %s", r->workload, r->target,
		m->label, fig(a, sizeof(a), r->metric, r->v[0]));
	for (int s = 1; s < NB_BOX_STATES; s++) {
		double k = nb_failure_keeps(r, s);

		if (isnan(r->v[s]))
			continue;
		fprintf(out, ", %s %s", nb_box_states[s], fig(a, sizeof(a), r->metric,
							     r->v[s]));
		if (!isnan(k))
			fprintf(out, " (keeps %.0f%%)", 100 * k);
	}
	if (!isnan(r->p99[0]) && !isnan(r->p99[1]))
		fprintf(out, "; p99 %.1f -> %.1f ms degraded", r->p99[0] / 1e3,
			r->p99[1] / 1e3);
	fputc('\n', out);
}

static void print_rebuild(FILE *out, const json_t *f, const char *key)
{
	const json_t *r = json_object_get(f, key);

	if (!r)
		return;
	fprintf(out, "  %s: %.1f s %s", key[7] ? "rebuild (again, idle)" : "rebuild",
		json_number_value(json_object_get(r, "seconds")),
		json_is_true(json_object_get(r, "load")) ? "under the workloads' load" :
		"idle");
	if (json_number_value(json_object_get(r, "box_seconds")) > 0)
		fprintf(out, " (the box says %.0f s)",
			json_number_value(json_object_get(r, "box_seconds")));
	fputc('\n', out);
}

void nb_failure_print(FILE *out, const json_t *doc)
{
	static struct nb_failure_row rows[NB_FAILURE_MAXROWS];
	const json_t *f = json_object_get(doc, "failure"), *o, *left;
	int n = nb_failure_rows(doc, rows, NB_FAILURE_MAXROWS);
	size_t i;

	if (!f)
		return;
	left = json_object_get(f, "box_left");
	fprintf(out, "failure walk on pool '%s'%s%s%s\n", nb_jstr(f, "pool"),
		json_array_size(json_object_get(f, "failed")) ? ": disk " : "",
		nb_jstr(json_array_get(json_object_get(f, "failed"), 0), "name"),
		json_is_true(json_object_get(f, "complete")) ? "" : " (not complete)");
	print_rebuild(out, f, "rebuild");
	print_rebuild(out, f, "rebuild_idle");
	json_array_foreach(json_object_get(f, "records"), i, o) {
		long long lost = json_integer_value(json_object_get(o, "lost"));
		long long all = json_integer_value(json_object_get(o, "blocks"));

		if (!json_is_true(json_object_get(o, "written")))
			fprintf(out, "  records on %s: not written\n", nb_jstr(o, "target"));
		else if (json_object_get(o, "lost"))
			fprintf(out, "  records on %s: %lld of %lld blocks written before "
				"the failure read back intact%s%s\n", nb_jstr(o, "target"),
				all - lost, all, json_object_get(o, "rebuilt") ?
				" after the rebuild" : "", lost ? " (LOST)" : "");
	}
	if ((o = json_object_get(f, "counters")) && json_is_object(o))
		fprintf(out, "  pool errors after the rebuild: %.0f read, %.0f write, "
			"%.0f checksum\n", json_number_value(json_object_get(o, "read")),
			json_number_value(json_object_get(o, "write")),
			json_number_value(json_object_get(o, "cksum")));
	for (int k = 0; k < n; k++)
		print_row(out, &rows[k]);
	if (left && strcmp(nb_jstr(left, "state"), "healthy"))
		fprintf(out, "  the box is left %s (pool '%s' %s)\n",
			nb_jstr(left, "state"), nb_jstr(left, "pool"),
			nb_jstr(left, "pool_state"));
}

static json_t *num(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

json_t *nb_failure_summary(const json_t *doc)
{
	static struct nb_failure_row rows[NB_FAILURE_MAXROWS];
	const json_t *f = json_object_get(doc, "failure");
	int n = nb_failure_rows(doc, rows, NB_FAILURE_MAXROWS);
	json_t *out, *arr = json_array();

	if (!f) {
		json_decref(arr);
		return NULL;
	}
	for (int k = 0; k < n; k++) {
		const struct nb_failure_row *r = &rows[k];
		json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "target", r->target,
				      "workload", r->workload, "metric",
				      r->metric ? r->metric : "", "label",
				      r->metric ? nb_metric_find(r->metric)->label : "");
		json_t *keeps = json_object();

		for (int s = 0; s < NB_BOX_STATES; s++) {
			json_object_set_new(o, nb_box_states[s], num(r->v[s]));
			if (s)
				json_object_set_new(keeps, nb_box_states[s],
						    num(nb_failure_keeps(r, s)));
		}
		json_object_set_new(o, "keeps", keeps);
		json_array_append_new(arr, o);
	}
	out = json_pack("{s:s, s:s, s:o, s:o, s:o, s:I, s:O?, s:o}", "name",
			nb_jstr(json_object_get(doc, "labels"), "layout"), "pool",
			nb_jstr(f, "pool"), "rebuild_s", num(nb_failure_rebuild_s(doc, 0)),
			"rebuild_idle_s", num(nb_failure_rebuild_s(doc, 1)),
			"complete", json_boolean(json_is_true(json_object_get(f, "complete"))),
			"records_lost", (json_int_t)nb_failure_records_lost(doc),
			"box_left", json_object_get(f, "box_left"), "rows", arr);
	return out;
}

/* The summary row of S for TARGET/WORKLOAD, or NULL. */
static const json_t *srow(const json_t *s, const char *target, const char *wl)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(s, "rows"), i, r)
		if (!strcmp(nb_jstr(r, "target"), target) &&
		    !strcmp(nb_jstr(r, "workload"), wl))
			return r;
	return NULL;
}

static double keeps(const json_t *r, const char *state)
{
	const json_t *v = json_object_get(json_object_get(r, "keeps"), state);

	return json_is_number(v) ? 100 * json_number_value(v) : NAN;
}

static void versus_rebuild(FILE *out, const char *li, const json_t *sa,
			   const char *x, const json_t *sb, const char *y)
{
	static const char *const keys[] = { "rebuild_s", "rebuild_idle_s" };

	for (int k = 0; k < 2; k++) {
		const json_t *p = json_object_get(sa, keys[k]);
		const json_t *q = json_object_get(sb, keys[k]);

		if (!json_is_number(p) && !json_is_number(q))
			continue;
		fprintf(out, "%srebuild %s: %s ", li, k ? "idle" : "under load", x);
		fprintf(out, json_is_number(p) ? "%.1f s" : "-", json_number_value(p));
		fprintf(out, ", %s ", y);
		fprintf(out, json_is_number(q) ? "%.1f s" : "-", json_number_value(q));
		fputc('\n', out);
	}
}

void nb_failure_versus(FILE *out, const json_t *sa, const char *an,
		       const json_t *sb, const char *bn, int markdown)
{
	const char *x = *nb_jstr(sa, "name") ? nb_jstr(sa, "name") : an;
	const char *y = *nb_jstr(sb, "name") ? nb_jstr(sb, "name") : bn;
	const char *li = markdown ? "- " : "  ";
	const json_t *p, *q;
	size_t i;

	if (!sa || !sb)
		return;
	if (!strcmp(x, y))
		x = an, y = bn;
	fprintf(out, "\n%sunder failure%s (the share of the healthy figure kept):\n%s",
		markdown ? "**" : "", markdown ? "**" : "", markdown ? "\n" : "");
	json_array_foreach(json_object_get(sa, "rows"), i, p) {
		double a1, b1, a2, b2;

		q = srow(sb, nb_jstr(p, "target"), nb_jstr(p, "workload"));
		if (!q || strcmp(nb_jstr(p, "metric"), nb_jstr(q, "metric")))
			continue;
		a1 = keeps(p, "degraded"), b1 = keeps(q, "degraded");
		a2 = keeps(p, "rebuilding"), b2 = keeps(q, "rebuilding");
		fprintf(out, "%s%s on %s (%s): %s keeps %.0f%% degraded, %s %.0f%%",
			li, nb_jstr(p, "workload"), nb_jstr(p, "target"),
			nb_jstr(p, "label"), x, a1, y, b1);
		if (!isnan(a2) || !isnan(b2))
			fprintf(out, "; rebuilding %.0f%% and %.0f%%", a2, b2);
		fputc('\n', out);
	}
	versus_rebuild(out, li, sa, x, sb, y);
}
