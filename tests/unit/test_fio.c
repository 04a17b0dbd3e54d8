/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fio.c - fio job files (golden), client lists, and parsing of real
 * fio output captured here: a single job (json+), a read/write mix, and
 * client/server runs with 1 and 3 'fio --server' instances on loopback
 * ports, started and stopped by pid.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "files.h"
#include "scratch.h"
#include "../../core/config.h"
#include "../../core/err.h"
#include "../../fio/clients.h"
#include "../../fio/invoke.h"
#include "../../fio/job.h"
#include "../../fio/json.h"
#include "../../core/result.h"
#include "../../formats/import.h"
#include "../../workloads/fiodrv/fio_driver.h"
#include "../../workloads/fiodrv/fio_driver_clients.h"
#include "../../workloads/fiodrv/fio_driver_common.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


/* ---- golden job files ------------------------------------------------ */

/* Compare TEXT with tests/golden/NAME; NASBENCH_UPDATE_GOLDEN=1 rewrites it. */
static void golden(const char *name, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "tests/golden/%s", name);
	test_golden(text, path);
}

static void test_jobfile_golden(void **state)
{
	static const struct {
		const char *golden;
		struct nb_fio_job j;
	} cases[] = {
		{ "fio-rand4k-read.fio",
		  { .s = { .pattern = NB_PAT_RAND, .rw = NB_RW_READ, .bs = 4096,
			   .qd = 32, .size = 1 << 30, .runtime_us = 30000000,
			   .direct = 1, .seed = 0x123456789abcULL },
		    .filename = "/srv/bench/nasbench.R/data",
		    .comment = "nasbench test: rand4k-read" } },
		{ "fio-seq512k-write.fio",
		  { .s = { .pattern = NB_PAT_SEQ, .rw = NB_RW_WRITE, .bs = 524288,
			   .qd = 16, .size = 256 << 20, .sync = NB_SYNC_END,
			   .direct = 1 },
		    .filename = "/srv/bench/nasbench.R/data", .ioengine = "libaio" } },
		{ "fio-rand4k-mix-sync.fio",
		  { .s = { .pattern = NB_PAT_RAND, .rw = NB_RW_MIX, .read_pct = 70,
			   .bs = 4096, .qd = 1, .size = 64 << 20, .bytes = 8 << 20,
			   .runtime_us = 1500000, .sync = NB_SYNC_ALWAYS, .seed = 7 },
		    .filename = "/dev/sdz", .offset = 1 << 20, .ioengine = "psync" } },
		{ "fio-data.fio",   /* docs/data.md: the data and the hot spot */
		  { .s = { .pattern = NB_PAT_RAND, .rw = NB_RW_WRITE, .bs = 8192,
			   .qd = 8, .size = 64 << 20, .runtime_us = 2000000,
			   .direct = 1, .seed = 5,
			   .data = { .ratio = 4, .dedupe_pct = 50 },
			   .access = { .dist = NB_DIST_ZONED, .nzones = 2,
				       .zone_io = { 80, 20 }, .zone_size = { 20, 80 } } },
		    .filename = "/srv/bench/nasbench.R/data" } },
		{ "fio-client.fio",
		  { .s = { .pattern = NB_PAT_SEQ, .rw = NB_RW_READ, .bs = 524288,
			   .qd = 16, .size = 128 << 20, .runtime_us = 2000000,
			   .direct = 1 },
		    .filename = "/mnt/nas/nasbench.R-c2", .unlink = 1 } },
	};
	char buf[4096];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = nb_fio_jobfile(&cases[i].j, buf, sizeof(buf));

		assert_true(n > 0);
		assert_int_equal(strlen(buf), n);
		golden(cases[i].golden, buf);
	}
	/* and fio itself reads them */
	assert_int_equal(system("fio --parse-only tests/golden/fio-*.fio "
				">/dev/null"), 0);
}

