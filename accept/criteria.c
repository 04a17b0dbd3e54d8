/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * criteria.c - the criteria language: parse one line, load the [accept]
 * section of a box file or a criteria file (FILE:LINE errors through
 * core/lines), check the targets criteria name, 'nasbench help accept'.
 *
 * Which statistic: a figure (throughput, IOPS, latency) is judged by the
 * median of the iterations, the same number the run table and compare
 * show, so one noisy iteration neither passes nor fails a box on its own.
 * A verdict or an error count (durable, corrupt/misplaced/stale blocks,
 * failed conformance tests) is judged by its worst iteration: one
 * corrupted block in one iteration is a failure, not noise.  ':STAT'
 * overrides either.
 */
#include "criteria.h"
#include "failure_crit.h"
#include "../core/err.h"
#include "../core/knobs.h"
#include "../core/lines.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/suggest.h"
#include "../workloads/workload.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Metrics judged by their worst iteration unless told otherwise. */
static const char *const verdict_metrics[] = {
	"durable", "corrupt_blocks", "misplaced_blocks", "stale_blocks",
	"conform_failed", "steady", "box_swapped_bytes", "crash_lost",
	"crash_missing", "crash_stale", "crash_torn", "crash_lost_durable",
	"crash_lost_flushed", "crash_observed", NULL,
};

/* Names offered in "did you mean" (aliases first). */
static const char *const user_names[] = {
	"mb_s", "mib_s", "bw", "iops", "p50_us", "p90_us", "p99_us",
	"p99.9_us", "max_us", "mean_us", "p99_ms", "durable", "steady",
	"max_swap_used",
};

static int is_verdict(const char *stored)
{
	for (int i = 0; verdict_metrics[i]; i++)
		if (!strcmp(verdict_metrics[i], stored))
			return 1;
	return 0;
}

/* A stored metric nasbench knows (a row of core/metrics.c). */
static const struct nb_metric *known_metric(const char *name)
{
	for (int i = 0; nb_metrics[i].name; i++)
		if (!strcmp(nb_metrics[i].name, name))
			return &nb_metrics[i];
	return NULL;
}

static int unknown_metric(const char *where, const char *m)
{
	const char *cands[64];
	size_t n = 0;
	const char *near;

	for (size_t i = 0; i < sizeof(user_names) / sizeof(user_names[0]); i++)
		cands[n++] = user_names[i];
	for (int i = 0; nb_metrics[i].name && n < 64; i++)
		cands[n++] = nb_metrics[i].name;
	near = nb_suggest(m, cands, n);
	if (near)
		return nb_err(-EINVAL, "%s: unknown metric '%s'; did you mean '%s'?",
			      where, m, near);
	return nb_err(-EINVAL, "%s: unknown metric '%s' (e.g. mb_s, iops, p99_us, "
		      "durable, corrupt_blocks: see 'nasbench help accept')", where, m);
}

static int unknown_workload(const char *where, const char *w)
{
	const char *cands[128];
	size_t n = 0;
	const char *near;

	for (int i = 0; nb_workloads[i] && n < 128; i++)
		cands[n++] = nb_workloads[i]->name;
	near = nb_suggest(w, cands, n);
	if (near)
		return nb_err(-EINVAL, "%s: unknown workload '%s'; did you mean "
			      "'%s'?", where, w, near);
	return nb_err(-EINVAL, "%s: unknown workload '%s' (see 'nasbench list "
		      "workloads')", where, w);
}

/* The kind of a stored unit, for checking the unit a value carries. */
enum kind { K_NONE, K_RATE, K_TIME, K_IOPS, K_BOOL };

static enum kind unit_kind(const char *unit)
{
	if (!strcmp(unit, "bytes/s"))
		return K_RATE;
	if (!strcmp(unit, "us") || !strcmp(unit, "s"))
		return K_TIME;
	if (!strcmp(unit, "ops/s"))
		return K_IOPS;
	if (!strcmp(unit, "bool"))
		return K_BOOL;
	return K_NONE;
}

