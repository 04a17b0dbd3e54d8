/*
 * run.c - 'nasbench run': config -> plan -> targets x workloads x
 * iterations -> result file and table.
 */
#include "cmd.h"
#include "../core/atomic_file.h"
#include "../core/config.h"
#include "../core/datagen.h"
#include "../core/err.h"
#include "../core/progress.h"
#include "../core/result.h"
#include "../core/units.h"
#include "../hw/inventory.h"
#include "../reports/accept.h"
#include "../reports/text.h"
#include "../runners/runner.h"
#include "../workloads/workload.h"
#include "../workloads/io_fio.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char cmd_run_usage[] =
	"usage: nasbench run [BOX.ini] [options]\n"
	"\n"
	"Run workloads against the targets of a box file and/or --target, and\n"
	"write one JSON result (default nasbench-<run-id>.json).\n"
	"\n"
	"  -c, --config FILE      the box file (also the first argument)\n"
	"  -t, --target X         URL, NAME=URL, or the NAME of a configured target;\n"
	"                         repeatable; given, only these targets run\n"
	"  -l, --label K=V        a label of this configuration (repeatable)\n"
	"  -s, --suite NAME       a suite (see 'nasbench list suites')\n"
	"  -w, --workload A,B     workloads instead of a suite (repeatable)\n"
	"  -i, --iterations N     repetitions of each workload (default 3)\n"
	"      --size SIZE        data file / LUN window per workload (default 1G)\n"
	"      --runtime TIME     run each iteration this long (e.g. 30s)\n"
	"      --iodepth N        I/Os in flight\n"
	"      --bs SIZE          bytes per I/O\n"
	"      --sync MODE        none | end | always\n"
	"      --direct yes|no    bypass the client's page cache (default yes)\n"
	"      --set KEY=VALUE    any [suite] key (see 'nasbench help config')\n"
	"      --timeout TIME     per-request timeout of every target (default 10s)\n"
	"      --destroy-data     allow writing over LUNs/devices that hold data\n"
	"      --keep             keep the scratch directories\n"
	"      --engine E         native (default) or fio, for every target\n"
	"      --ioengine E       fio's ioengine: io_uring (default), libaio, psync\n"
	"      --cross-check      run I/O workloads with nasbench and fio; flag\n"
	"                         throughput more than 10% apart\n"
	"      --clients FILE     run I/O workloads on these fio servers at once\n"
	"                         (host[:port] a line; else [clients] in BOX.ini)\n"
	"      --box-hw FILE      the box's inventory ('nasbench hw --json' on it)\n"
	"      --no-space-check   do not refuse when the target reports too little\n"
	"                         free space (quotas, thin provisioning may misreport)\n"
	"      --accept FILE      acceptance criteria (instead of the box file's\n"
	"                         [accept] section; see docs/accept.md)\n"
	"      --junit FILE       the criteria's verdicts as JUnit XML\n"
	"  -o, --output FILE      where the result goes\n"
	"      --json             the result JSON on stdout (no file unless -o)\n"
	"  -n, --dry-run          print the plan, touch nothing\n"
	"  -q, --quiet            no progress, no table\n"
	"\n"
	"Exit status: 0 ok, 1 an acceptance criterion failed, 2 usage or config\n"
	"error, 3 target or I/O error (wins over 1), 130 interrupted (the result\n"
	"keeps what finished, \"complete\": false).\n";

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	static const char msg[] = "\nnasbench: stopping after the current I/O; "
				  "interrupt again to abort at once\n";
	(void)sig;
	if (stop_flag) {
		/* a second interrupt: the user will not wait for cleanup */
		_exit(NB_EXIT_INTR);
	}
	stop_flag = 1;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		return;
}

struct opts {
	struct nb_config cfg;
	const char *config;
	const char *output;
	char *targets[NB_MAX_TARGETS];
	int ntargets;
	int json, quiet, dry_run, destroy, keep, no_space_check;
	const char *timeout;
	const char *engine, *ioengine, *clients_file;
	struct nb_fio_clients clients;
	const char *box_hw;
	json_t *box;
	const char *accept_file, *junit;
	struct nb_accept acc;
	char workloads[1024];
	char command[2048];
};