static void test_jobfile_errors(void **state)
{
	struct nb_fio_job j = { .s = { .bs = 4096, .qd = 1, .size = 8192 },
				.filename = "/a:b" };
	char buf[4096];

	(void)state;
	assert_int_equal(nb_fio_jobfile(&j, buf, sizeof(buf)), -EINVAL);
	assert_string_equal(nb_err_last(), "fio cannot use the path '/a:b' (empty, "
			    "or holding ':' or a newline)");
	j.filename = "/x";
	j.ioengine = "posixaio";
	assert_int_equal(nb_fio_jobfile(&j, buf, sizeof(buf)), -EINVAL);
	assert_string_equal(nb_err_last(), "ioengine 'posixaio' is not one "
			    "nasbench drives (io_uring, libaio, psync)");
	j.ioengine = NULL;
	assert_int_equal(nb_fio_jobfile(&j, buf, 40), -ENOSPC);
	j.s.size = 100;
	assert_int_equal(nb_fio_jobfile(&j, buf, sizeof(buf)), -EINVAL);
}

/* ---- client lists --------------------------------------------------- */

static void test_clients_lines(void **state)
{
	/* lines refused once the first three are in: line, where, message */
	static const struct {
		const char *line, *where, *msg;
	} bad[] = {
		{ "esx2.lan:9000", "f:4", "f:4: client 'esx2.lan:9000' is listed twice (first at f:2)" },
		{ "h:0", "f:5", "f:5: invalid port '0' for host 'h' (1 to 65535)" },
		{ "h:80x", "f:6", "f:6: invalid port '80x' for host 'h' (1 to 65535)" },
		{ "a b", "f:7", "f:7: expected one host[:port] a line, not 'a b'" },
		{ "h/x", "f:8", "f:8: invalid host 'h/x' (expected host[:port], e.g. 192.0.2.10:8765)" },
		{ "[::1", "f:9", "f:9: '[::1' lacks the ']' of an IPv6 address" },
	};
	struct nb_fio_clients cl = { 0 };
	char name[300], arg[300], cmd[400];

	(void)state;
	assert_int_equal(nb_fio_clients_add(&cl, "10.0.0.5", "f:1"), 0);
	assert_int_equal(nb_fio_clients_add(&cl, "  esx2.lan:9000", "f:2"), 0);
	assert_int_equal(nb_fio_clients_add(&cl, "[::1]:8766", "f:3"), 0);
	assert_int_equal(cl.n, 3);
	assert_int_equal(cl.c[0].port, NB_FIO_DEFAULT_PORT);
	assert_string_equal(nb_fio_client_name(&cl.c[0], name, sizeof(name)),
			    "10.0.0.5:8765");
	nb_fio_client_arg(&cl.c[0], arg, sizeof(arg));
	assert_string_equal(arg, "ip:10.0.0.5,8765");
	nb_fio_client_arg(&cl.c[1], arg, sizeof(arg));
	assert_string_equal(arg, "esx2.lan,9000");
	nb_fio_client_arg(&cl.c[2], arg, sizeof(arg));
	assert_string_equal(arg, "ip6:::1,8766");
	assert_string_equal(nb_fio_client_name(&cl.c[2], name, sizeof(name)),
			    "[::1]:8766");
	nb_fio_server_cmd(&cl.c[1], cmd, sizeof(cmd));
	assert_string_equal(cmd, "fio --server=esx2.lan,9000");

	/* a line refused is not added */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(nb_fio_clients_add(&cl, bad[i].line, bad[i].where), -EINVAL);
		assert_string_equal(nb_err_last(), bad[i].msg);
	}
	assert_int_equal(cl.n, 3);
}

