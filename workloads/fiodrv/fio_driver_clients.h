/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio_driver_clients.h - the I/O workloads on the run's fio clients (fio's
 *                        client/server mode): the client list of a run, and
 *                        one spec run on every client at once.
 */
#ifndef NB_FIO_DRIVER_CLIENTS_H
#define NB_FIO_DRIVER_CLIENTS_H

#include <stdio.h>

#include "../workload.h"
#include "../../core/config.h"
#include "../../fio/clients.h"

/* Run S on the target's fio clients.  0, -EINTR, or
 * -EIO with the figures of the clients that answered kept. */
int nb_wl_fio_clients(struct nb_wl_ctx *c, const struct nb_iospec *s);

/* The run's fio clients: FILE (--clients) when given, else the box file's
 * [clients] lines (errors name "BOX:LINE").  0 or -EINVAL. */
int nb_wl_fio_clients_setup(struct nb_fio_clients *cl,
			    const struct nb_config *cfg, const char *file);

/* Print the command that starts 'fio --server' on each client host
 * (nothing without clients). */
void nb_wl_fio_clients_print(FILE *out, const struct nb_fio_clients *cl);

#endif
