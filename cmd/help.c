/*
 * help.c - 'nasbench help': the commands, one command's usage, the box
 * file's keys, the acceptance criteria.
 */
#include "cmd.h"
#include "../core/config.h"
#include "../core/err.h"
#include "../core/suggest.h"
#include "../reports/accept.h"

#include <stdio.h>
#include <string.h>

const char cmd_help_usage[] =
	"usage: nasbench help [COMMAND | config | accept]\n"
	"\n"
	"Show the commands, one command's usage, every configuration key, or\n"
	"the acceptance criteria's syntax and metrics.\n";

void nb_cmd_overview(FILE *out)
{
	fputs("usage: nasbench COMMAND [ARGS]\n\nCommands:\n", out);
	for (int i = 0; nb_commands[i].name; i++)
		fprintf(out, "  %-10s %s\n", nb_commands[i].name,
			nb_commands[i].summary);
	fputs("\nnasbench help COMMAND shows a command's options; "
	      "nasbench help config the box file's keys.\n", out);
}

int nb_cmd_unknown_in(const char *what, const char *help, const char *name,
		      const char *const *cands, size_t n)
{
	const char *near = nb_suggest(name, cands, n);

	if (near)
		nb_die_msg("'%s' is not %s; did you mean '%s'?", name, what, near);
	else
		nb_die_msg("'%s' is not %s; see 'nasbench help%s%s'", name, what,
			   *help ? " " : "", help);
	return NB_EXIT_USAGE;
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

void nb_cmd_print_usage(const struct nb_command *c, FILE *out)
{
	if (c->help)
		c->help(out);
	else
		fputs(c->usage, out);
}

int cmd_help(int argc, char **argv)
{
	const struct nb_command *c;

	if (argc < 2) {
		nb_cmd_overview(stdout);
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
		return nb_cmd_unknown(argv[1]);
	nb_cmd_print_usage(c, stdout);
	return NB_EXIT_OK;
}
