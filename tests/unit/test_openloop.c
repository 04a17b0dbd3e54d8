/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The open loop: arrival processes, the rate and burst knobs, the engine's
 * open loop on the in-memory runner, the open sweep's bisection, and that
 * a sweep's steps draw fresh offsets.  Figures against real
 * servers and queueing theory are test_openloop.sh and ci/bench-openloop. */
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

#include "mem_runner.h"
#include "../../engine/arrival.h"
#include "../../engine/engine.h"
#include "../../core/err.h"
#include "../../core/hist.h"
#include "../../core/result.h"
#include "../../capacity/sweep_open.h"
#include "../../run/exec.h"
#include "../../workloads/io/openload.h"

/* ---- arrival processes ---- */

/* N gaps of process KIND at RATE: their mean and coefficient of variation. */
static void gaps(int kind, double rate, uint64_t on, uint64_t off, int n,
		 double *mean, double *cv)
{
	struct nb_arrivals a;
	double sum = 0, sum2 = 0;
	uint64_t prev;

	assert_int_equal(nb_arrivals_init(&a, kind, rate, on, off, 42), 0);
	prev = nb_arrivals_next(&a);
	for (int i = 0; i < n; i++) {
		uint64_t t = nb_arrivals_next(&a);
		double g = (double)(t - prev);

		assert_true(t >= prev);
		sum += g;
		sum2 += g * g;
		prev = t;
	}
	*mean = sum / n;
	*cv = sqrt(sum2 / n - *mean * *mean) / *mean;
}

static void arrival_processes(void **state)
{
	double mean, cv;

	(void)state;
	/* Poisson: exponential gaps, mean 1/rate, CV 1 */
	gaps(NB_ARR_POISSON, 500, 0, 0, 200000, &mean, &cv);
	assert_true(fabs(mean - 2e6) < 0.01 * 2e6);
	assert_true(fabs(cv - 1) < 0.02);
	/* uniform: every gap 1/rate */
	gaps(NB_ARR_UNIFORM, 500, 0, 0, 1000, &mean, &cv);
	assert_true(fabs(mean - 2e6) < 1);
	assert_true(cv < 1e-6);
	/* onoff, 100 ms on / 400 ms off: the mean kept, far burstier */
	gaps(NB_ARR_ONOFF, 500, 100000, 400000, 2000000, &mean, &cv);
	assert_true(fabs(mean - 2e6) < 0.05 * 2e6);
	assert_true(cv > 2);
	assert_string_equal(nb_arrival_name(NB_ARR_ONOFF), "onoff");
	assert_int_equal(nb_arrival_find("uniform"), NB_ARR_UNIFORM);
	assert_int_equal(nb_arrival_find("bursty"), -1);
}

/* Arrivals of an onoff process at RATE with 100 ms bursts and 400 ms
 * pauses before HORIZON (ns), seeded SEED; stationary (the process's
 * long-run start) or in whole cycles.  Sets *END to the schedule's end
 * (the horizon when stationary). */
static unsigned onoff_count(double rate, double horizon, uint64_t seed,
			    int whole, struct nb_arrivals *a, double *end)
{
	unsigned n = 0;
	uint64_t t;

	assert_int_equal(nb_arrivals_init(a, NB_ARR_ONOFF, rate, 100000, 400000,
					  seed), 0);
	if (whole)
		nb_arrivals_cycles(a, horizon);
	*end = horizon;
	while ((t = nb_arrivals_next(a)) != UINT64_MAX) {
		if (a->end > 0)
			*end = a->end;
		if ((double)t >= *end)
			break;
		n++;
	}
	if (a->end > 0)
		*end = a->end;
	return n;
}

/* The cause of a run of no I/O (issue 46): a 500 ms run of 100 ms / 400
 * ms ON/OFF from the stationary start begins in a pause 4 times in 5, and
 * that pause outlasts the run with probability exp(-500/400): 23% of
 * runs issue nothing.  In whole cycles a run starts with a burst's first
 * I/O, never issues nothing, and ends where a cycle (a burst and its
 * pause) ends; a first cycle longer than the run is cut there, said. */
