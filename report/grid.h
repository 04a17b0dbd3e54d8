/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grid.h - inside the configuration grid of 'nasbench report':
 * the grid model (items, the dimensions they vary in, rows, columns and
 * facets) shared by grid_dims.c, which finds the dimensions, and
 * grid.c, which pools the cells and renders the grid.
 */
#ifndef NB_REPORT_GRID_H
#define NB_REPORT_GRID_H

#include "model.h"

#include <stddef.h>

#define MAXD 32                  /* dimensions of a grid (rows, columns, facets) */

struct item {
	const json_t *doc, *e;
	const char *file;
	const char *metric;          /* the figure it stands for on a "metric"
				      * axis (one item per figure), or NULL */
};

struct grid {
	struct nb_report *r;
	struct item *it;
	size_t nit;
	const char *rows[MAXD], *cols[MAXD], *facets[MAXD];
	size_t nrows, ncols, nfacets;
	json_t *base;                /* { dim: value } */
	const char *metric;          /* stored name, NULL: each workload's primary */
	double factor;               /* stored -> the user's unit of --metric */
	char metric_user[64];
	char **key;                  /* each item's facet, row and column values */
	json_t *keep;                /* strings the items point into */
	int metric_axis;             /* "metric" is a row or column */
};

/* The distinct values of KEY over the items, in order of appearance. */
json_t *nb_grid_dim_values(const struct grid *g, const char *key);
/* 1 if KEY is a dimension the results have (a label or a pseudo-dimension). */
int nb_grid_known_dim(const struct grid *g, const char *key);
/* The dimensions that vary and their number of values, for messages. */
void nb_grid_varying_text(const struct grid *g, char *out, size_t len);
/* The same in people's words, with the values: "layout (raidz1, raid10);
 * access pattern (random, sequential); block size (4 KiB, 512 KiB)". */
void nb_grid_varying_words(const struct grid *g, char *out, size_t len);
/* A dimension's key (spec.bs) in people's words (block size); a label's
 * key is its own. */
const char *nb_grid_dim_words(const char *key);
/* Split "a,b,c" (option OPT) into OUT, the strings kept in KEEP;
 * 0, or -EINVAL with the error set. */
int nb_grid_parse_dims(struct grid *g, const char *opt, const char *s,
		       const char **out, size_t *n, json_t *keep);
/* 1 if KEY is one of the N strings of LIST. */
int nb_grid_in(const char *const *list, size_t n, const char *key);
/* Rows and/or columns nobody chose. */
void nb_grid_default_dims(struct grid *g, int want_rows, int want_cols);
/* Every dimension of G, facets, rows then columns, into DIMS (room for
 * 3 * MAXD): their number. */
size_t nb_grid_all_dims(const struct grid *g, const char **dims);
/* The item's coordinates in DIMS ("\x1f"-joined; BASE's values first). */
void nb_grid_coords(const struct item *it, const char *const *dims, size_t n,
		    const json_t *base, char *out, size_t len);
/* The dimensions that still differ inside one cell become facets. */
void nb_grid_find_facets(struct grid *g);
/* Whether KEY names the figures themselves (MB/s, IOPS, p99) as an axis. */
int nb_grid_is_metric_axis(const char *key);

#endif
