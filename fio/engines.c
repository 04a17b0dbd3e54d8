/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engines.c - fio's engines for nfs:// and iscsi:// targets (see
 *             engines.h).
 */
#include "engines.h"
#include "invoke.h"
#include "../core/err.h"
#include "../core/url.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define ENGHELP_LIMIT_US 30000000ULL

const char *nb_fio_remote_engine(const char *scheme)
{
	if (!strcmp(scheme, "nfs"))
		return "nfs";
	if (!strcmp(scheme, "iscsi"))
		return "libiscsi";
	return NULL;
}

/* Whether LIST (fio --enghelp's output: a heading, then one engine a line,
 * indented) names ENGINE on a line of its own. */
static int listed(const char *list, const char *engine)
{
	size_t n = strlen(engine);

	for (const char *l = list; l && *l; l = strchr(l, '\n'), l += !!l) {
		const char *s = l + strspn(l, " \t");

		if (s != l && !strncmp(s, engine, n) &&
		    (s[n] == '\n' || s[n] == '\0' || s[n] == ' ' || s[n] == '\t'))
			return 1;
	}
	return 0;
}

int nb_fio_has_engine(const char *engine)
{
	/* fio --enghelp once per program: a run asks for every target */
	static char prog[4096], list[8192];
	static int ok;
	char *argv[] = { "fio", "--enghelp", NULL };
	struct nb_fio_exec x;
	int rc;

	if (strcmp(prog, nb_fio_program())) {
		rc = nb_fio_exec(argv, NULL, NULL, ENGHELP_LIMIT_US, &x);
		if (rc)
			return rc;
		ok = !x.status;
		snprintf(list, sizeof(list), "%s", x.out);
		nb_fio_exec_free(&x);
		snprintf(prog, sizeof(prog), "%s", nb_fio_program());
	}
	return ok && listed(list, engine);
}

int nb_fio_check_engine(const char *target, const char *scheme,
			const char *why)
{
	const char *engine = nb_fio_remote_engine(scheme);
	int rc;

	if (!engine)
		return 0;
	rc = nb_fio_has_engine(engine);
	if (rc == 1)
		return 0;
	if (rc < 0) {
		char cause[1024];

		snprintf(cause, sizeof(cause), "%s", nb_err_last());
		return nb_err(-EINVAL, "target '%s': %s on '%s://' needs fio's %s "
			      "engine: %s", target, why, scheme, engine, cause);
	}
	return nb_err(-EINVAL, "target '%s': %s on '%s://' needs fio's %s engine, "
		      "and '%s' has none ('fio --enghelp' does not list it; "
		      "Debian's fio is built without it): build one with "
		      "ci/fio-engines and set NASBENCH_FIO to the path it "
		      "prints", target, why, scheme, engine, nb_fio_program());
}

int nb_fio_check_credentials(const char *target, const struct nb_url *u)
{
	if (!u->user[0] && !u->password[0])
		return 0;
	return nb_err(-EINVAL, "target '%s': the CHAP user and password would be "
		      "written into fio's job file, which the result keeps: take "
		      "them out of the URL and give them to fio as "
		      "LIBISCSI_CHAP_USERNAME and LIBISCSI_CHAP_PASSWORD in its "
		      "environment", target);
}