static void arrival_whole_cycles(void **state)
{
	struct nb_arrivals a;
	unsigned empty = 0, cut = 0, whole = 0;
	double end, sum_len = 0, sum_n = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 2000; seed++)
		empty += onoff_count(300, 500e6, seed, 0, &a, &end) == 0;
	/* 0.8 x exp(-1.25) = 23% (a burst's first gap: a little more) */
	assert_in_range(empty, 400, 540);
	empty = 0;
	for (uint64_t seed = 1; seed <= 2000; seed++) {
		unsigned n = onoff_count(300, 500e6, seed, 1, &a, &end);

		empty += n == 0;
		cut += a.cut;
		whole += a.cycles;
		assert_true(end <= 500e6);
		/* the schedule ends on a cycle's end, or is one cut cycle */
		assert_true(a.cut ? a.cycles == 0 && end == 500e6 :
			    a.cycles >= 1 && end < 500e6);
	}
	assert_int_equal(empty, 0);
	/* P(burst + pause > 500 ms) = (400 e^-1.25 - 100 e^-5) / 300 = 38% */
	assert_in_range(cut, 680, 840);
	assert_true(whole > 2000 - cut);
	/* over many whole cycles the rate is the rate asked for */
	for (uint64_t seed = 1; seed <= 200; seed++) {
		sum_n += onoff_count(300, 100e9, seed, 1, &a, &end);
		sum_len += end;
	}
	assert_true(fabs(sum_n / (sum_len / 1e9) - 300) < 0.03 * 300);
	/* another process: nothing changes */
	assert_int_equal(nb_arrivals_init(&a, NB_ARR_POISSON, 300, 0, 0, 1), 0);
	nb_arrivals_cycles(&a, 500e6);
	assert_true(a.horizon == 0 && a.end == 0);
}

static void arrival_refusals(void **state)
{
	struct nb_arrivals a;

	(void)state;
	assert_int_equal(nb_arrivals_init(&a, NB_ARR_POISSON, 0, 0, 0, 1), -EINVAL);
	assert_int_equal(nb_arrivals_init(&a, NB_ARR_POISSON, NAN, 0, 0, 1), -EINVAL);
	assert_int_equal(nb_arrivals_init(&a, NB_ARR_ONOFF, 10, 0, 5, 1), -EINVAL);
	assert_int_equal(nb_arrivals_init(&a, 7, 10, 0, 0, 1), -EINVAL);
}

static void rate_and_burst_parse(void **state)
{
	double iops, bps;
	uint64_t on, off;

	(void)state;
	assert_int_equal(nb_arrival_rate_parse("500", &iops, &bps), 0);
	assert_true(iops == 500 && bps == 0);
	assert_int_equal(nb_arrival_rate_parse("2.5iops", &iops, &bps), 0);
	assert_true(iops == 2.5);
	assert_int_equal(nb_arrival_rate_parse("20MB/s", &iops, &bps), 0);
	assert_true(iops == 0 && bps == 20e6);
	assert_int_equal(nb_arrival_rate_parse("1MiB/s", &iops, &bps), 0);
	assert_true(bps == 1048576);
	for (const char *const *s = (const char *const[]){ "0", "-5", "fast",
			"20MB", "20XB/s", "/s", "", NULL }; *s; s++) {
		assert_int_equal(nb_arrival_rate_parse(*s, &iops, &bps), -EINVAL);
	}
	assert_int_equal(nb_arrival_rate_parse("0", &iops, &bps), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid rate '0': give I/Os per "
			    "second (500, 500iops) or a throughput (20MB/s, "
			    "20MiB/s), above 0");
	assert_int_equal(nb_burst_parse("100ms/400ms", &on, &off), 0);
	assert_true(on == 100000 && off == 400000);
	assert_int_equal(nb_burst_parse("100/400", &on, &off), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid burst '100/400': give the mean "
			    "burst and pause lengths with their units, ON/OFF "
			    "(100ms/400ms)");
	assert_int_equal(nb_burst_parse("0ms/1s", &on, &off), -EINVAL);
	assert_int_equal(nb_burst_parse("1s", &on, &off), -EINVAL);
}

