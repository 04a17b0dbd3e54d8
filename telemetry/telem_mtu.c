/* SPDX-License-Identifier: GPL-2.0-or-later */
/* telem_mtu.c - the box's MTU and the verdict on a path's (telem_mtu.h). */
#include "telem_mtu.h"
#include "telem.h"
#include "telem_parse.h"
#include "telem_rt.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An interface's first line: "2: eth0@if3: <...> mtu 9000 ..." (ip),
 * "em0: flags=8843<...> metric 0 mtu 9000" (ifconfig).  Its name and MTU
 * (0 when the line says none). */
static void header(char *line, char *name, size_t nlen, int *mtu)
{
	char *tok[64];
	int n = nb_bp_split(line, tok, 64), i = 0;

	*mtu = 0;
	name[0] = '\0';
	if (n && tok[0][strspn(tok[0], "0123456789")] == ':' && isdigit((unsigned char)tok[0][0]))
		i = 1;                         /* ip's index */
	if (i < n)
		snprintf(name, nlen, "%.*s", (int)strcspn(tok[i], ":@"), tok[i]);
	for (int k = i; k + 1 < n; k++)
		if (!strcmp(tok[k], "mtu"))
			*mtu = atoi(tok[k + 1]);
}

/* An address line "inet 198.18.0.2/24 ..." or "inet 198.18.0.2 netmask
 * ...": does it hold ADDR? */
static int holds(char *line, const char *addr)
{
	char *tok[8];
	int n = nb_bp_split(line, tok, 8);
	size_t l;

	if (n < 2 || (strcmp(tok[0], "inet") && strcmp(tok[0], "inet6")))
		return 0;
	l = strcspn(tok[1], "/%");
	return l == strlen(addr) && !strncmp(tok[1], addr, l);
}

int nb_tp_iface_mtu(const char *text, const char *addr, char *iface, size_t ilen)
{
	char line[512], name[64] = "";
	int mtu = 0;

	while (text && nb_bp_line(&text, line, sizeof(line)) > 0) {
		if (!line[0])
			continue;
		if (line[0] != ' ' && line[0] != '\t') {
			header(line, name, sizeof(name), &mtu);
			continue;
		}
		if (name[0] && mtu > 0 && holds(line, addr)) {
			snprintf(iface, ilen, "%s", name);
			return mtu;
		}
	}
	return 0;
}

int nb_telem_box_mtu(struct nb_telem *tm, const char *addr, char *iface,
		     size_t ilen)
{
	static const char script[] = "ip addr 2>/dev/null || ifconfig -a";
	char *out = NULL, err[256];
	int mtu;

	iface[0] = '\0';
	if (!tm || !addr[0])
		return 0;
	/* between iterations: the source's whole timeout, not the cut of a
	 * sampler's last reading */
	if (tm->ssh.host[0] ? nb_telem_ssh_exec(tm, script, tm->timeout_us, NULL, &out,
						err, sizeof(err)) :
	    nb_telem_exec(tm, script, &out, err, sizeof(err)))
		return 0;
	mtu = nb_tp_iface_mtu(out, addr, iface, ilen);
	free(out);
	return mtu;
}

const char *nb_tv_mtu(const struct nb_tv_mtu *m, char *buf, size_t len)
{
	int c = m->client_mtu, b = m->box_mtu, ends = b && b < c ? b : c;
	const char *what = (c > NB_TV_MTU_STD || b > NB_TV_MTU_STD) ?
			   "jumbo frames" : "MTU";

	if (c <= 0 || m->pmtu <= 0)
		return NULL;
	if (ends > NB_TV_MTU_IP_MAX)       /* no IPv4 packet is larger */
		ends = NB_TV_MTU_IP_MAX;
	if (b > 0 && b != c) {
		snprintf(buf, len, "%s: the client is at %d but the box is at %d, "
			 "so the path carries %d (set both ends to the same MTU)",
			 what, c, b, m->pmtu < ends ? m->pmtu : ends);
		return buf;
	}
	if (m->pmtu >= ends)
		return NULL;
	if (b > 0)
		snprintf(buf, len, "%s: the client and the box are at %d but the "
			 "path carries %d (a switch or router between them is at "
			 "%d)", what, c, m->pmtu, m->pmtu);
	else
		snprintf(buf, len, "%s: the client is at %d but the path carries "
			 "%d (a switch or router between the client and the box "
			 "is at %d)", what, c, m->pmtu, m->pmtu);
	return buf;
}
