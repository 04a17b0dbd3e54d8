/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clients.h - the hosts of fio's client/server mode: one 'fio --server'
 *             per host, listed in a file (--clients) or in the box file's
 *             [clients] section, one host[:port] a line.
 */
#ifndef NB_FIO_CLIENTS_H
#define NB_FIO_CLIENTS_H

#include <stddef.h>

#define NB_FIO_DEFAULT_PORT 8765
#define NB_FIO_MAX_CLIENTS 64

/* One fio server: "host[:port]" from a [clients] section or a file. */
struct nb_fio_client {
	char host[256];
	unsigned port;
	char where[300];         /* "FILE:LINE" it came from */
};

struct nb_fio_clients {
	int n;
	struct nb_fio_client c[NB_FIO_MAX_CLIENTS];
};

/* Add one "host[:port]" line ("[v6addr]:port" for IPv6).  WHERE names the
 * origin ("clients.txt:3").  0 or -EINVAL ("WHERE: ..."). */
int nb_fio_clients_add(struct nb_fio_clients *cl, const char *text,
		       const char *where);
/* Read a host list file: one host[:port] a line, '#'/';' comments. */
int nb_fio_clients_load(struct nb_fio_clients *cl, const char *path);

/* "host:port" as nasbench names a client in messages and results. */
const char *nb_fio_client_name(const struct nb_fio_client *c, char *buf,
			       size_t len);
/* Is C's host this machine by its loopback address (127.0.0.0/8, ::1,
 * localhost)?  Then the files its fio writes are this machine's: the
 * data-loss guard can read them here. */
int nb_fio_client_is_local(const struct nb_fio_client *c);

/* The --client= argument ("ip:127.0.0.1,8766") and the command a user runs
 * on the host ("fio --server=ip:127.0.0.1,8766"). */
void nb_fio_client_arg(const struct nb_fio_client *c, char *buf, size_t len);
void nb_fio_server_cmd(const struct nb_fio_client *c, char *buf, size_t len);

#endif
