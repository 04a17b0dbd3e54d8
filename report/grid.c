/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grid.c - the configuration grid of 'nasbench report': the
 * dimensions the results vary in (labels, target, workload, what ran),
 * two sets of them as rows and columns, each cell the primary metric of
 * the workload (median, spread, n) and its change against a baseline.
 *
 * Every workload entry of every result is an item with a value for each
 * dimension.  The dimensions that are neither rows nor columns and still
 * differ inside one cell split the grid into several (facets: one grid per
 * workload, usually); the others follow from the rows and columns (the
 * 'disks' label of a platform) and are left out.
 */
#include "grid.h"
#include "../decision/summary.h"
#include "../formats/text.h"
#include "../core/err.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/stats.h"
#include "../core/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Entry E's figure in a cell: --metric's, else its primary figure (the
 * one compare's verdicts use, nb_summary_primary). */
static const char *primary(const struct grid *g, const json_t *e)
{
	return g->metric ? g->metric : nb_summary_primary(e);
}

struct cell {
	size_t n, nitems, runs;
	double median, spread;
	char metric[64];
	int incomplete, present;
	int unsteady;            /* a steady-state run that did not settle */
	char status[256];
};

/* Pool the items whose coordinates in DIMS equal WANT. */
static void pool(const struct grid *g, const char *const *dims, size_t nd,
		 const char *want, struct cell *c)
{
	struct nb_report *r = g->r;
	json_t *docs = json_array();
	char co[2048];

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < g->nit; i++) {
		const json_t *e = g->it[i].e;
		const char *m;
		size_t j;
		json_t *d;
		int seen = 0;

		if (g->key) {
			if (strcmp(g->key[i], want))
				continue;
		} else {
			nb_grid_coords(&g->it[i], dims, nd, NULL, co, sizeof(co));
			if (strcmp(co, want))
				continue;
		}
		c->present = 1;
		if (!nb_report_entry_counts(e)) {
			if (!c->status[0])
				snprintf(c->status, sizeof(c->status), "%s", nb_jstr(e, "status"));
			continue;
		}
		m = g->it[i].metric ? g->it[i].metric : primary(g, e);
		if (!c->metric[0])
			snprintf(c->metric, sizeof(c->metric), "%s", m);
		else if (strcmp(c->metric, m))
			continue;           /* --metric-less cells of mixed workloads */
		if (strcmp(nb_jstr(e, "status"), "ok") ||
		    !json_is_true(json_object_get(g->it[i].doc, "complete")))
			c->incomplete = 1;
		if (nb_text_steady_state(e) == 0)
			c->unsteady = 1;
		c->n += (size_t)nb_result_values(e, m, r->v + c->n,
						 (int)(NB_REPORT_MAXV - c->n));
		c->nitems++;
		json_array_foreach(docs, j, d)
			seen |= d == g->it[i].doc;
		if (!seen)
			json_array_append(docs, (json_t *)g->it[i].doc);
	}
	c->runs = json_array_size(docs);
	json_decref(docs);
	if (c->n) {
		struct nb_summary s;

		nb_stats_summary(r->v, c->n, &s);
		c->median = s.median;
		c->spread = s.median != 0 && c->n > 1 ? 100 * s.stddev / fabs(s.median) : 0;
	}
}