static void test_clients_file_and_config(void **state)
{
	struct nb_fio_clients cl;
	struct nb_config cfg;
	char path[128], box[128], want[300];

	(void)state;
	snprintf(path, sizeof(path), "%s/clients", test_scratch);
	test_write_file(path, "# the VM hosts\n\n127.0.0.1:8766  ; first\n  127.0.0.1:8767\n");
	nb_config_init(&cfg);
	assert_int_equal(nb_wl_fio_clients_setup(&cl, &cfg, path), 0);
	assert_int_equal(cl.n, 2);
	assert_int_equal(cl.c[1].port, 8767);
	snprintf(want, sizeof(want), "%s:4", path);
	assert_string_equal(cl.c[1].where, want);

	test_write_file(path, "127.0.0.1:8766\nhost:99999\n");
	assert_int_equal(nb_wl_fio_clients_setup(&cl, &cfg, path), -EINVAL);
	snprintf(want, sizeof(want), "--clients: %s:2: invalid port '99999' for "
		 "host 'host' (1 to 65535)", path);
	assert_string_equal(nb_err_last(), want);

	test_write_file(path, "# nothing\n");
	assert_int_equal(nb_wl_fio_clients_setup(&cl, &cfg, path), -EINVAL);
	snprintf(want, sizeof(want), "--clients: %s: no client in it (one "
		 "host[:port] a line)", path);
	assert_string_equal(nb_err_last(), want);

	assert_int_equal(nb_wl_fio_clients_setup(&cl, &cfg, "/nonexistent/c"), -EINVAL);
	assert_string_equal(nb_err_last(), "--clients: cannot open client list "
			    "'/nonexistent/c': No such file or directory");

	/* [clients] in the box file: raw lines with their line numbers */
	snprintf(box, sizeof(box), "%s/box.ini", test_scratch);
	test_write_file(box, "[box]\nname = t\n\n[clients]\n10.0.0.1\n10.0.0.2:x\n");
	assert_int_equal(nb_config_load(&cfg, box), 0);
	assert_int_equal(nb_wl_fio_clients_setup(&cl, &cfg, NULL), -EINVAL);
	snprintf(want, sizeof(want), "%s:6: invalid port 'x' for host '10.0.0.2' "
		 "(1 to 65535)", box);
	assert_string_equal(nb_err_last(), want);
	nb_config_free(&cfg);
	nb_config_init(&cfg);
	test_write_file(box, "[clients]\n10.0.0.1\n10.0.0.2:8770\n");
	assert_int_equal(nb_config_load(&cfg, box), 0);
	assert_int_equal(nb_wl_fio_clients_setup(&cl, &cfg, NULL), 0);
	assert_int_equal(cl.n, 2);
	assert_int_equal(cl.c[1].port, 8770);
	nb_config_free(&cfg);
}

static void test_target_setup(void **state)
{
	struct nb_target_cfg t = { .name = "nas" };
	struct nb_fio_clients cl = { 0 };

	(void)state;
	/* a fio without the nfs and libiscsi engines (it lists none) */
	setenv("NASBENCH_FIO", "/bin/true", 1);
	assert_int_equal(nb_url_parse("nfs://127.0.0.1/export/x", &t.u), 0);
	assert_int_equal(nb_wl_fio_target_setup(&t, "fio", NULL, NULL), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'nas': engine = fio on 'nfs://' "
			    "needs fio's nfs engine, and '/bin/true' has none ('fio "
			    "--enghelp' does not list it; Debian's fio is built "
			    "without it): build one with ci/fio-engines and set "
			    "NASBENCH_FIO to the path it prints");
	assert_int_equal(nb_url_parse("iscsi://127.0.0.1/iqn.x:y/1", &t.u), 0);
	assert_int_equal(nb_wl_fio_target_setup(&t, NULL, NULL, NULL), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "needs fio's libiscsi engine"));
	assert_int_equal(nb_wl_fio_target_setup(&t, "native", NULL, NULL), 0);
	/* with --clients the fio servers run the engine, not this fio */
	assert_int_equal(nb_fio_clients_add(&cl, "127.0.0.1", "x:1"), 0);
	assert_int_equal(nb_wl_fio_target_setup(&t, NULL, NULL, &cl), 0);
	unsetenv("NASBENCH_FIO");
	t.clients = NULL;
	snprintf(t.engine, sizeof(t.engine), "native");
	assert_int_equal(nb_url_parse("./rel", &t.u), 0);
	assert_int_equal(nb_wl_fio_target_setup(&t, NULL, NULL, &cl), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'nas': with --clients the path "
			    "'./rel' names a directory on every client host: give "
			    "it absolute");
	assert_int_equal(nb_url_parse("/tmp", &t.u), 0);
	assert_int_equal(nb_wl_fio_target_setup(&t, "fio", "libaio", &cl), 0);
	assert_string_equal(t.ioengine, "libaio");
	assert_ptr_equal(t.clients, &cl);
	assert_int_equal(nb_wl_fio_target_setup(&t, "fios", NULL, NULL), -EINVAL);
	assert_string_equal(nb_err_last(), "--engine: 'fios' is not one of "
			    "native|fio");
	assert_int_equal(nb_wl_fio_target_setup(&t, NULL, "aio", NULL), -EINVAL);
	assert_string_equal(nb_err_last(), "--ioengine: ioengine 'aio' is not one "
			    "nasbench drives (io_uring, libaio, psync)");
}

