/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - 'nasbench run': options, signals and output around the run
 * pipeline (run/runplan.c makes the plan, run/exec.c carries it out).
 *
 * The knobs (--size, --timeout, ...) are knob rows (cmd/knobs.c): their
 * options and usage lines come from there; the options below are run's own.
 */
#include "cmd.h"
#include "opts.h"
#include "../core/atomic_file.h"
#include "../core/config.h"
#include "../core/err.h"
#include "../core/knobs.h"
#include "../core/result.h"
#include "../hw/inventory.h"
#include "../accept/accept.h"
#include "../history/history.h"
#include "../formats/text.h"
#include "../workloads/crash/crashrun.h"
#include "../run/exec.h"
#include "../workloads/fiodrv/fio_driver.h"
#include "../workloads/fiodrv/fio_driver_clients.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { O_SET = 256, O_JSON, O_NO_SPACE, O_BOX_HW, O_ACCEPT, O_JUNIT, O_CLIENTS,
       O_STATUS, O_HISTORY, O_VERIFY, O_JOURNAL };

/* Run's own options and the knobs', in the order of the usage text. */
static const struct nb_opt run_opts[] = {
	{ NULL, 0, NULL, 0, "What to run:" },
	{ "config", 'c', "FILE", 'c', "the box file (also the first argument)" },
	{ "target", 't', "X", 't', "URL, NAME=URL, or the NAME of a configured "
	  "target; repeatable; given, only these targets run" },
	{ "label", 'l', "K=V", 'l', "a label of this configuration (repeatable)" },
	{ "workload", 'w', "A,B", 'w', "workloads instead of a suite (repeatable)" },
	{ NULL, 0, "suite", 0, NULL },
	{ "journal", 0, "FILE", O_JOURNAL, "crashcheck's journal (default: the "
	  "result's name, .journal)" },
	{ "verify", 0, "JOURNAL", O_VERIFY, "crashcheck: only read back what "
	  "JOURNAL holds, on its target" },
	{ "set", 0, "KEY=VALUE", O_SET, "any [suite] key (see 'nasbench help "
	  "config')" },
	{ NULL, 0, "capacity", 0, NULL }, { NULL, 0, "vm", 0, NULL },
	{ NULL, 0, "failure", 0, NULL }, { NULL, 0, "replay", 0, NULL },
	{ NULL, 0, NULL, 0, "Every target of the run:" },
	{ NULL, 0, "target", 0, NULL },
	{ "clients", 0, "FILE", O_CLIENTS, "run I/O workloads on these fio "
	  "servers at once (host[:port] a line; else [clients] in BOX.ini)" },
	{ "box-hw", 0, "FILE", O_BOX_HW, "the box's inventory ('nasbench hw "
	  "--json' on it)" },
	{ "no-space-check", 0, NULL, O_NO_SPACE, "do not refuse when the target "
	  "reports too little free space (quotas, thin provisioning may "
	  "misreport)" },
	{ NULL, 0, NULL, 0, "What the box did (docs/telemetry.md):" },
	{ NULL, 0, "box", 0, NULL },
	{ NULL, 0, NULL, 0, "Acceptance and output:" },
	{ "accept", 0, "FILE", O_ACCEPT, "acceptance criteria (instead of the box "
	  "file's [accept] section; see docs/accept.md)" },
	{ "junit", 0, "FILE", O_JUNIT, "the criteria's verdicts as JUnit XML" },
	{ "output", 'o', "FILE", 'o', "where the result goes ('-': stdout, as --json)" },
	{ "json", 0, NULL, O_JSON, "the result JSON on stdout (no file unless -o); "
	  "with --dry-run, the plan as JSON" },
	{ "history", 0, NULL, O_HISTORY, "record the result in the history "
	  "($NASBENCH_DB, else ~/.local/share/nasbench/history.db; [box] "
	  "history = yes)" },
	{ "dry-run", 'n', NULL, 'n', "print the plan, touch nothing" },
	{ "quiet", 'q', NULL, 'q', "no progress, no table" },
	{ "status-interval", 0, "SECONDS", O_STATUS, "off a terminal, a progress "
	  "line this often (default 10; on standard error, as all progress)" },
};

const struct nb_usage cmd_run_usage = {
	.head = "usage: nasbench run [BOX.ini] [options]\n\n"
		"Run workloads against the targets of a box file and/or --target, and\n"
		"write one JSON result (default nasbench-<run-id>.json).\n",
	.opts = run_opts, .n = NB_OPTS_N(run_opts),
	.tail = "\nExit status: 0 ok, 1 an acceptance criterion failed or no step of a\n"
		"sweep met the objective, 2 usage or config error (also: -o or --junit\n"
		"names a file that is not a nasbench result or JUnit file: it is never\n"
		"replaced), 3 target or I/O error or the result cannot be written\n"
		"(wins over 1: the table is printed anyway and the result saved in\n"
		"$TMPDIR, /tmp or here, the message says where), 130 interrupted\n"
		"(the result keeps what finished, \"complete\": false).\n",
};

