/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netsock.h - what this client's kernel knows of a runner's TCP
 *             connection: the interface it leaves by and its MTU, the
 *             segment size in use (TCP_MAXSEG), the path MTU learned
 *             (IP_MTU), and whether a stalled connection looks like a
 *             jumbo-frame black hole (docs/network.md).
 */
#ifndef NB_RUNNER_NETSOCK_H
#define NB_RUNNER_NETSOCK_H

#include <stddef.h>

#include "../core/target.h"

/* The largest MSS of a 1500-byte Ethernet MTU (IPv4, no options): a
 * connection with a larger one sends jumbo frames. */
#define NB_NET_MSS_1500 1460

/* Fill *SI for the connected TCP socket FD (zeroes where the kernel does
 * not say).  0, or -errno when FD is no connected socket. */
int nb_net_sockinfo(int fd, struct nb_sockinfo *si);

/* FD's connection stalled (a request got no answer within the target's
 * timeout).  When it carried jumbo frames and a new connection to the
 * same peer still opens (small frames pass), say so into WHY and return
 * 1: frames larger than some link on the way are dropped without an ICMP
 * "fragmentation needed" (a black hole), not a slow box.  0 otherwise. */
int nb_net_blackhole(int fd, const struct nb_sockinfo *at_open, char *why,
		     size_t len);

/* Close FD's connection with a reset when it is closed (SO_LINGER 0): the
 * data still queued on a dead path must never reach the box after its
 * I/O was reissued on another path. */
void nb_net_reset_on_close(int fd);

#endif
