/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * refusal.c - workloads a runner must not run: the figure would look like
 * the original tool's and mean something else.  A refused pair is a usage
 * error (exit 2) before anything runs, with what to run instead; a pair
 * that merely cannot run (a capability missing) is skipped instead
 * (nb_workload_unsupported).
 */
#include "workload.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *workload, *runner;
	const char *why, *instead;
} refusals[] = {
	{ "bonnie", "nfs",
	  "nasbench's NFS client would send its I/O one synchronous 8 KiB "
	  "request at a time, without the write-behind and read-ahead of the "
	  "kernel NFS client bonnie++ runs on: a figure no bonnie++ user ever "
	  "saw",
	  "mount the export (mount -t nfs -o vers=3 HOST:/EXPORT /mnt/nas) and "
	  "run bonnie on the mount (-t /mnt/nas), or run seq512k-write,"
	  "seq512k-read on this target" },
	{ "bonnie", "iscsi",
	  "nasbench's iSCSI initiator would send its I/O one synchronous 8 KiB "
	  "request at a time, with no file system and none of the kernel's "
	  "write-behind and read-ahead that bonnie++ runs on: a figure no "
	  "bonnie++ user ever saw",
	  "log in with iscsiadm, make a file system on the LUN and run bonnie on "
	  "it (-t /mnt/lun), or run seq512k-write,seq512k-read on this target" },
};

const char *nb_workload_refused(const struct nb_workload *w, const char *runner,
				char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		if (strcmp(refusals[i].workload, w->name) ||
		    strcmp(refusals[i].runner, runner))
			continue;
		snprintf(buf, len, "%s is refused on %s:// targets: %s; instead, %s",
			 w->name, runner, refusals[i].why, refusals[i].instead);
		return buf;
	}
	return NULL;
}
