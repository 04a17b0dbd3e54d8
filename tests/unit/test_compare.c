/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare.c - verdicts, the gate file, and the exact shape of every
 * compare format on fixed inputs (tests/golden/compare/).  Regenerate the
 * golden files after an intended change with NASBENCH_UPDATE_GOLDEN=1 make unit,
 * and read the diff.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/err.h"
#include "../../core/metrics.h"
#include "../../core/result.h"
#include "../../compare/compare.h"
#include "../../compare/gate.h"
#include "files.h"

#define G "tests/golden/compare/"

static void judge_o(const double *b, const int *run, int nb, const double *n,
		    int nn, int better, double thr, int strict,
		    struct nb_judgement *j)
{
	struct nb_judge_opts o = {
		.threshold = thr, .display = 0.05, .alpha = 0.05,
		.run_noise = NB_JUDGE_RUN_NOISE, .strict = strict,
	};

	nb_judge(b, run, nb, n, nn, better, &o, j);
}

static void judge(const double *b, int nb, const double *n, int nn, int better,
		  double thr, struct nb_judgement *j)
{
	judge_o(b, NULL, nb, n, nn, better, thr, 0, j);
}

static void verdicts(void **state)
{
	const double base5[] = { 100, 101, 99, 100.5, 99.5 };
	const double worse5[] = { 90, 91, 89, 90.5, 89.5 };   /* -10%, apart */
	const double half5[] = { 50, 50.5, 49.5, 50.2, 49.8 };
	const double twice5[] = { 200, 202, 198, 201, 199 };
	const double wide5[] = { 30, 60, 45, 80, 25 };        /* -55%, sw 0.5 */
	const double two[] = { 100, 101 }, two_down[] = { 80, 81 };
	const double zero[] = { 0, 0, 0 }, some[] = { 1, 1, 1 };
	/* five base runs of three iterations, levels within 1% */
	const double hist[] = { 100, 101, 99, 100.5, 101, 100, 99.5, 100, 99,
				100.2, 100.8, 99.8, 99.7, 100.1, 100.3 };
	const int runs[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4 };
	struct nb_judgement j;

	(void)state;
	/* two single runs, -10% and tight iterations: the between-run noise
	 * is assumed (at least NB_JUDGE_RUN_NOISE), not measured: the gate
	 * cannot tell -10% from the next run's drift: inconclusive, with what
	 * it could have detected */
	judge(base5, 5, worse5, 5, NB_HIGHER, 0.05, &j);
	assert_int_equal(j.verdict, NB_V_INCONCLUSIVE);
	assert_true(j.inconclusive);
	assert_false(j.regression || j.low_confidence || j.measured);
	assert_string_equal(j.test, "run-t");
	assert_true(fabs(j.change + 0.1) < 1e-12);
	/* se = sqrt(2 * 0.15^2 + tiny), one-sided t(0.95, 8) = 1.860:
	 * exp(-0.394) - 1 = -32.6%, exp(0.394) - 1 = +48.3% */
	assert_true(j.detect_down > -0.33 && j.detect_down < -0.32);
	assert_true(j.detect_up > 0.48 && j.detect_up < 0.49);
	assert_true(fabs(j.noise + j.detect_down) < 1e-12);
	/* one-sided: half the two-sided p (0.62) */
	assert_true(j.p > 0.27 && j.p < 0.35);
	/* -28.6% (the figures): still inside what it can detect */
	judge(base5, 5, (const double[]){ 71.4, 72, 71, 71.6, 71.2 }, 5, NB_HIGHER,
	      0.05, &j);
	assert_int_equal(j.verdict, NB_V_INCONCLUSIVE);
	/* halved: worse, a regression even under the assumed noise (t = 0.693
	 * / 0.212 = 3.27: one-sided p 0.0057) */
	judge(base5, 5, half5, 5, NB_HIGHER, 0.05, &j);
	assert_int_equal(j.verdict, NB_V_WORSE);
	assert_true(j.regression);
	assert_false(j.inconclusive);
	assert_true(j.p > 0.004 && j.p < 0.008);
	/* one collapsed iteration does not hide it (median and MAD) */
	judge(base5, 5, (const double[]){ 50, 50.5, 2, 50.2, 49.8 }, 5, NB_HIGHER,
	      0.05, &j);
	assert_int_equal(j.verdict, NB_V_WORSE);
	assert_true(fabs(j.change + 0.5) < 0.01);
	/* the same figures for latency: lower is better there; what it can
	 * detect is a rise */
	judge(base5, 5, twice5, 5, NB_LOWER, 0.05, &j);
	assert_int_equal(j.verdict, NB_V_WORSE);
	assert_true(fabs(j.noise - j.detect_up) < 1e-12);
	judge(twice5, 5, base5, 5, NB_LOWER, 0.05, &j);
	assert_int_equal(j.verdict, NB_V_BETTER);
	assert_false(j.regression);
	/* halved but the iterations spread widely: the spread widens the
	 * between-run allowance too (sw > RUN_NOISE): not significant, and
	 * the noise was not measured: inconclusive */
	judge(base5, 5, wide5, 5, NB_HIGHER, 0.05, &j);
	assert_int_equal(j.verdict, NB_V_INCONCLUSIVE);
	assert_false(j.regression);
	/* within the threshold, but the noise not measured: a real loss could
	 * hide in the drift, so not "unchanged" either */
	judge(base5, 5, half5, 5, NB_HIGHER, 0.60, &j);
	assert_int_equal(j.verdict, NB_V_INCONCLUSIVE);
	/* a history of 5 runs measures the between-run noise (1%): the same
	 * -10% is now worse */
	judge_o(hist, runs, 15, worse5, 5, NB_HIGHER, 0.05, 0, &j);
	assert_int_equal(j.verdict, NB_V_WORSE);
	assert_true(j.regression && j.measured);
	assert_false(j.inconclusive);
	assert_int_equal(j.runs, 5);
	assert_true(j.noise < 0.05);
	judge_o(hist, runs, 15, (const double[]){ 101, 100, 99.5 }, 3, NB_HIGHER,
		0.05, 0, &j);
	assert_int_equal(j.verdict, NB_V_UNCHANGED);
	assert_false(j.inconclusive);
	/* exactly at the threshold is within it */
	judge_o(hist, runs, 15, (const double[]){ 95.095, 95.095, 95.095 }, 3, NB_HIGHER,
		0.05, 0, &j);
	assert_true(fabs(j.change + 0.05) < 1e-9);
	assert_int_equal(j.verdict, NB_V_UNCHANGED);
	/* measured, beyond the threshold but within the measured noise */
	judge_o(hist, runs, 15, (const double[]){ 93, 94, 93.5 }, 3, NB_HIGHER,
		0.50, 0, &j);
	assert_int_equal(j.verdict, NB_V_UNCHANGED);
	/* two single runs, the level's variance measured on 4 other runs
	 * (--noise history: levels within 1%): the same -10% is worse */
	{
		struct nb_judge_opts o = {
			.threshold = 0.05, .display = 0.05, .alpha = 0.05,
			.run_noise = NB_JUDGE_RUN_NOISE, .ref_var = 1e-4,
			.ref_runs = 4,
		};

		nb_judge(base5, NULL, 5, worse5, 5, NB_HIGHER, &o, &j);
		assert_int_equal(j.verdict, NB_V_WORSE);
		assert_true(j.measured && j.regression);
		assert_int_equal(j.ref_runs, 4);
		assert_true(j.noise < 0.05);
		o.ref_runs = 2;          /* two runs measure nothing */
		nb_judge(base5, NULL, 5, worse5, 5, NB_HIGHER, &o, &j);
		assert_int_equal(j.verdict, NB_V_INCONCLUSIVE);
	}
	/* a history of 4 runs of 2 iterations each has measured the
	 * between-run noise (levels within 2%): a new run of 2 iterations is
	 * judged by where it falls among them, not "low confidence" (issue
	 * 46: a CI that keeps its history got exit 5 for ever) */
	{
		const double h2[] = { 100, 101, 98, 99, 101, 102, 99.5, 100.5 };
		const int r2[] = { 0, 0, 1, 1, 2, 2, 3, 3 };

		judge_o(h2, r2, 8, (const double[]){ 100.2, 99.6 }, 2, NB_HIGHER,
			0.05, 0, &j);
		assert_int_equal(j.verdict, NB_V_UNCHANGED);
		assert_true(j.measured && !j.low_confidence && !j.inconclusive);
		assert_int_equal(j.runs, 4);
		judge_o(h2, r2, 8, (const double[]){ 70, 71 }, 2, NB_HIGHER, 0.05,
			0, &j);
		assert_int_equal(j.verdict, NB_V_WORSE);
		assert_true(j.regression && !j.low_confidence);
		/* one iteration: judged too, its own within-run noise added */
		judge_o(h2, r2, 8, (const double[]){ 70 }, 1, NB_HIGHER, 0.05, 0,
			&j);
		assert_int_equal(j.verdict, NB_V_WORSE);
		assert_true(j.regression);
		/* beyond a 2% threshold, inside the runs' spread (1.2% sd:
		 * it detects 3.3%): noise, measured, not inconclusive */
		judge_o(h2, r2, 8, (const double[]){ 97.6, 97.4 }, 2, NB_HIGHER,
			0.02, 0, &j);
		assert_int_equal(j.verdict, NB_V_NOISE);
		assert_true(j.detect_down < -0.025 && j.detect_down > -0.045);
		assert_false(j.inconclusive || j.regression);
		/* two base runs measure nothing: low confidence still */
		judge_o(h2, r2, 4, (const double[]){ 70, 71 }, 2, NB_HIGHER, 0.05,
			0, &j);
		assert_true(j.low_confidence && j.inconclusive);
	}
	/* fewer than 3: the threshold alone, low confidence, not gated:
	 * inconclusive ... */
	judge(two, 2, two_down, 2, NB_HIGHER, 0.05, &j);
	assert_int_equal(j.verdict, NB_V_WORSE);
	assert_true(j.low_confidence && j.inconclusive);
	assert_false(j.regression);
	assert_null(j.test);
	assert_true(isnan(j.p) && isnan(j.noise));
	/* ... unless strict, which gates it on the threshold */
	judge_o(two, NULL, 2, two_down, 2, NB_HIGHER, 0.05, 1, &j);
	assert_true(j.low_confidence && j.regression);
	assert_false(j.inconclusive);
	/* threshold off: judged at the display threshold, never a regression */
	judge(base5, 5, half5, 5, NB_HIGHER, NB_GATE_OFF, &j);
	assert_int_equal(j.verdict, NB_V_WORSE);
	assert_false(j.regression);
	judge(base5, 5, base5, 5, NB_HIGHER, NB_GATE_OFF, &j);
	assert_int_equal(j.verdict, NB_V_INCONCLUSIVE);
	/* no direction: changed, on a two-sided test */
	judge(base5, 5, half5, 5, NB_NEITHER, 0.05, &j);
	assert_int_equal(j.verdict, NB_V_CHANGED);
	assert_false(j.regression);
	assert_true(j.p > 0.008 && j.p < 0.015);
	/* from zero */
	judge(zero, 3, some, 3, NB_LOWER, 0.05, &j);
	assert_true(isinf(j.change) && j.change > 0);
	assert_int_equal(j.verdict, NB_V_WORSE);
	judge(zero, 3, zero, 3, NB_LOWER, 0.05, &j);
	assert_int_equal(j.verdict, NB_V_INCONCLUSIVE);
}

