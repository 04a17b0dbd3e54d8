/*
 * compare_out.c - the formats of 'nasbench compare': a terminal table,
 * Markdown (a pull-request comment), JUnit XML (CI systems), JSON.
 */
#include "compare.h"
#include "escape.h"
#include "junit.h"
#include "../core/result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An absent label reads "(none)". */
static const char *or_none(const char *s)
{
	return *s ? s : "(none)";
}

static double num(const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A shown figure: 3155, 316.8, 2.54, 0.0123 */
static void fmt_value(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a >= 1000 || v == 0)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 0.1)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

static void fmt_shown(char *buf, size_t len, const json_t *r, const char *k)
{
	fmt_value(buf, len, num(r, k) * num(r, "scale"));
}

static void fmt_change(char *buf, size_t len, const json_t *r)
{
	double c = num(r, "change_pct");

	if (isnan(c))
		snprintf(buf, len, "%s", num(r, "new") > 0 ? "+inf%" : "-inf%");
	else
		snprintf(buf, len, "%+.1f%%", c);
}

static void fmt_p(char *buf, size_t len, const json_t *r)
{
	double p = num(r, "p");

	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

static void fmt_verdict(char *buf, size_t len, const json_t *r)
{
	snprintf(buf, len, "%s%s%s", nb_jstr(r, "verdict"),
		 json_is_true(json_object_get(r, "low_confidence")) ?
		 " (low confidence)" : "",
		 json_is_null(json_object_get(r, "threshold_pct")) ?
		 " (not gated)" : "");
}

static const char *direction(const json_t *r)
{
	const char *b = nb_jstr(r, "better");

	return !strcmp(b, "higher") ? "higher is better" :
	       !strcmp(b, "lower") ? "lower is better" : "no better direction";
}

/* The heading of a metric's table: "MB/s (bw_bytes, higher is better)". */
static void heading(char *buf, size_t len, const json_t *r)
{
	if (strcmp(nb_jstr(r, "label"), nb_jstr(r, "metric")))
		snprintf(buf, len, "%s (%s, %s)", nb_jstr(r, "label"), nb_jstr(r, "metric"),
			 direction(r));
	else if (*nb_jstr(r, "unit"))
		snprintf(buf, len, "%s (%s, %s)", nb_jstr(r, "metric"), nb_jstr(r, "unit"),
			 direction(r));
	else
		snprintf(buf, len, "%s (%s)", nb_jstr(r, "metric"), direction(r));
}

/* Rows [from, to) share a metric. */
static size_t metric_end(const json_t *rows, size_t from)
{
	size_t to = from + 1;

	while (to < json_array_size(rows) &&
	       !strcmp(nb_jstr(json_array_get(rows, to), "metric"),
		       nb_jstr(json_array_get(rows, from), "metric")))
		to++;
	return to;
}

static void fmt_threshold(char *buf, size_t len, double pct)
{
	if (pct < 0)
		snprintf(buf, len, "off");
	else
		snprintf(buf, len, "%g%%", pct);
}

/* ---- terminal ---- */

enum { C_TARGET, C_WL, C_BASE, C_NEW, C_CHANGE, C_N, C_P, C_VERDICT, NCOL };

static void text_cells(const json_t *r, char cell[NCOL][96])
{
	snprintf(cell[C_TARGET], 96, "%s", nb_jstr(r, "target"));
	snprintf(cell[C_WL], 96, "%s", nb_jstr(r, "workload"));
	fmt_shown(cell[C_BASE], 96, r, "base");
	fmt_shown(cell[C_NEW], 96, r, "new");
	fmt_change(cell[C_CHANGE], 96, r);
	snprintf(cell[C_N], 96, "%d/%d", (int)num(r, "n_base"), (int)num(r, "n_new"));
	fmt_p(cell[C_P], 96, r);
	fmt_verdict(cell[C_VERDICT], 96, r);
}

static const char *color_of(const json_t *r)
{
	const char *v = nb_jstr(r, "verdict");

	if (json_is_true(json_object_get(r, "regression")))
		return "\033[1;31m";
	if (!strcmp(v, "worse"))
		return "\033[31m";
	if (!strcmp(v, "better"))
		return "\033[32m";
	if (!strcmp(v, "noise") || !strcmp(v, "changed"))
		return "\033[33m";
	return "";
}

static void text_table(FILE *out, const json_t *rows, size_t from, size_t to,
		       int color)
{
	static const char *head[NCOL] = { "target", "workload", "base", "new",
					  "change", "n", "p", "verdict" };
	static const int right[NCOL] = { 0, 0, 1, 1, 1, 1, 1, 0 };
	char cell[NCOL][96], h[256];
	int w[NCOL];

	for (int c = 0; c < NCOL; c++)
		w[c] = (int)strlen(head[c]);
	for (size_t i = from; i < to; i++) {
		text_cells(json_array_get(rows, i), cell);
		for (int c = 0; c < NCOL; c++)
			if ((int)strlen(cell[c]) > w[c])
				w[c] = (int)strlen(cell[c]);
	}
	heading(h, sizeof(h), json_array_get(rows, from));
	fprintf(out, "\n%s%s%s\n", color ? "\033[1m" : "", h, color ? "\033[0m" : "");
	for (int c = 0; c < NCOL - 1; c++)
		fprintf(out, right[c] ? "  %*s" : "  %-*s", w[c], head[c]);
	fprintf(out, "  %s\n", head[C_VERDICT]);
	for (size_t i = from; i < to; i++) {
		const json_t *r = json_array_get(rows, i);
		const char *col = color ? color_of(r) : "";

		text_cells(r, cell);
		for (int c = 0; c < NCOL - 1; c++)
			fprintf(out, right[c] ? "  %*s" : "  %-*s", w[c], cell[c]);
		fprintf(out, "  %s%s%s\n", col, cell[C_VERDICT], *col ? "\033[0m" : "");
	}
}

static void text_list(FILE *out, const json_t *list, const char *what)
{
	json_t *v;
	size_t i;

	if (!json_array_size(list))
		return;
	fprintf(out, "%s:", what);
	json_array_foreach(list, i, v)
		fprintf(out, " %s", json_string_value(v));
	fputc('\n', out);
}

static void text_one(FILE *out, const json_t *c, int color)
{
	json_t *rows = json_object_get(c, "rows"), *v;
	size_t i;

	fprintf(out, "%s -> %s\n", nb_jstr(c, "base"), nb_jstr(c, "new"));
	json_array_foreach(json_object_get(c, "labels"), i, v)
		fprintf(out, "  %s: %s -> %s\n", nb_jstr(v, "key"),
			or_none(nb_jstr(v, "base")), or_none(nb_jstr(v, "new")));
	if (!strcmp(nb_jstr(c, "matched_by"), "workload")) {
		json_t *t = json_object_get(c, "targets");

		fprintf(out, "  target: %s -> %s (matched by workload)\n",
			nb_jstr(t, "base"), nb_jstr(t, "new"));
	}
	for (i = 0; i < json_array_size(rows); i = metric_end(rows, i))
		text_table(out, rows, i, metric_end(rows, i), color);
	if (json_array_size(json_object_get(c, "status")))
		fputc('\n', out);
	json_array_foreach(json_object_get(c, "status"), i, v)
		fprintf(out, "%s/%s: %s -> %s%s%s%s\n", nb_jstr(v, "target"),
			nb_jstr(v, "workload"), nb_jstr(v, "base"), nb_jstr(v, "new"),
			*nb_jstr(v, "reason") ? " (" : "", nb_jstr(v, "reason"),
			json_is_true(json_object_get(v, "regression")) ?
			(*nb_jstr(v, "reason") ? "): regression" : ": regression") :
			(*nb_jstr(v, "reason") ? ")" : ""));
	if (json_array_size(json_object_get(c, "only_base")) ||
	    json_array_size(json_object_get(c, "only_new")))
		fputc('\n', out);
	text_list(out, json_object_get(c, "only_base"), "only in base");
	text_list(out, json_object_get(c, "only_new"), "only in new");
}

static void summary_line(char *buf, size_t len, const json_t *doc)
{
	json_int_t n = json_integer_value(json_object_get(doc, "regressions"));
	char thr[32];

	fmt_threshold(thr, sizeof(thr), num(doc, "max_regress_pct"));
	if (n)
		snprintf(buf, len, "%lld regression%s (max regress %s, alpha %g)",
			 (long long)n, n == 1 ? "" : "s", thr, num(doc, "alpha"));
	else
		snprintf(buf, len, "no regression (max regress %s, alpha %g)", thr,
			 num(doc, "alpha"));
}

void nb_compare_text(FILE *out, const json_t *doc, int color)
{
	json_t *c;
	size_t i;
	char sum[160];

	json_array_foreach(json_object_get(doc, "comparisons"), i, c) {
		if (i)
			fputc('\n', out);
		text_one(out, c, color);
	}
	summary_line(sum, sizeof(sum), doc);
	fprintf(out, "\n%s%s%s\n",
		!color ? "" : json_integer_value(json_object_get(doc, "regressions")) ?
		"\033[1;31m" : "\033[32m", sum, color ? "\033[0m" : "");
}

/* ---- Markdown ---- */

static void md_one(FILE *out, const json_t *c)
{
	json_t *rows = json_object_get(c, "rows"), *v;
	size_t i, k;

	fprintf(out, "### `%s` → `%s`\n\n", nb_jstr(c, "base"), nb_jstr(c, "new"));
	if (json_array_size(json_object_get(c, "labels")) ||
	    !strcmp(nb_jstr(c, "matched_by"), "workload")) {
		fputs("| label | base | new |\n|---|---|---|\n", out);
		json_array_foreach(json_object_get(c, "labels"), i, v) {
			fputs("| ", out), nb_md_escape(out, nb_jstr(v, "key"));
			fputs(" | ", out), nb_md_escape(out, or_none(nb_jstr(v, "base")));
			fputs(" | ", out), nb_md_escape(out, or_none(nb_jstr(v, "new")));
			fputs(" |\n", out);
		}
		if (!strcmp(nb_jstr(c, "matched_by"), "workload")) {
			json_t *t = json_object_get(c, "targets");

			fputs("| target (matched by workload) | ", out);
			nb_md_escape(out, nb_jstr(t, "base"));
			fputs(" | ", out), nb_md_escape(out, nb_jstr(t, "new"));
			fputs(" |\n", out);
		}
		fputc('\n', out);
	}
	for (i = 0; i < json_array_size(rows); i = k) {
		char h[256];

		k = metric_end(rows, i);
		heading(h, sizeof(h), json_array_get(rows, i));
		fputs("**", out), nb_md_escape(out, h), fputs("**\n\n", out);
		fputs("| target | workload | base | new | change | n | p | verdict |\n"
		      "|---|---|--:|--:|--:|--:|--:|---|\n", out);
		for (size_t j = i; j < k; j++) {
			const json_t *r = json_array_get(rows, j);
			char cell[NCOL][96];
			int reg = json_is_true(json_object_get(r, "regression"));

			text_cells(r, cell);
			fputs("| ", out), nb_md_escape(out, cell[C_TARGET]);
			fputs(" | ", out), nb_md_escape(out, cell[C_WL]);
			fprintf(out, " | %s | %s | %s | %s | %s | %s", cell[C_BASE],
				cell[C_NEW], cell[C_CHANGE], cell[C_N], cell[C_P],
				reg ? "**" : "");
			nb_md_escape(out, cell[C_VERDICT]);
			fprintf(out, "%s |\n", reg ? "**" : "");
		}
		fputc('\n', out);
	}
	json_array_foreach(json_object_get(c, "status"), i, v) {
		fprintf(out, "- %s", json_is_true(json_object_get(v, "regression")) ?
			"**regression**: " : "");
		nb_md_escape(out, nb_jstr(v, "target")), fputc('/', out);
		nb_md_escape(out, nb_jstr(v, "workload"));
		fprintf(out, ": %s → %s", nb_jstr(v, "base"), nb_jstr(v, "new"));
		if (*nb_jstr(v, "reason"))
			fputs(" (", out), nb_md_escape(out, nb_jstr(v, "reason")), fputc(')', out);
		fputc('\n', out);
	}
	json_array_foreach(json_object_get(c, "only_base"), i, v)
		fputs("- only in base: ", out), nb_md_escape(out, json_string_value(v)),
			fputc('\n', out);
	json_array_foreach(json_object_get(c, "only_new"), i, v)
		fputs("- only in new: ", out), nb_md_escape(out, json_string_value(v)),
			fputc('\n', out);
	if (json_array_size(json_object_get(c, "status")) ||
	    json_array_size(json_object_get(c, "only_base")) ||
	    json_array_size(json_object_get(c, "only_new")))
		fputc('\n', out);
}

void nb_compare_markdown(FILE *out, const json_t *doc)
{
	json_t *c;
	size_t i;
	char sum[160];

	summary_line(sum, sizeof(sum), doc);
	fprintf(out, "## nasbench compare: %s%s%s\n\n",
		json_integer_value(json_object_get(doc, "regressions")) ? "**" : "",
		sum, json_integer_value(json_object_get(doc, "regressions")) ? "**" : "");
	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		md_one(out, c);
}

/* ---- JUnit ---- */

static void junit_numbers(char *buf, size_t len, const json_t *r)
{
	char b[64], n[64], ch[64], p[64], v[160], thr[32];

	fmt_shown(b, sizeof(b), r, "base");
	fmt_shown(n, sizeof(n), r, "new");
	fmt_change(ch, sizeof(ch), r);
	fmt_p(p, sizeof(p), r);
	fmt_verdict(v, sizeof(v), r);
	fmt_threshold(thr, sizeof(thr), json_is_null(json_object_get(r, "threshold_pct")) ?
		      -1 : num(r, "threshold_pct"));
	snprintf(buf, len, "%s %s: %s -> %s (%s, threshold %s, n %d/%d, p %s%s%s): %s",
		 nb_jstr(r, "workload"), nb_jstr(r, "label"), b, n, ch, thr,
		 (int)num(r, "n_base"), (int)num(r, "n_new"), p,
		 json_is_null(json_object_get(r, "test")) ? "" : ", ",
		 json_is_null(json_object_get(r, "test")) ? "" : nb_jstr(r, "test"), v);
}

static void junit_row(FILE *out, const json_t *r)
{
	char cls[256], name[256], msg[512];
	const struct nb_xml_attr fail[] = {
		{ "type", "regression" }, { "message", msg }, { NULL, NULL },
	};
	int regression = json_is_true(json_object_get(r, "regression"));

	snprintf(cls, sizeof(cls), "nasbench.%s", nb_jstr(r, "target"));
	snprintf(name, sizeof(name), "%s %s", nb_jstr(r, "workload"), nb_jstr(r, "metric"));
	junit_numbers(msg, sizeof(msg), r);
	nb_junit_case(out, &(struct nb_junit_case){
		.classname = cls, .name = name,
		.status = regression ? NB_JUNIT_FAIL : NB_JUNIT_PASS,
		.attrs = fail, .text = regression ? NULL : msg,
	});
}

/* A workload whose status changed ("ok -> failed"). */
static void junit_status(FILE *out, const json_t *r)
{
	char cls[256], name[256], msg[2048];
	const struct nb_xml_attr fail[] = {
		{ "type", "regression" }, { "message", msg }, { NULL, NULL },
	};
	const struct nb_xml_attr skip[] = { { "message", msg }, { NULL, NULL } };
	int regression = json_is_true(json_object_get(r, "regression"));

	snprintf(cls, sizeof(cls), "nasbench.%s", nb_jstr(r, "target"));
	snprintf(name, sizeof(name), "%s status", nb_jstr(r, "workload"));
	if (regression)
		snprintf(msg, sizeof(msg), "%s: %s -> %s: %s", nb_jstr(r, "workload"),
			 nb_jstr(r, "base"), nb_jstr(r, "new"), nb_jstr(r, "reason"));
	else
		snprintf(msg, sizeof(msg), "%s -> %s", nb_jstr(r, "base"), nb_jstr(r, "new"));
	nb_junit_case(out, &(struct nb_junit_case){
		.classname = cls, .name = name,
		.status = regression ? NB_JUNIT_FAIL : NB_JUNIT_SKIP,
		.attrs = regression ? fail : skip,
	});
}

void nb_compare_junit(FILE *out, const json_t *doc)
{
	json_t *c, *r, *v;
	size_t i, j;
	long tests = 0;

	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		tests += (long)(json_array_size(json_object_get(c, "rows")) +
				json_array_size(json_object_get(c, "status")));
	nb_junit_begin(out, "nasbench compare", &(struct nb_junit_counts){
		tests, (long)json_integer_value(json_object_get(doc, "regressions")), -1, -1 });
	json_array_foreach(json_object_get(doc, "comparisons"), i, c) {
		char name[1024];

		snprintf(name, sizeof(name), "%s -> %s", nb_jstr(c, "base"), nb_jstr(c, "new"));
		nb_junit_suite_begin(out, name, &(struct nb_junit_counts){
			(long)(json_array_size(json_object_get(c, "rows")) +
			       json_array_size(json_object_get(c, "status"))),
			(long)json_integer_value(json_object_get(c, "regressions")), -1, -1 });
		if (json_array_size(json_object_get(c, "labels"))) {
			nb_junit_properties_begin(out);
			json_array_foreach(json_object_get(c, "labels"), j, v) {
				char key[256], val[512];

				snprintf(key, sizeof(key), "label.%s", nb_jstr(v, "key"));
				snprintf(val, sizeof(val), "%s -> %s", or_none(nb_jstr(v, "base")),
					 or_none(nb_jstr(v, "new")));
				nb_junit_property(out, key, val);
			}
			nb_junit_properties_end(out);
		}
		json_array_foreach(json_object_get(c, "rows"), j, r)
			junit_row(out, r);
		json_array_foreach(json_object_get(c, "status"), j, r)
			junit_status(out, r);
		nb_junit_suite_end(out);
	}
	nb_junit_end(out);
}

void nb_compare_json(FILE *out, const json_t *doc)
{
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		   JSON_REAL_PRECISION(10));
	fputc('\n', out);
}
