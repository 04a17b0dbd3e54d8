/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * failure_crit.c - a failure walk's criteria (docs/failure.md): the
 * rebuild's time and the share of the healthy figure kept in a box state.
 *
 *   max_rebuild_time = 2h               the rebuild under the workloads' load
 *   max_rebuild_time_idle = 1h          the rebuild with no load
 *   degraded_keeps = 50%                every workload of the walk, on its
 *                                       primary figure (rebuilding_keeps,
 *                                       rebuilt_keeps alike)
 *   rand4k-read@nfs degraded_keeps >= 50%
 *
 * A figure in a state is a plain criterion with the state on its place
 * (rand4k-read@nfs:degraded iops >= 200, criteria.c), min_vms_degraded a
 * floor (parse_min).
 */
#include "failure_crit.h"
#include "../core/err.h"
#include "../core/metrics.h"
#include "../core/result.h"
#include "../core/units.h"
#include "../formats/failure.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "degraded_keeps": the state's index, else -1. */
static int keeps_state(const char *word, size_t len)
{
	char st[32];

	if (len < 7 || len - 6 >= sizeof(st) || strncmp(word + len - 6, "_keeps", 6))
		return -1;
	snprintf(st, sizeof(st), "%.*s", (int)(len - 6), word);
	return nb_box_state(st) > 0 ? nb_box_state(st) : -1;
}

int nb_accept_is_walk(const char *text)
{
	size_t n = strcspn(text, " \t=<>!");

	if (!strncmp(text, "max_rebuild_time", 16))
		return 1;
	if (!memchr(text, '@', n))
		return keeps_state(text, n) > 0;
	text += n + strspn(text + n, " \t");
	return keeps_state(text, strcspn(text, " \t=<>!:")) > 0;
}

/* "OP VALUE" at S (OP may be left out: '=' of a floor is its bound). */
static int op_value(struct nb_criterion *c, const char *s, int dflt,
		    char *value, size_t len, const char *where)
{
	static const char *const ops[] = { ">=", "<=", ">", "<", "=", "!=" };
	size_t n;

	s += strspn(s, " \t");
	n = strspn(s, "<>=!");
	c->op = -1;
	for (int i = 0; i < 6; i++)
		if (strlen(ops[i]) == n && !strncmp(s, ops[i], n))
			c->op = i;
	if (c->op < 0)
		return nb_err(-EINVAL, "%s: expected an operator (>= <= > < = !=) "
			      "in '%s'", where, c->text);
	/* a floor written "NAME = V" bounds the way its name says */
	if (c->op == NB_OP_EQ && dflt >= 0)
		c->op = dflt;
	s += n;
	s += strspn(s, " \t");
	snprintf(value, len, "%.*s", (int)strcspn(s, " \t#;"), s);
	return value[0] ? 0 : nb_err(-EINVAL, "%s: no value in '%s'", where, c->text);
}

static int parse_rebuild(struct nb_criterion *c, const char *text,
			 const char *where)
{
	int idle = !strncmp(text, "max_rebuild_time_idle", 21);
	size_t n = idle ? 21 : 16;
	char value[96];
	uint64_t us;

	if (text[n] && !strchr(" \t=<>!", text[n]))
		return nb_err(-EINVAL, "%s: unknown criterion '%.*s' (max_rebuild_time, "
			      "max_rebuild_time_idle)", where, (int)strcspn(text, " ="),
			      text);
	if (op_value(c, text + n, NB_OP_LE, value, sizeof(value), where))
		return -EINVAL;
	if (nb_parse_duration_us(value, &us))
		return nb_err_prefix("%s: max_rebuild_time", where), -EINVAL;
	c->walk = idle ? NB_WALK_REBUILD_IDLE : NB_WALK_REBUILD;
	snprintf(c->workload, sizeof(c->workload), "*");
	snprintf(c->target, sizeof(c->target), "*");
	snprintf(c->metric, sizeof(c->metric), "%.*s", (int)n, text);
	snprintf(c->stored, sizeof(c->stored), "rebuild_s");
	snprintf(c->unit, sizeof(c->unit), "s");
	c->required = (double)us / 1e6;
	return 0;
}

/* "50%" or "50": percent. */
static int percent(const char *v, double *out, const char *where)
{
	char *e;

	*out = strtod(v, &e);
	if (e == v || (*e && strcmp(e, "%")) || !isfinite(*out) || *out < 0)
		return nb_err(-EINVAL, "%s: '%s' is not a percentage (50%%)", where, v);
	return 0;
}

static int parse_keeps(struct nb_criterion *c, const char *text,
		       const char *where)
{
	size_t n = strcspn(text, " \t=<>!");
	const char *w = text;
	char value[96];
	int st;

	snprintf(c->workload, sizeof(c->workload), "*");
	snprintf(c->target, sizeof(c->target), "*");
	if (memchr(text, '@', n)) {
		const char *at = memchr(text, '@', n);

		if (at == text || at + 1 == text + n || (size_t)(at - text) >=
		    sizeof(c->workload) || (size_t)(text + n - at - 1) >= sizeof(c->target))
			return nb_err(-EINVAL, "%s: '%.*s' is not WORKLOAD@TARGET",
				      where, (int)n, text);
		snprintf(c->workload, sizeof(c->workload), "%.*s", (int)(at - text), text);
		snprintf(c->target, sizeof(c->target), "%.*s", (int)(text + n - at - 1),
			 at + 1);
		w = text + n + strspn(text + n, " \t");
		n = strcspn(w, " \t=<>!");
	}
	st = keeps_state(w, n);
	if (op_value(c, w + n, NB_OP_GE, value, sizeof(value), where) ||
	    percent(value, &c->required, where))
		return -EINVAL;
	c->walk = NB_WALK_KEEPS;
	snprintf(c->state, sizeof(c->state), "%s", nb_box_states[st]);
	snprintf(c->metric, sizeof(c->metric), "%.*s", (int)n, w);
	snprintf(c->stored, sizeof(c->stored), "keeps_pct");
	snprintf(c->unit, sizeof(c->unit), "%%");
	return 0;
}

