/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio_driver_remote.c - fio's nfs and libiscsi engines for nfs:// and
 *                       iscsi:// targets (see fio_driver_remote.h).
 */
#include "fio_driver_remote.h"
#include "fio_driver_paths.h"
#include "../../core/err.h"
#include "../../fio/engines.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int nb_wl_fio_is_remote(const struct nb_target *t)
{
	return !t->ops->local_path && t->ops->remote_path &&
	       nb_fio_remote_engine(t->cfg->u.scheme);
}

/* What fio's engine does with the sync mode S asks for: warnings. */
static void sync_warnings(struct nb_wl_ctx *c, const struct nb_iospec *s,
			  struct nb_wl_fio_where *w)
{
	w->durable = 1;
	if (s->rw == NB_RW_READ)
		return;
	if (!strcmp(w->engine, "nfs")) {
		w->durable = 0;
		nb_wl_warn(c, "not durable: fio's nfs engine sends no COMMIT (it "
			   "has no flush) and no FILE_SYNC, so these writes were "
			   "UNSTABLE and never committed; hold them against "
			   "nasbench's --sync none, not against durable writes");
	} else if (s->sync == NB_SYNC_ALWAYS) {
		nb_wl_warn(c, "fio's libiscsi engine sends no FUA: sync = always "
			   "ran as sync = end (one SYNCHRONIZE CACHE at the end)");
	}
}

int nb_wl_fio_remote_prepare(struct nb_wl_ctx *c, const struct nb_iospec *s,
			     struct nb_wl_fio_where *w)
{
	struct nb_target *t = c->t;
	struct nb_file *f;
	int rc;

	memset(w, 0, sizeof(*w));
	w->engine = nb_fio_remote_engine(t->cfg->u.scheme);
	/* the same preparation (and data-loss guard) as the native engine */
	rc = nb_wl_io_open(c, s, &f);
	if (rc)
		return rc;
	t->ops->fclose(f);
	rc = t->ops->remote_path(t, "data", w->url, sizeof(w->url), w->path,
				 sizeof(w->path), &w->base);
	if (!rc)
		rc = nb_wl_fio_paths_where(t, w);
	if (rc)
		return rc;
	sync_warnings(c, s, w);
	return 0;
}

void nb_wl_fio_remote_job(struct nb_wl_fio_where *w, int client,
			  struct nb_fio_job *job)
{
	/* several paths: client K by path K */
	const char *url = w->npaths && client ? w->purl[(client - 1) % w->npaths]
					      : w->url;

	job->ioengine = w->engine;
	job->unlink = 0;
	if (!strcmp(w->engine, "nfs")) {
		job->nfs_url = url;
		job->filename = w->path;
		job->offset = 0;
		return;
	}
	/* one initiator name per client: two sessions under one name (and
	 * libiscsi's ISID) would make the target drop the first */
	if (client)
		snprintf(w->initiator, sizeof(w->initiator),
			 "iqn.2026-11.org.nasbench:fio-c%d", client);
	else
		snprintf(w->initiator, sizeof(w->initiator),
			 "iqn.2026-11.org.nasbench:fio");
	job->initiator = w->initiator;
	job->filename = url;
	job->offset = w->base;
}
