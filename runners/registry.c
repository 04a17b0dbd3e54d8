/* registry.c - every runner nasbench knows, by URL scheme. */
#include "runner.h"

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

int nb_target_open(struct nb_target *t, const struct nb_target_cfg *cfg)
{
	return nb_target_open_ops(t, cfg, cfg->ops ? cfg->ops :
				  nb_runner_find(cfg->u.scheme));
}
