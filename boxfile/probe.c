/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe.c - what 'nasbench init' asks of each target and of the box,
 * writing nothing a run would not (boxfile.h).
 */
#include "boxfile.h"
#include "../core/err.h"
#include "../core/guard.h"
#include "../core/url.h"
#include "../runners/runner.h"
#include "../telemetry/telem.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void cause_of(struct nb_probe_target *out, int state)
{
	out->state = state;
	snprintf(out->cause, sizeof(out->cause), "%s",
		 nb_err_last()[0] ? nb_err_last() : strerror(EIO));
}

/* A LUN, device or file: its size, and what it holds (read only). */
static void probe_block(struct nb_target *t, struct nb_probe_target *out)
{
	struct nb_file *f = NULL;
	int rc;

	out->block = 1;
	out->capacity = t->capacity;
	out->block_size = t->block_size;
	if (t->ops->fopen(t, "", NB_F_READ, &f)) {
		cause_of(out, NB_PROBE_UNREACHABLE);
		return;
	}
	rc = nb_guard_holds(t, f, out->holds, sizeof(out->holds));
	t->ops->fclose(f);
	if (rc < 0)
		cause_of(out, NB_PROBE_UNREACHABLE);
	else if (rc > 0)
		out->state = NB_PROBE_HOLDS_DATA;
}

/* An open that failed because the box refused to let us write (the
 * scratch directory could not be made), not because it is not there. */
static int refused_write(int rc)
{
	return rc == -EACCES || rc == -EROFS || rc == -EPERM || rc == -EDQUOT ||
	       rc == -ENOSPC;
}

void nb_probe_target(const struct nb_target_cfg *cfg, const char *run_id,
		     struct nb_probe_target *out)
{
	struct nb_target_cfg c = *cfg;
	struct nb_target t;
	int rc;

	memset(out, 0, sizeof(*out));
	out->cfg = cfg;
	nb_url_redact(cfg->url, out->desc, sizeof(out->desc));
	c.run_id = run_id;
	c.destroy_data = 0;
	nb_err_clear();
	rc = nb_target_open(&t, &c);
	if (rc) {
		cause_of(out, refused_write(rc) ? NB_PROBE_READ_ONLY
						: NB_PROBE_UNREACHABLE);
		return;
	}
	snprintf(out->runner, sizeof(out->runner), "%s", t.ops->name);
	if (t.ops->ping)
		t.ops->ping(&t, &out->rtt_ns);
	if (t.caps & NB_CAP_BLOCK)
		probe_block(&t, out);
	else if (t.ops->space)
		t.ops->space(&t, &out->avail);
	nb_target_close(&t);
}

void nb_probe_pool_layout(const struct nb_tp_pool *p, char *layout, size_t len,
			  int *disks, int *logs)
{
	int nvdev = 0, nmirror = 0, nraidz = 0, parity = 0, nleaf = 0;

	layout[0] = '\0';
	*disks = *logs = 0;
	for (int i = 0; i < p->ndev; i++) {
		const struct nb_tp_pdev *d = &p->dev[i];

		if (d->special) {
			*logs += d->leaf;
			continue;
		}
		/* a disk: a vdev's member (a replacing-N or spare-N counts
		 * once), or a top-level vdev of one disk */
		if (d->depth == 2 || (d->depth == 1 && d->leaf))
			(*disks)++;
		if (d->depth != 1)
			continue;
		nvdev++;
		if (!strncmp(d->name, "mirror", 6)) {
			nmirror++;
		} else if (!strncmp(d->name, "raidz", 5)) {
			nraidz++;
			parity = d->name[5] >= '1' && d->name[5] <= '3' ?
				 d->name[5] - '0' : 1;
		} else if (d->leaf) {
			nleaf++;
		}
	}
	if (nvdev && nmirror == nvdev)
		snprintf(layout, len, "%s", nvdev == 1 ? "mirror" : "raid10");
	else if (nvdev && nraidz == nvdev && nvdev == 1)
		snprintf(layout, len, "raidz%d", parity);
	else if (nvdev && nraidz == nvdev)
		snprintf(layout, len, "%dxraidz%d", nvdev, parity);
	else if (nvdev && nleaf == nvdev)
		snprintf(layout, len, "%s", nvdev == 1 ? "single" : "stripe");
}

static void box_pools(struct nb_telem *tm, struct nb_probe_box *out)
{
	static struct nb_tp_pools ps;

	memset(&ps, 0, sizeof(ps));
	if (nb_telem_pools(tm, &ps) < 0)
		return;
	for (int i = 0; i < ps.n && out->npools < 4; i++) {
		int k = out->npools++;

		snprintf(out->pool[k], sizeof(out->pool[k]), "%s", ps.p[i].name);
		snprintf(out->state[k], sizeof(out->state[k]), "%s", ps.p[i].state);
		if (!ps.p[i].md)
			nb_probe_pool_layout(&ps.p[i], out->layout[k],
					     sizeof(out->layout[k]), &out->disks[k],
					     &out->logs[k]);
	}
}

void nb_probe_box(const char *monitor, const char *identity,
		  const char *known_hosts, struct nb_probe_box *out)
{
	struct nb_telem_cfg cfg = { .monitor = monitor, .identity = identity,
				    .known_hosts = known_hosts };
	struct nb_telem *tm = NULL;

	memset(out, 0, sizeof(*out));
	snprintf(out->monitor, sizeof(out->monitor), "%s", monitor);
	snprintf(out->identity, sizeof(out->identity), "%s", identity ? identity : "");
	snprintf(out->known_hosts, sizeof(out->known_hosts), "%s",
		 known_hosts ? known_hosts : "");
	nb_err_clear();
	if (nb_telem_check(monitor) || nb_telem_open(&tm, &cfg) || !tm) {
		snprintf(out->cause, sizeof(out->cause), "%s",
			 tm ? nb_err_last() : nb_telem_warning(NULL)[0] ?
			 nb_telem_warning(NULL) : nb_err_last());
		return;
	}
	out->reached = 1;
	snprintf(out->os, sizeof(out->os), "%s", nb_telem_os(tm));
	if (nb_telem_box_ram(tm, &out->ram))
		out->ram = 0;
	box_pools(tm, out);
	nb_telem_close(tm);
}
