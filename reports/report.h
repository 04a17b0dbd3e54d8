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

/* Write every chart's .gp script into DIR; *NAMES (malloc'd array of
 * malloc'd stems, *N of them) says which.  0 or -errno. */
int nb_report_charts(struct nb_report *r, const char *dir, char ***names,
		     size_t *n);

/* The two documents.  HTML embeds DIR/<chart>.svg; Markdown links the
 * PNGs.  0 or -errno (message names the missing chart). */
int nb_report_markdown(const struct nb_report *r, FILE *out);
int nb_report_html(const struct nb_report *r, const char *dir, FILE *out);

#endif
