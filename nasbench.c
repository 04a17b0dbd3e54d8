/*
 * nasbench.c - the command table (git-style) and main().
 *
 * nasbench is a storage benchmark and acceptance-test suite: it measures a
 * NAS over NFS (libnfs) and iSCSI (libiscsi), local files and devices, and
 * through fio; records MB/s, IOPS and latency per configuration; compares
 * runs and gates on them.
 */
#include "cmd/cmd.h"
#include "core/err.h"
#include "core/suggest.h"
#include "core/version.h"

#include <stdio.h>
#include <string.h>

static int cmd_help(int argc, char **argv);

static const char cmd_help_usage[] =
	"usage: nasbench help [COMMAND | config | accept]\n"
	"\n"
	"Show the commands, one command's usage, every configuration key, or\n"
	"the acceptance criteria's syntax and metrics.\n";

const struct nb_command nb_commands[] = {
	{ "run", cmd_run, "run workloads against targets, write a result file",
	  cmd_run_usage },
	{ "list", cmd_list, "list workloads, suites and runners", cmd_list_usage },
	{ "version", cmd_version, "print versions of nasbench and its libraries",
	  cmd_version_usage },
	{ "hw", cmd_hw, "hardware inventory, and a planner of layouts", cmd_hw_usage },
	{ "help", cmd_help, "show help for a command or the config keys",
	  cmd_help_usage },
	{ NULL, NULL, NULL, NULL },
};

const struct nb_command *nb_command_find(const char *name)
{
	for (int i = 0; nb_commands[i].name; i++)
		if (!strcmp(nb_commands[i].name, name))
			return &nb_commands[i];
	return NULL;
}

static void overview(FILE *out)
{
	fputs("usage: nasbench COMMAND [ARGS]\n\nCommands:\n", out);
	for (int i = 0; nb_commands[i].name; i++)
		fprintf(out, "  %-10s %s\n", nb_commands[i].name,
			nb_commands[i].summary);
	fputs("\nnasbench help COMMAND shows a command's options; "
	      "nasbench help config the box file's keys.\n", out);
}

/* Unknown command: name the nearest, as git does. */
static int unknown(const char *name)
{
	const char *cands[32];
	const char *near;
	size_t n = 0;

	for (int i = 0; nb_commands[i].name && n < 32; i++)
		cands[n++] = nb_commands[i].name;
	near = nb_suggest(name, cands, n);
	if (near)
		nb_die_msg("'%s' is not a nasbench command; did you mean '%s'?",
			   name, near);
	else
		nb_die_msg("'%s' is not a nasbench command; see 'nasbench help'",
			   name);
	return NB_EXIT_USAGE;
}

static int cmd_help(int argc, char **argv)
{
	const struct nb_command *c;
	extern void nb_config_help(FILE *out);
	extern void nb_accept_help(FILE *out);

	if (argc < 2) {
		overview(stdout);
		return NB_EXIT_OK;
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
		return unknown(argv[1]);
	fputs(c->usage, stdout);
	return NB_EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct nb_command *c;

	if (argc < 2) {
		overview(stderr);
		return NB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(1, argv);
	if (!strcmp(argv[1], "--version"))
		return cmd_version(1, argv + 1);
	c = nb_command_find(argv[1]);
	if (!c)
		return unknown(argv[1]);
	/* "nasbench run --help" */
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(c->usage, stdout);
			return NB_EXIT_OK;
		}
	return c->fn(argc - 1, argv + 1);
}