int nb_accept_parse_walk(struct nb_criterion *c, const char *text,
			 const char *where)
{
	c->factor = 1;
	c->stat = NB_ST_MEDIAN;
	if (!strncmp(text, "max_rebuild_time", 16))
		return parse_rebuild(c, text, where);
	return parse_keeps(c, text, where);
}

/* ---- evaluation ---- */

static json_t *verdict(const struct nb_criterion *c, double measured,
		       const char *reason)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:f, s:s, s:b}",
			      "criterion", c->text, "where", c->where, "workload",
			      c->workload, "target", c->target, "metric", c->metric,
			      "stored_metric", c->stored, "statistic", "median", "op",
			      nb_accept_op_name(c->op), "required", c->required,
			      "unit", c->unit, "implied", c->implied);
	int pass;

	if (*c->state)
		json_object_set_new(o, "state", json_string(c->state));
	if (isnan(measured)) {
		json_object_set_new(o, "measured", json_null());
		json_object_set_new(o, "verdict", json_string("fail"));
		json_object_set_new(o, "reason", json_string(reason));
		return o;
	}
	measured = round(measured * 10) / 10;
	switch (c->op) {
	case NB_OP_GE: pass = measured >= c->required; break;
	case NB_OP_LE: pass = measured <= c->required; break;
	case NB_OP_GT: pass = measured > c->required; break;
	case NB_OP_LT: pass = measured < c->required; break;
	case NB_OP_EQ: pass = measured == c->required; break;
	default: pass = measured != c->required; break;
	}
	json_object_set_new(o, "measured", json_real(measured));
	json_object_set_new(o, "verdict", json_string(pass ? "pass" : "fail"));
	return o;
}

static json_t *eval_keeps(const struct nb_criterion *c, const json_t *doc)
{
	static struct nb_failure_row rows[NB_FAILURE_MAXROWS];
	int n = nb_failure_rows(doc, rows, NB_FAILURE_MAXROWS), s = nb_box_state(c->state);
	char why[400];

	for (int i = 0; i < n; i++) {
		const struct nb_failure_row *r = &rows[i];
		double k = nb_failure_keeps(r, s);

		if (strcmp(r->target, c->target) || strcmp(r->workload, c->workload))
			continue;
		snprintf(why, sizeof(why), "'%s' on '%s' has no %s figure %s", c->workload,
			 c->target, isnan(r->v[0]) ? "healthy" : c->state,
			 isnan(r->v[0]) ? "to hold it against" : "(the walk did not "
			 "measure it there)");
		return verdict(c, isnan(k) ? NAN : 100 * k, why);
	}
	snprintf(why, sizeof(why), json_object_get(doc, "failure") ?
		 "'%s' did not run on '%s' in the failure walk" :
		 "no failure walk ran ('%s' on '%s': --rebuild)", c->workload, c->target);
	return verdict(c, NAN, why);
}

json_t *nb_accept_eval_walk(const struct nb_criterion *c, const json_t *doc)
{
	double s;

	if (c->walk == NB_WALK_KEEPS)
		return eval_keeps(c, doc);
	s = nb_failure_rebuild_s(doc, c->walk == NB_WALK_REBUILD_IDLE);
	return verdict(c, s, !json_object_get(doc, "failure") ?
		       "no failure walk ran (--rebuild)" :
		       c->walk == NB_WALK_REBUILD ? "no rebuild was timed under the "
		       "workloads' load (--rebuild load or both; was the walk "
		       "stopped?)" : "no rebuild was timed idle (--rebuild idle or "
		       "both; was the walk stopped?)");
}

int nb_accept_expand_walk(struct nb_accept *out, const struct nb_criterion *c,
			  const json_t *doc)
{
	static struct nb_failure_row rows[NB_FAILURE_MAXROWS];
	int n = c->walk == NB_WALK_KEEPS && !strcmp(c->workload, "*") ?
		nb_failure_rows(doc, rows, NB_FAILURE_MAXROWS) : 0, added = 0;

	for (int i = 0; i < n; i++) {
		struct nb_criterion e = *c;

		if (strcmp(c->target, "*") && strcmp(c->target, rows[i].target))
			continue;
		snprintf(e.workload, sizeof(e.workload), "%s", rows[i].workload);
		snprintf(e.target, sizeof(e.target), "%s", rows[i].target);
		snprintf(e.text, sizeof(e.text), "%.200s (%s@%s)", c->text,
			 e.workload, e.target);
		if (nb_accept_add(out, &e))
			return -ENOMEM;
		added++;
	}
	return !added && nb_accept_add(out, c) ? -ENOMEM : 0;
}
