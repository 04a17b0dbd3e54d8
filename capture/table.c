/* SPDX-License-Identifier: GPL-2.0-or-later */
/* table.c - the tables of FreeBSD's gstat and iostat -x and of zpool
 * iostat, read by the names of their columns (parse.h). */
#include "parse.h"
#include "parse_int.h"
#include "../core/err.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCOL 48

/* What a column holds: the figures nasbench reads, or one it knows and
 * leaves (latencies, queue, busy, CPU). */
enum role { C_SKIP, C_NAME, C_RS, C_WS, C_RKB, C_WKB, C_NROLE };

static const char *const role_names[] = { "", "a name", "reads", "writes",
					  "KiB read", "KiB written" };

static int refuse(const char *tool, const char *why, const char *col,
		  const char *hdr)
{
	return nb_err(-EINVAL, "%s: %s '%s' in its header '%s': a layout nasbench "
		      "does not read (docs/capture.md)", tool, why, col, hdr);
}

static int missing(const char *tool, int role, const char *hdr)
{
	return nb_err(-EINVAL, "%s: no column of %s in its header '%s': a layout "
		      "nasbench does not read (docs/capture.md)", tool,
		      role_names[role], hdr);
}

/* gstat's header: " L(q)  ops/s    r/s   kBps   ms/r    w/s   kBps   ms/w
 * [d/s kBps ms/d] [o/s ms/o] %busy Name" (-s adds "kB" after r/s, w/s and
 * d/s); a kBps or kB belongs to the operation before it. */
static int gstat_roles(char **tok, int n, int *roles, const char *hdr)
{
	static const char *const skip[] = { "L(q)", "ops/s", "d/s", "o/s", "ms/r",
					    "ms/w", "ms/d", "ms/o", "%busy", "kB" };
	char op = 0;
	int seen[C_NROLE] = { 0 };

	for (int i = 0; i < n; i++) {
		int r = -1;

		if (!strcmp(tok[i], "r/s") || !strcmp(tok[i], "w/s") ||
		    !strcmp(tok[i], "d/s") || !strcmp(tok[i], "o/s"))
			op = tok[i][0];
		if (!strcmp(tok[i], "r/s"))
			r = C_RS;
		else if (!strcmp(tok[i], "w/s"))
			r = C_WS;
		else if (!strcmp(tok[i], "kBps"))
			r = op == 'r' ? C_RKB : op == 'w' ? C_WKB : C_SKIP;
		else if (!strcmp(tok[i], "Name") && i == n - 1)
			r = C_NAME;
		for (size_t j = 0; r < 0 && j < sizeof(skip) / sizeof(skip[0]); j++)
			if (!strcmp(tok[i], skip[j]))
				r = C_SKIP;
		if (r < 0)
			return refuse("gstat", "unknown column", tok[i], hdr);
		roles[i] = r;
		seen[r]++;
	}
	for (int r = C_NAME; r < C_NROLE; r++)
		if (seen[r] != 1)
			return missing("gstat", r, hdr);
	return 0;
}

/* One device's line of a table whose columns are ROLES (N); the name is
 * the NAME column.  0, or -1 when the line is not one; a device's line
 * whose figures are not numbers (inf, 1e999, nan) is refused, counted. */
static int table_row(struct nb_cp_devs *d, char **tok, int n, const int *roles,
		     int ncol, double kib)
{
	struct nb_cp_dev *k;
	const char *name = NULL;
	double v[C_NROLE] = { 0 };
	int bad = 0;

	if (n < ncol)
		return -1;
	for (int i = 0; i < ncol; i++) {
		if (roles[i] == C_NAME)
			name = tok[i];
		else if (roles[i] != C_SKIP && nb_cpi_num(tok[i], &v[roles[i]]))
			bad = 1;
	}
	if (name && bad) {
		nb_cpi_refused(d, name);
		return -1;
	}
	if (bad || !name || !(k = nb_cpi_dev_add(d, name)))
		return -1;
	k->reads = v[C_RS];
	k->writes = v[C_WS];
	k->rbytes = v[C_RKB] * kib;
	k->wbytes = v[C_WKB] * kib;
	return 0;
}

