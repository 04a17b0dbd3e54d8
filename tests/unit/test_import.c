/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_import.c - the importers on real output: the test runs fio (plain,
 * json+, client/server) and bonnie++ on a scratch directory with small
 * sizes, imports what they wrote, and holds every figure against the
 * tool's own file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/err.h"
#include "../../core/result.h"
#include "../../formats/import.h"
#include "files.h"

static char dir[] = "/tmp/nb-unit-import.XXXXXX";

static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static int setup(void **state)
{
	FILE *f;
	char path[256];

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/job.fio", dir);
	f = fopen(path, "w");
	fprintf(f, "[global]\ndirectory=%s\nsize=4m\nbs=4k\nioengine=psync\n"
		"[seq4k-write]\nrw=write\n[mixed]\nrw=randrw\nstonewall\n", dir);
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return sh("rm -rf '%s'", dir);
}

static json_t *load(const char *name)
{
	char path[256], *buf;
	json_error_t e;
	json_t *j;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf = test_slurp(path);
	j = json_loads(strchr(buf, '{'), JSON_DISABLE_EOF_CHECK, &e);
	free(buf);
	assert_non_null(j);
	return j;
}

static double metric(const json_t *doc, const char *target, const char *wl,
		     const char *m, int it)
{
	json_t *e = nb_result_find(doc, target, wl);

	assert_non_null(e);
	return json_number_value(json_object_get(json_object_get(json_array_get(
		json_object_get(e, "iterations"), it), "metrics"), m));
}

static double fio_fig(const json_t *job, const char *side, const char *a,
		      const char *b, const char *c)
{
	json_t *v = json_object_get(json_object_get(job, side), a);

	if (b)
		v = json_object_get(v, b);
	if (c)
		v = json_object_get(v, c);
	return json_number_value(v);
}

static void check_job(const json_t *doc, const char *target, const char *wl,
		      const json_t *job, const char *side, int it)
{
	assert_true(metric(doc, target, wl, "bw_bytes", it) ==
		    fio_fig(job, side, "bw_bytes", NULL, NULL));
	assert_true(metric(doc, target, wl, "iops", it) ==
		    fio_fig(job, side, "iops", NULL, NULL));
	assert_true(fabs(metric(doc, target, wl, "lat_p99_us", it) -
			 fio_fig(job, side, "clat_ns", "percentile", "99.000000") /
			 1000) < 1e-9);
	assert_true(fabs(metric(doc, target, wl, "lat_mean_us", it) -
			 fio_fig(job, side, "lat_ns", "mean", NULL) / 1000) < 1e-6);
	/* a figure, not a plausibility bound: with two make checks and a
	 * sanitizer run beside, this disk gave fio under 100 kB/s */
	assert_true(metric(doc, target, wl, "bw_bytes", it) > 0);
}