static const char *kind_name(enum kind k)
{
	static const char *n[] = { "a plain number", "a throughput (e.g. 80MB/s)",
				   "a time (e.g. 5ms)", "a rate of operations "
				   "(e.g. 1000iops)", "yes or no" };
	return n[k];
}

/* A unit suffix: its kind and the factor to the stored unit of that kind
 * (bytes/s, microseconds, ops/s). */
static int parse_unit(const char *u, enum kind *k, double *to_stored)
{
	static const struct { const char *s; enum kind k; double f; } units[] = {
		{ "B/s", K_RATE, 1 }, { "KB/s", K_RATE, 1e3 }, { "MB/s", K_RATE, 1e6 },
		{ "GB/s", K_RATE, 1e9 }, { "KiB/s", K_RATE, 1024.0 },
		{ "MiB/s", K_RATE, 1048576.0 }, { "GiB/s", K_RATE, 1073741824.0 },
		{ "ns", K_TIME, 1e-3 }, { "us", K_TIME, 1 }, { "ms", K_TIME, 1e3 },
		{ "s", K_TIME, 1e6 }, { "iops", K_IOPS, 1 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(units[i].s, u) &&
		    /* "Mb/s" would be megabits: keep the B upper case */
		    (units[i].k != K_RATE || strchr(u, 'B'))) {
			*k = units[i].k;
			*to_stored = units[i].f;
			return 0;
		}
	return -EINVAL;
}

/* The user unit shown for an alias: what its factor turns stored units into. */
static void user_unit(char *buf, size_t len, const char *metric,
		      const struct nb_metric *m, double factor)
{
	if (!strcmp(metric, "mb_s"))
		snprintf(buf, len, "MB/s");
	else if (!strcmp(metric, "mib_s"))
		snprintf(buf, len, "MiB/s");
	else if (factor == 1e-3 && !strcmp(m->unit, "us"))
		snprintf(buf, len, "ms");
	else if (!strcmp(m->unit, "bool"))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%s", m->unit);
}

static int parse_stat(const char *s)
{
	for (int i = NB_ST_MEDIAN; i <= NB_ST_MAX; i++)
		if (!strcmp(nb_accept_stat_name(i), s))
			return i;
	return -1;
}

static int yes_no(const char *v, int *b)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true"))
		return *b = 1, 0;
	if (!strcasecmp(v, "no") || !strcasecmp(v, "false"))
		return *b = 0, 0;
	return -1;
}

static int parse_value(struct nb_criterion *c, const struct nb_metric *m,
		       const char *v, const char *where)
{
	/* durable is syncprobe's verdict whatever unit its row gives it */
	enum kind mk = !strcmp(c->stored, "durable") || !strcmp(c->stored, "steady") ?
		       K_BOOL : unit_kind(m->unit), vk;
	double x, to_stored, stored_unit_us;
	char *end;
	int b;

	if (!yes_no(v, &b)) {
		if (mk != K_BOOL)
			return nb_err(-EINVAL, "%s: '%s' is yes or no, but '%s' is "
				      "%s", where, v, c->metric, kind_name(mk));
		c->required = b;
		c->boolean = 1;
		if (c->op != NB_OP_EQ && c->op != NB_OP_NE)
			return nb_err(-EINVAL, "%s: '%s' is yes or no: compare it "
				      "with = or !=", where, c->metric);
		return 0;
	}
	errno = 0;
	x = strtod(v, &end);
	if (end == v || errno || !isfinite(x))
		return nb_err(-EINVAL, "%s: invalid value '%s' (a number, with a "
			      "unit or not)", where, v);
	while (*end == ' ')
		end++;
	if (!*end) {
		/* a bare number is in the user unit of the metric as written */
		c->required = x / c->factor;
		c->boolean = mk == K_BOOL;
		return 0;
	}
	if (parse_unit(end, &vk, &to_stored))
		return nb_err(-EINVAL, "%s: unknown unit '%s' in '%s' (B/s, KB/s, "
			      "MB/s, GB/s, KiB/s, MiB/s, GiB/s, ns, us, ms, s, iops)",
			      where, end, v);
	if (vk != mk)
		return nb_err(-EINVAL, "%s: '%s' is %s, but '%s' is %s", where, v,
			      kind_name(vk), c->metric, kind_name(mk));
	/* times are stored in us or s */
	stored_unit_us = vk == K_TIME && !strcmp(m->unit, "s") ? 1e6 : 1;
	c->required = x * to_stored / stored_unit_us;
	return 0;
}

