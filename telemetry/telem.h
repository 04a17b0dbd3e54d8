/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem.h - what the box did while it was measured: its CPU, memory, swap,
 *           disks and ZFS ARC, sampled for the length of an iteration.
 *
 * A source is this machine ("local": a local target, or the ZFS lab, where
 * the client is the box) or a box reached over SSH ("ssh://user@host[:port]":
 * OpenSSH's client in batch mode, keys or an agent only, one connection
 * multiplexed for the run through a control socket in a scratch directory
 * of its own; an iteration's samples come from one remote loop).  Linux boxes give /proc and the ARC's kstat (OpenZFS, or
 * zfs-fuse's /zfs-kstat files); FreeBSD/TrueNAS boxes sysctl, swapinfo and
 * iostat -x; both 'zpool iostat -v' for the pools' vdevs.
 *
 * The sampler is a thread of its own that reads counters once an interval
 * and never touches the I/O: the engine's loop is not waited on, nor
 * locked.  A box that cannot be reached, or that gives neither Linux's nor
 * FreeBSD's counters, is a warning (nb_telem_warning), never a failed run:
 * every remote step is bounded by a timeout.
 *
 *     struct nb_telem *tm;
 *     nb_telem_open(&tm, &cfg);            // NULL tm: none (warning set)
 *     nb_telem_start(tm);                  // the iteration begins
 *     ...the I/O...
 *     json_t *j = nb_telem_stop(tm);       // its series and summary
 *     nb_telem_close(tm);
 *
 * The object nb_telem_stop() returns (see docs/telemetry.md;
 * docs/telemetry.md):
 *
 *   { "source": "local", "os": "linux", "interval_ms": 1000,
 *     "t0_ms": (the monotonic clock at the start, in ms),
 *     "series": { "t_ms": [1000, 2000], "cpu_busy_max_pct": [..],
 *                 "cpu_busy_pct": [..], "mem_avail_bytes": [..],
 *                 "swap_used_bytes": [..], "swap_io_pages": [..],
 *                 "arc_hit_pct": [.. or null], "arc_size_bytes": [..],
 *                 "disk_busy_pct": { "loop0": [..], ... } },
 *     "summary": { "samples": 2, "seconds": 2.0,
 *                  "cpu_busy_max_pct": 97.0, "cpu_busiest": "cpu1",
 *                  "mem_total_bytes": .., "mem_avail_min_bytes": ..,
 *                  "mem_avail_min_pct": ..,
 *                  "swap_used_max_bytes": .., "swapped_bytes": ..,
 *                  "arc_hits": .., "arc_misses": .., "arc_hit_pct": ..,
 *                  "arc_size_max_bytes": ..,
 *                  "disk_busy_pct": { "loop0": 41.0, ... },
 *                  "disk_busiest": "loop3", "disk_least_busy": "loop1" },
 *     "vdevs": [ { "pool": "tank", "vdev": "raidz1-0",
 *                  "disks": ["loop0", ...] } ],
 *     "cost_cpu_ms": { "thread": 3.1, "children": 41.0 } }
 *
 * cost_cpu_ms: the sampler thread's CPU in the iteration, and that of the
 * process's children that ended in it (the sampler's ssh and zpool).
 */
#ifndef NB_TELEM_H
#define NB_TELEM_H

#include <jansson.h>
#include <stdint.h>

#include "telem_pool.h"

/* A remote step's time limit where the caller sets none. */
#define NB_TELEM_TIMEOUT_US 10000000ULL

/* The most one answer of the box may hold: one without end is cut
 * there and refused (with the time limit, a box that talks forever
 * costs neither memory nor a hang). */
#define NB_TELEM_ANSWER_MAX (16u << 20)

struct nb_telem_cfg {
	const char *monitor;     /* "local" or "ssh://[user@]host[:port]" */
	uint64_t interval_us;    /* 0: [box] monitor-interval's default */
	uint64_t timeout_us;     /* each remote step (0: NB_TELEM_TIMEOUT_US) */
	const char *identity;    /* ssh -i (NULL: the agent / ssh's own) */
	const char *known_hosts; /* UserKnownHostsFile (NULL: ssh's own) */
	const char *ssh;         /* the ssh program (NULL: "ssh") */
};

struct nb_telem;

/* Check MONITOR's syntax: 0, or -EINVAL with the reason set ("monitor
 * 'x': ..."); a password in it is refused (keys or an agent only). */
int nb_telem_check(const char *monitor);

/* Open the source of CFG: for SSH, connect (the run's one multiplexed
 * connection) and tell the box's system by uname.  0 with *TM set; or,
 * when the box cannot be watched, 0 with *TM NULL and nb_telem_warning(NULL)
 * saying why ("telemetry from 'ssh://lab@198.18.14.2:2222': ..."). -errno
 * only for a bad CFG (detail set). */
int nb_telem_open(struct nb_telem **tm, const struct nb_telem_cfg *cfg);

/* Where the data of the target being measured is on the box (a local
 * path, an NFS export's path; NULL or "": unknown, an iSCSI LUN): only
 * the pool that holds it has its vdevs judged ('zfs list'), none when it
 * is on no pool.  Until changed, for every start. */
void nb_telem_set_path(struct nb_telem *tm, const char *path);

/* A remote box's memory (MemTotal, hw.physmem), from one snapshot taken
 * now (not while sampling): 0, or -ENOENT when TM is not an ssh://
 * source or the box did not say. */
int nb_telem_box_ram(struct nb_telem *tm, uint64_t *bytes);

/* Begin sampling (a thread).  0 or -errno (detail set). */
int nb_telem_start(struct nb_telem *tm);

/* Stop sampling and hand over what it saw (new reference; NULL when it
 * saw nothing).  A source lost while sampling leaves a warning. */
json_t *nb_telem_stop(struct nb_telem *tm);

/* The last warning of TM (or of the last failed open, with NULL), "" when
 * none; cleared by the next start. */
const char *nb_telem_warning(const struct nb_telem *tm);

/* The source's name for people and results (no secret is ever in it). */
const char *nb_telem_source(const struct nb_telem *tm);

/* The box's system: "linux" or "freebsd". */
const char *nb_telem_os(const struct nb_telem *tm);

/* A command for the box's shell, for callers that read other counters
 * than the sampler's over the same source (capture/): C->argv runs SCRIPT
 * with sh -c on this machine (a local source) or over TM's one ssh
 * connection.  C must outlive the start of the program (nb_spawn). */
struct nb_telem_cmd {
	char *argv[40];
	char bufs[16][320];
};
void nb_telem_command(struct nb_telem *tm, const char *script,
		      struct nb_telem_cmd *c);

/* Run SCRIPT so, bounded by the source's timeout: 0 with its standard
 * output in *OUT (free it; a NUL byte in it made SUB, nb_telem_text), or
 * -EIO with why in ERR ("ssh: Connection refused", "no answer within 10
 * s", "exit status 2: ...", "an answer of more than 16 MiB"; what the box
 * said in it carried as core/boxtext.h makes it). */
int nb_telem_exec(struct nb_telem *tm, const char *script, char **out,
		  char *err, size_t errlen);

/* N bytes a box answered at BUF made text: a NUL byte (it would end the
 * text early and hide the rest) becomes SUB (0x1a), which no parser
 * takes for a number or a name's end. */
void nb_telem_text(char *buf, size_t n);

/* The box's boot identity (telem_boot.c): Linux's
 * /proc/sys/kernel/random/boot_id, else FreeBSD's kern.boottime, read
 * over TM's source (NULL: none); it changes when the box restarts and
 * never otherwise (crashcheck's evidence, docs/crashcheck.md).  0 with
 * BUF set, or -EIO with the reason in BUF. */
int nb_telem_boot_id(struct nb_telem *tm, char *buf, size_t len);

/* Close the connection, remove the scratch directory. */
void nb_telem_close(struct nb_telem *tm);

/* ---- the pools' health (telem_watch.c; a failure walk, docs/failure.md) ---- */

/* One reading of every pool and md array of the box now ('zpool status',
 * /proc/mdstat) through TM's source.  0, or -EIO (-EINTR) with "telemetry
 * from 'SOURCE': cannot read the pools' health: ..." set. */
int nb_telem_pools(struct nb_telem *tm, struct nb_tp_pools *out);

/* What a reading of one pool keeps (a long rebuild has tens of
 * thousands): the time its answer came (monotonic ns; what it says held
 * then or shortly before), whether the box answered with the pool, its
 * state, scan and error counters. */
struct nb_telem_reading {
	uint64_t t_ns;
	int ok;
	char state[16];
	struct nb_tp_scan scan;
	double read, write, cksum;
};
void nb_telem_reading_of(struct nb_telem_reading *x, const struct nb_tp_pool *p);

/* The pool NAME read every interval of TM on a thread of its own, until
 * stopped; a reading the box did not answer is kept as not ok.  0 or
 * -errno (detail set). */
struct nb_telem_watch;
int nb_telem_watch_start(struct nb_telem *tm, const char *name,
			 struct nb_telem_watch **w);
void nb_telem_watch_stop(struct nb_telem_watch *w);
/* The first ok reading answered at or after SINCE_NS for which FN (NULL:
 * any) holds, into *OUT (may be NULL): its time, or 0 when none yet. */
uint64_t nb_telem_watch_find(struct nb_telem_watch *w, uint64_t since_ns,
			     int (*fn)(const struct nb_telem_reading *x, void *arg),
			     void *arg, struct nb_telem_reading *out);
/* The latest ok reading, whole (its devices), into *OUT (may be NULL): its
 * time, 0 when none yet. */
uint64_t nb_telem_watch_latest(struct nb_telem_watch *w, struct nb_tp_pool *out);
/* The readings from T0_NS on: { "t_ms": [ms since T0_NS], "state", "scan",
 * "active", "pct", "rate_bytes", "eta_s" } (null where not said). */
json_t *nb_telem_watch_series(struct nb_telem_watch *w, uint64_t t0_ns);

#endif
