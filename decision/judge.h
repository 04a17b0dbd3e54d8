/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * judge.h - one figure of NEW against BASE: the verdict and the noise
 * model behind it (docs/compare.md, "The statistics, and why").  The
 * machinery of compare's verdicts and of the decision sentences'
 * confidence (decision/decide.h): one test, used by both.
 *
 * Significance: a t-test on the logarithms (medians, MAD) whose variance
 * counts the run-to-run (between-run) part of the noise, not only the
 * spread of one run's iterations.  A base of >= 3 runs measures it from
 * the spread of their medians; two single runs cannot: it is assumed (the
 * larger of the within-run variance and NB_JUDGE_RUN_NOISE), and a change
 * that assumption does not call significant is inconclusive.  The test is
 * one-sided where the metric has a better direction.  With fewer than
 * NB_FEW_ITERATIONS iterations on a side there is no test: low confidence.
 */
#ifndef NB_DECISION_JUDGE_H
#define NB_DECISION_JUDGE_H

/* A threshold that does not gate (compare's "off"). */
#define NB_JUDGE_OFF (-1.0)
/* The test's significance level unless a gate file says another. */
#define NB_JUDGE_ALPHA 0.05

/* The between-run noise assumed when it cannot be measured: a run's level
 * (log scale) differs from another run's of the same configuration by
 * this standard deviation at least.  Measured on the shared 2-core CI
 * machine with ci/bench-gate (docs/compare.md). */
#define NB_JUDGE_RUN_NOISE 0.15

enum nb_verdict {
	NB_V_UNCHANGED,
	NB_V_BETTER,
	NB_V_WORSE,
	NB_V_NOISE,
	NB_V_CHANGED,
	NB_V_MISSING,
	NB_V_SETTINGS,
	NB_V_UNSTEADY,
	NB_V_INCONCLUSIVE,
	NB_V_UNMEASURED,
};

struct nb_judge_opts {
	double threshold;        /* a fraction, or NB_JUDGE_OFF (not gated) */
	double display;          /* the threshold of the words when not gated */
	double alpha;
	double run_noise;        /* the assumed between-run sd (log scale) */
	int strict;              /* low confidence gates too */
	/* the between-run noise measured elsewhere (--noise history: the
	 * history's runs of BASE's labels): the variance of a run's level
	 * (log scale) from REF_RUNS runs; REF_RUNS < 3: none */
	double ref_var;
	int ref_runs;
};

struct nb_judgement {
	double base, new_;       /* medians (base: median of the runs' medians) */
	double change;           /* (new - base) / |base|; +-INFINITY from 0 */
	int nbase, nnew;         /* iterations */
	int runs;                /* base runs (1: a file, N: a history) */
	const char *test;        /* "run-t", NULL: none */
	double p;                /* NAN without a test; one-sided where the
				  * metric has a direction */
	double noise;            /* the smallest change for the worse the test
				  * could call significant (a magnitude; NAN) */
	double detect_down, detect_up;  /* the smallest fall and rise it could
				  * call significant (fractions, NAN) */
	int measured;            /* the between-run noise was measured (>= 3
				  * base runs, or REF_RUNS), not assumed */
	int ref_runs;            /* it was measured from REF_RUNS runs of the
				  * reference (0: from the base, or assumed) */
	int low_confidence;
	int inconclusive;        /* the gate cannot decide this one (noise not
				  * measured, or low confidence without strict) */
	int regression;          /* worse and gated */
	enum nb_verdict verdict;
};

const char *nb_verdict_name(enum nb_verdict v);

/* The base level of V: its median, or with RUN (each value's run) the
 * median of the runs' medians. */
double nb_judge_level(const double *v, const int *run, int n);

/* The sample variance of the runs' levels (log scale) of V, each value's
 * run in RUN (NULL: one run): the runs counted, 0 when a value is <= 0. */
int nb_judge_level_var(const double *v, const int *run, int n, double *var);

/* Judge one metric.  BASE[i] belongs to base run RUN[i] (RUN
 * NULL: one run); BETTER is enum nb_better. */
void nb_judge(const double *base, const int *run, int nbase,
	      const double *new_, int nnew, int better,
	      const struct nb_judge_opts *o, struct nb_judgement *j);

#endif
