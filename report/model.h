/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.h - the model behind 'nasbench report', shared by its
 * parts: report.c gathers the results into configurations and
 * workloads, charts.c writes the gnuplot inputs, documents.c the
 * Markdown and HTML.  Not for use outside report/: report.h is
 * the interface.
 */
#ifndef NB_REPORT_REPORT_MODEL_H
#define NB_REPORT_REPORT_MODEL_H

#include <jansson.h>
#include <stddef.h>
#include <string.h>

#include "report.h"
#include "../decision/bands.h"

#define NB_REPORT_MAXV 65536     /* pooled iterations per configuration */
#define NB_REPORT_MAX_CHARTS 12  /* a report's charts: families, not workloads */

/* A configuration: results with the same differing labels. */
struct nb_report_cfg {
	char name[256];
	json_t *docs;            /* array of borrowed results */
	json_t *labels;          /* the first result's labels */
};

/* A chart's "workload" of the failure walks' timelines (timeline.c). */
#define NB_REPORT_CHART_FAILURE (-2)

/* A chart written by nb_report_charts(). */
struct nb_report_chart {
	char name[160];
	char title[256];
	int workload;            /* index into wls, -1: across workloads */
};

struct nb_report {
	size_t ndocs;
	json_t *const *docs;     /* borrowed */
	const char *const *paths;
	json_t *keys;            /* differing label keys, matrix order */
	json_t *name_keys;       /* those of them that name configurations */
	struct nb_report_cfg *cfgs;
	size_t ncfg;
	int by_target;           /* workload key "target/workload" */
	json_t *wls;             /* workload keys in order of appearance */
	struct nb_report_chart *charts;
	size_t ncharts;
	double *v;               /* scratch for pooled values */
	json_t *grids;           /* the configuration grid (grid.c) */
	json_t *grid_note;       /* how to read it: dims, baseline, colours */
	int no_charts;           /* charts skipped */
	char skip_why[512];      /* why, "" when not said (Markdown to stdout) */
	json_t *plan;            /* nb_report_plan(), or NULL */
	struct nb_bands bands;   /* nb_report_bands() */
	int has_bands;
	const char *plan_path;
};

/* An entry counts when it is ok, or stopped with iterations finished
 * (interrupted, failed): those are shown, marked incomplete. */
int nb_report_entry_counts(const json_t *e);

/* "3155 ±9%" of N values (scaled by D's show_scale), "-" when none. */
struct nb_metric;
void nb_report_fmt(char *buf, size_t len, const double *v, size_t n,
		   const struct nb_metric *d);

/* The value of label KEY in LABELS (a result's "labels"), "-" when absent. */
const char *nb_report_label(const json_t *labels, const char *key);

/* The name of the configuration result DOC belongs to, "-" when none. */
const char *nb_report_cfg_of(const struct nb_report *r, const json_t *doc);

/* The workload key of result entry E: "workload", or "target/workload"
 * when a result has several targets. */
void nb_report_wl_key(const struct nb_report *r, const json_t *e, char *out,
		      size_t len);

/* Run the block on each entry E of configuration C for workload WL. */
#define NB_REPORT_FOR_ENTRIES(r, c, wl, e, ...)                               \
	do {                                                                   \
		json_t *doc_, *e;                                              \
		size_t i_, j_;                                                 \
		json_array_foreach((c)->docs, i_, doc_)                        \
			json_array_foreach(json_object_get(doc_, "results"), j_, e) { \
				char k_[512];                                  \
				nb_report_wl_key(r, e, k_, sizeof(k_));        \
				if (!strcmp(k_, wl)) { __VA_ARGS__ }                  \
			}                                                      \
	} while (0)

/* Pooled values of METRIC over the ok entries of C for WL, into r->v;
 * returns their count. */
size_t nb_report_pool(const struct nb_report *r, const struct nb_report_cfg *c,
		      const char *wl, const char *metric);

/* Metric names measured for WL in any configuration, display order.
 * Returns a malloc'd array of malloc'd strings; *N their count.  Free
 * with nb_report_names_free(). */
const char **nb_report_metrics(const struct nb_report *r, const char *wl,
			       size_t *n);
void nb_report_names_free(const char **names, size_t n);

/* report.c: a chart written, into R's list (WL: its workload's index, -1
 * across workloads); workload key KEY's panel name (the workload without
 * its target) and configuration C's series name there (the target and/or
 * the configuration). */
int nb_report_add_chart(struct nb_report *r, const char *name, const char *title,
			int wl);
void nb_report_panel_names(const struct nb_report *r, const char *key, size_t c,
			    char *panel, size_t plen, char *series, size_t slen);

/* bars.c: metric M across the workloads whose access pattern is not SKIP
 * (NULL: all; TITLE_SKIPPED when one was left out), and the other figures
 * one chart per unit.  0 or -errno. */
int nb_report_bars_across(struct nb_report *r, const char *dir, const char *m,
			  const char *title, int logy, const char *skip,
			  const char *title_skipped);
int nb_report_unit_charts(struct nb_report *r, const char *dir);

/* meta.c: the table of the results (file, configuration, when,
 * where, complete, acceptance), and one result's details (time, versions,
 * command, targets, hardware, labels, warnings, criteria), as tables. */
json_t *nb_report_runs(const struct nb_report *r);
json_t *nb_report_run_detail(const struct nb_report *r, size_t i);

/* timeline.c: whether a result is a failure walk (docs/failure.md); the
 * "Under failure" section as parts (as nb_report_plan_parts); each walk's
 * timeline chart into DIR (r->charts, workload NB_REPORT_CHART_FAILURE):
 * 0 or -errno. */
int nb_report_has_failure(const struct nb_report *r);
json_t *nb_report_failure_parts(const struct nb_report *r);
int nb_report_timeline_charts(struct nb_report *r, const char *dir);

/* A chart's "workload" of the replay's captured load (replay.c). */
#define NB_REPORT_CHART_REPLAY (-3)

/* replay.c: whether a result replayed a captured load (docs/replay.md);
 * the "Replay" section as parts (as nb_report_plan_parts); the captured
 * load over time, what each configuration holds across it, into DIR
 * (r->charts, workload NB_REPORT_CHART_REPLAY): 0 or -errno. */
int nb_report_has_replay(const struct nb_report *r);
json_t *nb_report_replay_parts(const struct nb_report *r);
int nb_report_replay_charts(struct nb_report *r, const char *dir);

/* A chart's "workload" of the hot-set sweeps (hotset.c). */
#define NB_REPORT_CHART_HOT (-4)

/* hotset.c: whether a result swept a hot set's size (docs/data.md); the
 * "Hot set and ARC" section as parts (as nb_report_plan_parts); each
 * workload's p99 against the hot set's size into DIR (r->charts, workload
 * NB_REPORT_CHART_HOT): 0 or -errno. */
int nb_report_has_hot(const struct nb_report *r);
json_t *nb_report_hot_parts(const struct nb_report *r);
int nb_report_hot_charts(struct nb_report *r, const char *dir);

/* plan_section.c: the Plan section of PLAN (read from PATH) as its parts,
 * in order: {"para": text}, {"caption": text}, {"table": {head, rows}}. */
json_t *nb_report_plan_parts(const json_t *plan, const char *path);

#endif