struct plan {
	const struct nb_workload *wl[64];
	int iters[64];           /* NAME*N in a suite; 0: iterations */
	int nwl;
	int iterations;
	struct nb_params p;
};

enum { O_SIZE = 256, O_RUNTIME, O_IODEPTH, O_BS, O_SYNC, O_DIRECT, O_SET,
       O_TIMEOUT, O_DESTROY, O_KEEP, O_JSON, O_NO_SPACE, O_BOX_HW, O_ACCEPT,
       O_JUNIT, O_ENGINE, O_IOENGINE, O_XCHECK, O_CLIENTS };

static const struct option longopts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "target", required_argument, NULL, 't' },
	{ "label", required_argument, NULL, 'l' },
	{ "suite", required_argument, NULL, 's' },
	{ "workload", required_argument, NULL, 'w' },
	{ "iterations", required_argument, NULL, 'i' },
	{ "size", required_argument, NULL, O_SIZE },
	{ "runtime", required_argument, NULL, O_RUNTIME },
	{ "iodepth", required_argument, NULL, O_IODEPTH },
	{ "bs", required_argument, NULL, O_BS },
	{ "sync", required_argument, NULL, O_SYNC },
	{ "direct", required_argument, NULL, O_DIRECT },
	{ "set", required_argument, NULL, O_SET },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "destroy-data", no_argument, NULL, O_DESTROY },
	{ "keep", no_argument, NULL, O_KEEP },
	{ "engine", required_argument, NULL, O_ENGINE },
	{ "ioengine", required_argument, NULL, O_IOENGINE },
	{ "cross-check", no_argument, NULL, O_XCHECK },
	{ "clients", required_argument, NULL, O_CLIENTS },
	{ "box-hw", required_argument, NULL, O_BOX_HW },
	{ "no-space-check", no_argument, NULL, O_NO_SPACE },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, O_JSON },
	{ "accept", required_argument, NULL, O_ACCEPT },
	{ "junit", required_argument, NULL, O_JUNIT },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "quiet", no_argument, NULL, 'q' },
	{ NULL, 0, NULL, 0 },
};

/* Suite keys set on the command line, applied after the file is read. */
struct override {
	const char *key, *value;
	int label;               /* --label K=V rather than a [suite] key */
	char where[64];
};

static int usage_error(void)
{
	nb_die_msg("%s", nb_err_last());
	return NB_EXIT_USAGE;
}

static void add_workloads(struct opts *o, const char *list)
{
	size_t len = strlen(o->workloads);

	snprintf(o->workloads + len, sizeof(o->workloads) - len, "%s%s",
		 len ? "," : "", list);
}

static int parse_args(struct opts *o, int argc, char **argv,
		      struct override *ov, int *nov)
{
	int c;

