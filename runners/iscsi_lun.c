/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iscsi_lun.c - what the iSCSI runner asks a LUN once logged in: is it a
 * disk (INQUIRY), how large (READ CAPACITY(16)), the window on it, and
 * its write cache (MODE SENSE caching page).
 */
#include "iscsi_rt.h"
#include "../core/err.h"

#include <errno.h>
#include <stdio.h>

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

/* The LUN's write cache from MODE SENSE(6)'s caching page: a write
 * without FUA is durable on its return only when WCE is off. */
void nb_iscsi_write_cache(struct nb_target *t, struct iscsi *p)
{
	struct scsi_mode_sense *ms;
	struct scsi_mode_page *pg;
	struct scsi_task *task;
	struct wait w = { 0 };

	t->write_cache = NB_WC_UNKNOWN;
	if (nb_iscsi_run_task(p, iscsi_modesense6_task(p->ctx, p->lun, 1,
			      SCSI_MODESENSE_PC_CURRENT, SCSI_MODEPAGE_CACHING, 0,
			      255, nb_iscsi_wait_cb, &w), &w, "MODE SENSE", &task)) {
		nb_err_clear();      /* a LUN that does not say: unknown */
		return;
	}
	ms = scsi_datain_unmarshall(task);
	pg = ms ? scsi_modesense_get_page(ms, SCSI_MODEPAGE_CACHING, 0) : NULL;
	if (pg)
		t->write_cache = pg->caching.wce ? NB_WC_ON : NB_WC_OFF;
	scsi_free_scsi_task(task);
}

static const char *device_type_name(int type)
{
	switch (type) {
	case 0x01: return "a tape drive";
	case 0x05: return "a CD/DVD drive";
	case 0x0c: return "a storage array controller";
	case 0x0d: return "an enclosure";
	default: return "not a disk";
	}
}

/* The LUN must exist and be a disk (tgt's LUN 0 is its controller). */
int nb_iscsi_check_lun(struct nb_target *t, struct iscsi *p)
{
	struct scsi_inquiry_standard *inq;
	struct scsi_task *task;
	struct wait w = { 0 };
	int rc;

	rc = nb_iscsi_run_task(p, iscsi_inquiry_task(p->ctx, p->lun, 0, 0, 64, nb_iscsi_wait_cb, &w),
		      &w, "INQUIRY", &task);
	if (rc == -EINVAL)
		return nb_err(-ENXIO, "target '%s': LUN %d does not exist on '%s'",
			      t->cfg->name, p->lun, p->iqn);
	if (rc)
		return rc;
	inq = scsi_datain_unmarshall(task);
	if (!inq) {
		scsi_free_scsi_task(task);
		return nb_err(-EIO, "target '%s': unreadable INQUIRY answer from "
			      "LUN %d", t->cfg->name, p->lun);
	}
	if (inq->qualifier != 0) {
		scsi_free_scsi_task(task);
		return nb_err(-ENXIO, "target '%s': LUN %d does not exist on '%s'",
			      t->cfg->name, p->lun, p->iqn);
	}
	if (inq->device_type != 0) {
		int type = inq->device_type;

		scsi_free_scsi_task(task);
		return nb_err(-ENXIO, "target '%s': LUN %d of '%s' is %s (SCSI "
			      "device type 0x%02x), not a disk%s", t->cfg->name,
			      p->lun, p->iqn, device_type_name(type), type,
			      type == 0x0c ? "; tgt's LUN 0 is its controller and "
			      "its disks start at LUN 1" : "");
	}
	scsi_free_scsi_task(task);
	return 0;
}

int nb_iscsi_read_capacity(struct nb_target *t, struct iscsi *p, uint64_t *cap)
{
	struct scsi_readcapacity16 *rc16;
	struct scsi_task *task;
	struct wait w = { 0 };
	int rc;

	rc = nb_iscsi_run_task(p, iscsi_readcapacity16_task(p->ctx, p->lun, nb_iscsi_wait_cb, &w),
		      &w, "READ CAPACITY(16)", &task);
	if (rc)
		return rc;
	rc16 = scsi_datain_unmarshall(task);
	if (!rc16 || !rc16->block_length || rc16->block_length > 65536 ||
	    (rc16->block_length & (rc16->block_length - 1))) {
		scsi_free_scsi_task(task);
		return nb_err(-EIO, "target '%s': unusable READ CAPACITY(16) "
			      "answer from LUN %d", t->cfg->name, p->lun);
	}
	t->block_size = rc16->block_length;
	*cap = (rc16->returned_lba + 1) * rc16->block_length;
	scsi_free_scsi_task(task);
	return 0;
}

/* The window offset/size on a LUN of CAP bytes. */
int nb_iscsi_set_window(struct nb_target *t, uint64_t cap)
{
	const struct nb_target_cfg *c = t->cfg;

	if (c->offset % t->block_size || c->size % t->block_size)
		return nb_err(-EINVAL, "target '%s': offset and size must be "
			      "multiples of the LUN's block size %u", c->name,
			      t->block_size);
	if (c->offset >= cap)
		return nb_err(-EINVAL, "target '%s': offset %llu is past the end "
			      "of the LUN (%llu bytes)", c->name,
			      (unsigned long long)c->offset,
			      (unsigned long long)cap);
	cap -= c->offset;
	if (c->size) {
		if (c->size > cap)
			return nb_err(-ENOSPC, "target '%s': the LUN has %llu bytes "
				      "past the offset, fewer than the size %llu",
				      c->name, (unsigned long long)cap,
				      (unsigned long long)c->size);
		cap = c->size;
	}
	t->capacity = cap;
	return 0;
}

