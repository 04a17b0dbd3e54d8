/*
 * cmd.h - the commands of nasbench; each lives in cmd/<name>.c with its own
 * usage text and returns an exit status (core/err.h's enum nb_exit).
 */
#ifndef NB_CMD_H
#define NB_CMD_H

struct nb_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage;       /* full help text */
};

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_hw(int argc, char **argv);

extern const char cmd_run_usage[], cmd_list_usage[], cmd_version_usage[];
extern const char cmd_hw_usage[];

/* The table in nasbench.c. */
extern const struct nb_command nb_commands[];
const struct nb_command *nb_command_find(const char *name);

#endif