static char *write_tmp(const char *text)
{
	static char path[64];

	snprintf(path, sizeof(path), "/tmp/nb-unit-gate.%d.ini", (int)getpid());
	test_write_file(path, text);
	return path;
}

/* a gate file and its error after "FILE:" */
static const struct {
	const char *text;
	const char *msg;
} bad_gates[] = {
	{ "[gate]\nmax-regres = 5%\n", "2: unknown key 'max-regres' in [gate]; did you mean 'max-regress'?" },
	{ "; c\n[metric]\nbw_bytes = 5x\n", "3: bad threshold '5x' for 'bw_bytes' (a percentage like 5% or 'off')" },
	{ "[gates]\nx = 1\n", "1: unknown section [gates] (expected [gate], [metric], [bands] or [workload NAME])" },
	{ "[metric]\niops = 5%\njust words\n", "3: expected '[section]' or 'key = value'" },
};

static void gate_file(void **state)
{
	struct nb_gate g;
	char *p;

	(void)state;
	nb_gate_init(&g);
	assert_int_equal(nb_gate_load(&g, G "gate.ini"), 0);
	assert_true(g.max_regress == 0.05 && g.alpha == 0.05);
	assert_true(fabs(nb_gate_threshold(&g, "rand4k-read", "lat_p99_us", NULL) - 0.2) < 1e-12);
	assert_true(fabs(nb_gate_threshold(&g, "seq512k-read", "lat_p99_us", NULL) - 0.1) < 1e-12);
	assert_true(fabs(nb_gate_threshold(&g, "seq512k-read", "bw_bytes", NULL) - 0.1) < 1e-12);
	assert_true(fabs(nb_gate_threshold(&g, "x", "bw_bytes", NULL) - 0.05) < 1e-12);

	nb_gate_init(&g);
	p = write_tmp("[gate]\nmax-regress = 3%\nalpha = 0.01\n[metric]\n"
		      "lat_max_us = off\n[workload w]\nlat_max_us = 50\n"
		      "max-regress = 8%\n");
	assert_int_equal(nb_gate_load(&g, p), 0);
	assert_true(g.max_regress == 0.03 && g.alpha == 0.01);
	assert_true(nb_gate_threshold(&g, "v", "lat_max_us", NULL) == NB_GATE_OFF);
	assert_true(fabs(nb_gate_threshold(&g, "w", "lat_max_us", NULL) - 0.5) < 1e-12);
	assert_true(fabs(nb_gate_threshold(&g, "w", "iops", NULL) - 0.08) < 1e-12);
	assert_int_equal(g.rules[0].line, 5);

	/* errors name file:line and say what is wrong */
	for (size_t i = 0; i < sizeof(bad_gates) / sizeof(bad_gates[0]); i++) {
		char want[256];

		nb_gate_init(&g);
		p = write_tmp(bad_gates[i].text);
		assert_int_equal(nb_gate_load(&g, p), -EINVAL);
		snprintf(want, sizeof(want), "%s:%s", p, bad_gates[i].msg);
		assert_string_equal(nb_err_last(), want);
	}
	unlink(p);
	assert_int_equal(nb_gate_load(&g, "/nonexistent/gate.ini"), -ENOENT);
	assert_string_equal(nb_err_last(), "cannot read gate file "
			    "'/nonexistent/gate.ini': No such file or directory");
}