int nb_cp_gstat(const char *text, struct nb_cp_devs *d)
{
	char line[1024], hdr[1024] = "", *tok[MAXCOL];
	int roles[MAXCOL], ncol = 0;

	d->n = 0;
	d->totals = 0;
	d->dt = 0;
	d->refused = 0;
	while (nb_bp_line(&text, line, sizeof(line))) {
		int n;

		/* the interactive display puts a '|' after %busy */
		for (char *b = strchr(line, '|'); b; b = strchr(b, '|'))
			*b = ' ';
		if (!strncmp(line, "dT:", 3)) {
			char *e;

			d->n = 0;           /* a new report: the last counts */
			d->refused = 0;
			d->dt = strtod(line + 3, &e);
			/* an interval of no length, or of more than an hour, is
			 * none said */
			if (e == line + 3 || !(d->dt > 0 && d->dt <= 3600))
				d->dt = 0;
			ncol = 0;
			continue;
		}
		memcpy(hdr, line, sizeof(hdr));
		n = nb_bp_split(line, tok, MAXCOL);
		if (n && !strcmp(tok[0], "L(q)")) {
			int rc = gstat_roles(tok, n, roles, hdr);

			if (rc)
				return rc;
			ncol = n;
			continue;
		}
		if (ncol && n == ncol && strcmp(tok[0], "*"))
			table_row(d, tok, n, roles, ncol, 1024);
	}
	return d->n;
}

/* iostat -x's header: "device r/s w/s kr/s kw/s ms/r ms/w ms/o ms/t qlen
 * %b" (FreeBSD 12 on), "device r/s w/s kr/s kw/s qlen svc_t %b" (before),
 * with -I "device r/i w/i kr/i kw/i qlen tsvc_t/i sb/i"; -T and -C add
 * tin tout, us ni sy in id. */
static int iostat_roles(char **tok, int n, int *roles, int *totals,
			const char *hdr)
{
	static const char *const skip[] = { "ms/r", "ms/w", "ms/o", "ms/t", "qlen",
					    "svc_t", "%b", "tsvc_t/i", "sb/i",
					    "tin", "tout", "us", "ni", "sy", "in",
					    "id" };
	static const struct { const char *n; int r, tot; } cols[] = {
		{ "device", C_NAME, -1 }, { "r/s", C_RS, 0 }, { "w/s", C_WS, 0 },
		{ "kr/s", C_RKB, 0 }, { "kw/s", C_WKB, 0 }, { "r/i", C_RS, 1 },
		{ "w/i", C_WS, 1 }, { "kr/i", C_RKB, 1 }, { "kw/i", C_WKB, 1 },
	};
	int seen[C_NROLE] = { 0 };

	*totals = -1;
	for (int i = 0; i < n; i++) {
		int r = -1;

		for (size_t j = 0; r < 0 && j < sizeof(cols) / sizeof(cols[0]); j++)
			if (!strcmp(tok[i], cols[j].n)) {
				r = cols[j].r;
				if (cols[j].tot >= 0 && *totals >= 0 &&
				    *totals != cols[j].tot)
					return refuse("iostat -x", "rates and totals "
						      "mixed at column", tok[i], hdr);
				if (cols[j].tot >= 0)
					*totals = cols[j].tot;
			}
		for (size_t j = 0; r < 0 && j < sizeof(skip) / sizeof(skip[0]); j++)
			if (!strcmp(tok[i], skip[j]))
				r = C_SKIP;
		if (r < 0)
			return refuse("iostat -x", "unknown column", tok[i], hdr);
		roles[i] = r;
		seen[r]++;
	}
	for (int r = C_NAME; r < C_NROLE; r++)
		if (seen[r] != 1)
			return missing("iostat -x", r, hdr);
	return 0;
}

int nb_cp_iostat(const char *text, struct nb_cp_devs *d)
{
	char line[1024], hdr[1024], *tok[MAXCOL];
	int roles[MAXCOL], ncol = 0, totals = 0;

	d->n = 0;
	d->totals = 0;
	d->dt = 0;
	d->refused = 0;
	while (nb_bp_line(&text, line, sizeof(line))) {
		int n;

		if (strstr(line, "extended device statistics")) {
			d->n = 0;           /* a new report: the last counts */
			d->refused = 0;
			ncol = 0;
			continue;
		}
		memcpy(hdr, line, sizeof(hdr));
		n = nb_bp_split(line, tok, MAXCOL);
		if (n && !strcmp(tok[0], "device")) {
			int rc = iostat_roles(tok, n, roles, &totals, hdr);

			if (rc)
				return rc;
			/* -T and -C values follow the first device's figures
			 * only: the device's own columns come first */
			ncol = n;
			while (ncol > 1 && roles[ncol - 1] == C_SKIP)
				ncol--;
			d->totals = totals;
			continue;
		}
		if (ncol)
			table_row(d, tok, n, roles, ncol, 1024);
	}
	return d->n;
}