/* TEXT as written, without its comment, blanks collapsed (a stable name),
 * into C->text. */
static void criterion_text(struct nb_criterion *c, const char *text)
{
	size_t k = 0, end = strcspn(text, "#;");

	for (size_t i = 0; i < end && k + 1 < sizeof(c->text); i++) {
		if (isspace((unsigned char)text[i]) && (!k || c->text[k - 1] == ' '))
			continue;
		c->text[k++] = isspace((unsigned char)text[i]) ? ' ' : text[i];
	}
	while (k && c->text[k - 1] == ' ')
		k--;
	c->text[k] = '\0';
}

/* TEXT's four words: WORKLOAD@TARGET, METRIC, OP, VALUE ("mb_s>=80"
 * without spaces is split at the operator); VALUE without a trailing
 * comment or blanks, a number and at most a unit.  0 or -EINVAL. */
static int criterion_words(const char *text, const char *where, char *wt,
			   char *metric, char *op, size_t oplen, char *value,
			   size_t vlen)
{
	int n = sscanf(text, "%159s %95s %7s %95[^\n]", wt, metric, op, value);
	const char *sp;

	if (n == 2) {
		char *p = strpbrk(metric, "<>=!");

		if (p) {
			size_t ol = strspn(p, "<>=!");

			snprintf(op, oplen, "%.*s", (int)ol, p);
			snprintf(value, vlen, "%s", p + ol);
			*p = '\0';
			n = value[0] ? 4 : 3;
		}
	}
	if (n < 4)
		return nb_err(-EINVAL, "%s: expected 'WORKLOAD@TARGET METRIC OP VALUE' "
			      "(e.g. 'seq512k-write@nfs mb_s >= 80'), not '%s'",
			      where, text);
	/* trailing comment, trailing blanks */
	for (char *p = value; *p; p++)
		if (*p == '#' || *p == ';') {
			*p = '\0';
			break;
		}
	for (size_t l = strlen(value); l && isspace((unsigned char)value[l - 1]);)
		value[--l] = '\0';
	/* a number, optionally a unit after a blank: nothing more */
	sp = strchr(value, ' ');
	if (sp && (strchr(sp + strspn(sp, " "), ' ') ||
		   isdigit((unsigned char)sp[strspn(sp, " ")])))
		return nb_err(-EINVAL, "%s: unexpected text after the value "
			      "in '%s'", where, text);
	return 0;
}

/* WT ("WORKLOAD@TARGET[:STATE]") into C, the workload a known one, STATE
 * a box state of a failure walk.  0 or -EINVAL. */
static int criterion_place(struct nb_criterion *c, char *wt, const char *where)
{
	char *at = strchr(wt, '@'), *colon = at ? strrchr(at, ':') : NULL;

	if (!at || at == wt || !at[1] || strchr(at + 1, '@'))
		return nb_err(-EINVAL, "%s: '%s' is not WORKLOAD@TARGET", where, wt);
	if (colon && nb_box_state(colon + 1) >= 0) {
		snprintf(c->state, sizeof(c->state), "%s", colon + 1);
		*colon = '\0';
	}
	*at = '\0';
	if (strlen(wt) >= sizeof(c->workload) || strlen(at + 1) >= sizeof(c->target))
		return nb_err(-EINVAL, "%s: workload or target name too long", where);
	snprintf(c->workload, sizeof(c->workload), "%s", wt);
	snprintf(c->target, sizeof(c->target), "%s", at + 1);
	if (strcmp(c->workload, "*") && !nb_workload_find(c->workload))
		return unknown_workload(where, c->workload);
	return 0;
}

