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
	/* the load sweep ([capacity], docs/capacity.md; core/sweep.h) */
	int sweep;               /* -1 unset: swept when steps are given */
	char steps[128];         /* "" or "auto": 1, 2, 4 ... 256; "1,2,4", "1..64" */
	char slo[128];           /* latency objective ("": the row's default) */
	uint64_t step_us;        /* each step's run time (0: the row's default) */
	uint64_t sweep_us;       /* the whole sweep's time limit (0: none) */
	/* [vm]: the VM profile (0 or -1: its row's default, core/knobs.c) */
	uint32_t vm_bs;
	int vm_read;             /* read %, 0..100 */
	int vm_random;           /* random %, 0..100 */
	uint64_t vm_iops;        /* IOPS one VM does */
	int vm_sync;             /* every write durable (ESXi over NFS) */
};

/* size = auto: twice the box's RAM, resolved when the run is planned */
#define NB_SIZE_AUTO UINT64_MAX

/* What "not set" is for every field that is not 0; a suite's defaults
 * start from it: { NB_PARAMS_UNSET, .size = ... }. */
#define NB_PARAMS_UNSET .direct = -1, .sync = -1, .verify = -1, .preset = -1, \
			.fast = -1, .sweep = -1, .vm_read = -1, .vm_random = -1, .vm_sync = -1

#define NB_PARAMS_INIT { NB_PARAMS_UNSET }


#endif