/* Render the golden comparison with FN and hold it against FILE. */
static void golden(const char *file, void (*fn)(FILE *, const json_t *, int))
{
	json_t *base, *new_, *c, *doc;
	struct nb_gate g;
	struct nb_compare_opts co;
	char *buf = NULL, path[256];
	size_t len = 0;
	FILE *f;

	nb_gate_init(&g);
	assert_int_equal(nb_gate_load(&g, G "gate.ini"), 0);
	assert_int_equal(nb_result_load(G "base.json", &base), 0);
	assert_int_equal(nb_result_load(G "new.json", &new_), 0);
	nb_compare_opts_init(&co);
	assert_int_equal(nb_compare(base, "base.json", new_, "new.json", &g, &co, &c), 0);
	doc = nb_compare_doc(json_pack("[o]", c), &g, &co);
	f = open_memstream(&buf, &len);
	fn(f, doc, 0);
	fclose(f);
	snprintf(path, sizeof(path), G "%s", file);
	test_golden(buf, path);
	free(buf);
	json_decref(doc), json_decref(base), json_decref(new_);
}

static void text(FILE *f, const json_t *d, int c) { nb_compare_text(f, d, c); }
static void md(FILE *f, const json_t *d, int c) { (void)c; nb_compare_markdown(f, d); }
static void junit(FILE *f, const json_t *d, int c) { (void)c; nb_compare_junit(f, d); }
static void js(FILE *f, const json_t *d, int c) { (void)c; nb_compare_json(f, d); }