/* ---- parsing real fio output ----------------------------------------- */

/* Run the real fio on a scratch file with SPEC, its output in FORMAT
 * (json or json+); its stdout into X. */
static void run_fio_as(const struct nb_iospec *spec, const char *file,
		       const char *format, struct nb_fio_exec *x)
{
	struct nb_fio_job j = { .s = *spec, .filename = file };
	char job[4096], fmt[64];
	char *argv[] = { "fio", fmt, "-", NULL };

	snprintf(fmt, sizeof(fmt), "--output-format=%s", format);

	assert_true(nb_fio_jobfile(&j, job, sizeof(job)) > 0);
	assert_int_equal(nb_fio_exec(argv, job, NULL, 60000000, x), 0);
	if (x->status)
		fail_msg("fio failed (%d): %s", x->status, x->err);
}


static json_t *fio_json(const char *text)
{
	const char *p = text[0] == '{' ? text : strstr(text, "\n{");
	json_t *d;

	assert_non_null(p);
	d = json_loads(p, JSON_DISABLE_EOF_CHECK, NULL);
	assert_non_null(d);
	return d;
}

static double jnum(json_t *o, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, "/", &save); k; k = strtok_r(NULL, "/", &save))
		o = json_object_get(o, k);
	assert_true(json_is_number(o));
	return json_number_value(o);
}

/* Run SPEC on the scratch file NAME with json+ output and parse that into
 * OUT; fio's own JSON, for the test to hold OUT against. */
static json_t *run_parsed(const struct nb_iospec *spec, const char *name,
			  struct nb_fio_exec *x, struct nb_fio_output *out)
{
	char file[128];

	snprintf(file, sizeof(file), "%s/%s", test_scratch, name);
	run_fio_as(spec, file, "json+", x);
	assert_int_equal(nb_fio_parse(x->out, x->out_len, out), 0);
	return fio_json(x->out);
}

static void test_parse_single_jsonplus(void **state)
{
	struct nb_iospec s = { .pattern = NB_PAT_RAND, .rw = NB_RW_READ,
			       .bs = 4096, .qd = 8, .size = 16 << 20,
			       .runtime_us = 700000, .direct = 1, .seed = 42 };
	struct nb_fio_output out;
	struct nb_fio_exec x;
	json_t *d, *rd;

	(void)state;
	d = run_parsed(&s, "single", &x, &out);
	rd = json_object_get(json_array_get(json_object_get(d, "jobs"), 0), "read");
	assert_non_null(json_object_get(json_object_get(rd, "lat_ns"), "bins"));
	assert_string_equal(out.version, "fio-3.33");
	assert_int_equal(out.nclients, 0);
	assert_true(out.total.bw_bytes == jnum(rd, "bw_bytes"));
	assert_true(out.total.iops == jnum(rd, "iops"));
	assert_int_equal(out.total.ios, (uint64_t)jnum(rd, "total_ios"));
	assert_int_equal(out.total.bytes_read, (uint64_t)jnum(rd, "io_bytes"));
	assert_int_equal(out.total.bytes_written, 0);
	/* percentiles from the json+ bins are exactly fio's own (both sides
	 * divided alike: x / 1e3 * 1e3 is not always x) */
	assert_true(out.total.lat_p50_us ==
		    jnum(rd, "lat_ns/percentile/50.000000") / 1e3);
	assert_true(out.total.lat_p90_us ==
		    jnum(rd, "lat_ns/percentile/90.000000") / 1e3);
	assert_true(out.total.lat_p99_us ==
		    jnum(rd, "lat_ns/percentile/99.000000") / 1e3);
	assert_true(out.total.lat_p999_us ==
		    jnum(rd, "lat_ns/percentile/99.900000") / 1e3);
	assert_true(out.total.clat_p99_us ==
		    jnum(rd, "clat_ns/percentile/99.000000") / 1e3);
	assert_true(fabs(out.total.lat_mean_us * 1e3 - jnum(rd, "lat_ns/mean")) < 1e-6);
	assert_true(out.total.lat_max_us ==
		    jnum(rd, "lat_ns/max") / 1e3);
	assert_true(fabs(out.total.seconds - jnum(rd, "runtime") / 1e3) < 1e-9);
	/* and plausible: a scratch file on this machine, 0.7 s; IOPS are the
	 * I/Os over the runtime (how many there were is the machine's load:
	 * under 100 in 0.7 s with two make checks beside) */
	assert_true(out.total.seconds > 0.6 && out.total.seconds < 5);
	assert_true(out.total.ios > 0 &&
		    fabs(out.total.iops * out.total.seconds - (double)out.total.ios) <=
		    0.02 * (double)out.total.ios + 1);
	assert_true(out.total.lat_p50_us > 0 &&
		    out.total.lat_p50_us <= out.total.lat_p99_us);
	json_decref(d);
	nb_fio_exec_free(&x);
}

