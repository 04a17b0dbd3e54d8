/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * history.h - results kept in an SQLite database: "is it still as fast as
 * last month?"
 *
 * The database ($NASBENCH_DB, or ~/.local/share/nasbench/history.db) is
 * created on first use, in WAL mode (readers never wait for a writer;
 * writers wait for each other up to a busy timeout), with:
 *
 *   meta    (key, value)        format = nasbench-history, schema = 1
 *   runs    (id, run_id, started, added, host, version, labels JSON,
 *            source, doc JSON)  one row per result, the whole result kept
 *   figures (run, target, workload, status, metric, n, median, spec JSON)
 *                               one row per workload and metric
 *
 * A file that is not an SQLite database, or one that is not a nasbench
 * history, is refused with a clear message (-EINVAL: exit 2) and never
 * written to.  An empty file is a new history (so concurrent first
 * writers agree).
 */
#ifndef NB_REPORT_HISTORY_H
#define NB_REPORT_HISTORY_H

#include <jansson.h>
#include <stdio.h>

struct nb_history;

/* The database's path: $NASBENCH_DB, else ~/.local/share/nasbench/history.db. */
void nb_history_path(char *buf, size_t len);

/* Open (PATH NULL: nb_history_path()), creating the file and its directory
 * when absent.  0, -EINVAL (not a history: exit 2) or -EIO, message set. */
int nb_history_open(const char *path, struct nb_history **h);
void nb_history_close(struct nb_history *h);
const char *nb_history_file(const struct nb_history *h);

/* Record a loaded result.  *ID gets its row id.  0, 1 when a run with the
 * same run_id is there already (*ID is that one), or -errno. */
int nb_history_add(struct nb_history *h, const json_t *doc, const char *source,
		   long long *id);

/* Record the result DOC of a run written to PATH (NULL: none) in the
 * default history; unless QUIET, "history: run ID (FILE)" on TTY.  0, or
 * the exit status (2: not a history, 3: cannot write it), message printed. */
int nb_history_record(const json_t *doc, const char *path, int quiet,
		      FILE *tty);

/* Label filters: "k=v" strings. */
struct nb_history_filter {
	char *const *labels;
	int nlabels;
	const char *since;       /* ISO date or time; NULL: any */
	const json_t *same_labels;   /* a labels object to equal; NULL: any */
	const char *exclude_run_id;  /* NULL: none */
	int last;                /* the newest N; 0: all */
};

/* The runs matching F, newest first: [{id, run_id, started, added, host,
 * version, labels, source, workloads}]. */
int nb_history_list(struct nb_history *h, const struct nb_history_filter *f,
		    json_t **runs);
/* The same, each run with its whole result as "doc". */
int nb_history_list_docs(struct nb_history *h, const struct nb_history_filter *f,
			 json_t **runs);

/* The stored result of RUN (a row id or a run_id).  -ENOENT when absent. */
int nb_history_get(struct nb_history *h, const char *run, json_t **doc,
		   long long *id);
int nb_history_rm(struct nb_history *h, const char *run, long long *id);

/* A baseline for NEW from the last F->last runs whose labels match (F's
 * --label filters, else the same labels as NEW), NEW's own run left out:
 * for every workload ok in them whose settings equal NEW's (when NEW has
 * it), a result entry holding the iterations of those runs, each
 * iteration tagged "run": K (compare.h tests between runs).  *NRUNS gets the runs used;
 * *NAME a description ("history: last 5 runs (12, 11, ...)").  -ENOENT
 * with a message when no run matches. */
int nb_history_baseline(struct nb_history *h, const json_t *new_,
			const struct nb_history_filter *f, json_t **base,
			int *nruns, char *name, size_t len);

/* 'history trend': a gnuplot chart per workload of its primary metric
 * over time with the baseline band (median of the previous LAST runs,
 * +- their spread), in DIR/trend.html (self-contained) and per chart
 * DIR/trend_W.svg/.png/.gp, made beside DIR and swapped in (DIR absent,
 * empty or a trend: core/outdir.h).  0 or -errno (-EEXIST: it is not). */
int nb_history_trend(struct nb_history *h, const struct nb_history_filter *f,
		     int last, const char *dir, int *ncharts);

/* Is A's labels object equal to B's? */
int nb_history_labels_equal(const json_t *a, const json_t *b);

#endif
