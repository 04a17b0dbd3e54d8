/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * params.h - the knobs a workload runs with.
 *
 * Filled from [suite] and the command line (a knob row, core/knobs.h, per
 * knob).  "Not set" has one meaning, the field's zero, save where zero is
 * a value a user can set:
 *
 *   a number or size that cannot be 0 (min >= 1) or whose 0 means "none":
 *                      0 is unset (size, iodepth, bs, step_us ...);
 *   a string:          "" is unset;
 *   a switch, a choice or a percentage (0 is a value: no, the first
 *   choice, 0%):       NB_UNSET (-1) is unset; nb_switch() reads it.
 *
 * Unset is not a value: where it stands, the knob row's .def applies (or
 * what its .unset says: "the workload's").  NB_SIZE_AUTO is a value, not
 * unset.  NB_PARAMS_UNSET, below, lists the NB_UNSET fields once: every
 * struct nb_params starts from it (NB_PARAMS_INIT; a suite's defaults,
 * workloads/registry.c), and nb_params_merge() (core/knobs.h) treats
 * exactly these as not set.
 */
#ifndef NB_PARAMS_H
#define NB_PARAMS_H

#include <stdint.h>

#define NB_UNSET (-1)

struct nb_params {
	uint64_t size;           /* bytes of the file or LUN window used */
	uint64_t runtime_us;     /* time-bound instead of size-bound */
	uint32_t iodepth;
	uint32_t bs;
	int direct;              /* 0, 1; unset: on (the row's .def), but
				  * bonnie buffers as bonnie++ does */
	int sync;                /* enum nb_sync; unset: the workload's */
	int verify;              /* 0, 1; unset: the workload's (off) */
	int preset;              /* xz preset 0..9 */
	uint64_t files;          /* bonnie: files to create (-n) */
	uint64_t ram;            /* the box's RAM, bytes, 0 unknown */
	int fast;                /* bonnie: skip per-char phases (-f) */
	int cross_check;         /* I/O workloads with both engines (fio) */
	/* the load sweep ([capacity], docs/capacity.md; capacity/sweep.h) */
	int sweep;               /* unset: swept when steps are given */
	char steps[128];         /* "" or "auto": 1, 2, 4 ... 256; "1,2,4", "1..64" */
	char slo[128];           /* latency objective ("": the row's default) */
	char rates[128];         /* the open sweep's rates ("", "auto": probe
				  * and bisect; "200,400", "25%,50%") */
	uint64_t step_us;        /* each step's run time (0: the row's default) */
	uint64_t sweep_us;       /* the whole sweep's time limit (0: none) */
	/* the open loop (docs/capacity.md): a rate makes the load open */
	char rate[48];           /* "" closed loop; "500", "20MB/s" */
	int arrival;             /* enum nb_arrival */
	char burst[48];          /* onoff: "ON/OFF" ("": the row's default) */
	int loop;                /* the sweep's loop: enum nb_loop */
	/* the data and where random I/Os fall (docs/data.md; workloads/
	 * data.c): "" is each row's default */
	char compress[24];       /* "2:1", "50%", "incompressible" */
	char dedupe[16];         /* "50%": share of blocks that repeat */
	char distribution[160];  /* "zipf:1.2", "zoned:80/20" */
	char hot_sizes[256];     /* the hot-set sweep: "64M,128M,256M" */
	uint32_t hot_share;      /* % of its I/Os on the hot set (0: the row's) */
	/* [vm]: the VM profile (workloads/io/vm.c) */
	uint64_t vm_count;       /* --vms: a population of this many VMs,
				  * each its own open-loop source */
	uint32_t vm_bs;
	int vm_read;             /* read %, 0..100 */
	int vm_random;           /* random %, 0..100 */
	uint64_t vm_iops;        /* IOPS one VM does */
	int vm_sync;             /* every write durable (ESXi over NFS) */
	/* steady state (docs/steady-state.md): the criterion, "" none
	 * (steady/judge.h parses it) */
	char steady[32];
	/* the defaults of these are their knob rows' (core/knobs.h), filled
	 * in when the run is planned (run/runplan.c) */
	uint64_t round_us;       /* a round's length */
	uint32_t steady_window;  /* rounds judged together */
	uint32_t steady_rounds;  /* round limit */
	uint64_t steady_max_us;  /* time limit of the rounds (0: none) */
	int precondition;        /* -1 default (no), 0, 1 */
	uint32_t precondition_passes;  /* sequential passes */
	uint32_t fill_pct;       /* directory targets: % of the free space
				  * preconditioning fills */
	int trim;                /* -1 default (no), else enum nb_trim */
	int trim_optional;       /* -1 default (no): a refused discard is
				  * a warning, not a failure */
	/* crashcheck (workloads/crash/crashcheck.c) */
	uint64_t crash_writes;   /* crash after this many acknowledged writes */
	uint64_t crash_time_us;  /* ... or after this long (0: no limit) */
	char crash_cmd[1024];    /* [box] crash: the command that crashes the
	                          * box ("": the user pulls the plug) */
	/* [failure] rebuild: "" no failure walk; load, idle or both
	 * (docs/failure.md, run/failure.c) */
	char rebuild[16];
	/* [replay]: a captured load on this box (docs/replay.md) */
	char replay_load[1024];  /* the load file ("": none) */
	char replay_scale[128];  /* "" or "auto": bisect; "1,1.25,1.5,2" */
	char replay_growth[48];  /* "" the load file's; "25%/year", "4vms/year" */
	int replay_peak;         /* -1 default (yes): the busiest bucket too */
};

/* A data set this many times the box's RAM cannot sit in its cache:
 * size = auto, bonnie's file, the replay's data set and the run's warning
 * of a data set that fits in the cache all take it from here. */
#define NB_RAM_FACTOR 2

enum nb_trim { NB_TRIM_NO = 0, NB_TRIM_BEFORE = 1, NB_TRIM_EACH = 2 };
/* Which load a sweep runs: open (arrivals on a schedule), closed (I/Os
 * kept in flight), or both, side by side. */
enum nb_loop { NB_LOOP_OPEN = 0, NB_LOOP_CLOSED = 1, NB_LOOP_BOTH = 2 };

/* size = auto: twice the box's RAM, resolved when the run is planned */
#define NB_SIZE_AUTO UINT64_MAX

/* The fields whose unset is NB_UNSET (every other field's is its zero),
 * said once: a struct nb_params starts from it, NB_PARAMS_INIT. */
#define NB_PARAMS_UNSET .direct = NB_UNSET, .sync = NB_UNSET, \
			.verify = NB_UNSET, .preset = NB_UNSET, .fast = NB_UNSET, \
			.sweep = NB_UNSET, .arrival = NB_UNSET, .loop = NB_UNSET, \
			.vm_read = NB_UNSET, .vm_random = NB_UNSET, \
			.vm_sync = NB_UNSET, .precondition = NB_UNSET, \
			.trim = NB_UNSET, .trim_optional = NB_UNSET, \
			.replay_peak = NB_UNSET

#define NB_PARAMS_INIT { NB_PARAMS_UNSET }

/* A switch's value (0 or 1), DEF where it is unset. */
static inline int nb_switch(int v, int def)
{
	return v == NB_UNSET ? def : v;
}


#endif
