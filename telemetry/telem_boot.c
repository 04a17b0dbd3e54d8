/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_boot.c - the box's boot identity over the telemetry's source:
 *                crashcheck's evidence that the box really went down
 *                (docs/crashcheck.md).
 */
#include "telem.h"
#include "telem_rt.h"
#include "../core/boxtext.h"
#include "../core/fsutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOOT_ID "/proc/sys/kernel/random/boot_id"

/* Linux's boot id (a new random UUID at every boot), else FreeBSD's boot
 * time ("{ sec = 1700000000, usec = 12345 } ..."): either changes when
 * the box restarts and never otherwise. */
static const char script[] =
	"cat " BOOT_ID " 2>/dev/null || sysctl -n kern.boottime 2>/dev/null";

/* The first line of TEXT into BUF, carried as text (core/boxtext.h: it
 * goes into the result); 0, or -EIO when it is empty. */
static int first_line(const char *text, char *buf, size_t len)
{
	size_t n = strcspn(text, "\r\n");

	if (!n)
		return -EIO;
	nb_boxtextn(buf, len, text, n);
	return 0;
}

int nb_telem_boot_id(struct nb_telem *tm, char *buf, size_t len)
{
	char *out = NULL, err[400];
	size_t n;
	int rc;

	if (!tm) {
		snprintf(buf, len, "no monitor ([box] monitor = ssh://...)");
		return -EIO;
	}
	if (!tm->ssh.host[0]) {
		rc = nb_read_file(BOOT_ID, &out, &n);
		if (rc) {
			snprintf(buf, len, "cannot read %s: %s", BOOT_ID, strerror(-rc));
			return -EIO;
		}
	} else if (nb_telem_ssh_run(tm, script, &out, err, sizeof(err))) {
		snprintf(buf, len, "%s", err);
		return -EIO;
	}
	rc = first_line(out, buf, len);
	if (rc)
		snprintf(buf, len, "the box gave neither %s nor kern.boottime",
			 BOOT_ID);
	free(out);
	return rc;
}
