/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * baseline.c - the base a new run is gated against: the history's last
 * runs of its labels, their entries at the new run's settings pooled into
 * one document (history.h, nb_history_baseline).
 */
#include "history.h"
#include "../core/err.h"
#include "../core/result.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int same_settings(const json_t *a, const json_t *b)
{
	const json_t *sa = json_object_get(a, "spec"), *sb = json_object_get(b, "spec");

	for (size_t i = 0; nb_result_settings[i]; i++) {
		json_t *x = json_object_get(sa, nb_result_settings[i]);
		json_t *y = json_object_get(sb, nb_result_settings[i]);

		if (x && y && !json_equal(x, y))
			return 0;
	}
	return 1;
}

static json_t *entry_of(const json_t *doc, const json_t *like)
{
	return nb_result_find(doc, nb_jstr(like, "target"), nb_jstr(like, "workload"));
}

/* The entry of RESULTS for WL's target and workload, made (with WL's
 * spec and no iterations) when there is none. */
static json_t *pooled_entry(json_t *results, const json_t *wl)
{
	json_t *mine = NULL, *it;
	size_t j;

	json_array_foreach(results, j, it)
		if (!strcmp(nb_jstr(it, "target"), nb_jstr(wl, "target")) &&
		    !strcmp(nb_jstr(it, "workload"), nb_jstr(wl, "workload")))
			mine = it;
	if (!mine) {
		mine = json_pack("{s:s, s:s, s:s, s:O, s:[]}", "target",
				 nb_jstr(wl, "target"), "workload",
				 nb_jstr(wl, "workload"), "status", "ok",
				 "spec", json_object_get(wl, "spec") ?: json_object(),
				 "iterations");
		json_array_append_new(results, mine);
	}
	return mine;
}

/* Run DOC's ok entries at NEW_'s settings into RESULTS, each iteration
 * marked as run USED.  Whether it gave any. */
static int pool_run(json_t *results, const json_t *doc, const json_t *new_,
		    int used)
{
	json_t *wl, *it;
	size_t i, j;
	int took = 0;

	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		json_t *nw = entry_of(new_, wl), *mine;

		if (strcmp(nb_jstr(wl, "status"), "ok") ||
		    (nw && !same_settings(wl, nw)))
			continue;
		mine = pooled_entry(results, wl);
		json_array_foreach(json_object_get(wl, "iterations"), j, it) {
			json_t *c = json_deep_copy(it);

			json_object_set_new(c, "run", json_integer(used));
			json_array_append_new(json_object_get(mine, "iterations"), c);
		}
		took = 1;
	}
	return took;
}

int nb_history_baseline(struct nb_history *h, const json_t *new_,
			const struct nb_history_filter *f, json_t **base,
			int *nruns, char *name, size_t len)
{
	struct nb_history_filter ff = *f;
	json_t *runs, *results, *targets = NULL;
	size_t k, l;
	int rc, used = 0;

	*base = NULL;
	*nruns = 0;
	ff.same_labels = json_object_get(new_, "labels");
	ff.exclude_run_id = nb_jstr(new_, "run_id");
	if ((rc = nb_history_list_docs(h, &ff, &runs)))
		return rc;
	if (!json_array_size(runs)) {
		json_decref(runs);
		return nb_err(-ENOENT, "no run in the history '%s' matches %s (see "
			      "'nasbench history list'; record one with 'nasbench "
			      "history add' or 'run --history')", nb_history_file(h),
			      f->nlabels ? "the --label filters" : "the new result's labels");
	}
	results = json_array();
	snprintf(name, len, "history (");
	/* oldest first, so run K counts from the oldest used */
	for (k = json_array_size(runs); k-- > 0;) {
		json_t *run = json_array_get(runs, k), *doc = json_object_get(run, "doc");

		if (!pool_run(results, doc, new_, used))
			continue;
		l = strlen(name);
		snprintf(name + l, len - l, "%s%lld", used ? ", " : "runs ",
			 (long long)json_integer_value(json_object_get(run, "id")));
		json_decref(targets);
		targets = json_incref(json_object_get(doc, "targets"));
		used++;
	}
	l = strlen(name);
	snprintf(name + l, len - l, ")");
	json_decref(runs);
	if (!used) {
		json_decref(results);
		json_decref(targets);
		return nb_err(-ENOENT, "no run in the history '%s' matching the labels "
			      "has the new result's workloads at the same settings",
			      nb_history_file(h));
	}
	*base = json_pack("{s:i, s:s, s:s, s:O, s:o, s:o}", "schema", NB_RESULT_SCHEMA,
			  "tool", "nasbench", "run_id", "history",
			  "labels", json_object_get(new_, "labels"),
			  "targets", targets ? targets : json_array(), "results", results);
	*nruns = used;
	return 0;
}