/* "72.0 MB/s ±1% n=2" */
static void cell_text(const struct grid *g, const struct cell *c, int unit,
		      char *out, size_t len)
{
	const struct nb_metric *d = nb_metric_find(c->metric);
	double m = c->median * (g->metric ? g->factor : d->show_scale);
	size_t l;

	if (!c->n) {
		snprintf(out, len, "%s", c->present ? (c->status[0] ? c->status : "-") : "");
		return;
	}
	if (fabs(m) >= 1000 || m == 0)
		l = (size_t)snprintf(out, len, "%.0f", m);
	else if (fabs(m) >= 10)
		l = (size_t)snprintf(out, len, "%.1f", m);
	else
		l = (size_t)snprintf(out, len, "%.3g", m);
	if (unit)
		l += (size_t)snprintf(out + l, len - l, " %s",
				      g->metric ? g->metric_user : d->label);
	if (c->n > 1)
		l += (size_t)snprintf(out + l, len - l, " ±%.0f%%", c->spread);
	l += (size_t)snprintf(out + l, len - l, " n=%zu", c->n);
	if (c->runs > 1 && l < len)
		l += (size_t)snprintf(out + l, len - l, " (%zu runs)", c->runs);
	if (c->incomplete && l < len)
		l += (size_t)snprintf(out + l, len - l, " incomplete");
	if (c->unsteady && l < len)
		snprintf(out + l, len - l, " not steady");
}

static json_t *dim_label(const char *const *dims, size_t n, const char *sep)
{
	char buf[1024];
	size_t l = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && l < sizeof(buf); i++)
		l += (size_t)snprintf(buf + l, sizeof(buf) - l, "%s%s", i ? sep : "",
				      dims[i]);
	return json_string(buf);
}

/* The same in people's words (the note under the grid). */
static json_t *dim_words(const char *const *dims, size_t n)
{
	const char *w[MAXD];

	for (size_t i = 0; i < n && i < MAXD; i++)
		w[i] = nb_grid_dim_words(dims[i]);
	return dim_label(w, n < MAXD ? n : MAXD, ", ");
}

/* "layout=raidz1 slog=SSD" from "\x1f"-joined values of DIMS. */
static void kv_text(const char *const *dims, size_t n, const char *vals,
		    int with_keys, char *out, size_t len)
{
	size_t l = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n && l < len; i++) {
		size_t vl = strcspn(vals, "\x1f");

		if (with_keys && !nb_grid_is_metric_axis(dims[i]))
			l += (size_t)snprintf(out + l, len - l, "%s%s=%.*s", i ? " " : "",
					      dims[i], (int)vl, vals);
		else if (with_keys)      /* a figure's column: its name says it */
			l += (size_t)snprintf(out + l, len - l, "%s%.*s", i ? " " : "",
					      (int)vl, vals);
		else
			l += (size_t)snprintf(out + l, len - l, "%s%.*s", i ? ", " : "",
					      (int)vl, vals);
		vals += vl + (vals[vl] != '\0');
	}
}

/* The tuples of DIMS over the items of facet F (all items when F is
 * NULL), in order of appearance. */
static json_t *tuples(const struct grid *g, const char *const *dims, size_t n,
		      const char *f)
{
	json_t *out = json_array(), *seen = json_object();
	char c[2048], fc[2048];

	for (size_t i = 0; i < g->nit; i++) {
		if (f) {
			nb_grid_coords(&g->it[i], g->facets, g->nfacets, NULL, fc, sizeof(fc));
			if (strcmp(fc, f))
				continue;
		}
		nb_grid_coords(&g->it[i], dims, n, NULL, c, sizeof(c));
		if (!json_object_get(seen, c)) {
			json_object_set_new(seen, c, json_true());
			json_array_append_new(out, json_string(c));
		}
	}
	json_decref(seen);
	return out;
}

/* The coordinates of a cell: facet F, row RV, column CV, as nb_grid_coords()
 * joins them. */
static void join(char *out, size_t len, const struct grid *g, const char *f,
		 const char *rv, const char *cv)
{
	const char *parts[3] = { f, rv, cv };
	size_t have[3] = { g->nfacets, g->nrows, g->ncols }, l = 0;

	out[0] = '\0';
	for (int i = 0; i < 3; i++)
		if (have[i] && l < len)
			l += (size_t)snprintf(out + l, len - l, "%s%s", l ? "\x1f" : "",
					      parts[i] ? parts[i] : "");
}

/* The coordinates of the baseline's cell beside the cell at WANT: ours,
 * with the baseline's value where it names a dimension, into BWANT. */
