/* SPDX-License-Identifier: GPL-2.0-or-later */
/* target_open.c - a target opened by its runner, or by runners/mpath.c
 * over several paths to it; apart from the registry so that the
 * multipath runner can find its paths' runner there. */
#include "runner.h"
#include "netsock.h"
#include "../core/err.h"

#include <errno.h>
#include <string.h>

extern const struct nb_runner_ops nb_runner_mpath_iscsi, nb_runner_mpath_nfs;
void nb_mpath_sock_now(struct nb_target *t);

int nb_target_open(struct nb_target *t, const struct nb_target_cfg *cfg)
{
	const struct nb_runner_ops *ops = cfg->ops ? cfg->ops : nb_runner_find(cfg->u.scheme);

	if (!cfg->paths[0] && cfg->connections <= 1)
		return nb_target_open_ops(t, cfg, ops);
	/* several paths: each a target of OPS (runners/mpath.c) */
	if (!ops || (strcmp(ops->name, "nfs") && strcmp(ops->name, "iscsi"))) {
		memset(t, 0, sizeof(*t));
		return nb_err(-EINVAL, "target '%s': paths and connections are for "
			      "nfs:// and iscsi:// targets, not '%s://'", cfg->name,
			      cfg->u.scheme);
	}
	return nb_target_open_ops(t, cfg, !strcmp(ops->name, "nfs") ?
				  &nb_runner_mpath_nfs : &nb_runner_mpath_iscsi);
}

void nb_target_sock_now(struct nb_target *t, struct nb_sockinfo *now)
{
	int fd = -1;
	short ev;

	memset(now, 0, sizeof(*now));
	if (t->paths) {
		nb_mpath_sock_now(t);
		return;
	}
	if (t->ops && t->ops->pollfd)
		t->ops->pollfd(t, &fd, &ev);
	if (fd >= 0)
		nb_net_sockinfo(fd, now);
}
