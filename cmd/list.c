/* list.c - 'nasbench list': workloads, suites and runners. */
#include "cmd.h"
#include "../core/err.h"
#include "../runners/runner.h"
#include "../workloads/workload.h"

#include <stdio.h>
#include <string.h>

const char cmd_list_usage[] =
	"usage: nasbench list [workloads|suites|runners]\n"
	"\n"
	"List what nasbench can run (all three when no kind is given).\n";

static void list_workloads(void)
{
	puts("Workloads:");
	for (int i = 0; nb_workloads[i]; i++)
		printf("  %-20s %s\n", nb_workloads[i]->name, nb_workloads[i]->help);
}

static void list_suites(void)
{
	puts("Suites:");
	for (int i = 0; nb_suites[i].name; i++) {
		printf("  %-20s %s\n", nb_suites[i].name, nb_suites[i].help);
		printf("  %-20s   = %s\n", "", nb_suites[i].workloads);
	}
}

static void list_runners(void)
{
	puts("Runners:");
	for (int i = 0; nb_runners[i]; i++)
		printf("  %-20s %s://  %s\n", nb_runners[i]->name,
		       nb_runners[i]->scheme, nb_runners[i]->help);
}

int cmd_list(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : NULL;

	if (argc > 2 || (what && strcmp(what, "workloads") && strcmp(what, "suites") &&
			 strcmp(what, "runners"))) {
		nb_die_msg("list: expected workloads, suites or runners, not '%s'",
			   argv[argc - 1]);
		return NB_EXIT_USAGE;
	}
	if (!what || !strcmp(what, "workloads"))
		list_workloads();
	if (!what)
		putchar('\n');
	if (!what || !strcmp(what, "suites"))
		list_suites();
	if (!what)
		putchar('\n');
	if (!what || !strcmp(what, "runners"))
		list_runners();
	return NB_EXIT_OK;
}
