/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary_out.c - the decision summary's lines other than the decisions
 * (acceptance, capacity, crash checks, steady state, doubtful figures:
 * what happened and what to do, the words in the detail), the order a
 * reader takes them in, and the summary in text, Markdown and HTML.
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
		char buf[1200] = "", full[1500];
		size_t l = 0, j, shown = 0, first = 0;
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
			if (shown == 1)
				first = l;
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
		snprintf(full, sizeof(full), "acceptance of %s: FAIL, %lld of %lld "
			 "criteria: %s%s", base_name(paths[i]), (long long)failed,
			 (long long)(failed + passed), buf, shown > LIST_MAX ?
			 "; and more" : "");
		/* short: the first failing criterion, the others counted */
		l = strcspn(buf + first, ";");
		nb_summary_add(s->lines, "accept", "fail", "acceptance of %s: FAIL: "
			       "%.*s%s", base_name(paths[i]), (int)l, buf + first,
			       failed > 1 ? " and more (the detail)" : "");
		if (failed > 1)
			nb_summary_short(s->lines, full);
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
			nb_summary_fold(s->lines, "failure", "info", "%s on %s (%s): keeps "
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
			nb_summary_fold(s->lines, "failure", "info", "the rebuild (%s): "
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

/* a figure that never reached steady state (the entry's or bigfile's):
 * one line, each figure in its detail */
static void steady_lines(struct nb_sctx *s)
{
	char full[2048] = "", w[600];
	size_t n = 0, l = 0;

	for (size_t i = 0; i < s->nit; i++) {
		const json_t *st = json_object_get(s->it[i].e, "steady"), *it;
		size_t j;

		json_array_foreach(json_object_get(s->it[i].e, "iterations"), j, it)
			if (!st && json_is_false(json_object_get(json_object_get(it, "steady"),
								 "reached")))
				st = json_object_get(it, "steady");
		if (!st || !json_is_false(json_object_get(st, "reached")))
			continue;
		where(&s->it[i], w, sizeof(w));
		if (l < sizeof(full))
			l += (size_t)snprintf(full + l, sizeof(full) - l, "%s%s%s%s",
					      n ? "; " : "not steady: ", w,
					      *nb_jstr(st, "why") ? ": " : "",
					      nb_jstr(st, "why"));
		n++;
	}
	if (!n)
		return;
	nb_summary_add(s->lines, "steady", "warn", "%zu figure%s never reached steady "
		       "state: run longer (--runtime, or --steady-state's rounds)", n,
		       n == 1 ? "" : "s");
	nb_summary_short(s->lines, full);
}

/* The classes of doubt: the kind of the box's telemetry verdicts
 * (results[].box_verdicts) that fall in each, the words of a warning
 * that does, and what happened and what to do, short. */
static const struct doubt {
	const char *name, *kind, *word, *what, *todo;
} classes[] = {
	{ "durability not proven", "", "not proven durable",
	  "sync writes not proven durable",
	  "run the crash check (crashcheck), or declare plp = yes if the box has "
	  "power-loss protection" },
	{ "a cache", "cache", "cache", "the box's cache, not its disks, may set "
	  "them", "use a data set of twice its RAM (--size auto)" },
	{ "compressible data", "", "compress", "the data compressed",
	  "use incompressible data" },
	{ "swap used", "memory", "swap", "the box ran short of memory",
	  "give it more, or use a smaller ARC" },
	{ "a busy CPU", "cpu", NULL, "a CPU, not the disks, set them",
	  "see which in the detail" },
	{ "a slow disk", "slow-disk", NULL, "one disk was slower than its peers "
	  "and held its vdev back", "check it (zpool iostat -v)" },
	{ "the network", "network", NULL, "the network's ceiling set them",
	  "they are the link's, not the box's" },
};
#define NCLASSES (sizeof(classes) / sizeof(classes[0]))

/* The class of a warning's text (the first that names its word), or -1:
 * what makes the figure doubtful. */
static int warn_class(const char *w)
{
	for (size_t k = 0; k < NCLASSES; k++)
		if (classes[k].word && strstr(w, classes[k].word) &&
		    (strcmp(classes[k].word, "compress") || !strstr(w, "xz")))
			return (int)k;
	return -1;
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
		if (*classes[k].kind && !strcmp(nb_jstr(x, "kind"), classes[k].kind))
			return nb_jstr(x, "text");
	json_array_foreach(json_object_get(e, "warnings"), j, x)
		if (warn_class(json_string_value(x)) == (int)k &&
		    !is_verdict(e, json_string_value(x)))
			return json_string_value(x);
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
		nb_summary_fold(s->lines, "capacity", json_is_true(json_object_get(cap,
			       "found")) ? "info" : "warn", "capacity of %s: %s", w,
			       *nb_jstr(cap, "text") ? nb_jstr(cap, "text") :
			       "no step met the objective");
	}
}

/* One line per class of doubt: how many figures, what happened and what
 * to do; in its detail the first few named and the first one's words. */
static void warning_lines(struct nb_sctx *s)
{
	for (size_t k = 0; k < NCLASSES; k++) {
		char buf[1600] = "", first[600] = "", w[600], full[2400];
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
		if (!n)
			continue;
		snprintf(full, sizeof(full), "doubtful (%s): %zu figure%s: %s%s (\"%s\")",
			 classes[k].name, n, n == 1 ? "" : "s", buf,
			 n > LIST_MAX ? ", ..." : "", first);
		nb_summary_add(s->lines, "warning", "warn", "%zu figure%s doubtful: %s; "
			       "%s", n, n == 1 ? "" : "s", classes[k].what,
			       classes[k].todo);
		nb_summary_short(s->lines, full);
	}
}

/* results cut short, entries that did not run, too few iterations */
static void run_lines(struct nb_sctx *s, json_t *const *docs,
		      const char *const *paths, size_t ndocs)
{
	size_t few = 0, minit = 0;
	char full[600];

	for (size_t i = 0; i < ndocs; i++) {
		const json_t *e;
		size_t j;

		if (json_is_false(json_object_get(docs[i], "complete")))
			nb_summary_add(s->lines, "warning", "warn", "incomplete: %s was "
				       "interrupted; its figures are partial",
				       base_name(paths[i]));
		json_array_foreach(json_object_get(docs[i], "results"), j, e)
			if (strcmp(nb_jstr(e, "status"), "ok")) {
				nb_summary_add(s->lines, "warning", "warn", "not measured: %s "
					       "on %s (%s): %s", nb_jstr(e, "workload"),
					       nb_jstr(e, "target"), base_name(paths[i]),
					       nb_jstr(e, "status"));
				if (*nb_jstr(e, "reason")) {
					snprintf(full, sizeof(full), "%s: %s", nb_jstr(
						json_array_get(s->lines, json_array_size(
							s->lines) - 1), "text"),
						 nb_jstr(e, "reason"));
					nb_summary_short(s->lines, full);
				}
			}
	}
	for (size_t i = 0; i < s->nit; i++) {
		size_t n = json_array_size(json_object_get(s->it[i].e, "iterations"));

		if (n < NB_FEW_ITERATIONS) {
			few++;
			minit = !minit || n < minit ? n : minit;
		}
	}
	if (!few)
		return;
	snprintf(full, sizeof(full), "low confidence: %zu of %zu figures rest on "
		 "fewer than %d iterations (n=%zu): a difference within the "
		 "run-to-run noise cannot be told apart (run 5 or more)", few, s->nit,
		 NB_FEW_ITERATIONS, minit);
	nb_summary_add(s->lines, "warning", "warn", "low confidence: %zu figure%s "
		       "from fewer than %d iterations; run 5 or more", few,
		       few == 1 ? "" : "s", NB_FEW_ITERATIONS);
	nb_summary_short(s->lines, full);
}

void nb_summary_order(json_t *lines)
{
	json_t *all = json_copy(lines), *x;
	size_t i, nd = 0;

	json_array_clear(lines);
	json_array_foreach(all, i, x)
		if (!strcmp(nb_jstr(x, "kind"), "decision") && nd++ >= NB_DECIDE_MAX)
			json_object_set_new(x, "fold", json_true());
	for (int pass = 0; pass < 3; pass++)
		json_array_foreach(all, i, x) {
			int fold = json_is_true(json_object_get(x, "fold"));
			int dec = !strcmp(nb_jstr(x, "kind"), "decision");

			if ((pass == 0 && dec && !fold) || (pass == 1 && !dec && !fold) ||
			    (pass == 2 && fold))
				json_array_append(lines, x);
		}
	json_decref(all);
}

json_t *nb_summary_new(json_t *const *docs, const char *const *paths,
		       size_t ndocs, const struct nb_bands *b)
{
	struct nb_sctx s = { .keep = json_array(), .lines = json_array(),
			     .evidence = json_array(), .bands = b };
	size_t cap = 0;

	for (size_t i = 0; i < ndocs; i++) {
		const json_t *e;
		size_t j;

		json_array_foreach(json_object_get(docs[i], "results"), j, e) {
			/* a failure walk's questions are its healthy box's */
			if (strcmp(nb_jstr(e, "status"), "ok") ||
			    !json_array_size(json_object_get(e, "iterations")) ||
			    nb_box_state(nb_jstr(e, "state")) > 0)
				continue;
			if (s.nit == cap)
				s.it = realloc(s.it, (cap = cap ? 2 * cap : 16) * sizeof(*s.it));
			s.it[s.nit++] = (struct nb_sitem){ docs[i], e, paths[i], (int)i };
		}
	}
	nb_summary_winners(&s);
	if (b)
		nb_summary_bands(&s, docs, paths, ndocs);
	else
		nb_decide_dims(&s);
	nb_decide_lead(&s, docs, paths, ndocs);
	accept_lines(&s, docs, paths, ndocs);
	capacity_lines(&s);
	crash_lines(&s, docs, paths, ndocs);
	failure_lines(&s, docs, paths, ndocs);
	steady_lines(&s);
	warning_lines(&s);
	run_lines(&s, docs, paths, ndocs);
	nb_decide_detail(&s);
	nb_summary_order(s.lines);
	free(s.it);
	json_decref(s.keep);
	json_decref(s.evidence);
	return s.lines;
}

static const char *level_word(const json_t *line)
{
	const char *l = nb_jstr(line, "level");

	return !strcmp(l, "fail") ? "FAIL" : !strcmp(l, "warn") ? "warning" : "";
}

static int is_fold(const json_t *x)
{
	return json_is_true(json_object_get(x, "fold"));
}

static int is_decision(const json_t *x)
{
	return !strcmp(nb_jstr(x, "kind"), "decision");
}

/* The detail's lines: the folded ones and the full text of the short. */
static size_t ndetail(const json_t *lines)
{
	const json_t *x;
	size_t i, n = 0;

	json_array_foreach(lines, i, x)
		n += is_fold(x) || json_object_get(x, "detail");
	return n;
}

/* "Detail: 24 comparisons per workload and target, 2 warnings in full" */
static void detail_title(const json_t *lines, char *out, size_t len)
{
	size_t ncmp = 0, nfull = 0, nother = 0, i, l;
	const json_t *x;

	json_array_foreach(lines, i, x) {
		ncmp += is_fold(x) && !strcmp(nb_jstr(x, "kind"), "detail");
		nother += is_fold(x) && strcmp(nb_jstr(x, "kind"), "detail");
		nfull += json_object_get(x, "detail") != NULL;
	}
	l = (size_t)snprintf(out, len, "Detail");
	if (ncmp)
		l += (size_t)snprintf(out + l, l < len ? len - l : 0, "%s %zu comparison%s "
				      "per workload and target", l > 6 ? "," : ":", ncmp,
				      ncmp == 1 ? "" : "s");
	if (nother)
		l += (size_t)snprintf(out + l, l < len ? len - l : 0, "%s %zu %sline%s",
				      l > 6 ? "," : ":", nother, l > 6 ? "more " : "",
				      nother == 1 ? "" : "s");
	if (nfull)
		snprintf(out + l, l < len ? len - l : 0, "%s %zu warning%s in full",
			 l > 6 ? "," : ":", nfull, nfull == 1 ? "" : "s");
}

/* The text the detail shows of line X. */
static const char *full_text(const json_t *x)
{
	return json_object_get(x, "detail") ? nb_jstr(x, "detail") : nb_jstr(x, "text");
}

void nb_summary_text(FILE *out, const json_t *lines)
{
	const json_t *x;
	size_t i, nd = 0, shown = 0;

	json_array_foreach(lines, i, x) {
		nd += is_decision(x) && !is_fold(x);
		shown += !is_fold(x);
	}
	if (!shown)
		return;
	fputs(nd ? "decisions\n" : "summary\n", out);
	json_array_foreach(lines, i, x)
		if (!is_fold(x)) {
			fprintf(out, "  %s%s", level_word(x), *level_word(x) ? ": " : "");
			nb_term_escape(out, nb_jstr(x, "text"));
			fputc('\n', out);
		}
}

void nb_summary_markdown(FILE *out, const json_t *lines)
{
	const json_t *x;
	size_t i;
	char title[256];

	if (!json_array_size(lines))
		return;
	fputs("## Summary\n\n", out);
	json_array_foreach(lines, i, x) {
		if (is_fold(x))
			continue;
		fputs("- ", out);
		if (*level_word(x))
			fprintf(out, "**%s:** ", level_word(x));
		nb_md_escape(out, nb_jstr(x, "text"));
		fputc('\n', out);
	}
	fputc('\n', out);
	if (!ndetail(lines))
		return;
	detail_title(lines, title, sizeof(title));
	fputs("<details><summary>", out), nb_md_escape(out, title);
	fputs("</summary>\n\n", out);
	json_array_foreach(lines, i, x)
		if (is_fold(x) || json_object_get(x, "detail")) {
			fputs("- ", out);
			if (*level_word(x))
				fprintf(out, "**%s:** ", level_word(x));
			nb_md_escape(out, full_text(x));
			fputc('\n', out);
		}
	fputs("\n</details>\n\n", out);
}

static void html_item(FILE *out, const json_t *x, const char *text)
{
	fputs("<li class=\"", out), nb_xml_escape(out, nb_jstr(x, "level"));
	fputs("\">", out);
	if (*level_word(x))
		fprintf(out, "<strong>%s:</strong> ", level_word(x));
	nb_xml_escape(out, text);
	fputs("</li>\n", out);
}

/* The lines of LINES that are decisions (DEC) or not, and not folded, as
 * a list of class CLS. */
static void html_list(FILE *out, const json_t *lines, int dec, const char *cls)
{
	const json_t *x;
	size_t i, n = 0;

	json_array_foreach(lines, i, x)
		if (!is_fold(x) && is_decision(x) == dec) {
			if (!n++)
				fprintf(out, "<ul class=\"%s\">\n", cls);
			html_item(out, x, nb_jstr(x, "text"));
		}
	if (n)
		fputs("</ul>\n", out);
}

void nb_summary_html(FILE *out, const json_t *lines)
{
	const json_t *x;
	size_t i;
	char title[256];

	fputs("<section id=\"summary\">\n<h2>Summary</h2>\n", out);
	html_list(out, lines, 1, "decisions");
	html_list(out, lines, 0, "notes");
	if (!json_array_size(lines))
		fputs("<ul>\n<li>nothing to decide: one configuration, no "
		      "warning</li>\n</ul>\n", out);
	if (ndetail(lines)) {
		detail_title(lines, title, sizeof(title));
		fputs("<details><summary>", out), nb_xml_escape(out, title);
		fputs("</summary>\n<ul>\n", out);
		json_array_foreach(lines, i, x)
			if (is_fold(x) || json_object_get(x, "detail"))
				html_item(out, x, full_text(x));
		fputs("</ul>\n</details>\n", out);
	}
	fputs("</section>\n", out);
}