	*nov = 0;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:t:l:s:w:i:o:nq", longopts,
				NULL)) != -1) {
		const char *key = NULL;
		char *eq;

		switch (c) {
		case 'c': o->config = optarg; break;
		case 't':
			if (o->ntargets == NB_MAX_TARGETS)
				return nb_err_set("--target: at most %d targets",
						  NB_MAX_TARGETS), -EINVAL;
			o->targets[o->ntargets++] = optarg;
			break;
		case 'l':
			eq = strchr(optarg, '=');
			if (!eq || eq == optarg)
				return nb_err_set("--label: expected KEY=VALUE, not "
						  "'%s'", optarg), -EINVAL;
			*eq = '\0';
			if (*nov >= 64)
				return nb_err_set("too many options"), -EINVAL;
			ov[*nov].key = optarg;
			ov[*nov].value = eq + 1;
			ov[*nov].label = 1;
			snprintf(ov[*nov].where, sizeof(ov[*nov].where), "--label");
			(*nov)++;
			break;
		case 's': key = "suite"; break;
		case 'w': add_workloads(o, optarg); break;
		case 'i': key = "iterations"; break;
		case O_SIZE: key = "size"; break;
		case O_RUNTIME: key = "runtime"; break;
		case O_IODEPTH: key = "iodepth"; break;
		case O_BS: key = "bs"; break;
		case O_SYNC: key = "sync"; break;
		case O_DIRECT: key = "direct"; break;
		case O_SET:
			eq = strchr(optarg, '=');
			if (!eq || eq == optarg)
				return nb_err_set("--set: expected KEY=VALUE, not '%s'",
						  optarg), -EINVAL;
			*eq = '\0';
			if (*nov >= 64)
				return nb_err_set("too many options"), -EINVAL;
			ov[*nov].key = optarg;
			ov[*nov].value = eq + 1;
			ov[*nov].label = 0;
			snprintf(ov[*nov].where, sizeof(ov[*nov].where), "--set %s",
				 optarg);
			(*nov)++;
			break;
		case O_TIMEOUT: o->timeout = optarg; break;
		case O_DESTROY: o->destroy = 1; break;
		case O_KEEP: o->keep = 1; break;
		case O_ENGINE: o->engine = optarg; break;
		case O_IOENGINE: o->ioengine = optarg; break;
		case O_CLIENTS: o->clients_file = optarg; break;
		case O_XCHECK: key = "cross-check"; optarg = "yes"; break;
		case O_BOX_HW: o->box_hw = optarg; break;
		case O_NO_SPACE: o->no_space_check = 1; break;
		case 'o': o->output = optarg; break;
		case O_JSON: o->json = 1; break;
		case O_ACCEPT: o->accept_file = optarg; break;
		case O_JUNIT: o->junit = optarg; break;
		case 'n': o->dry_run = 1; break;
		case 'q': o->quiet = 1; break;
		case ':':
			return nb_err_set("option '%s' needs a value",
					  argv[optind - 1]), -EINVAL;
		default:
			return nb_err_set("unknown option '%s' (see 'nasbench help "
					  "run')", argv[optind - 1]), -EINVAL;
		}
		if (key) {
			if (*nov >= 64)
				return nb_err_set("too many options"), -EINVAL;
			ov[*nov].key = key;
			ov[*nov].value = optarg;
			ov[*nov].label = 0;
			snprintf(ov[*nov].where, sizeof(ov[*nov].where), "--%s",
				 c == 's' ? "suite" : c == 'i' ? "iterations" : key);
			(*nov)++;
		}
	}
	if (optind < argc && !o->config)
		o->config = argv[optind++];
	if (optind < argc)
		return nb_err_set("unexpected argument '%s'", argv[optind]), -EINVAL;
	return 0;
}

/* Keep only the targets named with --target, adding URLs as new ones. */
static int select_targets(struct opts *o)
{
	struct nb_config *c = &o->cfg;
	struct nb_target_cfg keep[NB_MAX_TARGETS];
	int nkeep = 0;

	if (!o->ntargets)
		return 0;
	for (int i = 0; i < o->ntargets; i++) {
		struct nb_target_cfg *t = nb_config_target(c, o->targets[i]);

		if (!t) {
			if (!strstr(o->targets[i], "://") && !strchr(o->targets[i], '/') &&
			    !strchr(o->targets[i], '='))
				return nb_err_set("--target: no target '%s' in %s, and "
						  "it is not a URL or path",
						  o->targets[i],
						  o->config ? o->config : "the "
						  "command line"), -EINVAL;
			if (nb_config_add_target(c, o->targets[i]))
				return -EINVAL;
			t = &c->targets[c->ntargets - 1];
		}
		keep[nkeep++] = *t;
	}
	memcpy(c->targets, keep, sizeof(keep[0]) * (size_t)nkeep);
	c->ntargets = nkeep;
	return 0;
}

static int finish_targets(struct opts *o, const char *run_id)
{
	struct nb_config *c = &o->cfg;
	uint64_t timeout = 0;

	if (o->timeout && nb_parse_duration_us(o->timeout, &timeout))
		return nb_err_prefix("--timeout"), -EINVAL;
	if (!c->ntargets)
		return nb_err_set("no target: give --target URL or a box file with "
				  "a [target NAME] section"), -EINVAL;
	for (int i = 0; i < c->ntargets; i++) {
		struct nb_target_cfg *t = &c->targets[i];

		if (!t->url[0])
			return nb_err_set("%s: target '%s' has no url",
					  c->path[0] ? c->path : "config", t->name),
			       -EINVAL;
		if (timeout)
			t->timeout_us = timeout;
		t->destroy_data |= o->destroy;
		t->keep |= o->keep;
		t->run_id = run_id;
		if (nb_fio_target_setup(t, o->engine, o->ioengine, &o->clients))
			return -EINVAL;
	}
	return 0;
}

