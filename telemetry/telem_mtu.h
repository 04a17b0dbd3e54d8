/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telem_mtu.h - the MTU of the box's interface that holds the address a
 *               connection reaches, over the telemetry's source ('ip addr'
 *               on Linux, 'ifconfig -a' on FreeBSD), and the verdict when
 *               the two ends and the path disagree (docs/network.md).
 */
#ifndef NB_TELEM_MTU_H
#define NB_TELEM_MTU_H

#include <stddef.h>

struct nb_telem;

/* In TEXT, the output of 'ip addr' or 'ifconfig -a', the MTU of the
 * interface that holds ADDR (its name into IFACE), or 0 when none does. */
int nb_tp_iface_mtu(const char *text, const char *addr, char *iface,
		    size_t ilen);

/* The box's MTU for ADDR read now through TM's source (its interface into
 * IFACE): > 0, or 0 when it cannot say (no source, no such address). */
int nb_telem_box_mtu(struct nb_telem *tm, const char *addr, char *iface,
		     size_t ilen);

/* What one connection's ends and path say of its MTU: 0 where unknown. */
struct nb_tv_mtu {
	int client_mtu;          /* the client's interface */
	int box_mtu;             /* the box's (0: not watched) */
	int pmtu;                /* the path MTU the client's kernel learned */
};

/* Ethernet's MTU: larger ones are jumbo frames. */
#define NB_TV_MTU_STD 1500
/* The largest IP packet: an interface's MTU above it (loopback's 65536)
 * is a path MTU of this. */
#define NB_TV_MTU_IP_MAX 65535

/* The verdict on M into BUF when the ends and the path disagree ("jumbo
 * frames: the client and the box are at 9000 but the path carries 1500
 * (a switch or router between them is at 1500)"), else NULL. */
const char *nb_tv_mtu(const struct nb_tv_mtu *m, char *buf, size_t len);

#endif
