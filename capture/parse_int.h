/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse_int.h - what parse.c and table.c share (not a public header);
 * lines, words and digits are read by telemetry's (telem_parse.h). */
#ifndef NB_CAPTURE_PARSE_INT_H
#define NB_CAPTURE_PARSE_INT_H

#include "parse.h"
#include "../telemetry/telem_parse.h"

#include <stddef.h>

/* S all a number, 0 or more: 0, else -1. */
int nb_cpi_num(const char *s, double *v);
struct nb_cp_dev *nb_cpi_dev_add(struct nb_cp_devs *d, const char *name);

#endif