static void fio_plain_and_json_plus(void **state)
{
	json_t *doc = nb_result_new("t", "test"), *a, *b;
	char pa[256], pb[256];

	(void)state;
	assert_int_equal(sh("cd '%s' && fio --output-format=json --output=a.json "
			    "job.fio >/dev/null 2>&1", dir), 0);
	assert_int_equal(sh("cd '%s' && fio --output-format=json+ job.fio "
			    ">b.json 2>/dev/null", dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.json", dir);
	snprintf(pb, sizeof(pb), "%s/b.json", dir);
	assert_int_equal(nb_import_file(doc, pa, NULL), 0);
	assert_int_equal(nb_import_file(doc, pb, NULL), 0);
	a = load("a.json");
	b = load("b.json");
	/* one job, one direction: the job's name; two files: 2 iterations */
	check_job(doc, "local", "seq4k-write", json_array_get(json_object_get(a, "jobs"), 0),
		  "write", 0);
	check_job(doc, "local", "seq4k-write", json_array_get(json_object_get(b, "jobs"), 0),
		  "write", 1);
	/* randrw: two workloads */
	check_job(doc, "local", "mixed-read", json_array_get(json_object_get(a, "jobs"), 1),
		  "read", 0);
	check_job(doc, "local", "mixed-write", json_array_get(json_object_get(b, "jobs"), 1),
		  "write", 1);
	assert_int_equal(json_array_size(json_object_get(doc, "results")), 3);
	assert_int_equal(json_array_size(json_object_get(
		nb_result_find(doc, "local", "mixed-read"), "iterations")), 2);
	json_decref(a), json_decref(b), json_decref(doc);
}

static void fio_client_server(void **state)
{
	json_t *doc = nb_result_new("t", "test"), *c, *jobs;
	char path[256], pidfile[256];
	int port = 20000 + (int)(getpid() % 20000);
	FILE *f;
	long pid = 0;

	(void)state;
	snprintf(pidfile, sizeof(pidfile), "%s/fio.pid", dir);
	assert_int_equal(sh("fio --server=ip:127.0.0.1,%d --daemonize=%s "
			    ">/dev/null 2>&1", port, pidfile), 0);
	for (int i = 0; i < 50 && sh("fio --client=ip:127.0.0.1,%d "
				     "--output-format=json '%s/job.fio' "
				     ">'%s/c.json' 2>/dev/null", port, dir, dir); i++)
		usleep(100000);      /* the server needs a moment to listen */
	f = fopen(pidfile, "r");
	if (f) {
		if (fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	if (pid > 0)
		kill((pid_t)pid, SIGTERM);
	/* fio client output may begin with non-JSON lines: add one */
	sh("cd '%s' && { echo 'hostname=box, be=0, 64-bit, os=Linux, arch=x86-64, "
	   "fio=fio-3.33, flags=1'; cat c.json; } > c2.json", dir);
	snprintf(path, sizeof(path), "%s/c2.json", dir);
	assert_int_equal(nb_import_file(doc, path, "nas"), 0);
	c = load("c.json");
	jobs = json_object_get(c, "client_stats");
	assert_true(json_array_size(jobs) >= 3);
	check_job(doc, "nas@127.0.0.1", "seq4k-write", json_array_get(jobs, 0),
		  "write", 0);
	check_job(doc, "nas@127.0.0.1", "mixed-write", json_array_get(jobs, 1),
		  "write", 0);
	/* fio's "All clients" sums go to target NAME, named after the job of
	 * their group (the last group here: "mixed", read and write) */
	assert_string_equal(json_string_value(json_object_get(json_array_get(jobs,
		json_array_size(jobs) - 1), "jobname")), "All clients");
	assert_true(metric(doc, "nas", "mixed-read", "bw_bytes", 0) ==
		    fio_fig(json_array_get(jobs, json_array_size(jobs) - 1), "read",
			    "bw_bytes", NULL, NULL));
	json_decref(c), json_decref(doc);
}

static void bonnie(void **state)
{
	json_t *doc = nb_result_new("t", "test");
	char path[256], line[1024], *f[60], *s;
	FILE *fp;
	int n = 0;

	(void)state;
	/* -D (direct I/O) and 128 MiB: long enough that bonnie++ measures the
	 * block phases instead of printing +++++; -f skips per-char */
	assert_int_equal(sh("mkdir -p '%s/b' && bonnie++ -d '%s/b' -s 128 -r 64 -n 1 "
			    "-x 1 -f -D -u root >'%s/b.txt' 2>/dev/null", dir, dir,
			    dir), 0);
	snprintf(path, sizeof(path), "%s/b.txt", dir);
	assert_int_equal(nb_import_file(doc, path, NULL), 0);
	/* the CSV line is the last of bonnie++'s output */
	fp = fopen(path, "r");
	while (fgets(line, sizeof(line), fp))
		if (!strncmp(line, "1.98,", 5))
			break;
	fclose(fp);
	line[strcspn(line, "\n")] = '\0';
	for (s = line; s && n < 60; n++) {
		f[n] = s;
		s = strchr(s, ',');
		if (s)
			*s++ = '\0';
	}
	assert_int_equal(n, 50);
	/* field 26: sequential creates per second (bon_csv2html(1)) */
	if (strcmp(f[26], "+++++"))
		assert_true(metric(doc, "local", "bonnie", "seq_create_per_s", 0) ==
			    atof(f[26]));
	/* field 11: put_block K/sec, also as bytes/s, and its %CPU */
	assert_true(atof(f[11]) > 0);
	assert_true(metric(doc, "local", "bonnie", "put_block_kps", 0) == atof(f[11]));
	assert_true(metric(doc, "local", "bonnie", "put_block_bw_bytes", 0) ==
		    atof(f[11]) * 1024);
	assert_true(metric(doc, "local", "bonnie", "put_block_cpu_pct", 0) ==
		    atof(f[12]));
	assert_true(metric(doc, "local", "bonnie", "rewrite_kps", 0) == atof(f[13]));
	/* -f: no per-char phases, so no metric for them */
	assert_null(json_object_get(json_object_get(json_array_get(json_object_get(
		nb_result_find(doc, "local", "bonnie"), "iterations"), 0), "metrics"),
		"put_char_kps"));
	/* field 39: put_block latency */
	assert_true(metric(doc, "local", "bonnie", "put_block_lat_max_us", 0) ==
		    atof(f[39]) * (strstr(f[39], "ms") ? 1000 : 1));
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(nb_result_find(doc, "local", "bonnie"), "iterations"),
		0), "host")), f[2]);
	json_decref(doc);
}

/*
 * Every column of a bonnie++ 2.00 CSV line lands in the one metric that
 * means the same thing, and nothing else is made up: a line whose every
 * figure is its own field number (rates 1000 + N, %CPU N, latency N us).
 */
