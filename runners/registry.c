/* SPDX-License-Identifier: GPL-2.0-or-later */
/* registry.c - every runner nasbench knows, by URL scheme. */
#include "runner.h"
#include "netsock.h"
#include "../core/err.h"
#include "../core/knobs.h"

#include <errno.h>
#include <string.h>

extern const struct nb_runner_ops nb_runner_posix;
extern const struct nb_runner_ops nb_runner_nfs;
extern const struct nb_runner_ops nb_runner_iscsi;
extern const struct nb_runner_ops nb_runner_mpath_iscsi, nb_runner_mpath_nfs;
void nb_mpath_sock_now(struct nb_target *t);

const struct nb_runner_ops *const nb_runners[] = {
	&nb_runner_posix,
	&nb_runner_nfs,
	&nb_runner_iscsi,
	NULL,
};

const struct nb_runner_ops *nb_runner_find(const char *scheme)
{
	for (int i = 0; nb_runners[i]; i++)
		if (!strcmp(nb_runners[i]->scheme, scheme))
			return nb_runners[i];
	return NULL;
}

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

int nb_runner_url_check(const char *url)
{
	struct nb_url u;

	if (nb_url_parse(url, &u))
		return -EINVAL;
	if (!nb_runner_find(u.scheme))
		return nb_err(-EINVAL, "no runner for '%s://' URLs", u.scheme);
	return 0;
}

/* The runners' row: [target] url, a URL of a scheme one of them serves
 * (core/knobs.h). */
const struct nb_knob nb_runner_knobs[] = {
	{ .section = "target", .name = "url", .type = NB_KT_URL, NB_TGT(url),
	  .unset = "",
	  .check = nb_runner_url_check,
	  .help = "path, file:///path, nfs://host/export/dir or iscsi://host/iqn/lun" },
	{ NULL },
};
