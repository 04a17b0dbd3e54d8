/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - 'nasbench compare BASE NEW [NEW...]': a table per metric
 * with a verdict, and a regression gate (exit 1).
 */
#include "cmd.h"
#include "opts.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/result.h"
#include "../core/stats.h"
#include "../core/units.h"
#include "../decision/bands_compare.h"
#include "../compare/compare.h"
#include "../compare/gate.h"
#include "../compare/network.h"
#include "../history/history.h"
#include "../formats/openmetrics.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum fmt { F_TEXT, F_MARKDOWN, F_JSON, F_JUNIT, F_OPENMETRICS };

struct opts {
	const char *gate, *output, *max_regress, *display, *bands;
	enum fmt fmt;
	int color;               /* -1 auto */
	struct nb_compare_opts co;
	int history, last, noise_history;
	char *labels[64];
	int nlabels;
};

#define AT(field) NB_OPT_AT(struct opts, field)
enum { O_FORMAT = 'f', O_COLOR = 'C', O_BASELINE = 'B', O_LAST = 'L',
       O_LABEL = 'l', O_NOISE = 'N' };

static const struct nb_opt compare_opts[] = {
	{ "max-regress", 'r', "PCT", AT(max_regress), "largest change for the "
	  "worse that passes\n(default " NB_STR(NB_GATE_MAX_REGRESS_PCT) "%; "
	  "'off' reports without gating)" },
	{ "display", 0, "PCT", AT(display), "the threshold of the words under -r "
	  "off (" NB_STR(NB_GATE_MAX_REGRESS_PCT) "%)" },
	{ "gate", 'g', "FILE", AT(gate), "per-metric / per-workload thresholds "
	  "(INI;\nsee docs/compare.md)" },
	{ "bands", 0, "V,N", AT(bands), "viability bands: a time factor (or loss)"
	  "\nup to V is viable, from N not viable, between\n'decide' (e.g. "
	  "10%,2x; docs/compare.md)" },
	{ "strict", 0, NULL, AT(co.strict), "low confidence (< "
	  NB_STR(NB_FEW_ITERATIONS) " iterations) fails too" },
	{ "allow-missing", 0, NULL, AT(co.allow_missing), "a workload or metric "
	  "missing in NEW warns" },
	{ "allow-changed", 0, NULL, AT(co.allow_changed), "different settings "
	  "warn (and are judged)" },
	{ "allow-unsteady", 0, NULL, AT(co.allow_unsteady), "judge a steady-state "
	  "run that did not reach\nsteady state (default: verdict not-steady, "
	  "no gate)" },
	{ "format", 'f', "FMT", O_FORMAT, "text (default), markdown, json, junit, openmetrics" },
	{ "output", 'o', "FILE", AT(output), "write the report there ('-': "
	  "stdout)" },
	{ "color", 0, "WHEN", O_COLOR, "auto (default: on a terminal), always, "
	  "never" },
	{ "baseline", 0, "history", O_BASELINE, "the base is the history "
	  "($NASBENCH_DB or\n~/.local/share/nasbench/history.db): the last\n"
	  "runs with NEW's labels (or --label) and settings" },
	{ "noise", 0, "history", O_NOISE, "BASE NEW: measure the run-to-run noise on\n"
	  "the history's last runs of BASE's labels\n(per target and workload) "
	  "instead of\nassuming it" },
	{ "last", 0, "N", O_LAST, "that many runs (default "
	  NB_STR(NB_COMPARE_LAST) ")" },
	{ "label", 0, "K=V", O_LABEL, "runs with this label (repeatable), "
	  "instead of\nNEW's labels" },
};