/* Workload names from --workload, [suite] workloads, or the suite. */
static int make_plan(struct opts *o, struct plan *pl)
{
	struct nb_suite_cfg *sc = &o->cfg.suite;
	const struct nb_suite *suite = NULL;
	char list[1024], *save = NULL, *name;

	if (sc->suite[0]) {
		suite = nb_suite_find(sc->suite);
		if (!suite)
			return nb_err_set("unknown suite '%s' (see 'nasbench list "
					  "suites')", sc->suite), -EINVAL;
	}
	snprintf(list, sizeof(list), "%s",
		 o->workloads[0] ? o->workloads :
		 sc->workloads[0] && !suite ? sc->workloads :
		 suite ? suite->workloads : "seq512k-write,seq512k-read,"
					    "rand4k-write,rand4k-read");
	memset(pl->iters, 0, sizeof(pl->iters));
	pl->nwl = 0;
	for (name = strtok_r(list, ", ", &save); name;
	     name = strtok_r(NULL, ", ", &save)) {
		const struct nb_workload *w;
		char wname[64];
		int its;

		if (nb_plan_item(name, wname, sizeof(wname), &its))
			return -EINVAL;
		name = wname;
		w = nb_workload_find(name);

		if (!w)
			return nb_err_set("unknown workload '%s' (see 'nasbench list "
					  "workloads')", name), -EINVAL;
		if (pl->nwl == 64)
			return nb_err_set("too many workloads"), -EINVAL;
		/* --iterations (or [suite] iterations) overrides NAME*N */
		pl->iters[pl->nwl] = sc->iterations ? 0 : its;
		pl->wl[pl->nwl++] = w;
	}
	/* suite accept also runs what the criteria name */
	if (suite && !strcmp(suite->name, "accept") && !o->workloads[0])
		for (int i = 0; i < o->acc.n; i++) {
			const struct nb_workload *w =
				nb_workload_find(o->acc.c[i].workload);
			int have = 0;

			for (int k = 0; k < pl->nwl; k++)
				have |= pl->wl[k] == w;
			if (!have && pl->nwl < 64) {
				pl->iters[pl->nwl] = 0;
				pl->wl[pl->nwl++] = w;
			}
		}
	pl->p = sc->p;
	if (suite) {
		const struct nb_params *d = &suite->defaults;

		/* the suite's sizes apply where the user set none */
		if (!pl->p.size) pl->p.size = d->size;
		if (!pl->p.runtime_us) pl->p.runtime_us = d->runtime_us;
		if (!pl->p.iodepth) pl->p.iodepth = d->iodepth;
		if (!pl->p.bs) pl->p.bs = d->bs;
		if (!pl->p.files) pl->p.files = d->files;
		if (pl->p.direct < 0) pl->p.direct = d->direct;
		if (pl->p.sync < 0) pl->p.sync = d->sync;
		if (pl->p.verify < 0) pl->p.verify = d->verify;
		if (pl->p.preset < 0) pl->p.preset = d->preset;
		if (pl->p.fast < 0) pl->p.fast = d->fast;
	}
	pl->iterations = sc->iterations ? (int)sc->iterations :
			 suite && suite->iterations ? suite->iterations : 3;
	return 0;
}

static int plan_iters(const struct plan *pl, int w)
{
	return pl->iters[w] ? pl->iters[w] : pl->iterations;
}

