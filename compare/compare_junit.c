/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_junit.c - 'nasbench compare --junit': a test suite per
 * comparison, a test case per verdict and per gated or failing row, for
 * CI systems (formats/junit.c writes the XML).
 */
#include "compare.h"
#include "../core/result.h"
#include "../formats/junit.h"

#include <string.h>

/* An absent label reads "(none)". */
static const char *or_none(const char *s)
{
	return *s ? s : "(none)";
}

static int is(const json_t *o, const char *k)
{
	return json_is_true(json_object_get(o, k));
}

/* A band other than viable fails its test case too (type "decide" or
 * "not-viable"). */
static const char *band_failure(const json_t *r)
{
	const char *b = nb_jstr(json_object_get(r, "band"), "verdict");

	return !strcmp(b, "decide") ? "decide" : !strcmp(b, "not viable") ?
	       "not-viable" : NULL;
}

static int junit_fails(const json_t *r)
{
	return is(r, "regression") || !strcmp(nb_jstr(r, "verdict"), "changed-settings") ||
	       band_failure(r);
}

/* An inconclusive gated verdict (the gate could not decide it) is a
 * skipped test case: neither a pass nor a failure. */
static void junit_row(FILE *out, const json_t *r, int primary)
{
	char cls[256], name[256], msg[2048];
	const char *type = !strcmp(nb_jstr(r, "verdict"), "changed-settings") ?
			   "changed-settings" : !strcmp(nb_jstr(r, "verdict"), "missing") ?
			   "missing" : is(r, "regression") ? "regression" :
			   band_failure(r) ? band_failure(r) : "regression";
	const struct nb_xml_attr fail[] = {
		{ "type", type }, { "message", msg }, { NULL, NULL },
	};
	const struct nb_xml_attr skip[] = { { "message", msg }, { NULL, NULL } };
	int f = junit_fails(r), sk = !f && is(r, "inconclusive");

	snprintf(cls, sizeof(cls), "nasbench.%s", nb_jstr(r, "target"));
	if (primary)
		snprintf(name, sizeof(name), "%s%s%s", nb_jstr(r, "workload"),
			 *nb_jstr(r, "state") ? " " : "", nb_jstr(r, "state"));
	else
		snprintf(name, sizeof(name), "%s%s%s %s", nb_jstr(r, "workload"),
			 *nb_jstr(r, "state") ? " " : "", nb_jstr(r, "state"),
			 nb_jstr(r, "metric"));
	nb_compare_row_line(msg, sizeof(msg), r);
	nb_junit_case(out, &(struct nb_junit_case){
		.classname = cls, .name = name,
		.status = f ? NB_JUNIT_FAIL : sk ? NB_JUNIT_SKIP : NB_JUNIT_PASS,
		.attrs = f ? fail : sk ? skip : NULL, .text = f || sk ? NULL : msg,
	});
}

/* A test case: every verdict, and the other metrics that gate or fail. */
static int junit_counted(const json_t *r, int primary)
{
	return primary || is(r, "gated") || is(r, "regression") ||
	       json_object_get(r, "band");
}

static void junit_count(const json_t *c, long *tests, long *failures,
			long *skipped)
{
	json_t *r;
	size_t i;

	json_array_foreach(json_object_get(c, "verdicts"), i, r) {
		*tests += 1, *failures += junit_fails(r);
		*skipped += !junit_fails(r) && is(r, "inconclusive");
	}
	json_array_foreach(json_object_get(c, "rows"), i, r)
		if (junit_counted(r, 0)) {
			*tests += 1, *failures += junit_fails(r);
			*skipped += !junit_fails(r) && is(r, "inconclusive");
		}
}

void nb_compare_junit(FILE *out, const json_t *doc)
{
	json_t *c, *r, *v;
	size_t i, j;
	long tests = 0, failures = 0, skipped = 0;

	json_array_foreach(json_object_get(doc, "comparisons"), i, c)
		junit_count(c, &tests, &failures, &skipped);
	nb_junit_begin(out, "nasbench compare", &(struct nb_junit_counts){
		tests, failures, skipped ? skipped : -1, -1 });
	json_array_foreach(json_object_get(doc, "comparisons"), i, c) {
		char name[1024];
		long t = 0, f = 0, sk = 0;

		junit_count(c, &t, &f, &sk);
		snprintf(name, sizeof(name), "%s -> %s", nb_jstr(c, "base"), nb_jstr(c, "new"));
		nb_junit_suite_begin(out, name, &(struct nb_junit_counts){ t, f,
				     sk ? sk : -1, -1 });
		if (json_array_size(json_object_get(c, "labels"))) {
			nb_junit_properties_begin(out);
			json_array_foreach(json_object_get(c, "labels"), j, v) {
				char key[256], val[512];

				snprintf(key, sizeof(key), "label.%s", nb_jstr(v, "key"));
				snprintf(val, sizeof(val), "%s -> %s", or_none(nb_jstr(v, "base")),
					 or_none(nb_jstr(v, "new")));
				nb_junit_property(out, key, val);
			}
			nb_junit_properties_end(out);
		}
		json_array_foreach(json_object_get(c, "verdicts"), j, r)
			junit_row(out, r, 1);
		json_array_foreach(json_object_get(c, "rows"), j, r)
			if (junit_counted(r, 0))
				junit_row(out, r, 0);
		nb_junit_suite_end(out);
	}
	nb_junit_end(out);
}
