/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * documents.c - the documents of 'nasbench report': the tables (one
 * shape for both renderers), report.md and report.html with the charts
 * inline.
 */
#include "model.h"
#include "../core/escape.h"
#include "../formats/chart.h"
#include "../decision/summary.h"
#include "../core/err.h"
#include "../core/fsutil.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tables ---- */

/* Status of C's entries for WL: "" when one is ok, else "skipped: why". */
static void status_of(const struct nb_report *r, const struct nb_report_cfg *c,
		      const char *wl, char *buf, size_t len, int *present)
{
	int ok = 0;

	buf[0] = '\0';
	*present = 0;
	NB_REPORT_FOR_ENTRIES(r, c, wl, e, {
		*present = 1;
		if (!strcmp(nb_jstr(e, "status"), "ok"))
			ok = 1;
		else if (!buf[0])
			snprintf(buf, len, "%s%s%s", nb_jstr(e, "status"),
				 *nb_jstr(e, "reason") ? ": " : "", nb_jstr(e, "reason"));
	});
	if (ok)
		buf[0] = '\0';
}

/* A table as JSON: { "head": [...], "rows": [[...], ...] } - one shape for
 * both renderers. */
static json_t *wl_table(const struct nb_report *r, const char *wl)
{
	size_t nm;
	const char **ms = nb_report_metrics(r, wl, &nm);
	json_t *head = json_array(), *rows = json_array();
	int any_status = 0;

	json_array_append_new(head, json_string("configuration"));
	for (size_t i = 0; i < nm; i++)
		json_array_append_new(head, json_string(nb_metric_find(ms[i])->label));
	json_array_append_new(head, json_string("n"));
	for (size_t c = 0; c < r->ncfg; c++) {
		size_t nruns = json_array_size(r->cfgs[c].docs);

		/* the pooled row, then each run of a repeated configuration
		 * on its own: drift between runs shows */
		for (size_t run = 0; run <= (nruns > 1 ? nruns : 0); run++) {
			struct nb_report_cfg one = r->cfgs[c];
			const struct nb_report_cfg *cf = &r->cfgs[c];
			char st[512], buf[64], name[300];
			int present;
			json_t *row;
			size_t n = 0;

			snprintf(name, sizeof(name), "%s", cf->name);
			if (run) {
				json_t *d = json_array_get(cf->docs, run - 1);
				const char *p = "";

				one.docs = json_pack("[O]", d);
				cf = &one;
				for (size_t i = 0; i < r->ndocs; i++)
					if (r->docs[i] == d)
						p = strrchr(r->paths[i], '/') ?
						    strrchr(r->paths[i], '/') + 1 : r->paths[i];
				snprintf(name, sizeof(name), "\u2514 run %zu: %s", run, p);
			}
			status_of(r, cf, wl, st, sizeof(st), &present);
			if (present) {
				row = json_array();
				json_array_append_new(row, json_string(name));
				for (size_t i = 0; i < nm; i++) {
					size_t k = nb_report_pool(r, cf, wl, ms[i]);

					nb_report_fmt(buf, sizeof(buf), r->v, k,
						      nb_metric_find(ms[i]));
					json_array_append_new(row, json_string(buf));
					n = k > n ? k : n;
				}
				json_array_append_new(row, json_integer((json_int_t)n));
				json_array_append_new(row, json_string(st));
				any_status |= st[0] != 0;
				json_array_append_new(rows, row);
			}
			if (run)
				json_decref(one.docs);
			if (!present)
				break;
		}
	}
	if (any_status)
		json_array_append_new(head, json_string("status"));
	else {
		json_t *row;
		size_t i;

		json_array_foreach(rows, i, row)
			json_array_remove(row, json_array_size(row) - 1);
	}
	nb_report_names_free(ms, nm);
	return json_pack("{s:o, s:o}", "head", head, "rows", rows);
}

static json_t *cfg_table(const struct nb_report *r)
{
	json_t *head = json_array(), *rows = json_array(), *k;
	size_t i;

	json_array_append_new(head, json_string("configuration"));
	json_array_foreach(r->keys, i, k)
		json_array_append_new(head, json_incref(k));
	json_array_append_new(head, json_string("results"));
	for (size_t c = 0; c < r->ncfg; c++) {
		json_t *row = json_array();

		json_array_append_new(row, json_string(r->cfgs[c].name));
		json_array_foreach(r->keys, i, k)
			json_array_append_new(row, json_string(nb_report_label(
				r->cfgs[c].labels, json_string_value(k))));
		json_array_append_new(row, json_integer(
			(json_int_t)json_array_size(r->cfgs[c].docs)));
		json_array_append_new(rows, row);
	}
	return json_pack("{s:o, s:o}", "head", head, "rows", rows);
}

