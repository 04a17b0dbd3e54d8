/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opts.c - getopt_long and usage text from one option table. */
#include "opts.h"
#include "cmd.h"
#include "../core/err.h"
#include "../core/suggest.h"
#include "../core/units.h"

#include <errno.h>
#include <stdlib.h>
#include <getopt.h>
#include <string.h>

#define KNOB_ID 1000             /* + the number of a knob row */
#define ROW_ID 2000              /* + the row of the command's table */
#define MAX_OPTS 128

static void add_short(char *shorts, size_t cap, char c, int has_arg)
{
	size_t len = strlen(shorts);

	if (c)
		snprintf(shorts + len, cap - len, "%c%s", c, has_arg ? ":" : "");
}

/* Whether a knob row of section SECTION is listed by OPTS. */
static int lists(const struct nb_opt *opts, size_t n, const char *section)
{
	for (size_t i = 0; i < n; i++)
		if (!opts[i].name && !opts[i].help && !strcmp(opts[i].metavar, section))
			return 1;
	return 0;
}

/* What getopt_long returned as C stands for: the knob *K, or the row *R
 * of OPTS (N). */
static void row_of(int c, const struct nb_opt *opts, size_t n,
		   const struct nb_knob **k, const struct nb_opt **r)
{
	const struct nb_knob *kk;

	*k = NULL;
	*r = NULL;
	if (c >= ROW_ID) {
		*r = &opts[c - ROW_ID];
		return;
	}
	if (c >= KNOB_ID) {
		*k = nb_knob_at(c - KNOB_ID);
		return;
	}
	nb_knob_foreach(kk)
		if (kk->opt && kk->short_opt == c && lists(opts, n, kk->section)) {
			*k = kk;
			return;
		}
	for (size_t i = 0; i < n; i++)
		if (opts[i].name && opts[i].short_opt == c)
			*r = &opts[i];
}

/* Keep ARG where row R says, in PAYLOAD. */
static void keep(const struct nb_opt *r, char *arg, void *payload)
{
	char *field = (char *)payload + (r->id - NB_OPT_AT_BASE);

	if (r->metavar)
		*(const char **)(void *)field = arg;
	else
		*(int *)(void *)field = 1;
}

int nb_opts_parse(const char *cmd, int argc, char **argv,
		  const struct nb_opt *opts, size_t n, nb_opt_fn cb, void *payload)
{
	struct option longopts[MAX_OPTS + 1] = { { 0 } };
	const struct nb_knob *k;
	char shorts[128] = ":";
	size_t m = 0;
	int c;

	for (size_t i = 0; i < n && m < MAX_OPTS; i++) {
		if (!opts[i].name)
			continue;
		longopts[m++] = (struct option){ opts[i].name, opts[i].metavar ?
			required_argument : no_argument, NULL, ROW_ID + (int)i };
		add_short(shorts, sizeof(shorts), opts[i].short_opt,
			  opts[i].metavar != NULL);
	}
	for (int i = 0; (k = nb_knob_at(i)) && m < MAX_OPTS; i++) {
		int has_arg = !(k->flags & NB_KF_NOARG);

		if (!k->opt || !lists(opts, n, k->section))
			continue;
		longopts[m++] = (struct option){ k->opt, has_arg ? required_argument :
			no_argument, NULL, KNOB_ID + i };
		add_short(shorts, sizeof(shorts), k->short_opt, has_arg);
	}
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		const struct nb_opt *r;
		int rc;

		if (c == ':')
			return nb_err(-EINVAL, "option '%s' needs a value",
				      argv[optind - 1]);
		if (c == '?')
			return nb_opts_unknown(cmd, argv[optind - 1], longopts);
		row_of(c, opts, n, &k, &r);
		if (r && r->id >= NB_OPT_AT_BASE) {
			keep(r, optarg, payload);
			continue;
		}
		rc = cb(r ? r->id : 0, k, optarg, payload);
		if (rc)
			return rc;
	}
	return 0;
}

int nb_opts_unknown(const char *cmd, const char *given, const struct option *lo)
{
	const char *cands[MAX_OPTS], *near = NULL;
	char name[64];
	size_t n = 0;

	/* "--taget=x": the name is "taget"; a short option gets no guess */
	if (!strncmp(given, "--", 2) && given[2]) {
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(given + 2, "="),
			 given + 2);
		for (; lo && lo[n].name && n < MAX_OPTS; n++)
			cands[n] = lo[n].name;
		near = nb_suggest(name, cands, n);
	}
	if (near)
		return nb_err(-EINVAL, "unknown option '%.*s'; did you mean '--%s'?",
			      (int)strcspn(given, "="), given, near);
	return nb_err(-EINVAL, "unknown option '%.*s' (see 'nasbench help%s%s')",
		      (int)strcspn(given, "="), given, *cmd ? " " : "", cmd);
}

int nb_opts_bad_choice(const char *opt, const char *arg, const char *choices)
{
	char near[64];

	if (nb_suggest_choice(arg, choices, near, sizeof(near)))
		return nb_err(-EINVAL, "%s: '%s' is not one of %s; did you mean '%s'?",
			      opt, arg, choices, near);
	return nb_err(-EINVAL, "%s: '%s' is not one of %s", opt, arg, choices);
}

int nb_opts_label_filter(char *arg, char **labels, int *n, int max)
{
	if (!strchr(arg, '=') || *arg == '=')
		return nb_err(-EINVAL, "--label: expected KEY=VALUE, not '%s'", arg);
	if (*n == max)
		return nb_err(-EINVAL, "--label: at most %d", max);
	labels[(*n)++] = arg;
	return 0;
}

int nb_opts_last(const char *arg, long max, int *last)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || end == arg || v < 1 || v > max)
		return nb_err(-EINVAL, "--last: expected a number of runs (1 to %ld), "
			      "not '%s'", max, arg);
	*last = (int)v;
	return 0;
}

int nb_opts_seconds(const char *opt, const char *arg, double min_s, uint64_t *ns)
{
	uint64_t us;

	if (nb_parse_duration_us(arg, &us)) {
		nb_err_prefix("%s", opt);
		return -EINVAL;
	}
	if ((double)us < min_s * 1e6)
		return nb_err(-EINVAL, "%s: value '%s' is too small: at least %g s",
			      opt, arg, min_s);
	*ns = us * 1000;
	return 0;
}

void nb_opts_usage(FILE *out, const struct nb_opt *opts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct nb_opt *r = &opts[i];

		if (r->name && r->help)
			nb_usage_line(out, r->short_opt, r->name, r->metavar, r->help);
		else if (r->name)
			continue;
		else if (r->help)
			fprintf(out, "\n%s\n", r->help);
		else
			nb_knobs_usage(out, r->metavar);
	}
}
