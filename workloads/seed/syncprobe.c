/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * syncprobe.c - do sync writes reach stable storage?
 *
 * The first user story: ESXi writes to NFS synchronously, and a box that
 * acknowledges those writes from RAM (ZFS sync=disabled, a volatile write
 * cache, a hypervisor acknowledging early) is fast and unsafe.  The probe
 * writes at queue depth 1, 4 KiB and 512 KiB, each way:
 *
 *   sync    every write durable (O_DSYNC / NFS FILE_SYNC / iSCSI FUA)
 *   async   plain writes (NFS UNSTABLE, no COMMIT; no FUA)
 *   read    4 KiB reads of what was just written (a cached round trip)
 *
 * one I/O of each in turn (sync, async, read; then 512 KiB sync, async), so
 * that whatever else loads the box or the client weighs on all alike.  The
 * verdict compares the 4 KiB medians, or the 10th percentiles when those
 * show a commit the medians do not (a busy box adds the same queueing to
 * every I/O and pulls medians together; the fastest tenth keeps the
 * intrinsic cost) and the medians' gap is at least 20 us (queueing shrinks
 * the ratio, not the gap: a commit never vanishes from it).  The baseline is the cheaper of an async write and a
 * cached read: one round trip to the box that touches no stable storage.
 * A durable write must cost clearly more (at p50 or p10):
 *
 *   durable = sync >= floor(media)  and  sync - baseline >= 20 us
 *             and  (sync >= K * baseline  or  sync - baseline >= 100 us)
 *
 * and whichever percentile decides, both show a gap of 20 us: a commit
 * delays every sync write, so it is in the medians' gap and the fastest
 * tenth's alike (a median that flips between two latency modes opens a
 * gap at p50 alone).
 *
 *   floor: media=hdd without slog 2000 us (a rotational disk cannot commit
 *          faster); media=ssd 20 us, nvme 10 us; otherwise 0
 *   K:     1.5; 1.2 when media is ssd/nvme or a slog is declared (their
 *          flushes are cheap, but never free)
 *   20 us: no stable medium commits faster behind a file system (not
 *          even NVMe with power-loss protection); it keeps a server's
 *          bookkeeping and jitter from looking like a flush when the
 *          round trip itself is tiny
 *   100 us: a round trip to a busy server can dwarf a fast flush; a sync
 *          write that costs 100 us more than one is committing something
 *          (docs/seed.md has the figures behind both)
 *
 * The verdict is three-way (docs/seed.md): the rule above applied to the
 * whole probe and to each half of it in time; all agree on a cost:
 * commit-cost-seen; none shows one: no-commit-cost (volatile, or a
 * power-loss-protected cache: the box label plp = yes makes that a pass);
 * they disagree, or too few writes: inconclusive, never a pass.
 *
 * A target that makes every write durable (tgtd --bsoflags sync) has async
 * writes as slow as sync ones: its sync/async ratio is near 1 but its cost
 * over a cached read is not, and it is judged durable.
 */
#include "seed.h"
#include "../../core/clock.h"
#include "../../core/datagen.h"
#include "../../core/err.h"
#include "../../core/units.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PROBE_REGION (64ULL << 20)
#define PROBE_RUNTIME_US 3000000ULL
#define PROBE_FILE "syncprobe"
#define MIN_COMMIT_US 20.0
#define SURE_COMMIT_US 100.0

struct probe {
	const char *name;        /* "sync4k" */
	struct nb_hist lat;      /* ns */
	struct nb_hist *half;    /* [2]: first and second half in time (4 KiB) */
	int which;               /* the half being sampled */
	uint64_t ios, bytes, busy_ns;
	double p10_us, p50_us, p99_us, bw, iops;
};

/* A figure of the result: field OFF of probe A (0 sync4k, 1 async4k,
 * 2 read4k, 3 sync512k, 4 async512k), or with B >= 0 A's over B's (0 when
 * B's is 0); in the result's order. */
struct figure {
	const char *metric;
	int a, b;
	size_t off;
};

#define FIG(m, a, b, field) { m, a, b, offsetof(struct probe, field) }

