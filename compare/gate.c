/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "gate.h"
#include "../core/err.h"
#include "../core/metrics.h"
#include "../core/suggest.h"
#include "../workloads/workload.h"

#include <errno.h>
#include <stdarg.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>

void nb_gate_init(struct nb_gate *g)
{
	memset(g, 0, sizeof(*g));
	g->max_regress = NB_GATE_MAX_REGRESS_PCT / 100.0;
	g->alpha = NB_GATE_ALPHA;
}

int nb_gate_parse_threshold(const char *s, double *out)
{
	char *end;
	double v;

	if (!strcmp(s, "off") || !strcmp(s, "none") || !strcmp(s, "ignore")) {
		*out = NB_GATE_OFF;
		return 0;
	}
	v = strtod(s, &end);
	if (end == s || (*end && strcmp(end, "%")) || v < 0 || v != v)
		return -EINVAL;
	*out = v / 100;
	return 0;
}

struct parse {
	struct nb_gate *g;
	FILE *f;
	int line;                /* counted by reader(): inih 55 has no lineno */
	int failed;              /* line of the first handler error, or 0 */
};

/* Keep the first error with its line; inih goes on reading. */
__attribute__((format(printf, 2, 3)))
static int fail(struct parse *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->failed) {
		char msg[512];

		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		nb_err_set("%s:%d: %s", p->g->path, p->line, msg);
		p->failed = p->line;
	}
	return 0;
}

static int unknown_section(struct parse *p, const char *section)
{
	return fail(p, "unknown section [%s] (expected [gate], [metric], [bands] "
		    "or [workload NAME])", section);
}

/* inih 55 tells a handler no line number: count lines as they are read.
 * A section line is checked here, on its own line (inih calls no handler
 * for it), also when no key follows. */
static char *reader(char *buf, int len, void *stream)
{
	struct parse *p = stream;
	char *s = fgets(buf, len, p->f), *end, name[128];

	if (!s)
		return s;
	p->line++;
	s += strspn(s, " \t");
	end = *s == '[' ? strchr(s, ']') : NULL;
	if (end) {
		snprintf(name, sizeof(name), "%.*s", (int)(end - s - 1), s + 1);
		if (strcmp(name, "gate") && strcmp(name, "metric") &&
		    strcmp(name, "bands") &&
		    !(!strncmp(name, "workload ", 9) && name[9]))
			unknown_section(p, name);
	}
	return buf;
}

static int add_rule(struct parse *p, const char *workload, const char *metric,
		    const char *value)
{
	struct nb_gate *g = p->g;
	struct nb_gate_rule *r;
	const char *stored = metric;
	double factor, thr;

	if (nb_gate_parse_threshold(value, &thr))
		return fail(p, "bad threshold '%s' for '%s' (a percentage like "
			    "5%% or 'off')", value, metric ? metric : "max-regress");
	if (g->nrules == NB_GATE_MAX_RULES)
		return fail(p, "too many rules (at most %d)", NB_GATE_MAX_RULES);
	if (metric)
		nb_metric_alias(metric, &stored, &factor);
	r = &g->rules[g->nrules++];
	snprintf(r->workload, sizeof(r->workload), "%s", workload ? workload : "");
	snprintf(r->metric, sizeof(r->metric), "%s", stored ? stored : "");
	r->max_regress = thr;
	r->line = p->line;
	return 1;
}

/* [bands] default = V,N or METRIC = V,N; a workload's "bands = V,N"
 * (WORKLOAD non-NULL).  The message names the file, line and key. */
static int bands_key(struct parse *p, const char *workload, const char *key,
		     const char *value)
{
	struct nb_bands_set *b = &p->g->bands;
	char what[4400];
	int rc;

	if (p->failed)           /* the first error is the one kept */
		return 0;
	snprintf(what, sizeof(what), "%s:%d: %s", p->g->path, p->line, key);
	if (!workload && !strcmp(key, "default")) {
		rc = nb_bands_parse(what, value, &b->def);
		b->on |= !rc;
	} else {
		rc = nb_bands_set_rule(b, workload, workload ? "" : key, what, value);
		if (!rc)
			b->rules[b->nrules - 1].line = p->line;
	}
	if (rc)
		p->failed = p->line;
	return !rc;
}

static int on_key(void *user, const char *section, const char *key,
		  const char *value)
{
	struct parse *p = user;
	static const char *gate_keys[] = { "max-regress", "alpha" };
	struct nb_gate *g = p->g;

	if (!key)                /* a section line: nothing to keep */
		return 1;
	if (!strcmp(section, "gate")) {
		if (!strcmp(key, "max-regress")) {
			double v;

			if (nb_gate_parse_threshold(value, &v))
				return fail(p, "bad threshold '%s' for '%s' (a "
					    "percentage like 5%% or 'off')", value, key);
			p->g->max_regress = v;
			return 1;
		}
		if (!strcmp(key, "alpha")) {
			char *end;
			double a = strtod(value, &end);

			if (end == value || *end || a <= 0 || a >= 1)
				return fail(p, "bad alpha '%s' (a probability "
					    "like 0.05)", value);
			p->g->alpha = a;
			return 1;
		}
		const char *near = nb_suggest(key, (const char *const *)gate_keys, 2);

		if (near)
			return fail(p, "unknown key '%s' in [gate]; did you mean "
				    "'%s'?", key, near);
		return fail(p, "unknown key '%s' in [gate]", key);
	}
	if (!strcmp(section, "metric"))
		return add_rule(p, NULL, key, value);
	if (!strcmp(section, "bands"))
		return bands_key(p, NULL, key, value);
	if (!strncmp(section, "workload ", 9) && section[9]) {
		const char *wl = section + 9;

		if (!strcmp(key, "max-regress"))
			return add_rule(p, wl, NULL, value);
		if (!strcmp(key, "bands"))
			return bands_key(p, wl, key, value);
		if (!strcmp(key, "primary")) {
			struct nb_gate_primary *pr;
			const char *stored = value;
			double factor;

			if (g->nprimary == NB_GATE_MAX_PRIMARY)
				return fail(p, "too many primary metrics (at most %d)",
					    NB_GATE_MAX_PRIMARY);
			nb_metric_alias(value, &stored, &factor);
			pr = &g->primary[g->nprimary++];
			snprintf(pr->workload, sizeof(pr->workload), "%s", wl);
			snprintf(pr->metric, sizeof(pr->metric), "%s", stored);
			pr->line = p->line;
			return 1;
		}
		return add_rule(p, wl, key, value);
	}
	return unknown_section(p, section);
}

