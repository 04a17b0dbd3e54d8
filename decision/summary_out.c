/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary_out.c - the decision summary's lines other than winners
 * (acceptance, capacity, crash checks, steady state, doubtful figures),
 * and the summary in text, Markdown and HTML.
 */
#include "summary.h"
#include "../core/stats.h"
#include "summary_int.h"
#include "../formats/failure.h"
#include "../core/escape.h"
#include "../core/result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIST_MAX 3               /* examples named in one line */
#define HTML_LINES 14            /* more: the undecided ones folded, so the
				  * summary fits a 1280x800 first screen */

static const char *base_name(const char *p)
{
	return strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
}

/* "seq512k-read on lab-nfs (raidz1.json)" */
static void where(const struct nb_sitem *it, char *out, size_t len)
{
	snprintf(out, len, "%s on %s (%s)", nb_jstr(it->e, "workload"),
		 nb_jstr(it->e, "target"), base_name(it->path));
}

/* acceptance: pass, or the failing criteria with what was measured */
static void accept_lines(struct nb_sctx *s, json_t *const *docs,
			 const char *const *paths, size_t ndocs)
{
	for (size_t i = 0; i < ndocs; i++) {
		const json_t *a = json_object_get(docs[i], "accept"), *c;
		char buf[1200] = "";
		size_t l = 0, j, shown = 0;
		json_int_t failed = json_integer_value(json_object_get(a, "failed"));
		json_int_t passed = json_integer_value(json_object_get(a, "passed"));

		if (!a)
			continue;
		if (!strcmp(nb_jstr(a, "verdict"), "pass")) {
			nb_summary_add(s->lines, "accept", "ok", "acceptance of %s: pass "
				       "(%lld criteria)", base_name(paths[i]),
				       (long long)passed);
			continue;
		}
		json_array_foreach(json_object_get(a, "criteria"), j, c) {
			const json_t *m = json_object_get(c, "measured");

			if (strcmp(nb_jstr(c, "verdict"), "fail") || shown++ >= LIST_MAX)
				continue;
			if (json_is_number(m))
				l += (size_t)snprintf(buf + l, l < sizeof(buf) ? sizeof(buf) - l : 0,
						      "%s%s (measured %g%s%s)", l ? "; " : "",
						      nb_jstr(c, "criterion"), json_number_value(m),
						      *nb_jstr(c, "unit") ? " " : "", nb_jstr(c, "unit"));
			else
				l += (size_t)snprintf(buf + l, l < sizeof(buf) ? sizeof(buf) - l : 0,
						      "%s%s (%s)", l ? "; " : "",
						      nb_jstr(c, "criterion"),
						      *nb_jstr(c, "reason") ? nb_jstr(c, "reason") :
						      "not measured");
		}
		nb_summary_add(s->lines, "accept", "fail", "acceptance of %s: FAIL, %lld "
			       "of %lld criteria: %s%s", base_name(paths[i]),
			       (long long)failed, (long long)(failed + passed), buf,
			       shown > LIST_MAX ? "; and more" : "");
	}
}

/* crash checks (results[].crash_verdict) and syncprobe disagreeing */
static void crash_lines(struct nb_sctx *s, json_t *const *docs,
			const char *const *paths, size_t ndocs)
{
	for (size_t i = 0; i < ndocs; i++) {
		const json_t *e, *d;
		size_t j;

		json_array_foreach(json_object_get(docs[i], "results"), j, e) {
			const json_t *v = json_object_get(e, "crash_verdict");
			json_int_t bad;

			if (!v)
				continue;
			/* a promised write lost, or no crash observed (unproven) */
			bad = json_integer_value(json_object_get(v, "lost")) +
			      json_integer_value(json_object_get(v, "stale")) +
			      json_integer_value(json_object_get(v, "torn")) +
			      json_integer_value(json_object_get(v, "unproven"));
			nb_summary_add(s->lines, "crash", bad ? "fail" : "ok", "crash check "
				       "on %s (%s): %s", nb_jstr(e, "target"),
				       base_name(paths[i]), nb_jstr(v, "summary"));
		}
		json_array_foreach(json_object_get(docs[i], "durability"), j, d)
			if (json_is_false(json_object_get(d, "agree")))
				nb_summary_add(s->lines, "crash", "warn", "durability on %s "
					       "(%s): syncprobe says %s, the crash check "
					       "'%s': they disagree", nb_jstr(d, "target"),
					       base_name(paths[i]), nb_jstr(d, "syncprobe"),
					       nb_jstr(d, "crash"));
	}
}