/* ---- the engine's open loop on the in-memory runner ---- */

static struct nb_io_result res;

/* Target "m" on the in-memory runner with its file "data" open, MT's
 * and MF, the faults cleared; FILLED: the file written first (1 MiB of
 * 64 KiB blocks) for the reads to find. */
static struct nb_target_cfg mcfg;
static struct nb_target mt;
static struct nb_file *mf;

static void open_mem(int filled)
{
	const struct nb_iospec w = { .pattern = NB_PAT_SEQ, .rw = NB_RW_WRITE,
				     .bs = 65536, .qd = 4, .size = 1 << 20 };

	memset(&nb_mem_faults, 0, sizeof(nb_mem_faults));
	memset(&mcfg, 0, sizeof(mcfg));
	snprintf(mcfg.name, sizeof(mcfg.name), "m");
	snprintf(mcfg.url, sizeof(mcfg.url), "/mem");
	assert_int_equal(nb_url_parse(mcfg.url, &mcfg.u), 0);
	mcfg.run_id = "unit";
	assert_int_equal(nb_target_open_ops(&mt, &mcfg, &nb_runner_mem), 0);
	assert_int_equal(mt.ops->fopen(&mt, "data", NB_F_READ | NB_F_WRITE |
				       NB_F_CREATE, &mf), 0);
	if (filled)
		assert_int_equal(nb_engine_run(&mt, mf, &w, NULL, &res), 0);
}

static void close_mem(void)
{
	mt.ops->fclose(mf);
	nb_target_close(&mt);
}

static void engine_open_loop(void **state)
{
	struct nb_iospec s = { .pattern = NB_PAT_RAND, .rw = NB_RW_READ,
			       .bs = 4096, .qd = 16, .size = 1 << 20,
			       .runtime_us = 50000, .seed = 7, .rate = 20000,
			       .arrival = NB_ARR_POISSON, .sources = 4 };
	uint64_t quarter[4] = { 0 };

	(void)state;
	open_mem(1);
	nb_mem_faults.read_log = 1;
	if (nb_engine_run(&mt, mf, &s, NULL, &res))
		fail_msg("%s", nb_err_last());
	assert_true(res.is_open);
	/* every arrival the schedule made was issued and timed */
	assert_true(res.open.arrivals > 500 && res.open.arrivals < 1500);
	assert_int_equal(res.ios, res.open.arrivals);
	assert_int_equal(res.open.resp.count, res.ios);
	assert_int_equal(res.open.late.count, res.ios);
	assert_int_equal(res.open.abandoned, 0);
	assert_int_equal(res.open.sources, 4);
	assert_true(res.open.rate == 20000);
	/* the response includes the service: never shorter */
	assert_true(nb_hist_mean(&res.open.resp) >= nb_hist_mean(&res.lat));
	/* four sources, each over its own quarter, each a quarter of the I/O */
	assert_int_equal(nb_mem_faults.nreads, res.ios);
	for (size_t i = 0; i < nb_mem_faults.nreads; i++)
		quarter[nb_mem_faults.reads[i] / (256 << 10)]++;
	for (int i = 0; i < 4; i++)
		assert_true(quarter[i] > res.ios / 8 && quarter[i] < res.ios / 2);
	free(nb_mem_faults.reads);
	close_mem();
}

/* A rate the client cannot generate against a server that answers at
 * once (the in-memory runner): the client fell behind, said. */
static void engine_client_behind(void **state)
{
	struct nb_iospec s = { .pattern = NB_PAT_RAND, .rw = NB_RW_READ,
			       .bs = 4096, .qd = 256, .size = 1 << 20,
			       .runtime_us = 100000, .seed = 7, .rate = 1e8,
			       .arrival = NB_ARR_POISSON };
	struct nb_open_verdict v;

	(void)state;
	open_mem(1);
	assert_int_equal(nb_engine_run(&mt, mf, &s, NULL, &res), 0);
	nb_open_judge(&s, &res, &v);
	assert_false(v.valid);
	assert_string_equal(v.behind, "client");
	assert_true(v.achieved_pct < 98);
	assert_true(!strncmp(v.text, "achieved ", 9));
	assert_non_null(strstr(v.text, ": the client fell behind ("));
	close_mem();
}

