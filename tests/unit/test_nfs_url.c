/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_nfs_url.c - NFS target URLs: arguments, the URL libnfs gets, and
 * errors that come before any network traffic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../core/err.h"
#include "../../core/url.h"
#include "../../runners/nfs.h"
#include "../../runners/runner.h"

static int lurl(const char *url, const char *path, char *out, size_t len)
{
	struct nb_url u;

	assert_int_equal(nb_url_parse(url, &u), 0);
	return nb_nfs_libnfs_url("nas", &u, path, out, len);
}

static void libnfs_url(void **state)
{
	char out[512];

	(void)state;
	assert_int_equal(lurl("nfs://nas.example/mnt/tank/bench", NULL, out, sizeof(out)), 0);
	assert_string_equal(out, "nfs://nas.example/mnt/tank/bench");
	/* host:port becomes nfsport (libnfs takes the port as an argument) */
	assert_int_equal(lurl("nfs://10.0.0.5:2050/export", NULL, out, sizeof(out)), 0);
	assert_string_equal(out, "nfs://10.0.0.5/export?nfsport=2050");
	assert_int_equal(lurl("nfs://h/e?uid=1000&gid=100&mountport=20048&version=3", NULL,
			      out, sizeof(out)), 0);
	assert_string_equal(out, "nfs://h/e?uid=1000&gid=100&mountport=20048&version=3");
	assert_int_equal(lurl("nfs://h:2049/e/sub?uid=0", "/e", out, sizeof(out)), 0);
	assert_string_equal(out, "nfs://h/e?uid=0&nfsport=2049");
	assert_int_equal(lurl("nfs://h/e?tcp-syncnt=2", NULL, out, sizeof(out)), 0);
	assert_string_equal(out, "nfs://h/e?tcp-syncnt=2");
}

static void bad_args(void **state)
{
	char out[512];

	(void)state;
	assert_int_equal(lurl("nfs://h/e?version=4", NULL, out, sizeof(out)), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'nas': NFSv4 is not supported: libnfs "
			    NB_LIBNFS_VERSION " cannot write 4 KiB or more over NFSv4; use "
			    "version=3 (the default)");
	assert_int_equal(lurl("nfs://h/e?version=4.1", NULL, out, sizeof(out)), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "NFSv4 is not supported"));
	assert_int_equal(lurl("nfs://h/e?version=2", NULL, out, sizeof(out)), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'nas': unknown NFS version '2' (only "
			    "version=3 is supported)");
	assert_int_equal(lurl("nfs://h/e?verison=3", NULL, out, sizeof(out)), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'nas': unknown NFS URL argument 'verison'; "
			    "did you mean 'version'? (known: version, uid, gid, nfsport, "
			    "mountport, tcp-syncnt)");
	assert_int_equal(lurl("nfs://h/e?readahead=1048576", NULL, out, sizeof(out)), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'nas': unknown NFS URL argument 'readahead' "
			    "(known: version, uid, gid, nfsport, mountport, tcp-syncnt)");
	assert_int_equal(lurl("nfs://h/e?uid=root", NULL, out, sizeof(out)), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'nas': NFS URL argument 'uid' needs a "
			    "number, not 'root'");
	assert_int_equal(lurl("nfs://h:2049/e?nfsport=2050", NULL, out, sizeof(out)), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'nas': the port is given twice (host:2049 "
			    "and nfsport=)");
	/* too long for the buffer: an error, not a cut URL */
	assert_int_equal(lurl("nfs://h/a-rather-long-export-path", NULL, out, 12), -EINVAL);
}

static void no_password(void **state)
{
	char out[512];

	(void)state;
	assert_int_equal(lurl("nfs://bob:topsecret@h/e", NULL, out, sizeof(out)), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'nas': NFS URLs take no user or password "
			    "(NFSv3 sends uid and gid: use ?uid=N&gid=N)");
	assert_null(strstr(nb_err_last(), "topsecret"));
}

/* nb_target_open checks the URL before any traffic: a TEST-NET host that
 * would never answer fails at once, and desc carries no password. */
static void open_fails_fast(void **state)
{
	struct nb_target_cfg cfg = { .name = "nas", .timeout_us = 30000000 };
	struct nb_target t;

	(void)state;
	snprintf(cfg.url, sizeof(cfg.url), "nfs://192.0.2.99/export?version=4");
	assert_int_equal(nb_url_parse(cfg.url, &cfg.u), 0);
	assert_int_equal(nb_target_open(&t, &cfg), -EINVAL);
	assert_non_null(strstr(nb_err_last(), "NFSv4 is not supported"));
	assert_string_equal(t.desc, "nfs://192.0.2.99/export?version=4");
	assert_string_equal(t.ops->name, "nfs");
	nb_target_close(&t);

	snprintf(cfg.url, sizeof(cfg.url), "nfs://u:hunter2@192.0.2.99/export");
	assert_int_equal(nb_url_parse(cfg.url, &cfg.u), 0);
	assert_int_equal(nb_target_open(&t, &cfg), -EINVAL);
	assert_string_equal(t.desc, "nfs://u:***@192.0.2.99/export");
	assert_null(strstr(nb_err_last(), "hunter2"));
	nb_target_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(libnfs_url), cmocka_unit_test(bad_args),
		cmocka_unit_test(no_password), cmocka_unit_test(open_fails_fast),
	};

	return cmocka_run_group_tests_name("nfs_url", tests, NULL, NULL);
}
