/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commands.c - the command table (git-style), and 'nasbench help', which
 * reads it: the commands, one command's usage, the box file's keys, the
 * acceptance criteria, the man page and the completion.
 */
#include "cmd.h"
#include "helptext.h"
#include "opts.h"
#include "../core/config.h"
#include "../core/err.h"
#include "../accept/accept.h"

#include <stdio.h>
#include <string.h>

const struct nb_usage cmd_help_usage = { .head =
	"usage: nasbench help [COMMAND | config | accept]\n"
	"       nasbench help --man | --completion bash\n"
	"\n"
	"Show the commands, one command's usage, every configuration key, or\n"
	"the acceptance criteria's syntax and metrics.\n"
	"\n"
	"      --man              the manual page nasbench(1) as roff\n"
	"                         ('nasbench help --man | man -l -')\n"
	"      --completion SHELL\n"
	"                         the completion script of SHELL (bash; zsh\n"
	"                         loads it through bashcompinit)\n" };

#define CMD(n, sum) { .name = #n, .fn = cmd_##n, .summary = sum, .usage = &cmd_##n##_usage }

const struct nb_command nb_commands[] = {
	CMD(init, "write a box file from what the targets and the box answer"),
	CMD(run, "run workloads against targets, write a result file"),
	CMD(compare, "compare results, gate on regressions: text, Markdown, JSON, JUnit, OpenMetrics"),
	CMD(report, "HTML/Markdown report with charts of results"),
	CMD(export, "results as CSV for a spreadsheet, or OpenMetrics for Prometheus"),
	CMD(history, "keep results in SQLite: add, list, show, rm, trend"),
	CMD(import, "turn fio JSON / bonnie++ CSV into results"),
	CMD(list, "list workloads, suites and runners"),
	CMD(version, "print versions of nasbench and its libraries"),
	CMD(hw, "hardware inventory, and a planner of layouts"),
	CMD(capture, "measure a box's load into a load file for the replay"),
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

void nb_cmd_overview(FILE *out)
{
	fputs("usage: nasbench COMMAND [ARGS]\n\nCommands:\n", out);
	for (int i = 0; nb_commands[i].name; i++)
		fprintf(out, "  %-10s %s\n", nb_commands[i].name,
			nb_commands[i].summary);
	fputs("\nnasbench help COMMAND shows a command's options; "
	      "nasbench help config the box file's keys.\n", out);
}

/* Unknown command: name the nearest, as git does. */
int nb_cmd_unknown(const char *name)
{
	const char *cands[32];
	size_t n = 0;

	for (int i = 0; nb_commands[i].name && n < 32; i++)
		cands[n++] = nb_commands[i].name;
	return nb_cmd_unknown_in("a nasbench command", "", name, cands, n);
}

int cmd_help(int argc, char **argv)
{
	const struct nb_command *c;

	if (argc < 2) {
		nb_cmd_overview(stdout);
		return NB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--man") && argc == 2) {
		nb_help_man(stdout, nb_commands);
		return fflush(stdout) ? NB_EXIT_TARGET : NB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--completion")) {
		if (argc != 3 || strcmp(argv[2], "bash"))
			return nb_cmd_usage("help --completion: the shell is bash, "
					    "not '%s'", argc > 2 ? argv[2] : "");
		nb_help_completion_bash(stdout, nb_commands);
		return fflush(stdout) ? NB_EXIT_TARGET : NB_EXIT_OK;
	}
	if (argv[1][0] == '-') {
		static const struct option lo[] = {
			{ "man", no_argument, NULL, 'm' },
			{ "completion", required_argument, NULL, 'c' },
			{ NULL, 0, NULL, 0 } };

		nb_opts_unknown("help", argv[1], lo);
		return nb_cmd_usage("%s", nb_err_last());
	}
	if (!strcmp(argv[1], "config")) {
		nb_config_help(stdout);
		return NB_EXIT_OK;
	}
	if (!strcmp(argv[1], "accept")) {
		nb_accept_help(stdout);
		return NB_EXIT_OK;
	}
	c = nb_command_find(argv[1]);
	if (!c)
		return nb_cmd_unknown(argv[1]);
	nb_cmd_print_usage(c, stdout);
	return NB_EXIT_OK;
}
