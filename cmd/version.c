/* SPDX-License-Identifier: GPL-2.0-or-later */
/* version.c - 'nasbench version': nasbench and the libraries it links. */
#include "cmd.h"
#include "opts.h"
#include "../core/err.h"
#include "../core/version.h"

#include <stdio.h>
#include <string.h>

const struct nb_usage cmd_version_usage = { .head =
	"usage: nasbench version [--json]\n"
	"       nasbench --version | -V\n"
	"\n"
	"Print the version of nasbench (the release, and the git commit it was\n"
	"built from) and of the libraries it was built with (libnfs, libiscsi,\n"
	"liblzma, jansson, liburing, inih, and lz4, zlib and zstd, which measure\n"
	"how well the data written compresses).\n"
	"\n"
	"      --json             the same as JSON\n" };

int cmd_version(int argc, char **argv)
{
	static const struct option lo[] = { { "json", no_argument, NULL, 'j' },
					    { NULL, 0, NULL, 0 } };
	json_t *libs, *o;
	const char *k;
	json_t *v;
	int as_json = argc > 1 && !strcmp(argv[1], "--json");

	if (argc > 1 && !as_json) {
		if (argv[1][0] == '-')
			nb_opts_unknown("version", argv[1], lo);
		else
			nb_err_set("version: unexpected argument '%s'", argv[1]);
		return nb_cmd_usage("%s", nb_err_last());
	}
	libs = nb_version_libs();
	if (as_json) {
		o = json_pack("{s:s, s:s, s:s, s:O}", "nasbench", nb_version(), "git",
			      nb_version_git(), "version", nb_version_string(),
			      "libs", libs);
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(o);
	} else {
		printf("nasbench %s\n", nb_version_string());
		json_object_foreach(libs, k, v)
			printf("  %-9s %s\n", k, json_string_value(v));
	}
	json_decref(libs);
	return NB_EXIT_OK;
}
