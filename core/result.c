/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "result.h"
#include "escape.h"
#include "atomic_file.h"
#include "datagen.h"
#include "err.h"
#include "pool.h"
#include "stats.h"
#include "url.h"
#include "version.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void nb_iso_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void nb_result_run_id(char *buf, size_t len, const char *tag)
{
	time_t now = time(NULL);
	struct tm tm;
	struct nb_rng r;
	char ts[32];

	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
	nb_rng_seed(&r, (uint64_t)now ^ ((uint64_t)getpid() << 32) ^
			(uint64_t)clock());
	snprintf(buf, len, "%s-%s%s%04x", ts, tag ? tag : "", tag ? "-" : "",
		 (unsigned)(nb_rng_next(&r) & 0xffff));
}

void nb_result_command(char *buf, size_t len, int argc, char **argv)
{
	size_t n = (size_t)snprintf(buf, len, "nasbench");

	for (int i = 0; i < argc && n < len; i++) {
		char red[1100];

		n += (size_t)snprintf(buf + n, len - n, " %s",
				      nb_url_redact(argv[i], red, sizeof(red)));
	}
}

json_t *nb_result_new(const char *run_id, const char *command)
{
	char now[32];

	nb_iso_now(now, sizeof(now));
	/* the command line as typed: an argument that is not UTF-8 (a file
	 * name) is carried escaped, never the whole result lost */
	return json_pack("{s:i, s:s, s:s, s:s, s:o, s:s, s:s, s:b, s:o, s:{}, s:[], "
			 "s:[]}", "schema", NB_RESULT_SCHEMA, "tool", "nasbench",
			 "version", nb_version(), "git", nb_version_git(),
			 "libs", nb_version_libs(),
			 "run_id", run_id, "started", now, "complete", 0,
			 "command", nb_json_text(command ? command : ""), "labels",
			 "targets", "results");
}

json_t *nb_result_add(json_t *doc, const char *target, const char *workload)
{
	json_t *wl = json_pack("{s:o, s:o, s:s, s:[], s:[]}", "target",
			       nb_json_text(target), "workload", nb_json_text(workload),
			       "status", "ok", "warnings", "iterations");

	json_array_append_new(json_object_get(doc, "results"), wl);
	return wl;
}

void nb_result_set_status(json_t *wl, const char *status, const char *reason)
{
	json_object_set_new(wl, "status", nb_json_text(status));
	if (reason)      /* a tool's or the box's words: kept, whatever bytes */
		json_object_set_new(wl, "reason", nb_json_text(reason));
}

void nb_result_warn(json_t *wl, const char *text)
{
	json_t *w = json_object_get(wl, "warnings"), *v;
	size_t i;

	json_t *t = nb_json_text(text);

	json_array_foreach(w, i, v)
		if (!strcmp(json_string_value(v), json_string_value(t) ?: "")) {
			json_decref(t);
			return;
		}
	json_array_append_new(w, t);
}

void nb_result_iteration(json_t *wl, json_t *metrics, json_t *extra)
{
	json_t *it = json_object();

	json_object_set_new(it, "metrics", metrics);
	if (extra)
		json_object_update_missing(it, extra), json_decref(extra);
	json_array_append_new(json_object_get(wl, "iterations"), it);
}

int nb_result_values(const json_t *wl, const char *metric, double *v, int max)
{
	json_t *its = json_object_get(wl, "iterations"), *it, *m;
	size_t i;
	int n = 0;

	json_array_foreach(its, i, it) {
		m = json_object_get(json_object_get(it, "metrics"), metric);
		if (json_is_number(m) && n < max)
			v[n++] = json_number_value(m);
	}
	return n;
}

static void summarise(json_t *wl)
{
	json_t *its = json_object_get(wl, "iterations"), *first, *sum;
	const char *name;
	json_t *val;
	size_t n = json_array_size(its);
	double *v;

	if (!n)
		return;
	first = json_object_get(json_array_get(its, 0), "metrics");
	sum = json_object();
	v = calloc(n, sizeof(*v));
	json_object_foreach(first, name, val) {
		struct nb_summary s;
		int k = nb_result_values(wl, name, v, (int)n);

		nb_stats_summary(v, (size_t)k, &s);
		json_object_set_new(sum, name,
				    json_pack("{s:I, s:f, s:f, s:f, s:f, s:f}", "n",
					      (json_int_t)s.n, "median", s.median,
					      "mean", s.mean, "min", s.min, "max",
					      s.max, "stddev", s.stddev));
	}
	free(v);
	json_object_set_new(wl, "summary", sum);
	sum = nb_result_pooled(wl);
	if (sum)
		json_object_set_new(wl, "pooled", sum);
}

void nb_result_finish(json_t *doc, int complete)
{
	json_t *wl;
	size_t i;
	char now[32];

	json_array_foreach(json_object_get(doc, "results"), i, wl)
		summarise(wl);
	nb_iso_now(now, sizeof(now));
	json_object_set_new(doc, "finished", json_string(now));
	json_object_set_new(doc, "complete", json_boolean(complete));
}

