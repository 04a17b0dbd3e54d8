/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * network.h - what a comparison says of the network between the box and
 * the client (docs/network.md).
 */
#ifndef NB_COMPARE_NETWORK_H
#define NB_COMPARE_NETWORK_H

#include <jansson.h>

/* Into WARNINGS (a comparison's), what BASE and NEW_ say of the network:
 * its labels (paths, connections, path-policy, mtu) differ, a path died
 * in one of them. */
void nb_compare_network(const json_t *base, const json_t *new_, json_t *warnings);

#endif
