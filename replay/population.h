/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * population.h - a captured load offered to a candidate box (docs/replay.md):
 *            the load file's population as open-loop sources, and the
 *            scales it is offered at.
 *
 * Each VM of the load file (a class of COUNT VMs is COUNT of them) is one
 * source of the open loop (engine/engine.h, struct nb_source): its own
 * arrival process at its rate, its read share, its read and write sizes,
 * its sequential share, over a region of its own - its share of the data
 * set, the regions laid out one after the other in the file's order.
 *
 * A level is what each VM does: its busiest-hour level (NB_REPLAY_BUSY:
 * the load file's `iops`, `read`), or one bucket of its series as it was
 * (the total's peak_bucket: the busiest minute).  Request sizes are the
 * captured means, rounded to the target's blocks.
 *
 * Pure: nothing is read, run or printed.
 */
#ifndef NB_REPLAY_POPULATION_H
#define NB_REPLAY_POPULATION_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/engine.h"
#include "../loadfile/loadfile.h"

#define NB_REPLAY_BUSY (-1)              /* the busiest-hour level */
#define NB_REPLAY_SCALES 8               /* scales in a list (their rates fit
					  * [capacity] rates) */
#define NB_REPLAY_MAX_SCALE 10000.0
#define NB_REPLAY_MIN_BLOCKS 64          /* a VM's region holds at least this
					  * many of its largest requests */
#define NB_REPLAY_MAX_BS (16u << 20)     /* the largest request replayed */
#define NB_REPLAY_MAX_VMS 100000         /* sources, classes expanded */

/* "auto" (N = 0) or rising scales of today's load, "1,1.25,1.5,2" (an
 * "x" after each allowed: "1x,2x"), above 0, at most NB_REPLAY_SCALES.
 * 0, or -EINVAL with the reason set. */
int nb_replay_scales_parse(const char *s, double *list, size_t *n);
/* The same as a knob's check. */
int nb_replay_scales_check(const char *s);

/* One [vm] section of the load file as replayed. */
struct nb_replay_vm {
	int count;               /* its VMs */
	double iops;             /* each, at the level */
	double read_pct;         /* at the level */
	uint32_t bs, bs_write;   /* its read and write requests, rounded */
	double share;            /* each VM's fraction of the data set */
	uint64_t region;         /* each VM's bytes */
	uint64_t base;           /* where its first VM's region begins */
	int pattern, rand_pct;   /* as a source's */
};

struct nb_replay_pop {
	int level;               /* NB_REPLAY_BUSY or a bucket */
	uint32_t align;          /* request sizes and regions: multiples */
	uint64_t size;           /* the data set */
	int nvms;                /* the load file's sections */
	struct nb_replay_vm *vms;
	uint32_t population;     /* VMs, idle ones too */
	uint32_t idle;           /* of them, issuing nothing at the level */
	uint32_t nsrc;           /* the others: a source each */
	struct nb_source *src;
	int *src_vm;             /* each source's section */
	double iops;             /* the sources' rates together (1x) */
	double read_pct;         /* of the I/Os, weighted by rate */
	double seq_pct;          /* ... sequential */
	double mean_bytes;       /* bytes an I/O, weighted */
	uint32_t bs_max;         /* the largest request */
};

/* L's population at LEVEL over a data set of SIZE bytes, request sizes
 * and regions in multiples of ALIGN (at least 512) into POP (freed with
 * nb_replay_pop_free, also on failure).  NAME is the load file, for
 * messages.  0; -EINVAL with the reason set when the load does not fit
 * (a VM's region below NB_REPLAY_MIN_BLOCKS of its requests: the data
 * set it needs said), a level with no I/O, a bucket a VM's series lacks;
 * -ENOMEM. */
int nb_replay_population(const struct nb_load *l, const char *name, int level,
			 uint64_t size, uint32_t align, struct nb_replay_pop *pop);
void nb_replay_pop_free(struct nb_replay_pop *pop);

/* Whether every VM of L has LEVEL's bucket in its series. */
int nb_replay_has_bucket(const struct nb_load *l, int bucket);

#endif
