/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * net.h - a remote target's network in the result of 'nasbench run'
 *         (docs/network.md): its paths (runners/mpath.c), and after each
 *         iteration every connection's MTU as the client's kernel, the
 *         connection and the box see it, with the verdict when they
 *         disagree.
 *
 *   targets[].paths              the paths, their policy, what they reach
 *                                and, at the end, their states
 *   iterations[].mtu             [ { "path", "iface", "iface_mtu",
 *                                    "box_iface", "box_mtu", "mss_open",
 *                                    "pmtu_open", "mss", "pmtu",
 *                                    "verdict" } ]
 *   results[].warnings           each verdict's text
 *   labels paths, connections, path-policy, mtu   unless the box file
 *                                set them: the configuration compared
 */
#ifndef NB_RUN_NET_H
#define NB_RUN_NET_H

#include <jansson.h>

#include "exec.h"

/* Target T was opened (its entry in "targets" is TJ). */
void nb_run_net_open(struct nb_exec *x, struct nb_target *t, json_t *tj);

/* An iteration of T ended: its readings into EXTRA, a verdict into
 * ENTRY's warnings. */
void nb_run_net_iteration(struct nb_exec *x, struct nb_target *t,
			  json_t *extra, json_t *entry);

/* T is about to close: the paths' states into TJ. */
void nb_run_net_close(struct nb_exec *x, struct nb_target *t, json_t *tj);

#endif