static const struct figure figures[] = {
	FIG("sync_lat_p50_us", 0, -1, p50_us),
	FIG("async_lat_p50_us", 1, -1, p50_us),
	FIG("sync_async_ratio", 0, 1, p50_us),
	FIG("read_lat_p50_us", 2, -1, p50_us),
	FIG("sync_lat_p10_us", 0, -1, p10_us),
	FIG("async_lat_p10_us", 1, -1, p10_us),
	FIG("read_lat_p10_us", 2, -1, p10_us),
	FIG("sync_lat_p99_us", 0, -1, p99_us),
	FIG("async_lat_p99_us", 1, -1, p99_us),
	FIG("sync_iops", 0, -1, iops),
	FIG("async_iops", 1, -1, iops),
	FIG("sync512k_bw_bytes", 3, -1, bw),
	FIG("async512k_bw_bytes", 4, -1, bw),
	FIG("sync512k_lat_p50_us", 3, -1, p50_us),
	FIG("async512k_lat_p50_us", 4, -1, p50_us),
	FIG("sync_bw_ratio_512k", 3, 4, bw),
};

static double field(const struct probe *pr, size_t off)
{
	return *(const double *)(const void *)((const char *)pr + off);
}

static double figure(const struct probe *pr, const struct figure *f)
{
	double a = field(&pr[f->a], f->off), b;

	if (f->b < 0)
		return a;
	b = field(&pr[f->b], f->off);
	return b > 0 ? a / b : 0;
}

/* One timed I/O at queue depth 1. */
static int timed(struct nb_wl_ctx *c, struct nb_file *f, int op, void *buf,
		 uint32_t len, uint64_t off, unsigned fua, struct probe *pr)
{
	uint64_t t0, dt;
	int64_t n;

	if (op == NB_OP_WRITE)
		nb_datagen_stamp(buf, len, off, pr->ios + 1);
	t0 = nb_now_ns();
	n = nb_target_pio(c->t, f, op, buf, len, off, fua);
	dt = nb_now_ns() - t0;
	if (n < 0)
		return (int)n;
	if ((uint64_t)n != len)
		return nb_err(-EIO, "target '%s': syncprobe: short %s at offset %llu "
			      "(%lld of %u bytes)", c->t->cfg->name,
			      op == NB_OP_READ ? "read" : "write",
			      (unsigned long long)off, (long long)n, len);
	nb_hist_add(&pr->lat, dt);
	if (pr->half)
		nb_hist_add(&pr->half[pr->which], dt);
	pr->ios++;
	pr->bytes += len;
	pr->busy_ns += dt;
	return 0;
}

static void summarise(struct probe *pr)
{
	double secs = (double)pr->busy_ns / 1e9;

	pr->p10_us = (double)nb_hist_percentile(&pr->lat, 10) / 1e3;
	pr->p50_us = (double)nb_hist_percentile(&pr->lat, 50) / 1e3;
	pr->p99_us = (double)nb_hist_percentile(&pr->lat, 99) / 1e3;
	pr->bw = secs > 0 ? (double)pr->bytes / secs : 0;
	pr->iops = secs > 0 ? (double)pr->ios / secs : 0;
}

int nb_syncprobe_more(uint64_t el_us, uint64_t runtime_us, uint64_t sync_ios)
{
	if (el_us < runtime_us)
		return 1;
	return sync_ios < NB_SYNCPROBE_MIN_IOS &&
	       el_us < NB_SYNCPROBE_STRETCH * runtime_us;
}

/*
 * The runs interleave, one I/O of each in turn, so that whatever else
 * loads the box or the client in the meantime weighs on all of them alike:
 * 4 KiB sync write, 4 KiB async write, 4 KiB read of the block just
 * written sync (cached), for RUNTIME (longer when that gave too few sync
 * writes to judge: nb_syncprobe_more()); then 512 KiB sync and async
 * writes in turn for RUNTIME.  PR: sync4k, async4k, read4k, sync512k, async512k.
 * *COVERED: the bytes from offset 0 up that the writes really covered (each
 * phase walks the region from its start; a short runtime stops early).
 */
