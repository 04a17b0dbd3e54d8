/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio_driver_overlap.h - a --clients iteration's figures held against each
 *                        other: the clients' bytes against fio's aggregate,
 *                        and whether the clients ran at the same time.
 *
 * What it adds to the iteration (shape in docs/result.md):
 *   "clients"[i]: "start_s", "end_s" (from the first client's start, by
 *                 its bandwidth log's wall-clock times), "late", "early"
 *   "fio": "sum_client_bytes" (the clients' bytes added up),
 *          "bytes_match" (that sum is fio's "All clients" bytes),
 *          "overlap": { "common_s", "longest_s", "tolerance_s",
 *                       "late": [names], "early": [names] }
 * and a warning naming the clients that started late or finished early
 * (fio's aggregate is their bytes over the longest runtime, a load the
 * box never carried at once), or when the bytes do not add up.
 */
#ifndef NB_FIO_DRIVER_OVERLAP_H
#define NB_FIO_DRIVER_OVERLAP_H

#include <jansson.h>

#include "../workload.h"
#include "../../fio/clients.h"
#include "../../fio/json.h"

/* The log prefix client I (0-based) writes its bandwidth log under in
 * DIR (fio/overlap.h). */
void nb_wl_fio_span_prefix(const char *dir, int i, char *buf, size_t len);

/* Check iteration C's client figures: CL the clients, OUT fio's output,
 * CLIENTS the iteration's "clients" array (entries with "bytes" are the
 * clients that reported), LOGDIR where their bandwidth logs are. */
void nb_wl_fio_clients_check(struct nb_wl_ctx *c, const struct nb_fio_clients *cl,
			     const struct nb_fio_output *out, json_t *clients,
			     const char *logdir);

/* The first "<host> fio: ..." line fio's client printed before its JSON
 * (what a server said when it dropped its job: e.g. "fio: engine nfs not
 * loadable"), into BUF; NULL when there is none. */
const char *nb_wl_fio_server_complaint(const char *out, char *buf, size_t len);

#endif
