/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_rt.h - what the telemetry modules share (telem.c: the thread,
 *              telem_local.c and telem_ssh.c: the sources, telem_series.c:
 *              the series and the summary).  Not a public header.
 */
#ifndef NB_TELEM_RT_H
#define NB_TELEM_RT_H

#include "telem.h"
#include "telem_pool.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

enum nb_telem_os { NB_TELEM_LINUX, NB_TELEM_FREEBSD };

/* How the box's ARC counters are read (Linux). */
enum nb_telem_arc { NB_ARC_NONE, NB_ARC_KSTAT, NB_ARC_KV };

struct nb_telem_snap {
	uint64_t t_ns;
	struct nb_tp_cpu cpu;
	struct nb_tp_mem mem;
	struct nb_tp_disks disks;
	struct nb_tp_arc arc;
};

struct nb_telem_ssh {
	char user[64], host[256];
	int port;
	char dir[64];            /* the scratch directory of the socket */
	char ctl[96];            /* its control socket */
	/* an iteration's samples: one remote loop that prints a sample each
	 * half interval into a FIFO the sampler drains (one ssh client an
	 * iteration, not one a sample) */
	int streaming, fd;
	char fifo[96];
	char *buf;
	size_t len, cap;
};

/* Per disk over the iteration: the sum of the samples' busy shares. */
struct nb_telem_acc {
	char name[NB_TP_NAME];
	double sum;
	int n;
	double read_bytes;       /* read in the iteration */
	double ios, io_ms;       /* I/Os done and ms busy (Linux's counters) */
	double ms_sum;           /* or the tool's ms per I/O, summed (FreeBSD) */
	int ms_n;
};

/* What the box said that the series could not take, over an iteration:
 * each a gap (null) in its series, said at the end (nb_telem_warning). */
enum nb_telem_gap { NB_GAP_BACK, NB_GAP_JUMP, NB_GAP_REFUSED, NB_GAP_N };

struct nb_telem_gaps {
	int n[NB_GAP_N];         /* counters gone back (a restart, a wrap),
				  * beyond what a box can do, not numbers */
	char first[96];          /* what the first was of: "disk 'sda'" */
};

struct nb_telem {
	struct nb_telem_cfg cfg;
	char source[320];
	char path[1024];         /* the target's data on the box ("": unknown) */
	/* the ZFS dataset that holds PATH, once found (telem.c; "": not yet,
	 * or none: ZFS_FOR says for which path it was looked for) */
	char zfs_ds[256], zfs_for[1024];
	int os;                  /* enum nb_telem_os */
	int arc_kind;            /* enum nb_telem_arc (local and Linux boxes) */
	uint64_t interval_ns, timeout_us;
	struct nb_telem_ssh ssh;
	void *stream;            /* the remote loop's struct nb_spawn */

	pthread_t th;
	pthread_mutex_t mu;
	pthread_condattr_t ca;
	pthread_cond_t cv;
	int running, stop, lost;
	volatile sig_atomic_t halt; /* stop asked: a sample's ssh is ended */
	int final;               /* the last sample: a short timeout instead */
	int haltable;            /* a sample of the loop: ended by a stop (the
				  * first and the last are not: they make the
				  * iteration's one interval) */
	uint64_t thread_cpu_us;  /* the sampler thread's CPU in the iteration */
	uint64_t children_us0;   /* the process's children's CPU at the start */
	char warning[640];

	/* the iteration being sampled (the sampler thread's alone) */
	uint64_t t0;
	int have_first, samples;
	struct nb_telem_snap first, prev;
	struct nb_tp_vdevs vdevs;
	json_t *series;
	double cpu_max;
	int cpu_busiest;
	uint64_t avail_min, total, swap_max;
	uint64_t arc_size_max;
	int nacc;
	struct nb_telem_acc acc[NB_TP_MAXDISK];
	struct nb_telem_gaps gaps;
};

/* The warning of TM: "telemetry from 'SOURCE': TEXT"; nb_telem_warn_also
 * adds TEXT to a warning already there ("...; TEXT"). */
void nb_telem_warn(struct nb_telem *tm, const char *text);
void nb_telem_warn_also(struct nb_telem *tm, const char *text);

/* Local: what this machine gives (0, or -ENOENT with a warning); a
 * snapshot (0, or -EIO). */
int nb_telem_local_probe(struct nb_telem *tm);
int nb_telem_local_sample(struct nb_telem *tm, struct nb_telem_snap *s);

/* SSH: "ssh://[user@]host[:port]" (0 or -EINVAL, detail set); connect and
 * tell the system (0, or -EIO with a warning); a snapshot; the end. */
int nb_telem_ssh_parse(const char *url, struct nb_telem_ssh *s);
int nb_telem_ssh_open(struct nb_telem *tm);
int nb_telem_ssh_sample(struct nb_telem *tm, struct nb_telem_snap *s);
/* End the iteration's remote loop (its ssh client). */
void nb_telem_ssh_stream_end(struct nb_telem *tm);
void nb_telem_ssh_close(struct nb_telem *tm);
/* ssh's arguments (at most 40, BUFS holding 16) to run SCRIPT on the box
 * over the run's connection (NULL: "-O exit", the master's end). */
void nb_telem_ssh_argv(struct nb_telem *tm, const char *script, char **argv,
		       char bufs[][320]);
/* Run SCRIPT on the box: its output into *OUT (free it); 0, or -EIO with
 * ssh's complaint in ERR. */
int nb_telem_ssh_run(struct nb_telem *tm, const char *script, char **out,
		     char *err, size_t errlen);

/* The same, from any thread: bounded by LIMIT_US, ended by *STOP (may
 * be NULL) with -EINTR. */
int nb_telem_ssh_exec(struct nb_telem *tm, const char *script, uint64_t limit_us,
		      volatile sig_atomic_t *stop, char **out, char *err,
		      size_t errlen);

/* What ended a spawned shell (SP ran, RC its nb_spawn_run()): its output
 * into *OUT (free it), 0; or -EIO with why in ERR: the error that kept it
 * from starting, else WHY's words for its status or its silence past
 * LIMIT_US.  SP is freed. */
struct nb_spawn;
typedef void nb_telem_why_fn(const struct nb_spawn *sp, char *err,
			     size_t errlen, uint64_t limit_us);
int nb_telem_spawn_out(struct nb_spawn *sp, int rc, char **out, char *err,
		       size_t errlen, nb_telem_why_fn *why, uint64_t limit_us);

/* The pools' vdevs (zpool iostat -v), local or remote, into TM->vdevs. */
void nb_telem_vdevs(struct nb_telem *tm);

/* The "@NAME" sections of a box's answer parsed into S (both systems). */
int nb_telem_parse_answer(const char *text, int os, struct nb_telem_snap *s);

/* The iteration's series: begun, one snapshot added (after TM->prev),
 * ended into the object nb_telem_stop() returns. */
int nb_telem_series_new(struct nb_telem *tm);
void nb_telem_add(struct nb_telem *tm, const struct nb_telem_snap *cur);
json_t *nb_telem_series_end(struct nb_telem *tm);
void nb_telem_series_free(struct nb_telem *tm);

#endif