static int probe_all(struct nb_wl_ctx *c, struct nb_file *fs, struct nb_file *fa,
		     uint64_t region, uint64_t runtime_us, struct probe *pr,
		     uint64_t *covered)
{
	unsigned char *buf = nb_io_alloc(512 * 1024);
	uint64_t small = region / 4096 / 2, big = region / (512 * 1024), t0, t1, el, i;
	struct nb_rng r;
	char label[160];
	int rc = 0;

	*covered = 0;
	if (!buf)
		return nb_err(-ENOMEM, "out of memory");
	nb_rng_seed(&r, c->seed);
	nb_datagen_fill(&r, buf, 512 * 1024);
	snprintf(label, sizeof(label), "syncprobe on %s (%d/%d)", c->t->cfg->name,
		 c->iteration, c->iterations);
	nb_progress_begin(c->progress, label, 0, 2 * runtime_us * 1000);
	t0 = nb_now_ns();
	for (i = 0; !rc; i++) {
		/* sync blocks at even 4 KiB slots, async at odd ones */
		uint64_t so = (i % small) * 8192, ao = so + 4096;

		rc = timed(c, fs, NB_OP_WRITE, buf, 4096, so, 1, &pr[0]);
		if (!rc)
			rc = timed(c, fa, NB_OP_WRITE, buf, 4096, ao, 0, &pr[1]);
		if (!rc)
			rc = timed(c, fa, NB_OP_READ, buf, 4096, so, 0, &pr[2]);
		el = nb_now_ns() - t0;
		if ((i & 15) == 0) {
			nb_progress_update(c->progress, pr[0].bytes + pr[1].bytes +
					   pr[2].bytes, el);
			if (*c->stop)
				rc = -EINTR;
		}
		if (!rc && !nb_syncprobe_more(el / 1000, runtime_us, pr[0].ios)) {
			/* slots 0..i, both writes of each, are done */
			*covered = (i + 1 < small ? i + 1 : small) * 8192;
			break;
		}
		pr[0].which = pr[1].which = pr[2].which = el >= runtime_us * 500;
	}
	t1 = nb_now_ns();
	for (i = 0; !rc; i++) {
		uint64_t off = (i % big) * 512 * 1024;

		rc = timed(c, i & 1 ? fa : fs, NB_OP_WRITE, buf, 512 * 1024, off,
			   !(i & 1), &pr[3 + (i & 1)]);
		if ((i & 1) && (i & 7) == 7) {
			uint64_t now = nb_now_ns();

			/* the bytes of both halves: the count only grows */
			nb_progress_update(c->progress, pr[0].bytes + pr[1].bytes +
					   pr[2].bytes + pr[3].bytes + pr[4].bytes,
					   now - t0);
			if (*c->stop)
				rc = -EINTR;
			if (now - t1 >= runtime_us * 1000) {
				if ((i + 1 < big ? i + 1 : big) * 512 * 1024 > *covered)
					*covered = (i + 1 < big ? i + 1 : big) * 512 * 1024;
				break;
			}
		}
	}
	nb_progress_end(c->progress);
	free(buf);
	for (i = 0; i < 5 && !rc; i++)
		summarise(&pr[i]);
	return rc;
}

static int declared(const char *v)
{
	return v && *v && strcasecmp(v, "none") && strcasecmp(v, "no");
}

void nb_syncprobe_judge(const char *media, const char *slog, double sync_us,
			double async_us, double read_us, struct nb_sync_verdict *v)
{
	int has_slog = declared(slog);
	int flash = media && (!strcasecmp(media, "ssd") || !strcasecmp(media, "nvme"));

	v->floor_us = 0;
	if (media && !strcasecmp(media, "hdd") && !has_slog)
		v->floor_us = 2000;
	else if (media && !strcasecmp(media, "ssd"))
		v->floor_us = 20;
	else if (media && !strcasecmp(media, "nvme"))
		v->floor_us = 10;
	v->k = flash || has_slog ? 1.2 : 1.5;
	v->baseline_us = async_us < read_us ? async_us : read_us;
	v->p10_gap_us = 0;
	v->unshifted = 0;
	v->cost = v->baseline_us > 0 ? sync_us / v->baseline_us : 0;
	v->durable = sync_us >= v->floor_us &&
		     sync_us - v->baseline_us >= MIN_COMMIT_US &&
		     (v->cost >= v->k || sync_us - v->baseline_us >= SURE_COMMIT_US);
}

