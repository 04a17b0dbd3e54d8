/*
 * help.c - 'nasbench help': the commands, one command's usage, the box
 * file's keys, the acceptance criteria.
 */
#include "cmd.h"
#include "helptext.h"
#include "opts.h"
#include "../core/config.h"
#include "../core/err.h"
#include "../core/suggest.h"
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
	fputs(c->usage->head, out);
	if (c->usage->opts)
		nb_opts_usage(out, c->usage->opts, c->usage->n);
	if (c->usage->tail)
		fputs(c->usage->tail, out);
}

int cmd_help(int argc, char **argv)
{
	const struct nb_command *c;

	if (argc < 2) {
		nb_cmd_overview(stdout);
		return NB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--man") && argc == 2) {
		nb_help_man(stdout);
		return fflush(stdout) ? NB_EXIT_TARGET : NB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--completion")) {
		if (argc != 3 || strcmp(argv[2], "bash"))
			return nb_cmd_usage("help --completion: the shell is bash, "
					    "not '%s'", argc > 2 ? argv[2] : "");
		nb_help_completion_bash(stdout);
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
