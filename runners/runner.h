/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner.h - how bytes reach the box: the runners nasbench has.
 *
 * A runner is one const ops table (core/target.h), chosen by the target
 * URL's scheme and listed in runners/registry.c.
 */
#ifndef NB_RUNNER_H
#define NB_RUNNER_H

#include "../core/target.h"

/* The runner for a URL scheme, or NULL. */
const struct nb_runner_ops *nb_runner_find(const char *scheme);
/* All runners, NULL-terminated. */
extern const struct nb_runner_ops *const nb_runners[];

/* URL parses and a runner serves its scheme: 0, or -EINVAL with "no
 * runner for 'ftp://' URLs" (or the parser's reason) set. */
int nb_runner_url_check(const char *url);

/* Open a target with cfg->ops, else the runner of its URL's scheme (the
 * multipath runner's of that scheme when cfg->paths or connections ask
 * for several paths, docs/network.md).  0 or -errno (the detail set). */
int nb_target_open(struct nb_target *t, const struct nb_target_cfg *cfg);

/* The target's connections now, as the kernel sees them (path MTU, MSS):
 * into each path's 'now' (t->paths), else into *NOW (zeroes: a runner
 * without a socket, or lost). */
void nb_target_sock_now(struct nb_target *t, struct nb_sockinfo *now);

#endif
