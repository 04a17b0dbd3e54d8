/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * planner_result.c - measured beside expected (planner_result.h).
 */
#include "planner_result.h"
#include "../core/err.h"
#include "../core/result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum figure { F_NONE, F_SEQ_READ, F_SEQ_WRITE, F_SYNC, F_RAND_READ, F_RAND_WRITE };

struct measure {
	enum figure f;
	const char *metric;      /* as stored in the result */
	double v;                /* median: bytes/s or IOPS */
};

static enum figure figure_of(const char *name)
{
	if (!strncmp(name, "seq", 3)) {
		if (strstr(name, "read"))
			return F_SEQ_READ;
		if (strstr(name, "write"))
			return strstr(name, "sync") ? F_SYNC : F_SEQ_WRITE;
	} else if (!strncmp(name, "rand", 4) && !strstr(name, "mix") &&
		   !strstr(name, "sync")) {
		if (strstr(name, "read"))
			return F_RAND_READ;
		if (strstr(name, "write"))
			return F_RAND_WRITE;
	}
	return F_NONE;
}

/* The figures of one result entry (at most 2) the plan has an estimate for. */
static int measured(const json_t *wl, struct measure *m)
{
	static const struct { const char *metric; enum figure f; } bonnie[] = {
		{ "put_block_kps", F_SEQ_WRITE }, { "get_block_kps", F_SEQ_READ },
	};
	const char *name = json_string_value(json_object_get(wl, "workload"));
	int n = 0;

	if (!name)
		return 0;
	if (!strcmp(name, "bonnie")) {
		for (int i = 0; i < 2; i++)
			if (!nb_result_stat(wl, bonnie[i].metric, "median", &m[n].v)) {
				m[n].v *= 1024;
				m[n].f = bonnie[i].f;
				m[n++].metric = bonnie[i].metric;
			}
		return n;
	}
	m->f = figure_of(name);
	m->metric = m->f == F_RAND_READ || m->f == F_RAND_WRITE ? "iops" : "bw_bytes";
	return m->f != F_NONE && !nb_result_stat(wl, m->metric, "median", &m->v);
}

static double expected(const struct nb_planner_out *o, enum figure f, int slog,
		       const char **why)
{
	switch (f) {
	case F_SEQ_READ: *why = o->read_limit; return o->read;
	case F_SEQ_WRITE: *why = o->write_limit; return o->write;
	case F_SYNC:
		if (slog && o->sync_write_slog > 0) {
			*why = o->sync_slog_limit;
			return o->sync_write_slog;
		}
		*why = o->sync_limit;
		return o->sync_write;
	case F_RAND_READ: *why = o->rand_read_limit; return o->rand_read;
	case F_RAND_WRITE: *why = o->rand_write_limit; return o->rand_write;
	default: *why = NULL; return -1;
	}
}

static int has_slog(const json_t *doc)
{
	const char *s = json_string_value(json_object_get(
		json_object_get(doc, "labels"), "slog"));

	return s && *s && strcasecmp(s, "none") && strcasecmp(s, "no") &&
	       strcasecmp(s, "off");
}