int nb_syncprobe_decide(const char *media, const char *slog,
			const double p50[3], const double p10[3],
			struct nb_sync_verdict *v)
{
	struct nb_sync_verdict v10;
	double base50 = p50[1] < p50[2] ? p50[1] : p50[2];
	double base10 = p10[1] < p10[2] ? p10[1] : p10[2];

	nb_syncprobe_judge(media, slog, p50[0], p50[1], p50[2], v);
	v->p10_gap_us = p10[0] - base10;
	if (v->durable) {
		/* A commit delays every sync write, the fastest tenth too.  A
		 * median gap with none at p10 is latency flipping between two
		 * modes (a server thread on this CPU or the other; docs/seed.md)
		 * with the median of sync in the slow one. */
		v->unshifted = v->p10_gap_us < MIN_COMMIT_US;
		v->durable = !v->unshifted;
		return 50;
	}
	/* Queueing on a busy box adds alike to every I/O: it shrinks the
	 * ratio at the median but leaves the commit's absolute cost there.
	 * So the fastest tenth may only rescue the ratio, never a median gap
	 * under MIN_COMMIT_US (jitter in a small sample can open one at p10
	 * where sync costs what async does, as on a tmpfs LUN). */
	if (p50[0] - base50 < MIN_COMMIT_US)
		return 50;
	nb_syncprobe_judge(media, slog, p10[0], p10[1], p10[2], &v10);
	if (!v10.durable)
		return 50;
	*v = v10;
	v->p10_gap_us = p10[0] - base10;
	return 10;
}

const char *const nb_sync_class_names[4] = {
	[NB_SYNC_NO_COST] = "no-commit-cost",
	[NB_SYNC_COST_SEEN] = "commit-cost-seen",
	[NB_SYNC_INCONCLUSIVE] = "inconclusive",
	[NB_SYNC_NOT_PROVEN] = "cost-below-media",
};

double nb_syncprobe_media_floor(const char *media, const char *slog, int plp)
{
	if (plp)
		return MIN_COMMIT_US;
	if (media && !strcasecmp(media, "hdd") && !declared(slog))
		return NB_SYNC_DISK_COMMIT_US;
	return NB_SYNC_FLASH_COMMIT_US;
}

enum nb_sync_class nb_syncprobe_classify(const char *media, const char *slog,
					 const double p50[3][3],
					 const double p10[3][3], uint64_t ios,
					 struct nb_sync_verdict *v, int *pct)
{
	struct nb_sync_verdict h;
	int seen = 0;

	*pct = nb_syncprobe_decide(media, slog, p50[0], p10[0], v);
	if (ios < NB_SYNCPROBE_MIN_IOS)
		return NB_SYNC_INCONCLUSIVE;
	for (int i = 1; i < 3; i++) {
		nb_syncprobe_decide(media, slog, p50[i], p10[i], &h);
		seen += h.durable;
	}
	if (v->durable && seen == 2)
		return NB_SYNC_COST_SEEN;
	if (!v->durable && !seen)
		return NB_SYNC_NO_COST;
	return NB_SYNC_INCONCLUSIVE;
}

/* The verdict's sentence: why a commit cost was or was not seen. */
static void describe(char *m, size_t n, const struct nb_sync_verdict *v,
		     int pct, const double us[3], const char *media,
		     const char *slog)
{
	if (v->unshifted)
		snprintf(m, n, "a 4 KiB sync write's median (%.0f us) is %.0f us "
			 "above a round trip without stable storage (%.0f us), but "
			 "its fastest tenth is only %.0f us above the round trip's: "
			 "the latency moved, a commit would delay every write",
			 us[0], us[0] - v->baseline_us, v->baseline_us,
			 v->p10_gap_us);
	else if (v->durable)
		snprintf(m, n, "a 4 KiB sync write (p%d %.0f us) costs %.1fx a "
			 "round trip without stable storage (%.0f us)%s", pct,
			 us[0], v->cost, v->baseline_us,
			 us[1] >= v->k * us[2] && us[0] < v->k * us[1] ?
			 "; async writes cost as much: the target writes through" : "");
	else if (v->floor_us > 0 && us[0] < v->floor_us)
		snprintf(m, n, "a 4 KiB sync write (p%d %.0f us) is faster than "
			 "%s%s can commit (%.0f us)", pct, us[0], media,
			 declared(slog) ? "" : " without a slog", v->floor_us);
	else if (v->cost >= v->k)
		snprintf(m, n, "a 4 KiB sync write (p%d %.0f us) is only %.0f us "
			 "more than a round trip without stable storage: no "
			 "medium commits that fast", pct, us[0],
			 us[0] - v->baseline_us);
	else
		snprintf(m, n, "a 4 KiB sync write (p%d %.0f us) costs only %.1fx "
			 "a round trip without stable storage (%.0f us)", pct,
			 us[0], v->cost, v->baseline_us);
}

