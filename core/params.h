/*
 * params.h - the knobs a workload runs with.
 *
 * Filled from [suite] and the command line (core/knobs.c has one row per
 * knob); 0 (or -1) means "the workload's default".
 */
#ifndef NB_PARAMS_H
#define NB_PARAMS_H

#include <stdint.h>

struct nb_params {
	uint64_t size;           /* bytes of the file or LUN window used */
	uint64_t runtime_us;     /* time-bound instead of size-bound */
	uint32_t iodepth;
	uint32_t bs;
	int direct;              /* -1 default (on), 0, 1 */
	int sync;                /* -1 default, else enum nb_sync */
	int verify;              /* -1 default (off), 0, 1 */
	int preset;              /* xz preset, -1 default (6) */
	uint64_t files;          /* bonnie: files to create (-n) */
	uint64_t ram;            /* the box's RAM, bytes, 0 unknown */
	int fast;                /* bonnie: skip per-char phases (-f), -1 default (no) */
	int cross_check;         /* I/O workloads with both engines (fio) */
	/* crashcheck (workloads/crashcheck.c) */
	uint64_t crash_writes;   /* crash after this many acknowledged writes */
	uint64_t crash_time_us;  /* ... or after this long (0: no limit) */
	char crash_cmd[1024];    /* [box] crash: the command that crashes the
	                          * box ("": the user pulls the plug) */
	char journal[1024];      /* where the journal goes / is read from */
	int journal_each;        /* several targets: one journal each, the
	                          * target's name before the extension */
	int crash_verify;        /* only verify the journal (run --verify) */
};

/* size = auto: twice the box's RAM, resolved when the run is planned */
#define NB_SIZE_AUTO UINT64_MAX

#define NB_PARAMS_INIT { .direct = -1, .sync = -1, .verify = -1, .preset = -1, \
			 .fast = -1 }

#endif
