/*
 * cmd.h - the commands of nasbench; each lives in cmd/<name>.c with its own
 * usage text and returns an exit status (core/err.h's enum nb_exit).
 */
#ifndef NB_CMD_H
#define NB_CMD_H

#include <stdio.h>

struct nb_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage;       /* full help text */
	void (*help)(FILE *out); /* or this prints it (usage NULL) */
};

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_hw(int argc, char **argv);
int cmd_help(int argc, char **argv);

extern const char cmd_list_usage[], cmd_version_usage[];
void cmd_run_help(FILE *out);
extern const char cmd_compare_usage[], cmd_report_usage[], cmd_import_usage[];
extern const char cmd_hw_usage[], cmd_help_usage[];
extern const char cmd_export_usage[];

/* Print "nasbench: <message>" and return NB_EXIT_USAGE (exit 2). */
int nb_cmd_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The table in nasbench.c. */
extern const struct nb_command nb_commands[];
const struct nb_command *nb_command_find(const char *name);

/* The command list, and "'X' is not a nasbench command; did you mean ..."
 * (returns NB_EXIT_USAGE). */
void nb_cmd_overview(FILE *out);
int nb_cmd_unknown(const char *name);
/* Print C's full help text to OUT. */
void nb_cmd_print_usage(const struct nb_command *c, FILE *out);

#endif
