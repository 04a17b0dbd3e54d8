/* list.c - 'nasbench list': workloads, suites and runners. */
#include "cmd.h"
#include "../core/err.h"
#include "../core/units.h"
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

/* A suite's workloads with their iterations and a rough duration under
 * the suite's own sizes (each workload's default where it sets none). */
static void list_suites(void)
{
	char dur[32], sz[32];

	puts("Suites (times are rough: a box at ~100 MB/s, xz ~3 MB/s):");
	for (int i = 0; nb_suites[i].name; i++) {
		const struct nb_suite *s = &nb_suites[i];
		char list[1024], *save = NULL, *item;
		uint64_t written = 0;
		double secs = 0;

		printf("  %-20s %s\n", s->name, s->help);
		snprintf(list, sizeof(list), "%s", s->workloads);
		for (item = strtok_r(list, ",", &save); item;
		     item = strtok_r(NULL, ",", &save)) {
			const struct nb_workload *w;
			struct nb_plan_est e;
			char name[64];
			int its;

			if (nb_plan_item(item, name, sizeof(name), &its) ||
			    !(w = nb_workload_find(name)))
				continue;
			if (!its)
				its = s->iterations ? s->iterations : 3;
			nb_plan_estimate(w, &s->defaults, &e);
			secs += e.seconds * its;
			written += e.written * (uint64_t)its;
			printf("  %-20s   %-18s x%-3d %8s  writes %s\n", "", name, its,
			       nb_plan_fmt_secs(e.seconds * its, dur, sizeof(dur)),
			       nb_fmt_size(e.written * (uint64_t)its, sz, sizeof(sz)));
		}
		printf("  %-20s   %-18s      %8s  writes %s per target\n", "", "total",
		       nb_plan_fmt_secs(secs, dur, sizeof(dur)),
		       nb_fmt_size(written, sz, sizeof(sz)));
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
