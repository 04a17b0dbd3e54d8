/*
 * params.h - the knobs a workload runs with.
 *
 * Filled from [suite] and the command line (core/knobs.c has one row per
 * knob); 0 (or -1) means "the workload's default".
 */
#ifndef NB_PARAMS_H
#define NB_PARAMS_H

#include <stdint.h>

#include "steady.h"

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
	/* steady state (docs/steady-state.md): kind NB_SS_OFF is off */
	struct nb_steady_crit steady;
	/* the defaults of these are their knob rows' (core/knobs.c), filled
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
};

enum nb_trim { NB_TRIM_NO = 0, NB_TRIM_BEFORE = 1, NB_TRIM_EACH = 2 };

/* size = auto: twice the box's RAM, resolved when the run is planned */
#define NB_SIZE_AUTO UINT64_MAX

#define NB_PARAMS_INIT { .direct = -1, .sync = -1, .verify = -1, .preset = -1, \
			 .fast = -1, .precondition = -1, .trim = -1, \
			 .trim_optional = -1 }

#endif
