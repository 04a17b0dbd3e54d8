/* telem_local.c - this machine's counters, and a box's answer parsed. */
#include "telem_rt.h"
#include "err.h"
#include "fsutil.h"
#include "spawn.h"

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

static void parse_section(const char *name, const char *body, int os,
			  struct nb_telem_snap *s, int *got)
{
	if (!strcmp(name, "stat"))
		*got += nb_tp_linux_stat(body, &s->cpu);
	else if (!strcmp(name, "meminfo"))
		*got += nb_tp_linux_meminfo(body, &s->mem);
	else if (!strcmp(name, "vmstat") && os == NB_TELEM_LINUX)
		nb_tp_linux_vmstat(body, &s->mem);
	else if (!strcmp(name, "diskstats"))
		nb_tp_linux_diskstats(body, &s->disks);
	else if (!strcmp(name, "arc-kstat"))
		nb_tp_arc_kstat(body, &s->arc);
	else if (!strcmp(name, "arc-kv"))
		nb_tp_arc_kv(body, &s->arc);
	else if (!strcmp(name, "sysctl"))
		*got += nb_tp_bsd_sysctl(body, &s->cpu, &s->mem, &s->arc);
	else if (!strcmp(name, "swapinfo"))
		nb_tp_bsd_swapinfo(body, &s->mem);
	else if (!strcmp(name, "vmstat"))
		nb_tp_bsd_vmstat(body, &s->cpu, &s->mem);
	else if (!strcmp(name, "iostat"))
		nb_tp_bsd_iostat(body, &s->disks);
	else if (!strcmp(name, "gstat") && !s->disks.n)
		nb_tp_bsd_gstat(body, &s->disks);
}

int nb_telem_parse_answer(const char *text, int os, struct nb_telem_snap *s)
{
	char *copy = strdup(text ? text : ""), *line = copy, *body = NULL;
	char name[32] = "";
	int got = 0;

	if (!copy)
		return 0;
	/* "@NAME" lines open sections; each ends where the next opens */
	while (line) {
		char *nl = strchr(line, '\n');

		if (*line == '@') {
			if (line > copy)
				line[-1] = 0;
			if (body)
				parse_section(name, body, os, s, &got);
			if (nl)
				*nl = 0;
			snprintf(name, sizeof(name), "%s", line + 1);
			body = nl ? nl + 1 : "";
		}
		line = nl ? nl + 1 : NULL;
	}
	if (body)
		parse_section(name, body, os, s, &got);
	free(copy);
	return got;
}

/* Run ARGV here or SCRIPT on the box: its output (free it), or NULL. */
static char *box_out(struct nb_telem *tm, char *const *argv, const char *script)
{
	struct nb_spawn sp = { .argv = argv, .limit_us = tm->timeout_us };
	char err[256], *out = NULL;

	if (tm->ssh.host[0]) {
		if (nb_telem_ssh_run(tm, script, &out, err, sizeof(err)))
			free(out), out = NULL;
		return out;
	}
	if (nb_spawn_run(&sp) == 0 && sp.status == 0)
		out = sp.out, sp.out = NULL;
	nb_spawn_free(&sp);
	nb_err_clear();
	return out;
}

/* Keep the vdevs of the pool that holds TM->path (none when it is on no
 * dataset); all of them when the path is not known. */
static void vdevs_of_path(struct nb_telem *tm)
{
	char *const argv[] = { "zfs", "list", "-H", "-o", "name,mountpoint", NULL };
	char *out, pool[NB_TP_NAME];
	int n = 0, on;

	if (!tm->path[0] || !tm->vdevs.n)
		return;
	out = box_out(tm, argv, "zfs list -H -o name,mountpoint 2>/dev/null");
	on = out && nb_tp_zfs_pool_of(out, tm->path, pool, sizeof(pool));
	free(out);
	for (int i = 0; i < tm->vdevs.n; i++)
		if (on && !strcmp(tm->vdevs.v[i].pool, pool))
			tm->vdevs.v[n++] = tm->vdevs.v[i];
	tm->vdevs.n = n;
}

void nb_telem_vdevs(struct nb_telem *tm)
{
	char *const argv[] = { "zpool", "iostat", "-v", NULL };
	char *out = box_out(tm, argv, "zpool iostat -v 2>/dev/null");

	/* no zpool, or no pool: no vdevs, and no slow-disk verdict */
	tm->vdevs.n = 0;
	if (out)
		nb_tp_zpool_iostat(out, &tm->vdevs);
	free(out);
	vdevs_of_path(tm);
}
