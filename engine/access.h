/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access.h - where a random I/O falls: uniformly over the region, or on a
 *            hot spot by a distribution (docs/data.md).
 *
 * As fio's random_distribution, spelled as fio spells it:
 *
 *   uniform              every block alike (fio's "random"; the default)
 *   zipf:THETA           block k of the region (k = 1 the first) with a
 *                        chance proportional to 1 / k^THETA, THETA > 0
 *                        (1.2: a few blocks take most I/Os)
 *   pareto:H             fio's pareto: block (N - 1) U^p with U uniform,
 *                        p = log H / log(1 - H), 0 < H < 1; the first
 *                        share F of the region takes F^(1/p) of the I/Os
 *                        (0.2: 80% of the I/Os on the first 20%)
 *   zoned:IO/SIZE[:...]  the first SIZE% of the region takes IO% of the
 *                        I/Os, the next zone the next, uniform inside
 *                        each; both add up to 100, or one zone is given
 *                        and the rest of the region takes the rest
 *                        ("zoned:80/20" is 80/20:20/80)
 *
 * The hot blocks are the first of the region, hottest first: fio's
 * zipf and pareto scatter them over the file by a hash (the same law,
 * another place); here a VM's hot set is a range of its region, which the
 * block layer can count and the ARC holds or not.  Offsets come from the
 * caller's generator (core/datagen.h), so a seed gives the same ones.
 */
#ifndef NB_ACCESS_H
#define NB_ACCESS_H

#include <stddef.h>
#include <stdint.h>

#include "../core/datagen.h"

#define NB_ACCESS_ZONES 16

enum nb_dist { NB_DIST_UNIFORM = 0, NB_DIST_ZIPF, NB_DIST_PARETO, NB_DIST_ZONED };

struct nb_access {
	int dist;                /* enum nb_dist */
	double param;            /* zipf's theta, pareto's H */
	unsigned nzones;         /* NB_DIST_ZONED: percents, each adding up to 100 */
	double zone_io[NB_ACCESS_ZONES], zone_size[NB_ACCESS_ZONES];
};

/* Parse a distribution (above): 0, or -EINVAL with the detail set
 * ("random distribution 'zipf:0': ..."); OUT untouched on failure. */
int nb_access_parse(const char *s, struct nb_access *out);
/* nb_access_parse() as a knob's check: 0 or -EINVAL. */
int nb_access_check(const char *s);
/* As nb_access_parse() reads it back ("uniform", "zipf:1.2",
 * "zoned:80/20:20/80"). */
char *nb_access_str(const struct nb_access *a, char *buf, size_t len);
/* fio's random_distribution for A, into BUF; NULL when A is uniform. */
const char *nb_access_fio(const struct nb_access *a, char *buf, size_t len);

/* The expected share (0..1) of the I/Os that fall on the first FRAC (0..1)
 * of N blocks. */
double nb_access_share(const struct nb_access *a, uint64_t n, double frac);
/* The hot set: the least share of N blocks, from the start, that takes
 * SHARE (0..1) of the I/Os. */
double nb_access_hot(const struct nb_access *a, uint64_t n, double share);

/* Drawing block numbers in [0, N) by a distribution. */
struct nb_access_gen {
	int dist;
	uint64_t n;
	double theta, hx1, hn, s;        /* zipf: rejection-inversion's constants */
	double pow;                      /* pareto's exponent */
	unsigned nzones;
	double cum[NB_ACCESS_ZONES];     /* zoned: the I/O shares, summed */
	uint64_t lo[NB_ACCESS_ZONES], hi[NB_ACCESS_ZONES];
};

/* G draws from A over N >= 1 blocks. */
void nb_access_init(struct nb_access_gen *g, const struct nb_access *a,
		    uint64_t n);
/* The next block, from R. */
uint64_t nb_access_next(struct nb_access_gen *g, struct nb_rng *r);

#endif
