/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv.h - results as one CSV table ('nasbench export --csv').
 */
#ifndef NB_FORMATS_CSV_H
#define NB_FORMATS_CSV_H

#include <jansson.h>
#include <stdio.h>

/* 'nasbench export --csv': NDOCS results as CSV, a row
 * per result x workload x iteration, labels and metrics as columns, and
 * a row per step of a load sweep (columns step, outstanding).  0 or -1 on
 * a write error. */
int nb_csv_write(json_t *const *docs, const char *const *paths, size_t ndocs,
		 FILE *out);

#endif