/* What FLOOR stands for. */
static const char *floor_what(double floor)
{
	return floor >= NB_SYNC_DISK_COMMIT_US ? "a rotating disk" :
	       floor >= NB_SYNC_FLASH_COMMIT_US ? "flash without power-loss "
	       "protection" : "power-loss-protected media (plp = yes)";
}

/* The verdict's sentence into the iteration ("verdict") and, where the
 * writes are not judged durable, the warnings.  M: why (describe()); GAP:
 * what a sync write costs over a round trip at the deciding percentile. */
static void words(struct nb_wl_ctx *c, const struct probe *pr,
		  enum nb_sync_class cls, const struct nb_sync_verdict *v,
		  const char *m, double gap, double floor, int plp)
{
	const char *name = c->t->cfg->name;
	char w[900];

	(void)v;
	if (plp && (cls == NB_SYNC_COST_SEEN || cls == NB_SYNC_NO_COST)) {
		if (cls == NB_SYNC_COST_SEEN)
			snprintf(w, sizeof(w), "sync writes cost a commit: %s, at "
				 "least the %.0f us a commit to %s costs; the box "
				 "declares power-loss protection (plp = yes): durable "
				 "as declared", m, floor, floor_what(floor));
		else
			snprintf(w, sizeof(w), "sync writes cost no more than writes "
				 "without stable storage (%s); the box declares "
				 "power-loss protection (plp = yes), which acknowledges "
				 "durable writes from its protected cache: trusted as "
				 "declared", m);
		json_object_set_new(c->extra, "verdict", json_string(w));
		return;
	}
	/* timing alone never proves durable: a commit to memory behind a
	 * journal, on a busy client or server, costs what stable media's
	 * does (issue 46: 774 us against a 243 us round trip, a RAM LUN) */
	if (cls == NB_SYNC_COST_SEEN)
		snprintf(w, sizeof(w), "consistent with durable media, not proven: "
			 "%s, at least the %.0f us a commit to %s costs; timing "
			 "alone cannot tell stable media from a commit to memory on "
			 "a busy client or server: run the crash check (crashcheck), "
			 "or declare plp = yes if the box has power-loss protection",
			 m, floor, floor_what(floor));
	else if (cls == NB_SYNC_NOT_PROVEN)
		snprintf(w, sizeof(w), "not proven durable: %s, %.0f us more, less "
			 "than the %.0f us a commit to %s takes; a commit to what is "
			 "not stable media (memory behind a journal, a hypervisor's "
			 "cache) costs as much: run the crash check (crashcheck), or "
			 "declare plp = yes if the box has power-loss protection", m,
			 gap, floor, floor_what(floor));
	else if (cls == NB_SYNC_INCONCLUSIVE && pr[0].ios < NB_SYNCPROBE_MIN_IOS)
		snprintf(w, sizeof(w), "syncprobe inconclusive: only %llu "
			 "sync writes (at least %d needed); give it a longer "
			 "--runtime", (unsigned long long)pr[0].ios,
			 NB_SYNCPROBE_MIN_IOS);
	else if (cls == NB_SYNC_INCONCLUSIVE)
#define H(i, h) ((double)nb_hist_percentile(&pr[i].half[h], 50) / 1e3)
		snprintf(w, sizeof(w), "syncprobe inconclusive: the two "
			 "halves of the probe disagree (sync/async/read p50 "
			 "%.0f/%.0f/%.0f us, then %.0f/%.0f/%.0f us): the "
			 "target's latency moved under the probe; rerun on a "
			 "quieter box or with a longer --runtime", H(0, 0), H(1, 0),
			 H(2, 0), H(0, 1), H(1, 1), H(2, 1));
#undef H
	else
		snprintf(w, sizeof(w), "sync writes likely do not reach stable "
			 "storage: %s. Either they are not durable (sync=disabled, "
			 "a volatile write cache, a hypervisor acknowledging early: a "
			 "power loss or crash can lose writes the clients were told "
			 "are safe) or the box has a power-loss-protected cache (PLP "
			 "SSD, NVRAM, BBU); if it has, declare plp = yes in [box]", m);
	json_object_set_new(c->extra, "verdict", json_string(w));
	nb_wl_warn(c, "target '%s': %s", name, w);
	if (c->iteration == 1)
		nb_warn("target '%s': %s", name, cls == NB_SYNC_INCONCLUSIVE ||
			cls == NB_SYNC_NOT_PROVEN || cls == NB_SYNC_COST_SEEN ? w :
			"sync writes likely do not reach stable storage (no commit "
			"cost seen; volatile, or a power-loss-protected cache not "
			"declared with plp = yes)");
}

