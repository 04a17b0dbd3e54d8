/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netpath.h - a multipath target's paths in the result (docs/network.md):
 * each path's share of an I/O run, its state and, when it died, when and
 * how long the I/O stood still; the target's paths and what they proved
 * to reach; each connection's MTU readings.
 *
 *   iteration "paths": [ { "path": "198.18.0.2:3262", "state": "active",
 *       "ios": 1024, "bytes": 536870912, "bw_bytes": .., "iops": ..,
 *       "lat_mean_us": .., "lat_p99_us": ..,
 *       (a path that died in the run:) "died_s": 5.02,
 *       "failover_ms": 5230.1, "reissued": 16, "why": ".." } ]
 */
#ifndef NB_WL_NETPATH_H
#define NB_WL_NETPATH_H

#include <jansson.h>

#include "../core/target.h"

/* Each path's figures of the engine's last run on T, whose length was
 * ELAPSED_NS, as the array above (NULL: T has one path). */
json_t *nb_wl_paths_json(const struct nb_target *t, uint64_t elapsed_ns);

/* The target's paths: { "policy", "ident", "list": [ { "path", "addr",
 * "conn", "state" (and, dead: "died_ms" after open, "failover_ms",
 * "reissued", "why") } ] }; NULL with one path. */
json_t *nb_wl_paths_target_json(const struct nb_target *t);

/* One connection's socket as JSON: { "iface", "iface_mtu", "mss",
 * "pmtu", "local", "peer" } (the figures the kernel gave). */
json_t *nb_wl_sock_json(const struct nb_sockinfo *si);

#endif