static void print_plan(FILE *out, const struct opts *o, const struct plan *pl)
{
	uint64_t space = 0, written = 0;
	double secs = 0;
	char sz[32], wr[32], dur[32];
	int uniform = 1;

	for (int w = 0; w < pl->nwl; w++)
		uniform &= plan_iters(pl, w) == plan_iters(pl, 0);
	fprintf(out, "plan: %d target(s) x %d workload(s) x ", o->cfg.ntargets,
		pl->nwl);
	if (uniform && pl->nwl)
		fprintf(out, "%d iteration(s)\n", plan_iters(pl, 0));
	else
		fprintf(out, "the iterations listed\n");
	for (int i = 0; i < o->cfg.ntargets; i++) {
		char red[1100];

		fprintf(out, "  target %-12s %s\n", o->cfg.targets[i].name,
			nb_url_redact(o->cfg.targets[i].url, red, sizeof(red)));
	}
	fprintf(out, "  %-20s %5s %12s %12s %10s\n", "workload", "iter",
		"space", "writes", "time");
	for (int w = 0; w < pl->nwl; w++) {
		const struct nb_workload *wl = pl->wl[w];
		uint64_t b = wl->plan_bytes ? wl->plan_bytes(wl, &pl->p) : 0;
		int its = plan_iters(pl, w);
		struct nb_plan_est e;

		nb_plan_estimate(wl, &pl->p, &e);
		space = b > space ? b : space;
		written += e.written * (uint64_t)its;
		secs += e.seconds * its;
		fprintf(out, "  %-20s %5d %12s %12s %10s\n", wl->name, its,
			nb_fmt_size(b, sz, sizeof(sz)),
			nb_fmt_size(e.written * (uint64_t)its, wr, sizeof(wr)),
			nb_plan_fmt_secs(e.seconds * its, dur, sizeof(dur)));
	}
	fprintf(out, "  per target: space %s, writes %s, time %s (at ~%.0f MB/s, "
		"xz ~%.0f MB/s)\n", nb_fmt_size(space, sz, sizeof(sz)),
		nb_fmt_size(written, wr, sizeof(wr)),
		nb_plan_fmt_secs(secs, dur, sizeof(dur)), NB_PLAN_RATE / 1e6,
		NB_PLAN_XZ_RATE / 1e6);
	if (o->cfg.ntargets > 1)
		fprintf(out, "  all %d targets: writes %s, time %s\n",
			o->cfg.ntargets,
			nb_fmt_size(written * (uint64_t)o->cfg.ntargets, wr,
				    sizeof(wr)),
			nb_plan_fmt_secs(secs * o->cfg.ntargets, dur, sizeof(dur)));
}

struct exec {
	struct opts *o;
	struct plan *pl;
	json_t *doc;
	struct nb_progress progress;
	const char *run_id;
	int exit_code;
};

static void fail(struct exec *x, int code, const char *msg)
{
	nb_die_msg("%s", msg);
	if (code > x->exit_code || x->exit_code == NB_EXIT_OK)
		x->exit_code = code;
}

static int space_check(struct exec *x, struct nb_target *t)
{
	uint64_t need = 0, avail;
	char a[32], b[32];

	for (int w = 0; w < x->pl->nwl; w++) {
		uint64_t n = x->pl->wl[w]->plan_bytes ?
			     x->pl->wl[w]->plan_bytes(x->pl->wl[w], &x->pl->p) : 0;

		need = n > need ? n : need;
	}
	if (t->ops->space(t, &avail))
		return -EIO;
	if (need <= avail)
		return 0;
	/* I/O workloads use all of a LUN smaller than their default size */
	if ((t->caps & NB_CAP_BLOCK) && !x->pl->p.size)
		return 0;
	if (t->caps & NB_CAP_BLOCK)
		return nb_err(-ENOSPC, "target '%s' has %s (the LUN, device or its "
			      "window), fewer than the size %s asked for: lower "
			      "--size", t->cfg->name, nb_fmt_size(avail, a, sizeof(a)),
			      nb_fmt_size(need, b, sizeof(b)));
	return nb_err_set("target '%s' has %s free, but the workloads need %s: "
			  "lower the size (--size)", t->cfg->name,
			  nb_fmt_size(avail, a, sizeof(a)),
			  nb_fmt_size(need, b, sizeof(b))), -ENOSPC;
}

