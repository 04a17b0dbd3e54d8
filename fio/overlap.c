/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * overlap.c - did fio's clients run at the same time? (see overlap.h)
 */
#include "overlap.h"
#include "../core/err.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nb_fio_span_read(const char *path, unsigned avg_ms, struct nb_fio_span *sp)
{
	FILE *f = fopen(path, "r");
	char line[256];
	uint64_t first = 0, last = 0, t;
	int n = 0;

	memset(sp, 0, sizeof(*sp));
	if (!f)
		return nb_err(-errno, "cannot open fio's log '%s': %s", path,
			      strerror(errno));
	/* "TIME_MS, VALUE, DIR, BS, PRIO" a line */
	while (fgets(line, sizeof(line), f)) {
		char *end;

		t = strtoull(line, &end, 10);
		if (end == line || *end != ',')
			continue;
		if (!n++)
			first = t;
		last = t;
	}
	fclose(f);
	if (!n)
		return nb_err(-EINVAL, "fio's log '%s' has no entries", path);
	sp->ok = 1;
	sp->start_ms = first > avg_ms ? first - avg_ms : 0;
	sp->end_ms = last;
	return 0;
}

int nb_fio_span_find(const char *dir, const char *prefix, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char want[300];
	int rc = -ENOENT;

	snprintf(want, sizeof(want), "%s_bw.", prefix);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, want, strlen(want)) &&
		    strstr(de->d_name, ".log")) {
			snprintf(buf, len, "%s/%s", dir, de->d_name);
			rc = 0;
			break;
		}
	closedir(d);
	return rc;
}

int nb_fio_overlap(const struct nb_fio_span *sp, int n, uint64_t tol_ms,
		   int *late, int *early, uint64_t *common_ms)
{
	uint64_t first = UINT64_MAX, last = 0, lo = 0, hi = UINT64_MAX;
	int odd = 0, any = 0;

	for (int i = 0; i < n; i++) {
		late[i] = early[i] = 0;
		if (!sp[i].ok)
			continue;
		any = 1;
		first = sp[i].start_ms < first ? sp[i].start_ms : first;
		last = sp[i].end_ms > last ? sp[i].end_ms : last;
		lo = sp[i].start_ms > lo ? sp[i].start_ms : lo;
		hi = sp[i].end_ms < hi ? sp[i].end_ms : hi;
	}
	*common_ms = any && hi > lo ? hi - lo : 0;
	for (int i = 0; i < n; i++) {
		if (!sp[i].ok)
			continue;
		late[i] = sp[i].start_ms > first + tol_ms;
		early[i] = sp[i].end_ms + tol_ms < last;
		odd += late[i] || early[i];
	}
	return odd;
}

uint64_t nb_fio_overlap_tol(uint64_t longest_ms)
{
	uint64_t tol = longest_ms / 10;

	return tol < 2 * NB_FIO_SPAN_AVG_MS ? 2 * NB_FIO_SPAN_AVG_MS : tol;
}
