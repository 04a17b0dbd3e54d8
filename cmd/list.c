/* SPDX-License-Identifier: GPL-2.0-or-later */
/* list.c - 'nasbench list': workloads, suites and runners. */
#include "cmd.h"
#include "opts.h"
#include "../core/err.h"
#include "../core/knobs.h"
#include "../core/suggest.h"
#include "../core/units.h"
#include "../runners/runner.h"
#include "../workloads/workload.h"

#include <stdio.h>
#include <string.h>

const struct nb_usage cmd_list_usage = { .head =
	"usage: nasbench list [--json] [workloads|suites|runners]\n"
	"\n"
	"List what nasbench can run (all three when no kind is given).\n"
	"\n"
	"      --json             the same as JSON: workloads (name, help),\n"
	"                         suites (their workloads, iterations, rough\n"
	"                         seconds and bytes written), runners (scheme)\n" };

enum { K_WORKLOADS = 1, K_SUITES = 2, K_RUNNERS = 4 };

/* One item of a suite: its workload, iterations and a rough estimate
 * under the suite's own sizes (each workload's default where it sets
 * none), for all iterations. */
struct item {
	const struct nb_workload *w;
	int its;
	double secs;
	uint64_t written;
};

/* The items of suite S that name a workload, at most MAX, into IT; their
 * sums into *SECS and *WRITTEN.  Returns how many. */
static int suite_items(const struct nb_suite *s, struct item *it, int max,
		       double *secs, uint64_t *written)
{
	char list[1024], name[64], *save = NULL;
	int n = 0;

	*secs = 0, *written = 0;
	snprintf(list, sizeof(list), "%s", s->workloads);
	for (char *p = strtok_r(list, ",", &save); p && n < max;
	     p = strtok_r(NULL, ",", &save)) {
		struct nb_estimate e;

		if (nb_suite_item(p, name, sizeof(name), &it[n].its) ||
		    !(it[n].w = nb_workload_find(name)))
			continue;
		if (!it[n].its)
			it[n].its = s->iterations ? s->iterations
				  : (int)nb_knob_default("suite", "iterations");
		nb_estimate_workload(it[n].w, &s->defaults, &e);
		it[n].secs = e.seconds * it[n].its;
		it[n].written = e.written * (uint64_t)it[n].its;
		*secs += it[n].secs;
		*written += it[n].written;
		n++;
	}
	return n;
}

static void list_workloads(void)
{
	puts("Workloads:");
	for (int i = 0; nb_workloads[i]; i++)
		printf("  %-20s %s\n", nb_workloads[i]->name, nb_workloads[i]->help);
}

static void list_suites(void)
{
	char dur[32], sz[32];

	puts("Suites (times are rough: a box at ~100 MB/s, xz ~3 MB/s):");
	for (int i = 0; nb_suites[i].name; i++) {
		const struct nb_suite *s = &nb_suites[i];
		struct item it[64];
		uint64_t written;
		double secs;
		int n = suite_items(s, it, 64, &secs, &written);

		printf("  %-20s %s\n", s->name, s->help);
		for (int j = 0; j < n; j++)
			printf("  %-20s   %-18s x%-3d %8s  writes %s\n", "",
			       it[j].w->name, it[j].its,
			       nb_estimate_fmt_secs(it[j].secs, dur, sizeof(dur)),
			       nb_fmt_size(it[j].written, sz, sizeof(sz)));
		printf("  %-20s   %-18s      %8s  writes %s per target\n", "", "total",
		       nb_estimate_fmt_secs(secs, dur, sizeof(dur)),
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

static json_t *json_suites(void)
{
	json_t *arr = json_array();

	for (int i = 0; nb_suites[i].name; i++) {
		const struct nb_suite *s = &nb_suites[i];
		json_t *wls = json_array();
		struct item it[64];
		uint64_t written;
		double secs;
		int n = suite_items(s, it, 64, &secs, &written);

		for (int j = 0; j < n; j++)
			json_array_append_new(wls, json_pack("{s:s, s:i, s:f, s:I}",
				"name", it[j].w->name, "iterations", it[j].its,
				"seconds", it[j].secs, "written_bytes",
				(json_int_t)it[j].written));
		json_array_append_new(arr, json_pack("{s:s, s:s, s:o, s:f, s:I}",
			"name", s->name, "help", s->help, "workloads", wls,
			"seconds", secs, "written_bytes", (json_int_t)written));
	}
	return arr;
}

static json_t *list_json(unsigned kinds)
{
	json_t *doc = json_object(), *arr;

	if (kinds & K_WORKLOADS) {
		arr = json_array();
		for (int i = 0; nb_workloads[i]; i++)
			json_array_append_new(arr, json_pack("{s:s, s:s}", "name",
				nb_workloads[i]->name, "help", nb_workloads[i]->help));
		json_object_set_new(doc, "workloads", arr);
	}
	if (kinds & K_SUITES)
		json_object_set_new(doc, "suites", json_suites());
	if (kinds & K_RUNNERS) {
		arr = json_array();
		for (int i = 0; nb_runners[i]; i++)
			json_array_append_new(arr, json_pack("{s:s, s:s, s:s}", "name",
				nb_runners[i]->name, "scheme", nb_runners[i]->scheme,
				"help", nb_runners[i]->help));
		json_object_set_new(doc, "runners", arr);
	}
	return doc;
}

int cmd_list(int argc, char **argv)
{
	static const struct option lo[] = { { "json", no_argument, NULL, 'j' },
					    { NULL, 0, NULL, 0 } };
	static const char kinds[] = "workloads|suites|runners";
	unsigned what = 0;
	int json = 0;

	for (int i = 1; i < argc; i++) {
		char near[32];

		if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else if (argv[i][0] == '-') {
			nb_opts_unknown("list", argv[i], lo);
			return nb_cmd_usage("%s", nb_err_last());
		} else if (what) {
			return nb_cmd_usage("list: one kind at a time, not '%s'",
					    argv[i]);
		} else if (!strcmp(argv[i], "workloads")) {
			what = K_WORKLOADS;
		} else if (!strcmp(argv[i], "suites")) {
			what = K_SUITES;
		} else if (!strcmp(argv[i], "runners")) {
			what = K_RUNNERS;
		} else if (nb_suggest_choice(argv[i], kinds, near, sizeof(near))) {
			return nb_cmd_usage("list: expected workloads, suites or "
					    "runners, not '%s'; did you mean '%s'?",
					    argv[i], near);
		} else {
			return nb_cmd_usage("list: expected workloads, suites or "
					    "runners, not '%s'", argv[i]);
		}
	}
	if (json)
		return nb_cmd_print_json(list_json(what ? what :
					 K_WORKLOADS | K_SUITES | K_RUNNERS));
	if (!what || what == K_WORKLOADS)
		list_workloads();
	if (!what)
		putchar('\n');
	if (!what || what == K_SUITES)
		list_suites();
	if (!what)
		putchar('\n');
	if (!what || what == K_RUNNERS)
		list_runners();
	return NB_EXIT_OK;
}
