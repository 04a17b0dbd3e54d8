/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iscsi_unmap.c - TRIM on an iSCSI LUN: SCSI UNMAP over the window.
 *
 * One descriptor per command, at most UNMAP_BLOCKS blocks each.  A LUN
 * that is not thin-provisioned (tgtd without thin_provisioning=1) answers
 * ILLEGAL REQUEST: that is -EOPNOTSUPP, "the LUN refuses UNMAP", and the
 * caller decides whether the run goes on.
 */
#include "iscsi_rt.h"
#include "../core/err.h"

#include <errno.h>
#include <stdio.h>

#define UNMAP_BLOCKS (1U << 20)

static int refused(struct nb_target *t, int rc)
{
	char why[512];

	if (rc != -EINVAL)
		return rc;
	snprintf(why, sizeof(why), "%s", nb_err_last());
	return nb_err(-EOPNOTSUPP, "%s: the LUN refuses UNMAP (is it "
		      "thin-provisioned? tgtd: --params thin_provisioning=1)",
		      why[0] ? why : t->cfg->name);
}

int nb_iscsi_discard(struct nb_file *f, uint64_t off, uint64_t len,
		     const char **how)
{
	struct nb_target *t = f->t;
	struct iscsi *p = t->priv;
	uint32_t bs = t->block_size ? t->block_size : 512;
	uint64_t lba = (f->base + off) / bs, left = len / bs;

	*how = "SCSI UNMAP";
	if ((f->base + off) % bs || len % bs)
		return nb_err(-EINVAL, "target '%s': UNMAP of %llu bytes at %llu is "
			      "not in whole %u-byte blocks", t->cfg->name,
			      (unsigned long long)len,
			      (unsigned long long)(f->base + off), bs);
	if (p->lost)
		return nb_err(p->lost, "target '%s': %s", t->cfg->name, p->lost_why);
	while (left) {
		struct unmap_list d = { .lba = lba,
					.num = left < UNMAP_BLOCKS ?
					       (uint32_t)left : UNMAP_BLOCKS };
		struct scsi_task *task;
		struct wait w = { 0 };
		int rc = nb_iscsi_run_task(p, iscsi_unmap_task(p->ctx, p->lun, 0, 0,
							       &d, 1, nb_iscsi_wait_cb,
							       &w),
					   &w, "UNMAP", &task);

		if (rc)
			return refused(t, rc);
		scsi_free_scsi_task(task);
		lba += d.num;
		left -= d.num;
	}
	return 0;
}