static json_t *row(const struct nb_planner_out *p, const json_t *wl,
		   const struct measure *ms, int slog)
{
	const char *why, *wname = json_string_value(json_object_get(wl, "workload"));
	double v = ms->v, e = expected(p, ms->f, slog, &why);
	const char *unit = ms->f == F_RAND_READ || ms->f == F_RAND_WRITE ? "IOPS" : "B/s";
	char what[96];
	json_t *r;

	/* "seq512k-read"; "bonnie put_block" (bonnie's metrics end in _kps) */
	if (!strcmp(ms->metric, "bw_bytes") || !strcmp(ms->metric, "iops"))
		snprintf(what, sizeof(what), "%s", wname);
	else
		snprintf(what, sizeof(what), "%s %.*s", wname,
			 (int)(strlen(ms->metric) - strlen("_kps")), ms->metric);
	if (ms->f == F_SYNC)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s",
			 slog && p->sync_write_slog > 0 ? " (slog)" : "");
	r = json_pack("{s:O, s:O, s:s, s:s, s:{s:f, s:s}}",
		"target", json_object_get(wl, "target"),
		"workload", json_object_get(wl, "workload"), "metric", ms->metric,
		"what", what, "measured", "value", v, "unit", unit);
	if (e > 0) {
		json_object_set_new(r, "expected",
				    json_pack("{s:f, s:s}", "value", e, "unit", unit));
		json_object_set_new(r, "limit", why ? json_string(why) : json_null());
		json_object_set_new(r, "share", json_real(v / e));
		if (ms->f == F_SYNC)
			json_object_set_new(r, "flag", v > NB_PLANNER_SYNC_OVER * e ?
					    json_string(NB_PLANNER_SYNC_MSG) : json_null());
		else
			json_object_set_new(r, "flag", v > NB_PLANNER_OVER * e ?
					    json_string(NB_PLANNER_OVER_MSG) : json_null());
	} else {
		json_object_set_new(r, "expected", json_null());
		json_object_set_new(r, "limit", json_null());
		json_object_set_new(r, "share", json_null());
		json_object_set_new(r, "flag", json_null());
	}
	return r;
}

/* The figures of DOC against plan P; NOTE says why P. */
static json_t *against(const struct nb_planner_out *p, const char *path,
		       const json_t *doc, const char *note)
{
	json_t *rows = json_array(), *wl;
	int slog = has_slog(doc);
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		struct measure ms[2];
		int k = measured(wl, ms);

		for (int j = 0; j < k; j++)
			json_array_append_new(rows, row(p, wl, &ms[j], slog));
	}
	return json_pack("{s:s, s:s, s:s, s:b, s:f, s:f, s:o}", "file", path,
			 "layout", p->layout, "note", note, "published",
			 json_is_object(json_object_get(doc, "published")),
			 "over", NB_PLANNER_OVER, "sync_over", NB_PLANNER_SYNC_OVER,
			 "figures", rows);
}

static const char *layout_label(const json_t *doc)
{
	return json_string_value(json_object_get(json_object_get(doc, "labels"),
						 "layout"));
}

json_t *nb_planner_measured(const struct nb_planner_in *in, const char *path,
			 const json_t *doc, const struct nb_planner_out *plans, int n)
{
	const char *layout = layout_label(doc);
	struct nb_planner_out own;

	if (layout && !nb_planner_compute(in, layout, &own))
		return against(&own, path, doc, "");
	nb_err_clear();
	if (!n)
		return NULL;
	return against(&plans[0], path, doc,
		       layout ? "its layout label does not fit these disks; against "
				"the first layout"
			      : "no layout label; against the first layout");
}

json_t *nb_planner_measured_file(const json_t *plan, const char *path,
			      const json_t *doc)
{
	const json_t *layouts = json_object_get(plan, "layouts"), *l;
	const char *label = layout_label(doc);
	size_t n = json_array_size(layouts), i, pick = 0;
	struct nb_planner_out *outs = calloc(n ? n : 1, sizeof(*outs));
	int found = 0;
	json_t *r = NULL;

	if (!outs)
		return NULL;
	json_array_foreach(layouts, i, l) {
		struct nb_pool_layout want;
		int disks = (int)json_integer_value(json_object_get(l, "disks"));

		if (nb_planner_out_from_json(l, &outs[i]))
			goto out;        /* nb_planner_load() checked them */
		if (!found && label && !nb_pool_parse_layout(label, disks, &want) &&
		    !strcmp(want.name, outs[i].layout)) {
			pick = i;
			found = 1;
		}
	}
	nb_err_clear();
	if (n)
		r = against(&outs[pick], path, doc, found ? "" : label ?
			    "its layout label is not among the plan's layouts; "
			    "against the first layout" :
			    "no layout label; against the first layout");
out:
	free(outs);
	return r;
}

void nb_planner_measure_all(json_t *plan, json_t *const *docs,
			 const char *const *paths, size_t n)
{
	json_t *all = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *m = nb_planner_measured_file(plan, paths[i], docs[i]);

		if (m)
			json_array_append_new(all, m);
	}
	json_object_set_new(plan, "measured", all);
}
