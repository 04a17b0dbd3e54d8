/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "import.h"
#include "../core/escape.h"
#include "../core/err.h"
#include "../core/fsutil.h"
#include "../core/result.h"
#include "../fio/json.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The entry TARGET/WORKLOAD of DOC, added (with its target) if new. */
static json_t *entry(json_t *doc, const char *target, const char *workload,
		     const char *runner)
{
	json_t *e = nb_result_find(doc, target, workload), *t;
	size_t i;

	if (e)
		return e;
	json_array_foreach(json_object_get(doc, "targets"), i, t)
		if (!strcmp(nb_jstr(t, "name"), target))
			break;
	if (i == json_array_size(json_object_get(doc, "targets")))
		json_array_append_new(json_object_get(doc, "targets"),
				      json_pack("{s:s, s:s, s:s}", "name", target,
						"url", "", "runner", runner));
	return nb_result_add(doc, target, workload);
}

/* ---- fio ---- */

/* The metrics of one direction of a fio job (fio's "read" object), read
 * by fio/json.c as a run reads them; what fio did not give is left out.
 * NULL when out of memory. */
static json_t *side_metrics(const json_t *side, int dir)
{
	json_t *m = json_object();
	struct nb_fio_stats st;

	if (nb_fio_side(side, (enum nb_fio_dir)dir, &st)) {
		json_decref(m);
		return NULL;
	}
	nb_fio_put_metrics(m, &st);
	return m;
}

static int fio_job(json_t *doc, const json_t *job, const char *target,
		   const json_t *global, const char *path)
{
	static const char *sides[] = { "read", "write", "trim" };
	int used[3], nused = 0;
	json_t *spec, *v;
	const char *k;

	if (!json_is_object(job) || !*nb_jstr(job, "jobname"))
		return nb_err(-EINVAL, "'%s': a fio job without a \"jobname\"", path);
	spec = json_object();
	json_object_update(spec, (json_t *)global);
	json_object_foreach(json_object_get(job, "job options"), k, v)
		json_object_set(spec, k, v);
	for (int s = 0; s < 3; s++) {
		json_t *side = json_object_get(job, sides[s]);

		used[s] = json_integer_value(json_object_get(side, "io_bytes")) > 0;
		nused += used[s];
	}
	for (int s = 0; s < 3; s++) {
		char name[256];
		json_t *e, *m;

		if (!used[s] && (nused || s))
			continue;    /* a job that did nothing still shows, once */
		if (nused > 1)
			snprintf(name, sizeof(name), "%s-%s", nb_jstr(job, "jobname"), sides[s]);
		else
			snprintf(name, sizeof(name), "%s", nb_jstr(job, "jobname"));
		e = entry(doc, target, name, "fio");
		json_object_set_new(e, "spec", json_pack("{s:s, s:O}", "tool", "fio",
						    "options", spec));
		if (json_integer_value(json_object_get(job, "error"))) {
			char why[64];

			snprintf(why, sizeof(why), "fio reported error %lld",
				 (long long)json_integer_value(json_object_get(job, "error")));
			nb_result_set_status(e, "failed", why);
			continue;
		}
		m = side_metrics(json_object_get(job, sides[s]), s);
		if (!m) {
			json_decref(spec);
			return -ENOMEM;
		}
		nb_result_iteration(e, m, json_pack("{s:o}", "source", nb_json_text(path)));
	}
	json_decref(spec);
	return 0;
}

/* fio's "All clients" sums a group over the clients: name it by the job
 * of that group when there is one, else "group-N". */
static const char *group_name(const json_t *jobs, const json_t *all)
{
	static _Thread_local char name[256];
	json_int_t g = json_integer_value(json_object_get(all, "groupid"));
	const char *one = NULL;
	json_t *job;
	size_t i;

	json_array_foreach(jobs, i, job) {
		if (!strcmp(nb_jstr(job, "jobname"), "All clients") ||
		    json_integer_value(json_object_get(job, "groupid")) != g)
			continue;
		if (one && strcmp(one, nb_jstr(job, "jobname"))) {
			one = NULL;
			break;
		}
		one = nb_jstr(job, "jobname");
	}
	if (one)
		snprintf(name, sizeof(name), "%s", one);
	else
		snprintf(name, sizeof(name), "group-%lld", (long long)g);
	return name;
}

