/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_out.c - the formats of 'nasbench compare': a terminal table,
 * Markdown (a pull-request comment), JSON; a row in a line for JUnit XML
 * (compare_junit.c).
 */
#include "compare.h"
#include "../formats/failure.h"
#include "../core/escape.h"
#include "../decision/summary.h"
#include "../formats/junit.h"
#include "../core/result.h"
#include "../core/stats.h"
#include "../core/units.h"

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
	if (isnan(num(r, k)))
		snprintf(buf, len, "-");
	else
		fmt_value(buf, len, num(r, k) * num(r, "scale"));
}

static void fmt_change(char *buf, size_t len, const json_t *r)
{
	double c = num(r, "change_pct");

	if (isnan(num(r, "new")) || isnan(num(r, "base")))
		snprintf(buf, len, "-");
	else if (isnan(c))
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

static int is(const json_t *o, const char *k)
{
	return json_is_true(json_object_get(o, k));
}

/* "worse", "noise (low confidence)", "missing: not in the new result",
 * "changed-settings: bs 524288 -> 65536, url a -> b" */
static void fmt_verdict(char *buf, size_t len, const json_t *r)
{
	const char *v = nb_jstr(r, "verdict");
	int plain = !strcmp(v, "changed-settings") || !strcmp(v, "missing") ||
		    !strcmp(v, "not-steady");
	int n = snprintf(buf, len, "%s%s%s", v,
			 is(r, "low_confidence") && !plain ? " (low confidence)" : "",
			 is(r, "low_confidence") && !is(r, "gated") &&
			 !strcmp(v, "worse") ? " (not gated)" : "");
	json_t *s;
	size_t i;

	if (*nb_jstr(r, "reason") && n < (int)len)
		n += snprintf(buf + n, len - (size_t)n, ": %s", nb_jstr(r, "reason"));
	json_array_foreach(json_object_get(r, "settings"), i, s)
		if (n < (int)len)
			n += snprintf(buf + n, len - (size_t)n, "%s%s %s -> %s",
				      i ? ", " : (strcmp(v, "changed-settings") ?
						  " (settings: " : ": "),
				      nb_jstr(s, "key"), nb_jstr(s, "base"),
				      nb_jstr(s, "new"));
	if (json_array_size(json_object_get(r, "settings")) &&
	    strcmp(v, "changed-settings") && n < (int)len)
		n += snprintf(buf + n, len - (size_t)n, ")");
	if (json_object_get(r, "band") && n < (int)len) {
		char band[96];

		nb_compare_fmt_band(band, sizeof(band), r);
		snprintf(buf + n, len - (size_t)n, "; %s", band);
	}
}

/* The smallest change for the worse the test could tell from the noise:
 * "-33%" (higher is better), "+49%" (lower is better), "±49%" (no
 * direction); "-" without a test. */
static void fmt_detect(char *buf, size_t len, const json_t *r)
{
	const char *b = nb_jstr(r, "better");
	double down = num(r, "detect_down_pct"), up = num(r, "detect_up_pct");

	if (isnan(down) || isnan(up))
		snprintf(buf, len, "-");
	else if (!strcmp(b, "higher"))
		snprintf(buf, len, "%.0f%%", down);
	else if (!strcmp(b, "lower"))
		snprintf(buf, len, "+%.0f%%", up);
	else
		snprintf(buf, len, "±%.0f%%", up);
}

/* Where the between-run noise came from: "5 runs" (measured), "assumed". */
static void fmt_noise(char *buf, size_t len, const json_t *r)
{
	if (json_is_null(json_object_get(r, "test")) || !json_object_get(r, "test"))
		snprintf(buf, len, "-");
	else if (is(r, "noise_measured"))
		snprintf(buf, len, "%d runs", (int)num(r, "noise_runs"));
	else
		snprintf(buf, len, "assumed");
}

static void fmt_n(char *buf, size_t len, const json_t *r)
{
	int runs = (int)num(r, "runs");

	if (runs > 1)
		snprintf(buf, len, "%d(%d runs)/%d", (int)num(r, "n_base"), runs,
			 (int)num(r, "n_new"));
	else
		snprintf(buf, len, "%d/%d", (int)num(r, "n_base"), (int)num(r, "n_new"));
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

/* Two failure walks side by side (docs/failure.md), when either is one. */
static void failure_lines(FILE *out, const json_t *c, int markdown)
{
	const json_t *f = json_object_get(c, "failure");

	if (f)
		nb_failure_versus(out, json_object_get(f, "base"), nb_jstr(c, "base"),
				  json_object_get(f, "new"), nb_jstr(c, "new"),
				  markdown);
}

/* ---- terminal ---- */

enum { C_TARGET, C_WL, C_METRIC, C_BASE, C_NEW, C_CHANGE, C_N, C_P, C_DETECT,
       C_NOISE, C_VERDICT, NCOL };

static void cells(const json_t *r, char cell[NCOL][512])
{
	/* names from the results: one line each, whatever they hold */
	nb_term_str(cell[C_TARGET], 512, nb_jstr(r, "target"));
	snprintf(cell[C_WL], 512, "%s%s%s", NB_TERM(nb_jstr(r, "workload")),
		 *nb_jstr(r, "state") ? " " : "", NB_TERM(nb_jstr(r, "state")));
	nb_term_str(cell[C_METRIC], 512, nb_jstr(r, "label"));
	fmt_shown(cell[C_BASE], 512, r, "base");
	fmt_shown(cell[C_NEW], 512, r, "new");
	fmt_change(cell[C_CHANGE], 512, r);
	fmt_n(cell[C_N], 512, r);
	fmt_p(cell[C_P], 512, r);
	fmt_detect(cell[C_DETECT], 512, r);
	fmt_noise(cell[C_NOISE], 512, r);
	fmt_verdict(cell[C_VERDICT], 512, r);
}

static const char *color_of(const json_t *r)
{
	const char *v = nb_jstr(r, "verdict");

	if (is(r, "regression") || !strcmp(v, "changed-settings"))
		return "\033[1;31m";
	if (!strcmp(v, "worse") || !strcmp(v, "missing"))
		return "\033[31m";
	if (!strcmp(v, "better"))
		return "\033[32m";
	if (!strcmp(v, "noise") || !strcmp(v, "changed") || !strcmp(v, "not-steady") ||
	    !strcmp(v, "inconclusive") || !strcmp(v, "unmeasured"))
		return "\033[33m";
	return "";
}

/* Display width of a UTF-8 string (the ± sign is one column, two bytes). */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *out, const char *s, int w, int right)
{
	int n = w - width(s);

	fputs("  ", out);
	if (right)
		fprintf(out, "%*s%s", n > 0 ? n : 0, "", s);
	else
		fprintf(out, "%s%*s", s, n > 0 ? n : 0, "");
}

/* Rows [from, to) of ROWS as a table; SKIP: a column left out. */
static void text_table(FILE *out, const json_t *rows, size_t from, size_t to,
		       int color, int skip)
{
	static const char *head[NCOL] = { "target", "workload", "metric", "base",
					  "new", "change", "n", "p", "detects",
					  "noise", "verdict" };
	static const int right[NCOL] = { 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0 };
	char cell[NCOL][512];
	int w[NCOL];

	for (int c = 0; c < NCOL; c++)
		w[c] = width(head[c]);
	for (size_t i = from; i < to; i++) {
		cells(json_array_get(rows, i), cell);
		for (int c = 0; c < NCOL - 1; c++)
			if (width(cell[c]) > w[c])
				w[c] = width(cell[c]);
	}
	for (int c = 0; c < NCOL - 1; c++)
		if (c != skip)
			pad(out, head[c], w[c], right[c]);
	fprintf(out, "  %s\n", head[C_VERDICT]);
	for (size_t i = from; i < to; i++) {
		const json_t *r = json_array_get(rows, i);
		const char *col = color ? color_of(r) : "";

		cells(r, cell);
		for (int c = 0; c < NCOL - 1; c++)
			if (c != skip)
				pad(out, cell[c], w[c], right[c]);
		fputs("  ", out);
		nb_term_raw(out, col);
		fputs(cell[C_VERDICT], out);
		nb_term_raw(out, *col ? "\033[0m" : "");
		fputc('\n', out);
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
		fprintf(out, " %s", NB_TERM(json_string_value(v) ?: ""));
	fputc('\n', out);
}

static void text_one(FILE *out, const json_t *c, int color)
{
	json_t *rows = json_object_get(c, "rows"), *v;
	size_t i;

	fprintf(out, "%s -> %s\n", NB_TERM(nb_jstr(c, "base")), NB_TERM(nb_jstr(c, "new")));
	json_array_foreach(json_object_get(c, "labels"), i, v)
		fprintf(out, "  %s: %s -> %s\n", NB_TERM(nb_jstr(v, "key")),
			NB_TERM(or_none(nb_jstr(v, "base"))),
			NB_TERM(or_none(nb_jstr(v, "new"))));
	if (!strcmp(nb_jstr(c, "matched_by"), "workload")) {
		json_t *t = json_object_get(c, "targets");

		fprintf(out, "  target: %s -> %s (matched by workload)\n",
			NB_TERM(nb_jstr(t, "base")), NB_TERM(nb_jstr(t, "new")));
	}
	if (json_object_get(c, "noise_from"))
		fprintf(out, "  noise: measured on %s\n", NB_TERM(nb_jstr(c, "noise_from")));
	fputc('\n', out);
	nb_term_raw(out, color ? "\033[1m" : "");
	fputs("verdicts", out);
	nb_term_raw(out, color ? "\033[0m" : "");
	fputs(" (one per workload, on its primary metric)\n", out);
	text_table(out, json_object_get(c, "verdicts"), 0,
		   json_array_size(json_object_get(c, "verdicts")), color, -1);
	if (json_array_size(rows)) {
		fputc('\n', out);
		nb_term_raw(out, color ? "\033[1m" : "");
		fputs("other metrics", out);
		nb_term_raw(out, color ? "\033[0m" : "");
		fputs(" (shown; they gate only when a gate file names them)\n", out);
	}
	for (i = 0; i < json_array_size(rows); i = metric_end(rows, i)) {
		char h[256];

		heading(h, sizeof(h), json_array_get(rows, i));
		fprintf(out, "%s\n", NB_TERM(h));
		text_table(out, rows, i, metric_end(rows, i), color, C_METRIC);
	}
	if (json_array_size(json_object_get(c, "only_new")) ||
	    json_array_size(json_object_get(c, "warnings")))
		fputc('\n', out);
	text_list(out, json_object_get(c, "only_new"), "only in new");
	json_array_foreach(json_object_get(c, "warnings"), i, v)
		fprintf(out, "warning: %s\n", NB_TERM(json_string_value(v) ?: ""));
	failure_lines(out, c, 0);
}

static int any_low_confidence(const json_t *doc)
{
	json_t *c, *r;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		json_array_foreach(json_object_get(c, "verdicts"), j, r)
			if (is(r, "low_confidence") && is(r, "gated"))
				return 1;
	return 0;
}

/* The widest "detects" of the inconclusive verdicts whose noise was
 * assumed (a fall, as a negative percentage; a rise for a latency), into
 * WHAT ("-33% on seq512k-read MB/s"); 0 when there is none. */
static int widest_assumed(const json_t *doc, char *what, size_t len)
{
	json_t *c, *r;
	size_t i, j;
	double best = 0;

	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		json_array_foreach(json_object_get(c, "verdicts"), j, r) {
			char d[32];
			double v = fabs(!strcmp(nb_jstr(r, "better"), "lower") ?
					num(r, "detect_up_pct") : num(r, "detect_down_pct"));

			if (!is(r, "inconclusive") || is(r, "noise_measured") ||
			    is(r, "low_confidence") || isnan(v) || v <= best ||
			    !strcmp(nb_jstr(r, "verdict"), "unmeasured"))
				continue;
			best = v;
			fmt_detect(d, sizeof(d), r);
			snprintf(what, len, "%s on %s %s", d, nb_jstr(r, "workload"),
				 nb_jstr(r, "label"));
		}
	return best > 0;
}

static void summary_line(char *buf, size_t len, const json_t *doc)
{
	json_int_t n = json_integer_value(json_object_get(doc, "regressions"));
	json_int_t ch = json_integer_value(json_object_get(doc, "changed_settings"));
	json_int_t inc = json_integer_value(json_object_get(doc, "inconclusive"));
	const json_t *bands = json_object_get(doc, "bands");
	char thr[32], what[160], widest[200];

	if (json_is_null(json_object_get(doc, "max_regress_pct"))) {
		snprintf(buf, len, "not gated (max regress off)");
		return;
	}
	fmt_threshold(thr, sizeof(thr), num(doc, "max_regress_pct"));
	if (n)
		snprintf(what, sizeof(what), "%lld regression%s", (long long)n,
			 n == 1 ? "" : "s");
	else if (inc && widest_assumed(doc, widest, sizeof(widest)))
		snprintf(what, sizeof(what), "inconclusive: %lld verdict%s the "
			 "noise could not decide; could detect changes beyond %s",
			 (long long)inc, inc == 1 ? "" : "s", widest);
	else if (inc)
		snprintf(what, sizeof(what), "inconclusive: %lld verdict%s the "
			 "noise could not decide", (long long)inc, inc == 1 ? "" : "s");
	else
		snprintf(what, sizeof(what), "no regression");
	snprintf(buf, len, "%s%s%s%s (max regress %s, alpha %g%s)%s%s%s%s", what,
		 ch ? ", " : "", ch ? "settings changed in " : "",
		 ch ? (ch == 1 ? "1 workload" : "several workloads") : "",
		 thr, num(doc, "alpha"), is(doc, "strict") ? ", strict" : "",
		 bands ? "; bands " : "", bands ? nb_jstr(bands, "text") : "",
		 bands ? ": " : "", bands ? nb_jstr(bands, "verdict") : "");
}

/* the note on low confidence (fewer than NB_FEW_ITERATIONS a side) */
static const char low_note[] =
	"low confidence: fewer than " NB_STR(NB_FEW_ITERATIONS) " iterations on a "
	"side, so noise cannot be told apart: inconclusive (--strict gates it on "
	"the threshold). Run 5 or more iterations.";

/* Why a verdict is unmeasured, and the way out; "" when none is. */
static const char *unmeasured_note(const json_t *doc)
{
	json_t *c, *r;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		json_array_foreach(json_object_get(c, "verdicts"), j, r)
			if (!strcmp(nb_jstr(r, "verdict"), "unmeasured"))
				return "unmeasured: a figure without the samples to "
				       "carry it (too few I/Os timed, docs/result.md "
				       "\"Counts, windows and samples\") is shown, "
				       "never judged: gated, it is inconclusive (exit "
				       "status 5). Run longer (--runtime, --step-time).";
	return "";
}

/* Why a verdict is inconclusive when the noise was assumed, and the way
 * out; "" when no verdict is. */
static const char *assumed_note(const json_t *doc)
{
	json_t *c, *r;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		json_array_foreach(json_object_get(c, "verdicts"), j, r)
			if (is(r, "inconclusive") && !is(r, "low_confidence") &&
			    !is(r, "noise_measured") &&
			    strcmp(nb_jstr(r, "verdict"), "unmeasured"))
				return "inconclusive: one run on each side cannot measure "
				       "how far a whole run drifts from the next; the "
				       "noise was assumed and only a change beyond "
				       "'detects' can be told from it (exit status 5). "
				       "Gate against a history of 3 or more runs "
				       "(--baseline history), or measure the noise "
				       "on it (--noise history).";
	return "";
}

/* What the results said reaches the terminal through nb_term_open():
 * shown, never sent (core/escape.h); the colours are nasbench's own. */
void nb_compare_text(FILE *under, const json_t *doc, int color)
{
	json_t *c;
	size_t i;
	char sum[512];
	int bad = json_integer_value(json_object_get(doc, "regressions")) ||
		  json_integer_value(json_object_get(doc, "changed_settings"));
	int inc = json_integer_value(json_object_get(doc, "inconclusive")) > 0;
	FILE *out = nb_term_open(under);
	json_t *lines = nb_compare_summary(doc);

	if (!out)
		out = under;

	json_array_foreach(json_object_get(doc, "comparisons"), i, c) {
		if (i)
			fputc('\n', out);
		text_one(out, c, color);
	}
	if (any_low_confidence(doc) && !is(doc, "strict"))
		fprintf(out, "\n%s\n", low_note);
	if (*assumed_note(doc))
		fprintf(out, "\n%s\n", assumed_note(doc));
	if (*unmeasured_note(doc))
		fprintf(out, "\n%s\n", unmeasured_note(doc));
	/* the decisions at the end, where a terminal leaves the eye */
	fputc('\n', out);
	nb_summary_text(out, lines);
	json_decref(lines);
	summary_line(sum, sizeof(sum), doc);
	fputc('\n', out);
	nb_term_raw(out, !color ? "" : bad ? "\033[1;31m" : inc ? "\033[33m" : "\033[32m");
	fputs(sum, out);
	nb_term_raw(out, color ? "\033[0m" : "");
	fputc('\n', out);
	if (out != under)
		fclose(out);
}

/* ---- Markdown: one line per workload, the rest folded ---- */

static void md_cell(FILE *out, const char *s)
{
	fputs(" ", out);
	nb_md_escape(out, s);
	fputs(" |", out);
}

/* "p99 us +3.1%" for the details column; worse ones in bold. */
static void md_other(FILE *out, const json_t *c, const json_t *v)
{
	json_t *r;
	size_t i;
	int first = 1;

	json_array_foreach(json_object_get(c, "rows"), i, r) {
		char ch[64], item[256];
		const char *vd = nb_jstr(r, "verdict");
		int mark = strcmp(vd, "unchanged") && strcmp(vd, "noise");

		if (strcmp(nb_jstr(r, "target"), nb_jstr(v, "target")) ||
		    strcmp(nb_jstr(r, "workload"), nb_jstr(v, "workload")) ||
		    strcmp(nb_jstr(r, "state"), nb_jstr(v, "state")))
			continue;
		fmt_change(ch, sizeof(ch), r);
		snprintf(item, sizeof(item), "%s %s%s%s%s", nb_jstr(r, "label"), ch,
			 mark ? " (" : "", mark ? vd : "", mark ? ")" : "");
		fputs(first ? " " : " · ", out);
		if (is(r, "regression"))
			fputs("**", out);
		nb_md_escape(out, item);
		if (is(r, "regression"))
			fputs("**", out);
		first = 0;
	}
	fputs(first ? " - |" : " |", out);
}

static void md_one(FILE *out, const json_t *c)
{
	json_t *verdicts = json_object_get(c, "verdicts"), *v;
	size_t i;

	fputs("### ", out), nb_md_escape(out, nb_jstr(c, "base"));
	fputs(" → ", out), nb_md_escape(out, nb_jstr(c, "new")), fputs("\n\n", out);
	if (json_array_size(json_object_get(c, "labels")) ||
	    !strcmp(nb_jstr(c, "matched_by"), "workload")) {
		fputs("| label | base | new |\n|---|---|---|\n", out);
		json_array_foreach(json_object_get(c, "labels"), i, v) {
			fputs("|", out);
			md_cell(out, nb_jstr(v, "key"));
			md_cell(out, or_none(nb_jstr(v, "base")));
			md_cell(out, or_none(nb_jstr(v, "new")));
			fputc('\n', out);
		}
		if (!strcmp(nb_jstr(c, "matched_by"), "workload")) {
			json_t *t = json_object_get(c, "targets");

			fputs("| target (matched by workload) |", out);
			md_cell(out, nb_jstr(t, "base"));
			md_cell(out, nb_jstr(t, "new"));
			fputc('\n', out);
		}
		fputc('\n', out);
	}
	fputs("| target | workload | metric | base | new | change | verdict |\n"
	      "|---|---|---|--:|--:|--:|---|\n", out);
	json_array_foreach(verdicts, i, v) {
		char cell[NCOL][512];
		int bad = is(v, "regression") ||
			  !strcmp(nb_jstr(v, "verdict"), "changed-settings");

		cells(v, cell);
		fputs("|", out);
		md_cell(out, cell[C_TARGET]);
		md_cell(out, cell[C_WL]);
		md_cell(out, cell[C_METRIC]);
		fprintf(out, " %s | %s | %s | %s", cell[C_BASE], cell[C_NEW],
			cell[C_CHANGE], bad ? "**" : "");
		nb_md_escape(out, cell[C_VERDICT]);
		fprintf(out, "%s |\n", bad ? "**" : "");
	}
	fputs("\n<details><summary>details: iterations, p, detectable change, "
	      "noise, other metrics</summary>\n\n"
	      "| target | workload | n | p | detects | noise | other metrics |\n"
	      "|---|---|--:|--:|--:|--:|---|\n", out);
	json_array_foreach(verdicts, i, v) {
		char cell[NCOL][512];

		cells(v, cell);
		fputs("|", out);
		md_cell(out, cell[C_TARGET]);
		md_cell(out, cell[C_WL]);
		fprintf(out, " %s | %s | %s | %s |", cell[C_N], cell[C_P],
			cell[C_DETECT], cell[C_NOISE]);
		md_other(out, c, v);
		fputc('\n', out);
	}
	fputc('\n', out);
	json_array_foreach(json_object_get(c, "only_new"), i, v)
		fputs("- only in new: ", out), nb_md_escape(out, json_string_value(v)),
			fputc('\n', out);
	json_array_foreach(json_object_get(c, "warnings"), i, v)
		fputs("- warning: ", out), nb_md_escape(out, json_string_value(v)),
			fputc('\n', out);
	fputs("</details>\n\n", out);
	failure_lines(out, c, 1);
}

void nb_compare_markdown(FILE *out, const json_t *doc)
{
	json_t *c;
	size_t i;
	char sum[512];
	int bad = json_integer_value(json_object_get(doc, "regressions")) ||
		  json_integer_value(json_object_get(doc, "changed_settings"));

	json_t *lines = nb_compare_summary(doc);

	summary_line(sum, sizeof(sum), doc);
	fprintf(out, "## nasbench compare: %s%s%s\n\n", bad ? "**" : "", sum,
		bad ? "**" : "");
	nb_summary_markdown(out, lines);
	json_decref(lines);
	if (any_low_confidence(doc) && !is(doc, "strict"))
		fprintf(out, "> %s\n\n", low_note);
	if (*assumed_note(doc))
		fprintf(out, "> %s\n\n", assumed_note(doc));
	if (*unmeasured_note(doc))
		fprintf(out, "> %s\n\n", unmeasured_note(doc));
	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		md_one(out, c);
}

/* ---- one row in a line (JUnit's messages) ---- */

void nb_compare_row_line(char *buf, size_t len, const json_t *r)
{
	char b[64], n[64], ch[64], p[64], v[1024], thr[32], nn[64], noise[32];
	char det[32];

	fmt_shown(b, sizeof(b), r, "base");
	fmt_shown(n, sizeof(n), r, "new");
	fmt_change(ch, sizeof(ch), r);
	fmt_p(p, sizeof(p), r);
	fmt_noise(noise, sizeof(noise), r);
	fmt_detect(det, sizeof(det), r);
	fmt_verdict(v, sizeof(v), r);
	fmt_n(nn, sizeof(nn), r);
	fmt_threshold(thr, sizeof(thr), json_is_null(json_object_get(r, "threshold_pct")) ?
		      -1 : num(r, "threshold_pct"));
	snprintf(buf, len, "%s %s: %s -> %s (%s, threshold %s, n %s, p %s, "
		 "detects %s, noise %s%s%s): %s",
		 nb_jstr(r, "workload"), nb_jstr(r, "label"), b, n, ch, thr, nn, p,
		 det, noise, json_is_null(json_object_get(r, "test")) ? "" : ", ",
		 json_is_null(json_object_get(r, "test")) ? "" : nb_jstr(r, "test"), v);
}

void nb_compare_json(FILE *out, const json_t *doc)
{
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		   JSON_REAL_PRECISION(10));
	fputc('\n', out);
}
