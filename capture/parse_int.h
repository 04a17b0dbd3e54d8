/* parse_int.h - what parse.c and table.c share (not a public header). */
#ifndef NB_CAPTURE_PARSE_INT_H
#define NB_CAPTURE_PARSE_INT_H

#include "parse.h"

#include <stddef.h>

/* The next line of *P into BUF (cut to LEN); 0 at the end. */
int nb_cpi_line(const char **p, char *buf, size_t len);
/* LINE split at blanks into TOK (at most MAX); the count. */
int nb_cpi_split(char *line, char **tok, int max);
/* S is digits only. */
int nb_cpi_uint(const char *s);
/* S all a number, 0 or more: 0, else -1. */
int nb_cpi_num(const char *s, double *v);
struct nb_cp_dev *nb_cpi_dev_add(struct nb_cp_devs *d, const char *name);

#endif