/* The source an I/O at OFF of LOG came from (by region), or -1. */
static int source_of(const struct nb_source *src, int n, uint64_t off)
{
	for (int i = 0; i < n; i++)
		if (off >= src[i].base && off < src[i].base + src[i].size)
			return i;
	return -1;
}

/* Sources whose writes have a size of their own (a replayed VM's, issue
 * 38): each I/O's length by its direction, inside its source's region, a
 * sequential source's I/O following the one before whatever its length,
 * a random one aligned to its own length; and what each source issued,
 * counted by the engine as the I/Os submitted were. */
static void engine_source_sizes(void **state)
{
	struct nb_source src[2] = {
		{ .rate = 3000, .rw = NB_RW_MIX, .read_pct = 50,
		  .pattern = NB_PAT_SEQ, .bs = 4096, .bs_write = 16384,
		  .base = 0, .size = 256 << 10 },
		{ .rate = 3000, .rw = NB_RW_MIX, .read_pct = 70,
		  .pattern = NB_PAT_RAND, .bs = 8192, .bs_write = 65536,
		  .base = 512 << 10, .size = 512 << 10 },
	};
	struct nb_iospec s = { .pattern = NB_PAT_RAND, .rw = NB_RW_MIX,
			       .read_pct = 50, .bs = 65536, .qd = 16,
			       .size = 1 << 20, .runtime_us = 200000, .seed = 3,
			       .rate = 6000, .arrival = NB_ARR_POISSON,
			       .src = src, .nsrc = 2 };
	struct nb_src_count n[2] = { { 7, 7 }, { 7, 7 } };
	struct nb_engine_hooks h = { .src_count = n };
	uint64_t got[2][2] = { { 0 } }, rbytes = 0, wbytes = 0;
	struct nb_mem_io last = { 0, 0, -1 };

	(void)state;
	open_mem(1);
	nb_mem_faults.io_log = 1;
	if (nb_engine_run(&mt, mf, &s, &h, &res))
		fail_msg("%s", nb_err_last());
	assert_int_equal(nb_mem_faults.nlog, res.ios);
	assert_true(res.ios > 600);
	for (size_t i = 0; i < nb_mem_faults.nlog; i++) {
		const struct nb_mem_io *io = &nb_mem_faults.log[i];
		int k = source_of(src, 2, io->off), wr = io->op == NB_OP_WRITE;

		assert_true(k >= 0);
		assert_int_equal(io->len, wr ? src[k].bs_write : src[k].bs);
		assert_true(io->off + io->len <= src[k].base + src[k].size);
		if (k == 1)
			assert_int_equal((io->off - src[1].base) % io->len, 0);
		else if (last.op >= 0)
			assert_true(io->off == last.off + last.len || io->off == 0);
		if (k == 0)
			last = *io;
		got[k][wr]++;
		*(wr ? &wbytes : &rbytes) += io->len;
	}
	for (int k = 0; k < 2; k++) {
		assert_int_equal(n[k].reads, got[k][0]);
		assert_int_equal(n[k].writes, got[k][1]);
	}
	assert_int_equal(res.bytes_read, rbytes);
	assert_int_equal(res.bytes_written, wbytes);
	/* each its own share of reads: 50% and 70% of some 600 I/Os */
	assert_true(n[0].reads * 100 > 38 * (n[0].reads + n[0].writes) &&
		    n[0].reads * 100 < 62 * (n[0].reads + n[0].writes));
	assert_true(n[1].reads * 100 > 58 * (n[1].reads + n[1].writes) &&
		    n[1].reads * 100 < 82 * (n[1].reads + n[1].writes));
	/* a write above the slots' size is refused */
	src[1].bs_write = 131072;
	assert_int_equal(nb_engine_run(&mt, mf, &s, &h, &res), -EINVAL);
	free(nb_mem_faults.log);
	close_mem();
}

