/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grid_dims.c - the dimensions of the configuration grid of
 * 'nasbench report': each item's value in a dimension (a label, or a
 * pseudo-dimension such as workload, target or spec.bs), which of them
 * vary, the rows and columns asked for or chosen, and the facets.
 */
#include "grid.h"
#include "../core/err.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pseudo[] = { "workload", "target", "runner",
				       "spec.pattern", "spec.rw", "spec.sync",
				       "spec.bs", "spec.qd", "spec.direct", "metric",
				       "state", "file" };
#define NPSEUDO (sizeof(pseudo) / sizeof(pseudo[0]))
/* The pseudo-dimensions as people say them (a label is its own name). */
static const char *const pseudo_words[] = { "workload", "target", "protocol",
					     "access pattern", "reads or writes",
					     "sync writes", "block size",
					     "queue depth", "page cache bypassed",
					     "figure", "box state", "result file" };
#define GRID_MAX_COLS 6          /* about one 1280 px screen of cells */

int nb_grid_is_metric_axis(const char *key)
{
	return key && !strcmp(key, "metric");
}

/* The value of dimension KEY for item IT. */
static void dim_value(const struct item *it, const char *key, char *out,
		      size_t len)
{
	if (!strcmp(key, "workload") || !strcmp(key, "target")) {
		snprintf(out, len, "%s", nb_jstr(it->e, key));
	} else if (!strcmp(key, "state")) {
		/* a failure walk's box state (docs/failure.md) */
		snprintf(out, len, "%s", *nb_jstr(it->e, "state") ?
			 nb_jstr(it->e, "state") : "-");
	} else if (!strcmp(key, "metric")) {
		snprintf(out, len, "%s", it->metric ? nb_metric_find(it->metric)->label :
			 "-");
	} else if (!strcmp(key, "runner")) {
		const json_t *t;
		size_t i;

		snprintf(out, len, "-");
		json_array_foreach(json_object_get(it->doc, "targets"), i, t)
			if (!strcmp(nb_jstr(t, "name"), nb_jstr(it->e, "target")))
				snprintf(out, len, "%s", nb_jstr(t, "runner"));
	} else if (!strcmp(key, "file")) {
		const char *b = strrchr(it->file, '/') ? strrchr(it->file, '/') + 1 :
			       it->file;
		size_t l = strlen(b);

		if (l > 5 && !strcmp(b + l - 5, ".json"))
			l -= 5;
		snprintf(out, len, "%.*s", (int)l, b);
	} else if (!strncmp(key, "spec.", 5)) {
		const json_t *v = json_object_get(json_object_get(it->e, "spec"), key + 5);

		if (json_is_string(v))
			snprintf(out, len, "%s", json_string_value(v));
		else if (json_is_boolean(v))
			snprintf(out, len, "%s", json_is_true(v) ? "yes" : "no");
		else if (json_is_integer(v) && !strcmp(key, "spec.bs"))
			nb_fmt_size((uint64_t)json_integer_value(v), out, len);
		else if (json_is_number(v))
			snprintf(out, len, "%g", json_number_value(v));
		else
			snprintf(out, len, "-");
	} else {
		snprintf(out, len, "%s", nb_report_label(json_object_get(it->doc,
								     "labels"), key));
	}
}

/* The distinct values of KEY over the items, in order of appearance. */
json_t *nb_grid_dim_values(const struct grid *g, const char *key)
{
	json_t *vals = json_array(), *seen = json_object();
	char v[256];

	for (size_t i = 0; i < g->nit; i++) {
		dim_value(&g->it[i], key, v, sizeof(v));
		if (!json_object_get(seen, v)) {
			json_object_set_new(seen, v, json_true());
			json_array_append_new(vals, json_string(v));
		}
	}
	json_decref(seen);
	return vals;
}

static size_t nvalues(const struct grid *g, const char *key)
{
	json_t *v = nb_grid_dim_values(g, key);
	size_t n = json_array_size(v);

	json_decref(v);
	return n;
}

/* Is KEY a dimension the results have (a label some result carries, or a
 * pseudo-dimension)? */
int nb_grid_known_dim(const struct grid *g, const char *key)
{
	for (size_t i = 0; i < NPSEUDO; i++)
		if (!strcmp(pseudo[i], key))
			return 1;
	for (size_t i = 0; i < g->nit; i++)
		if (json_object_get(json_object_get(g->it[i].doc, "labels"), key))
			return 1;
	return 0;
}

/* The dimensions that vary, for messages and the note: labels first. */
static json_t *varying(const struct grid *g)
{
	json_t *out = json_array(), *k;
	size_t i;

	json_array_foreach(g->r->keys, i, k)
		json_array_append(out, k);
	for (i = 0; i + 1 < NPSEUDO; i++)        /* not "file" */
		if (nvalues(g, pseudo[i]) > 1)
			json_array_append_new(out, json_string(pseudo[i]));
	return out;
}

