/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bands.h - the viability bands: "a 10% loss is viable, twice as long is
 * not, anything in between needs a decision" (the second user story).
 *
 * A figure of NEW against BASE is put as its time factor: how many times
 * as long the same work takes on NEW.  For a figure where more is better
 * (MB/s, IOPS) that is base / new; where less is better (latency, seconds)
 * new / base.  1.58 is "1.58x the time" (put_block 343719 -> 217553 K/s).
 *
 * Bands are two limits, VIABLE,NOT-VIABLE (`compare --bands 10%,2x`):
 *   "N%"  a loss of N% of the figure's performance, 0 < N < 100:
 *         time factor 1 / (1 - N/100) (10% -> 1.11x; MB/s down 10%,
 *         latency up 11%)
 *   "Nx"  N times the time, N > 1 (2x: MB/s halved, latency doubled)
 * A time factor <= the first limit is VIABLE (a gain is viable too),
 * >= the second is NOT VIABLE, in between DECIDE.  The first limit must
 * be below the second.
 *
 * Rules (a gate file's [bands] section, a workload's "bands" key) refine
 * the default per metric or per workload: workload > metric > default.
 *
 * Pure: no I/O.  Exit statuses: viable 0, not viable 1, decide 4
 * (NB_EXIT_DECIDE).
 */
#ifndef NB_BANDS_H
#define NB_BANDS_H

#include <stddef.h>

enum nb_band {
	NB_BAND_NONE = 0,        /* no verdict: no bands, a figure missing */
	NB_BAND_VIABLE,
	NB_BAND_DECIDE,
	NB_BAND_NOT_VIABLE,
};

struct nb_bands {
	double viable;           /* time factor limits, 1 < viable < not */
	double not_viable;
	char text[48];           /* as given, normalised: "10%,2x" */
};

#define NB_BANDS_MAX_RULES 64

struct nb_bands_rule {
	char workload[128];      /* "" = any */
	char metric[64];         /* stored metric name; "" = any */
	struct nb_bands b;
	int used;                /* nb_bands_for() chose it */
	int line;                /* where a file gave it, or 0 */
};

struct nb_bands_set {
	int on;                  /* a default was given */
	struct nb_bands def;
	int nrules;
	struct nb_bands_rule rules[NB_BANDS_MAX_RULES];
};

/* The accepted forms, for messages. */
#define NB_BANDS_FORMS "VIABLE,NOT-VIABLE, each a loss 'N%' (0 < N < 100) " \
	"or a time factor 'Nx' (N > 1), the first below the second, " \
	"e.g. '10%,2x'"

/* Parse "10%,2x".  WHAT names the option or key for the message
 * ("--bands", "gate.ini:4: bands").  0, or -EINVAL with
 * "WHAT: invalid bands 'S' (use ...)" set. */
int nb_bands_parse(const char *what, const char *s, struct nb_bands *out);

void nb_bands_set_init(struct nb_bands_set *set);

/* A rule for WORKLOAD ("" any) and METRIC (a user or stored name, "" any)
 * from text S; WHAT as for nb_bands_parse.  0 or -EINVAL (message set). */
int nb_bands_set_rule(struct nb_bands_set *set, const char *workload,
		      const char *metric, const char *what, const char *s);

/* The bands for METRIC of WORKLOAD (marks the rule used), or NULL when
 * the set has neither a default nor a rule that matches.  *NAMED (may be
 * NULL) is set when a rule names the metric. */
const struct nb_bands *nb_bands_for(struct nb_bands_set *set,
				    const char *workload, const char *metric,
				    int *named);

/* BETTER is enum nb_better (core/metrics.h): the time factor of NEW
 * against BASE, or 0 when it has none (a figure <= 0, no direction). */
double nb_bands_time(double base, double new_value, int better);

/* The verdict of time factor T under B (NB_BAND_NONE for T <= 0). */
enum nb_band nb_bands_judge(const struct nb_bands *b, double t);

/* The worse of two verdicts (NONE counts for nothing). */
enum nb_band nb_bands_worst(enum nb_band a, enum nb_band b);

/* "viable", "decide", "not viable", "" for NONE. */
const char *nb_bands_word(enum nb_band v);

/* The exit status of an overall verdict: 0 viable (or none), 1 not
 * viable, 4 decide. */
int nb_bands_exit(enum nb_band v);

/* "1.58x the time", "0.80x the time" into BUF; "" for T <= 0. */
char *nb_bands_fmt_time(double t, char *buf, size_t len);

/* Whether a band verdict is given on METRIC (stored name) of a workload
 * whose verdict metric is PRIMARY: the primary metric, and the other
 * throughput figures of its phases ("*_bw_bytes": bonnie's get_block,
 * bigfile's verify), not the client's data generation. */
int nb_bands_judged(const char *metric, const char *primary);

#endif