static void intro(const struct nb_report *r, char *buf, size_t len)
{
	json_t *k;
	size_t i, n;

	n = (size_t)snprintf(buf, len, "%zu result%s, %zu configuration%s",
			     r->ndocs, r->ndocs == 1 ? "" : "s", r->ncfg,
			     r->ncfg == 1 ? "" : "s");
	if (json_array_size(r->keys)) {
		n += (size_t)snprintf(buf + n, len - n, " (");
		json_array_foreach(r->keys, i, k)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
					      i ? " / " : "", json_string_value(k));
		snprintf(buf + n, n < len ? len - n : 0, ")");
	} else {
		snprintf(buf + n, len - n, " (no label differs: one per file)");
	}
}

/* How a renderer writes a table row: ROW, then per cell CELL (the first)
 * or NUM (the others), the value, CELL_END; then ROW_END.  Text goes
 * through ESC, integers as they are. */
struct row_style {
	const char *row, *cell, *num, *cell_end, *row_end;
	void (*esc)(FILE *out, const char *s);
	const char *cls;         /* a cell { "text", "class" }: printf format
				  * of its opening with the class, or NULL */
};

static void table_row(FILE *out, const json_t *row, const struct row_style *st)
{
	json_t *v;
	size_t j;

	fputs(st->row, out);
	json_array_foreach(row, j, v) {
		if (json_is_object(v) && st->cls)
			fprintf(out, st->cls, nb_jstr(v, "class"));
		else
			fputs(j ? st->num : st->cell, out);
		if (json_is_object(v))
			st->esc(out, nb_jstr(v, "text"));
		else if (json_is_integer(v))
			fprintf(out, "%lld", (long long)json_integer_value(v));
		else
			st->esc(out, json_string_value(v));
		fputs(st->cell_end, out);
	}
	fputs(st->row_end, out);
}

static void table_rows(FILE *out, const json_t *t, const struct row_style *st)
{
	json_t *row;
	size_t i;

	json_array_foreach(json_object_get(t, "rows"), i, row)
		table_row(out, row, st);
}

/* A document format: how it writes a heading, a table and the charts of
 * workload WL (-1: those across workloads). */
struct renderer {
	void (*heading)(FILE *out, const char *text);
	void (*caption)(FILE *out, const char *text);  /* a grid's title */
	void (*note)(FILE *out, const struct nb_report *r); /* how to read the grid */
	void (*table)(FILE *out, const json_t *t);
	void (*para)(FILE *out, const char *text);
	int (*charts)(FILE *out, const struct nb_report *r, const char *dir, int wl);
	/* a part shown folded (HTML <details>, closed); Markdown: a heading */
	void (*fold)(FILE *out, const char *title);
	void (*unfold)(FILE *out);
};

/* A section of PARTS (taken): paragraphs, captions and tables. */
static void parts_section(FILE *out, const char *heading, json_t *parts,
			  const struct renderer *rd)
{
	json_t *p;
	size_t i;

	rd->heading(out, heading);
	json_array_foreach(parts, i, p) {
		if (json_object_get(p, "table"))
			rd->table(out, json_object_get(p, "table"));
		else if (json_object_get(p, "caption"))
			rd->caption(out, nb_jstr(p, "caption"));
		else
			rd->para(out, nb_jstr(p, "para"));
	}
	json_decref(parts);
}

/* The plan (nb_report_plan). */
static void plan_section(FILE *out, const struct nb_report *r,
			 const struct renderer *rd)
{
	parts_section(out, "Plan", nb_report_plan_parts(r->plan, r->plan_path), rd);
}

/* The sections of a report, after its introduction and summary: the
 * grid, the plan, the charts, the configurations, then folded: each
 * workload's table and the runs. */
