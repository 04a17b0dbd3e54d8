/*
 * conform.h - the conformance workload ("does the target speak its
 *             protocol correctly?"): conform.c runs it, conform_iscsi.c
 *             (iscsi-test-cu) and conform_nfs.c (NFS datastore semantics)
 *             check one protocol each.
 *
 * Metrics: conform_passed, conform_failed.  The iteration's "conformance"
 * holds { "tool", "tests": [ { "name", "status": "pass"|"fail",
 * "message" } ], "notes": [...] }.
 */
#ifndef NB_CONFORM_H
#define NB_CONFORM_H

#include <jansson.h>

#include "workload.h"

/* The tests of one iteration, as the result records them. */
struct nb_conform_tests {
	json_t *list;            /* [ { "name", "status", "message" } ] */
	int passed, failed;
};

/* Record test NAME: passed when OK, else failed with MSG (may be NULL). */
void nb_conform_add(struct nb_conform_tests *ts, const char *name, int ok,
		    const char *msg);

/* The iscsi-test-cu tests run (its -t argument). */
extern const char nb_conform_iscsi_subset[];

/* Run iscsi-test-cu on the LUN: its tests into TS, its command line and
 * notes into CONF.  0; -EINVAL (no destroy-data, a window); -EIO (missing,
 * crashing, unable to log in); -EINTR. */
int nb_conform_iscsi(struct nb_wl_ctx *c, struct nb_conform_tests *ts,
		     json_t *conf);

/* Zero the start of the LUN after iscsi-test-cu, so it reads as a fresh
 * one.  0 or -errno. */
int nb_conform_leave_fresh(struct nb_wl_ctx *c);

/* The NFS checks through two more connections to the target: into TS.
 * 0, or -errno when a check could not be made at all. */
int nb_conform_nfs(struct nb_wl_ctx *c, struct nb_conform_tests *ts);

#endif