/* Run every iteration of one workload; returns 0, -EINTR, or -errno. */
static int run_workload(struct exec *x, struct nb_target *t,
			const struct nb_workload *w, int widx)
{
	json_t *entry = nb_result_add(x->doc, t->cfg->name, w->name);
	char why[256];
	const char *skip = nb_workload_unsupported(w, t, why, sizeof(why));
	int iterations = plan_iters(x->pl, widx), rc = 0;

	if (skip) {
		nb_result_set_status(entry, "skipped", skip);
		return 0;
	}
	for (int it = 1; it <= iterations; it++) {
		struct nb_wl_ctx c = {
			.t = t, .wl = w, .p = &x->pl->p, .run_id = x->run_id,
			.seed = nb_fnv1a(x->run_id, strlen(x->run_id), 0) +
				(uint64_t)widx * 1000003 + (uint64_t)it,
			.iteration = it, .iterations = iterations,
			.stop = &stop_flag, .progress = &x->progress,
			.metrics = json_object(), .extra = json_object(),
			.entry = entry,
			.labels = json_object_get(x->doc, "labels"),
		};

		nb_err_clear();
		rc = w->run(&c);
		if (c.spec)
			json_object_set_new(entry, "spec", c.spec);
		if (rc) {
			/* figures of a partly failed iteration (the fio clients
			 * that finished) are kept when the workload says so */
			if (json_is_true(json_object_get(c.extra, "partial")))
				nb_result_iteration(entry, c.metrics, c.extra);
			else {
				json_decref(c.metrics);
				json_decref(c.extra);
			}
			break;
		}
		nb_result_iteration(entry, c.metrics, c.extra);
	}
	if (rc == -EINTR || (rc == 0 && stop_flag))
		nb_result_set_status(entry, "interrupted",
				     "stopped by a signal; finished iterations kept");
	else if (rc)
		nb_result_set_status(entry, "failed", nb_err_last());
	return stop_flag ? -EINTR : rc;
}

static void run_target(struct exec *x, struct nb_target_cfg *tc)
{
	struct nb_target t;
	json_t *tj = json_pack("{s:s, s:s}", "name", tc->name, "url", "");
	int rc;

	json_array_append_new(json_object_get(x->doc, "targets"), tj);
	rc = nb_target_open(&t, tc);
	json_object_set_new(tj, "url", json_string(t.desc));
	if (t.ops) {
		json_t *caps = json_array();

		for (int i = 0; nb_cap_name(t.ops->caps, i); i++)
			json_array_append_new(caps, json_string(nb_cap_name(t.ops->caps, i)));
		json_object_set_new(tj, "runner", json_string(t.ops->name));
		json_object_set_new(tj, "runner_caps", caps);
	}
	if (!rc && !x->o->no_space_check)
		rc = space_check(x, &t);
	if (rc) {
		json_object_set_new(tj, "error", json_string(nb_err_last()));
		fail(x, rc == -EINVAL ? NB_EXIT_USAGE : NB_EXIT_TARGET, nb_err_last());
		nb_target_close(&t);
		return;
	}
	for (int w = 0; w < x->pl->nwl && !stop_flag; w++) {
		rc = run_workload(x, &t, x->pl->wl[w], w);
		if (rc == -EINTR)
			break;
		if (rc) {
			fail(x, rc == -EINVAL ? NB_EXIT_USAGE : NB_EXIT_TARGET,
			     nb_err_last());
			/* a lost or failing target would fail the rest slowly */
			for (w++; w < x->pl->nwl; w++)
				nb_result_set_status(
					nb_result_add(x->doc, tc->name,
						      x->pl->wl[w]->name),
					"skipped", "an earlier workload on this "
					"target failed");
			break;
		}
	}
	nb_target_close(&t);
}

static void add_labels(json_t *doc, const struct nb_config *c)
{
	json_t *labels = json_object_get(doc, "labels");

	for (int i = 0; i < c->nlabels; i++)
		json_object_set_new(labels, c->labels[i].key,
				    json_string(c->labels[i].value));
}

static int output_result(struct exec *x, const char *path)
{
	char *s;

	if (path && nb_result_write(x->doc, path)) {
		nb_die_msg("%s", nb_err_last());
		return -EIO;
	}
	if (x->o->json) {
		s = nb_result_dump(x->doc);
		if (s)
			puts(s);
		free(s);
	}
	if (!x->o->quiet) {
		nb_report_text(x->o->json ? stderr : stdout, x->doc);
		if (path)
			fprintf(x->o->json ? stderr : stdout, "result: %s\n", path);
	}
	return 0;
}