static int sections(FILE *out, const struct nb_report *r, const char *dir,
		    const struct renderer *rd)
{
	json_t *t;
	size_t i;

	if (r->grids) {
		rd->heading(out, "Grid");
		rd->note(out, r);
		json_array_foreach(r->grids, i, t) {
			rd->caption(out, nb_jstr(t, "title"));
			rd->table(out, t);
		}
	}
	if (r->plan)
		plan_section(out, r, rd);
	/* failure walks: the states side by side, the timeline */
	if (nb_report_has_failure(r)) {
		parts_section(out, "Under failure", nb_report_failure_parts(r), rd);
		if (rd->charts(out, r, dir, NB_REPORT_CHART_FAILURE))
			return -EIO;
	}
	/* a replay: headroom, years, the population, the load over time */
	if (nb_report_has_replay(r)) {
		parts_section(out, "Replay", nb_report_replay_parts(r), rd);
		if (rd->charts(out, r, dir, NB_REPORT_CHART_REPLAY))
			return -EIO;
	}
	/* hot-set sweeps: where the p99 doubles, what the ARC answered */
	if (nb_report_has_hot(r)) {
		parts_section(out, "Hot set and ARC", nb_report_hot_parts(r), rd);
		if (rd->charts(out, r, dir, NB_REPORT_CHART_HOT))
			return -EIO;
	}
	if (r->ncharts && !r->no_charts)
		rd->heading(out, "Charts");
	if (rd->charts(out, r, dir, -1))
		return -EIO;
	rd->heading(out, "Configurations");
	t = cfg_table(r);
	rd->table(out, t);
	json_decref(t);
	rd->heading(out, "Details");
	for (size_t w = 0; w < json_array_size(r->wls); w++) {
		const char *wl = json_string_value(json_array_get(r->wls, w));

		rd->fold(out, wl);
		t = wl_table(r, wl);
		rd->table(out, t);
		json_decref(t);
		if (rd->charts(out, r, dir, (int)w))
			return -EIO;
		rd->unfold(out);
	}
	rd->fold(out, "Runs");
	t = nb_report_runs(r);
	rd->table(out, t);
	json_decref(t);
	for (i = 0; i < r->ndocs; i++) {
		const char *p = r->paths[i];

		rd->caption(out, strrchr(p, '/') ? strrchr(p, '/') + 1 : p);
		t = nb_report_run_detail(r, i);
		rd->table(out, t);
		json_decref(t);
	}
	rd->unfold(out);
	return 0;
}

/* The decision summary of the results (with the bands, each result
 * against the first). */
static json_t *summary(const struct nb_report *r)
{
	return nb_summary_new(r->docs, r->paths, r->ndocs,
			      r->has_bands ? &r->bands : NULL);
}

void nb_report_text(const struct nb_report *r, FILE *out)
{
	json_t *lines = summary(r);

	nb_summary_text(out, lines);
	json_decref(lines);
}

/* ---- Markdown ---- */

/* "3155 ±9%", "-12.5": a figure (right-aligned); "2026-11-29T..." not. */
static int is_num(const char *s)
{
	char *end;

	if (!s || !(isdigit((unsigned char)*s) || (*s == '-' && isdigit((unsigned char)s[1]))))
		return 0;
	strtod(s, &end);
	return !*end || *end == ' ';
}

static void md_table(FILE *out, const json_t *t)
{
	static const struct row_style md = { "", "| ", "| ", " ", "|\n", nb_md_escape, NULL };
	json_t *head = json_object_get(t, "head"), *v;
	size_t i;

	table_row(out, head, &md);
	/* numbers to the right: judged by the first row */
	json_array_foreach(head, i, v) {
		json_t *c = json_array_get(json_array_get(json_object_get(t, "rows"), 0), i);
		const char *s = json_string_value(c);

		fputs(i && !json_is_true(json_object_get(t, "text")) &&
		      (json_is_integer(c) || json_is_object(c) || is_num(s)) ?
		      "|--:" : "|---", out);
	}
	fputs("|\n", out);
	table_rows(out, t, &md);
	fputc('\n', out);
}

static void md_heading(FILE *out, const char *text)
{
	fputs("## ", out), nb_md_escape(out, text), fputs("\n\n", out);
}

static void md_caption(FILE *out, const char *text)
{
	fputs("**", out), nb_md_escape(out, text), fputs("**\n\n", out);
}

static void grid_note(FILE *out, const struct nb_report *r,
		      void (*esc)(FILE *, const char *))
{
	const char *b = nb_jstr(r->grid_note, "baseline");

	esc(out, nb_jstr(r->grid_note, "dims"));
	if (*b) {
		fputs("Each cell: median ±spread n=iterations, and the change against "
		      "the baseline ", out);
		esc(out, b);
		fputs(" with everything else the same", out);
	} else {
		fputs("Each cell: median ±spread n=iterations", out);
	}
	fputs(".", out);
}

static void md_para(FILE *out, const char *text)
{
	nb_md_escape(out, text), fputs("\n\n", out);
}

static void md_note(FILE *out, const struct nb_report *r)
{
	grid_note(out, r, nb_md_escape);
	fputs("\n\n", out);
}