static void bonnie_columns(void **state)
{
	static const struct {
		const char *phase, *unit;
		int idx, lat;
	} cols[] = {
		{ "put_char", "kps", 9, 38 },      { "put_block", "kps", 11, 39 },
		{ "rewrite", "kps", 13, 40 },      { "get_char", "kps", 15, 41 },
		{ "get_block", "kps", 17, 42 },    { "seeks", "per_s", 19, 43 },
		{ "seq_create", "per_s", 26, 44 }, { "seq_stat", "per_s", 28, 45 },
		{ "seq_delete", "per_s", 30, 46 }, { "ran_create", "per_s", 32, 47 },
		{ "ran_stat", "per_s", 34, 48 },   { "ran_delete", "per_s", 36, 49 },
	};
	json_t *doc = nb_result_new("t", "test"), *m, *spec;
	char path[256], line[2048], name[64];
	size_t len = 0, want = 0;
	FILE *fp;

	(void)state;
	len += (size_t)snprintf(line, sizeof(line), "1.98,2.00a,box,1,42,4G,,8192,5");
	for (int i = 9; i < 50; i++) {
		/* a rate at 9, 11 .. 19 and 26, 28 .. 36, its %CPU after it */
		int rate = i <= 20 ? i % 2 : !(i % 2);

		if (i >= 21 && i <= 25)
			len += (size_t)snprintf(line + len, sizeof(line) - len, ",%s",
						i == 21 ? "16" : "");
		else if (i >= 38)
			len += (size_t)snprintf(line + len, sizeof(line) - len, ",%dus", i);
		else
			len += (size_t)snprintf(line + len, sizeof(line) - len, ",%d",
						rate ? 1000 + i : i);
	}
	snprintf(path, sizeof(path), "%s/cols.csv", dir);
	fp = fopen(path, "w");
	fprintf(fp, "%s\n", line);
	fclose(fp);
	assert_int_equal(nb_import_file(doc, path, "nas"), 0);
	m = json_object_get(json_array_get(json_object_get(nb_result_find(
		doc, "nas", "bonnie"), "iterations"), 0), "metrics");
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		snprintf(name, sizeof(name), "%s_%s", cols[c].phase, cols[c].unit);
		assert_true(json_number_value(json_object_get(m, name)) ==
			    1000 + cols[c].idx);
		if (!strcmp(cols[c].unit, "kps")) {
			snprintf(name, sizeof(name), "%s_bw_bytes", cols[c].phase);
			assert_true(json_number_value(json_object_get(m, name)) ==
				    (1000 + cols[c].idx) * 1024.0);
			want++;
		}
		snprintf(name, sizeof(name), "%s_cpu_pct", cols[c].phase);
		assert_true(json_number_value(json_object_get(m, name)) ==
			    cols[c].idx + 1);
		snprintf(name, sizeof(name), "%s_lat_max_us", cols[c].phase);
		assert_true(json_number_value(json_object_get(m, name)) == cols[c].lat);
		want += 3;
	}
	assert_int_equal(json_object_size(m), want);
	/* what ran: 8 KiB chunks (printed empty when bonnie++'s default),
	 * 8192 seeks by 5 seekers, 16 x 1024 files */
	spec = json_object_get(nb_result_find(doc, "nas", "bonnie"), "spec");
	assert_string_equal(nb_jstr(spec, "chunk_size"), "8k");
	assert_string_equal(nb_jstr(spec, "seeks"), "8192");
	assert_string_equal(nb_jstr(spec, "seekers"), "5");
	assert_string_equal(nb_jstr(spec, "file_size"), "4G");
	assert_string_equal(nb_jstr(spec, "num_files"), "16");
	json_decref(doc);
}

static void bad_input(void **state)
{
	json_t *doc = nb_result_new("t", "test");
	char path[256], want[512];

	(void)state;
	sh("cd '%s' && head -c 700 a.json > trunc.json && echo 'hello world' > "
	   "x.txt && printf '1.98,2.00a,vm,1\\n' > short.csv && : > empty", dir);
	snprintf(path, sizeof(path), "%s/trunc.json", dir);
	assert_int_equal(nb_import_file(doc, path, NULL), -EINVAL);
	snprintf(want, sizeof(want), "%s:", path);
	assert_true(!strncmp(nb_err_last(), want, strlen(want)));
	assert_non_null(strstr(nb_err_last(), "not valid fio JSON"));
	snprintf(path, sizeof(path), "%s/x.txt", dir);
	assert_int_equal(nb_import_file(doc, path, NULL), -EINVAL);
	snprintf(want, sizeof(want), "'%s': unknown format (expected fio JSON "
		 "output or bonnie++ CSV)", path);
	assert_string_equal(nb_err_last(), want);
	snprintf(path, sizeof(path), "%s/short.csv", dir);
	assert_int_equal(nb_import_file(doc, path, NULL), -EINVAL);
	snprintf(path, sizeof(path), "%s/empty", dir);
	assert_int_equal(nb_import_file(doc, path, NULL), -EINVAL);
	snprintf(want, sizeof(want), "'%s' is empty", path);
	assert_string_equal(nb_err_last(), want);
	assert_int_equal(json_array_size(json_object_get(doc, "results")), 0);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fio_plain_and_json_plus),
		cmocka_unit_test(fio_client_server),
		cmocka_unit_test(bonnie),
		cmocka_unit_test(bonnie_columns),
		cmocka_unit_test(bad_input),
	};

	return cmocka_run_group_tests_name("import", tests, setup, teardown);
}