static int fio_import(json_t *doc, const char *path, const char *text,
		      const char *target)
{
	int rc = 0, line = 1, client;
	/* client/server output may start with "hostname=..." lines */
	const char *p = nb_fio_json_start(text, strlen(text), &line);
	json_error_t err;
	json_t *j, *jobs, *job;
	size_t i;

	j = json_loads(p ? p : text, JSON_DISABLE_EOF_CHECK, &err);
	if (!j)
		return nb_err(-EINVAL, "%s:%d: not valid fio JSON: %s", path,
			      line + err.line - 1, err.text);
	client = json_is_array(json_object_get(j, "client_stats"));
	jobs = json_object_get(j, client ? "client_stats" : "jobs");
	if (!json_is_array(jobs) || !json_object_get(j, "fio version")) {
		json_decref(j);
		return nb_err(-EINVAL, "'%s': JSON, but not fio output (no \"jobs\" "
			      "or \"client_stats\")", path);
	}
	json_array_foreach(jobs, i, job) {
		char t[256];

		if (client && !strcmp(nb_jstr(job, "jobname"), "All clients")) {
			json_t *named = json_deep_copy(job);

			snprintf(t, sizeof(t), "%s", target ? target : "all-clients");
			json_object_set_new(named, "jobname",
					    json_string(group_name(jobs, job)));
			rc = fio_job(doc, named, t, json_object_get(j, "global options"),
				     path);
			json_decref(named);
			if (rc)
				break;
			continue;
		}
		else if (client)
			snprintf(t, sizeof(t), "%s%s%s", target ? target : "",
				 target ? "@" : "", *nb_jstr(job, "hostname") ?
				 nb_jstr(job, "hostname") : "client");
		else
			snprintf(t, sizeof(t), "%s", target ? target : "local");
		rc = fio_job(doc, job, t, json_object_get(j, "global options"), path);
		if (rc)
			break;
	}
	if (!rc && json_is_integer(json_object_get(j, "timestamp"))) {
		time_t ts = (time_t)json_integer_value(json_object_get(j, "timestamp"));
		struct tm tm;
		char iso[32];

		gmtime_r(&ts, &tm);
		strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm);
		if (strcmp(iso, nb_jstr(doc, "started")) < 0 || !json_object_get(doc, "imported"))
			json_object_set_new(doc, "started", json_string(iso));
		json_object_set_new(doc, "imported", json_true());
	}
	json_decref(j);
	return rc;
}

/* ---- bonnie++ ---- */

/*
 * The columns of a format 1.98 line as bonnie++ 2.00 prints it
 * (bon_csv2html(1); fields 7 and 8 are the seeks and seekers, which the
 * heading -q prints leaves out), each to the one metric of nasbench's
 * bonnie workload that measures the same thing: that workload does every
 * phase as bonnie++ 2.00 does it (per-char: a system call per byte over
 * the first 3 MiB; block: 8 KiB, timed through the fsync and close).  The
 * figure (PHASE_kps, and PHASE_bw_bytes x 1024, or PHASE_per_s) is at IDX,
 * its %CPU at IDX + 1 (PHASE_cpu_pct), its latency at LAT: bonnie++'s
 * longest single operation of the phase (PHASE_lat_max_us).
 */
static const struct {
	int idx, lat;
	const char *phase, *unit;
} bonnie_rates[] = {
	{ 9, 38, "put_char", "kps" },      { 11, 39, "put_block", "kps" },
	{ 13, 40, "rewrite", "kps" },      { 15, 41, "get_char", "kps" },
	{ 17, 42, "get_block", "kps" },    { 19, 43, "seeks", "per_s" },
	{ 26, 44, "seq_create", "per_s" }, { 28, 45, "seq_stat", "per_s" },
	{ 30, 46, "seq_delete", "per_s" }, { 32, 47, "ran_create", "per_s" },
	{ 34, 48, "ran_stat", "per_s" },   { 36, 49, "ran_delete", "per_s" },
};
#define BONNIE_FIELDS 50

/* "14089us", "12ms", "1s" -> microseconds; NAN when empty or "+++". */
static double bonnie_latency(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s)
		return NAN;
	if (!strcmp(end, "us"))
		return v;
	if (!strcmp(end, "ms"))
		return v * 1e3;
	if (!strcmp(end, "s"))
		return v * 1e6;
	return NAN;
}