const struct nb_usage cmd_compare_usage = {
	.head = "usage: nasbench compare BASE.json NEW.json [NEW.json...] [options]\n"
		"       nasbench compare --baseline history NEW.json... [--last N]\n"
		"                        [--label K=V]... [options]\n"
		"\n"
		"Compare each NEW result with BASE ('-': standard input), workload by\n"
		"workload (matched by target and workload name): one verdict per\n"
		"workload on its primary metric (MB/s for sequential, IOPS for random\n"
		"workloads): better, worse, unchanged, noise, inconclusive, missing,\n"
		"changed-settings, not-steady (a steady-state run that did not settle:\n"
		"never gates); the other metrics are shown.  A change fails the gate\n"
		"when it is beyond the threshold and significant against the run-to-run\n"
		"noise.  That noise is measured from 3 or more base runs (--baseline\n"
		"history, the CI form); two single runs cannot measure it: what the\n"
		"assumed noise does not call significant is inconclusive, and the\n"
		"'detects' column says what change it could have seen (--noise history\n"
		"measures it for BASE NEW on the history's runs of BASE's labels).\n"
		"Fewer than 3 iterations on a side are low confidence: inconclusive\n"
		"unless --strict.  Run 5 or more iterations for a gate.\n"
		"\n"
		"The decisions end the terminal's output (and head the Markdown): a\n"
		"sentence per comparison in the report's words (\"A SLOG: 11x the sync\n"
		"IOPS (n=3 each, +-64%)\", or \"within the noise\"), the workloads\n"
		"missing or run with other settings in a line each.\n"
		"\n",
	.opts = compare_opts, .n = NB_OPTS_N(compare_opts),
	.tail = "\n"
		"-o replaces an existing file only when it is an output of compare:\n"
		"any other file is refused (exit 2).\n"
		"\n"
		"Exit status: 0 nothing regressed (the noise measured), 1 something\n"
		"regressed or is missing, 2 usage error, an unreadable result,\n"
		"settings that differ or a file -o may not replace, 3 the output\n"
		"cannot be written, 5 inconclusive:\n"
		"no regression seen, but the noise was not measured (or too few\n"
		"iterations), so a smaller loss than 'detects' could hide in it.  With\n"
		"--bands (or a gate file's [bands]): 0 viable, 1 not viable (or\n"
		"missing), 4 decide; 2 and 3 as above.\n",
};

static int parse_format(const char *s, enum fmt *f)
{
	static const char *names[] = { "text", "markdown", "json", "junit",
				       "openmetrics" };

	for (int i = 0; i < 5; i++)
		if (!strcmp(s, names[i]) || (i == 1 && !strcmp(s, "md"))) {
			*f = (enum fmt)i;
			return 0;
		}
	return -EINVAL;
}

static int on_option(int id, const struct nb_knob *k, char *arg, void *payload)
{
	struct opts *o = payload;
	static const char *const colors[] = { "never", "always", "auto" };

	(void)k;
	switch (id) {
	case O_BASELINE:
		if (strcmp(arg, "history"))
			return nb_err(-EINVAL, "--baseline: expected 'history', not "
				      "'%s'", arg);
		o->history = 1;
		return 0;
	case O_NOISE:
		if (strcmp(arg, "history"))
			return nb_err(-EINVAL, "--noise: expected 'history', not '%s'",
				      arg);
		o->noise_history = 1;
		return 0;
	case O_LAST: return nb_opts_last(arg, 256, &o->last);
	case O_LABEL: return nb_opts_label_filter(arg, o->labels, &o->nlabels, 64);
	case O_FORMAT:
		return parse_format(arg, &o->fmt) ? nb_opts_bad_choice("--format",
			arg, "text|markdown|json|junit|openmetrics") : 0;
	default:                 /* O_COLOR: never 0, always 1, auto -1 */
		for (int i = 0; i < 3; i++)
			if (!strcmp(arg, colors[i])) {
				o->color = i < 2 ? i : -1;
				return 0;
			}
		return nb_opts_bad_choice("--color", arg, "auto|always|never");
	}
}

static int parse_args(struct opts *o, int argc, char **argv)
{
	if (nb_opts_parse("compare", argc, argv, compare_opts,
			  NB_OPTS_N(compare_opts), on_option, o))
		return nb_cmd_usage("%s", nb_err_last());
	if ((o->last || o->nlabels) && !o->history && !o->noise_history)
		return nb_cmd_usage("--last and --label choose runs of the history: "
				    "add --baseline history (or --noise history)");
	if (o->history && o->noise_history)
		return nb_cmd_usage("--noise history is for BASE NEW: --baseline "
				    "history measures the noise on its runs already");
	if (o->history && argc - optind < 1)
		return nb_cmd_usage("need at least one NEW result; see 'nasbench "
				    "help compare'");
	if (!o->history && argc - optind < 2)
		return nb_cmd_usage("need a BASE and at least one NEW result; see "
				    "'nasbench help compare'");
	return 0;
}

static void render(FILE *f, const struct opts *o, const json_t *doc, int color)
{
	switch (o->fmt) {
	case F_TEXT: nb_compare_text(f, doc, color); break;
	case F_MARKDOWN: nb_compare_markdown(f, doc); break;
	case F_JSON: nb_compare_json(f, doc); break;
	case F_JUNIT: nb_compare_junit(f, doc); break;
	case F_OPENMETRICS: nb_openmetrics_compare(doc, f); break;
	}
}