int nb_result_count_status(const json_t *doc, const char *status)
{
	const json_t *wl;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(doc, "results"), i, wl)
		n += !strcmp(nb_jstr(wl, "status"), status);
	return n;
}

char *nb_result_dump(const json_t *doc)
{
	return json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			  JSON_REAL_PRECISION(10));
}

/* nb_result_dump()'s start: "{", then "schema" and "tool": "nasbench"
 * among the first keys (a result edited by jq keeps them, with the same
 * spacing); a comparison's JSON has "tool" but no "schema". */
static int result_ours(const char *head, size_t len)
{
	return nb_out_starts(head, len, "{") &&
	       nb_out_has(head, len, "\"schema\":") &&
	       nb_out_has(head, len, "\"tool\": \"nasbench\"");
}

const struct nb_out_kind nb_result_out = { "a nasbench result", result_ours };

int nb_result_write(const json_t *doc, const char *path)
{
	char *s = nb_result_dump(doc);
	size_t len;
	int rc;

	if (!s)
		return nb_err_set("out of memory"), -ENOMEM;
	len = strlen(s);
	s[len] = '\n';          /* json_dumps' NUL becomes the final newline */
	rc = nb_atomic_write(path, s, len + 1, &nb_result_out);
	free(s);
	return rc;
}

int nb_result_load(const char *path, json_t **out)
{
	json_error_t e;
	int in = !strcmp(path, "-");
	json_t *doc = in ? json_loadf(stdin, 0, &e) : json_load_file(path, 0, &e);
	json_t *schema;

	if (in)
		path = "standard input";

	*out = NULL;
	if (!doc) {
		if (e.line < 1 || strstr(e.text, "unable to open"))
			return nb_err_set("cannot read '%s': %s", path, e.text), -ENOENT;
		return nb_err_set("'%s' is not valid JSON (line %d, column %d: %s)",
				  path, e.line, e.column, e.text), -EINVAL;
	}
	schema = json_object_get(doc, "schema");
	if (!json_is_object(doc) ||
	    strcmp(json_string_value(json_object_get(doc, "tool")) ?: "", "nasbench") ||
	    !json_is_integer(schema) ||
	    !json_is_array(json_object_get(doc, "results"))) {
		json_decref(doc);
		return nb_err_set("'%s' is not a nasbench result", path), -EINVAL;
	}
	if (json_integer_value(schema) > NB_RESULT_SCHEMA) {
		long long v = (long long)json_integer_value(schema);

		json_decref(doc);
		return nb_err(-EINVAL, "'%s' has result schema %lld, newer than this "
			      "nasbench reads (%d): upgrade nasbench", path, v,
			      NB_RESULT_SCHEMA);
	}
	if (nb_result_check(doc, path)) {
		json_decref(doc);
		return -EINVAL;
	}
	*out = doc;
	return 0;
}

const char *const nb_box_states[NB_BOX_STATES] = { "healthy", "degraded",
						   "rebuilding", "rebuilt" };

int nb_box_state(const char *state)
{
	for (int i = 0; state && i < NB_BOX_STATES; i++)
		if (!strcmp(state, nb_box_states[i]))
			return i;
	return -1;
}

json_t *nb_result_find_state(const json_t *doc, const char *target,
			     const char *workload, const char *state)
{
	json_t *wl;
	size_t i;

	if (!state || !*state)
		state = "healthy";
	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		const char *s = json_string_value(json_object_get(wl, "state"));

		if (!strcmp(json_string_value(json_object_get(wl, "target")) ?: "",
			    target) &&
		    !strcmp(json_string_value(json_object_get(wl, "workload")) ?: "",
			    workload) &&
		    (s ? !strcmp(s, state) : !strcmp(state, "healthy")))
			return wl;
	}
	return NULL;
}

json_t *nb_result_find(const json_t *doc, const char *target,
		       const char *workload)
{
	return nb_result_find_state(doc, target, workload, NULL);
}

int nb_result_stat(const json_t *wl, const char *metric, const char *stat,
		   double *out)
{
	json_t *v = json_object_get(
		json_object_get(json_object_get(wl, "summary"), metric), stat);

	if (!json_is_number(v))
		return -ENOENT;
	*out = json_number_value(v);
	return 0;
}

const json_t *nb_result_last(const json_t *wl)
{
	const json_t *its = json_object_get(wl, "iterations");

	return json_array_get(its, json_array_size(its) - 1);
}

const char *nb_jstr(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

const char *const nb_result_settings[] = {
	"bs", "qd", "iodepth", "size", "runtime_s", "runtime", "direct", "sync",
	"engine", "ioengine", "pattern", "rw", "read_pct", "numjobs",
	"compress", "dedupe_pct", "random_distribution", NULL,
};
