/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * knobs.c - the registry of the knob rows: every module's table, in the
 * order help shows them (core/knobs.h).  main() hands it to
 * nb_knobs_use().
 *
 * Each section's keys are shown in the order of the tables, and the
 * sections in the order of their section rows: [box], [target NAME] and
 * [suite] (core/config_keys.c), [capacity], [vm], [failure], [replay], then the
 * sections kept as lines, [accept] and [clients].  A module with rows of
 * its own adds its table here.
 */
#include "cmd.h"
#include "../core/knobs.h"

extern const struct nb_knob nb_runner_knobs[], nb_mpath_knobs[], nb_config_keys[], nb_xz_knobs[],
	nb_bonnie_knobs[], nb_wl_fio_knobs[], nb_wl_open_knobs[], nb_wl_data_knobs[], nb_wl_hot_knobs[],
	nb_wl_steady_knobs[], nb_wl_ssd_knobs[], nb_crash_knobs[],
	nb_sweep_knobs[], nb_wl_vm_knobs[], nb_replay_knobs[], nb_failure_knobs[],
	nb_history_knobs[], nb_telem_knobs[], nb_netbase_knobs[],
	nb_accept_knobs[], nb_fio_clients_knobs[];

const struct nb_knob *const nb_cmd_knobs[] = {
	nb_runner_knobs,         /* [target] url */
	nb_config_keys,          /* [box] labels, [target NAME], [suite] */
	nb_mpath_knobs,          /* [target] paths, connections, path-policy */
	nb_xz_knobs,             /* [suite] preset */
	nb_bonnie_knobs,         /* [suite] files, fast */
	nb_wl_fio_knobs,         /* [suite] cross-check */
	nb_wl_open_knobs,        /* [suite] rate, arrival, burst */
	nb_wl_data_knobs,        /* [suite] compress, dedupe, random-distribution */
	nb_wl_hot_knobs,         /* [suite] hot-sizes, hot-share */
	nb_wl_steady_knobs,      /* [suite] steady-state ... */
	nb_wl_ssd_knobs,         /* [suite] precondition ..., trim ... */
	nb_crash_knobs,          /* [box] crash, [suite] crash-writes ... */
	nb_sweep_knobs,          /* [capacity] */
	nb_wl_vm_knobs,          /* [vm] */
	nb_failure_knobs,        /* [box] fail-disk ..., [failure] */
	nb_replay_knobs,         /* [replay] */
	nb_history_knobs,        /* [box] history */
	nb_telem_knobs,          /* [box] monitor ... */
	nb_netbase_knobs,        /* [box] netbase */
	nb_accept_knobs,         /* [accept] */
	nb_fio_clients_knobs,    /* [clients] */
	NULL,
};
