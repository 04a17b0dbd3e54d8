/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/config.h"
#include "../../core/err.h"
#include "../../core/knobs.h"
#include "../../steady/judge.h"
#include "files.h"

static char path[64];

static struct nb_config *load(const char *text, int want_rc)
{
	static struct nb_config c;

	snprintf(path, sizeof(path), "/tmp/nb-unit-cfg.%d.ini", (int)getpid());
	test_write_file(path, text);
	nb_config_free(&c);
	nb_config_init(&c);
	assert_int_equal(nb_config_load(&c, path), want_rc);
	unlink(path);
	return &c;
}

static void expect_error(const char *text, int line, const char *msg)
{
	char want[512];

	load(text, -EINVAL);
	snprintf(want, sizeof(want), "%s:%d: %s", path, line, msg);
	assert_string_equal(nb_err_last(), want);
}

static void full_file(void **state)
{
	struct nb_config *c = load(
		"; the N40L of the first story\n"
		"[box]\n"
		"name     = n40l\n"
		"layout   = raidz1        ; inline comment\n"
		"disks    = 5 x 3TB WD Red\n"
		"ram      = 8G\n"
		"\n"
		"  [target datastore-nfs]\n"
		"    url     = file:///mnt/tank/bench\n"
		"    timeout = 5s\n"
		"[target lun]\n"
		"url = /dev/sdz\n"
		"destroy-data = yes\n"
		"[suite]\n"
		"workloads = seq512k-write, seq512k-read\n"
		"iterations = 5\n"
		"size = 2G\n"
		"sync = always\n"
		"[accept]\n"
		"seq512k-write@lun mb_s >= 80\n"
		"# a comment\n", 0);

	(void)state;
	assert_string_equal(nb_config_label_get(c, "name"), "n40l");
	assert_string_equal(nb_config_label_get(c, "layout"), "raidz1");
	assert_string_equal(nb_config_label_get(c, "disks"), "5 x 3TB WD Red");
	assert_int_equal(c->suite.p.ram, 8ULL << 30);
	assert_int_equal(c->ntargets, 2);
	assert_string_equal(c->targets[0].name, "datastore-nfs");
	assert_string_equal(c->targets[0].u.path, "/mnt/tank/bench");
	assert_int_equal(c->targets[0].timeout_us, 5000000);
	assert_int_equal(c->targets[1].destroy_data, 1);
	assert_int_equal(c->targets[1].timeout_us, 10000000);
	assert_string_equal(c->suite.workloads, "seq512k-write, seq512k-read");
	assert_int_equal(c->suite.iterations, 5);
	assert_int_equal(c->suite.p.size, 2ULL << 30);
	assert_int_equal(c->suite.p.sync, 2);
	assert_int_equal(c->suite.p.direct, -1);
	assert_int_equal(c->nraw, 1);
	assert_string_equal(c->raw[0].section, "accept");
	assert_int_equal(c->raw[0].line, 20);
	assert_string_equal(c->raw[0].text, "seq512k-write@lun mb_s >= 80");
}

/* a box file, the line of its error and the message after "FILE:LINE: " */
static const struct {
	const char *text;
	int line;
	const char *msg;
} bad_files[] = {
	{ "[suite]\niodepht = 4\n", 2, "unknown key 'iodepht' in [suite]; did you mean 'iodepth'?" },
	{ "[suite]\n\nzzzzzz = 4\n", 3, "unknown key 'zzzzzz' in [suite] (see 'nasbench help config')" },
	{ "[suite]\nsize = 12Q\n", 2, "'size' in [suite]: invalid size '12Q' (use a number with K, M, G, T, KiB, GB...)" },
	{ "[suite]\niterations = 0\n", 2, "'iterations' in [suite]: value '0' out of range (1 to 1000)" },
	{ "[suite]\niodepth = 1000\n", 2, "'iodepth' in [suite]: value '1000' out of range (1 to 256)" },
	{ "[suite]\nsync = sometimes\n", 2, "'sync' in [suite]: 'sometimes' is not one of none|end|always" },
	{ "[box]\nlayout = raidz9\n", 2, "'layout' in [box]: 'raidz9' is not one of raidz1|raidz2|raidz3|mirror|raid10|raid5|raid6|raid1|raid0|stripe|single; did you mean 'raidz1'?" },
	{ "[suit]\n", 1, "unknown section [suit]; did you mean [suite]?" },
	{ "[target]\nurl = /tmp\n", 1, "a target section needs a name: [target NAME]" },
	{ "[target a]\nurl=/tmp\n[target a]\n", 3, "target 'a' is defined twice" },
	{ "[box]\nname = a\n[suite]\n[box]\nname = b\n", 4, "duplicate section [box] (first at line 1)" },
	{ "[suite]\nsize = 1G\n\n[suite]\n", 4, "duplicate section [suite] (first at line 1)" },
	{ "[target a]\nurl = ftp://x/y\n", 2, "'url' in [target]: no runner for 'ftp://' URLs" },
	{ "[target a]\ntimeout = soon\n", 2, "'timeout' in [target]: invalid duration 'soon' (use e.g. 30s, 500ms, 2m, 1h)" },
	{ "[target a]\ndestroy-data = perhaps\n", 2, "'destroy-data' in [target]: invalid boolean 'perhaps' (use yes or no)" },
	{ "[suite]\njunk\n", 2, "expected 'key = value'" },
	{ "[box\n", 1, "section header without ']'" },
	{ "[suite extra]\n", 1, "[suite] takes no name" },
	/* text at the boundary (core/escape.h): refused before anything runs */
	{ "[box]\nlayout = caf\xe9\n", 2, "'layout' in [box]: not UTF-8 text (byte 0xe9 at byte 4)" },
	{ "[box]\nnote\xff = x\n", 2, "a key in [box]: not UTF-8 text (byte 0xff at byte 5)" },
	{ "[box]\nlayout = a\033[2Jb\n", 2, "'layout' in [box]: a control character (0x1b at byte 2)" },
	{ "[target t\xe9]\nurl = /tmp\n", 1, "not UTF-8 text (byte 0xe9 at byte 10)" },
	{ "[accept]\nseq mb_s >= 1 \x01\n", 2, "a control character (0x01 at byte 15)" },
};

