/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iscsi_ident.c - what LU a session reaches, as the LU names itself: the
 * designators of its Device Identification VPD page (0x83) that name the
 * logical unit (NAA, EUI-64, MD5 or SCSI name string), else its unit
 * serial number (page 0x80), else its T10 vendor ID.  Two paths lead to
 * the same LU when they share one (libiscsi's test tool checks a second,
 * "multipath" URL the same way; docs/network.md).
 */
#include "iscsi_rt.h"
#include "../core/err.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

/* INQUIRY of VPD page PAGE, its whole answer: 0 with *TASK (free it). */
static int vpd(struct iscsi *p, int page, const char *what,
	       struct scsi_task **task)
{
	struct wait w = { 0 };
	int rc, full;

	rc = nb_iscsi_run_task(p, iscsi_inquiry_task(p->ctx, p->lun, 1, page, 255,
						     nb_iscsi_wait_cb, &w),
			       &w, what, task);
	if (rc)
		return rc;
	full = scsi_datain_getfullsize(*task);
	if (full <= (*task)->datain.size)
		return 0;
	scsi_free_scsi_task(*task);
	memset(&w, 0, sizeof(w));
	return nb_iscsi_run_task(p, iscsi_inquiry_task(p->ctx, p->lun, 1, page, full,
						       nb_iscsi_wait_cb, &w),
				 &w, what, task);
}

static const char *prefix(int type)
{
	switch (type) {
	case SCSI_DESIGNATOR_TYPE_NAA: return "naa.";
	case SCSI_DESIGNATOR_TYPE_EUI_64: return "eui.";
	case SCSI_DESIGNATOR_TYPE_MD5_LOGICAL_UNIT_IDENTIFIER: return "md5.";
	case SCSI_DESIGNATOR_TYPE_SCSI_NAME_STRING: return "";
	case SCSI_DESIGNATOR_TYPE_T10_VENDORT_ID: return "t10.";
	default: return NULL;
	}
}

/* Append designator D to ID (space-separated): hex for a binary one, the
 * text (spaces as '_') for an ASCII or UTF-8 one. */
static void append(char *id, size_t len, const struct scsi_inquiry_device_designator *d)
{
	size_t n = strlen(id);

	n += (size_t)snprintf(id + n, len - n, "%s%s", n ? " " : "",
			      prefix(d->designator_type));
	for (int i = 0; i < d->designator_length && n + 3 < len; i++) {
		unsigned char c = (unsigned char)d->designator[i];

		if (d->code_set == SCSI_CODESET_BINARY)
			n += (size_t)snprintf(id + n, len - n, "%02x", c);
		else if (c)
			id[n++] = c == ' ' ? '_' : (char)c;
		id[n] = '\0';
	}
	/* T10 IDs end in padding */
	while (n && id[n - 1] == '_')
		id[--n] = '\0';
}

/* The LU's designators of the strong kinds (WEAK 0) or its T10 vendor ID
 * (WEAK 1) into ID. */
static void designators(const struct scsi_inquiry_device_identification *di,
			int weak, char *id, size_t len)
{
	for (const struct scsi_inquiry_device_designator *d = di->designators;
	     d; d = d->next) {
		int t = d->designator_type;

		if (d->association != SCSI_ASSOCIATION_LOGICAL_UNIT ||
		    d->designator_length <= 0 || !prefix(t))
			continue;
		if ((t == SCSI_DESIGNATOR_TYPE_T10_VENDORT_ID) == weak)
			append(id, len, d);
	}
}

/* The unit serial number (page 0x80) as "serial.USN", or "". */
static void serial(struct iscsi *p, char *id, size_t len)
{
	struct scsi_inquiry_unit_serial_number *usn;
	struct scsi_task *task;
	const char *s;

	if (vpd(p, SCSI_INQUIRY_PAGECODE_UNIT_SERIAL_NUMBER, "INQUIRY (unit "
		"serial number)", &task)) {
		nb_err_clear();
		return;
	}
	usn = scsi_datain_unmarshall(task);
	s = usn && usn->usn ? usn->usn + strspn(usn->usn, " ") : "";
	if (*s)
		snprintf(id, len, "serial.%s", s);
	scsi_free_scsi_task(task);
}

int nb_iscsi_ident(struct nb_target *t, char *id, size_t len)
{
	struct iscsi *p = t->priv;
	struct scsi_inquiry_device_identification *di;
	struct scsi_task *task;
	int rc;

	id[0] = '\0';
	rc = vpd(p, SCSI_INQUIRY_PAGECODE_DEVICE_IDENTIFICATION,
		 "INQUIRY (device identification)", &task);
	if (rc && rc != -EINVAL)
		return rc;
	nb_err_clear();
	di = rc ? NULL : scsi_datain_unmarshall(task);
	if (di)
		designators(di, 0, id, len);
	if (!id[0])
		serial(p, id, len);
	if (!id[0] && di)
		designators(di, 1, id, len);
	if (!rc)
		scsi_free_scsi_task(task);
	if (!id[0])
		return nb_err(-ENODATA, "target '%s': LUN %d of '%s' at '%s' names "
			      "itself by no identifier (no Device Identification "
			      "designator, no unit serial number)", t->cfg->name,
			      p->lun, p->iqn, p->portal);
	return 0;
}
