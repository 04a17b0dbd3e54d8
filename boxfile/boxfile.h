/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boxfile.h - a box file written for you ('nasbench init'): each target
 * probed the way a run would open it, the box asked over the telemetry's
 * SSH, the question turned into a suite and criteria, all written as a
 * commented box file that 'nasbench run' takes unchanged.
 *
 * A probe writes nothing a run would not: a directory target gets the
 * run's scratch directory made and removed again (that is what proves it
 * writable); a LUN or device is only read (its size, and the data-loss
 * guard's look at its start and end).  A target that holds data goes into
 * the file commented out, so nothing is ever written to it unless its
 * owner says so.
 */
#ifndef NB_BOXFILE_H
#define NB_BOXFILE_H

#include <stdint.h>
#include <stdio.h>

#include "../core/config.h"
#include "../telemetry/telem_pool.h"

/* What the probe of one target found. */
enum nb_probe_state {
	NB_PROBE_OK = 0,         /* reachable, and a run can write to it */
	NB_PROBE_HOLDS_DATA,     /* a LUN or device holding data: left out */
	NB_PROBE_READ_ONLY,      /* reachable, not writable */
	NB_PROBE_UNREACHABLE,    /* could not be opened: cause says why */
};

struct nb_probe_target {
	const struct nb_target_cfg *cfg;
	int state;               /* enum nb_probe_state */
	char desc[1100];         /* the URL without its password */
	char runner[16];         /* posix, nfs, iscsi */
	int block;               /* a LUN, device or file used whole */
	uint64_t capacity;       /* block: its bytes */
	uint32_t block_size;     /* block: its logical block size */
	uint64_t avail;          /* a directory: bytes free (0: not said) */
	uint64_t rtt_ns;         /* one protocol round trip (0: none) */
	char holds[160];         /* NB_PROBE_HOLDS_DATA: what */
	char cause[512];         /* READ_ONLY, UNREACHABLE: why */
};

/* What the box said of itself over SSH ([box] monitor). */
struct nb_probe_box {
	char monitor[512];       /* "" when no box was asked */
	char identity[1024];     /* ssh's key, as given ("": ssh's own) */
	char known_hosts[1024];  /* ssh's known_hosts, as given ("": ssh's own) */
	int reached;
	char cause[512];         /* not reached: why */
	char os[16];             /* linux, freebsd */
	uint64_t ram;            /* bytes (0: not said) */
	int npools;
	char pool[4][64];        /* name */
	char layout[4][32];      /* raidz1, raid10 ... ("": not read) */
	int disks[4];            /* data disks (logs, caches, spares aside) */
	int logs[4];             /* log, cache and spare devices */
	char state[4][16];
};

/* The question the box file answers (--for). */
struct nb_question {
	const char *name;        /* buy, tune, gate */
	const char *asks;        /* in the user's words */
	const char *suite;
	int iterations;
	const char *why;         /* why this suite answers it */
};

/* The question called NAME, or NULL (the choices: nb_questions()). */
const struct nb_question *nb_question_find(const char *name);
/* "buy|tune|gate" */
const char *nb_questions(void);

/* Probe target CFG (RUN_ID names the scratch directory made and removed
 * on a directory) into *OUT.  Never fails: what went wrong is OUT's
 * state and cause. */
void nb_probe_target(const struct nb_target_cfg *cfg, const char *run_id,
		     struct nb_probe_target *out);

/* Ask the box at MONITOR (ssh://...) for its system, memory and pools,
 * with ssh's IDENTITY and KNOWN_HOSTS (NULL: ssh's own).  Never fails:
 * OUT->reached and OUT->cause say. */
void nb_probe_box(const char *monitor, const char *identity,
		  const char *known_hosts, struct nb_probe_box *out);

/* Pool P's layout as the box file says it (raidz1, 2xraidz2, mirror,
 * raid10, single, stripe; "" when mixed) into LAYOUT, its disks (a
 * vdev's members, a disk being replaced counted once) and its log,
 * cache and spare devices. */
void nb_probe_pool_layout(const struct nb_tp_pool *p, char *layout, size_t len,
			  int *disks, int *logs);

/* Write the box file for Q, the box B (NULL: none asked) and the N
 * targets T to OUT; PATH is where it will live (for the next commands).
 * Returns the number of targets a run will use. */
int nb_boxfile_write(FILE *out, const char *path, const char *name,
		     const struct nb_question *q, const struct nb_probe_box *b,
		     const struct nb_probe_target *t, int n);

#endif