static void base_coords(const struct grid *g, const char *const *dims,
			size_t nd, const char *want, char *bwant, size_t len)
{
	size_t ol = 0;
	const char *p = want;

	bwant[0] = '\0';
	for (size_t k = 0; k < nd; k++) {
		size_t vl = strcspn(p, "\x1f");
		const char *bv = json_string_value(json_object_get(g->base, dims[k]));

		ol += (size_t)snprintf(bwant + ol, len - ol, "%s%.*s", k ? "\x1f" : "",
				       bv ? (int)strlen(bv) : (int)vl, bv ? bv : p);
		p += vl + (p[vl] != '\0');
	}
}

/* Cell C (at WANT) against the baseline's: its class ("base", "same",
 * "better", "worse", or "" when there is nothing to hold it against), and
 * ", baseline" or ", +5%" appended to TEXT. */
static const char *versus_base(struct grid *g, const char *const *dims,
			       size_t nd, const char *want, const struct cell *c,
			       char *text, size_t len)
{
	size_t l = strlen(text);
	char bwant[6200];
	struct cell b;

	base_coords(g, dims, nd, want, bwant, sizeof(bwant));
	if (!strcmp(bwant, want)) {
		snprintf(text + l, len - l, ", baseline");
		return "base";
	}
	pool(g, dims, nd, bwant, &b);
	if (b.n && b.median != 0 && !strcmp(b.metric, c->metric)) {
		double pct = 100 * (c->median - b.median) / fabs(b.median);
		int better = nb_metric_find(c->metric)->better;
		double same = NB_SAME_PCT;      /* under this: not coloured */

		if (c->spread > same)
			same = c->spread;
		if (b.spread > same)
			same = b.spread;
		snprintf(text + l, len - l, ", %+.0f%%", pct);
		return fabs(pct) < same || !better ? "same" :
		       pct * better > 0 ? "better" : "worse";
	}
	return "";
}

/* The cells of facet F, ROWS x COLS, pooled into CELLS; *METRIC0 the first
 * cell's metric, *ONE_METRIC whether every cell has it. */
static void pool_cells(struct grid *g, const char *f, json_t *rows,
		       json_t *cols, const char *const *dims, size_t nd,
		       struct cell *cells, const char **metric0, int *one_metric)
{
	char want[6200];
	json_t *rv, *cv;
	size_t i, j;

	json_array_foreach(rows, i, rv)
		json_array_foreach(cols, j, cv) {
			struct cell *c = &cells[i * json_array_size(cols) + j];

			join(want, sizeof(want), g, f, json_string_value(rv),
			     json_string_value(cv));
			pool(g, dims, nd, want, c);
			if (c->n && !*metric0)
				*metric0 = c->metric;
			else if (c->n && strcmp(*metric0, c->metric))
				*one_metric = 0;
		}
}

/* The head: "layout / slog", then each column as key=value. */
static json_t *grid_head(const struct grid *g, json_t *cols)
{
	json_t *head = json_array(), *cv;
	char buf[2048];
	size_t j;

	json_array_append_new(head, dim_label(g->rows, g->nrows, " / "));
	json_array_foreach(cols, j, cv) {
		kv_text(g->cols, g->ncols, json_string_value(cv), 1, buf, sizeof(buf));
		json_array_append_new(head, json_string(buf));
	}
	return head;
}

/* Row RV of facet F: its label, then each column's cell (CELLS, one per
 * column) with its text and class. */