static void golden_text(void **s) { (void)s; golden("compare.txt", text); }
static void golden_md(void **s) { (void)s; golden("compare.md", md); }
static void golden_junit(void **s) { (void)s; golden("compare.xml", junit); }
static void golden_json(void **s) { (void)s; golden("compare.json", js); }

/* An entry of five iterations of IOPS around LEVEL, status STATUS, each
 * iteration listing UNMEASURED (NULL: none) short of samples. */
static json_t *entry5(double level, const char *status, const char *unmeasured)
{
	json_t *its = json_array();

	for (int i = 0; i < 5; i++) {
		json_t *it = json_pack("{s:{s:f}}", "metrics", "iops",
				       level * (1 + 0.005 * (i - 2)));

		if (unmeasured)
			json_object_set_new(it, "unmeasured",
					    json_pack("[s]", unmeasured));
		json_array_append_new(its, it);
	}
	return json_pack("{s:[{s:s, s:s, s:s, s:s, s:o, s:{s:s}}]}", "results",
			 "target", "t", "workload", "rand4k-read", "status", status,
			 "reason", "iteration 1 timed 7 I/Os, fewer than the 100 a "
			 "mean needs", "iterations", its, "spec", "pattern", "rand");
}

/* compare never judges a figure without its samples (core/samples.h):
 * the verdict is unmeasured, no regression, inconclusive when gated (exit
 * 5), whichever side; not "missing" (exit 1) nor "better". */