static int bonnie_line(json_t *doc, char *line, const char *path, int lineno,
		       const char *target)
{
	char *f[BONNIE_FIELDS + 1], *s = line, *end;
	int n = 0;
	json_t *m, *e;

	while (n <= BONNIE_FIELDS) {
		f[n++] = s;
		s = strchr(s, ',');
		if (!s)
			break;
		*s++ = '\0';
	}
	if (n != BONNIE_FIELDS)
		return nb_err(-EINVAL, "%s:%d: a bonnie++ line has %d fields, "
			      "expected %d (format 1.98)", path, lineno, n,
			      BONNIE_FIELDS);
	if (strncmp(f[0], "1.9", 3))
		return nb_err(-EINVAL, "%s:%d: bonnie++ CSV format '%s' is not "
			      "supported (1.98 is)", path, lineno, f[0]);
	m = json_object();
	for (size_t i = 0; i < sizeof(bonnie_rates) / sizeof(bonnie_rates[0]); i++) {
		const char *v = f[bonnie_rates[i].idx], *phase = bonnie_rates[i].phase;
		const char *c = f[bonnie_rates[i].idx + 1];
		double x = strtod(v, &end);
		char name[96];

		snprintf(name, sizeof(name), "%s_%s", phase, bonnie_rates[i].unit);
		if (end != v && !*end) {
			json_object_set_new(m, name, json_real(x));
			snprintf(name, sizeof(name), "%s_bw_bytes", phase);
			if (!strcmp(bonnie_rates[i].unit, "kps"))
				json_object_set_new(m, name, json_real(x * 1024));
		}
		x = strtod(c, &end);
		snprintf(name, sizeof(name), "%s_cpu_pct", phase);
		if (end != c && !*end)
			json_object_set_new(m, name, json_real(x));
		x = bonnie_latency(f[bonnie_rates[i].lat]);
		snprintf(name, sizeof(name), "%s_lat_max_us", phase);
		if (isfinite(x))
			json_object_set_new(m, name, json_real(x));
	}
	e = entry(doc, target ? target : "local", "bonnie", "bonnie++");
	/* the chunk size is printed only when not bonnie++'s 8 KiB */
	if (!json_object_get(e, "spec"))
		json_object_set_new(e, "spec", json_pack(
			"{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "tool",
			"bonnie++", "version", f[1], "file_size", f[5],
			"chunk_size", *f[6] ? f[6] : "8k", "seeks", f[7],
			"seekers", f[8], "concurrency", f[3], "num_files", f[21]));
	nb_result_iteration(e, m, json_pack("{s:s, s:o, s:i}", "host", f[2],
					    "source", nb_json_text(path), "line", lineno));
	return 0;
}

/* A bonnie++ CSV result line: "1.98,2.00a,..." with its 50 fields. */
static int bonnie_csv_line(const char *s)
{
	int commas = 0;

	if (!isdigit((unsigned char)s[0]) || s[strspn(s, "0123456789.")] != ',')
		return 0;
	for (; *s && *s != '\n'; s++)
		commas += *s == ',';
	return commas >= 40;
}

static int bonnie_import(json_t *doc, const char *path, char *text,
			 const char *target)
{
	char *line = text, *next, where[4200];
	int lineno = 0, rows = 0, rc = 0;

	for (; line && *line && !rc; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!bonnie_csv_line(line))
			continue;    /* the heading -q prints, or the text table */
		/* text at the boundary: a line that is not UTF-8 is refused,
		 * never half kept (core/escape.h) */
		if (*line && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';  /* a CRLF file's line */
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		if (nb_text_check(line, where))
			return -EINVAL;
		rc = bonnie_line(doc, line, path, lineno, target);
		rows++;
	}
	if (!rc && !rows)
		return nb_err(-EINVAL, "'%s': no bonnie++ result lines", path);
	return rc;
}

/* ---- dispatch ---- */

/* bonnie++ output: -q's CSV, or its text table with the CSV line last. */
static int looks_bonnie(const char *s)
{
	for (; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
		if (!strncmp(s, "format_version,", 15) || bonnie_csv_line(s))
			return 1;
	return 0;
}

int nb_import_file(json_t *doc, const char *path, const char *target)
{
	char *buf;
	size_t len;
	int rc = nb_read_file(path, &buf, &len);

	if (rc)
		return nb_err(rc, "cannot read '%s': %s", path, strerror(-rc));
	if (!len) {
		free(buf);
		return nb_err(-EINVAL, "'%s' is empty", path);
	}
	if (strchr(buf, '{') && (buf[strspn(buf, " \t\r\n")] == '{' ||
				 strstr(buf, "\n{")))
		rc = fio_import(doc, path, buf, target);
	else if (looks_bonnie(buf))
		rc = bonnie_import(doc, path, buf, target);
	else
		rc = nb_err(-EINVAL, "'%s': unknown format (expected fio JSON "
			    "output or bonnie++ CSV)", path);
	free(buf);
	return rc;
}
