/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * judge.c - one metric of NEW against BASE: the verdict and the noise
 * model behind it (docs/compare.md, "The statistics, and why").
 */
#include "judge.h"
#include "../core/metrics.h"
#include "../core/stats.h"

#include <math.h>
#include <string.h>

#define MAXV 4096                /* iterations read per side */
#define MAXRUNS 256              /* base runs (a history baseline) */

const char *nb_verdict_name(enum nb_verdict v)
{
	static const char *names[] = { "unchanged", "better", "worse", "noise",
				       "changed", "missing", "changed-settings",
				       "not-steady", "inconclusive", "unmeasured" };

	return names[v];
}

/*
 * The run-level t-test.  X are the values on the test's scale (logarithms,
 * or ratios to the base median when a value is <= 0).
 *
 * A run's level is its iterations' median; the difference of two runs'
 * levels varies by the iterations' spread (within-run variance s_w^2 / n)
 * AND by what moves a whole run (the machine's load, caches, the disk's
 * state: the between-run variance s_b^2).  With 3 or more base runs s_b^2
 * is measured from their levels; with fewer it is assumed (the larger of
 * s_w^2 and RUN_NOISE^2) and the judgement says so: what that assumption
 * does not call significant is inconclusive, not "no change".  Medians
 * and the MAD, not means and the sd: on a shared machine noise comes as
 * single collapsed iterations, which would blow up a standard deviation
 * and hide a real change.
 */
static void run_t(const double *xb, const int *run, int nb, const double *xn,
		  int nn, const struct nb_judge_opts *o, int *runs_out,
		  double *d_out, double *se_out, double *df_out)
{
	static _Thread_local double lvl[MAXRUNS], grp[MAXV];
	double m = nb_stats_mad(xn, (size_t)nn), ssw = (nn - 1) * m * m, sw2, sb2, se2, df;
	int dfw = nn - 1, runs = 0;

	/* the runs' levels and the pooled within-run variance */
	for (int r = 0; r < MAXRUNS; r++) {
		int k = 0;

		for (int i = 0; i < nb; i++)
			if ((run ? run[i] : 0) == r)
				grp[k++] = xb[i];
		if (!k)
			continue;
		lvl[runs++] = nb_stats_median(grp, (size_t)k);
		m = nb_stats_mad(grp, (size_t)k);
		ssw += (k - 1) * m * m;
		dfw += k - 1;
	}
	sw2 = dfw > 0 ? ssw / dfw : 0;
	if (runs >= 3) {
		/* Var(level) = s_b^2 + s_w^2 / k is measured directly (k: a
		 * base run's iterations); the new run is one more draw, the
		 * base level a mean of RUNS.  A new run of fewer iterations
		 * than k has the more within-run noise s_w^2 (1/n - 1/k) on
		 * top: judged by where it falls among the runs, whatever n */
		double vr = nb_stats_ss(lvl, (size_t)runs) / (runs - 1);
		double k = (double)nb / runs, floor = sw2 / k;

		vr = fmax(vr, floor);
		se2 = vr * (1 + 1.0 / runs) + fmax(0, sw2 * (1.0 / nn - 1.0 / k));
		df = runs - 1;
		*d_out = nb_stats_median(xn, (size_t)nn) - nb_stats_mean(lvl, (size_t)runs);
	} else if (o->ref_runs >= 3) {
		/* two single runs, the variance of a run's level measured on
		 * other runs of the same configuration (the history) */
		se2 = fmax(o->ref_var, sw2 / nb) + fmax(o->ref_var, sw2 / nn);
		df = o->ref_runs - 1;
		*d_out = nb_stats_median(xn, (size_t)nn) - nb_stats_median(xb, (size_t)nb);
	} else {
		sb2 = fmax(sw2, o->run_noise * o->run_noise);
		se2 = 2 * sb2 + sw2 * (1.0 / nb + 1.0 / nn);
		df = dfw > 0 ? dfw : 1;
		*d_out = nb_stats_median(xn, (size_t)nn) - nb_stats_median(xb, (size_t)nb);
	}
	*runs_out = runs;
	*se_out = sqrt(se2);
	*df_out = df;
}

/*
 * Sets j->test, j->p, j->runs, j->measured and the detectable changes;
 * returns whether the change is significant.  Where the metric has a
 * better direction the test is one-sided, in the direction of the change:
 * "worse" is tested against H1 "worse" alone (at alpha), as a gate asks,
 * which detects a smaller loss than a two-sided test at the same alpha.
 */
static int significant(const double *base, const int *run, int nb,
		       const double *new_, int nn, int better,
		       const struct nb_judge_opts *o, struct nb_judgement *j)
{
	static _Thread_local double xb[MAXV], xn[MAXV];
	double ref = fabs(j->base), d, se, df, tc, p2;
	int logs = 1, runs;

	for (int i = 0; i < nb; i++)
		logs &= base[i] > 0;
	for (int i = 0; i < nn; i++)
		logs &= new_[i] > 0;
	if (!logs && ref == 0)
		ref = 1;
	for (int i = 0; i < nb; i++)
		xb[i] = logs ? log(base[i]) : base[i] / ref;
	for (int i = 0; i < nn; i++)
		xn[i] = logs ? log(new_[i]) : new_[i] / ref;
	run_t(xb, run, nb, xn, nn, o, &runs, &d, &se, &df);
	j->runs = runs;
	j->measured = runs >= 3 || o->ref_runs >= 3;
	j->ref_runs = runs < 3 && o->ref_runs >= 3 ? o->ref_runs : 0;
	j->test = "run-t";
	tc = nb_stats_t_crit(better ? 2 * o->alpha : o->alpha, df);
	j->detect_down = logs ? exp(-tc * se) - 1 : -tc * se;
	j->detect_up = logs ? exp(tc * se) - 1 : tc * se;
	j->noise = better > 0 ? -j->detect_down : j->detect_up;
	if (se == 0) {
		j->p = d == 0 ? 1 : 0;
		return d != 0;
	}
	p2 = nb_stats_t_p(d / se, df);
	/* one-sided in the direction of the change (d == 0: no direction) */
	j->p = better ? (d != 0 ? p2 / 2 : 0.5) : p2;
	return j->p < o->alpha;
}

