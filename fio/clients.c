/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clients.c - the host list of fio's client/server mode (see clients.h).
 */
#include "clients.h"
#include "../core/err.h"
#include "../core/knobs.h"
#include "../core/lines.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int valid_host(const char *h, int v6)
{
	if (!*h)
		return 0;
	for (; *h; h++)
		if (!(isalnum((unsigned char)*h) || *h == '.' || *h == '-' ||
		      *h == '_' || (v6 && (*h == ':' || *h == '%'))))
			return 0;
	return 1;
}

int nb_fio_clients_add(struct nb_fio_clients *cl, const char *text,
		       const char *where)
{
	struct nb_fio_client c = { .port = NB_FIO_DEFAULT_PORT };
	const char *port = NULL;
	char name[300], other[300];
	int v6 = 0;
	size_t hl;

	while (isspace((unsigned char)*text))
		text++;
	if (*text == '[') {
		const char *end = strchr(text, ']');

		if (!end)
			return nb_err(-EINVAL, "%s: '%s' lacks the ']' of an IPv6 "
				      "address", where, text);
		hl = (size_t)(end - text - 1);
		if (hl >= sizeof(c.host))
			return nb_err(-EINVAL, "%s: host name too long", where);
		memcpy(c.host, text + 1, hl);
		c.host[hl] = '\0';
		v6 = 1;
		if (end[1] == ':')
			port = end + 2;
		else if (end[1] && !isspace((unsigned char)end[1]))
			return nb_err(-EINVAL, "%s: expected host[:port], not '%s'",
				      where, text);
	} else {
		const char *colon = strchr(text, ':');

		hl = colon ? (size_t)(colon - text) : strcspn(text, " \t");
		if (hl >= sizeof(c.host))
			return nb_err(-EINVAL, "%s: host name too long", where);
		memcpy(c.host, text, hl);
		c.host[hl] = '\0';
		if (colon)
			port = colon + 1;
		else if (text[hl] && text[strspn(text + hl, " \t") + hl])
			return nb_err(-EINVAL, "%s: expected one host[:port] a "
				      "line, not '%s'", where, text);
	}
	if (!valid_host(c.host, v6))
		return nb_err(-EINVAL, "%s: invalid host '%s' (expected host[:port], "
			      "e.g. 192.0.2.10:8765)", where, c.host);
	if (port) {
		char *end;
		unsigned long p = strtoul(port, &end, 10);

		while (isspace((unsigned char)*end))
			end++;
		if (!isdigit((unsigned char)*port) || *end || p < 1 || p > 65535)
			return nb_err(-EINVAL, "%s: invalid port '%s' for host '%s' "
				      "(1 to 65535)", where, port, c.host);
		c.port = (unsigned)p;
	}
	snprintf(c.where, sizeof(c.where), "%s", where);
	nb_fio_client_name(&c, name, sizeof(name));
	for (int i = 0; i < cl->n; i++)
		if (!strcmp(nb_fio_client_name(&cl->c[i], other, sizeof(other)),
			    name))
			return nb_err(-EINVAL, "%s: client '%s' is listed twice "
				      "(first at %s)", where, name, cl->c[i].where);
	if (cl->n == NB_FIO_MAX_CLIENTS)
		return nb_err(-EINVAL, "%s: more than %d clients", where,
			      NB_FIO_MAX_CLIENTS);
	cl->c[cl->n++] = c;
	return 0;
}

static int client_line(char *s, const char *where, void *payload)
{
	return nb_fio_clients_add(payload, s, where);
}

int nb_fio_clients_load(struct nb_fio_clients *cl, const char *path)
{
	int before = cl->n;
	int rc = nb_lines_read(path, "client list", NB_LINES_TRAILING_COMMENTS,
			       client_line, cl);

	if (rc)
		return rc;
	if (cl->n == before)
		return nb_err(-EINVAL, "%s: no client in it (one host[:port] a "
			      "line)", path);
	return 0;
}

static int is_ipv4(const char *h)
{
	struct in_addr a;

	return inet_pton(AF_INET, h, &a) == 1;
}

static int is_ipv6(const char *h)
{
	return strchr(h, ':') != NULL;
}

const char *nb_fio_client_name(const struct nb_fio_client *c, char *buf,
			       size_t len)
{
	snprintf(buf, len, is_ipv6(c->host) ? "[%s]:%u" : "%s:%u", c->host,
		 c->port);
	return buf;
}

void nb_fio_client_arg(const struct nb_fio_client *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s,%u",
		 is_ipv6(c->host) ? "ip6:" : is_ipv4(c->host) ? "ip:" : "",
		 c->host, c->port);
}

int nb_fio_client_is_local(const struct nb_fio_client *c)
{
	return !strncmp(c->host, "127.", 4) || !strcmp(c->host, "::1") ||
	       !strcasecmp(c->host, "localhost");
}

void nb_fio_server_cmd(const struct nb_fio_client *c, char *buf, size_t len)
{
	char arg[300];

	nb_fio_client_arg(c, arg, sizeof(arg));
	snprintf(buf, len, "fio --server=%s", arg);
}

/* The box file's [clients] section, kept as lines for this module
 * (core/knobs.h). */
const struct nb_knob nb_fio_clients_knobs[] = {
	{ NB_SECTION("clients"), .flags = NB_KF_LINES,
	  .help = "one fio server a line: host[:port]" },
	{ NULL },
};
