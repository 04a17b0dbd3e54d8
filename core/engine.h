/*
 * engine.h - one generic I/O engine for every runner.
 *
 * An I/O spec says what to do (pattern, direction, block size, queue depth,
 * how much or how long, write durability); the engine keeps QD I/Os in
 * flight on a target through submit/reap - one completion taken at a time,
 * its slot refilled before the next, as fio's defaults - timing each one
 * into a latency histogram.  Runners never see the spec; workloads never
 * see the queue.
 */
#ifndef NB_ENGINE_H
#define NB_ENGINE_H

#include <signal.h>
#include <stdint.h>

#include "hist.h"
#include "progress.h"
#include "target.h"

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
};

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
};

struct nb_io_result {
	uint64_t bytes_read, bytes_written;
	uint64_t ios;
	uint64_t elapsed_ns;     /* first submit to last completion (+ flush) */
	uint64_t flush_ns;       /* time in the final flush (sync end, always) */
	int stopped;             /* ended by *stop */
	struct nb_hist lat;      /* per-I/O completion latency, ns: from the
				  * runner's submit() having returned to the
				  * completion taken by reap() - fio's clat */
};

/* Check a spec against a target (alignment, sizes); 0 or -EINVAL. */
int nb_engine_check(const struct nb_target *t, const struct nb_iospec *s);

/* Run SPEC on file F of target T.  0, or -errno (target lost, I/O error,
 * short transfer) with the detail set; R holds what finished either way. */
int nb_engine_run(struct nb_target *t, struct nb_file *f,
		  const struct nb_iospec *s, const struct nb_engine_hooks *hooks,
		  struct nb_io_result *r);

/* Aligned buffer for I/O (O_DIRECT wants 4 KiB); free with free(). */
void *nb_io_alloc(size_t len);

#endif
