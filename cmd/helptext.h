/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * helptext.h - the man page and the shell completion, made from what makes
 * 'nasbench help': the command table (cmd/commands.c, given as CMDS),
 * each command's usage text (its option table where it has one), the knob
 * rows (cmd/knobs.c), the workload, suite and runner tables.  Nothing here is written by hand
 * twice, so the page, the completion and the help cannot drift apart.
 */
#ifndef NB_CMD_HELPTEXT_H
#define NB_CMD_HELPTEXT_H

#include <stdio.h>

struct nb_command;

/* nasbench(1) as roff (man(7) macros): every command with its options,
 * the box file's keys, workloads, suites, runners, exit status. */
void nb_help_man(FILE *out, const struct nb_command *cmds);

/* The bash completion script ('complete -F _nasbench nasbench'):
 * commands, each command's options, workloads, suites, layouts and other
 * choices, --target's schemes, files where a FILE is asked for. */
void nb_help_completion_bash(FILE *out, const struct nb_command *cmds);

#endif