static int md_charts(FILE *out, const struct nb_report *r, const char *dir, int wl)
{
	(void)dir;   /* Markdown links the PNGs next to it */
	for (size_t i = 0; i < r->ncharts && !r->no_charts; i++)
		if (r->charts[i].workload == wl) {
			fputs("![", out), nb_md_escape(out, r->charts[i].title);
			fprintf(out, "](%s.png)\n\n", r->charts[i].name);
		}
	return 0;
}

static void md_fold(FILE *out, const char *title)
{
	fputs("### ", out), nb_md_escape(out, title), fputs("\n\n", out);
}

static void md_unfold(FILE *out)
{
	(void)out;
}

int nb_report_markdown(const struct nb_report *r, FILE *out)
{
	static const struct renderer md = { md_heading, md_caption, md_note,
					    md_table, md_para, md_charts, md_fold,
					    md_unfold };
	char buf[1024];
	json_t *lines = summary(r);

	intro(r, buf, sizeof(buf));
	fputs("# nasbench report\n\n", out), nb_md_escape(out, buf), fputs(".\n\n", out);
	nb_summary_markdown(out, lines);
	json_decref(lines);
	if (r->skip_why[0]) {
		fputs("Charts skipped: ", out), nb_md_escape(out, r->skip_why);
		fputs(". The gnuplot scripts (*.gp) are beside this file.\n\n", out);
	}
	return sections(out, r, NULL, &md);
}

/* The summary and the grids, at most NB_REPORT_PR_MAX characters: for a
 * pull request's comment. */
int nb_report_markdown_pr(const struct nb_report *r, FILE *out)
{
	json_t *lines = summary(r), *t;
	char *buf = NULL, intro_text[1024];
	size_t len = 0, i, kept = 0, left = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		json_decref(lines);
		return nb_err(-ENOMEM, "out of memory");
	}
	intro(r, intro_text, sizeof(intro_text));
	fputs("# nasbench report\n\n", f), nb_md_escape(f, intro_text), fputs(".\n\n", f);
	nb_summary_markdown(f, lines);
	json_decref(lines);
	if (r->grids) {
		fputs("## Grid\n\n", f);
		md_note(f, r);
	}
	json_array_foreach(r->grids, i, t) {
		long at = ftell(f);

		md_caption(f, nb_jstr(t, "title"));
		md_table(f, t);
		fflush(f);
		if (len > NB_REPORT_PR_MAX - 200) {   /* room for the note */
			fseek(f, at, SEEK_SET);
			left = json_array_size(r->grids) - kept;
			break;
		}
		kept++;
	}
	if (left)
		fprintf(f, "(%zu more grid%s in report.md: a comment holds 65536 "
			"characters)\n", left, left == 1 ? "" : "s");
	fclose(f);
	if (len > NB_REPORT_PR_MAX)
		len = NB_REPORT_PR_MAX;
	fwrite(buf, 1, len, out);
	free(buf);
	return ferror(out) ? -EIO : 0;
}

/* ---- HTML ---- */

static void html_table(FILE *out, const json_t *t)
{
	static const struct row_style head = { "<tr>", "<th>", "<th>", "</th>",
					       "</tr>\n", nb_xml_escape, NULL };
	static const struct row_style body = { "<tr>", "<td>", "<td class=\"num\">",
					       "</td>", "</tr>\n", nb_xml_escape,
					       "<td class=\"num %s\">" };

	static const struct row_style text = { "<tr>", "<td>", "<td>", "</td>",
					       "</tr>\n", nb_xml_escape, NULL };

	if (*nb_jstr(t, "class"))
		fputs("<table class=\"", out), nb_xml_escape(out, nb_jstr(t, "class")),
			fputs("\">\n", out);
	else
		fputs("<table>\n", out);
	table_row(out, json_object_get(t, "head"), &head);
	/* a table of text (a run's details) is not right-aligned */
	table_rows(out, t, json_is_true(json_object_get(t, "text")) ? &text : &body);
	fputs("</table>\n", out);
}

/* Inline DIR/NAME.svg without its XML prologue. */
static int html_svg(FILE *out, const char *dir, const struct nb_report_chart *c)
{
	char path[4400], *buf, *start;
	size_t len;
	int rc;

	snprintf(path, sizeof(path), "%s/%s.svg", dir, c->name);
	rc = nb_read_file(path, &buf, &len);
	if (rc)
		return nb_err(rc, "chart '%s' was not drawn: %s", path,
			      strerror(-rc));
	if (!len) {
		free(buf);
		return nb_err(-EIO, "chart '%s' is empty", path);
	}
	start = strstr(buf, "<svg");
	if (!start) {
		free(buf);
		return nb_err(-EIO, "chart '%s' is not SVG", path);
	}
	fputs("<figure class=\"chart\" id=\"chart-", out);
	nb_xml_escape(out, c->name);
	fputs("\">\n", out);
	nb_chart_svg_inline(out, start, c->name, c->title);
	fputs("<figcaption>", out), nb_xml_escape(out, c->title);
	fprintf(out, " (<a href=\"%s.png\">PNG</a>, <a href=\"%s.gp\">gnuplot "
		"script</a>)</figcaption>\n</figure>\n", c->name, c->name);
	free(buf);
	return 0;
}