void nb_grid_varying_text(const struct grid *g, char *out, size_t len)
{
	json_t *v = varying(g), *k;
	size_t i, n = 0;

	out[0] = '\0';
	json_array_foreach(v, i, k)
		if (n < len)
			n += (size_t)snprintf(out + n, len - n, "%s%s (%zu)", i ? ", " : "",
					      json_string_value(k),
					      nvalues(g, json_string_value(k)));
	if (!n)
		snprintf(out, len, "nothing (one configuration)");
	json_decref(v);
}

const char *nb_grid_dim_words(const char *key)
{
	for (size_t i = 0; i < NPSEUDO; i++)
		if (!strcmp(pseudo[i], key))
			return pseudo_words[i];
	return key;
}

/* "block size (4 KiB, 512 KiB)": a dimension in words with its values,
 * the first four of them. */
static size_t words_with_values(const struct grid *g, const char *key,
				char *out, size_t len)
{
	json_t *v = nb_grid_dim_values(g, key), *x;
	size_t i, n = (size_t)snprintf(out, len, "%s (", nb_grid_dim_words(key));

	json_array_foreach(v, i, x) {
		const char *s = json_string_value(x);

		if (n >= len || i > 4)
			break;
		if (!strcmp(key, "spec.pattern"))     /* as the workloads say it */
			s = !strcmp(s, "seq") ? "sequential" : !strcmp(s, "rand") ?
			    "random" : s;
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "",
				      i < 4 ? s : "...");
	}
	if (n < len)
		n += (size_t)snprintf(out + n, len - n, ")");
	json_decref(v);
	return n < len ? n : len - 1;
}

void nb_grid_varying_words(const struct grid *g, char *out, size_t len)
{
	json_t *v = varying(g), *k;
	size_t i, n = 0;

	out[0] = '\0';
	json_array_foreach(v, i, k) {
		if (n + 3 >= len)
			break;
		if (i)
			n += (size_t)snprintf(out + n, len - n, "; ");
		n += words_with_values(g, json_string_value(k), out + n, len - n);
	}
	if (!n)
		snprintf(out, len, "nothing (one configuration)");
	json_decref(v);
}

/* Split "a,b,c" into OUT (pointers into a copy kept in KEEP). */
int nb_grid_parse_dims(struct grid *g, const char *opt, const char *s,
		      const char **out, size_t *n, json_t *keep)
{
	char *copy = strdup(s), *save = NULL, buf[1024];

	*n = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		while (*t == ' ')
			t++;
		if (!nb_grid_known_dim(g, t)) {
			nb_grid_varying_text(g, buf, sizeof(buf));
			nb_err(-EINVAL, "%s: no dimension '%s'; the results vary in %s",
			       opt, t, buf);
			free(copy);
			return -EINVAL;
		}
		if (*n == MAXD) {
			free(copy);
			return nb_err(-EINVAL, "%s: more than %d dimensions", opt, MAXD);
		}
		json_array_append_new(keep, json_string(t));
		out[(*n)++] = json_string_value(json_array_get(keep,
							       json_array_size(keep) - 1));
	}
	free(copy);
	return 0;
}

size_t nb_grid_all_dims(const struct grid *g, const char **dims)
{
	size_t nd = 0;

	for (size_t i = 0; i < g->nfacets; i++)
		dims[nd++] = g->facets[i];
	for (size_t i = 0; i < g->nrows; i++)
		dims[nd++] = g->rows[i];
	for (size_t i = 0; i < g->ncols; i++)
		dims[nd++] = g->cols[i];
	return nd;
}

int nb_grid_in(const char *const *list, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], key))
			return 1;
	return 0;
}

/* Rows and columns nobody chose: the two labels with the most values;
 * with one, the workloads by it; with none, the workloads by file, or for
 * one result by target, or by figure (MB/s, IOPS, p99) on one target.  The
 * one with more values goes down when the other would be wider than
 * GRID_MAX_COLS columns. */