static void engine_open_refusals(void **state)
{
	struct nb_iospec s = { .pattern = NB_PAT_RAND, .rw = NB_RW_READ,
			       .bs = 4096, .qd = 4, .size = 8192,
			       .runtime_us = 10000, .rate = 100, .sources = 3 };
	struct nb_source src = { .rate = 10, .rw = NB_RW_READ, .bs = 8192,
				 .size = 8192 };

	(void)state;
	open_mem(0);
	/* three sources over two blocks */
	assert_int_equal(nb_engine_run(&mt, mf, &s, NULL, &res), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'm': 3 sources over 8192 "
			    "bytes: each needs at least one block of 4096 bytes");
	/* a source's block above the spec's */
	s.src = &src;
	s.nsrc = 1;
	assert_int_equal(nb_engine_run(&mt, mf, &s, NULL, &res), -EINVAL);
	assert_string_equal(nb_err_last(), "target 'm': source 1's block size, "
			    "rate or region does not fit the run (block size at "
			    "most 4096, region inside 8192 bytes)");
	/* bursts of no length */
	s.src = NULL;
	s.sources = 1;
	s.arrival = NB_ARR_ONOFF;
	assert_int_equal(nb_engine_run(&mt, mf, &s, NULL, &res), -EINVAL);
	close_mem();
}

/* ---- the open sweep's arithmetic ---- */

/* M/D/1 with a 1 ms service: the mean response at RATE, in us. */
static double md1_mean_us(double rate)
{
	double s = 1e-3, rho = rate * s;

	return rho >= 1 ? 1e9 : 1e6 * (s + rho * s / (2 * (1 - rho)));
}

/* Run sweep SW on the M/D/1 server until it stops; the reason. */
static int drive(struct nb_osweep *sw)
{
	double rate;
	uint32_t vms;
	int why;

	while ((why = nb_osweep_next(sw, 0, &rate, &vms)) == NB_SWEEP_GO) {
		struct nb_ostep st = { .rate = rate, .vms = vms, .offered = rate,
				       .achieved = rate < 1000 ? rate : 1000,
				       .valid = rate < 990, .samples = 100000 };

		for (int i = 0; i < NB_SLO_NSTAT; i++)
			st.resp[i] = md1_mean_us(rate);
		assert_int_equal(nb_osweep_add(sw, &st), 0);
	}
	return why;
}

/* SW fresh for the objective SLO ("mean=2ms") up to 1000 IOPS, VMs of
 * VM_IOPS (0: none). */
static void osweep_for(struct nb_osweep *sw, const char *slo, double vm_iops)
{
	struct nb_slo o;

	assert_int_equal(nb_slo_parse(slo, &o), 0);
	nb_osweep_init(sw, &o, 1000, vm_iops);
}

static void osweep_bisects_to_the_objective(void **state)
{
	struct nb_osweep sw;
	struct nb_ocapacity c;
	char text[256];

	(void)state;
	osweep_for(&sw, "mean=2ms", 0);
	assert_int_equal(drive(&sw), NB_SWEEP_STOP_CONVERGED);
	assert_true(sw.step[0].rate == 500);
	assert_true(sw.n <= 7);
	nb_osweep_answer(&sw, &c);
	assert_true(c.found && c.interpolated && !c.lower_bound);
	/* Pollaczek-Khinchine: 667 IOPS */
	assert_true(fabs(c.iops - 666.7) < 15);
	nb_ocapacity_fmt(&sw, &c, text, sizeof(text));
	assert_true(!strncmp(text, "66", 2));
	assert_non_null(strstr(text, " IOPS offered at mean <= 2 ms, interpolated "
				     "between "));
	/* populations of VMs of 50 IOPS: whole VMs, 13 meet (650), 14 break */
	osweep_for(&sw, "mean=2ms", 50);
	drive(&sw);
	nb_osweep_answer(&sw, &c);
	assert_true(c.found && !c.interpolated);
	assert_true(c.vms == 13 && c.iops == 650);
	nb_ocapacity_fmt(&sw, &c, text, sizeof(text));
	assert_string_equal(text, "13 VMs (650 IOPS offered) at mean <= 2 ms; "
			    "14 VMs break it");
}