struct opts {
	struct nb_config cfg;
	const char *config, *output, *clients_file, *box_hw, *accept_file, *junit;
	char *targets[NB_MAX_TARGETS + 1];
	int ntargets, json, quiet, dry_run, no_space_check, history;
	uint64_t status_ns;
	struct nb_fio_clients clients;
	json_t *box;
	struct nb_accept acc;
	struct nb_crash_opts crash;
	char workloads[1024];
	char command[2048];
};

static int on_option(int c, const struct nb_knob *k, char *arg, void *payload)
{
	struct opts *o = payload;
	size_t len = strlen(o->workloads);

	if (k)
		return nb_config_override_knob(&o->cfg, k, arg);
	switch (c) {
	case 'c': o->config = arg; return 0;
	case 't':
		if (o->ntargets == NB_MAX_TARGETS)
			return nb_err(-EINVAL, "--target: at most %d targets",
				      NB_MAX_TARGETS);
		o->targets[o->ntargets++] = arg;
		return 0;
	case 'l':
		return nb_config_override_pair(&o->cfg, "label", "--label", arg);
	case 'w':
		snprintf(o->workloads + len, sizeof(o->workloads) - len, "%s%s",
			 len ? "," : "", arg);
		return 0;
	case O_SET:
		return nb_config_override_pair(&o->cfg, "suite", "--set", arg);
	case O_CLIENTS: o->clients_file = arg; return 0;
	case O_BOX_HW: o->box_hw = arg; return 0;
	case O_NO_SPACE: o->no_space_check = 1; return 0;
	case O_ACCEPT: o->accept_file = arg; return 0;
	case O_JUNIT: o->junit = arg; return 0;
	case O_VERIFY: o->crash.verify = arg; return 0;
	case O_JOURNAL: o->crash.journal = arg; return 0;
	case 'o':                /* -o -: the JSON on stdout, as --json */
		o->json |= !strcmp(arg, "-");
		o->output = strcmp(arg, "-") ? arg : NULL;
		return 0;
	case O_JSON: o->json = 1; return 0;
	case O_HISTORY: o->history = 1; return 0;
	case 'n': o->dry_run = 1; return 0;
	case O_STATUS: return nb_opts_seconds("--status-interval", arg, 0.1, &o->status_ns);
	default: o->quiet = 1; return 0;   /* 'q' */
	}
}

static int parse_args(struct opts *o, int argc, char **argv)
{
	int i;

	if (nb_opts_parse("run", argc, argv, run_opts, NB_OPTS_N(run_opts),
			  on_option, o))
		return -EINVAL;
	i = optind;
	if (i < argc && !o->config)
		o->config = argv[i++];
	if (i < argc)
		return nb_err(-EINVAL, "unexpected argument '%s'", argv[i]);
	return 0;
}

/* Config, overrides, criteria, clients, targets and the plan: 0 or -EINVAL. */
static int prepare(struct opts *o, struct nb_runplan *pl, const char *run_id)
{
	const char *names[64];
	int n;

	if ((o->config && nb_config_load(&o->cfg, o->config)) ||
	    nb_config_apply(&o->cfg, 0) ||
	    nb_crash_setup(&o->crash, &o->cfg, o->workloads, o->targets,
			       &o->ntargets) ||
	    (o->box_hw && nb_hw_load(o->box_hw, &o->box) &&
	     nb_err_prefix("--box-hw")) ||
	    nb_accept_setup(&o->acc, &o->cfg, o->accept_file) ||
	    nb_wl_fio_clients_setup(&o->clients, &o->cfg, o->clients_file) ||
	    nb_config_select_targets(&o->cfg, o->targets, o->ntargets) ||
	    nb_config_apply(&o->cfg, 1) || nb_accept_check(&o->acc, &o->cfg))
		return -EINVAL;
	n = nb_accept_workloads(&o->acc, names, 64);
	if (nb_crash_targets(&o->crash, &o->cfg, o->output, run_id) ||
	    nb_runplan_make(pl, &o->cfg, o->workloads, names, n) ||
	    nb_config_check_targets(&o->cfg))
		return -EINVAL;
	for (int i = 0; i < o->cfg.ntargets; i++) {
		o->cfg.targets[i].run_id = o->crash.verify ? o->crash.run_id : run_id;
		if (nb_wl_fio_target_setup(&o->cfg.targets[i], NULL, NULL, &o->clients))
			return -EINVAL;
	}
	return 0;
}

/* The result into PATH and/or on standard output (--json), the table
 * whatever became of them, then what could not go where it was asked
 * saved elsewhere and said (nb_cmd_put_result), and the history told,
 * which takes the figures wherever they went.  An exit status. */