static void unmeasured_sides(void **state)
{
	json_t *ok = entry5(100, "ok", NULL), *thin = entry5(50, "unmeasured", NULL);
	json_t *short_ = entry5(50, "ok", "iops"), *c, *v;
	struct nb_gate g;
	struct nb_compare_opts co;

	(void)state;
	nb_gate_init(&g);
	nb_compare_opts_init(&co);
	for (int k = 0; k < 3; k++) {
		const json_t *b = k == 1 ? thin : ok, *n = k == 0 ? thin :
					     k == 1 ? ok : short_;

		assert_int_equal(nb_compare(b, "b.json", n, "n.json", &g, &co, &c), 0);
		v = json_array_get(json_object_get(c, "verdicts"), 0);
		assert_string_equal(nb_jstr(v, "verdict"), "unmeasured");
		assert_false(json_is_true(json_object_get(v, "regression")));
		assert_true(json_is_true(json_object_get(v, "inconclusive")));
		assert_int_equal(json_integer_value(json_object_get(c, "regressions")), 0);
		assert_int_equal(json_integer_value(json_object_get(c, "inconclusive")), 1);
		if (k == 0)
			assert_string_equal(nb_jstr(v, "reason"), "the new run is not "
					    "measured: iteration 1 timed 7 I/Os, fewer "
					    "than the 100 a mean needs");
		if (k == 2)
			assert_string_equal(nb_jstr(v, "reason"), "the new run is not "
					    "measured: too few I/Os timed to carry it");
		json_decref(c);
	}
	json_decref(ok), json_decref(thin), json_decref(short_);
}