static void osweep_nothing_meets_and_lists(void **state)
{
	struct nb_osweep sw;
	struct nb_ocapacity c;
	char text[256];

	(void)state;
	/* below the service time: every rate breaks it, halving down to X/64 */
	osweep_for(&sw, "mean=500us", 0);
	assert_int_equal(drive(&sw), NB_SWEEP_STOP_SLO);
	nb_osweep_answer(&sw, &c);
	assert_false(c.found);
	nb_ocapacity_fmt(&sw, &c, text, sizeof(text));
	assert_string_equal(text, "no offered rate meets mean <= 500 us (the lowest "
			    "tried: 16 IOPS)");
	/* an explicit list runs as given */
	osweep_for(&sw, "mean=2ms", 0);
	assert_int_equal(nb_osweep_rates_parse(&sw, "25%,50%,80%"), 0);
	assert_int_equal(drive(&sw), NB_SWEEP_STOP_END);
	assert_true(sw.n == 3 && sw.step[2].rate == 800);
	assert_int_equal(nb_osweep_rates_check("400,200"), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid rates '400,200': give rising I/Os "
			    "per second (200,400,600) or shares of the maximum "
			    "(25%,50%,90%), or auto");
	assert_int_equal(nb_osweep_rates_check("auto"), 0);
	assert_int_equal(nb_osweep_rates_check("150%"), -EINVAL);
	/* too few samples for a p99: not judged, so not met */
	osweep_for(&sw, "p99=20ms", 0);
	{
		struct nb_ostep st = { .rate = 100, .offered = 100, .achieved = 100,
				       .valid = 1, .samples = 999 };

		assert_int_equal(nb_osweep_add(&sw, &st), 0);
		assert_false(sw.step[0].enough);
		assert_false(sw.step[0].slo_met);
	}
}

/* A step at RATE on the M/D/1 server, with LATE I/Os issued late by the
 * client; a late client breaks the objective (its stall's backlog). */
static void add_step(struct nb_osweep *sw, double rate, uint64_t late)
{
	struct nb_ostep st = { .rate = rate, .offered = rate, .achieved = rate,
			       .valid = 1, .samples = 10000, .client_late = late };

	for (int i = 0; i < NB_SLO_NSTAT; i++)
		st.resp[i] = late ? 9000 : md1_mean_us(rate);
	assert_int_equal(nb_osweep_add(sw, &st), 0);
}

static void osweep_runs_a_client_late_step_again(void **state)
{
	struct nb_osweep sw;
	struct nb_ocapacity c;
	struct nb_slo slo;
	double rate;
	uint32_t vms;

	(void)state;
	assert_int_equal(nb_slo_parse("mean=2ms", &slo), 0);
	nb_osweep_init(&sw, &slo, 1000, 0);
	/* 500 IOPS broke it with 101 of 10000 I/Os late (a mean's tail is
	 * 1%): not judged, and the bisection's next rate is 500 again */
	add_step(&sw, 500, 101);
	assert_true(sw.step[0].disturbed && !sw.step[0].judged);
	assert_int_equal(nb_osweep_next(&sw, 0, &rate, &vms), NB_SWEEP_GO);
	assert_true(rate == 500);
	/* the same rate clean: it meets, and the bisection goes up */
	add_step(&sw, 500, 0);
	assert_true(sw.step[1].slo_met && sw.step[1].judged);
	assert_int_equal(nb_osweep_next(&sw, 0, &rate, &vms), NB_SWEEP_GO);
	assert_true(rate == 750);
	/* broken twice with the client late: it counts, said disturbed */
	add_step(&sw, 750, 500);
	assert_int_equal(nb_osweep_next(&sw, 0, &rate, &vms), NB_SWEEP_GO);
	assert_true(rate == 750);
	add_step(&sw, 750, 500);
	assert_true(sw.step[3].disturbed && sw.step[3].judged);
	nb_osweep_answer(&sw, &c);
	assert_true(c.found && c.hi == 3 && c.disturbed == 3);
	/* 100 late of 10000 is within the tail: judged as it is */
	nb_osweep_init(&sw, &slo, 1000, 0);
	add_step(&sw, 500, 100);
	assert_true(!sw.step[0].disturbed && sw.step[0].judged);
	/* a p99's tail is 1% of the samples too; a p99.9's 0.1% (10000
	 * samples carry a p99.9, core/hist.h) */
	assert_int_equal(nb_slo_parse("p99.9=5ms", &slo), 0);
	nb_osweep_init(&sw, &slo, 1000, 0);
	add_step(&sw, 500, 11);
	assert_true(sw.step[0].disturbed && !sw.step[0].judged);
	/* a list runs as given: judged at once */
	nb_osweep_init(&sw, &slo, 1000, 0);
	assert_int_equal(nb_osweep_rates_parse(&sw, "500,600"), 0);
	add_step(&sw, 500, 500);
	assert_true(sw.step[0].disturbed && sw.step[0].judged);
}

