/* sweep_text.c - a load sweep's answers for a person (docs/capacity.md). */
#include "text.h"
#include "../core/result.h"

#include <string.h>

/* "capacity: 20.2 VMs (2017 IOPS) at mean <= 10 ms; ..." of the last
 * sweep, and the median of the answers over several. */
static void sweep_line(FILE *out, const json_t *wl)
{
	const json_t *its = json_object_get(wl, "iterations");
	const json_t *last = json_array_get(its, json_array_size(its) - 1);
	const json_t *sw = json_object_get(last, "sweep");
	const char *metric = json_object_get(json_object_get(wl, "summary"),
					     "vms") ? "vms" : "iops_at_slo";
	double med, n;

	/* a failure walk's entry names its box state */
	fprintf(out, "%s %s%s%s: capacity: %s%s\n", nb_jstr(wl, "target"),
		nb_jstr(wl, "workload"), *nb_jstr(wl, "state") ? " " : "",
		nb_jstr(wl, "state"),
		nb_jstr(json_object_get(sw, "capacity"), "text"),
		json_is_false(json_object_get(sw, "complete")) ?
		" (sweep not complete)" : "");
	if (!nb_result_stat(wl, metric, "n", &n) && n >= 2 &&
	    !nb_result_stat(wl, metric, "median", &med))
		fprintf(out, "%s %s: median of %.0f sweeps: %.1f %s\n",
			nb_jstr(wl, "target"), nb_jstr(wl, "workload"), n, med,
			strcmp(metric, "vms") ? "IOPS at the objective" :
			"VMs at the objective");
}

void nb_report_sweeps(FILE *out, const json_t *doc)
{
	const json_t *wl;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		const json_t *its = json_object_get(wl, "iterations");
		const json_t *last = json_array_get(its, json_array_size(its) - 1);

		if (json_object_get(last, "sweep"))
			sweep_line(out, wl);
	}
}