/*
 * Metrics, the verdict and its warnings.  durable is 1 only with evidence,
 * never from timing alone: the box declares power-loss protection (plp =
 * yes) and a commit cost was seen, or none was (a protected cache
 * acknowledges at async cost); or a crash check of the same run saw a
 * crash and lost nothing promised (nb_crash_durability).  A commit cost
 * at least stable media's is "consistent with durable media, not proven";
 * an inconclusive probe is never durable.
 */
static void verdict(struct nb_wl_ctx *c, const struct probe *pr)
{
	const char *media = nb_wl_label(c, "media"), *slog = nb_wl_label(c, "slog");
	const char *plp_l = nb_wl_label(c, "plp");
	int plp = plp_l && !strcasecmp(plp_l, "yes");
	double p50[3][3], p10[3][3], us[3], floor;
	struct nb_sync_verdict v;
	enum nb_sync_class cls;
	char m[320];
	int pct;

	for (int i = 0; i < 3; i++) {
		p50[0][i] = pr[i].p50_us;
		p10[0][i] = pr[i].p10_us;
		for (int h = 0; h < 2; h++) {
			p50[1 + h][i] = (double)nb_hist_percentile(&pr[i].half[h], 50) / 1e3;
			p10[1 + h][i] = (double)nb_hist_percentile(&pr[i].half[h], 10) / 1e3;
		}
	}
	cls = nb_syncprobe_classify(media, slog, (const double(*)[3])p50,
				    (const double(*)[3])p10, pr[0].ios, &v, &pct);
	for (int i = 0; i < 3; i++)
		us[i] = pct == 10 ? pr[i].p10_us : pr[i].p50_us;
	floor = nb_syncprobe_media_floor(media, slog, plp);
	/* a commit, but cheaper than stable media's: not proven durable */
	if (cls == NB_SYNC_COST_SEEN && us[0] - v.baseline_us < floor)
		cls = NB_SYNC_NOT_PROVEN;
	describe(m, sizeof(m), &v, pct, us, media, slog);
	json_object_set_new(c->extra, "verdict_percentile", json_integer(pct));
	json_object_set_new(c->extra, "verdict_class",
			    json_string(nb_sync_class_names[cls]));
	/* durable only with evidence: the box's declaration here, a crash
	 * check's observed crash later (nb_crash_durability) */
	nb_wl_metric(c, "durable", plp && (cls == NB_SYNC_COST_SEEN ||
					   cls == NB_SYNC_NO_COST));
	json_object_set_new(c->extra, "durable_evidence", json_string(
		plp && (cls == NB_SYNC_COST_SEEN || cls == NB_SYNC_NO_COST) ?
		"plp = yes declared" : "none"));
	nb_wl_metric(c, "sync_inconclusive", cls == NB_SYNC_INCONCLUSIVE);
	nb_wl_metric(c, "sync_cost_ratio", v.cost);
	nb_wl_metric(c, "sync_cost_us", us[0] - v.baseline_us);
	json_object_set_new(c->extra, "verdict_floor_us", json_real(v.floor_us));
	json_object_set_new(c->extra, "verdict_media_floor_us", json_real(floor));
	json_object_set_new(c->extra, "verdict_k", json_real(v.k));
	json_object_set_new(c->extra, "halves_p50_us", json_pack(
		"[[f,f,f],[f,f,f]]", p50[1][0], p50[1][1], p50[1][2],
		p50[2][0], p50[2][1], p50[2][2]));

	words(c, pr, cls, &v, m, us[0] - v.baseline_us, floor, plp);
}

