/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_parse_int.h - what the parsers' files share (telem_parse.c: the
 * text, Linux's and the ARC's counters, the disks; telem_parse_bsd.c:
 * FreeBSD's tools).  Not a public header.
 */
#ifndef NB_TELEM_PARSE_INT_H
#define NB_TELEM_PARSE_INT_H

#include "telem_parse.h"

#include <stdint.h>

/* A line the parsers read: longer is refused whole. */
#define NB_TPI_LINE NB_BP_LINE
/* Bytes of memory: at most NB_TP_MAX_BYTES. */
#define NB_TPI_MEM_MAX ((uint64_t)NB_TP_MAX_BYTES)

/* A * B, unless it passes MAX: 0 with *OUT, else -1. */
int nb_tpi_mul_max(uint64_t a, uint64_t b, uint64_t max, uint64_t *out);
/* A CPU's ticks busy and in all, the next of CPU: 1, or 0 when full. */
int nb_tpi_cpu_add(struct nb_tp_cpu *cpu, uint64_t busy, uint64_t total);
/* The sum of COUNT counters at TOK into *SUM (each into V, when given):
 * 0, or -1 when one is not a counter or the sum passes 2^63. */
int nb_tpi_sum(char **tok, int count, uint64_t *v, uint64_t *sum);
/* The ARC's counter NAME = S, when it is one nasbench reads and S is a
 * counter (else ARC->refused counts it): 1 when taken. */
int nb_tpi_arc_take(struct nb_tp_arc *arc, const char *name, const char *s);
/* A new disk NAME of D (its name carried as core/boxtext.h makes it),
 * nothing known yet; NULL when D is full. */
struct nb_tp_disk *nb_tpi_disk_add(struct nb_tp_disks *d, const char *name);
/* A disk of D whose counters were refused: counted, the first named. */
void nb_tpi_disk_refused(struct nb_tp_disks *d, const char *name);
/* Drop the partitions of D (after every disk is in): the count left. */
int nb_tpi_drop_partitions(struct nb_tp_disks *d);

#endif