/* METRIC[:STAT] into C (the stored name behind an alias); *ST the
 * statistic, NB_ST_DEFAULT when none is named.  0 or -EINVAL. */
static int criterion_metric(struct nb_criterion *c, char *metric, int *st,
			    const char *where)
{
	char *colon = strchr(metric, ':');
	const char *stored;

	*st = NB_ST_DEFAULT;
	if (colon) {
		*colon = '\0';
		*st = parse_stat(colon + 1);
		if (*st < 0)
			return nb_err(-EINVAL, "%s: unknown statistic '%s' (median, "
				      "worst, best, mean, min, max)", where, colon + 1);
	}
	if (strlen(metric) >= sizeof(c->metric))
		return unknown_metric(where, metric);
	snprintf(c->metric, sizeof(c->metric), "%s", metric);
	nb_metric_alias(c->metric, &stored, &c->factor);
	/* nb_metric_alias hands back the name itself when it is no alias */
	if (stored == c->metric && !known_metric(stored))
		return unknown_metric(where, c->metric);
	snprintf(c->stored, sizeof(c->stored), "%s", stored);
	return 0;
}

/* "min_vms = 24", "min_iops_at_slo = 500": a floor for every swept
 * workload of the run, on every target ("*", expanded by
 * nb_accept_finish from the result); "min_years = 5" for every replay
 * of a captured load (docs/capture.md). */
static int parse_min(struct nb_criterion *c, const char *text, const char *where)
{
	char name[64], value[96], full[256], as_written[sizeof(c->text)];
	char *st;
	int rc;

	if (sscanf(text, "min_%63[^ =] = %95s", name, value) != 2 &&
	    sscanf(text, "min_%63[^ =]=%95s", name, value) != 2)
		return nb_err(-EINVAL, "%s: expected 'min_vms = N', "
			      "'min_iops_at_slo = N' or 'min_years = N', not '%s'",
			      where, text);
	/* min_vms_degraded: the floor in a failure walk's box state */
	st = strrchr(name, '_');
	if (st && nb_box_state(st + 1) >= 0)
		*st++ = '\0';
	else
		st = NULL;
	if (strcmp(name, "vms") && strcmp(name, "iops_at_slo") &&
	    strcmp(name, "years"))
		return nb_err(-EINVAL, "%s: unknown floor 'min_%s' (min_vms, "
			      "min_iops_at_slo, min_years, min_vms_degraded, ...)",
			      where, name);
	snprintf(as_written, sizeof(as_written), "%s", text);
	snprintf(full, sizeof(full), "%s@*%s%s %s >= %s",
		 strcmp(name, "vms") ? "*" : "vm", st ? ":" : "", st ? st : "",
		 name, value);
	rc = nb_accept_parse(c, full, where);
	snprintf(c->text, sizeof(c->text), "%s", as_written);
	return rc;
}