static void nothing_in_common(void **state)
{
	json_t *a = json_pack("{s:[{s:s, s:s, s:s}, {s:s, s:s, s:s}]}", "results",
			      "target", "a", "workload", "seq", "status", "ok",
			      "target", "b", "workload", "rand", "status", "ok");
	json_t *b = json_pack("{s:[{s:s, s:s, s:s}]}", "results", "target", "c",
			      "workload", "xz", "status", "ok");
	json_t *c;
	struct nb_gate g;
	struct nb_compare_opts co;

	(void)state;
	nb_gate_init(&g);
	nb_compare_opts_init(&co);
	assert_int_equal(nb_compare(a, "a.json", b, "b.json", &g, &co, &c), -EINVAL);
	assert_string_equal(nb_err_last(), "'a.json' and 'b.json' have no target "
			    "and workload in common");
	assert_null(c);
	json_decref(a), json_decref(b);
}

/* An entry of a steady-state run: bw_bytes of its window's rounds. */
static json_t *steady_doc(const double *bw, int reached)
{
	json_t *its = json_array();

	for (int i = 0; i < 5; i++)
		json_array_append_new(its, json_pack("{s:{s:f}}", "metrics",
						     "bw_bytes", bw[i]));
	return json_pack("{s:[{s:s, s:s, s:s, s:{s:s}, s:o, s:{s:b, s:s}}]}",
			 "results", "target", "t", "workload", "seq512k-write",
			 "status", "ok", "spec", "pattern", "seq", "iterations",
			 its, "steady", "reached", reached, "why",
			 reached ? "" : "the range is 43.1% of the mean, more than 20%");
}

/* The gate and the options of the tests below, made fresh by each. */
static struct nb_gate gate;
static struct nb_compare_opts opts;

static void fresh(void)
{
	nb_gate_init(&gate);
	nb_compare_opts_init(&opts);
}

/* NEW_ (named NN) compared against BASE (BN) with the gate and options:
 * the comparison into *C (the caller's to free), its first verdict. */
static json_t *first(const json_t *base, const char *bn, const json_t *new_,
		     const char *nn, json_t **c)
{
	assert_int_equal(nb_compare(base, bn, new_, nn, &gate, &opts, c), 0);
	return json_array_get(json_object_get(*c, "verdicts"), 0);
}

/* The comparison C (taken) gated: OUTCOME, and INCONCLUSIVE verdicts
 * counted (-1: not looked at). */
static void gated(json_t *c, const char *outcome, int inconclusive)
{
	json_t *doc = nb_compare_doc(json_pack("[o]", c), &gate, &opts);

	assert_string_equal(nb_jstr(doc, "outcome"), outcome);
	if (inconclusive >= 0)
		assert_int_equal(json_integer_value(json_object_get(doc,
				 "inconclusive")), inconclusive);
	json_decref(doc);
}

/* Either side not steady: verdict not-steady, no regression, the reason
 * names the side; --allow-unsteady judges it (here: worse, a regression). */
static void not_steady(void **state)
{
	const double good[] = { 100e6, 101e6, 99e6, 100e6, 100.5e6 };
	const double bad[] = { 50e6, 150e6, 50e6, 150e6, 50e6 };
	json_t *a = steady_doc(good, 1), *b = steady_doc(bad, 0), *c, *v;

	(void)state;
	fresh();
	v = first(a, "a.json", b, "b.json", &c);
	assert_string_equal(nb_jstr(v, "verdict"), "not-steady");
	assert_false(json_is_true(json_object_get(v, "regression")));
	assert_string_equal(nb_jstr(v, "reason"), "the new run is not steady (the "
			    "range is 43.1% of the mean, more than 20%): its figure "
			    "had not settled, no change is called significant "
			    "(--allow-unsteady judges it)");
	assert_int_equal(json_integer_value(json_object_get(c, "regressions")), 0);
	json_decref(c);
	v = first(b, "b.json", a, "a.json", &c);
	assert_non_null(strstr(nb_jstr(v, "reason"), "the base run is not steady"));
	json_decref(c);
	opts.allow_unsteady = 1;
	v = first(a, "a.json", b, "b.json", &c);
	assert_string_not_equal(nb_jstr(v, "verdict"), "not-steady");
	json_decref(c);
	json_decref(a), json_decref(b);
}

