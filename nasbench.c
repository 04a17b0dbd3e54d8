/*
 * nasbench.c - the command table (git-style) and main().
 *
 * nasbench is a storage benchmark and acceptance-test suite: it measures a
 * NAS over NFS (libnfs) and iSCSI (libiscsi), local files and devices, and
 * through fio; records MB/s, IOPS and latency per configuration; compares
 * runs and gates on them.
 */
#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "core/err.h"
#include "core/version.h"

#include <stdio.h>
#include <string.h>

#define CMD(n, sum) { .name = #n, .fn = cmd_##n, .summary = sum, .usage = &cmd_##n##_usage }

const struct nb_command nb_commands[] = {
	CMD(run, "run workloads against targets, write a result file"),
	CMD(compare, "compare results, gate on regressions"),
	CMD(report, "HTML/Markdown report with charts of results"),
	CMD(export, "results as CSV for a spreadsheet"),
	CMD(history, "keep results in SQLite: add, list, show, rm, trend"),
	CMD(import, "turn fio JSON / bonnie++ CSV into results"),
	CMD(list, "list workloads, suites and runners"),
	CMD(version, "print versions of nasbench and its libraries"),
	CMD(hw, "hardware inventory, and a planner of layouts"),
	CMD(help, "show help for a command or the config keys"),
	{ .name = NULL },
};

const struct nb_command *nb_command_find(const char *name)
{
	for (int i = 0; nb_commands[i].name; i++)
		if (!strcmp(nb_commands[i].name, name))
			return &nb_commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct nb_command *c;

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
