/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result_check.c - a result file's shape, checked where it is read
 * (nb_result_load(); docs/result.md, docs/security.md).
 *
 * A result file is data another machine wrote: every key a reader takes
 * as a string, an object, an array or a number is that, or the file is
 * refused (exit 2) with the key's path, never read as a string that is
 * not there (a warning that was a number crashed 'report').  Keys a
 * reader does not know are left alone.
 */
#include "result.h"
#include "err.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum want { W_STR, W_OBJ, W_ARR, W_NUM, W_STR_NULL, W_NUM_NULL };

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: case JSON_REAL: return "a number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

static int is(const json_t *v, enum want w)
{
	switch (w) {
	case W_STR: return json_is_string(v);
	case W_OBJ: return json_is_object(v);
	case W_ARR: return json_is_array(v);
	case W_NUM: return json_is_number(v);
	case W_STR_NULL: return json_is_string(v) || json_is_null(v);
	default: return json_is_number(v) || json_is_null(v);
	}
}

static const char *const wanted[] = { "a string", "an object", "an array",
				      "a number", "a string", "a number" };

/* V (at PATH) is W, else -EINVAL with "FILE is not a nasbench result:
 * PATH is a number, not a string" set. */
static int want(const char *file, const char *path, const json_t *v, enum want w)
{
	if (is(v, w))
		return 0;
	return nb_err(-EINVAL, "'%s' is not a nasbench result: %s is %s, not %s",
		      file, path, type_name(v), wanted[w]);
}

/* Key K of O, when there, is W; its path PATH.K. */
static int key(const char *file, const char *path, const json_t *o, const char *k,
	       enum want w)
{
	const json_t *v = json_object_get(o, k);
	char p[256];

	if (!v)
		return 0;
	snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", k);
	return want(file, p, v, w);
}

/* Each member of container C (at PATH, an object or an array) is W. */
static int each(const char *file, const char *path, const json_t *c, enum want w)
{
	const char *k;
	json_t *v;
	size_t i;
	char p[256];

	json_object_foreach((json_t *)c, k, v) {
		snprintf(p, sizeof(p), "%s.%s", path, k);
		if (want(file, p, v, w))
			return -EINVAL;
	}
	json_array_foreach(c, i, v) {
		snprintf(p, sizeof(p), "%s[%zu]", path, i);
		if (want(file, p, v, w))
			return -EINVAL;
	}
	return 0;
}

/* Key K of O, when there, is a container C of members that are W. */
static int key_each(const char *file, const char *path, const json_t *o,
		    const char *k, enum want c, enum want w)
{
	char p[256];

	snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", k);
	return key(file, path, o, k, c) ||
	       each(file, p, json_object_get(o, k), w);
}

static int telemetry(const char *file, const char *path, const json_t *t)
{
	const json_t *se = json_object_get(t, "series");
	char p[256];

	snprintf(p, sizeof(p), "%s.series", path);
	return key(file, path, t, "series", W_OBJ) ||
	       key(file, path, t, "summary", W_OBJ) ||
	       key_each(file, path, t, "verdicts", W_ARR, W_OBJ) ||
	       key_each(file, p, se, "t_ms", W_ARR, W_NUM_NULL) ||
	       key_each(file, p, se, "disk_busy_pct", W_OBJ, W_ARR);
}

static int iteration(const char *file, const char *path, const json_t *it)
{
	char p[256];

	if (want(file, path, it, W_OBJ) ||
	    key_each(file, path, it, "metrics", W_OBJ, W_NUM_NULL) ||
	    key(file, path, it, "telemetry", W_OBJ))
		return -EINVAL;
	snprintf(p, sizeof(p), "%s.telemetry", path);
	return json_object_get(it, "telemetry") ?
	       telemetry(file, p, json_object_get(it, "telemetry")) : 0;
}

static int entry(const char *file, const char *path, const json_t *e)
{
	static const char *const strs[] = { "target", "workload", "status", "state" };
	const json_t *it, *s;
	const char *k;
	size_t i;
	char p[256];

	if (want(file, path, e, W_OBJ))
		return -EINVAL;
	for (i = 0; i < sizeof(strs) / sizeof(*strs); i++)
		if (key(file, path, e, strs[i], W_STR))
			return -EINVAL;
	if (key(file, path, e, "reason", W_STR_NULL) ||
	    key_each(file, path, e, "warnings", W_ARR, W_STR) ||
	    key(file, path, e, "spec", W_OBJ) || key(file, path, e, "pooled", W_OBJ) ||
	    key_each(file, path, e, "summary", W_OBJ, W_OBJ) ||
	    key(file, path, e, "iterations", W_ARR))
		return -EINVAL;
	json_object_foreach(json_object_get(e, "summary"), k, s) {
		snprintf(p, sizeof(p), "%s.summary.%s", path, k);
		if (each(file, p, s, W_NUM_NULL))
			return -EINVAL;
	}
	json_array_foreach(json_object_get(e, "iterations"), i, it) {
		snprintf(p, sizeof(p), "%s.iterations[%zu]", path, i);
		if (iteration(file, p, it))
			return -EINVAL;
	}
	return 0;
}

int nb_result_check(const json_t *doc, const char *file)
{
	static const char *const strs[] = { "run_id", "started", "finished",
					    "version", "git", "command" };
	const json_t *t, *e;
	size_t i;
	char p[64];

	for (i = 0; i < sizeof(strs) / sizeof(*strs); i++)
		if (key(file, "", doc, strs[i], W_STR))
			return -EINVAL;
	if (key_each(file, "", doc, "labels", W_OBJ, W_STR) ||
	    key_each(file, "", doc, "targets", W_ARR, W_OBJ) ||
	    key(file, "", doc, "client", W_OBJ) ||
	    key(file, "client", json_object_get(doc, "client"), "hostname", W_STR))
		return -EINVAL;
	json_array_foreach(json_object_get(doc, "targets"), i, t) {
		snprintf(p, sizeof(p), "targets[%zu]", i);
		if (key(file, p, t, "name", W_STR) || key(file, p, t, "url", W_STR) ||
		    key(file, p, t, "runner", W_STR))
			return -EINVAL;
	}
	json_array_foreach(json_object_get(doc, "results"), i, e) {
		snprintf(p, sizeof(p), "results[%zu]", i);
		if (entry(file, p, e))
			return -EINVAL;
	}
	return 0;
}
