/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio_driver_common.h - what fio_driver.c (local runs, cross-check) and
 *                       fio_driver_clients.c (client/server runs) share
 *                       (fio_driver_common.c); not for other files.
 */
#ifndef NB_FIO_DRIVER_COMMON_H
#define NB_FIO_DRIVER_COMMON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "../workload.h"
#include "../../fio/clients.h"
#include "../../fio/invoke.h"
#include "../../fio/job.h"
#include "../../fio/json.h"

/* The longest job file nasbench writes. */
#define NB_FIO_JOB_MAX 4096
/* fio's start-up and the end of a time-based run are not counted */
#define NB_FIO_GRACE_US 120000000ULL

/* ST's byte and I/O counts into the iteration's EXTRA (its metrics:
 * nb_fio_put_metrics()). */
void nb_wl_fio_put_counts(json_t *extra, const struct nb_fio_stats *st);

/* The ioengine of target T ("io_uring" unless the box file says). */
const char *nb_wl_fio_ioengine(const struct nb_target *t);

/* The job file's first line: version, workload, target, iteration. */
void nb_wl_fio_comment(const struct nb_wl_ctx *c, char *buf, size_t len);

/* What fio said went wrong, one line, from its standard error ERR. */
const char *nb_wl_fio_complaint(const char *err, char *buf, size_t len);

/* After fio wrote S's data on a block target (a file, a device, a LUN):
 * the window's first block written again through the runner with
 * nasbench's stamp (core/datagen.h), so the data-loss guard of the next
 * run knows the data fio wrote as nasbench's, not as "data nasbench did
 * not write".  A failure is a warning of the iteration. */
void nb_wl_fio_stamp(struct nb_wl_ctx *c, const struct nb_iospec *s);

/* How long fio may run for S before it is stopped (0: no limit). */
uint64_t nb_wl_fio_limit(const struct nb_iospec *s);

#endif