static void test_parse_mix(void **state)
{
	struct nb_iospec s = { .pattern = NB_PAT_RAND, .rw = NB_RW_MIX,
			       .read_pct = 70, .bs = 4096, .qd = 4,
			       .size = 16 << 20, .runtime_us = 500000,
			       .direct = 1, .seed = 3 };
	struct nb_fio_output out;
	struct nb_fio_exec x;
	json_t *d, *job;

	(void)state;
	d = run_parsed(&s, "mix", &x, &out);
	job = json_array_get(json_object_get(d, "jobs"), 0);
	assert_true(fabs(out.total.bw_bytes - jnum(job, "read/bw_bytes") -
			 jnum(job, "write/bw_bytes")) < 1e-6);
	assert_int_equal(out.total.ios, (uint64_t)(jnum(job, "read/total_ios") +
						   jnum(job, "write/total_ios")));
	assert_true(out.total.bytes_read > 0 && out.total.bytes_written > 0);
	/* reads are about 70% of the I/Os: within 4 standard deviations of a
	 * binomial share over that many (a fixed 0.6 failed on a loaded
	 * machine, where 0.5 s holds only a few dozen I/Os) */
	{
		double n = (double)out.total.ios;

		assert_true((double)out.total.bytes_read /
			    (double)(out.total.bytes_read + out.total.bytes_written) >
			    0.7 - 4 * sqrt(0.7 * 0.3 / n));
	}
	/* the combined median lies between the read and write medians */
	{
		double r = jnum(job, "read/lat_ns/percentile/50.000000") / 1e3;
		double w = jnum(job, "write/lat_ns/percentile/50.000000") / 1e3;

		assert_true(out.total.lat_p50_us >= fmin(r, w) &&
			    out.total.lat_p50_us <= fmax(r, w));
	}
	json_decref(d);
	nb_fio_exec_free(&x);
}

/* One fio output read as a run reads it (nb_fio_parse, the metrics a run
 * records) and as 'nasbench import' reads it: the same figures, to the
 * last bit, for json+ (percentiles from bins) and plain json (fio's own
 * percentiles), a read and a write. */