/* What -o may replace: an output of compare, in any of its formats
 * (core/atomic_file.h); a result given as -o by mistake is not one. */
static int compare_ours(const char *head, size_t len)
{
	/* the text: "BASE -> NEW", then its verdicts' table (the decisions
	 * at its end) */
	return (nb_out_has(head, len, " -> ") &&
		nb_out_has(head, len, "\n\nverdicts (one per workload, on its primary metric)\n")) ||
	       nb_out_starts(head, len, "## nasbench compare") ||
	       nb_out_starts(head, len, "# HELP nasbench_compare_") ||
	       (nb_out_starts(head, len, "<?xml") &&
		nb_out_has(head, len, "<testsuites name=\"nasbench compare\"")) ||
	       (nb_out_starts(head, len, "{") &&
		nb_out_has(head, len, "\"tool\": \"nasbench\"") &&
		nb_out_has(head, len, "\"compare\":") &&
		!nb_out_has(head, len, "\"schema\":"));
}

static const struct nb_out_kind compare_out = { "an output of nasbench compare",
						compare_ours };

static int emit(const struct opts *o, const json_t *doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!o->output || !strcmp(o->output, "-")) {
		int color = o->color < 0 ? isatty(STDOUT_FILENO) && !getenv("NO_COLOR")
					 : o->color;

		render(stdout, o, doc, color);
		return fflush(stdout) ? nb_err(-EIO, "cannot write the output") : 0;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		return nb_err(-ENOMEM, "out of memory");
	render(f, o, doc, o->color > 0);
	fclose(f);
	rc = nb_atomic_write(o->output, buf, len, &compare_out);
	free(buf);
	return rc;
}

/* Load NEW and append its comparison with BASE to COMPS.  0 or -errno. */
static int compare_one(const json_t *base, const char *base_name,
		       const char *new_name, struct nb_gate *gate,
		       const struct nb_compare_opts *co, json_t *comps)
{
	json_t *n, *c;
	int rc = nb_result_load(new_name, &n);

	if (rc)
		return rc;
	rc = nb_compare(base, base_name, n, strcmp(new_name, "-") ? new_name :
			"standard input", gate, co, &c);
	if (!rc)
		nb_compare_network(base, n, json_object_get(c, "warnings"));
	json_decref(n);
	if (!rc)
		json_array_append_new(comps, c);
	return rc;
}

/* NEW against the history's last runs. */
static int compare_history(struct nb_history *h, const struct opts *o,
			   const char *new_name, struct nb_gate *gate, json_t *comps)
{
	struct nb_history_filter f = {
		.labels = o->labels, .nlabels = o->nlabels,
		.last = o->last ? o->last : NB_COMPARE_LAST,
	};
	json_t *n, *base, *c;
	char name[1024];
	int nruns, rc = nb_result_load(new_name, &n);

	if (rc)
		return rc;
	rc = nb_history_baseline(h, n, &f, &base, &nruns, name, sizeof(name));
	if (!rc) {
		rc = nb_compare(base, name, n, strcmp(new_name, "-") ? new_name :
				"standard input", gate, &o->co, &c);
		if (!rc)
			nb_compare_network(base, n, json_object_get(c, "warnings"));
		json_decref(base);
	}
	json_decref(n);
	if (!rc)
		json_array_append_new(comps, c);
	return rc;
}

/* --noise history: BASE's labels' runs in the history, to measure the
 * noise of BASE against each NEW.  0, or -errno with the message set. */
static int noise_reference(struct opts *o, const json_t *base, json_t **ref,
			   char *name, size_t len)
{
	struct nb_history_filter f = {
		.labels = o->labels, .nlabels = o->nlabels,
		.last = o->last ? o->last : NB_COMPARE_LAST,
	};
	struct nb_history *h;
	char path[4096], what[1024];
	int nruns, rc;

	nb_history_path(path, sizeof(path));
	if (access(path, F_OK))
		return nb_err(-ENOENT, "--noise history: no history at '%s' (record "
			      "runs with 'run --history' or 'nasbench history add')",
			      path);
	if (nb_history_open(NULL, &h))
		return -EINVAL;
	rc = nb_history_baseline(h, base, &f, ref, &nruns, what, sizeof(what));
	nb_history_close(h);
	if (!rc)
		snprintf(name, len, "%s", what);
	return rc;
}

