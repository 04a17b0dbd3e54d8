/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * data_spec.h - the knobs of the data an I/O workload writes and of where
 *               its random I/Os fall, onto its spec (data_spec.c,
 *               docs/data.md); what a run wrote is data.h's.
 */
#ifndef NB_WL_DATA_SPEC_H
#define NB_WL_DATA_SPEC_H

#include "workload.h"

/* P's data and distribution onto the spec S (their defaults where P
 * says nothing); the knobs were checked when set. */
void nb_wl_data_resolve(const struct nb_params *p, struct nb_iospec *s);

/* S's distribution into the spec object SPEC: "random_distribution",
 * and for one that is not uniform the hot set (the least share of the
 * region, from its start, that takes 80% of the I/Os): "hot_set":
 * { "share_pct": 80, "data_pct": 20.0, "bytes": ... }. */
void nb_wl_access_json(json_t *spec, const struct nb_iospec *s);

#endif
