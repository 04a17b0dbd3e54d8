/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seed.h - what the seed workloads (bonnie, bigfile, xz, syncprobe) share.
 *
 * Internal to workloads/: the CPU clock for per-phase CPU%, the client's
 * memory (bonnie's default size), and bigfile's writer, which xz uses to
 * make its input when no bigfile was written before it in the run.
 */
#ifndef NB_WL_SEED_H
#define NB_WL_SEED_H

#include "../workload.h"

/* The file bigfile writes and xz reads, in the target's scratch directory. */
#define NB_BIGFILE_NAME "bigfile"

/* User + system CPU seconds of this process, every thread. */
double nb_seed_cpu_s(void);

/* The client's memory in bytes (0 unknown). */
uint64_t nb_seed_client_ram(void);

/* Wall time and CPU of one phase. */
struct nb_phase {
	uint64_t t0;
	double cpu0;
	double secs, cpu_pct;    /* set by nb_phase_end */
};
void nb_phase_begin(struct nb_phase *ph);
void nb_phase_end(struct nb_phase *ph);

/*
 * Make sure NB_BIGFILE_NAME holds at least SIZE bytes of incompressible
 * data, writing it (as bigfile does, without verify headers) when it does
 * not.  0, -EINTR, or -errno with the detail set.
 */
int nb_bigfile_ensure(struct nb_wl_ctx *c, uint64_t size);

/*
 * syncprobe's verdict from the 4 KiB 10th percentiles (us) of sync writes, async
 * writes and cached reads, under the declared MEDIA (hdd|ssd|nvme|NULL)
 * and SLOG (NULL, "none" or what it is).  The rule is in syncprobe.c.
 */
struct nb_sync_verdict {
	double floor_us;         /* the media's fastest possible commit */
	double k;                /* sync must cost K x the baseline */
	double baseline_us;      /* min(async, read): a round trip, no commit */
	double cost;             /* sync / baseline */
	double p10_gap_us;       /* sync - baseline at the 10th percentiles */
	int unshifted;           /* a median gap, none at p10: not a commit */
	int durable;
};
void nb_syncprobe_judge(const char *media, const char *slog, double sync_us,
			double async_us, double read_us, struct nb_sync_verdict *v);
/* The verdict from the {sync, async, read} medians, or the 10th
 * percentiles where those show a commit and the medians' gap allows it;
 * a commit shows a gap at both.  Returns the percentile used (50 or 10). */
int nb_syncprobe_decide(const char *media, const char *slog,
			const double p50[3], const double p10[3],
			struct nb_sync_verdict *v);

/*
 * The three-way verdict.  P50/P10 hold {sync, async, read} for the whole
 * probe ([0]) and for its first and second halves in time ([1], [2]);
 * IOS is the number of 4 KiB sync writes.  A commit cost is "seen" when
 * the whole probe and both halves show it, absent when none does, and the
 * probe is inconclusive when they disagree or the sample is too small.
 * V and *PCT are the whole probe's verdict and percentile.
 */
enum nb_sync_class {
	NB_SYNC_NO_COST,         /* "no-commit-cost": volatile or protected */
	NB_SYNC_COST_SEEN,       /* "commit-cost-seen": that of stable media */
	NB_SYNC_INCONCLUSIVE,    /* "inconclusive" */
	NB_SYNC_NOT_PROVEN,      /* "cost-below-media": a cost, smaller than
				  * committing to stable media takes */
};
extern const char *const nb_sync_class_names[4];
enum nb_sync_class nb_syncprobe_classify(const char *media, const char *slog,
					 const double p50[3][3],
					 const double p10[3][3], uint64_t ios,
					 struct nb_sync_verdict *v, int *pct);
#define NB_SYNCPROBE_MIN_IOS 64

/*
 * What a commit to stable media costs at least, over a round trip
 * (docs/seed.md, "What timing can prove"): a rotating disk (media = hdd,
 * no slog) turns for it, NB_SYNC_DISK_COMMIT_US; flash without power-loss
 * protection (ssd, nvme, a slog, or media not declared) programs a page,
 * NB_SYNC_FLASH_COMMIT_US; a box that declares power-loss protection
 * (PLP: plp = yes) acknowledges from its protected cache, so only
 * MIN_COMMIT_US.  A smaller sync-write cost is a commit to something that
 * is not stable media (RAM, a hypervisor's cache), or to protected media
 * not declared: not proven durable - the crash check is the proof.
 */
#define NB_SYNC_DISK_COMMIT_US 2000.0
#define NB_SYNC_FLASH_COMMIT_US 200.0
double nb_syncprobe_media_floor(const char *media, const char *slog, int plp);

/*
 * Whether the 4 KiB phase goes on after EL_US microseconds with SYNC_IOS
 * sync writes done: for RUNTIME_US, and past it until there are
 * NB_SYNCPROBE_MIN_IOS to judge (a slow or loaded box commits in tens of
 * milliseconds), but never past NB_SYNCPROBE_STRETCH times the runtime.
 */
#define NB_SYNCPROBE_STRETCH 4
int nb_syncprobe_more(uint64_t el_us, uint64_t runtime_us, uint64_t sync_ios);

/* A box label ("media", "slog"), or NULL. */
const char *nb_wl_label(const struct nb_wl_ctx *c, const char *key);

#endif
