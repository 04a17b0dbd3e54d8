/* SPDX-License-Identifier: GPL-2.0-or-later */
/* telem_local.c - this machine's counters. */
#include "telem_rt.h"
#include "../core/err.h"
#include "../core/fsutil.h"
#include "../core/spawn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARC_KSTAT "/proc/spl/kstat/zfs/arcstats"
#define ARC_FUSE "/zfs-kstat/zfs/arcstats"

/* The ARC counters nasbench reads, as zfs-fuse's file names. */
static const char *const arc_names[] = {
	"hits", "misses", "size", "c_max", "demand_data_hits",
	"demand_data_misses",
};

int nb_telem_local_probe(struct nb_telem *tm)
{
	char p[128];

	if (access("/proc/stat", R_OK) || access("/proc/meminfo", R_OK)) {
		nb_telem_warn(tm, "this machine has no /proc/stat or "
			      "/proc/meminfo: no telemetry");
		return -ENOENT;
	}
	snprintf(p, sizeof(p), "%s/hits", ARC_FUSE);
	if (!access(ARC_KSTAT, R_OK))
		tm->arc_kind = NB_ARC_KSTAT;
	else if (!access(p, R_OK))
		tm->arc_kind = NB_ARC_KV;
	return 0;
}

/* zfs-fuse's counter files as "NAME VALUE" lines into BUF. */
static void arc_fuse(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(arc_names) / sizeof(arc_names[0]); i++) {
		char path[128], *v = NULL;

		snprintf(path, sizeof(path), "%s/%s", ARC_FUSE, arc_names[i]);
		if (nb_read_file(path, &v, NULL))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s %s\n",
					arc_names[i], v);
		free(v);
		if (off >= len)
			break;
	}
}

int nb_telem_local_sample(struct nb_telem *tm, struct nb_telem_snap *s)
{
	static const struct {
		const char *path;
		int which;
	} files[] = {
		{ "/proc/stat", 0 }, { "/proc/meminfo", 1 },
		{ "/proc/vmstat", 2 }, { "/proc/diskstats", 3 },
	};
	char arc[1024];
	int got = 0;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *text = NULL;

		if (nb_read_file(files[i].path, &text, NULL))
			continue;
		switch (files[i].which) {
		case 0: got += nb_tp_linux_stat(text, &s->cpu); break;
		case 1: got += nb_tp_linux_meminfo(text, &s->mem); break;
		case 2: nb_tp_linux_vmstat(text, &s->mem); break;
		default: nb_tp_linux_diskstats(text, &s->disks); break;
		}
		free(text);
	}
	if (tm->arc_kind == NB_ARC_KSTAT) {
		char *text = NULL;

		if (!nb_read_file(ARC_KSTAT, &text, NULL))
			nb_tp_arc_kstat(text, &s->arc);
		free(text);
	} else if (tm->arc_kind == NB_ARC_KV) {
		arc_fuse(arc, sizeof(arc));
		nb_tp_arc_kv(arc, &s->arc);
	}
	return got ? 0 : -EIO;
}
