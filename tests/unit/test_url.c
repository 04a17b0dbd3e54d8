/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "../../core/err.h"
#include "../../core/url.h"

/* URLs parsed: scheme, user, password, host, port, path */
static const struct {
	const char *url, *scheme, *user, *password, *host;
	int port;
	const char *path;
} urls[] = {
	{ "/mnt/tank", "file", "", "", "", 0, "/mnt/tank" },
	{ "file:///srv/x", "file", "", "", "", 0, "/srv/x" },
	{ "nfs://nas.example:2049/mnt/tank/bench?version=3&timeout=5", "nfs", "", "", "nas.example", 2049, "/mnt/tank/bench" },
	{ "iscsi://bob%s3cret@10.0.0.1:3260/iqn.2005-10.org.freenas.ctl:bench/1", "iscsi", "bob", "s3cret", "10.0.0.1", 3260, "/iqn.2005-10.org.freenas.ctl:bench/1" },
	/* an iSCSI password may hold '@' and '/' */
	{ "iscsi://bob%p@s/s@host:3262/iqn.x:y/1", "iscsi", "bob", "p@s/s", "host", 3262, "/iqn.x:y/1" },
};

static void parse(void **state)
{
	struct nb_url u;

	(void)state;
	for (size_t i = 0; i < sizeof(urls) / sizeof(urls[0]); i++) {
		assert_int_equal(nb_url_parse(urls[i].url, &u), 0);
		assert_string_equal(u.scheme, urls[i].scheme);
		assert_string_equal(u.user, urls[i].user);
		assert_string_equal(u.password, urls[i].password);
		assert_string_equal(u.host, urls[i].host);
		assert_int_equal(u.port, urls[i].port);
		assert_string_equal(u.path, urls[i].path);
	}
	assert_int_equal(nb_url_parse(urls[2].url, &u), 0);
	assert_string_equal(nb_url_arg(&u, "version"), "3");
	assert_string_equal(nb_url_arg(&u, "timeout"), "5");
	assert_null(nb_url_arg(&u, "nope"));
}

static void bad(void **state)
{
	struct nb_url u;

	(void)state;
	assert_int_equal(nb_url_parse("nfs://", &u), -EINVAL);
	assert_int_equal(nb_url_parse("nfs://host", &u), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid target URL 'nfs://host': the export path is missing: "
			    "nfs://HOST[:PORT]/EXPORT[/DIR], e.g. nfs://192.0.2.10/mnt/tank/bench");
	assert_int_equal(nb_url_parse("iscsi://host", &u), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid target URL 'iscsi://host': the IQN and "
			    "LUN are missing: iscsi://HOST[:PORT]/IQN/LUN, e.g. "
			    "iscsi://192.0.2.10/iqn.2005-10.org.freenas.ctl:bench/0");
	assert_int_equal(nb_url_parse("iscsi://host/iqn.2005-10.org.freenas.ctl:x", &u), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid target URL "
			    "'iscsi://host/iqn.2005-10.org.freenas.ctl:x': the LUN is missing "
			    "after the IQN: iscsi://HOST[:PORT]/IQN/LUN, e.g. "
			    "iscsi://192.0.2.10/iqn.2005-10.org.freenas.ctl:bench/0");
	assert_int_equal(nb_url_parse("iscsi://host/0", &u), -EINVAL);
	assert_true(strstr(nb_err_last(), "': the IQN is missing: iscsi://HOST") != NULL);
	assert_int_equal(nb_url_parse("iscsi://host/iqn.x:y/lun1", &u), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid target URL 'iscsi://host/iqn.x:y/lun1': "
			    "LUN 'lun1' is not a number from 0 to 16383");
	assert_int_equal(nb_url_parse("iscsi://host/iqn.x:y/16384", &u), -EINVAL);
	assert_int_equal(nb_url_parse("iscsi://host/iqn.x:y/16383", &u), 0);
	assert_int_equal(nb_url_parse("nfs://host:99999/x", &u), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid target URL 'nfs://host:99999/x': invalid port");
	assert_int_equal(nb_url_parse("relative/path", &u), -EINVAL);
	assert_int_equal(nb_url_parse("nfs://h/x?novalue", &u), -EINVAL);
	/* the password never reaches the message */
	assert_int_equal(nb_url_parse("iscsi://u%topsecret@:1/x", &u), -EINVAL);
	assert_null(strstr(nb_err_last(), "topsecret"));
}

/* the error for a bad URL never shows the password */
static void iscsi_password(void **state)
{
	struct nb_url u;

	(void)state;
	assert_int_equal(nb_url_parse("iscsi://bob%p@s/s@host:99999/iqn/1", &u), -EINVAL);
	assert_null(strstr(nb_err_last(), "p@s"));
	assert_non_null(strstr(nb_err_last(), "bob%***@host:99999"));
}

static void redact(void **state)
{
	/* a URL, as a message shows it */
	static const char *const cases[][2] = {
		{ "iscsi://bob%s3cret@host/iqn/1", "iscsi://bob%***@host/iqn/1" },
		{ "nfs://u:pw@host/x", "nfs://u:***@host/x" },
		{ "iscsi://bob@host/iqn/1", "iscsi://bob@host/iqn/1" },
		{ "/plain/path", "/plain/path" },
		/* an iSCSI password may hold '@' or '/': none of it shows */
		{ "iscsi://bob%p@s/s@host:3262/iqn.x:y/1", "iscsi://bob%***@host:3262/iqn.x:y/1" },
		{ "lab=iscsi://bob%p@s/s@host/iqn.x:y/1", "lab=iscsi://bob%***@host/iqn.x:y/1" },
		{ "iscsi://bob%@host/iqn/1", "iscsi://bob%***@host/iqn/1" },
		/* an '@' in the path is not an authority */
		{ "nfs://host/a%b@c", "nfs://host/a%b@c" },
	};
	char buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(nb_url_redact(cases[i][0], buf, sizeof(buf)), cases[i][1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse), cmocka_unit_test(bad), cmocka_unit_test(redact),
		cmocka_unit_test(iscsi_password),
	};

	return cmocka_run_group_tests_name("url", tests, NULL, NULL);
}