static void errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++)
		expect_error(bad_files[i].text, bad_files[i].line, bad_files[i].msg);
}

static void missing(void **state)
{
	struct nb_config c;

	(void)state;
	nb_config_init(&c);
	assert_int_equal(nb_config_load(&c, "/nonexistent/box.ini"), -ENOENT);
	assert_string_equal(nb_err_last(),
			    "cannot open config '/nonexistent/box.ini': No such file or directory");
}

static void overrides(void **state)
{
	struct nb_config c;

	(void)state;
	nb_config_init(&c);
	assert_int_equal(nb_config_set(&c, "suite", "size", "64M", "--size"), 0);
	assert_int_equal(c.suite.p.size, 64ULL << 20);
	assert_int_equal(nb_config_set(&c, "suite", "size", "12Q", "--size"), -EINVAL);
	assert_string_equal(nb_err_last(),
			    "--size: invalid size '12Q' (use a number with K, M, G, T, KiB, GB...)");
	assert_int_equal(nb_config_set(&c, "suite", "presset", "9", "--set presset"), -EINVAL);
	assert_string_equal(nb_err_last(),
			    "--set presset: unknown key 'presset' in [suite]; did you mean 'preset'?");
	assert_int_equal(nb_config_label(&c, "layout", "raid10", "--label"), 0);
	assert_string_equal(nb_config_label_get(&c, "layout"), "raid10");
	assert_int_equal(nb_config_add_target(&c, "/tmp"), 0);
	assert_int_equal(nb_config_add_target(&c, "/var/tmp"), 0);
	assert_int_equal(nb_config_add_target(&c, "nas=file:///x?y"), 0);
	assert_string_equal(c.targets[0].name, "local");
	assert_string_equal(c.targets[1].name, "local-2");
	assert_string_equal(c.targets[2].name, "nas");
	assert_string_equal(c.targets[2].url, "file:///x?y");
	assert_int_equal(nb_config_add_target(&c, "nas=/tmp"), -EINVAL);
	assert_string_equal(nb_err_last(), "--target: target 'nas' is defined twice");
	/* text at the boundary: a label, an option's value, a target */
	assert_int_equal(nb_config_override_pair(&c, "label", "--label", "note=caf\xe9"),
			 -EINVAL);
	assert_string_equal(nb_err_last(), "--label 'note': not UTF-8 text (byte 0xe9 at byte 4)");
	assert_int_equal(nb_config_override_pair(&c, "label", "--label", "n\033te=x"),
			 -EINVAL);
	assert_string_equal(nb_err_last(), "--label: a control character (0x1b at byte 2)");
	assert_int_equal(nb_config_add_target(&c, "/tmp/t\xe9"), -EINVAL);
	assert_string_equal(nb_err_last(), "--target: not UTF-8 text (byte 0xe9 at byte 7)");
	assert_int_equal(nb_config_add_target(&c, "gopher://h/x"), -EINVAL);
	assert_string_equal(nb_err_last(),
			    "--target: no runner for 'gopher://' URLs (see 'nasbench list')");
	nb_config_free(&c);
}

/* Each default is said once, in its knob row: it is a value the row's own
 * parser takes, the help shows it, and a target starts with it. */
