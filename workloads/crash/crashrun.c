/* SPDX-License-Identifier: GPL-2.0-or-later */
/* crashrun.c - crashcheck's journal path and the set-up of run --verify. */
#include "crashrun.h"
#include "../../core/err.h"
#include "../../core/result.h"
#include "../../core/url.h"
#include "crashcheck.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int nb_crash_setup(struct nb_crash_opts *r, struct nb_config *cfg,
		       const char *workloads, char **targets, int *ntargets)
{
	struct nb_crash_journal j;
	int rc = 0;

	if (!r->verify)
		return 0;
	if (workloads && *workloads)
		return nb_err(-EINVAL, "--verify runs crashcheck alone: no --workload");
	if (nb_crash_journal_load(&j, r->verify))
		return nb_err_prefix("--verify");
	if (*ntargets > 1)
		rc = nb_err(-EINVAL, "--verify: one target, the journal's ('%s'), "
			    "not %d", j.target, *ntargets);
	if (!*ntargets && nb_config_target(cfg, j.target))
		snprintf(r->target, sizeof(r->target), "%s", j.target);
	else if (!*ntargets)
		snprintf(r->target, sizeof(r->target), "%s=%s", j.target, j.url);
	if (!*ntargets)
		targets[(*ntargets)++] = r->target;
	snprintf(r->run_id, sizeof(r->run_id), "%s", j.run_id);
	snprintf(r->url, sizeof(r->url), "%s", j.url);
	cfg->suite.iterations = 1;
	cfg->suite.suite[0] = '\0';
	snprintf(cfg->suite.workloads, sizeof(cfg->suite.workloads), "crashcheck");
	nb_crash_journal_free(&j);
	return rc;
}

int nb_crash_targets(struct nb_crash_opts *r, struct nb_config *cfg,
		     const char *output, const char *run_id)
{
	char url[1100], *jp = r->path;
	size_t n = output ? strlen(output) : 0, len = sizeof(r->path);

	if (r->verify || r->journal)
		snprintf(jp, len, "%s", r->verify ? r->verify : r->journal);
	else if (!n)
		snprintf(jp, len, "nasbench-%s.journal", run_id);
	else
		snprintf(jp, len, "%.*s.journal", (int)(n > 5 && !strcmp(output + n - 5,
			 ".json") ? n - 5 : n), output);
	r->each = !r->verify && cfg->ntargets > 1;
	for (int i = 0; r->verify && i < cfg->ntargets; i++) {
		struct nb_target_cfg *t = &cfg->targets[i];

		t->attach = 1;
		nb_url_redact(t->url, url, sizeof(url));
		if (strcmp(url, r->url))
			return nb_err(-EINVAL, "--verify: journal '%s' was written on "
				      "'%s', not on target '%s' (%s): verify it against "
				      "the target it was written on", r->verify, r->url,
				      t->name, url);
	}
	return 0;
}

/* Whether every iteration of a syncprobe entry found its sync writes
 * consistent with durable media: a commit cost seen, or durable by the
 * box's declaration. */
static int probe_consistent(const json_t *probe)
{
	const json_t *it;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(probe, "iterations"), i, it) {
		if (strcmp(nb_jstr(it, "verdict_class"), "commit-cost-seen") &&
		    json_number_value(json_object_get(json_object_get(it,
						"metrics"), "durable")) < 1)
			return 0;
		n++;
	}
	return n > 0;
}

/* A crash observed and nothing promised lost is the evidence timing is
 * not: the probe's iterations whose cost was consistent with durable
 * media are durable now, said where. */
static void probe_proven(json_t *probe)
{
	json_t *it;
	size_t i;

	json_array_foreach(json_object_get(probe, "iterations"), i, it) {
		if (strcmp(nb_jstr(it, "verdict_class"), "commit-cost-seen"))
			continue;
		json_object_set_new(json_object_get(it, "metrics"), "durable",
				    json_real(1));
		if (!strcmp(nb_jstr(it, "durable_evidence"), "none") ||
		    !json_object_get(it, "durable_evidence"))
			json_object_set_new(it, "durable_evidence", json_string(
				"crashcheck: a crash observed, no promised-durable "
				"write lost"));
	}
}

void nb_crash_durability(json_t *doc)
{
	const json_t *results = json_object_get(doc, "results"), *crash;
	json_t *all = json_array();
	size_t i;

	json_array_foreach(results, i, crash) {
		const char *t = nb_jstr(crash, "target");
		json_t *probe = nb_result_find(doc, t, "syncprobe");
		const json_t *v = json_object_get(crash, "crash_verdict"), *last;
		json_int_t lost;
		int consistent, proven;

		if (strcmp(nb_jstr(crash, "workload"), "crashcheck") || !probe || !v ||
		    !json_array_size(json_object_get(probe, "iterations")))
			continue;
		last = json_array_get(json_object_get(probe, "iterations"),
				      json_array_size(json_object_get(probe,
								      "iterations")) - 1);
		lost = json_integer_value(json_object_get(v, "lost"));
		consistent = probe_consistent(probe);
		/* a crash check that saw no crash agrees with nothing */
		proven = lost || !json_integer_value(json_object_get(v, "unproven"));
		json_array_append_new(all, json_pack(
			"{s:s, s:s, s:b, s:s, s:I, s:b, s:b}", "target", t, "syncprobe",
			nb_jstr(last, "verdict_class"), "syncprobe_durable", consistent,
			"crash", nb_jstr(v, "summary"), "crash_lost", lost,
			"crash_proven", proven, "agree", proven && consistent == !lost));
		if (proven && !lost && consistent)
			probe_proven(probe);
	}
	if (json_array_size(all))
		json_object_set_new(doc, "durability", all);
	else
		json_decref(all);
}
