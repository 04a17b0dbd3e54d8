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
 * and judges the 4 KiB 10th percentiles: what each costs when nothing else
 * queues in front of it (other load on the box or the client adds the same
 * queueing delay to all three and pulls their medians together; the low
 * percentiles keep the intrinsic cost).  The baseline is the cheaper of an
 * async write and a cached read: what one round trip to the box costs
 * without touching stable storage.  A durable write must cost clearly more:
 *
 *   durable = sync_p10 >= floor(media)  and  sync_p10 - baseline_p10 >= 20 us
 *             and  (sync_p10 >= K * baseline_p10  or
 *                   sync_p10 - baseline_p10 >= 100 us)
 *
 *   floor: media=hdd without slog 2000 us (a rotational disk cannot commit
 *          faster); media=ssd 20 us, nvme 10 us; otherwise 0
 *   K:     1.5; 1.2 when media is ssd/nvme or a slog is declared (their
 *          flushes are cheap, but never free)
 *   20 us: no stable medium commits faster behind a file system (not
 *          even NVMe with power-loss protection); it keeps a server's
 *          bookkeeping (ganesha's FILE_SYNC on tmpfs: ~9 us) and jitter
 *          from looking like a flush when the round trip itself is tiny
 *   100 us: a round trip to a busy server (a CPU-starved tgtd: 400 us)
 *          can dwarf a fast flush (this machine's disk: ~90 us); a sync
 *          write that costs 100 us more than one is committing something
 *
 * A target that makes every write durable (tgtd --bsoflags sync) has async
 * writes as slow as sync ones: its sync/async ratio is near 1 but its cost
 * over a cached read is not, and it is judged durable.
 */
#include "seed.h"
#include "../core/err.h"
#include "../core/units.h"

#include <errno.h>
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
	uint32_t bs;
	int rw;                  /* enum nb_rw */
	int sync;                /* enum nb_sync */
	double p10_us, p50_us, p99_us, bw, iops;
	uint64_t ios;
};

static void on_progress(uint64_t bytes, uint64_t elapsed_ns, void *payload)
{
	nb_progress_update(payload, bytes, elapsed_ns);
}

static int probe_one(struct nb_wl_ctx *c, struct nb_file *f, uint64_t region,
		     uint64_t runtime_us, struct probe *pr)
{
	struct nb_iospec s = { .pattern = NB_PAT_SEQ, .rw = pr->rw, .bs = pr->bs,
			       .qd = 1, .size = region, .runtime_us = runtime_us,
			       .sync = pr->sync, .direct = 1, .seed = c->seed };
	struct nb_engine_hooks h = { .progress = on_progress,
				     .payload = c->progress, .stop = c->stop };
	struct nb_io_result *r = malloc(sizeof(*r));
	char label[160];
	double secs;
	int rc;

	if (!r)
		return nb_err(-ENOMEM, "out of memory");
	if (pr->rw == NB_RW_READ) {
		/* only what the 4 KiB writes just put there */
		s.size = region - region % pr->bs;
		s.bytes = s.size;
	}
	snprintf(label, sizeof(label), "syncprobe %s on %s (%d/%d)", pr->name,
		 c->t->cfg->name, c->iteration, c->iterations);
	nb_progress_begin(c->progress, label, 0, runtime_us * 1000);
	rc = nb_engine_run(c->t, f, &s, &h, r);
	nb_progress_end(c->progress);
	if (!rc && r->stopped)
		rc = -EINTR;
	if (!rc && !r->ios)
		rc = nb_err(-EIO, "target '%s': syncprobe %s finished no I/O",
			    c->t->cfg->name, pr->name);
	if (!rc) {
		secs = (double)r->elapsed_ns / 1e9;
		pr->p10_us = (double)nb_hist_percentile(&r->lat, 10) / 1e3;
		pr->p50_us = (double)nb_hist_percentile(&r->lat, 50) / 1e3;
		pr->p99_us = (double)nb_hist_percentile(&r->lat, 99) / 1e3;
		pr->bw = (double)(r->bytes_written + r->bytes_read) / secs;
		pr->iops = (double)r->ios / secs;
		pr->ios = r->ios;
	}
	free(r);
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
	v->cost = v->baseline_us > 0 ? sync_us / v->baseline_us : 0;
	v->durable = sync_us >= v->floor_us &&
		     sync_us - v->baseline_us >= MIN_COMMIT_US &&
		     (v->cost >= v->k || sync_us - v->baseline_us >= SURE_COMMIT_US);
}

static int syncprobe_run(struct nb_wl_ctx *c)
{
	struct probe pr[] = {
		{ "sync4k", 4096, NB_RW_WRITE, NB_SYNC_ALWAYS, 0, 0, 0, 0, 0, 0 },
		{ "async4k", 4096, NB_RW_WRITE, NB_SYNC_NONE, 0, 0, 0, 0, 0, 0 },
		{ "read4k", 4096, NB_RW_READ, NB_SYNC_NONE, 0, 0, 0, 0, 0, 0 },
		{ "sync512k", 512 * 1024, NB_RW_WRITE, NB_SYNC_ALWAYS, 0, 0, 0, 0, 0, 0 },
		{ "async512k", 512 * 1024, NB_RW_WRITE, NB_SYNC_NONE, 0, 0, 0, 0, 0, 0 },
	};
	const char *media = nb_wl_label(c, "media"), *slog = nb_wl_label(c, "slog");
	uint64_t region = c->p->size ? c->p->size : PROBE_REGION;
	uint64_t runtime = c->p->runtime_us ? c->p->runtime_us : PROBE_RUNTIME_US;
	struct nb_file *fsync_f = NULL, *fasync = NULL;
	unsigned base = NB_F_READ | NB_F_WRITE | NB_F_CREATE | NB_F_DIRECT;
	struct nb_sync_verdict v;
	char m[256];
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
	rc = c->t->ops->fopen(c->t, PROBE_FILE, base | NB_F_SYNC, &fsync_f);
	if (!rc)
		rc = c->t->ops->fopen(c->t, PROBE_FILE, base, &fasync);
	for (size_t i = 0; !rc && i < sizeof(pr) / sizeof(pr[0]); i++) {
		uint64_t r = region;

		if (pr[i].rw == NB_RW_READ) {
			uint64_t w = (pr[0].ios > pr[1].ios ? pr[0].ios : pr[1].ios) * 4096;

			r = w < region ? w : region;
		}
		rc = probe_one(c, pr[i].sync == NB_SYNC_ALWAYS ? fsync_f : fasync,
			       r, runtime, &pr[i]);
	}
	if (fsync_f)
		c->t->ops->fclose(fsync_f);
	if (fasync)
		c->t->ops->fclose(fasync);
	if ((c->t->caps & NB_CAP_BLOCK) && !rc && region > c->t->filled)
		c->t->filled = region;
	if (rc)
		return rc;

	nb_syncprobe_judge(media, slog, pr[0].p10_us, pr[1].p10_us, pr[2].p10_us, &v);
	nb_wl_metric(c, "durable", v.durable);
	nb_wl_metric(c, "sync_lat_p50_us", pr[0].p50_us);
	nb_wl_metric(c, "async_lat_p50_us", pr[1].p50_us);
	nb_wl_metric(c, "sync_async_ratio",
		     pr[1].p50_us > 0 ? pr[0].p50_us / pr[1].p50_us : 0);
	nb_wl_metric(c, "read_lat_p50_us", pr[2].p50_us);
	nb_wl_metric(c, "sync_cost_ratio", v.cost);
	nb_wl_metric(c, "sync_lat_p10_us", pr[0].p10_us);
	nb_wl_metric(c, "async_lat_p10_us", pr[1].p10_us);
	nb_wl_metric(c, "read_lat_p10_us", pr[2].p10_us);
	nb_wl_metric(c, "sync_lat_p99_us", pr[0].p99_us);
	nb_wl_metric(c, "async_lat_p99_us", pr[1].p99_us);
	nb_wl_metric(c, "sync_iops", pr[0].iops);
	nb_wl_metric(c, "async_iops", pr[1].iops);
	nb_wl_metric(c, "sync512k_bw_bytes", pr[3].bw);
	nb_wl_metric(c, "async512k_bw_bytes", pr[4].bw);
	nb_wl_metric(c, "sync512k_lat_p50_us", pr[3].p50_us);
	nb_wl_metric(c, "async512k_lat_p50_us", pr[4].p50_us);
	nb_wl_metric(c, "sync_bw_ratio_512k", pr[4].bw > 0 ? pr[3].bw / pr[4].bw : 0);
	json_object_set_new(c->extra, "verdict_floor_us", json_real(v.floor_us));
	json_object_set_new(c->extra, "verdict_k", json_real(v.k));
	json_object_set_new(c->extra, "ios", json_pack("{s:I, s:I, s:I, s:I, s:I}",
		"sync4k", (json_int_t)pr[0].ios, "async4k", (json_int_t)pr[1].ios,
		"read4k", (json_int_t)pr[2].ios, "sync512k", (json_int_t)pr[3].ios,
		"async512k", (json_int_t)pr[4].ios));
	if (v.durable) {
		snprintf(m, sizeof(m), "sync writes look durable: a 4 KiB sync "
			 "write (p10 %.0f us) costs %.1fx a round trip without "
			 "stable storage (%.0f us)%s", pr[0].p10_us, v.cost,
			 v.baseline_us, pr[1].p10_us >= v.k * pr[2].p10_us ?
			 "; async writes cost as much: the target writes through" : "");
		json_object_set_new(c->extra, "verdict", json_string(m));
	} else {
		if (v.floor_us > 0 && pr[0].p10_us < v.floor_us)
			snprintf(m, sizeof(m), "a 4 KiB sync write (p10 %.0f us) "
				 "is faster than %s%s can commit (%.0f us)", pr[0].p10_us,
				 media, declared(slog) ? "" : " without a slog",
				 v.floor_us);
		else if (v.cost >= v.k)
			snprintf(m, sizeof(m), "a 4 KiB sync write (p10 %.0f us) "
				 "is only %.0f us more than a round trip without "
				 "stable storage: no medium commits that fast",
				 pr[0].p10_us, pr[0].p10_us - v.baseline_us);
		else
			snprintf(m, sizeof(m), "a 4 KiB sync write (p10 %.0f us) "
				 "costs only %.1fx a round trip without stable "
				 "storage (%.0f us)", pr[0].p10_us, v.cost,
				 v.baseline_us);
		nb_wl_warn(c, "sync writes likely do not reach stable storage on "
			   "target '%s': %s. Suspect sync=disabled, a volatile write "
			   "cache or a hypervisor acknowledging early; a power loss "
			   "or crash can lose writes the clients (ESXi, databases) "
			   "were told are safe", c->t->cfg->name, m);
		json_object_set_new(c->extra, "verdict", json_string(m));
		if (c->iteration == 1)
			nb_warn("target '%s': sync writes likely do not reach "
				"stable storage (%s)", c->t->cfg->name, m);
	}
	return 0;
}

static uint64_t syncprobe_plan_bytes(const struct nb_workload *w,
				     const struct nb_params *p)
{
	(void)w;
	return p->size ? p->size : PROBE_REGION;
}

static void syncprobe_estimate(const struct nb_workload *w,
			       const struct nb_params *p, struct nb_plan_est *e)
{
	(void)w;
	e->seconds = 5 * (double)(p->runtime_us ? p->runtime_us :
				  PROBE_RUNTIME_US) / 1e6;
	e->written = p->size ? p->size : PROBE_REGION;
}

const struct nb_workload nb_wl_syncprobe = {
	.name = "syncprobe",
	.help = "queue-depth-1 sync vs async writes (4 KiB, 512 KiB): do sync "
		"writes reach stable storage?",
	.needs = NB_CAP_SYNC,
	.needs_any = NB_CAP_FILES | NB_CAP_BLOCK,
	.run = syncprobe_run,
	.plan_bytes = syncprobe_plan_bytes,
	.estimate = syncprobe_estimate,
};
