/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crashcheck.h - does an acknowledged write survive the box crashing?
 *
 * crashcheck.c writes self-describing blocks (core/datagen.h's header:
 * offset, run id, generation, checksum) at queue depth QD with the sync
 * semantics under test and journals every acknowledged write on this
 * client (crashlog.h) with what the box promised for it; at the crash
 * point a [box] crash command runs BESIDE the writers (crashwrite.c), who
 * keep writing until the box stops answering; then the box is reconnected,
 * the evidence that it went down is gathered (crashproof.c) and the
 * iteration's writes are read back (crashverify.c).  'run --verify
 * JOURNAL' does only the last part, for a journal whose run ended with
 * the client (a crashed or killed client, a manual crash).
 *
 * The journal (one line each, self-checking):
 *   h {JSON}          the header: run id, target name, URL (redacted),
 *                     runner, block or file, capacity, window offset, the
 *                     region, write size, queue depth, sync mode, crash
 *                     settings
 *   i ITER INDEX      iteration ITER starts at write number INDEX
 *   a OFF GEN P VERF  the write of bs bytes at OFF, generation GEN, was
 *                     acknowledged; P what the box promised: d durable
 *                     (NFS FILE_SYNC, iSCSI FUA or no write cache, O_DSYNC),
 *                     c cached (NFS UNSTABLE, an iSCSI write cache, a
 *                     plain write); VERF the NFS write verifier (hex, 0:
 *                     none).  ("a OFF GEN" alone: a journal of version 1,
 *                     durable unless its sync was none)
 *   f VERF            a flush (COMMIT, SYNCHRONIZE CACHE, fsync) returned
 *                     after every write journalled before it: the cached
 *                     ones of this iteration whose verifier is VERF (or
 *                     either is 0) are now promised too ("flushed")
 *   b KIND VALUE      the box's identity before the writes (KIND: boot,
 *                     the boot id over SSH; verf, the NFS write verifier;
 *                     ua, the UNIT ATTENTION of a login without a crash)
 *   c ITER ACKED      iteration ITER reached its crash point after ACKED
 *                     acknowledged writes
 *   p OFF GEN         a write in flight when the writers stopped (the box
 *                     stopped answering): it may read back old or new
 * Write number K goes to offset (K mod blocks) x bs with generation
 * K / blocks + 1: the region is swept again and again, so a lost write
 * shows as an older generation (stale) once the region was written once.
 * Only the last iteration's records are verified: what this crash could
 * lose (an earlier crash's losses are its own).
 */
#ifndef NB_WL_CRASHCHECK_H
#define NB_WL_CRASHCHECK_H

#include <jansson.h>
#include <stdint.h>

#include "../workload.h"
#include "crashlog.h"

#define NB_CRASH_BLOCK 4096u     /* the verified unit: one header each */
#define NB_CRASH_FILE "crashcheck"
#define NB_CRASH_OFFSETS 16      /* offsets kept per class in the result */
#define NB_CRASH_QD 8            /* writes in flight (without iodepth) */

/* What the box promised for an acknowledged write. */
enum nb_crash_class { NB_CC_DURABLE, NB_CC_FLUSHED, NB_CC_CACHED, NB_CC_N };
extern const char *const nb_crash_class_keys[NB_CC_N];  /* "durable"... */

/* Per write location of the iteration being verified. */
struct nb_crash_loc {
	uint64_t last;           /* generation of the last acknowledged write */
	uint64_t promised;       /* of the last promised one (durable or
				  * flushed), 0: none */
	uint64_t flying;         /* of a write in flight at the end, 0: none */
	uint64_t verf;           /* the last write's NFS verifier */
	uint8_t last_cls, promised_cls;   /* enum nb_crash_class */
};

/* What a journal says about its last iteration. */
struct nb_crash_journal {
	json_t *header;          /* the header object (owned) */
	int version;
	char run_id[64];
	char target[64], url[1100], runner[32], sync[16];
	int block;               /* a block target (LUN window), else a file */
	uint64_t capacity, window_offset, region;
	uint32_t bs, qd;
	uint64_t nblocks;        /* region / bs */
	struct nb_crash_loc *loc;        /* [nblocks] */
	uint64_t writes;         /* 'a' records, all iterations */
	uint64_t next;           /* the next write number */
	int iterations;          /* the last 'i' record's iteration */
	uint64_t iter_acked;     /* 'a' records since the last 'i' */
	uint64_t acked[NB_CC_N]; /* of those, by class (flushes applied) */
	uint64_t inflight;       /* 'p' records since the last 'i' */
	int crashed;             /* the last iteration reached its crash point */
	int torn_tail;           /* a cut-off last line was ignored */
	char boot[128];          /* the 'b' records of the last iteration */
	uint64_t verf;
	char ua[96];             /* "" none */
	int has_verf, has_ua;
	/* cached writes since the last flush: (location, generation, verf) */
	uint64_t (*pending)[3];
	size_t npending, cap_pending;
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

/* What reading back the iteration's writes found, per location (its last
 * acknowledged write): intact, a promised write lost (missing / stale /
 * torn, by the class of the promise), or only what was never promised lost
 * (an older promised state, or nothing promised there). */
struct nb_crash_counts {
	uint64_t checked, intact, missing, stale, torn;
	uint64_t lost[NB_CC_N];  /* durable, flushed: promised; cached: not */
	uint64_t promised;       /* locations that held a promised write */
	json_t *offsets[3];      /* missing, stale, torn: the first NB_CRASH_OFFSETS */
};

/* Read back from T every location J's last iteration wrote and class it.
 * 0, -EINTR, or the -errno of a read that failed (detail set). */
int nb_crash_verify(struct nb_wl_ctx *c, const struct nb_crash_journal *j,
		    struct nb_crash_counts *n);
void nb_crash_counts_free(struct nb_crash_counts *n);

/* The evidence that the box went down (crashproof.c): what it said of
 * itself before the writes and after the reconnect. */
struct nb_crash_proof {
	char boot_before[128], boot_after[128];  /* boot id over SSH, "" */
	char boot_why[200];      /* why there is none */
	uint64_t verf_before, verf_after;        /* NFS, 0: none */
	char ua_control[96], ua_after[96];       /* iSCSI */
	int ua_checked;          /* a control login was made */
	int observed;            /* the box restarted */
	char how[400];           /* what showed it, or what was checked */
};

/* Before the writes: the boot id, and on iSCSI a control login (its UNIT
 * ATTENTION without a crash), journalled as 'b' records (OUT: the
 * journal; NULL in --verify). */
int nb_crash_proof_before(struct nb_wl_ctx *c, struct nb_crash_proof *pr,
			  struct nb_journal *out);
/* After the reconnect: the same, and the verdict in PR (observed, how).
 * F: the data file, open (an NFS COMMIT asks the verifier), or NULL. */
void nb_crash_proof_after(struct nb_wl_ctx *c, struct nb_crash_proof *pr);
/* The evidence as the iteration's "evidence" object. */
json_t *nb_crash_proof_json(const struct nb_crash_proof *pr);

/* The names of the classes on target T's runner ("FILE_SYNC",
 * "UNSTABLE + COMMIT", "UNSTABLE"; "FUA", "SYNCHRONIZE CACHE", "write
 * cache"; "O_DSYNC", "fsync", "page cache"). */
const char *nb_crash_class_name(const char *runner, int cls);

/* The iteration's figures and its "crash" object from N and J (CRASH
 * holds the mode, journal, point, hook; stolen), judged with PR: without
 * a crash observed and with nothing lost, no loss figure is recorded
 * (never "0 lost" of a crash that did not happen). */
void nb_crash_record(struct nb_wl_ctx *c, const struct nb_crash_counts *n,
		     const struct nb_crash_journal *j,
		     const struct nb_crash_proof *pr, json_t *crash);

/* The verdict over a crashcheck entry's iterations: { crashes, observed,
 * unproven, crashes_losing, lost, lost_durable, lost_flushed, lost_cached,
 * missing, stale, torn, checked, promised, acked, first_losing,
 * sync_label, summary } (summary: "3 of 3 crashes observed: 0 promised-
 * durable writes lost ...", "no crash observed ...: not proven").
 * CURRENT: the metrics of an iteration not yet in ENTRY (or NULL), with
 * its "crash" object CUR_CRASH (or NULL); SYNC_LABEL: the box's sync
 * label, or NULL. */
json_t *nb_crash_verdict(const json_t *entry, const json_t *current,
			 const json_t *cur_crash, const char *sync_label);

/* crashwrite.c: the writers of one iteration, the crash command beside
 * them.  Set up by crashcheck.c. */
struct nb_crash_run;
int nb_crash_write_phase(struct nb_crash_run *cr);

#endif
