/* SPDX-License-Identifier: GPL-2.0-or-later */
/* registry.c - every runner nasbench knows, by URL scheme. */
#include "runner.h"
#include "../core/err.h"
#include "../core/knobs.h"

#include <errno.h>
#include <string.h>

extern const struct nb_runner_ops nb_runner_posix;
extern const struct nb_runner_ops nb_runner_nfs;
extern const struct nb_runner_ops nb_runner_iscsi;

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
