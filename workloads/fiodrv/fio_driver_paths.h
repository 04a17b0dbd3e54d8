/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio_driver_paths.h - engine = fio on a target of several paths
 *                      (docs/network.md): fio's nfs and libiscsi engines
 *                      have one context per job, so fio on this machine
 *                      runs one job per path, each over its own slice of
 *                      the data at its share of the queue depth (no path
 *                      policy, no failover: a path that dies fails its
 *                      job); with --clients, client K goes by path K
 *                      (round robin over the paths).
 */
#ifndef NB_FIO_DRIVER_PATHS_H
#define NB_FIO_DRIVER_PATHS_H

#include <jansson.h>

#include "fio_driver_remote.h"

/* Where each path of T reaches the data W was prepared for: W's per-path
 * URLs (nothing with one path).  0 or -errno. */
int nb_wl_fio_paths_where(struct nb_target *t, struct nb_wl_fio_where *w);

/* JOB (at its spec, pointed at W by nb_wl_fio_remote_job) as one job per
 * path into BUF of LEN: the text's length, or -errno (detail set). */
int nb_wl_fio_paths_jobfile(const struct nb_fio_job *job,
			    const struct nb_wl_fio_where *w, char *buf, size_t len);

/* Each job's figures in fio's output TEXT (LEN bytes) as the iteration's
 * "paths" (the native engine's keys, netpath.h), named after W's paths;
 * NULL when they cannot be read. */
json_t *nb_wl_fio_paths_figures(const char *text, size_t len,
				const struct nb_wl_fio_where *w);

#endif
