/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "url.h"
#include "err.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The '@' that ends the user info of the authority at AUTH, or NULL.  An
 * iSCSI URL's path (IQN and LUN) never holds an '@', so there the last one
 * counts: a password may hold '@' or '/' and must not leak in part. */
static const char *auth_at(const char *s, const char *auth)
{
	const char *slash = strchr(auth, '/');

	/* "iscsi://" also inside "NAME=iscsi://..." (--target NAME=URL) */
	if (auth - s >= 8 && !strncmp(auth - 8, "iscsi://", 8))
		return strrchr(auth, '@');
	return memrchr(auth, '@', slash ? (size_t)(slash - auth) : strlen(auth));
}

char *nb_url_redact(const char *s, char *buf, size_t len)
{
	const char *sep = strstr(s, "://");
	const char *auth, *at, *pct;

	snprintf(buf, len, "%s", s);
	if (!sep)
		return buf;
	auth = sep + 3;
	at = auth_at(s, auth);
	if (!at)
		return buf;
	/* libiscsi writes user%password; also accept user:password. */
	pct = memchr(auth, '%', (size_t)(at - auth));
	if (!pct)
		pct = memchr(auth, ':', (size_t)(at - auth));
	if (!pct)
		return buf;
	snprintf(buf, len, "%.*s***%s", (int)(pct + 1 - s), s, at);
	return buf;
}

static int fail(const char *s, const char *why)
{
	char red[1024];

	nb_err_set("invalid target URL '%s': %s", nb_url_redact(s, red, sizeof(red)),
		   why);
	return -EINVAL;
}