/* ---- a sweep's steps draw fresh offsets (no replay) ---- */

static struct nb_config cfg;
static struct nb_runplan pl;
static volatile sig_atomic_t stop;

static void set(const char *section, const char *key, const char *value)
{
	assert_int_equal(nb_config_override(&cfg, section, key, value, "--x"), 0);
}

/* The offsets of the reads of the first two steps of a sweep run with
 * the settings made before: differ in their first 64. */
static void two_steps_differ(const char *steps_key)
{
	const json_t *sw;
	json_t *doc;
	size_t n1;

	set("suite", "size", "1M");
	set("suite", "iterations", "1");
	set("capacity", "step-time", "500ms");
	set("capacity", "slo", "mean=10s");
	nb_mem_faults.read_log = 1;
	doc = nb_mem_run(&cfg, &pl, &stop, NULL, "rand4k-read", NB_EXIT_OK);
	sw = json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(doc, "results"), 0), "iterations"), 0), "sweep");
	assert_true(json_array_size(json_object_get(sw, "steps")) >= 2);
	/* the reads of step 1 are the first ones logged */
	n1 = (size_t)json_integer_value(json_object_get(json_array_get(
		json_object_get(sw, "steps"), 0), !strcmp(steps_key, "rates") ?
		"samples" : "ios"));
	assert_true(n1 >= 64 && nb_mem_faults.nreads >= n1 + 64);
	assert_memory_not_equal(nb_mem_faults.reads, nb_mem_faults.reads + n1,
				64 * sizeof(uint64_t));
	json_decref(doc);
	free(nb_mem_faults.reads);

}

NB_MEM_FIXTURE(cfg, stop)

static void open_sweep_steps_draw_fresh_offsets(void **state)
{
	(void)state;
	set("capacity", "rates", "2000,4000");
	two_steps_differ("rates");
}

static void closed_sweep_steps_draw_fresh_offsets(void **state)
{
	(void)state;
	set("capacity", "steps", "1,2");
	two_steps_differ("steps");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arrival_processes),
		cmocka_unit_test(arrival_whole_cycles),
		cmocka_unit_test(arrival_refusals),
		cmocka_unit_test(rate_and_burst_parse),
		cmocka_unit_test(engine_open_loop),
		cmocka_unit_test(engine_client_behind),
		cmocka_unit_test(engine_open_refusals),
		cmocka_unit_test(engine_source_sizes),
		cmocka_unit_test(osweep_bisects_to_the_objective),
		cmocka_unit_test(osweep_nothing_meets_and_lists),
		cmocka_unit_test(osweep_runs_a_client_late_step_again),
		cmocka_unit_test_setup_teardown(open_sweep_steps_draw_fresh_offsets,
						setup, teardown),
		cmocka_unit_test_setup_teardown(closed_sweep_steps_draw_fresh_offsets,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