static void defaults(void **state)
{
	struct nb_config scratch;
	struct nb_target_cfg t;
	struct nb_params p;
	char help[512];
	const struct nb_knob *k;
	struct nb_config *c;

	(void)state;
	nb_knob_foreach(k) {
		void *base = k->base == NB_KB_TARGET ? (void *)&t :
			     k->base == NB_KB_PARAMS ? (void *)&p : (void *)&scratch;

		if (!k->def)
			continue;
		memset(&scratch, 0, sizeof(scratch));
		memset(&t, 0, sizeof(t));
		memset(&p, 0, sizeof(p));
		assert_int_equal(nb_knob_parse(k, base, k->def), 0);
		if (!(k->flags & NB_KF_NOARG))
			assert_non_null(strstr(nb_knob_help(k, help, sizeof(help)),
					       k->def));
	}
	assert_int_equal(nb_knob_default("target", "timeout"), 10000000);
	assert_int_equal(nb_knob_default("suite", "iterations"), 3);
	assert_int_equal(nb_knob_default("suite", "bs"), 0);
	assert_string_equal(nb_knob_help(nb_knob_find("target", "timeout"), help,
					 sizeof(help)),
			    "give up on an unanswered request after this long "
			    "(default 10s)");
	c = load("[target a]\nurl = /tmp\n", 0);
	assert_int_equal(c->targets[0].timeout_us, 10000000);
	nb_config_free(c);
}

/* Every key row says its default once: a value (.def) or what applies
 * without one (.unset), never both, and no help text says it again.  The
 * rows that do not are listed, then the test fails. */
static void every_row_has_its_default(void **state)
{
	const struct nb_knob *k;
	int bad = 0, rows = 0;

	(void)state;
	nb_knob_foreach(k) {
		const char *why = NULL;

		if (k->type == NB_KT_LABEL)
			continue;
		rows++;
		if (!k->def && !k->unset)
			why = "no default (.def or .unset)";
		else if (k->def && k->unset)
			why = "both .def and .unset";
		else if (strstr(k->help, "default"))
			why = "its help says a default (that is .def's or .unset's)";
		if (why) {
			fprintf(stderr, "[%s] %s: %s\n", k->section, k->name, why);
			bad++;
		}
	}
	fprintf(stderr, "%d key rows, %d without their default said once\n",
		rows, bad);
	assert_int_equal(bad, 0);
}

/* The steady-state and SSD knobs: what each accepts, and the exact words
 * of a refusal (docs/steady-state.md). */
static void steady_knobs(void **state)
{
	struct nb_steady_crit crit;
	struct nb_config *c;

	(void)state;
	c = load("[suite]\nsteady-state = iops:20%\nround = 2s\ntrim = each\n"
		 "[target a]\nurl = /dev/null\nspan = 80%\n"
		 "[target b]\nurl = /dev/null\nspan = 200G\n", 0);
	assert_string_equal(c->suite.p.steady, "iops:20%");
	assert_int_equal(nb_steady_parse(c->suite.p.steady, &crit), 0);
	assert_int_equal(crit.kind, NB_SS_DEV);
	assert_true(crit.dev_pct == 20);
	assert_int_equal(c->suite.p.round_us, 2000000);
	assert_int_equal(c->suite.p.trim, NB_TRIM_EACH);
	assert_true(c->targets[0].span.pct == 80 && !c->targets[0].span.bytes);
	assert_true(c->targets[1].span.bytes == 200ULL << 30 && !c->targets[1].span.pct);
	nb_config_free(c);
	expect_error("[target a]\nurl = /dev/null\nspan = 0\n", 3,
		     "'span' in [target]: '0' is not a span: it accepts a "
		     "percentage in (0, 100] or a size (80%, 200G)");
	expect_error("[target a]\nurl = /dev/null\nspan = 150%\n", 3,
		     "'span' in [target]: '150%' is not a span: it accepts a "
		     "percentage in (0, 100] or a size (80%, 200G)");
	expect_error("[suite]\nsteady-state = fast\n", 2,
		     "'steady-state' in [suite]: unknown steady-state criterion "
		     "'fast': one of snia, snia:bw, snia:iops, bw:P%, iops:P%, "
		     "bw_slope:P% or iops_slope:P% (P in (0, 100])");
	expect_error("[suite]\nsteady-window = 1\n", 2,
		     "'steady-window' in [suite]: value '1' out of range (2 to 1000)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_file), cmocka_unit_test(errors),
		cmocka_unit_test(missing), cmocka_unit_test(overrides),
		cmocka_unit_test(defaults), cmocka_unit_test(every_row_has_its_default),
		cmocka_unit_test(steady_knobs),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
