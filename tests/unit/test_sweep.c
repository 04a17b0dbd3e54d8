/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "../../core/err.h"
#include "../../capacity/sweep.h"

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

static void slo_parse(void **state)
{
	struct nb_slo s;
	char buf[128];

	(void)state;
	assert_int_equal(nb_slo_parse("p99=20ms", &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.t[0].stat, NB_SLO_P99);
	assert_true(s.t[0].limit_us == 20000);
	assert_int_equal(nb_slo_parse("p99.9=50ms, mean=500us,p50=1.5ms", &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.t[0].stat, NB_SLO_P999);
	assert_true(s.t[1].limit_us == 500 && s.t[2].limit_us == 1500);
	assert_string_equal(nb_slo_str(&s, buf, sizeof(buf)),
			    "p99.9=50ms,mean=500us,p50=1.5ms");
	assert_string_equal(nb_slo_fmt(&s, buf, sizeof(buf)),
			    "p99.9 <= 50 ms, mean <= 500 us, p50 <= 1.5 ms");
	assert_int_equal(nb_slo_parse("p99 = 5 ms", &s), 0);      /* as INI spaces it */
	assert_true(s.n == 1 && s.t[0].stat == NB_SLO_P99 && s.t[0].limit_us == 5000);
	assert_int_equal(nb_slo_parse("MEAN=1s", &s), 0);
	assert_string_equal(nb_slo_str(&s, buf, sizeof(buf)), "mean=1s");
}

static void slo_refused(void **state)
{
	struct nb_slo s = { .n = 7 };

	(void)state;
	assert_int_equal(nb_slo_parse("p98=1ms", &s), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid objective 'p98=1ms': unknown "
			    "statistic in 'p98=1ms' (use mean, p50, p90, p99 or p99.9)");
	assert_int_equal(s.n, 7);               /* untouched */
	assert_int_equal(nb_slo_parse("p99=20", &s), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid objective 'p99=20': invalid "
			    "latency in 'p99=20' (use e.g. 20ms, 500us, 1s)");
	assert_int_equal(nb_slo_parse("p99=0ms", &s), -EINVAL);
	assert_int_equal(nb_slo_parse("p99=fast", &s), -EINVAL);
	assert_int_equal(nb_slo_parse("p99", &s), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid objective 'p99': 'p99' is "
			    "not STAT=LATENCY");
	assert_int_equal(nb_slo_parse("p99=1ms,p99=2ms", &s), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid objective 'p99=1ms,p99=2ms': "
			    "'p99' given twice");
	assert_int_equal(nb_slo_parse("p99=1ms,mean=1ms,p50=1ms,p90=1ms,p99.9=1ms,"
				      "p99=2ms", &s), -EINVAL);
	assert_string_equal(nb_err_last() + strlen(nb_err_last()) - 17,
			    "'p99' given twice");
	assert_int_equal(nb_slo_parse("p99=1ms,", &s), -EINVAL);
	assert_int_equal(nb_slo_parse("p99=1ms,,mean=1ms", &s), -EINVAL);
	assert_int_equal(nb_slo_parse("", &s), -EINVAL);
	assert_int_equal(nb_slo_parse(NULL, &s), -EINVAL);
	assert_int_equal(s.n, 7);
}

static void steps(void **state)
{
	uint32_t st[NB_SWEEP_MAX];
	size_t n;
	char buf[128];

	(void)state;
	assert_int_equal(nb_sweep_steps_parse("auto", 4096, st, &n), 0);
	assert_string_equal(nb_sweep_steps_str(st, n, buf, sizeof(buf)),
			    "1,2,4,8,16,32,64,128,256");
	assert_int_equal(nb_sweep_steps_parse(NULL, 64, st, &n), 0);
	assert_int_equal(n, 7);                 /* up to the cap */
	assert_int_equal(nb_sweep_steps_parse("1,3,8,40", 256, st, &n), 0);
	assert_string_equal(nb_sweep_steps_str(st, n, buf, sizeof(buf)), "1,3,8,40");
	assert_int_equal(nb_sweep_steps_parse("4..100", 256, st, &n), 0);
	assert_string_equal(nb_sweep_steps_str(st, n, buf, sizeof(buf)),
			    "4,8,16,32,64,100");
	assert_int_equal(nb_sweep_steps_parse("2..64", 256, st, &n), 0);
	assert_string_equal(nb_sweep_steps_str(st, n, buf, sizeof(buf)),
			    "2,4,8,16,32,64");
	assert_int_equal(nb_sweep_steps_parse("1,4,2", 256, st, &n), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid steps '1,4,2': each step must "
			    "be above the one before");
	assert_int_equal(nb_sweep_steps_parse("1,999", 256, st, &n), -EINVAL);
	assert_int_equal(nb_sweep_steps_parse("0,1", 256, st, &n), -EINVAL);
	assert_int_equal(nb_sweep_steps_parse("1,,2", 256, st, &n), -EINVAL);
	assert_int_equal(nb_sweep_steps_parse("8..8", 256, st, &n), -EINVAL);
	assert_int_equal(nb_sweep_steps_parse("x..8", 256, st, &n), -EINVAL);
}

/* A disk-like curve: IOPS = min(N * 150, SAT), mean latency = N / IOPS
 * (Little exactly), p99 = 3 x mean. */
static void disk_step(struct nb_sweep_step *st, uint32_t n, double sat)
{
	memset(st, 0, sizeof(*st));
	st->outstanding = n;
	st->threads = 1;
	st->iops = fmin(n * 150.0, sat);
	st->bw_bytes = st->iops * 4096;
	st->lat_mean_us = n / st->iops * 1e6;
	st->lat_p50_us = st->lat_mean_us * 0.9;
	st->lat_p90_us = st->lat_mean_us * 2;
	st->lat_p99_us = st->lat_mean_us * 3;
	st->lat_p999_us = st->lat_mean_us * 4;
	st->cpu_per_thread = 0.05;
	st->samples = 1000000;
}

/* Run the sweep as the pipeline does: step, add, ask. */
static int sweep_run(struct nb_sweep *sw, double sat)
{
	int why;

	while ((why = nb_sweep_next(sw, 0)) == NB_SWEEP_GO) {
		struct nb_sweep_step st;

		disk_step(&st, sw->plan[sw->n], sat);
		assert_int_equal(nb_sweep_add(sw, &st), 0);
	}
	return why;
}

static void capacity_interpolated(void **state)
{
	struct nb_sweep sw;
	struct nb_slo slo;
	struct nb_capacity c;
	char buf[256];

	(void)state;
	/* saturates at 600 IOPS (N = 4); p99 = 3N/IOPS: 20 ms up to N=4,
	 * N=8 40 ms, N=16 80 ms: p99=25ms holds to 4, broken at 8 and 16 */
	assert_int_equal(nb_slo_parse("p99=25ms", &slo), 0);
	nb_sweep_init(&sw, NULL, 0, &slo);
	assert_int_equal(sweep_run(&sw, 600), NB_SWEEP_STOP_SLO);
	assert_int_equal(sw.n, 5);              /* 1 2 4 8 16 */
	nb_sweep_answer(&sw, 0, &c);
	assert_true(c.found && c.lo == 2 && !c.lower_bound && c.objective_broken);
	/* 600 both sides: nothing to interpolate */
	assert_false(c.interpolated);
	assert_true(c.iops == 600);
	assert_int_equal(c.knee, 2);            /* 4 -> 8: latency x2, IOPS x1 */
	assert_true(c.sat_iops == 600);
	assert_int_equal(c.little_failed, 0);

	/* saturates at 1000 IOPS (N = 6.7) */
	assert_int_equal(nb_slo_parse("mean=10ms", &slo), 0);
	nb_sweep_init(&sw, NULL, 0, &slo);
	sweep_run(&sw, 1000);
	nb_sweep_answer(&sw, 50, &c);
	/* N=8: 1000 IOPS, 8 ms (met); N=16: 1000, 16 ms (broken): the same
	 * IOPS both sides -> 1000, not interpolated; 20 VMs of 50 IOPS */
	assert_true(c.found && c.iops == 1000 && near(c.vms, 20, 1e-9));
	assert_true(c.sat_vms == 20 && c.saturated);
	nb_capacity_fmt(&sw, &c, buf, sizeof(buf));
	assert_string_equal(buf, "20.0 VMs (1000 IOPS) at mean <= 10 ms; knee at "
			    "20.0 VMs (1000 IOPS), 8 outstanding; saturation 1000 IOPS");
}

/* The objective crosses between two steps of rising throughput. */
static void capacity_between_steps(void **state)
{
	static const uint32_t plan[] = { 1, 2, 4, 8, 16 };
	struct nb_sweep sw;
	struct nb_slo slo;
	struct nb_capacity c;
	struct nb_sweep_step st;
	const double iops[] = { 100, 200, 380, 700, 800 };
	const double p99[] = { 5000, 6000, 8000, 16000, 40000 };
	char buf[256];

	(void)state;
	nb_slo_parse("p99=12ms", &slo);
	nb_sweep_init(&sw, plan, 5, &slo);
	for (size_t i = 0; i < 5 && nb_sweep_next(&sw, 0) == NB_SWEEP_GO; i++) {
		disk_step(&st, plan[i], 1e9);
		st.iops = iops[i];
		st.bw_bytes = iops[i] * 4096;
		st.lat_mean_us = plan[i] / iops[i] * 1e6;
		st.lat_p99_us = p99[i];
		nb_sweep_add(&sw, &st);
	}
	assert_int_equal(sw.n, 5);
	assert_int_equal(nb_sweep_next(&sw, 0), NB_SWEEP_STOP_SLO);
	nb_sweep_answer(&sw, 0, &c);
	/* 8 -> 16 ms between 380 and 700 IOPS: 12 is half way -> 540 */
	assert_true(c.found && c.interpolated && c.lo == 2);
	assert_true(near(c.iops, 540, 1e-9) && near(c.outstanding, 6, 1e-9));
	assert_true(near(c.bw_bytes, 540 * 4096, 1e-6));
	assert_false(c.lower_bound);
	nb_capacity_fmt(&sw, &c, buf, sizeof(buf));
	assert_non_null(strstr(buf, "540 IOPS (2.2 MB/s) at p99 <= 12 ms "
			       "(interpolated)"));
}

static void first_step_fails(void **state)
{
	struct nb_sweep sw;
	struct nb_slo slo;
	struct nb_capacity c;
	char buf[256];

	(void)state;
	/* N=1: 150 IOPS, mean 6.67 ms: mean=5ms broken from the start */
	nb_slo_parse("mean=5ms", &slo);
	nb_sweep_init(&sw, NULL, 0, &slo);
	assert_int_equal(sweep_run(&sw, 1000), NB_SWEEP_STOP_SLO);
	assert_int_equal(sw.n, 2);
	nb_sweep_answer(&sw, 100, &c);
	assert_false(c.found);
	assert_true(c.iops == 0 && c.vms == 0 && c.objective_broken);
	assert_false(c.lower_bound);
	nb_capacity_fmt(&sw, &c, buf, sizeof(buf));
	assert_string_equal(buf, "no step meets mean <= 5 ms (the first, 1 "
			    "outstanding: mean 6.667 ms)");
}

/* Every step breaks the objective: the sweep stops after two. */
static void no_step_meets(void **state)
{
	struct nb_sweep sw;
	struct nb_slo slo;
	struct nb_capacity c;

	(void)state;
	nb_slo_parse("p99=1ms", &slo);
	nb_sweep_init(&sw, NULL, 0, &slo);
	sweep_run(&sw, 1e9);
	nb_sweep_answer(&sw, 0, &c);
	assert_false(c.found);
	assert_true(c.sat_iops == 300);         /* two steps were run */
}

/* Throughput that never grows: the knee is the first step, the flat rule
 * stops at the third. */
static void flat_curve(void **state)
{
	struct nb_sweep sw;
	struct nb_slo slo;
	struct nb_capacity c;

	(void)state;
	nb_slo_parse("mean=100ms", &slo);
	nb_sweep_init(&sw, NULL, 0, &slo);
	assert_int_equal(sweep_run(&sw, 2000), NB_SWEEP_STOP_FLAT);
	/* N=1 150, N=2 300, 4 600, 8 1200, 16 2000, 32 2000, 64 2000 */
	assert_int_equal(sw.n, 7);
	nb_sweep_init(&sw, NULL, 0, &slo);
	while (nb_sweep_next(&sw, 0) == NB_SWEEP_GO) {
		struct nb_sweep_step st;

		disk_step(&st, sw.plan[sw.n], 2000);
		st.iops = 2000;                 /* blk-throttle: flat from QD 1 */
		st.lat_mean_us = st.outstanding / 2000.0 * 1e6;
		nb_sweep_add(&sw, &st);
	}
	assert_int_equal(sw.n, 3);
	assert_int_equal(nb_sweep_next(&sw, 0), NB_SWEEP_STOP_FLAT);
	nb_sweep_answer(&sw, 100, &c);
	assert_int_equal(c.knee, 0);
	assert_true(c.found && c.saturated && !c.lower_bound);
	assert_true(c.iops == 2000 && c.vms == 20);
	assert_false(c.objective_broken);
}

/* No figure without the samples to carry it (core/samples.h): a step too
 * thin for the objective's percentile meets and breaks nothing, is no
 * saturation, and a sweep none of whose steps met it for want of samples
 * is unmeasured, not "no step meets". */
static void thin_steps(void **state)
{
	static const uint32_t plan[] = { 1, 2, 4, 8 };
	struct nb_sweep sw;
	struct nb_slo slo;
	struct nb_capacity c;
	struct nb_sweep_step st;
	char buf[256];

	(void)state;
	nb_slo_parse("p99=1ms", &slo);
	nb_sweep_init(&sw, plan, 4, &slo);
	for (size_t i = 0; i < 4; i++) {
		disk_step(&st, plan[i], 1e9);
		st.samples = 999;               /* a p99 needs 1000 */
		st.lat_p99_us = 5000;           /* "breaks" on 999 samples */
		nb_sweep_add(&sw, &st);
		assert_false(sw.step[i].enough);
		assert_false(sw.step[i].slo_met);
	}
	/* two thin steps in a row are no broken objective */
	assert_int_equal(nb_sweep_next(&sw, 0), NB_SWEEP_STOP_END);
	nb_sweep_answer(&sw, 0, &c);
	assert_true(!c.found && c.unmeasured && !c.objective_broken);
	assert_int_equal(c.thin, 4);
	nb_capacity_fmt(&sw, &c, buf, sizeof(buf));
	assert_string_equal(buf, "unmeasured: 4 of 4 steps had too few samples "
			    "for p99 <= 1 ms and no other met it");
	/* a thick step beside thin ones: judged as it is */
	nb_sweep_init(&sw, plan, 4, &slo);
	disk_step(&st, 1, 1e9);
	st.lat_p99_us = 500;
	nb_sweep_add(&sw, &st);
	disk_step(&st, 2, 1e9);
	st.samples = 10;
	st.iops = 1e6;                          /* on 10 samples: no saturation */
	nb_sweep_add(&sw, &st);
	nb_sweep_answer(&sw, 0, &c);
	assert_true(c.found && c.lo == 0 && !c.unmeasured && c.thin == 1);
	assert_true(c.sat == 0 && c.sat_iops == 150);
}

/* The objective still met when the list ends, throughput still rising:
 * a lower bound. */
static void lower_bound(void **state)
{
	static const uint32_t plan[] = { 1, 2, 4 };
	struct nb_sweep sw;
	struct nb_slo slo;
	struct nb_capacity c;
	char buf[256];

	(void)state;
	nb_slo_parse("p99=1s", &slo);
	nb_sweep_init(&sw, plan, 3, &slo);
	assert_int_equal(sweep_run(&sw, 1e9), NB_SWEEP_STOP_END);
	nb_sweep_answer(&sw, 0, &c);
	assert_true(c.found && c.lower_bound && c.iops == 600);
	assert_int_equal(c.knee, -1);
	nb_capacity_fmt(&sw, &c, buf, sizeof(buf));
	assert_string_equal(buf, "at least 600 IOPS (2.5 MB/s) at p99 <= 1000 ms; "
			    "no knee; saturation 600 IOPS");
}

static void limits(void **state)
{
	struct nb_sweep sw;
	struct nb_sweep_step st;

	(void)state;
	nb_sweep_init(&sw, NULL, 0, NULL);
	sw.max_steps = 2;
	sw.max_us = 60000000;
	assert_int_equal(nb_sweep_next(&sw, 0), NB_SWEEP_GO);
	disk_step(&st, 1, 1e9);
	nb_sweep_add(&sw, &st);
	assert_int_equal(nb_sweep_next(&sw, 60000000), NB_SWEEP_STOP_TIME);
	assert_int_equal(nb_sweep_next(&sw, 1000), NB_SWEEP_GO);
	disk_step(&st, 2, 1e9);
	nb_sweep_add(&sw, &st);
	assert_int_equal(nb_sweep_next(&sw, 1000), NB_SWEEP_STOP_STEPS);
	assert_string_equal(nb_sweep_stop_name(NB_SWEEP_STOP_STEPS), "step-limit");
	assert_string_equal(nb_sweep_stop_name(NB_SWEEP_STOP_SLO),
			    "objective-broken");
	/* no objective: every step meets it, never the SLO stop */
	assert_true(sw.step[0].slo_met && sw.step[1].slo_met);
	for (size_t i = sw.n; i < NB_SWEEP_MAX; i++)
		assert_int_equal(nb_sweep_add(&sw, &st), 0);
	assert_int_equal(nb_sweep_add(&sw, &st), -ENOSPC);
}

/* Little's law and the client-bound flag, and what they do to capacity. */
static void self_check(void **state)
{
	struct nb_sweep sw;
	struct nb_slo slo;
	struct nb_capacity c;
	struct nb_sweep_step st;
	char buf[256];

	(void)state;
	nb_slo_parse("mean=10ms", &slo);
	nb_sweep_init(&sw, NULL, 0, &slo);
	disk_step(&st, 1, 1e9);
	nb_sweep_add(&sw, &st);
	assert_true(sw.step[0].little_ok && near(sw.step[0].little, 1, 1e-12));
	disk_step(&st, 2, 1e9);
	st.lat_mean_us *= 0.89;                 /* 11% short: a queue not full */
	nb_sweep_add(&sw, &st);
	assert_false(sw.step[1].little_ok);
	disk_step(&st, 4, 1e9);
	st.lat_mean_us *= 1.09;                 /* 9% over: still passes */
	st.cpu_per_thread = 0.95;               /* and the client is the limit */
	nb_sweep_add(&sw, &st);
	assert_true(sw.step[2].little_ok && sw.step[2].client_bound);
	nb_sweep_answer(&sw, 0, &c);
	assert_int_equal(c.little_failed, 1);
	assert_int_equal(c.client_bound_steps, 1);
	assert_true(c.found && c.lo == 2 && c.client_bound && c.lower_bound);
	assert_false(c.flagged);
	nb_capacity_fmt(&sw, &c, buf, sizeof(buf));
	assert_non_null(strstr(buf, "at least 600 IOPS (2.5 MB/s) at mean <= 10 ms"
			       " (client-bound)"));
	/* capacity on the flagged step: say so */
	sw.n = 2;
	nb_sweep_answer(&sw, 0, &c);
	assert_true(c.lo == 1 && c.flagged);
	nb_capacity_fmt(&sw, &c, buf, sizeof(buf));
	assert_non_null(strstr(buf, "(rests on a step failing Little's law)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slo_parse),
		cmocka_unit_test(slo_refused),
		cmocka_unit_test(steps),
		cmocka_unit_test(capacity_interpolated),
		cmocka_unit_test(capacity_between_steps),
		cmocka_unit_test(first_step_fails),
		cmocka_unit_test(no_step_meets),
		cmocka_unit_test(flat_curve),
		cmocka_unit_test(lower_bound),
		cmocka_unit_test(thin_steps),
		cmocka_unit_test(limits),
		cmocka_unit_test(self_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