static void test_run_and_import_agree(void **state)
{
	static const struct {
		const char *format;
		struct nb_iospec s;
	} cases[] = {
		{ "json+", { .pattern = NB_PAT_RAND, .rw = NB_RW_READ, .bs = 4096,
			     .qd = 4, .size = 8 << 20, .runtime_us = 400000,
			     .seed = 5 } },
		{ "json", { .pattern = NB_PAT_RAND, .rw = NB_RW_READ, .bs = 4096,
			    .qd = 4, .size = 8 << 20, .runtime_us = 400000,
			    .seed = 6 } },
		{ "json+", { .pattern = NB_PAT_SEQ, .rw = NB_RW_WRITE, .bs = 65536,
			     .qd = 2, .size = 8 << 20, .sync = NB_SYNC_END } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_fio_output out;
		struct nb_fio_exec x;
		char file[128], saved[128];
		json_t *run = json_object(), *doc = nb_result_new("t", "test");
		json_t *imp, *v;
		const char *k;
		FILE *f;

		snprintf(file, sizeof(file), "%s/agree%zu", test_scratch, i);
		snprintf(saved, sizeof(saved), "%s/agree%zu.json", test_scratch, i);
		run_fio_as(&cases[i].s, file, cases[i].format, &x);
		/* the run's way */
		assert_int_equal(nb_fio_parse(x.out, x.out_len, &out), 0);
		nb_fio_put_metrics(run, &out.total);
		/* the import's way, from the same bytes */
		f = fopen(saved, "w");
		assert_non_null(f);
		assert_int_equal(fwrite(x.out, 1, x.out_len, f), x.out_len);
		fclose(f);
		assert_int_equal(nb_import_file(doc, saved, NULL), 0);
		imp = json_object_get(json_array_get(json_object_get(
			nb_result_find(doc, "local", "nasbench"), "iterations"), 0),
			"metrics");
		assert_non_null(imp);
		assert_int_equal(json_object_size(imp), json_object_size(run));
		json_object_foreach(run, k, v) {
			json_t *w = json_object_get(imp, k);

			if (!w || json_number_value(w) != json_number_value(v))
				fail_msg("case %zu (%s): %s is %.17g in a run, %.17g "
					 "imported", i, cases[i].format, k,
					 json_number_value(v), json_number_value(w));
		}
		/* and they are figures, not zeros */
		assert_true(json_number_value(json_object_get(imp, "bw_bytes")) > 0);
		assert_true(json_number_value(json_object_get(imp, "lat_p99_us")) > 0);
		json_decref(run);
		json_decref(doc);
		nb_fio_exec_free(&x);
	}
}

static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

/* Start 'fio --server' on a free loopback port in its own process group. */
static pid_t start_server(int *port)
{
	char arg[64];
	pid_t pid;

	*port = free_port();
	snprintf(arg, sizeof(arg), "--server=ip:127.0.0.1,%d", *port);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int fd = open("/dev/null", O_RDWR);

		setpgid(0, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("fio", "fio", arg, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	return pid;
}

static void stop_server(pid_t pid)
{
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void wait_listening(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port) };

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (int i = 0; i < 100; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		int ok = !connect(fd, (struct sockaddr *)&a, sizeof(a));

		close(fd);
		if (ok)
			return;
		usleep(50000);
	}
	fail_msg("fio --server on port %d did not start", port);
}

static void clients_run(int n)
{
	struct nb_iospec s = { .pattern = NB_PAT_SEQ, .rw = NB_RW_READ,
			       .bs = 131072, .qd = 4, .size = 8 << 20,
			       .runtime_us = 700000, .direct = 1 };
	char *argv[2 + 2 * 3 + 1] = { "fio", "--output-format=json+" };
	char jobs[3][128], args[3][64], job[4096];
	struct nb_fio_output out;
	struct nb_fio_exec x;
	pid_t pids[3];
	int ports[3], argc = 2;
	double sum = 0;
	json_t *d;

	for (int i = 0; i < n; i++) {
		struct nb_fio_job j = { .s = s, .unlink = 1 };
		char file[128];
		FILE *f;

		pids[i] = start_server(&ports[i]);
		snprintf(file, sizeof(file), "%s/client%d-%d", test_scratch, n, i);
		j.filename = file;
		assert_true(nb_fio_jobfile(&j, job, sizeof(job)) > 0);
		snprintf(jobs[i], sizeof(jobs[i]), "%s/c%d-%d.fio", test_scratch, n, i);
		f = fopen(jobs[i], "w");
		fputs(job, f);
		fclose(f);
		snprintf(args[i], sizeof(args[i]), "--client=ip:127.0.0.1,%d",
			 ports[i]);
		argv[argc++] = args[i];
		argv[argc++] = jobs[i];
	}
	argv[argc] = NULL;
	for (int i = 0; i < n; i++)
		wait_listening(ports[i]);
	assert_int_equal(nb_fio_exec(argv, NULL, NULL, 60000000, &x), 0);
	for (int i = 0; i < n; i++)
		stop_server(pids[i]);
	if (x.status)
		fail_msg("fio --client failed (%d): %s", x.status, x.err);
	/* client/server output starts with "<host> ..." lines, not JSON */
	assert_true(x.out[0] != '{');
	assert_int_equal(nb_fio_parse(x.out, x.out_len, &out), 0);
	assert_int_equal(out.nclients, n);
	assert_int_equal(out.has_all, n > 1);
	d = fio_json(x.out);
	for (int i = 0; i < n; i++) {
		int found = 0;

		for (int k = 0; k < out.nclients; k++)
			if (out.client[k].port == (unsigned)ports[i]) {
				found = 1;
				assert_string_equal(out.client[k].host, "127.0.0.1");
				assert_true(out.client[k].st.bw_bytes > 0);
				assert_true(out.client[k].st.lat_p50_us > 0);
				sum += out.client[k].st.bw_bytes;
			}
		assert_true(found);
	}
	assert_true(fabs(out.total.bw_bytes - sum) < 1e-3);
	if (n > 1) {
		/* fio's "All clients": every byte, over the longest runtime */
		assert_int_equal(out.all_bytes,
				 out.total.bytes_read + out.total.bytes_written);
		assert_true(out.all_bw_bytes <= out.total.bw_bytes * 1.0001);
		assert_true(out.all_bw_bytes > 0);
	}
	assert_true(out.total.lat_p50_us > 0 &&
		    out.total.lat_p99_us >= out.total.lat_p50_us);
	/* unlink=1: the servers removed their files */
	for (int i = 0; i < n; i++) {
		char file[128];

		snprintf(file, sizeof(file), "%s/client%d-%d", test_scratch, n, i);
		assert_int_equal(access(file, F_OK), -1);
	}
	json_decref(d);
	nb_fio_exec_free(&x);
}

static void test_parse_clients_1(void **state)
{
	(void)state;
	clients_run(1);
}

static void test_parse_clients_3(void **state)
{
	(void)state;
	clients_run(3);
}

static void test_parse_bad(void **state)
{
	struct nb_fio_output out;
	static const char trunc[] = "<vm> data: Laying out IO file\n{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [";

	(void)state;
	assert_int_equal(nb_fio_parse("fio: no jobs\n", 13, &out), -EINVAL);
	assert_string_equal(nb_err_last(), "fio printed no JSON");
	assert_int_equal(nb_fio_parse(trunc, sizeof(trunc) - 1, &out), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "fio's JSON is not valid (line 3"));
	assert_int_equal(nb_fio_parse("{\"x\": 1}", 8, &out), -EINVAL);
	assert_string_equal(nb_err_last(), "fio's JSON has neither 'jobs' nor "
			    "'client_stats'");
	assert_int_equal(nb_fio_parse("{\"jobs\": []}", 12, &out), -EINVAL);
	assert_string_equal(nb_err_last(), "fio's JSON holds no job that did I/O");
}

static void test_exec_missing(void **state)
{
	char *argv[] = { "fio", "--version", NULL };
	struct nb_fio_exec x;

	(void)state;
	setenv("NASBENCH_FIO", "/nonexistent/fio", 1);
	assert_int_equal(nb_fio_exec(argv, NULL, NULL, 0, &x), -ENOENT);
	assert_string_equal(nb_err_last(), "cannot run '/nonexistent/fio': No such "
			    "file or directory (engine = fio needs fio: apt-get "
			    "install fio)");
	unsetenv("NASBENCH_FIO");
	assert_int_equal(nb_fio_exec(argv, NULL, NULL, 0, &x), 0);
	assert_int_equal(x.status, 0);
	assert_non_null(strstr(x.out, "fio-3"));
	nb_fio_exec_free(&x);
}

static void test_exec_stop_and_limit(void **state)
{
	static volatile sig_atomic_t stop = 1;
	char *argv[] = { "fio", "--thread", "--name=x", "--ioengine=null", "--size=1g",
			 "--time_based=1", "--runtime=30", NULL };
	struct nb_fio_exec x;

	(void)state;
	/* a stop request interrupts fio at once (SIGINT) */
	assert_int_equal(nb_fio_exec(argv, NULL, &stop, 0, &x), 0);
	assert_true(x.stopped);
	nb_fio_exec_free(&x);
	/* the time limit kills it */
	assert_int_equal(nb_fio_exec(argv, NULL, NULL, 300000, &x), 0);
	assert_true(x.timed_out);
	assert_non_null(strstr(x.err, "fio killed by nasbench"));
	nb_fio_exec_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobfile_golden),
		cmocka_unit_test(test_jobfile_errors),
		cmocka_unit_test(test_clients_lines),
		cmocka_unit_test(test_clients_file_and_config),
		cmocka_unit_test(test_target_setup),
		cmocka_unit_test(test_parse_single_jsonplus),
		cmocka_unit_test(test_parse_mix),
		cmocka_unit_test(test_run_and_import_agree),
		cmocka_unit_test(test_parse_clients_1),
		cmocka_unit_test(test_parse_clients_3),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_exec_missing),
		cmocka_unit_test(test_exec_stop_and_limit),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