int nb_accept_parse(struct nb_criterion *c, const char *text, const char *where)
{
	char wt[160], metric[96], op[8], value[96];
	const struct nb_metric *m;
	int st;

	memset(c, 0, sizeof(*c));
	snprintf(c->where, sizeof(c->where), "%s", where);
	criterion_text(c, text);
	text = c->text;
	if (!strncmp(text, "min_", 4) && !strchr(text, '@'))
		return parse_min(c, text, where);
	if (nb_accept_is_walk(text))
		return nb_accept_parse_walk(c, text, where);
	if (criterion_words(text, where, wt, metric, op, sizeof(op), value,
			    sizeof(value)) ||
	    criterion_place(c, wt, where) ||
	    criterion_metric(c, metric, &st, where))
		return -EINVAL;
	m = nb_metric_find(c->stored);
	c->op = -1;
	for (int i = 0; i < 6; i++)
		if (!strcmp(op, nb_accept_op_name(i)))
			c->op = i;
	if (c->op < 0)
		return nb_err(-EINVAL, "%s: unknown operator '%s' (one of >= <= > < "
			      "= !=)", where, op);
	if (parse_value(c, m, value, where))
		return -EINVAL;
	user_unit(c->unit, sizeof(c->unit), c->metric, m, c->factor);
	if (st == NB_ST_DEFAULT)
		st = is_verdict(c->stored) || c->boolean ? NB_ST_WORST : NB_ST_MEDIAN;
	c->stat = st;
	return 0;
}

int nb_accept_from_config(struct nb_accept *a, const struct nb_config *cfg)
{
	struct nb_criterion c;
	char where[4200];

	for (int i = 0; i < cfg->nraw; i++) {
		if (strcmp(cfg->raw[i].section, "accept"))
			continue;
		snprintf(where, sizeof(where), "%s:%d", cfg->path, cfg->raw[i].line);
		if (nb_accept_parse(&c, cfg->raw[i].text, where) ||
		    nb_accept_add(a, &c))
			return -EINVAL;
	}
	return 0;
}

static int criterion_line(char *s, const char *where, void *payload)
{
	struct nb_criterion c;

	if (!strcmp(s, "[accept]"))
		return 0;
	if (*s == '[')
		return nb_err(-EINVAL, "%s: a criteria file holds criteria only "
			      "(an optional [accept] header), not '%s'", where, s);
	if (nb_accept_parse(&c, s, where) || nb_accept_add(payload, &c))
		return -EINVAL;
	return 0;
}

int nb_accept_from_file(struct nb_accept *a, const char *path)
{
	int rc = nb_lines_read(path, "criteria file", 0, criterion_line, a);

	return rc == -EINVAL ? rc : rc ? -ENOENT : 0;
}

int nb_accept_check_targets(const struct nb_accept *a, const char *const *names,
			    int n)
{
	for (int i = 0; i < a->n; i++) {
		const struct nb_criterion *c = &a->c[i];
		const char *near;
		char list[512] = "";
		size_t len = 0;
		int found = !strcmp(c->target, "*");

		for (int j = 0; j < n; j++) {
			found |= !strcmp(names[j], c->target);
			len += (size_t)snprintf(list + len, len < sizeof(list) ?
						sizeof(list) - len : 0, "%s%s",
						j ? ", " : "", names[j]);
		}
		if (found)
			continue;
		near = nb_suggest(c->target, names, (size_t)n);
		if (near)
			return nb_err(-EINVAL, "%s: unknown target '%s'; did you mean "
				      "'%s'?", c->where, c->target, near);
		return nb_err(-EINVAL, "%s: unknown target '%s' (targets: %s)",
			      c->where, c->target, n ? list : "none");
	}
	return 0;
}

int nb_accept_setup(struct nb_accept *a, const struct nb_config *cfg,
		    const char *file)
{
	int rc = file ? nb_accept_from_file(a, file) : nb_accept_from_config(a, cfg);

	if (rc)
		return rc;
	for (int i = 0; i < a->n; i++)
		a->c[i].in_config = nb_config_target((struct nb_config *)cfg,
						     a->c[i].target) != NULL;
	return 0;
}

int nb_accept_check(const struct nb_accept *a, const struct nb_config *cfg)
{
	const char *names[NB_MAX_TARGETS];
	struct nb_accept rest;
	int rc;

	for (int i = 0; i < cfg->ntargets; i++)
		names[i] = cfg->targets[i].name;
	/* a box-file target left out by --target fails as 'did not run' */
	nb_accept_init(&rest);
	for (int i = 0; i < a->n; i++)
		if (!a->c[i].in_config && nb_accept_add(&rest, &a->c[i]))
			return -ENOMEM;
	rc = nb_accept_check_targets(&rest, names, cfg->ntargets);
	nb_accept_free(&rest);
	return rc;
}