/* A result of one seq512k-read entry: its MB/s iterations, each with
 * "run" RUN[i] when RUN is given (several runs in one file). */
static json_t *runs_doc(const double *bw, const int *run, int n)
{
	json_t *its = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(its, run ? json_pack("{s:{s:f}, s:i}", "metrics",
							   "bw_bytes", bw[i], "run", run[i]) :
				      json_pack("{s:{s:f}}", "metrics", "bw_bytes", bw[i]));
	return json_pack("{s:[{s:s, s:s, s:s, s:{s:s}, s:o}]}", "results", "target",
			 "t", "workload", "seq512k-read", "status", "ok", "spec",
			 "pattern", "seq", "iterations", its);
}

/* The outcome a gate acts on: a same-configuration pair of single runs is
 * inconclusive (not "pass"), with what it could detect; the same new run
 * against three runs in one file is a pass; -r off is not gated; 70% of
 * the base is inconclusive with one run and worse with three. */
static void outcome(void **state)
{
	const double one[] = { 100, 101, 99, 100.5, 99.5 };
	const double same[] = { 99.5, 100.5, 100, 101, 99 };
	const double slow[] = { 70, 70.5, 69.5, 70.2, 69.8 };
	const double three[] = { 100, 101, 99, 100.5, 99.5, 101, 100, 99.5, 100.2,
				 100.8, 99.8, 99.7, 100.1, 100.3, 99.9 };
	const int runs[] = { 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2 };
	json_t *a = runs_doc(one, NULL, 5), *b = runs_doc(same, NULL, 5);
	json_t *h = runs_doc(three, runs, 15), *s = runs_doc(slow, NULL, 5);
	json_t *c, *v;

	(void)state;
	fresh();
	v = first(a, "a.json", b, "b.json", &c);
	assert_string_equal(nb_jstr(v, "verdict"), "inconclusive");
	assert_string_equal(nb_jstr(v, "reason"), "could detect only a fall beyond "
			    "-33% (noise not measured: one run each side)");
	assert_false(json_is_true(json_object_get(v, "noise_measured")));
	gated(c, "inconclusive", 1);

	first(a, "a.json", s, "s.json", &c);
	gated(c, "inconclusive", -1);

	v = first(h, "h.json", b, "b.json", &c);
	assert_string_equal(nb_jstr(v, "verdict"), "unchanged");
	assert_true(json_is_true(json_object_get(v, "noise_measured")));
	assert_int_equal(json_integer_value(json_object_get(v, "runs")), 3);
	gated(c, "pass", -1);

	first(h, "h.json", s, "s.json", &c);
	gated(c, "regression", -1);

	gate.max_regress = NB_GATE_OFF;
	first(a, "a.json", b, "b.json", &c);
	gated(c, "not gated", 0);
	json_decref(a), json_decref(b), json_decref(h), json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verdicts),     cmocka_unit_test(gate_file),
		cmocka_unit_test(golden_text),  cmocka_unit_test(golden_md),
		cmocka_unit_test(golden_junit), cmocka_unit_test(golden_json),
		cmocka_unit_test(unmeasured_sides),
		cmocka_unit_test(nothing_in_common), cmocka_unit_test(not_steady),
		cmocka_unit_test(outcome),
	};

	return cmocka_run_group_tests_name("compare", tests, NULL, NULL);
}
