/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opts.h - a command's options as one table: getopt_long's option list,
 *          the short-option string and the usage text come from it.
 *
 * A row with a name is an option; a row without one is a heading (help
 * set) or stands for the options of the knobs of section METAVAR
 * (core/knobs.h: --size, --timeout...), so a knob's option is declared in
 * its row only.  An option whose value is only kept names the field it
 * goes to (NB_OPT_AT) and needs no code.
 */
#ifndef NB_CMD_OPTS_H
#define NB_CMD_OPTS_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/knobs.h"

struct nb_opt {
	const char *name;        /* long option, without "--" */
	char short_opt;          /* 0: none */
	const char *metavar;     /* the value's name; NULL: takes no value */
	int id;                  /* passed to the callback (> 0, < 1000),
	                          * or NB_OPT_AT(...) */
	const char *help;        /* NULL: the command's usage text is its own */
};

/* The id of a row whose value is kept in FIELD of the payload, a TYPE: a
 * const char * set to the value, or (a row without METAVAR) an int set to
 * 1.  The callback is not called for it. */
#define NB_OPT_AT_BASE 0x10000
#define NB_OPT_AT(type, field) (NB_OPT_AT_BASE + (int)offsetof(type, field))

#define NB_OPTS_N(table) (sizeof(table) / sizeof((table)[0]))

/* Called for each option given: ID is the row's id, or 0 with K the knob
 * whose option it is; ARG the value (NULL without one).  0 or -EINVAL. */
typedef int (*nb_opt_fn)(int id, const struct nb_knob *k, char *arg,
			 void *payload);

/* Parse ARGV (ARGV[0] the command word) of command CMD ("hw": unknown
 * options say "see 'nasbench help CMD'") by OPTS (N rows) and the knob
 * rows they stand for, calling CB (NULL when every row is NB_OPT_AT);
 * optind is then the first operand, as getopt_long leaves it.  0, CB's
 * error, or -EINVAL: nb_opts_unknown()'s error, "option '--x' needs a
 * value".  Nothing is printed. */
int nb_opts_parse(const char *cmd, int argc, char **argv,
		  const struct nb_opt *opts, size_t n, nb_opt_fn cb, void *payload);

/* The error of an unknown option GIVEN (argv[optind - 1] after getopt_long
 * said '?') to command CMD ("hw plan"), whose options are LO (ended by a
 * row with a NULL name): "unknown option '--taget'; did you mean
 * '--target'?", or "unknown option '--x' (see 'nasbench help CMD')" when
 * none is near.  Every command's parser calls it.  Returns -EINVAL. */
int nb_opts_unknown(const char *cmd, const char *given, const struct option *lo);

/* --label KEY=VALUE choosing runs of the history: ARG appended to LABELS
 * (*N of at most MAX).  0, or -EINVAL ("--label: expected KEY=VALUE, not
 * 'X'"). */
int nb_opts_label_filter(char *arg, char **labels, int *n, int max);

/* --last N: a number of runs from 1 to MAX into *LAST.  0, or -EINVAL
 * ("--last: expected a number of runs (1 to MAX), not 'X'"). */
int nb_opts_last(const char *arg, long max, int *last);

/* ARG of option OPT is not one of CHOICES ('|'-separated): "--color:
 * 'alway' is not one of auto|always|never; did you mean 'always'?" (as a
 * knob's value says it).  Returns -EINVAL. */
int nb_opts_bad_choice(const char *opt, const char *arg, const char *choices);

/* ARG of option OPT as a duration ("5" seconds, "500ms", "2m") into *NS:
 * 0, or -EINVAL: "--status-interval: value '0' is too small: at least
 * 0.1 s", or the parser's "invalid duration" prefixed with OPT. */
int nb_opts_seconds(const char *opt, const char *arg, double min_s, uint64_t *ns);

/* The option lines of OPTS, headings and knob sections included. */
void nb_opts_usage(FILE *out, const struct nb_opt *opts, size_t n);

#endif
