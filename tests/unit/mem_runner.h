/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mem_runner.h - a runner whose files live in memory, for unit tests of
 * the run pipeline: it can report little space, fail an I/O or set the
 * stop flag after a given number of I/Os, so every status path can be
 * reached without a server.
 */
#ifndef NB_TEST_MEM_RUNNER_H
#define NB_TEST_MEM_RUNNER_H

#include <signal.h>
#include <stdint.h>

#include "../../core/target.h"

#include <jansson.h>

struct nb_mem_faults {
	uint64_t space;              /* bytes free reported (0: 1 TiB) */
	long fail_after;             /* fail the I/O after this many (0: never) */
	long stop_after;             /* set *stop after this many I/Os */
	volatile sig_atomic_t *stop;
	int open_error;              /* open() fails with this -errno */
	long ios;                    /* I/Os done so far */
	/* the data of the file removed last (unlink), for a test to look at;
	 * the test frees it */
	unsigned char *removed;
	uint64_t removed_size;
	uint64_t grown;              /* bytes writes added past a file's end */
	/* with READ_LOG set, the offset of every read submitted, in order
	 * (the test frees it) */
	int read_log;
	uint64_t *reads;
	size_t nreads, reads_cap;
	/* with IO_LOG set, every I/O submitted, in order (the test frees it) */
	int io_log;
	struct nb_mem_io { uint64_t off; uint32_t len; int op; } *log;
	size_t nlog, log_cap;
};

extern struct nb_mem_faults nb_mem_faults;
extern const struct nb_runner_ops nb_runner_mem;

struct nb_config;

/* The fixture of a test file that runs through this runner: CFG fresh,
 * the faults cleared, STOP (cleared) the flag a fault sets; teardown
 * frees them.  NB_MEM_FIXTURE(cfg, stop) defines the file's setup() and
 * teardown() for cmocka from them. */
void nb_mem_setup(struct nb_config *cfg, volatile sig_atomic_t *stop);
void nb_mem_teardown(struct nb_config *cfg);

/* Run WORKLOADS on one target "m" served by OPS (NULL: nb_runner_mem),
 * with CFG's settings (applied here) planned into PL, STOP the flag; the
 * run must exit with CODE.  The result document (not finished), the
 * caller's to free. */
struct nb_runplan;
json_t *nb_mem_run(struct nb_config *cfg, struct nb_runplan *pl,
		   volatile sig_atomic_t *stop, const struct nb_runner_ops *ops,
		   const char *workloads, int code);

#define NB_MEM_FIXTURE(cfg, stop)                                          \
	static int setup(void **state)                                     \
	{                                                                  \
		(void)state;                                               \
		nb_mem_setup(&(cfg), &(stop));                             \
		return 0;                                                  \
	}                                                                  \
	static int teardown(void **state)                                  \
	{                                                                  \
		(void)state;                                               \
		nb_mem_teardown(&(cfg));                                   \
		return 0;                                                  \
	}

#endif
