/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * growth.h - how fast a box's load grows, and how many years a box holds.
 *
 * A growth rate is what a user expects of the coming years:
 *
 *     25%/year      the load multiplies by 1.25 each year (compounded);
 *                   also "25%", "25%/yr", "25% a year", "25% per year"
 *     4vms/year     four more VMs a year, each like the average VM of
 *                   today's population; also "4 VMs/year", "4 VMs a year"
 *
 * A candidate's headroom is the largest scale of today's load at which it
 * still meets the objective (the replay finds it: 1x, 1.25x, 1.5x ...).
 * The years it holds:
 *
 *     a rate g         years = ln(headroom) / ln(1 + g)
 *     k VMs a year     years = (headroom - 1) * N / k   (N VMs today)
 *
 * Pure functions: nothing is read or printed (docs/capture.md).
 */
#ifndef NB_GROWTH_H
#define NB_GROWTH_H

#include <stddef.h>

enum nb_growth_kind { NB_GROWTH_NONE, NB_GROWTH_RATE, NB_GROWTH_VMS };

struct nb_growth {
	int kind;                /* enum nb_growth_kind */
	double value;            /* RATE: 0.25 for 25%/year; VMS: VMs a year */
};

/* Limits of a sensible rate: above 0, at most 1000%/year; at most a
 * million VMs a year. */
#define NB_GROWTH_MAX_PCT 1000.0
#define NB_GROWTH_MAX_VMS 1e6

/* S into *G.  0, or -EINVAL with the reason set: "invalid growth 'x':
 * expected a rate such as 25%/year or VMs a year such as 4vms/year". */
int nb_growth_parse(const char *s, struct nb_growth *g);

/* The same, for a knob row's .check (core/knobs.h). */
int nb_growth_check(const char *s);

/* The years a box of HEADROOM holds under growth G, with VMS VMs today
 * (used by VMs a year).  0 when HEADROOM <= 1 (it does not hold today's
 * load, or holds no more); HUGE_VAL when G grows nothing (NONE) and
 * HEADROOM > 1; -1 when G is VMs a year and VMS <= 0 (unknown). */
double nb_growth_years(const struct nb_growth *g, double headroom, double vms);

/* The headroom needed to hold YEARS under G (the inverse): (1 + g)^years,
 * or 1 + years * k / VMS.  -1 when it cannot be said (VMS <= 0). */
double nb_growth_headroom(const struct nb_growth *g, double years, double vms);

/* G as a user writes it: "25%/year", "4 VMs/year", "none". */
char *nb_growth_fmt(const struct nb_growth *g, char *buf, size_t len);

#endif
