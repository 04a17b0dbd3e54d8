/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse_int.h - what parse.c and table.c share (not a public header);
 * lines, words and digits are read as boxparse/text.h reads them. */
#ifndef NB_CAPTURE_PARSE_INT_H
#define NB_CAPTURE_PARSE_INT_H

#include "parse.h"
#include "../boxparse/text.h"

#include <stddef.h>

/* The most a figure of a tool may be: 2^64. */
#define NB_CPI_MAX 18446744073709551616.0

/* S all a number, finite, from 0 to NB_CPI_MAX: 0, else -1. */
int nb_cpi_num(const char *s, double *v);
/* A new device NAME of D (its name carried as core/boxtext.h makes it);
 * NULL when D is full. */
struct nb_cp_dev *nb_cpi_dev_add(struct nb_cp_devs *d, const char *name);
/* A device of D refused: counted, the first named. */
void nb_cpi_refused(struct nb_cp_devs *d, const char *name);

#endif