static int output_result(struct opts *o, json_t *doc, const char *path,
			 int interrupted, FILE *tty)
{
	struct nb_cmd_put put = { .doc = doc, .path = path, .json = o->json };
	int bad = nb_cmd_put_result(&put), hist = 0;

	if (!o->quiet) {
		nb_text_result(tty, doc);
		if (path && !bad)
			fprintf(tty, "result: %s\n", path);
		fflush(tty);
	}
	bad = nb_cmd_put_finish(&put) ? NB_EXIT_TARGET : 0;
	if ((o->history || o->cfg.history) && interrupted)
		nb_warn("interrupted: the partial result is not recorded in the history");
	else if (o->history || o->cfg.history)
		hist = nb_history_record(doc, put.where[0] ? put.where : NULL,
					 o->quiet, tty);
	return bad ? bad : hist;
}

static int execute(struct opts *o, struct nb_runplan *pl, const char *run_id)
{
	char outbuf[128];
	const char *out = o->output;
	FILE *tty = o->json ? stderr : stdout;
	struct nb_progress progress;
	struct nb_exec x = { .pl = pl, .cfg = &o->cfg, .run_id = run_id,
			     .stop = &nb_cmd_stop, .progress = &progress,
			     .no_space_check = o->no_space_check,
			     .crash = &o->crash };
	int accept_code, rc, interrupted;

	if (!out && !o->json) {
		snprintf(outbuf, sizeof(outbuf), "nasbench-%s.json", run_id);
		out = outbuf;
	}
	if ((out && (rc = nb_atomic_check(out, &nb_result_out))) ||
	    (o->junit && (rc = nb_atomic_check(o->junit, &nb_accept_junit_out))))
		return nb_cmd_write_error(rc);
	x.doc = nb_exec_doc_new(&o->cfg, run_id, o->command);
	nb_hw_embed(x.doc, &o->cfg, o->box);
	o->box = NULL;
	if (!o->quiet)
		nb_runplan_headline(tty, pl, &o->cfg);
	nb_progress_init(&progress, stderr, o->quiet);
	if (o->status_ns)
		progress.every_ns = o->status_ns;
	if (!o->quiet)
		nb_wl_fio_clients_print(tty, &o->clients);
	nb_cmd_catch_signals();
	nb_run(&x);
	interrupted = nb_cmd_stop; /* once: a late ^C is not exit 130 of a complete result */
	nb_result_finish(x.doc, !interrupted);
	accept_code = nb_accept_finish(&o->acc, x.doc,
				       !strcmp(o->cfg.suite.suite, "accept"));
	if (!json_array_size(json_object_get(x.doc, "results")))
		nb_die_msg("no workload ran; no result written"); /* keep the old file */
	else if ((rc = output_result(o, x.doc, out, interrupted, tty)) &&
		 x.exit_code <= NB_EXIT_FAIL)
		x.exit_code = rc;
	if (nb_accept_report(x.doc, o->quiet ? NULL : tty, o->junit) &&
	    x.exit_code == NB_EXIT_OK)
		x.exit_code = NB_EXIT_TARGET;
	if (x.exit_code == NB_EXIT_OK)
		x.exit_code = accept_code;
	if (!interrupted)
		nb_exec_unmeasured(&x);
	json_decref(x.doc);
	if (interrupted) {
		nb_die_msg("interrupted: the result keeps what finished");
		return NB_EXIT_INTR;
	}
	return x.exit_code;
}

int cmd_run(int argc, char **argv)
{
	struct opts *o = calloc(1, sizeof(*o));
	struct nb_runplan pl;
	char run_id[64];
	int rc;

	if (!o)
		return NB_EXIT_TARGET;
	nb_config_init(&o->cfg);
	nb_result_command(o->command, sizeof(o->command), argc, argv);
	nb_result_run_id(run_id, sizeof(run_id), NULL);
	if (parse_args(o, argc, argv)) {
		rc = nb_cmd_usage("%s", nb_err_last());
		goto out;
	}
	nb_quiet = o->quiet;
	if (prepare(o, &pl, o->dry_run ? "dry-run" : run_id)) {
		rc = nb_cmd_usage("%s", nb_err_last());
	} else if (o->dry_run && o->json) {
		rc = nb_cmd_print_json(nb_runplan_json(&pl, &o->cfg));
	} else if (o->dry_run) {
		nb_runplan_print(stdout, &pl, &o->cfg);
		nb_wl_fio_clients_print(stdout, &o->clients);
		rc = NB_EXIT_OK;
	} else {
		rc = execute(o, &pl, run_id);
	}
out:
	json_decref(o->box);
	nb_accept_free(&o->acc);
	nb_config_free(&o->cfg);
	free(o);
	return rc;
}