static int html_charts(FILE *out, const struct nb_report *r, const char *dir,
		       int wl)
{
	for (size_t i = 0; i < r->ncharts && !r->no_charts; i++)
		if (r->charts[i].workload == wl && html_svg(out, dir, &r->charts[i]))
			return -EIO;
	return 0;
}

static void html_heading(FILE *out, const char *text)
{
	fputs("<h2>", out), nb_xml_escape(out, text), fputs("</h2>\n", out);
}

static void html_caption(FILE *out, const char *text)
{
	fputs("<h3>", out), nb_xml_escape(out, text), fputs("</h3>\n", out);
}

static void html_para(FILE *out, const char *text)
{
	fputs("<p>", out), nb_xml_escape(out, text), fputs("</p>\n", out);
}

static void html_note(FILE *out, const struct nb_report *r)
{
	fputs("<p>", out);
	grid_note(out, r, nb_xml_escape);
	if (*nb_jstr(r->grid_note, "baseline"))
		fputs(" <span class=\"better\">better</span> / <span class=\"worse\">"
		      "worse</span> than the baseline by more than 5% and the spread; "
		      "<span class=\"same\">within</span>; <span class=\"base\">"
		      "baseline</span>.", out);
	fputs("</p>\n", out);
}

static void html_fold(FILE *out, const char *title)
{
	fputs("<details>\n<summary>", out), nb_xml_escape(out, title);
	fputs("</summary>\n", out);
}

static void html_unfold(FILE *out)
{
	fputs("</details>\n", out);
}

int nb_report_html(const struct nb_report *r, const char *dir, FILE *out)
{
	static const struct renderer html = { html_heading, html_caption, html_note,
					      html_table, html_para, html_charts,
					      html_fold, html_unfold };
	char buf[1024];
	json_t *lines;

	intro(r, buf, sizeof(buf));
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>nasbench report</title>\n<style>\n"
	      "body { font-family: sans-serif; margin: 2em; color: #222; }\n"
	      "table { border-collapse: collapse; margin: 1em 0; }\n"
	      "th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; }\n"
	      "th { background: #f0f0f0; } td.num { text-align: right; }\n"
	      "figure.chart { margin: 1em 0; } figure.chart svg { max-width: 100%; "
	      "height: auto; }\n"
	      "figcaption { font-size: 0.9em; color: #555; }\n"
	      ".better { background: #c8ecc8; } .worse { background: #f6c6c6; }\n"
	      ".same { background: #eeeeee; } .base { background: #cfe0f6; "
	      "font-weight: bold; }\n"
	      "@media print { .better, .worse, .same, .base { -webkit-print-color-adjust: "
	      "exact; print-color-adjust: exact; } }\n"
	      "h1 { margin: 0 0 0.3em; } #summary { border: 1px solid #ccc; "
	      "background: #fafafa; padding: 0.3em 1em; margin: 0.5em 0 1em; }\n"
	      "#summary h2 { margin: 0.3em 0; font-size: 1.2em; } #summary ul { "
	      "margin: 0.3em 0; padding-left: 1.2em; }\n"
	      "#summary li.fail { color: #a00000; } #summary li.warn { color: #7a4b00; }\n"
	      "#summary ul.decisions { font-size: 1.05em; } #summary ul.decisions li { "
	      "margin: 0.2em 0; }\n"
	      "details { margin: 0.4em 0; } details > summary { cursor: pointer; "
	      "font-weight: bold; }\n"
	      "</style>\n</head>\n<body>\n<h1>nasbench report</h1>\n<p>", out);
	nb_xml_escape(out, buf);
	fputs(".</p>\n", out);
	lines = summary(r);
	nb_summary_html(out, lines);
	json_decref(lines);
	if (r->skip_why[0]) {
		fputs("<p class=\"warning\">Charts skipped: ", out);
		nb_xml_escape(out, r->skip_why);
		fputs(". The gnuplot scripts (*.gp) are beside this file.</p>\n", out);
	}
	if (sections(out, r, dir, &html))
		return -EIO;
	fputs("</body>\n</html>\n", out);
	return 0;
}
