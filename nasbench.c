/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nasbench.c - main(): a command of the table (cmd/commands.c) with its
 * arguments.
 *
 * nasbench is a storage benchmark and acceptance-test suite: it measures a
 * NAS over NFS (libnfs) and iSCSI (libiscsi), local files and devices, and
 * through fio; records MB/s, IOPS and latency per configuration; compares
 * runs and gates on them.
 */
#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "core/err.h"
#include "core/knobs.h"
#include "core/version.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	const struct nb_command *c;

	nb_knobs_use(nb_cmd_knobs);
	if (argc < 2) {
		nb_cmd_overview(stderr);
		return NB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(1, argv);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return cmd_version(1, argv + 1);
	c = nb_command_find(argv[1]);
	if (!c && argv[1][0] == '-') {
		static const struct option lo[] = {
			{ "help", no_argument, NULL, 'h' },
			{ "version", no_argument, NULL, 'V' },
			{ NULL, 0, NULL, 0 } };

		nb_opts_unknown("", argv[1], lo);
		nb_die_msg("%s", nb_err_last());
		return NB_EXIT_USAGE;
	}
	if (!c)
		return nb_cmd_unknown(argv[1]);
	/* "nasbench run --help" */
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			nb_cmd_print_usage(c, stdout);
			return NB_EXIT_OK;
		}
	return c->fn(argc - 1, argv + 1);
}
