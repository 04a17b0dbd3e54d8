/* version.c - 'nasbench version': nasbench and the libraries it links. */
#include "cmd.h"
#include "../core/err.h"
#include "../core/version.h"

#include <stdio.h>
#include <string.h>

const char cmd_version_usage[] =
	"usage: nasbench version [--json]\n"
	"\n"
	"Print the version of nasbench and of the libraries it was built with\n"
	"(libnfs, libiscsi, liblzma, jansson, liburing, inih).\n";

int cmd_version(int argc, char **argv)
{
	json_t *libs = nb_version_libs();
	const char *k;
	json_t *v;
	int as_json = argc > 1 && !strcmp(argv[1], "--json");

	if (argc > 1 && !as_json) {
		nb_die_msg("version: unknown option '%s'", argv[1]);
		json_decref(libs);
		return NB_EXIT_USAGE;
	}
	if (as_json) {
		json_t *o = json_pack("{s:s, s:O}", "nasbench", NB_VERSION, "libs",
				      libs);
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(o);
	} else {
		printf("nasbench %s\n", NB_VERSION);
		json_object_foreach(libs, k, v)
			printf("  %-9s %s\n", k, json_string_value(v));
	}
	json_decref(libs);
	return NB_EXIT_OK;
}
