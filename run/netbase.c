/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netbase.c - the network before the workloads: the link's floor latency
 * (protocol round trips that touch no data: NFS NULL, iSCSI NOP-Out) and
 * its ceiling (re-reading a small region the box serves from its RAM, so
 * that no disk is in the way).  A figure near the ceiling is the link's.
 */
#include "netbase.h"
#include "../workloads/workload.h"
#include "../core/clock.h"
#include "../core/err.h"
#include "../core/config.h"
#include "../core/knobs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PINGS 21

static const struct nb_workload netbase_wl = { .name = "network baseline" };

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median and the least of PINGS round trips, in microseconds. */
static int rtt(struct nb_target *t, json_t *out)
{
	uint64_t v[PINGS];
	int rc;

	if (!t->ops->ping)
		return 0;
	for (int i = 0; i < PINGS; i++) {
		rc = t->ops->ping(t, &v[i]);
		if (rc)
			return rc;
	}
	qsort(v, PINGS, sizeof(v[0]), cmp_u64);
	json_object_set_new(out, "rtt_us", json_real((double)v[PINGS / 2] / 1e3));
	json_object_set_new(out, "rtt_min_us", json_real((double)v[0] / 1e3));
	json_object_set_new(out, "rtt_how", json_string(
		!strcmp(t->ops->name, "iscsi") ? "iscsi-nop" : "nfs-null"));
	return 0;
}

/* The best second of the re-reading: the most the link carried (a
 * loaded client or box only ever takes from it). */
static void on_second(unsigned sec, uint64_t bytes, void *payload)
{
	uint64_t *best = payload;

	(void)sec;
	if (bytes > *best)
		*best = bytes;
}

/* Read the region once (it is then in the box's cache), then again and
 * again for SECONDS: the best second of that is the ceiling. */
static int ceiling(struct nb_wl_ctx *c, const struct nb_netbase_cfg *cfg,
		   json_t *out)
{
	struct nb_iospec s = { .pattern = NB_PAT_SEQ, .rw = NB_RW_READ,
			       .bs = 512 * 1024, .qd = 16, .size = cfg->region,
			       .direct = 1, .seed = c->seed };
	uint64_t best = 0;
	struct nb_engine_hooks h = { .stop = c->stop };
	struct nb_io_result *r = malloc(sizeof(*r));
	struct nb_file *f;
	char how[160];
	int rc;

	if (!r)
		return nb_err(-ENOMEM, "out of memory");
	if (c->t->capacity && s.size > c->t->capacity)
		s.size = c->t->capacity - c->t->capacity % s.bs;
	rc = nb_wl_prepare(c, "data", s.size, NB_F_READ | NB_F_DIRECT, &f);
	if (!rc) {
		rc = nb_engine_run(c->t, f, &s, &h, r);
		s.bytes = UINT64_MAX / 2;
		s.runtime_us = cfg->seconds * 1000000ULL;
		h.second = on_second;
		h.payload = &best;
		if (!rc)
			rc = nb_engine_run(c->t, f, &s, &h, r);
		c->t->ops->fclose(f);
	}
	if (!rc && r->elapsed_ns) {
		double mean = (double)r->bytes_read * 1e9 / (double)r->elapsed_ns;

		json_object_set_new(out, "ceiling_bytes",
				    json_real((double)best > mean ? (double)best : mean));
		json_object_set_new(out, "ceiling_mean_bytes", json_real(mean));
		snprintf(how, sizeof(how), "re-read %llu MiB from the box's RAM, "
			 "512 KiB at queue depth 16 for %u s: its best second",
			 (unsigned long long)(s.size >> 20), cfg->seconds);
		json_object_set_new(out, "ceiling_how", json_string(how));
	}
	free(r);
	return rc;
}

/* Each path of a multipath target alone (every I/O pinned to it): its
 * round trips and ceiling, into "paths" of OUT. */
static int per_path(struct nb_wl_ctx *c, const struct nb_netbase_cfg *k,
		    json_t *out)
{
	struct nb_paths *ps = c->t->paths;
	struct nb_netbase_cfg one = *k;
	json_t *a = json_array();
	int rc = 0;

	/* half the time each: a path's ceiling is one link's */
	one.seconds = k->seconds > 2 ? k->seconds / 2 : 1;
	json_object_set_new(out, "paths", a);
	for (int i = 0; i < ps->n && !rc; i++) {
		json_t *o;

		if (ps->p[i].state == NB_PATH_DEAD)
			continue;
		o = json_pack("{s:s}", "path", ps->p[i].name);
		ps->pin = i;
		rc = rtt(c->t, o);
		if (!rc)
			rc = ceiling(c, &one, o);
		json_object_del(o, "rtt_how");
		json_object_del(o, "ceiling_how");
		json_array_append_new(a, o);
	}
	ps->pin = -1;
	return rc;
}

int nb_netbase_run(struct nb_target *t, const struct nb_params *p,
		   const struct nb_netbase_cfg *cfg, json_t **out)
{
	struct nb_netbase_cfg k = *cfg;
	struct nb_wl_ctx c = {
		.t = t, .wl = &netbase_wl, .p = p, .run_id = cfg->run_id,
		.seed = 1, .iteration = 1, .iterations = 1, .stop = cfg->stop,
		.progress = cfg->progress, .metrics = json_object(),
		.extra = json_object(), .entry = json_object(),
	};
	json_t *o = json_object();
	int rc;

	if (!k.region)
		k.region = 16ULL << 20;
	if (!k.seconds)
		k.seconds = 4;
	rc = rtt(t, o);
	if (!rc)
		rc = ceiling(&c, &k, o);
	if (!rc && t->paths)
		rc = per_path(&c, &k, o);
	/* what preparing the region said (a LUN read as it is) */
	if (json_array_size(json_object_get(c.entry, "warnings")))
		json_object_set(o, "warnings", json_object_get(c.entry, "warnings"));
	json_decref(c.metrics);
	json_decref(c.extra);
	json_decref(c.entry);
	if (rc) {
		json_decref(o);
		*out = NULL;
		return rc;
	}
	*out = o;
	return 0;
}

/* the network baseline's row: [box] netbase (core/knobs.h). */
const struct nb_knob nb_netbase_knobs[] = {
	{ .section = "box", .name = "netbase", .type = NB_KT_CHOICE,
	  NB_CFG(monitor.netbase), .choices = "auto|yes|no", .def = "auto",
	  .help = "network baseline before an NFS or iSCSI target's workloads: "
	  "round trips and the ceiling of re-reading a region from the box's "
	  "RAM (auto: when a monitor is set)",
	  .opt = "netbase", .metavar = "auto|yes|no", .flags = NB_KF_NOLABEL,
	},
	{ NULL },
};