int nb_gate_load(struct nb_gate *g, const char *path)
{
	struct parse p = { g, NULL, 0, 0 };
	int rc;

	p.f = fopen(path, "r");
	if (!p.f)
		return nb_err(-errno, "cannot read gate file '%s': %s", path,
			      strerror(errno));
	snprintf(g->path, sizeof(g->path), "%s", path);
	rc = ini_parse_stream(reader, &p, on_key, &p);
	fclose(p.f);
	if (rc < 0)
		return nb_err(-ENOMEM, "%s: out of memory", path);
	if (p.failed && (rc <= 0 || p.failed <= rc))
		return -EINVAL;
	if (rc > 0)
		return nb_err(-EINVAL, "%s:%d: expected '[section]' or 'key = value'",
			      path, rc);
	return 0;
}

double nb_gate_threshold(struct nb_gate *g, const char *workload,
			 const char *metric, int *named)
{
	struct nb_gate_rule *best = NULL;
	int best_rank = 0;

	for (int i = 0; i < g->nrules; i++) {
		struct nb_gate_rule *r = &g->rules[i];
		int wl = r->workload[0] != 0, me = r->metric[0] != 0, rank;

		if ((wl && strcmp(r->workload, workload)) ||
		    (me && strcmp(r->metric, metric)))
			continue;
		rank = wl * 2 + me;  /* 3 both, 2 workload, 1 metric */
		if (rank >= best_rank)
			best = r, best_rank = rank;
	}
	if (named)
		*named = best && best->metric[0];
	if (!best)
		return g->max_regress;
	best->used = 1;
	return best->max_regress;
}

const char *nb_gate_primary(struct nb_gate *g, const char *workload)
{
	for (int i = g->nprimary - 1; i >= 0; i--)
		if (!strcmp(g->primary[i].workload, workload)) {
			g->primary[i].used = 1;
			return g->primary[i].metric;
		}
	return NULL;
}

/* "; did you mean 'iops'?" when NAME is no workload (METRIC 0) or no metric
 * nasbench knows but is near one, else "". */
static const char *hint(const char *name, int metric, char *buf, size_t len)
{
	const char *cands[128], *near;
	size_t n = 0;

	buf[0] = '\0';
	if (!metric && nb_workload_find(name))
		return buf;
	if (metric)
		for (int i = 0; nb_metrics[i].name && n < 128; i++) {
			if (!strcmp(nb_metrics[i].name, name))
				return buf;
			cands[n++] = nb_metrics[i].name;
		}
	else
		for (int i = 0; nb_workloads[i] && n < 128; i++)
			cands[n++] = nb_workloads[i]->name;
	near = nb_suggest(name, cands, n);
	if (near)
		snprintf(buf, len, "; did you mean '%s'?", near);
	return buf;
}

void nb_gate_warn_unused(const struct nb_gate *g)
{
	char hw[96], hm[96];

	for (int i = 0; i < g->bands.nrules; i++) {
		const struct nb_bands_rule *r = &g->bands.rules[i];

		if (!r->used && r->line)
			nb_warn("%s:%d: bands: no %s '%s' judged in the results%s",
				g->path, r->line, r->workload[0] ? "workload" : "metric",
				r->workload[0] ? r->workload : r->metric,
				hint(r->workload[0] ? r->workload : r->metric,
				     !r->workload[0], hw, sizeof(hw)));
	}

	for (int i = 0; i < g->nprimary; i++)
		if (!g->primary[i].used)
			nb_warn("%s:%d: no workload '%s' in the results%s", g->path,
				g->primary[i].line, g->primary[i].workload,
				hint(g->primary[i].workload, 0, hw, sizeof(hw)));
	for (int i = 0; i < g->nrules; i++) {
		const struct nb_gate_rule *r = &g->rules[i];

		if (r->used)
			continue;
		hint(r->workload, 0, hw, sizeof(hw));
		hint(r->metric, 1, hm, sizeof(hm));
		if (r->workload[0] && r->metric[0])
			nb_warn("%s:%d: no workload '%s' with metric '%s' in the "
				"results%s", g->path, r->line, r->workload, r->metric,
				*hw ? hw : hm);
		else if (r->workload[0])
			nb_warn("%s:%d: no workload '%s' in the results%s", g->path,
				r->line, r->workload, hw);
		else
			nb_warn("%s:%d: no metric '%s' in the results%s", g->path,
				r->line, r->metric, hm);
	}
}
