/* SPDX-License-Identifier: GPL-2.0-or-later */
/* knobs.c - the load sweep's knob rows, beside the closed and the open
 * sweep they configure (capacity/sweep.h, capacity/sweep_open.h). */
#include "sweep.h"
#include "sweep_open.h"
#include "../core/knobs.h"

/* the load sweep's rows: [capacity] (core/knobs.h). */
const struct nb_knob nb_sweep_knobs[] = {
	{ NB_SECTION("capacity") },
	{ .section = "capacity", .name = "sweep", .type = NB_KT_BOOL,
	  NB_PRM(sweep), .def = "no",
	  .help = "run each I/O workload as a load sweep: outstanding I/O 1, 2, "
	  "4 ... 256 (or the steps), capacity at the objective, knee, saturation",
	  .opt = "sweep", .flags = NB_KF_NOARG,
	},
	{ .section = "capacity", .name = "steps", .type = NB_KT_STR,
	  NB_PRM(steps), .def = "auto", .check = nb_sweep_steps_check,
	  .help = "the closed sweep's steps of outstanding I/O: a list 1,2,4,8 "
	  "or a doubling range 4..64 (auto: 1, 2, 4 ... 256); sets sweep, and "
	  "loop = closed unless --loop says otherwise",
	  .opt = "steps", .metavar = "LIST",
	},
	{ .section = "capacity", .name = "rates", .type = NB_KT_STR,
	  NB_PRM(rates), .def = "auto", .check = nb_osweep_rates_check,
	  .help = "the open sweep's offered rates: auto (a short closed-loop "
	  "probe for the maximum, then a bisection to the objective), I/Os per "
	  "second 200,400,600 or shares of the maximum 25%,50%,90%; sets sweep",
	  .opt = "rates", .metavar = "LIST",
	},
	{ .section = "capacity", .name = "slo", .type = NB_KT_STR,
	  NB_PRM(slo), .def = "p99=20ms", .check = nb_slo_check,
	  .help = "the latency objective: p99=20ms, p99.9=50ms, mean=5ms, p50=, "
	  "p90=, several joined by commas",
	  .opt = "slo", .metavar = "OBJ",
	},
	{ .section = "capacity", .name = "step-time", .type = NB_KT_DURATION,
	  NB_PRM(step_us), .min = 100000, .max = 3600000000ULL, .def = "10s",
	  .help = "how long each step of a sweep runs",
	  .opt = "step-time", .metavar = "TIME",
	},
	{ .section = "capacity", .name = "sweep-time", .type = NB_KT_DURATION,
	  NB_PRM(sweep_us), .unset = "no limit", .min = 1000000,
	  .help = "start no step after the sweep has run this long",
	  .opt = "sweep-time", .metavar = "TIME",
	},
	{ .section = "capacity", .name = "loop", .type = NB_KT_CHOICE,
	  NB_PRM(loop), .choices = "open|closed|both", .def = "open",
	  .help = "the sweep's load: open (offered rates on a schedule, each "
	  "I/O timed from when it was due: what independent VMs make), closed "
	  "(steps of outstanding I/O), or both side by side",
	  .opt = "loop", .metavar = "WHICH",
	},
	{ NULL },
};
