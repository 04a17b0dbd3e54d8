/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - 'nasbench report': many results -> one directory with
 * report.html (self-contained, charts inline as SVG), report.md, and the
 * PNG/SVG charts with the gnuplot scripts that drew them.
 *
 * A configuration is the set of labels that differ between the results
 * (layout x slog x sync x platform, ...); results with the same labels are
 * repeated runs of one configuration and their iterations are pooled.
 * With no differing label, each file is its own configuration.
 */
#ifndef NB_REPORT_REPORT_H
#define NB_REPORT_REPORT_H

#include <jansson.h>
#include <stdio.h>

struct nb_report;

/* Build the model of NDOCS loaded results (borrowed; PATHS name them). */
struct nb_report *nb_report_new(json_t *const *docs, const char *const *paths,
				size_t ndocs);
void nb_report_free(struct nb_report *r);

/* The configuration grid (grid.c): ROWS and COLS are
 * comma-separated dimensions (labels; workload, target, runner, file;
 * spec.rw, spec.sync, spec.bs ... of what ran), NULL for the default
 * (the two labels with the most values); BASELINE "key=value,..." the
 * cells every other is compared with (NULL: the first row's); METRIC a
 * metric name (NULL: each workload's primary figure).  0, or -EINVAL with
 * the message set.  Without this call the report has no grid. */
int nb_report_grid(struct nb_report *r, const char *rows, const char *cols,
		   const char *baseline, const char *metric);

/* Include a plan (plan_section.c): PLAN is a plan file's document, read
 * and checked by hw/ (nb_planner_load) with its "measured" those of these
 * results (nb_planner_measure_all); PATH names the file.  The report gets a
 * "Plan" section after the grid: the layouts side by side, then the
 * measured figures beside the expected.  Takes a reference to PLAN;
 * PATH is borrowed. */
void nb_report_plan(struct nb_report *r, json_t *plan, const char *path);

/* Judge each result after the first against the first with the
 * viability bands B (copied): their verdicts open the summary. */
struct nb_bands;
void nb_report_bands(struct nb_report *r, const struct nb_bands *b);

/* The decision summary, the grid and nothing else, as Markdown for a
 * pull-request comment: at most NB_REPORT_PR_MAX characters (grids that
 * do not fit are left out, and it says how many).  0 or -errno. */
#define NB_REPORT_PR_MAX 65000
int nb_report_markdown_pr(const struct nb_report *r, FILE *out);

/* Write every chart's .gp script into DIR; *NAMES (malloc'd array of
 * malloc'd stems, *N of them) says which.  0 or -errno. */
int nb_report_charts(struct nb_report *r, const char *dir, char ***names,
		     size_t *n);

/* Leave the charts out of the documents; WHY (or NULL) is said in them
 * ("cannot run 'gnuplot': not found ..."). */
void nb_report_skip_charts(struct nb_report *r, const char *why);

/* The two documents.  HTML embeds DIR/<chart>.svg; Markdown links the
 * PNGs.  0 or -errno (message names the missing chart). */
int nb_report_markdown(const struct nb_report *r, FILE *out);
int nb_report_html(const struct nb_report *r, const char *dir, FILE *out);

/* The decisions and what must not be missed, for a terminal (the end of
 * 'nasbench report'): the summary's lines that are not detail. */
void nb_report_text(const struct nb_report *r, FILE *out);

#endif