void nb_grid_default_dims(struct grid *g, int want_rows, int want_cols)
{
	const char *best[2] = { NULL, NULL };
	size_t nb[2] = { 0, 0 };
	json_t *k;
	size_t i;

	/* a failure walk: its box states down, so that each cell is held
	 * against the healthy row above it (the grid's baseline) */
	if (want_rows && nvalues(g, "state") > 1 && !nb_grid_in(g->rows, g->nrows,
	    "state") && !nb_grid_in(g->cols, g->ncols, "state")) {
		g->rows[g->nrows++] = "state";
		want_rows = 0;
		/* across: the configurations (the label with most values) */
		json_array_foreach(g->r->name_keys, i, k)
			if (nvalues(g, json_string_value(k)) > nb[0] &&
			    !nb_grid_in(g->cols, g->ncols, json_string_value(k)))
				best[0] = json_string_value(k),
				nb[0] = nvalues(g, best[0]);
		if (want_cols)
			g->cols[g->ncols++] = best[0] ? best[0] : g->r->ndocs > 1 ?
					      "file" : "metric";
		return;
	}
	json_array_foreach(g->r->name_keys, i, k) {
		const char *key = json_string_value(k);
		size_t n = nvalues(g, key);

		if (nb_grid_in(g->rows, g->nrows, key) || nb_grid_in(g->cols, g->ncols, key))
			continue;
		if (n > nb[0]) {
			best[1] = best[0], nb[1] = nb[0];
			best[0] = key, nb[0] = n;
		} else if (n > nb[1]) {
			best[1] = key, nb[1] = n;
		}
	}
	/* one result: its targets, or its figures (MB/s, IOPS, p99) across;
	 * never an empty axis */
	if (!best[0])
		best[0] = g->r->ndocs > 1 ? "file" : nvalues(g, "target") > 1 ?
			  "target" : "metric";
	if (!best[1] && !nb_grid_in(g->rows, g->nrows, "workload") &&
	    !nb_grid_in(g->cols, g->ncols, "workload")) {
		best[1] = best[0];   /* one dimension: the workloads down */
		best[0] = "workload";
	}
	/* at most one screen wide: the dimension with more values down */
	if (want_rows && want_cols && best[0] && best[1] &&
	    !nb_grid_is_metric_axis(best[1]) &&
	    nvalues(g, best[1]) > GRID_MAX_COLS && nvalues(g, best[0]) < nvalues(g, best[1])) {
		const char *t = best[0];

		best[0] = best[1], best[1] = t;
	}
	if (want_rows && want_cols) {
		if (best[0])
			g->rows[g->nrows++] = best[0];
		if (best[1])
			g->cols[g->ncols++] = best[1];
	} else if (want_rows && best[0]) {
		g->rows[g->nrows++] = best[0];
	} else if (want_cols && best[0]) {
		g->cols[g->ncols++] = best[0];
	}
}

/* The item's coordinates in DIMS, "\x1f"-joined. */
void nb_grid_coords(const struct item *it, const char *const *dims, size_t n,
		   const json_t *base, char *out, size_t len)
{
	size_t l = 0;
	char v[256];

	out[0] = '\0';
	for (size_t i = 0; i < n && l < len; i++) {
		const char *b = base ? json_string_value(json_object_get(base, dims[i])) :
			       NULL;

		if (b)
			snprintf(v, sizeof(v), "%s", b);
		else
			dim_value(it, dims[i], v, sizeof(v));
		l += (size_t)snprintf(out + l, len - l, "%s%s", i ? "\x1f" : "", v);
	}
}

/* The dimensions that still differ inside one cell become facets. */
void nb_grid_find_facets(struct grid *g)
{
	static const char *const order[] = { "workload", "target", "runner" };
	json_t *cand = json_array(), *k;
	size_t i;

	for (i = 0; i < 3; i++)
		json_array_append_new(cand, json_string(order[i]));
	json_array_foreach(g->r->keys, i, k)
		json_array_append(cand, k);
	for (i = 3; i + 1 < NPSEUDO; i++)
		json_array_append_new(cand, json_string(pseudo[i]));
	json_array_foreach(cand, i, k) {
		const char *key = json_string_value(k), *dims[3 * MAXD];
		json_t *seen = json_object();
		size_t nd, j;
		int differs = 0;
		char c[2048], v[256];

		if (nb_grid_in(g->rows, g->nrows, key) || nb_grid_in(g->cols, g->ncols, key) ||
		    g->nfacets == MAXD)
			goto next;
		nd = nb_grid_all_dims(g, dims);
		for (j = 0; j < g->nit && !differs; j++) {
			const char *was;

			nb_grid_coords(&g->it[j], dims, nd, NULL, c, sizeof(c));
			dim_value(&g->it[j], key, v, sizeof(v));
			was = json_string_value(json_object_get(seen, c));
			if (!was)
				json_object_set_new(seen, c, json_string(v));
			else
				differs = strcmp(was, v) != 0;
		}
		if (differs) {
			/* KEY outlives this: the strings of r->keys, or pseudo[] */
			const char *keep = key;

			for (j = 0; j < NPSEUDO; j++)
				if (!strcmp(pseudo[j], key))
					keep = pseudo[j];
			g->facets[g->nfacets++] = keep;
		}
next:
		json_decref(seen);
	}
	json_decref(cand);
}