static json_t *grid_row(struct grid *g, const char *f, json_t *rv, json_t *cols,
			const struct cell *cells, const char *const *dims,
			size_t nd, int one_metric)
{
	json_t *row = json_array(), *cv;
	char buf[2048], want[6200];
	size_t j;

	kv_text(g->rows, g->nrows, json_string_value(rv), 0, buf, sizeof(buf));
	json_array_append_new(row, json_string(buf));
	json_array_foreach(cols, j, cv) {
		const struct cell *c = &cells[j];
		const char *cls = "";
		char text[512];

		cell_text(g, c, !one_metric && !g->metric_axis, text, sizeof(text));
		if (c->n && json_object_size(g->base)) {
			join(want, sizeof(want), g, f, json_string_value(rv),
			     json_string_value(cv));
			cls = versus_base(g, dims, nd, want, c, text, sizeof(text));
		}
		if (!c->present)
			cls = "empty";
		json_array_append_new(row, json_pack("{s:s, s:s}", "text", text,
						     "class", cls));
	}
	return row;
}

/* The title: the facet, the metric. */
static void grid_title(const struct grid *g, const char *f, int one_metric,
		       const char *metric0, char *title, size_t len)
{
	char buf[2048];
	size_t l = 0;

	title[0] = '\0';
	if (f) {
		kv_text(g->facets, g->nfacets, f, 1, buf, sizeof(buf));
		l = (size_t)snprintf(title, len, "%s: ", buf);
	}
	if (g->metric_axis)
		snprintf(title + l, len - l, "the figures (median)");
	else if (one_metric && metric0)
		snprintf(title + l, len - l, "%s (median)",
			 g->metric ? g->metric_user : nb_metric_find(metric0)->label);
	else
		snprintf(title + l, len - l, "each workload's primary figure (median)");
}

/* One grid: the facet F's cells. */
static json_t *one_grid(struct grid *g, const char *f)
{
	json_t *rows = tuples(g, g->rows, g->nrows, f);
	json_t *cols = tuples(g, g->cols, g->ncols, f);
	json_t *head = grid_head(g, cols), *body = json_array(), *rv;
	const char *dims[3 * MAXD];
	size_t nd, i, ncols = json_array_size(cols);
	char title[1024];
	struct cell *cells = calloc(json_array_size(rows) * ncols + 1, sizeof(*cells));
	const char *metric0 = NULL;
	int one_metric = 1;

	nd = nb_grid_all_dims(g, dims);
	pool_cells(g, f, rows, cols, dims, nd, cells, &metric0, &one_metric);
	json_array_foreach(rows, i, rv)
		json_array_append_new(body, grid_row(g, f, rv, cols, &cells[i * ncols],
						     dims, nd, one_metric));
	grid_title(g, f, one_metric, metric0, title, sizeof(title));
	free(cells);
	json_decref(rows);
	json_decref(cols);
	return json_pack("{s:s, s:o, s:o, s:s}", "title", title, "head", head, "rows", body,
			 "class", "grid");
}

/* A "metric" axis: each item becomes one per figure it has of MB/s,
 * IOPS and p99 latency (its headline figure when it has none of them). */
static int metric_axis(struct grid *g)
{
	static const char *const figs[] = { "bw_bytes", "iops", "lat_p99_us" };
	struct item *out;
	size_t n = 0;

	if (!nb_grid_in(g->rows, g->nrows, "metric") &&
	    !nb_grid_in(g->cols, g->ncols, "metric"))
		return 0;
	if (g->metric)
		return nb_err(-EINVAL, "--metric: the grid already has the figures "
			      "as an axis ('metric' in --rows or --cols)");
	g->metric_axis = 1;
	out = calloc(g->nit * 3 + 1, sizeof(*out));
	for (size_t i = 0; i < g->nit; i++) {
		const json_t *m = json_object_get(json_array_get(json_object_get(
			g->it[i].e, "iterations"), 0), "metrics");
		size_t had = n;

		for (size_t k = 0; k < 3; k++)
			if (json_object_get(m, figs[k])) {
				out[n] = g->it[i];
				out[n++].metric = figs[k];
			}
		if (n == had) {          /* its own headline figure */
			json_array_append_new(g->keep, json_string(primary(g, g->it[i].e)));
			out[n] = g->it[i];
			out[n++].metric = json_string_value(json_array_get(g->keep,
						json_array_size(g->keep) - 1));
		}
	}
	free(g->it);
	g->it = out;
	g->nit = n;
	return 0;
}

