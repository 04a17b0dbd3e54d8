/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * accept_out.c - the verdicts shown: the pass/fail table a person reads
 * and the JUnit XML a CI system reads (criteria, then conformance tests).
 */
#include "accept.h"
#include "../formats/junit.h"
#include "../core/atomic_file.h"
#include "../core/err.h"
#include "../core/escape.h"
#include "../core/result.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fmt_value(char *buf, size_t len, const json_t *v, const char *unit)
{
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld%s%s", (long long)json_integer_value(v),
			 *unit ? " " : "", unit);
	else if (json_is_number(v))
		snprintf(buf, len, fabs(json_number_value(v)) >= 1e3 ? "%.0f%s%s" :
			 "%.4g%s%s", json_number_value(v), *unit ? " " : "", unit);
	else
		snprintf(buf, len, "nothing");
}

static void print(FILE *out, const json_t *acc);

/* What the criteria met reaches the terminal shown, never sent
 * (core/escape.h): a criterion names targets and workloads. */
void nb_accept_print(FILE *under, const json_t *acc)
{
	FILE *out = nb_term_open(under);

	print(out ? out : under, acc);
	if (out)
		fclose(out);
}

static void print(FILE *out, const json_t *acc)
{
	const json_t *c;
	size_t i;

	fprintf(out, "\nacceptance: %s (%lld passed, %lld failed)\n",
		!strcmp(nb_jstr(acc, "verdict"), "pass") ? "PASS" : "FAIL",
		(long long)json_integer_value(json_object_get(acc, "passed")),
		(long long)json_integer_value(json_object_get(acc, "failed")));
	fprintf(out, "  %-4s  %-50s %-7s %16s\n", "", "criterion", "stat",
		"measured");
	json_array_foreach(json_object_get(acc, "criteria"), i, c) {
		char meas[64];

		fmt_value(meas, sizeof(meas), json_object_get(c, "measured"),
			  nb_jstr(c, "unit"));
		fprintf(out, "  %-4s  %-50s %-7s %16s\n",
			!strcmp(nb_jstr(c, "verdict"), "pass") ? "ok" : "FAIL",
			NB_TERM(nb_jstr(c, "criterion")), NB_TERM(nb_jstr(c, "statistic")),
			meas);
		if (*nb_jstr(c, "reason")) {
			fputs("        ", out);
			nb_term_escape(out, nb_jstr(c, "reason"));
			fputc('\n', out);
		}
	}
}

/* One testcase a criterion: "accept.TARGET" / the criterion as written; a
 * failure carries measured vs required. */
static void junit_criterion(FILE *out, const json_t *c)
{
	const char *unit = nb_jstr(c, "unit");
	char cls[256], meas[64], req[64], msg[1200], text[6000];
	const struct nb_xml_attr fail[] = {
		{ "message", msg }, { "type", "criterion" }, { NULL, NULL },
	};
	int pass = !strcmp(nb_jstr(c, "verdict"), "pass");

	snprintf(cls, sizeof(cls), "accept.%s", nb_jstr(c, "target"));
	fmt_value(meas, sizeof(meas), json_object_get(c, "measured"), unit);
	fmt_value(req, sizeof(req), json_object_get(c, "required"), unit);
	snprintf(msg, sizeof(msg), "measured %s (%s), required %s %s%s%s",
		 meas, nb_jstr(c, "statistic"), nb_jstr(c, "op"), req,
		 *nb_jstr(c, "reason") ? ": " : "", nb_jstr(c, "reason"));
	snprintf(text, sizeof(text), "%s: %s\n%s", nb_jstr(c, "where"),
		 nb_jstr(c, "criterion"), msg);
	nb_junit_case(out, &(struct nb_junit_case){
		.classname = cls, .name = nb_jstr(c, "criterion"),
		.status = pass ? NB_JUNIT_PASS : NB_JUNIT_FAIL,
		.attrs = fail, .text = pass ? NULL : text,
	});
}

static void junit_criteria(FILE *out, const json_t *acc)
{
	const json_t *c;
	size_t i;

	nb_junit_suite_begin(out, "nasbench.accept", &(struct nb_junit_counts){
		(long)json_array_size(json_object_get(acc, "criteria")),
		(long)json_integer_value(json_object_get(acc, "failed")), -1, 0 });
	json_array_foreach(json_object_get(acc, "criteria"), i, c)
		junit_criterion(out, c);
	nb_junit_suite_end(out);
}

/* The conformance tests of the last iteration of each conform entry. */
static void junit_conform(FILE *out, const json_t *doc)
{
	const json_t *wl;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, wl) {
		const json_t *its = json_object_get(wl, "iterations"), *conf, *t;
		size_t j, nfail = 0, nskip = 0;
		char name[256];

		if (strcmp(nb_jstr(wl, "workload"), "conform") || !json_array_size(its))
			continue;
		conf = json_object_get(json_array_get(its, json_array_size(its) - 1),
				       "conformance");
		json_array_foreach(json_object_get(conf, "tests"), j, t) {
			nfail += !strcmp(nb_jstr(t, "status"), "fail");
			nskip += !strcmp(nb_jstr(t, "status"), "skip");
		}
		snprintf(name, sizeof(name), "conform.%s", nb_jstr(wl, "target"));
		nb_junit_suite_begin(out, name, &(struct nb_junit_counts){
			(long)json_array_size(json_object_get(conf, "tests")),
			(long)nfail, (long)nskip, 0 });
		json_array_foreach(json_object_get(conf, "tests"), j, t) {
			const char *st = nb_jstr(t, "status");
			const struct nb_xml_attr msg[] = {
				{ "message", nb_jstr(t, "message") }, { NULL, NULL },
			};

			nb_junit_case(out, &(struct nb_junit_case){
				.classname = nb_jstr(conf, "tool"), .name = nb_jstr(t, "name"),
				.status = !strcmp(st, "pass") ? NB_JUNIT_PASS :
					  !strcmp(st, "skip") ? NB_JUNIT_SKIP : NB_JUNIT_FAIL,
				.attrs = msg,
			});
		}
		nb_junit_suite_end(out);
	}
}

/* nb_junit_begin(out, "nasbench", NULL)'s start */
static int junit_ours(const char *head, size_t len)
{
	return nb_out_starts(head, len, "<?xml") &&
	       nb_out_has(head, len, "<testsuites name=\"nasbench\">");
}

const struct nb_out_kind nb_accept_junit_out = {
	"the JUnit XML of nasbench's acceptance", junit_ours };

int nb_accept_junit(const json_t *doc, const char *path)
{
	const json_t *acc = json_object_get(doc, "accept");
	char *b = NULL;
	size_t l = 0;
	FILE *out = open_memstream(&b, &l);
	int rc;

	if (!out)
		return nb_err(-ENOMEM, "out of memory");
	nb_junit_begin(out, "nasbench", NULL);
	if (acc)
		junit_criteria(out, acc);
	junit_conform(out, doc);
	nb_junit_end(out);
	if (fclose(out)) {
		free(b);
		return nb_err(-ENOMEM, "out of memory");
	}
	rc = nb_atomic_write(path, b, l, &nb_accept_junit_out);
	free(b);
	return rc;
}

int nb_accept_report(const json_t *doc, FILE *out, const char *junit)
{
	const json_t *acc = json_object_get(doc, "accept");

	if (out && acc)
		nb_accept_print(out, acc);
	if (junit && nb_accept_junit(doc, junit)) {
		nb_die_msg("%s", nb_err_last());
		return -EIO;
	}
	return 0;
}