/* a failure walk (docs/failure.md): what each workload keeps degraded
 * and rebuilding, the rebuild's time, records lost, a box left broken */
static void failure_lines(struct nb_sctx *s, json_t *const *docs,
			  const char *const *paths, size_t ndocs)
{
	for (size_t i = 0; i < ndocs; i++) {
		json_t *f = nb_failure_summary(docs[i]), *r;
		double rb = nb_failure_rebuild_s(docs[i], 0);
		double ri = nb_failure_rebuild_s(docs[i], 1);
		size_t j;

		if (!f)
			continue;
		json_array_foreach(json_object_get(f, "rows"), j, r) {
			const json_t *k = json_object_get(r, "keeps");
			double d = json_number_value(json_object_get(k, "degraded"));
			double b = json_number_value(json_object_get(k, "rebuilding"));

			char more[64] = "";

			if (!json_is_number(json_object_get(k, "degraded")))
				continue;
			if (json_is_number(json_object_get(k, "rebuilding")))
				snprintf(more, sizeof(more), ", rebuilding %.0f%%", 100 * b);
			nb_summary_add(s->lines, "failure", "info", "%s on %s (%s): keeps "
				       "%.0f%% of its healthy %s degraded%s",
				       nb_jstr(r, "workload"), nb_jstr(r, "target"),
				       base_name(paths[i]), 100 * d, nb_jstr(r, "label"),
				       more);
		}
		if (!isnan(rb) || !isnan(ri)) {
			char a[64] = "", b[64] = "";

			if (!isnan(rb))
				snprintf(a, sizeof(a), "%.0f s under the workloads' load", rb);
			if (!isnan(ri))
				snprintf(b, sizeof(b), "%s%.0f s idle", a[0] ? ", " : "", ri);
			nb_summary_add(s->lines, "failure", "info", "the rebuild (%s): "
				       "%s%s", base_name(paths[i]), a, b);
		}
		if (json_integer_value(json_object_get(f, "records_lost")) > 0)
			nb_summary_add(s->lines, "failure", "fail", "%lld records "
				       "written before the failure lost (%s)",
				       (long long)json_integer_value(json_object_get(
					       f, "records_lost")), base_name(paths[i]));
		if (strcmp(nb_jstr(json_object_get(f, "box_left"), "state"), "healthy"))
			nb_summary_add(s->lines, "failure", "warn", "the failure walk "
				       "(%s) left the box %s", base_name(paths[i]),
				       nb_jstr(json_object_get(f, "box_left"), "state"));
		json_decref(f);
	}
}

/* a figure that never reached steady state (the entry's or bigfile's) */
static void steady_lines(struct nb_sctx *s)
{
	for (size_t i = 0; i < s->nit; i++) {
		const json_t *st = json_object_get(s->it[i].e, "steady"), *it;
		char w[600];
		size_t j;

		json_array_foreach(json_object_get(s->it[i].e, "iterations"), j, it)
			if (!st && json_is_false(json_object_get(json_object_get(it, "steady"),
								 "reached")))
				st = json_object_get(it, "steady");
		if (!st || !json_is_false(json_object_get(st, "reached")))
			continue;
		where(&s->it[i], w, sizeof(w));
		nb_summary_add(s->lines, "steady", "warn", "not steady: %s%s%s", w,
			       *nb_jstr(st, "why") ? ": " : "", nb_jstr(st, "why"));
	}
}

/* The classes of doubt, and the kinds of the box's telemetry verdicts
 * (results[].box_verdicts) that fall in each. */
static const char *const classes[][2] = {
	{ "a cache", "cache" }, { "compressible data", "" },
	{ "swap used", "memory" }, { "a busy CPU", "cpu" },
	{ "a slow disk", "slow-disk" }, { "the network", "network" },
};
#define NCLASSES (sizeof(classes) / sizeof(classes[0]))

/* The class of a warning's text: what makes the figure doubtful. */
static const char *warn_class(const char *w)
{
	if (strstr(w, "cache"))
		return "a cache";
	if (strstr(w, "compress") && !strstr(w, "xz"))
		return "compressible data";
	if (strstr(w, "swap"))
		return "swap used";
	return NULL;
}

/* Whether warning W of entry E is one of its telemetry verdicts' texts
 * (classed by the verdict's kind, not by its words). */