/* With bands: a workload missing in NEW (not allowed) still fails. */
static int missing(const json_t *doc)
{
	const json_t *c, *v;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		json_array_foreach(json_object_get(c, "verdicts"), j, v)
			if (json_is_true(json_object_get(v, "regression")) &&
			    !strcmp(nb_jstr(v, "verdict"), "missing"))
				return 1;
	return 0;
}

/* Settings that differ make the figures meaningless (a usage error);
 * with bands their verdict, else the gate's. */
static int exit_status(const json_t *doc)
{
	if (json_integer_value(json_object_get(doc, "changed_settings"))) {
		nb_die_msg("settings differ between the results (the verdicts "
			   "say which); compare like with like, or --allow-changed");
		return NB_EXIT_USAGE;
	}
	if (json_object_get(doc, "bands"))
		return missing(doc) ? NB_EXIT_FAIL : (int)json_integer_value(
			json_object_get(json_object_get(doc, "bands"), "exit"));
	if (json_integer_value(json_object_get(doc, "regressions")))
		return NB_EXIT_FAIL;
	return json_integer_value(json_object_get(doc, "inconclusive")) ?
	       NB_EXIT_INCONCLUSIVE : NB_EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	struct opts o = { .fmt = F_TEXT, .color = -1 };
	struct nb_gate gate;
	json_t *base = NULL, *comps, *doc, *ref = NULL;
	char noise_name[1024];
	int rc, status, stdin_used = 0;

	nb_compare_opts_init(&o.co);
	if ((rc = parse_args(&o, argc, argv)))
		return rc;
	for (int i = optind; i < argc; i++)
		if (!strcmp(argv[i], "-") && stdin_used++)
			return nb_cmd_usage("standard input ('-') can be read once");
	nb_gate_init(&gate);
	if (o.gate && nb_gate_load(&gate, o.gate))
		return nb_cmd_usage("%s", nb_err_last());
	if (o.max_regress &&
	    nb_gate_parse_threshold(o.max_regress, &gate.max_regress))
		return nb_cmd_usage("--max-regress: expected a percentage like 5%% or "
			     "'off', not '%s'", o.max_regress);
	if (o.display &&
	    (nb_gate_parse_threshold(o.display, &o.co.display) || o.co.display < 0))
		return nb_cmd_usage("--display: expected a percentage like 5%%, not "
				    "'%s'", o.display);
	if (o.bands) {
		if (nb_bands_parse("--bands", o.bands, &gate.bands.def))
			return nb_cmd_usage("%s", nb_err_last());
		gate.bands.on = 1;
	}
	if (o.output && strcmp(o.output, "-") &&
	    (rc = nb_atomic_check(o.output, &compare_out)))
		return nb_cmd_write_error(rc);
	if (o.history) {
		struct nb_history *h;

		if (nb_history_open(NULL, &h))
			return nb_cmd_usage("%s", nb_err_last());
		comps = json_array();
		for (int i = optind; i < argc && !rc; i++)
			rc = compare_history(h, &o, argv[i], &gate, comps);
		nb_history_close(h);
		if (rc) {
			json_decref(comps);
			return nb_cmd_usage("%s", nb_err_last());
		}
		goto judged;
	}
	if (nb_result_load(argv[optind], &base))
		return nb_cmd_usage("%s", nb_err_last());
	if (o.noise_history &&
	    noise_reference(&o, base, &ref, noise_name, sizeof(noise_name))) {
		json_decref(base);
		return nb_cmd_usage("%s", nb_err_last());
	}
	o.co.noise_ref = ref;
	o.co.noise_from = ref ? noise_name : NULL;
	comps = json_array();
	for (int i = optind + 1; i < argc && !rc; i++)
		rc = compare_one(base, strcmp(argv[optind], "-") ? argv[optind] :
				 "standard input", argv[i], &gate, &o.co, comps);
	json_decref(base);
	json_decref(ref);
	if (rc) {
		json_decref(comps);
		return nb_cmd_usage("%s", nb_err_last());
	}
judged:
	doc = nb_compare_doc(comps, &gate, &o.co);
	if (gate.bands.on || gate.bands.nrules)
		nb_bands_compare(doc, &gate.bands);
	nb_gate_warn_unused(&gate);
	if ((rc = emit(&o, doc))) {
		json_decref(doc);
		return nb_cmd_write_error(rc);
	}
	status = exit_status(doc);
	json_decref(doc);
	return status;
}