static int copy(char *dst, size_t cap, const char *src, size_t n)
{
	if (n >= cap)
		return -1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

static int parse_args(const char *s, const char *q, struct nb_url *u)
{
	while (q && *q) {
		const char *amp = strchr(q, '&');
		size_t n = amp ? (size_t)(amp - q) : strlen(q);
		const char *eq = memchr(q, '=', n);

		if (u->nargs == NB_URL_MAX_ARGS)
			return fail(s, "too many arguments");
		if (!eq || eq == q)
			return fail(s, "argument without '=value'");
		if (copy(u->args_key[u->nargs], sizeof(u->args_key[0]), q,
			 (size_t)(eq - q)) ||
		    copy(u->args_val[u->nargs], sizeof(u->args_val[0]), eq + 1,
			 n - (size_t)(eq + 1 - q)))
			return fail(s, "argument too long");
		u->nargs++;
		q = amp ? amp + 1 : NULL;
	}
	return 0;
}

static int parse_authority(const char *s, const char *a, size_t n,
			   struct nb_url *u)
{
	const char *at = memrchr(a, '@', n), *colon;
	size_t hn;

	if (at) {
		const char *pct = memchr(a, '%', (size_t)(at - a));

		if (!pct)
			pct = memchr(a, ':', (size_t)(at - a));
		if (copy(u->user, sizeof(u->user), a, (size_t)((pct ? pct : at) - a)) ||
		    (pct && copy(u->password, sizeof(u->password), pct + 1,
				 (size_t)(at - pct - 1))))
			return fail(s, "user or password too long");
		n -= (size_t)(at + 1 - a);
		a = at + 1;
	}
	colon = memchr(a, ':', n);
	hn = colon ? (size_t)(colon - a) : n;
	if (hn == 0)
		return fail(s, "no host");
	if (copy(u->host, sizeof(u->host), a, hn))
		return fail(s, "host name too long");
	if (colon) {
		char *end;
		long p = strtol(colon + 1, &end, 10);

		if (end != a + n || p <= 0 || p > 65535)
			return fail(s, "invalid port");
		u->port = (int)p;
	}
	return 0;
}

#define ISCSI_FORM "iscsi://HOST[:PORT]/IQN/LUN, e.g. " \
	"iscsi://192.0.2.10/iqn.2005-10.org.freenas.ctl:bench/0"

/* An iSCSI URL's path is /IQN/LUN, the LUN a number from 0 to 16383. */
static int check_iscsi(const char *s, const struct nb_url *u)
{
	const char *lun = strrchr(u->path, '/');
	char *end, why[300];
	long n;

	if (lun == u->path && !lun[1])
		return fail(s, "the IQN and LUN are missing: " ISCSI_FORM);
	if (lun == u->path && strspn(lun + 1, "0123456789") == strlen(lun + 1))
		return fail(s, "the IQN is missing: " ISCSI_FORM);
	if (lun == u->path || !lun[1])
		return fail(s, "the LUN is missing after the IQN: " ISCSI_FORM);
	errno = 0;
	n = strtol(lun + 1, &end, 10);
	if (errno || *end || n < 0 || n > 16383) {
		snprintf(why, sizeof(why), "LUN '%.32s' is not a number from 0 to "
			 "16383", lun + 1);
		return fail(s, why);
	}
	return 0;
}

int nb_url_parse(const char *s, struct nb_url *u)
{
	const char *sep, *auth, *slash, *q;

	memset(u, 0, sizeof(*u));
	if (!s || !*s)
		return fail("", "empty");
	sep = strstr(s, "://");
	if (!sep) {
		if (s[0] != '/' && s[0] != '.')
			return fail(s, "expected a path, file://, nfs:// or iscsi://");
		strcpy(u->scheme, "file");
		if (copy(u->path, sizeof(u->path), s, strlen(s)))
			return fail(s, "path too long");
		return 0;
	}
	if (copy(u->scheme, sizeof(u->scheme), s, (size_t)(sep - s)))
		return fail(s, "unknown scheme");
	auth = sep + 3;
	if (!strcmp(u->scheme, "file")) {
		if (*auth != '/')
			return fail(s, "file URLs take an absolute path (file:///dir)");
		if (copy(u->path, sizeof(u->path), auth, strlen(auth)))
			return fail(s, "path too long");
		return 0;
	}
	slash = auth_at(s, auth);
	slash = strchr(slash ? slash : auth, '/');
	q = strchr(auth, '?');
	if (q && slash && q < slash)
		slash = NULL;
	if (!slash && !strcmp(u->scheme, "iscsi"))
		return fail(s, "the IQN and LUN are missing: " ISCSI_FORM);
	if (!slash && !strcmp(u->scheme, "nfs"))
		return fail(s, "the export path is missing: nfs://HOST[:PORT]/EXPORT"
			    "[/DIR], e.g. nfs://192.0.2.10/mnt/tank/bench");
	if (!slash)
		return fail(s, "no path after the host");
	if (parse_authority(s, auth, (size_t)(slash - auth), u))
		return -EINVAL;
	if (copy(u->path, sizeof(u->path), slash,
		 q ? (size_t)(q - slash) : strlen(slash)))
		return fail(s, "path too long");
	if (parse_args(s, q ? q + 1 : NULL, u))
		return -EINVAL;
	return strcmp(u->scheme, "iscsi") ? 0 : check_iscsi(s, u);
}

const char *nb_url_arg(const struct nb_url *u, const char *key)
{
	for (int i = 0; i < u->nargs; i++)
		if (!strcmp(u->args_key[i], key))
			return u->args_val[i];
	return NULL;
}

int nb_url_format(const struct nb_url *u, char *buf, size_t len)
{
	size_t n;

	if (!strcmp(u->scheme, "file"))
		n = (size_t)snprintf(buf, len, "%s", u->path);
	else
		n = (size_t)snprintf(buf, len, "%s://%s%s%s%s%s", u->scheme, u->user,
				     u->password[0] ? "%" : "", u->password,
				     u->user[0] ? "@" : "", u->host);
	if (strcmp(u->scheme, "file") && u->port && n < len)
		n += (size_t)snprintf(buf + n, len - n, ":%d", u->port);
	if (strcmp(u->scheme, "file") && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s", u->path);
	for (int i = 0; i < u->nargs && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%c%s=%s", i ? '&' : '?',
				      u->args_key[i], u->args_val[i]);
	return n < len ? 0 : -ENAMETOOLONG;
}
