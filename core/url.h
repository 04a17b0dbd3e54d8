/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * url.h - target URLs and the removal of secrets from them.
 *
 *   /path, file:///path           -> scheme "file", path "/path"
 *   nfs://host[:port]/export/dir[?k=v&...]
 *   iscsi://[user[%password]@]host[:port]/iqn/lun
 *
 * A password never leaves this module except through url->password:
 * nb_url_redact() prints "user%***@host".
 */
#ifndef NB_URL_H
#define NB_URL_H

#include <stddef.h>

#define NB_URL_MAX_ARGS 16

struct nb_url {
	char scheme[16];
	char user[128];
	char password[128];
	char host[256];
	int port;                 /* 0 when not given */
	char path[1024];          /* starts with '/' */
	int nargs;
	char args_key[NB_URL_MAX_ARGS][32];
	char args_val[NB_URL_MAX_ARGS][128];
};

/* 0, or -EINVAL with "invalid target URL 'REDACTED': why" set. */
int nb_url_parse(const char *s, struct nb_url *u);

/* The value of query argument KEY, or NULL. */
const char *nb_url_arg(const struct nb_url *u, const char *key);

/* U written back as a URL (scheme://[user[%password]@]host[:port]/path
 * [?k=v&...]; a file URL as its path) into BUF: 0, or -ENAMETOOLONG. */
int nb_url_format(const struct nb_url *u, char *buf, size_t len);

/* Copy S into BUF with any password replaced by "***". */
char *nb_url_redact(const char *s, char *buf, size_t len);

#endif
