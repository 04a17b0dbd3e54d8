/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conform_check.h - the contract between the conformance workload ("does
 *             the target speak its protocol correctly?", conform.c) and
 *             the protocols' checks it runs: conform_iscsi.c
 *             (iscsi-test-cu) and conform_nfs.c (NFS datastore semantics).
 *             The protocols record their tests through conform_check.c.
 *
 * Metrics: conform_passed, conform_failed.  The iteration's "conformance"
 * holds { "tool", "tests": [ { "name", "status": "pass"|"fail",
 * "message" } ], "notes": [...] }.
 */
#ifndef NB_CONFORM_CHECK_H
#define NB_CONFORM_CHECK_H

#include <jansson.h>

#include "../workload.h"

/* The tests of one iteration, as the result records them. */
struct nb_conform_tests {
	json_t *list;            /* [ { "name", "status", "message" } ] */
	int passed, failed;
};

/* Record test NAME (conform_check.c): passed when OK, else failed with
 * MSG (may be NULL). */
void nb_conform_add(struct nb_conform_tests *ts, const char *name, int ok,
		    const char *msg);

/* One protocol's checks, which conform.c looks up by the target's runner:
 * RUN makes them, recording each test into TS and its command line and
 * notes into CONF (0; -errno when the checks could not be made at all);
 * AFTER, when set, leaves the target as the next workload expects it and
 * warns (nb_wl_warn) where it cannot. */
struct nb_conform_proto {
	const char *runner;      /* the runner's name: "iscsi", "nfs" */
	const char *tool;        /* the "tool" of the spec and the iteration */
	const char *tests;       /* the spec's "tests" (the tool's list), or NULL */
	int (*run)(struct nb_wl_ctx *c, struct nb_conform_tests *ts, json_t *conf);
	void (*after)(struct nb_wl_ctx *c);
};

/* iscsi-test-cu on the LUN (conform_iscsi.c): -EINVAL (no destroy-data, a
 * window), -EIO (missing, crashing, unable to log in), -EINTR; after it
 * the start of the LUN is zeroed, so it reads as a fresh one. */
extern const struct nb_conform_proto nb_conform_iscsi;

/* The NFS datastore checks through two more connections to the target
 * (conform_nfs.c). */
extern const struct nb_conform_proto nb_conform_nfs;

#endif