double nb_judge_level(const double *v, const int *run, int n)
{
	static _Thread_local double med[MAXRUNS], grp[MAXV];
	int runs = 0;

	if (!run)
		return nb_stats_median(v, (size_t)n);
	for (int r = 0; r < MAXRUNS; r++) {
		int k = 0;

		for (int i = 0; i < n; i++)
			if (run[i] == r)
				grp[k++] = v[i];
		if (k)
			med[runs++] = nb_stats_median(grp, (size_t)k);
	}
	return nb_stats_median(med, (size_t)runs);
}

int nb_judge_level_var(const double *v, const int *run, int n, double *var)
{
	static _Thread_local double lvl[MAXRUNS], grp[MAXV];
	int runs = 0;

	*var = 0;
	for (int i = 0; i < n; i++)
		if (v[i] <= 0)
			return 0;
	for (int r = 0; r < MAXRUNS; r++) {
		int k = 0;

		for (int i = 0; i < n && k < MAXV; i++)
			if ((run ? run[i] : 0) == r)
				grp[k++] = log(v[i]);
		if (k)
			lvl[runs++] = nb_stats_median(grp, (size_t)k);
	}
	if (runs > 1)
		*var = nb_stats_ss(lvl, (size_t)runs) / (runs - 1);
	return runs;
}

/* Whether the between-run noise is measured: 3 or more base runs, or a
 * reference of as many. */
static int noise_measured(const int *run, int nbase, const struct nb_judge_opts *o)
{
	static _Thread_local unsigned char seen[MAXRUNS];
	int runs = 0;

	if (o->ref_runs >= 3)
		return 1;
	if (!run)
		return 0;
	memset(seen, 0, sizeof(seen));
	for (int i = 0; i < nbase; i++)
		if (run[i] >= 0 && run[i] < MAXRUNS && !seen[run[i]]++)
			runs++;
	return runs >= 3;
}

void nb_judge(const double *base, const int *run, int nbase,
	      const double *new_, int nnew, int better,
	      const struct nb_judge_opts *o, struct nb_judgement *j)
{
	double thr = o->threshold == NB_JUDGE_OFF ? o->display : o->threshold;
	int beyond, good, sig = 0;

	memset(j, 0, sizeof(*j));
	j->nbase = nbase;
	j->nnew = nnew;
	j->runs = 1;
	j->p = NAN;
	j->noise = j->detect_down = j->detect_up = NAN;
	j->base = nb_judge_level(base, run, nbase);
	j->new_ = nb_stats_median(new_, (size_t)nnew);
	if (j->base != 0)
		j->change = (j->new_ - j->base) / fabs(j->base);
	else
		j->change = j->new_ == 0 ? 0 : copysign(INFINITY, j->new_);
	/* the tiny slack keeps "exactly 5%" on the unchanged side despite
	 * rounding in (new - base) / base */
	beyond = fabs(j->change) > thr + 1e-12;
	good = better == 0 ? 0 : (j->change > 0) == (better > 0);
	/* few iterations cannot measure the noise; 3 runs of a history (or
	 * a reference's) have measured it, whatever each run's iterations:
	 * the new run is judged by where it falls among them */
	j->low_confidence = !noise_measured(run, nbase, o) &&
			    (nbase < NB_FEW_ITERATIONS || nnew < NB_FEW_ITERATIONS);
	if (!j->low_confidence)
		sig = significant(base, run, nbase, new_, nnew, better, o, j);
	if (!beyond)
		j->verdict = NB_V_UNCHANGED;
	else if (!j->low_confidence && !sig)
		j->verdict = NB_V_NOISE;
	else if (better == 0)
		j->verdict = NB_V_CHANGED;
	else
		j->verdict = good ? NB_V_BETTER : NB_V_WORSE;
	/* Two single runs: the between-run noise was assumed, not measured.
	 * A change it calls significant is one no drift of that size explains
	 * (worse stays worse); anything else, however small it looks, cannot
	 * be told from the next run's drift: inconclusive, not "unchanged". */
	if (!j->low_confidence && !j->measured &&
	    (j->verdict == NB_V_UNCHANGED || j->verdict == NB_V_NOISE))
		j->verdict = NB_V_INCONCLUSIVE;
	j->inconclusive = j->verdict == NB_V_INCONCLUSIVE ||
			  (j->low_confidence && !o->strict);
	j->regression = j->verdict == NB_V_WORSE && o->threshold != NB_JUDGE_OFF &&
			(!j->low_confidence || o->strict);
}
