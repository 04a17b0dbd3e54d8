/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netsock.c - a runner's TCP connection as this client's kernel sees it. */
#include "netsock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define PROBE_MS 1000

static void addr_text(const struct sockaddr_storage *a, char *buf, size_t len)
{
	const void *in = a->ss_family == AF_INET6 ?
			 (const void *)&((const struct sockaddr_in6 *)a)->sin6_addr :
			 (const void *)&((const struct sockaddr_in *)a)->sin_addr;

	if (!inet_ntop(a->ss_family, in, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}

static int same_addr(const struct sockaddr *ifa, const struct sockaddr_storage *a)
{
	if (!ifa || ifa->sa_family != a->ss_family)
		return 0;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)ifa)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)a)->sin_addr.s_addr;
	return !memcmp(&((const struct sockaddr_in6 *)ifa)->sin6_addr,
		       &((const struct sockaddr_in6 *)a)->sin6_addr,
		       sizeof(struct in6_addr));
}

/* The interface that holds LOCAL, and its MTU. */
static void iface_of(const struct sockaddr_storage *local, struct nb_sockinfo *si)
{
	struct ifaddrs *all, *i;
	struct ifreq ifr;
	int s;

	if (getifaddrs(&all))
		return;
	for (i = all; i; i = i->ifa_next)
		if (same_addr(i->ifa_addr, local)) {
			snprintf(si->iface, sizeof(si->iface), "%s", i->ifa_name);
			si->loopback = !!(i->ifa_flags & IFF_LOOPBACK);
			break;
		}
	freeifaddrs(all);
	if (!si->iface[0])
		return;
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", si->iface);
	if (!ioctl(s, SIOCGIFMTU, &ifr))
		si->iface_mtu = ifr.ifr_mtu;
	close(s);
}

int nb_net_sockinfo(int fd, struct nb_sockinfo *si)
{
	struct sockaddr_storage l, r;
	socklen_t ll = sizeof(l), rl = sizeof(r), ol;
	int v;

	memset(si, 0, sizeof(*si));
	if (fd < 0 || getsockname(fd, (struct sockaddr *)&l, &ll) ||
	    getpeername(fd, (struct sockaddr *)&r, &rl))
		return -ENOTCONN;
	addr_text(&l, si->local, sizeof(si->local));
	addr_text(&r, si->peer, sizeof(si->peer));
	ol = sizeof(v);
	if (!getsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &v, &ol))
		si->mss = v;
	ol = sizeof(v);
	if (l.ss_family == AF_INET6 ?
	    !getsockopt(fd, IPPROTO_IPV6, IPV6_MTU, &v, &ol) :
	    !getsockopt(fd, IPPROTO_IP, IP_MTU, &v, &ol))
		si->pmtu = v;
	iface_of(&l, si);
	return 0;
}

/* A new TCP connection to FD's peer opens within PROBE_MS. */
static int peer_answers(int fd)
{
	struct sockaddr_storage r;
	socklen_t rl = sizeof(r), el = sizeof(int);
	struct pollfd pfd;
	int s, rc, err = 0;

	if (getpeername(fd, (struct sockaddr *)&r, &rl))
		return 0;
	s = socket(r.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s < 0)
		return 0;
	rc = connect(s, (struct sockaddr *)&r, rl);
	if (rc && errno == EINPROGRESS) {
		pfd.fd = s;
		pfd.events = POLLOUT;
		rc = poll(&pfd, 1, PROBE_MS) == 1 &&
		     !getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &el) && !err ? 0 : -1;
	}
	close(s);
	return rc == 0;
}

int nb_net_blackhole(int fd, const struct nb_sockinfo *at_open, char *why,
		     size_t len)
{
	struct nb_sockinfo now;
	char from[96] = "";
	int mss;

	if (nb_net_sockinfo(fd, &now))
		now = *at_open;
	mss = now.mss > at_open->mss ? now.mss : at_open->mss;
	if (mss <= NB_NET_MSS_1500 || !peer_answers(fd))
		return 0;
	if (now.iface[0])
		snprintf(from, sizeof(from), " from interface %s (MTU %d)",
			 now.iface, now.iface_mtu);
	snprintf(why, len, "a jumbo-frame black hole: a new connection to "
		 "%s still opens (small frames pass), but this one, sending "
		 "segments of %d bytes%s, got no answer: a switch or router "
		 "between the client and the box drops larger frames without "
		 "an ICMP 'fragmentation needed', so this is the network, not "
		 "a slow box", now.peer[0] ? now.peer : "the box", mss, from);
	return 1;
}

void nb_net_reset_on_close(int fd)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
}