static int parse_base(struct grid *g, const char *s)
{
	char *copy = strdup(s), *save = NULL, buf[1024];

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');

		if (!eq) {
			nb_err(-EINVAL, "--baseline: '%s' is not KEY=VALUE "
			       "(e.g. --baseline layout=raidz1,sync=standard)", t);
			free(copy);
			return -EINVAL;
		}
		*eq = '\0';
		if (!nb_grid_known_dim(g, t)) {
			nb_grid_varying_text(g, buf, sizeof(buf));
			nb_err(-EINVAL, "--baseline: no dimension '%s'; the results vary "
			       "in %s", t, buf);
			free(copy);
			return -EINVAL;
		}
		json_object_set_new(g->base, t, json_string(eq + 1));
	}
	free(copy);
	return 0;
}

/* Every result entry of the report, one item each. */
static void collect_items(struct grid *g, const struct nb_report *r)
{
	size_t i, j, cap = 16;
	json_t *e;

	g->it = malloc(cap * sizeof(*g->it));
	for (i = 0; i < r->ndocs; i++)
		json_array_foreach(json_object_get(r->docs[i], "results"), j, e) {
			if (g->nit == cap)
				g->it = realloc(g->it, (cap *= 2) * sizeof(*g->it));
			g->it[g->nit++] = (struct item){ r->docs[i], e, r->paths[i], NULL };
		}
}

/* --metric: a known name that some result has.  0 or -EINVAL. */
static int parse_metric(struct grid *g, const char *metric)
{
	const char *stored;
	int found = 0;

	if (nb_metric_alias(metric, &stored, &g->factor))
		return nb_err(-EINVAL, "--metric: unknown metric '%s' (e.g. mb_s, "
			      "iops, p99_us, or a stored name such as lat_p99_us)",
			      metric);
	g->metric = stored;
	for (size_t i = 0; i < g->nit && !found; i++)
		found = json_object_get(json_object_get(json_array_get(
			json_object_get(g->it[i].e, "iterations"), 0), "metrics"),
			stored) != NULL;
	if (!found)
		return nb_err(-EINVAL, "--metric: no result has '%s' (e.g. mb_s, "
			      "iops, p99_us, or a stored name such as lat_p99_us)",
			      metric);
	snprintf(g->metric_user, sizeof(g->metric_user), "%s", metric);
	return 0;
}

/* --rows and --cols (the defaults where not given).  0 or -EINVAL. */
static int choose_dims(struct grid *g, const char *rows, const char *cols,
		       json_t *keep)
{
	int rc;

	if ((rows && (rc = nb_grid_parse_dims(g, "--rows", rows, g->rows, &g->nrows, keep))) ||
	    (cols && (rc = nb_grid_parse_dims(g, "--cols", cols, g->cols, &g->ncols, keep))))
		return rc;
	for (size_t i = 0; i < g->nrows; i++)
		if (nb_grid_in(g->cols, g->ncols, g->rows[i]))
			return nb_err(-EINVAL, "'%s' is in both --rows and --cols",
				      g->rows[i]);
	if (!g->nrows || !g->ncols)
		nb_grid_default_dims(g, !g->nrows, !g->ncols);
	return metric_axis(g);
}

/* --baseline names rows, columns or facets only.  0 or -EINVAL. */
static int check_base(const struct grid *g)
{
	const char *k;
	json_t *v;

	json_object_foreach(g->base, k, v)
		if (!nb_grid_in(g->rows, g->nrows, k) && !nb_grid_in(g->cols, g->ncols, k) &&
		    !nb_grid_in(g->facets, g->nfacets, k))
			return nb_err(-EINVAL, "--baseline: '%s' is not a row or column "
				      "of the grid (add it to --rows or --cols)", k);
	return 0;
}

/* Without --baseline: the first value of the first row or column that is
 * a configuration (a label, the target), not a workload. */
