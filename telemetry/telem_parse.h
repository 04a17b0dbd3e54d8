/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_parse.h - what a box's counters say, read from the text its
 *                 kernel and tools print (Linux and FreeBSD).
 *
 * Pure functions: a text in, counters out.  No file is opened and no
 * program run here (telemetry/telem.c samples; these read what it got), so
 * each parser is tested on recorded outputs (tests/golden/telemetry/).
 *
 * Every parser fills what it finds and leaves the rest as it was; it
 * returns the number of values it took (0: the text was not what it
 * reads), never an error: a box that prints less gives fewer figures,
 * not a failed run.
 *
 * The text is another machine's, not trusted: a name is carried as
 * core/boxtext.h makes it (UTF-8, "\xNN" for the rest); a counter is a
 * whole number of 64 bits at most, a figure finite and within what a
 * box can give (NB_TP_MAX_*); a value that is not is refused, the item
 * it belongs to (a CPU, a disk, a key) not taken, and counted in the
 * struct's REFUSED (telemetry says so, and the series has a gap); a line
 * longer than the parser's buffer (1024 bytes) is refused whole, not
 * read cut; a line may end in CRLF.
 *
 *   Linux    /proc/stat          per-CPU jiffies     nb_tp_linux_stat
 *            /proc/meminfo       memory, swap        nb_tp_linux_meminfo
 *            /proc/vmstat        pages swapped       nb_tp_linux_vmstat
 *            /proc/diskstats     time busy per disk  nb_tp_linux_diskstats
 *            /proc/spl/kstat/zfs/arcstats (OpenZFS)  nb_tp_arc_kstat
 *            /zfs-kstat/zfs/arcstats/NAME (zfs-fuse: a file per counter,
 *                                "NAME VALUE" lines once gathered)
 *                                                    nb_tp_arc_kv
 *   FreeBSD  sysctl kstat.zfs.misc.arcstats vm.stats kern.cp_times
 *                                                    nb_tp_bsd_sysctl
 *            swapinfo -k                             nb_tp_bsd_swapinfo
 *            vmstat                                  nb_tp_bsd_vmstat
 *            iostat -x (the last report)             nb_tp_bsd_iostat
 *            gstat -b                                nb_tp_bsd_gstat
 *   both     zpool iostat -v     vdevs and their disks  nb_tp_zpool_iostat
 *            zpool status        health, devices' errors, the scan
 *                                (resilver, scrub): OpenZFS's 'scan:'
 *                                and zfs-fuse's (Solaris') 'scrub:' lines
 *                                                    nb_tp_zpool_status
 *   Linux    /proc/mdstat        md arrays: health, recovery/resync
 *                                                    nb_tp_mdstat
 *            (telem_pool.c)
 */
#ifndef NB_TELEM_PARSE_H
#define NB_TELEM_PARSE_H

#include "../boxparse/text.h"

#include <stddef.h>
#include <stdint.h>

#define NB_TP_MAXCPU 128
#define NB_TP_MAXDISK 64
#define NB_TP_MAXVDEV 32
#define NB_TP_VDEV_DISKS 24
#define NB_TP_NAME 48

/* What no box gives: a figure beyond one of these is not a number its
 * counters can say (a 400-digit counter, 1e30).  Ten times and more
 * beyond the fastest devices there are. */
#define NB_TP_MAX_BYTES 1152921504606846976.0  /* 2^60: memory, a pool's bytes */
#define NB_TP_MAX_IOPS 1e9       /* I/Os (NFS operations, ARC lookups) a
				  * second of one device, pool or server */
#define NB_TP_MAX_BPS 1e13       /* bytes a second of one device or pool */

/* Per CPU: time busy and time in all, in the kernel's ticks. */
struct nb_tp_cpu {
	int n;
	uint64_t busy[NB_TP_MAXCPU], total[NB_TP_MAXCPU];
	double pct_all;          /* vmstat's us+sy when no per-CPU ticks (-1: none) */
	int refused;             /* CPUs whose counters were not numbers */
};