static int is_verdict(const json_t *e, const char *w)
{
	const json_t *x;
	size_t j;

	json_array_foreach(json_object_get(e, "box_verdicts"), j, x)
		if (!strcmp(nb_jstr(x, "text"), w))
			return 1;
	return 0;
}

/* The doubt of class K in entry E, its text or NULL: a telemetry
 * verdict of the class's kind first, else a warning of that class that is
 * not a telemetry verdict's text. */
static const char *doubt_of(const json_t *e, size_t k)
{
	const json_t *x;
	size_t j;

	json_array_foreach(json_object_get(e, "box_verdicts"), j, x)
		if (*classes[k][1] && !strcmp(nb_jstr(x, "kind"), classes[k][1]))
			return nb_jstr(x, "text");
	json_array_foreach(json_object_get(e, "warnings"), j, x) {
		const char *c = warn_class(json_string_value(x));

		if (c && !strcmp(c, classes[k][0]) &&
		    !is_verdict(e, json_string_value(x)))
			return json_string_value(x);
	}
	return NULL;
}

/* a capacity sweep's answer: the load at the objective */
static void capacity_lines(struct nb_sctx *s)
{
	for (size_t i = 0; i < s->nit; i++) {
		const json_t *it, *cap = NULL;
		char w[600];
		size_t j;

		json_array_foreach(json_object_get(s->it[i].e, "iterations"), j, it)
			if (json_object_get(json_object_get(it, "sweep"), "capacity"))
				cap = json_object_get(json_object_get(it, "sweep"), "capacity");
		if (!cap)
			continue;
		where(&s->it[i], w, sizeof(w));
		nb_summary_add(s->lines, "capacity", json_is_true(json_object_get(cap,
			       "found")) ? "info" : "warn", "capacity of %s: %s", w,
			       *nb_jstr(cap, "text") ? nb_jstr(cap, "text") :
			       "no step met the objective");
	}
}

/* One line per class of doubt: how many figures, the first few named. */
static void warning_lines(struct nb_sctx *s)
{
	for (size_t k = 0; k < NCLASSES; k++) {
		char buf[1600] = "", first[600] = "", w[600];
		size_t n = 0, l = 0;

		for (size_t i = 0; i < s->nit; i++) {
			const char *d = doubt_of(s->it[i].e, k);

			if (!d)
				continue;
			if (!first[0])
				snprintf(first, sizeof(first), "%s", d);
			if (n++ < LIST_MAX) {
				where(&s->it[i], w, sizeof(w));
				l += (size_t)snprintf(buf + l, l < sizeof(buf) ?
						      sizeof(buf) - l : 0, "%s%s",
						      l ? ", " : "", w);
			}
		}
		if (n)
			nb_summary_add(s->lines, "warning", "warn", "doubtful (%s): %zu "
				       "figure%s: %s%s (\"%s\")", classes[k][0], n,
				       n == 1 ? "" : "s", buf, n > LIST_MAX ? ", ..." : "",
				       first);
	}
}

/* results cut short, entries that did not run, too few iterations */
static void run_lines(struct nb_sctx *s, json_t *const *docs,
		      const char *const *paths, size_t ndocs)
{
	size_t few = 0, minit = 0;

	for (size_t i = 0; i < ndocs; i++) {
		const json_t *e;
		size_t j;

		if (json_is_false(json_object_get(docs[i], "complete")))
			nb_summary_add(s->lines, "warning", "warn", "incomplete: %s was "
				       "interrupted; its figures are partial",
				       base_name(paths[i]));
		json_array_foreach(json_object_get(docs[i], "results"), j, e)
			if (strcmp(nb_jstr(e, "status"), "ok"))
				nb_summary_add(s->lines, "warning", "warn", "not measured: %s "
					       "on %s (%s): %s%s%s", nb_jstr(e, "workload"),
					       nb_jstr(e, "target"), base_name(paths[i]),
					       nb_jstr(e, "status"),
					       *nb_jstr(e, "reason") ? ": " : "",
					       nb_jstr(e, "reason"));
	}
	for (size_t i = 0; i < s->nit; i++) {
		size_t n = json_array_size(json_object_get(s->it[i].e, "iterations"));

		if (n < NB_FEW_ITERATIONS) {
			few++;
			minit = !minit || n < minit ? n : minit;
		}
	}
	if (few)
		nb_summary_add(s->lines, "warning", "warn", "low confidence: %zu of %zu "
			       "figures rest on fewer than %d iterations (n=%zu): a "
			       "difference within the run-to-run noise cannot be told "
			       "apart (run 5 or more)", few, s->nit, NB_FEW_ITERATIONS,
			       minit);
}