static int execute(struct opts *o, struct plan *pl)
{
	char run_id[64], outbuf[128];
	const char *out = o->output;
	struct exec x = { .o = o, .pl = pl };
	struct sigaction sa = { .sa_handler = on_signal };
	int accept_code;

	nb_result_run_id(run_id, sizeof(run_id), NULL);
	x.run_id = run_id;
	if (!out && !o->json) {
		snprintf(outbuf, sizeof(outbuf), "nasbench-%s.json", run_id);
		out = outbuf;
	}
	if ((out && nb_atomic_check(out)) || (o->junit && nb_atomic_check(o->junit)))
		return usage_error();
	if (finish_targets(o, run_id))
		return usage_error();
	x.doc = nb_result_new(run_id, o->command);
	add_labels(x.doc, &o->cfg);
	nb_hw_embed(x.doc, &o->cfg, o->box);
	o->box = NULL;
	nb_progress_init(&x.progress, o->json ? stderr : stdout, o->quiet);
	if (o->clients.n && !o->quiet)
		nb_fio_clients_print(o->json ? stderr : stdout, &o->clients);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (int i = 0; i < o->cfg.ntargets && !stop_flag; i++)
		run_target(&x, &o->cfg.targets[i]);
	nb_result_finish(x.doc, !stop_flag);
	accept_code = nb_accept_finish(&o->acc, x.doc,
				       !strcmp(o->cfg.suite.suite, "accept"));
	if (!json_array_size(json_object_get(x.doc, "results"))) {
		/* nothing ran: keep whatever result file was there */
		nb_die_msg("no workload ran; no result written");
	} else if (output_result(&x, out) && x.exit_code == NB_EXIT_OK) {
		x.exit_code = NB_EXIT_TARGET;
	}
	if (nb_accept_report(x.doc, o->quiet ? NULL : o->json ? stderr : stdout,
			     o->junit) && x.exit_code == NB_EXIT_OK)
		x.exit_code = NB_EXIT_TARGET;
	if (x.exit_code == NB_EXIT_OK)
		x.exit_code = accept_code;
	json_decref(x.doc);
	if (stop_flag) {
		nb_die_msg("interrupted: the result keeps what finished");
		return NB_EXIT_INTR;
	}
	return x.exit_code;
}

int cmd_run(int argc, char **argv)
{
	struct opts *o = calloc(1, sizeof(*o));
	struct override ov[64];
	struct plan pl;
	int nov, rc;

	if (!o)
		return NB_EXIT_TARGET;
	nb_config_init(&o->cfg);
	nb_result_command(o->command, sizeof(o->command), argc, argv);
	if (parse_args(o, argc, argv, ov, &nov)) {
		rc = usage_error();
		goto out;
	}
	nb_quiet = o->quiet;
	if (o->config && nb_config_load(&o->cfg, o->config)) {
		rc = usage_error();
		goto out;
	}
	/* the command line overrides the file */
	for (int i = 0; i < nov; i++)
		if (ov[i].label ? nb_config_label(&o->cfg, ov[i].key, ov[i].value,
						  ov[i].where)
				: nb_config_set(&o->cfg, "suite", ov[i].key,
						ov[i].value, ov[i].where)) {
			rc = usage_error();
			goto out;
		}
	if ((o->box_hw && nb_hw_load(o->box_hw, &o->box) &&
	     nb_err_prefix("--box-hw")) ||
	    nb_accept_setup(&o->acc, &o->cfg, o->accept_file) ||
	    nb_fio_clients_setup(&o->clients, &o->cfg, o->clients_file) ||
	    select_targets(o) || nb_accept_check(&o->acc, &o->cfg) ||
	    make_plan(o, &pl)) {
		rc = usage_error();
		goto out;
	}
	if (o->dry_run) {
		if (finish_targets(o, "dry-run")) {
			rc = usage_error();
			goto out;
		}
		print_plan(stdout, o, &pl);
		if (o->clients.n)
			nb_fio_clients_print(stdout, &o->clients);
		rc = NB_EXIT_OK;
		goto out;
	}
	rc = execute(o, &pl);
out:
	json_decref(o->box);
	nb_accept_free(&o->acc);
	nb_config_free(&o->cfg);
	free(o);
	return rc;
}