static void default_base(struct grid *g)
{
	const char *const *lists[2] = { g->rows, g->cols };
	size_t ns[2] = { g->nrows, g->ncols };

	for (int l = 0; l < 2 && !json_object_size(g->base); l++)
		for (size_t i = 0; i < ns[l]; i++) {
			const char *k = lists[l][i];
			json_t *vals, *v;
			size_t x;

			if (!strcmp(k, "workload") || !strncmp(k, "spec.", 5) ||
			    !strcmp(k, "file") || nb_grid_is_metric_axis(k))
				continue;
			vals = nb_grid_dim_values(g, k);
			json_array_foreach(vals, x, v)     /* not an absent label */
				if (strcmp(json_string_value(v), "-") || x + 1 ==
				    json_array_size(vals)) {
					json_object_set(g->base, k, v);
					break;
				}
			json_decref(vals);
			break;
		}
}

/* Each item's coordinates once: a cell is the items with its own. */
static void key_items(struct grid *g)
{
	const char *dims[3 * MAXD];
	size_t nd = nb_grid_all_dims(g, dims);
	char co[2048];

	g->key = calloc(g->nit + 1, sizeof(*g->key));
	for (size_t i = 0; i < g->nit; i++) {
		nb_grid_coords(&g->it[i], dims, nd, NULL, co, sizeof(co));
		g->key[i] = strdup(co);
	}
}

/* The note under the grids: its dimensions and the baseline. */
static json_t *grid_note(const struct grid *g)
{
	json_t *d = dim_words(g->rows, g->nrows), *c = dim_words(g->cols, g->ncols);
	json_t *fl = dim_words(g->facets, g->nfacets), *note;
	char bt[512] = "", vt[1024], buf[1024];
	size_t l = 0;
	const char *k;
	json_t *v;

	json_object_foreach(g->base, k, v)
		l += (size_t)snprintf(bt + l, l < sizeof(bt) ? sizeof(bt) - l : 0,
				      "%s%s=%s", l ? "," : "", k, json_string_value(v));
	nb_grid_varying_words(g, vt, sizeof(vt));
	snprintf(buf, sizeof(buf), "Rows: %s; columns: %s%s%s. The results vary "
		 "in %s. ", json_string_value(d), json_string_value(c),
		 g->nfacets ? "; one grid per " : "",
		 json_string_value(fl),
		 vt);
	note = json_pack("{s:s, s:s, s:s, s:s}", "dims", buf, "baseline", bt,
			 "rows", json_string_value(d), "cols", json_string_value(c));
	json_decref(d);
	json_decref(c);
	json_decref(fl);
	return note;
}

int nb_report_grid(struct nb_report *r, const char *rows, const char *cols,
		   const char *baseline, const char *metric)
{
	struct grid g = { .r = r, .keep = json_array() };
	json_t *keep = json_array(), *facets, *fv;
	size_t i;
	int rc = 0;

	collect_items(&g, r);
	g.base = json_object();
	if ((metric && (rc = parse_metric(&g, metric))) ||
	    (rc = choose_dims(&g, rows, cols, keep)) ||
	    (baseline && (rc = parse_base(&g, baseline))))
		goto out;
	nb_grid_find_facets(&g);
	if (baseline && (rc = check_base(&g)))
		goto out;
	if (!baseline)
		default_base(&g);
	key_items(&g);
	json_decref(r->grids);
	json_decref(r->grid_note);
	r->grids = json_array();
	facets = tuples(&g, g.facets, g.nfacets, NULL);
	json_array_foreach(facets, i, fv)
		json_array_append_new(r->grids, one_grid(&g, g.nfacets ?
							 json_string_value(fv) : NULL));
	json_decref(facets);
	r->grid_note = grid_note(&g);
out:
	for (i = 0; g.key && i < g.nit; i++)
		free(g.key[i]);
	free(g.key);
	json_decref(g.base);
	json_decref(g.keep);
	json_decref(keep);
	free(g.it);
	return rc;
}