/* Memory in bytes (0 when not known, except where said). */
struct nb_tp_mem {
	uint64_t total, avail, cached;
	uint64_t swap_total, swap_used;
	int have_swap;           /* swap_total/swap_used were read */
	uint64_t swap_in, swap_out; /* pages swapped in and out since boot */
	uint64_t page_size;      /* bytes of those pages (0: 4096) */
	int refused;             /* values that were not numbers */
};

/* One disk: milliseconds busy since boot (Linux), or the busy share of
 * the tool's last interval (FreeBSD iostat %b, gstat %busy). */
struct nb_tp_disk {
	char name[NB_TP_NAME];
	uint64_t io_ms;
	double busy_pct;         /* -1: not given, compute from io_ms */
	uint64_t ios;            /* reads + writes completed (Linux) */
	uint64_t read_bytes;     /* read since boot (Linux) */
	double read_rate;        /* bytes/s read in the tool's interval
				  * (FreeBSD iostat; -1: not given) */
	double ms_per_io;        /* the tool's mean time per transaction
				  * (FreeBSD iostat ms/t; -1: not given) */
};

struct nb_tp_disks {
	int n;
	struct nb_tp_disk d[NB_TP_MAXDISK];
	int refused;             /* disks whose counters were not numbers */
	char refused_name[NB_TP_NAME];   /* the first of them */
};

/* The ARC's counters since the module loaded. */
struct nb_tp_arc {
	int have;
	uint64_t hits, misses, size, c_max;
	uint64_t demand_data_hits, demand_data_misses;
	int refused;             /* counters that were not numbers */
};

int nb_tp_linux_stat(const char *text, struct nb_tp_cpu *cpu);
int nb_tp_linux_meminfo(const char *text, struct nb_tp_mem *mem);
int nb_tp_linux_vmstat(const char *text, struct nb_tp_mem *mem);
/* Whole disks only: partitions (sda1, nvme0n1p2) and devices that never
 * did an I/O (idle loop devices, zram) are left out. */
int nb_tp_linux_diskstats(const char *text, struct nb_tp_disks *d);

/* "NAME TYPE DATA" lines after kstat's two header lines (OpenZFS). */
int nb_tp_arc_kstat(const char *text, struct nb_tp_arc *arc);
/* "NAME VALUE" lines (zfs-fuse's files, gathered). */
int nb_tp_arc_kv(const char *text, struct nb_tp_arc *arc);

/* "NAME: VALUE" lines of sysctl: kstat.zfs.misc.arcstats.*, vm.stats.vm.*
 * (free, inactive, laundry and cache pages as available), hw.physmem,
 * hw.pagesize, kern.cp_times (user nice sys intr idle per CPU). */
int nb_tp_bsd_sysctl(const char *text, struct nb_tp_cpu *cpu,
		     struct nb_tp_mem *mem, struct nb_tp_arc *arc);
int nb_tp_bsd_swapinfo(const char *text, struct nb_tp_mem *mem);
/* vmstat's last line: free memory (fre, KiB) and CPU busy (100 - id). */
int nb_tp_bsd_vmstat(const char *text, struct nb_tp_cpu *cpu,
		     struct nb_tp_mem *mem);
/* The last "extended device statistics" report: %b per device. */
int nb_tp_bsd_iostat(const char *text, struct nb_tp_disks *d);
/* gstat -b: %busy per provider (partitions left out). */
int nb_tp_bsd_gstat(const char *text, struct nb_tp_disks *d);

/* Lines, words, counters and names are read as boxparse/text.h reads
 * them.  "1.2K", "300M": a number with a binary suffix, at most
 * NB_TP_MAX_BYTES (-1: not such a number). */
double nb_tp_size(const char *s);

/* The disk named NAME in D, or NULL. */
const struct nb_tp_disk *nb_tp_disk_find(const struct nb_tp_disks *d,
					 const char *name);

#endif