int nb_accept_workloads(const struct nb_accept *a, const char **names, int max)
{
	int n = 0;

	for (int i = 0; i < a->n && n < max; i++)
		if (strcmp(a->c[i].workload, "*"))
			names[n++] = a->c[i].workload;
	return n;
}

void nb_accept_help(FILE *out)
{
	fputs("Acceptance criteria: one a line in the box file's [accept] section or\n"
	      "in a file given with 'nasbench run --accept FILE':\n\n"
	      "  WORKLOAD@TARGET METRIC[:STAT] OP VALUE[UNIT]\n\n"
	      "  seq512k-write-sync@nfs mb_s >= 80\n"
	      "  rand4k-read@iscsi      p99_us <= 5ms\n"
	      "  syncprobe@nfs          durable = yes\n"
	      "  integrity@nfs          corrupt_blocks = 0\n"
	      "  vm@nfs                 vms >= 24\n"
	      "  rand4k-write@ssd       steady = yes     (--steady-state reached it)\n\n"
	      "A floor for every swept workload (--sweep) on every target:\n"
	      "  min_vms = 24           (the vm workload's VMs at the objective)\n"
	      "  min_iops_at_slo = 500\n"
	      "A floor for every replay of a captured load (docs/capture.md):\n"
	      "  min_years = 5          (the years its headroom holds at the growth rate)\n"
	      "  crashcheck@nfs         crash_lost = 0\n\n"
	      "A failure walk (--rebuild; docs/failure.md):\n"
	      "  rand4k-read@nfs:degraded iops >= 200   (a figure in a box state:\n"
	      "                         healthy, degraded, rebuilding, rebuilt)\n"
	      "  max_rebuild_time = 2h  (under the workloads' load; _idle: idle)\n"
	      "  degraded_keeps = 50%   (of the healthy figure, every workload;\n"
	      "                         rebuilding_keeps, rebuilt_keeps likewise)\n"
	      "  rand4k-read@nfs degraded_keeps >= 50%\n"
	      "  min_vms_degraded = 10  (min_vms in a box state)\n\n"
	      "OP:    >= <= > < = !=\n"
	      "STAT:  median (default for figures), worst (default for durable,\n"
	      "       steady, *_blocks, conform_failed and crash_lost, _missing,\n"
	      "       _stale, _torn), best, mean, min, max\n"
	      "UNIT:  throughput B/s KB/s MB/s GB/s KiB/s MiB/s GiB/s; time ns us ms s;\n"
	      "       iops; yes/no for durable and steady.  A bare number is in the metric's unit.\n\n"
	      "Metrics (aliases):\n"
	      "  mb_s mib_s bw        throughput (bw_bytes)\n"
	      "  p50_us p90_us p99_us p99.9_us max_us mean_us p99_ms   latency\n"
	      "  crash_lost_max       crash_lost (its worst iteration is the default)\n\n"
	      "Metrics (as stored):\n", out);
	for (int i = 0; nb_metrics[i].name; i++)
		fprintf(out, "  %-20s %-8s %s\n", nb_metrics[i].name,
			nb_metrics[i].unit, nb_metrics[i].help);
	fputs("\nA criterion whose workload did not run on its target fails.  Any\n"
	      "failing criterion makes 'nasbench run' exit 1.\n", out);
}

/* The box file's [accept] section, kept as lines for this module
 * (core/knobs.h). */
const struct nb_knob nb_accept_knobs[] = {
	{ NB_SECTION("accept"), .flags = NB_KF_LINES,
	  .help = "one criterion a line: WORKLOAD@TARGET METRIC OP VALUE" },
	{ NULL },
};
