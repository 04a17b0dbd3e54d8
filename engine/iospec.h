/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iospec.h - what the engine is told and what it returns: the I/O spec
 *            (pattern, direction, block size, queue depth, how much or how
 *            long, durability, the open loop's rate and sources), the
 *            hooks a workload lends it, and a run's figures.
 *
 * engine.h runs a spec; the closed loop (engine.c) and the open loop
 * (engine_open.c) read these.
 */
#ifndef NB_IOSPEC_H
#define NB_IOSPEC_H

#include <signal.h>
#include <stdint.h>

#include "access.h"
#include "arrival.h"
#include "../core/datagen.h"
#include "../core/hist.h"
#include "../core/progress.h"
#include "../core/target.h"

enum nb_pattern { NB_PAT_SEQ = 0, NB_PAT_RAND = 1 };
enum nb_rw { NB_RW_READ = 0, NB_RW_WRITE = 1, NB_RW_MIX = 2 };
enum nb_sync {
	NB_SYNC_NONE = 0,    /* no flush: what the box acknowledged (async) */
	NB_SYNC_END = 1,     /* one flush at the end, its time included */
	NB_SYNC_ALWAYS = 2,  /* every write durable (O_SYNC / FILE_SYNC / FUA), and
	                      * one flush at the end too: a device may still
	                      * cache what FUA alone does not cover */
};

struct nb_iospec {
	int pattern;             /* enum nb_pattern */
	int rw;                  /* enum nb_rw */
	int read_pct;            /* NB_RW_MIX: share of reads, 0..100 */
	int rand_pct;            /* NB_PAT_RAND: share of random offsets,
				  * 1..99 (the others follow the one before,
				  * as fio's percentage_random); 0 or 100:
				  * all random */
	uint32_t bs;             /* bytes per I/O */
	uint32_t qd;             /* I/Os in flight, 1..NB_MAX_QD */
	uint64_t size;           /* the region I/O falls in (file or window) */
	uint64_t start;          /* NB_PAT_SEQ: the first offset, rounded down
				  * to bs (0: the region's start) */
	uint64_t bytes;          /* stop after this many bytes (0: size) */
	uint64_t runtime_us;     /* stop after this long (0: no limit) */
	int sync;                /* enum nb_sync */
	int direct;              /* bypass the client's cache where possible */
	uint64_t seed;           /* random offsets and data */
	/* the data and the offsets (docs/data.md): what the writes hold
	 * (zero: incompressible, unique), where random I/Os fall (zero:
	 * uniform over the region; a source's over its own region) */
	struct nb_dataspec data;
	struct nb_access access;
	/* the open loop: RATE > 0 issues I/O on a schedule (docs/capacity.md) */
	double rate;             /* I/Os per second, all sources together */
	int arrival;             /* enum nb_arrival */
	uint64_t burst_on_us, burst_off_us;   /* NB_ARR_ONOFF: mean lengths */
	uint32_t sources;        /* independent sources (VMs), each at
				  * rate / sources over its own slice of
				  * the region (its own sequential stream);
				  * 0: one */
	const struct nb_source *src;   /* or these NSRC, each its own profile
					* (rate and region included); the
					* spec's rate is then their sum */
	uint32_t nsrc;
};

/* One source of an open loop with a profile of its own. */
struct nb_source {
	double rate;             /* I/Os per second */
	int rw, read_pct;        /* enum nb_rw, NB_RW_MIX's share of reads */
	int pattern, rand_pct;   /* enum nb_pattern, as the spec's */
	uint32_t bs;             /* bytes per I/O (at most the spec's bs) */
	uint32_t bs_write;       /* bytes per write, when they differ from
				  * its reads' (0: bs) */
	uint64_t base, size;     /* its region of the file: bytes */
};

/* What an open loop's source issued (nb_engine_hooks.src_count). */
struct nb_src_count {
	uint64_t reads, writes;  /* I/Os issued */
};

/* A closed loop's runtime stretches to at most this many runtimes while
 * it has issued fewer I/Os than a figure needs (core/samples.h). */
#define NB_RUNTIME_STRETCH 10

/* An open-loop I/O issued more than this after its intended time is late. */
#define NB_LATE_NS 1000000ULL
/* A submit() call longer than this blocked on the device. */
#define NB_BLOCKED_NS 200000ULL

/* What an open loop adds to a run's figures (nb_io_result.open). */
struct nb_open_result {
	struct nb_hist resp;     /* response: intended issue time -> completion */
	struct nb_hist late;     /* issue: the submission's start - the
				  * intended time */
	struct nb_hist slat;     /* the submit() call itself */
	double rate;             /* the rate asked for (the spec's) */
	uint64_t arrivals;       /* I/Os the schedule made due: offered */
	uint64_t issued;         /* ... of them submitted to the target (the
				  * completed are the run's ios, the timed
				  * RESP's count) */
	uint64_t queued;         /* ... that found every slot busy */
	uint64_t late_ios;       /* issued more than NB_LATE_NS late */
	uint64_t late_free;      /* ... of them with a slot free: the client's
				  * own delay (its CPU), not the box's */
	uint64_t abandoned;      /* never issued (stopped, or the drain after
				  * the schedule ran out of time) */
	uint64_t blocked;        /* submissions longer than NB_BLOCKED_NS */
	double offered_iops;     /* arrivals per second in the measuring
				  * window (the schedule's last 4/5) */
	double achieved_iops;    /* completions per second in that window */
	double achieved_bps;     /* their bytes per second */
	double window_s;         /* its length */
	uint64_t sched_ns;       /* the schedule's length */
	int cycles;              /* one ON/OFF source: whole cycles run (a
				  * burst and its pause each); -1 otherwise */
	int cut;                 /* ... its first cycle outlasted the runtime:
				  * the schedule is part of one cycle */
	uint64_t cpu_ns;         /* the engine thread's CPU time */
	uint64_t sched_cpu_ns;   /* ... of it while the schedule ran */
	uint64_t sched_wall_ns;  /* how long that was (a client that fell
				  * behind ends its schedule late) */
	uint64_t idle_ns;        /* of it, waiting for a completion or the next
				  * arrival: a client that never waits is the
				  * limit itself */
	uint32_t sources;
};

struct nb_zsample;

/* Optional callbacks that let workloads (bigfile, integrity) reuse the
 * engine.  Any may be NULL. */
struct nb_engine_hooks {
	/* Fill a write buffer for OFF (default: random data, stamped). */
	void (*fill)(void *buf, uint32_t len, uint64_t off, void *payload);
	/* Inspect a finished read; non-zero stops the run with -EIO. */
	int (*check)(const void *buf, uint32_t len, uint64_t off, void *payload);
	/* Called about 4 times a second with the bytes done so far. */
	void (*progress)(uint64_t bytes, uint64_t elapsed_ns, void *payload);
	/* Given, told the I/Os and latencies so far just before progress. */
	struct nb_progress *live;
	/* Called once per second of run time with the bytes of that second. */
	void (*second)(unsigned sec, uint64_t bytes, void *payload);
	void *payload;
	volatile sig_atomic_t *stop;   /* set asynchronously to stop early */
	/* an open loop: what each source issued, one per source (the spec's
	 * NSRC, else its sources), zeroed and counted by the engine */
	struct nb_src_count *src_count;
	/* every block written offered to it (core/compress.h), after the fill */
	struct nb_zsample *sample;
};

struct nb_io_result {
	uint64_t bytes_read, bytes_written;
	uint64_t ios;
	uint64_t elapsed_ns;     /* first submit to last completion (+ flush) */
	uint64_t flush_ns;       /* time in the final flush (sync end, always) */
	int stopped;             /* ended by *stop */
	int stretched;           /* a closed loop ran past its runtime until it
				  * had issued NB_MEAN_MIN_SAMPLES I/Os (at
				  * most NB_RUNTIME_STRETCH runtimes) */
	struct nb_hist lat;      /* per-I/O completion latency, ns: from the
				  * runner's submit() having returned to the
				  * completion taken by reap() - fio's clat */
	/* the blocks written with the spec's data (not a hook's fill), of
	 * them duplicates, and which of the NB_DEDUPE_SET (a bit each) */
	uint64_t data_blocks, data_dups, data_dup_set;
	int is_open;             /* the spec had a rate: OPEN holds its figures */
	struct nb_open_result open;
};

/* Whether S is an open loop. */
static inline int nb_iospec_open(const struct nb_iospec *s)
{
	return s->rate > 0;
}

#endif
