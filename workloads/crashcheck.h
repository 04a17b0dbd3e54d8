/*
 * crashcheck.h - does an acknowledged write survive the box crashing?
 *
 * crashcheck.c writes self-describing blocks (core/datagen.h's header:
 * offset, run id, generation, checksum) with the sync semantics under test
 * and journals every acknowledged write on this client (core/journal.h)
 * before it counts it; at the crash point a [box] crash command crashes
 * the box (or the user pulls the plug); then the box is reconnected and
 * every journalled write read back (crashverify.c).  'run --verify
 * JOURNAL' does only the last part, for a journal whose run ended with
 * the client (a crashed or killed client, a manual crash).
 *
 * The journal (one line each, self-checking):
 *   h {JSON}          the header: run id, target name, URL (redacted),
 *                     runner, block or file, capacity, window offset, the
 *                     region, write size, sync mode, crash settings
 *   i ITER INDEX      iteration ITER starts at write number INDEX
 *   a OFFSET GEN      the write of bs bytes at OFFSET, generation GEN, was
 *                     acknowledged (every later one of OFFSET supersedes it)
 *   c ITER ACKED      iteration ITER reached its crash point after ACKED
 *                     acknowledged writes
 * Write number K goes to offset (K mod blocks) x bs with generation
 * K / blocks + 1: the region is swept again and again, so a lost write
 * shows as an older generation (stale) once the region was written once.
 */
#ifndef NB_WL_CRASHCHECK_H
#define NB_WL_CRASHCHECK_H

#include <jansson.h>
#include <stdint.h>

#include "workload.h"

#define NB_CRASH_BLOCK 4096u     /* the verified unit: one header each */
#define NB_CRASH_FILE "crashcheck"
#define NB_CRASH_OFFSETS 16      /* offsets kept per class in the result */

/* What a journal says: its header and, per write location, the
 * generation of the last acknowledged write there (0: never). */
struct nb_crash_journal {
	json_t *header;          /* the header object (owned) */
	char run_id[64];
	char target[64], url[1100], runner[32];
	int block;               /* a block target (LUN window), else a file */
	uint64_t capacity, window_offset, region;
	uint32_t bs;
	uint64_t nblocks;        /* region / bs */
	uint64_t *gen;           /* [nblocks] */
	uint64_t writes;         /* 'a' records */
	uint64_t next;           /* the next write number */
	int iterations;          /* 'i' records */
	uint64_t iter_acked;     /* 'a' records since the last 'i' */
	int crashed;             /* the last iteration reached its crash point */
	int torn_tail;           /* a cut-off last line was ignored */
};

/* Read journal PATH into J (free with nb_crash_journal_free).  0, or
 * -EINVAL / -errno with "journal 'PATH': ..." set. */
int nb_crash_journal_load(struct nb_crash_journal *j, const char *path);
void nb_crash_journal_free(struct nb_crash_journal *j);

/* Does open target T match journal J (the same target URL, runner, kind,
 * capacity of a block window)?  0, or -EINVAL with the reason set, before
 * anything is read from T. */
int nb_crash_journal_match(const struct nb_crash_journal *j,
			   const struct nb_target *t, const char *path);

/* What reading back every journalled write found. */
struct nb_crash_counts {
	uint64_t checked, missing, stale, torn, intact;
	json_t *offsets[3];      /* missing, stale, torn: the first NB_CRASH_OFFSETS */
};

/* Read back from T every location J holds a write for and class it:
 * intact (that generation or a newer one), stale (an older one), torn
 * (partly new, or a block whose checksum fails), lost (none of this run
 * at that offset: zeros, other data, the file gone).  0, -EINTR, or the
 * -errno of a read that failed (detail set). */
int nb_crash_verify(struct nb_wl_ctx *c, const struct nb_crash_journal *j,
		    struct nb_crash_counts *n);
void nb_crash_counts_free(struct nb_crash_counts *n);

/* The iteration's figures and its "crash" object from N (CRASH holds
 * the mode, journal, point and hook; stolen). */
void nb_crash_record(struct nb_wl_ctx *c, const struct nb_crash_counts *n,
		     uint64_t acked, json_t *crash);

/* The verdict over a crashcheck entry's iterations: { crashes,
 * crashes_losing, lost, missing, stale, torn, checked, first_losing,
 * sync_label, summary: "3 of 3 crashes: 0 acknowledged writes lost" }
 * CURRENT: the metrics of an iteration not yet in ENTRY (or NULL);
 * SYNC_LABEL: the box's sync label, or NULL. */
json_t *nb_crash_verdict(const json_t *entry, const json_t *current,
			 const char *sync_label);

#endif