static int syncprobe_run(struct nb_wl_ctx *c)
{
	struct probe pr[5] = { { .name = "sync4k" }, { .name = "async4k" },
			       { .name = "read4k" }, { .name = "sync512k" },
			       { .name = "async512k" } };
	const char *media = nb_wl_label(c, "media"), *slog = nb_wl_label(c, "slog");
	uint64_t region = nb_wl_size(c->wl, c->p);
	uint64_t runtime = c->p->runtime_us ? c->p->runtime_us : PROBE_RUNTIME_US;
	struct nb_file *fsync_f = NULL, *fasync = NULL;
	unsigned base = NB_F_READ | NB_F_WRITE | NB_F_CREATE | NB_F_DIRECT;
	struct nb_hist *halves;
	uint64_t covered = 0;
	int rc = 0;

	if (c->t->capacity && region > c->t->capacity)
		region = c->t->capacity;
	region -= region % (512 * 1024);
	if (region < 512 * 1024)
		return nb_err(-EINVAL, "target '%s': syncprobe needs at least 512 KiB",
			      c->t->cfg->name);
	if (c->iteration == 1)
		c->spec = json_pack("{s:I, s:f, s:i, s:s, s:s}", "region",
				    (json_int_t)region, "runtime_s",
				    (double)runtime / 1e6, "qd", 1, "media",
				    media ? media : "", "slog", slog ? slog : "");
	halves = calloc(6, sizeof(*halves));
	if (!halves)
		return nb_err(-ENOMEM, "out of memory");
	for (int i = 0; i < 5; i++)
		nb_hist_init(&pr[i].lat);
	for (int i = 0; i < 3; i++) {
		pr[i].half = &halves[2 * i];
		nb_hist_init(&pr[i].half[0]);
		nb_hist_init(&pr[i].half[1]);
	}
	rc = c->t->ops->fopen(c->t, PROBE_FILE, base | NB_F_SYNC, &fsync_f);
	if (!rc)
		rc = c->t->ops->fopen(c->t, PROBE_FILE, base, &fasync);
	if (!rc)
		rc = probe_all(c, fsync_f, fasync, region, runtime, pr, &covered);
	if (fsync_f)
		c->t->ops->fclose(fsync_f);
	if (fasync)
		c->t->ops->fclose(fasync);
	if (!rc)
		nb_wl_wrote(c, covered);
	if (!rc) {
		for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
			nb_wl_metric(c, figures[i].metric, figure(pr, &figures[i]));
		json_object_set_new(c->extra, "ios", json_pack(
			"{s:I, s:I, s:I, s:I, s:I}",
			"sync4k", (json_int_t)pr[0].ios, "async4k", (json_int_t)pr[1].ios,
			"read4k", (json_int_t)pr[2].ios, "sync512k", (json_int_t)pr[3].ios,
			"async512k", (json_int_t)pr[4].ios));
		verdict(c, pr);
	}
	free(halves);
	return rc;
}

static void syncprobe_estimate(const struct nb_workload *w,
			       const struct nb_params *p, struct nb_estimate *e)
{
	/* the 4 KiB round, then the 512 KiB round */
	e->seconds = 2 * (double)(p->runtime_us ? p->runtime_us :
				  PROBE_RUNTIME_US) / 1e6;
	e->written = nb_wl_size(w, p);
}

const struct nb_workload nb_wl_syncprobe = {
	.name = "syncprobe",
	.help = "queue-depth-1 sync vs async writes (4 KiB, 512 KiB): do sync "
		"writes reach stable storage?",
	.needs = NB_CAP_SYNC,
	.accept = "durable = yes",
	.run = syncprobe_run,
	.plan_bytes = nb_wl_size,
	.default_size = PROBE_REGION,
	.estimate = syncprobe_estimate,
};
