/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hook.c - the test build's nb_hook() (core/hook.h), linked into
 * build/nasbench-test ahead of the library.
 *
 *   NASBENCH_TEST_PAUSE=DIR      at each point named in NASBENCH_TEST_PAUSE_AT
 *                                (comma-separated; "pass-*" matches a prefix;
 *                                default "pass-*", integrity's passes), write
 *                                DIR/POINT.ready (the detail) and wait, up to
 *                                120 s, for DIR/POINT.go
 *   NASBENCH_TEST_BEFORE_VERIFY  a shell command run at "before-verify"
 */
#include "../../core/err.h"
#include "../../core/hook.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PAUSE_S 120

static int named(const char *list, const char *point)
{
	char buf[1024], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		size_t n = strlen(p);

		if (n && p[n - 1] == '*' ? !strncmp(p, point, n - 1) : !strcmp(p, point))
			return 1;
	}
	return 0;
}

static int pause_at(const char *dir, const char *point, const char *detail,
		    volatile sig_atomic_t *stop)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.ready", dir, point);
	f = fopen(path, "w");
	if (!f)
		return nb_err(-errno, "NASBENCH_TEST_PAUSE: cannot create '%s': %s",
			      path, strerror(errno));
	fputs(detail ? detail : "", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%s.go", dir, point);
	for (int i = 0; i < PAUSE_S * 20; i++) {
		struct timespec ts = { 0, 50000000 };

		if (!access(path, F_OK))
			return 0;
		if (stop && *stop)
			return -EINTR;
		nanosleep(&ts, NULL);
	}
	return nb_err(-ETIMEDOUT, "NASBENCH_TEST_PAUSE: no '%s' after %d s",
		      path, PAUSE_S);
}

int nb_hook(const char *point, const char *detail, volatile sig_atomic_t *stop)
{
	const char *dir = getenv("NASBENCH_TEST_PAUSE");
	const char *at = getenv("NASBENCH_TEST_PAUSE_AT");
	const char *cmd = getenv("NASBENCH_TEST_BEFORE_VERIFY");

	if (!strcmp(point, "before-verify") && cmd && *cmd && system(cmd) != 0)
		nb_warn("NASBENCH_TEST_BEFORE_VERIFY failed: %s", cmd);
	if (dir && *dir && named(at && *at ? at : "pass-*", point))
		return pause_at(dir, point, detail, stop);
	return 0;
}