json_t *nb_summary_new(json_t *const *docs, const char *const *paths,
		       size_t ndocs)
{
	struct nb_sctx s = { .keep = json_array(), .lines = json_array() };
	size_t cap = 0;

	for (size_t i = 0; i < ndocs; i++) {
		const json_t *e;
		size_t j;

		json_array_foreach(json_object_get(docs[i], "results"), j, e) {
			/* a failure walk's winners are its healthy box's */
			if (strcmp(nb_jstr(e, "status"), "ok") ||
			    !json_array_size(json_object_get(e, "iterations")) ||
			    nb_box_state(nb_jstr(e, "state")) > 0)
				continue;
			if (s.nit == cap)
				s.it = realloc(s.it, (cap = cap ? 2 * cap : 16) * sizeof(*s.it));
			s.it[s.nit++] = (struct nb_sitem){ docs[i], e, paths[i] };
		}
	}
	nb_summary_winners(&s);
	accept_lines(&s, docs, paths, ndocs);
	capacity_lines(&s);
	crash_lines(&s, docs, paths, ndocs);
	failure_lines(&s, docs, paths, ndocs);
	steady_lines(&s);
	warning_lines(&s);
	run_lines(&s, docs, paths, ndocs);
	free(s.it);
	json_decref(s.keep);
	return s.lines;
}

static const char *level_word(const json_t *line)
{
	const char *l = nb_jstr(line, "level");

	return !strcmp(l, "fail") ? "FAIL" : !strcmp(l, "warn") ? "warning" : "";
}

void nb_summary_text(FILE *out, const json_t *lines)
{
	const json_t *x;
	size_t i;

	if (!json_array_size(lines))
		return;
	fputs("summary\n", out);
	json_array_foreach(lines, i, x) {
		/* a line each, whatever the results' names hold */
		fprintf(out, "  %s%s", level_word(x), *level_word(x) ? ": " : "");
		nb_term_escape(out, nb_jstr(x, "text"));
		fputc('\n', out);
	}
	fputc('\n', out);
}

void nb_summary_markdown(FILE *out, const json_t *lines)
{
	const json_t *x;
	size_t i;

	if (!json_array_size(lines))
		return;
	fputs("## Summary\n\n", out);
	json_array_foreach(lines, i, x) {
		fputs("- ", out);
		if (*level_word(x))
			fprintf(out, "**%s:** ", level_word(x));
		nb_md_escape(out, nb_jstr(x, "text"));
		fputc('\n', out);
	}
	fputc('\n', out);
}

static void html_item(FILE *out, const json_t *x)
{
	fputs("<li class=\"", out), nb_xml_escape(out, nb_jstr(x, "level"));
	fputs("\">", out);
	if (*level_word(x))
		fprintf(out, "<strong>%s:</strong> ", level_word(x));
	nb_xml_escape(out, nb_jstr(x, "text"));
	fputs("</li>\n", out);
}

/* A comparison that decided nothing (about the same, no consistent
 * winner): folded when the summary would not fit the first screen. */
static int undecided(const json_t *x)
{
	return !strcmp(nb_jstr(x, "kind"), "winner") &&
	       !strstr(nb_jstr(x, "text"), ", best configuration: ") &&
	       (strstr(nb_jstr(x, "text"), " about the same (") ||
		strstr(nb_jstr(x, "text"), " no consistent winner "));
}

void nb_summary_html(FILE *out, const json_t *lines)
{
	int fold = json_array_size(lines) > HTML_LINES;
	const json_t *x;
	size_t i, nfold = 0;

	fputs("<section id=\"summary\">\n<h2>Summary</h2>\n<ul>\n", out);
	json_array_foreach(lines, i, x) {
		if (fold && undecided(x))
			nfold++;
		else
			html_item(out, x);
	}
	if (!json_array_size(lines))
		fputs("<li>nothing to decide: one configuration, no warning</li>\n", out);
	fputs("</ul>\n", out);
	if (nfold) {
		fprintf(out, "<details><summary>%zu comparison%s that decided nothing "
			"(about the same, or no consistent winner)</summary>\n<ul>\n",
			nfold, nfold == 1 ? "" : "s");
		json_array_foreach(lines, i, x)
			if (undecided(x))
				html_item(out, x);
		fputs("</ul>\n</details>\n", out);
	}
	fputs("</section>\n", out);
}
