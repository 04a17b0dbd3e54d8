/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_replay.c - the replay of a captured load: the scales,
 * the load file's population as sources (classes, shares, regions, idle
 * VMs, a bucket as it was, request sizes rounded), what does not fit,
 * the open sweep's first step at today's load, and the workload end to
 * end on the in-memory runner (the result's replay object, headroom,
 * years, the busiest bucket, a load file refused before anything runs).
 * Figures on real devices are test_replay.sh and ci/bench-replay.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem_runner.h"
#include "scratch.h"
#include "../../core/err.h"
#include "../../loadfile/loadfile.h"
#include "../../replay/population.h"
#include "../../core/result.h"
#include "../../capacity/sweep_open.h"
#include "../../run/exec.h"

#define NEAR(x, want, tol) assert_true(fabs((double)(x) - (want)) <= (tol))

static const char classes[] =
	"[population]\n"
	"growth = 25%/year\n"
	"[vm web]\n"
	"count = 3\n"
	"iops = 50\n"
	"read = 70\n"
	"bs_read = 8K\n"
	"bs_write = 12000\n"
	"[vm db]\n"
	"iops = 200\n"
	"read = 90\n"
	"bs_read = 8K\n"
	"bs_write = 8K\n"
	"sequential = 30\n";

static void parse(struct nb_load *l, const char *text)
{
	nb_load_init(l);
	if (nb_load_parse(l, text, "t.ini"))
		fail_msg("%s", nb_err_last());
}

/* ---- scales ---- */

static void scales(void **state)
{
	double v[NB_REPLAY_SCALES];
	size_t n = 99;

	(void)state;
	assert_int_equal(nb_replay_scales_parse("auto", v, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(nb_replay_scales_parse("1,1.25,1.5,2", v, &n), 0);
	assert_int_equal(n, 4);
	NEAR(v[1], 1.25, 1e-12);
	assert_int_equal(nb_replay_scales_parse("0.5x,1X,3x", v, &n), 0);
	assert_int_equal(n, 3);
	NEAR(v[0], 0.5, 1e-12);
	assert_int_equal(nb_replay_scales_parse("2,1", v, &n), -EINVAL);
	assert_string_equal(nb_err_last(), "invalid scales '2,1': give rising "
			    "multiples of the captured load above 0 (1,1.25,1.5,2 "
			    "or 1x,2x), or auto");
	assert_int_equal(nb_replay_scales_parse("0,1", v, &n), -EINVAL);
	assert_int_equal(nb_replay_scales_parse("1,,2", v, &n), -EINVAL);
	assert_int_equal(nb_replay_scales_parse("1%", v, &n), -EINVAL);
	assert_int_equal(nb_replay_scales_parse("", v, &n), -EINVAL);
	assert_int_equal(nb_replay_scales_parse("1,2,3,4,5,6,7,8,9", v, &n),
			 -EINVAL);
	assert_string_equal(nb_err_last(), "invalid scales '1,2,3,4,5,6,7,8,9': at most 8");
	assert_int_equal(nb_replay_scales_check("1,2,3,4,5,6,7,8"), 0);
}

/* ---- the population ---- */

/* Classes expanded by count, each VM its own region of an equal share
 * (no share known), the regions one after the other and aligned, the
 * sizes rounded to the blocks, the mix weighted by rate. */
static void population_of_classes(void **state)
{
	struct nb_replay_pop p;
	struct nb_load l;
	uint64_t end = 0;

	(void)state;
	parse(&l, classes);
	assert_int_equal(nb_replay_population(&l, "t.ini", NB_REPLAY_BUSY,
					      64 << 20, 4096, &p), 0);
	assert_int_equal(p.population, 4);
	assert_int_equal(p.nsrc, 4);
	assert_int_equal(p.idle, 0);
	NEAR(p.iops, 350, 1e-9);
	NEAR(p.read_pct, (150.0 * 70 + 200 * 90) / 350, 1e-9);
	NEAR(p.seq_pct, (150.0 * 20 + 200 * 30) / 350, 1e-9);
	for (uint32_t i = 0; i < p.nsrc; i++) {
		const struct nb_source *s = &p.src[i];

		assert_int_equal(p.src_vm[i], i < 3 ? 0 : 1);
		assert_int_equal(s->base % 4096, 0);
		assert_int_equal(s->size % 4096, 0);
		assert_true(s->base >= end);
		end = s->base + s->size;
		NEAR(s->size, 16 << 20, 4096);
		assert_int_equal(s->rw, NB_RW_MIX);
	}
	assert_true(end <= 64 << 20);
	/* 12000 bytes a write: three 4 KiB blocks */
	assert_int_equal(p.src[0].bs, 8192);
	assert_int_equal(p.src[0].bs_write, 12288);
	assert_int_equal(p.bs_max, 12288);
	assert_int_equal(p.src[0].pattern, NB_PAT_RAND);
	/* [vm]'s default: 80% random; db: 30% sequential */
	assert_int_equal(p.src[0].rand_pct, 80);
	assert_int_equal(p.src[3].rand_pct, 70);
	assert_int_equal(p.src[3].read_pct, 90);
	NEAR(p.src[3].rate, 200, 1e-9);
	NEAR(p.vms[0].share, 0.25, 1e-12);
	nb_replay_pop_free(&p);
	/* on 512-byte blocks 12000 is 23 of them */
	assert_int_equal(nb_replay_population(&l, "t.ini", NB_REPLAY_BUSY,
					      64 << 20, 512, &p), 0);
	assert_int_equal(p.src[0].bs_write, 11776);
	nb_replay_pop_free(&p);
	nb_load_free(&l);
}

/* Known shares and one left to split what they leave; an idle VM keeps
 * its region but is no source; a VM that only reads. */
static void population_shares_and_idle(void **state)
{
	struct nb_replay_pop p;
	struct nb_load l;

	(void)state;
	parse(&l, "[vm a]\nshare = 60\niops = 100\nread = 100\nbs_read = 4K\n"
		  "[vm idle]\nshare = 10\niops = 0\nread = 0\n"
		  "[vm b]\niops = 10\nread = 0\nbs_write = 64K\nsequential = 100\n");
	assert_int_equal(nb_replay_population(&l, "t.ini", NB_REPLAY_BUSY,
					      100 << 20, 512, &p), 0);
	assert_int_equal(p.population, 3);
	assert_int_equal(p.nsrc, 2);
	assert_int_equal(p.idle, 1);
	NEAR(p.vms[2].share, 0.30, 1e-12);
	assert_int_equal(p.src[0].base, 0);
	NEAR(p.src[0].size, 0.6 * (100 << 20), 512);
	/* b's region starts after the idle VM's */
	NEAR(p.src[1].base, 0.7 * (100 << 20), 512);
	assert_int_equal(p.src_vm[1], 2);
	assert_int_equal(p.src[0].rw, NB_RW_READ);
	assert_int_equal(p.src[1].rw, NB_RW_WRITE);
	assert_int_equal(p.src[1].bs, 65536);
	assert_int_equal(p.src[1].pattern, NB_PAT_SEQ);
	NEAR(p.mean_bytes, (100.0 * 4096 + 10 * 65536) / 110, 1e-6);
	nb_replay_pop_free(&p);
	nb_load_free(&l);
}

static const char captured[] =
	"[capture]\nbucket = 60s\nbuckets = 3\n"
	"[total]\niops = 300\nread = 70\nbs_read = 8K\nbs_write = 8K\n"
	"peak_bucket = 1\n"
	"[vm a]\niops = 100\nread = 70\nbs_read = 8K\nbs_write = 8K\n"
	"[series a]\n0 = 70 30 0 0 -\n1 = 100 100 0 0 -\n2 = 70 30 0 0 -\n"
	"[vm b]\niops = 200\nread = 70\nbs_read = 8K\nbs_write = 8K\n"
	"[series b]\n0 = 140 60 0 0 -\n1 = 300 0 0 0 -\n2 = 0 0 0 0 -\n";

/* A bucket as it was: each VM at its rate and read share of that bucket;
 * a VM idle in it is no source. */
static void population_of_a_bucket(void **state)
{
	struct nb_replay_pop p;
	struct nb_load l;

	(void)state;
	parse(&l, captured);
	assert_true(nb_replay_has_bucket(&l, 2));
	assert_false(nb_replay_has_bucket(&l, 3));
	assert_int_equal(nb_replay_population(&l, "t.ini", 1, 64 << 20, 512, &p), 0);
	NEAR(p.iops, 500, 1e-9);
	NEAR(p.src[0].rate, 200, 1e-9);
	assert_int_equal(p.src[0].read_pct, 50);
	assert_int_equal(p.src[1].rw, NB_RW_READ);
	nb_replay_pop_free(&p);
	assert_int_equal(nb_replay_population(&l, "t.ini", 2, 64 << 20, 512, &p), 0);
	assert_int_equal(p.nsrc, 1);
	assert_int_equal(p.idle, 1);
	nb_replay_pop_free(&p);
	nb_load_free(&l);
}

/* What does not fit, said with what would. */
static void population_refusals(void **state)
{
	struct nb_replay_pop p;
	struct nb_load l;

	(void)state;
	parse(&l, classes);
	assert_int_equal(nb_replay_population(&l, "t.ini", NB_REPLAY_BUSY,
					      1 << 20, 512, &p), -EINVAL);
	assert_string_equal(nb_err_last(), "the load does not fit: in a data set of "
			    "1 MiB, VM 'web' of 't.ini' (25% of the data) gets 256 "
			    "KiB, fewer than 64 of its 11.50 KiB requests; give a data "
			    "set of at least 3 MiB (--size), or edit the shares");
	nb_replay_pop_free(&p);
	/* the size it asked for fits */
	assert_int_equal(nb_replay_population(&l, "t.ini", NB_REPLAY_BUSY,
					      3 << 20, 512, &p), 0);
	nb_replay_pop_free(&p);
	assert_int_equal(nb_replay_population(&l, "t.ini", 0, 1 << 30, 512, &p),
			 -EINVAL);
	assert_string_equal(nb_err_last(), "load 't.ini': VM 'web' has no bucket 0 "
			    "in its series");
	nb_replay_pop_free(&p);
	nb_load_free(&l);
	parse(&l, "[vm a]\niops = 0\nread = 50\n");
	assert_int_equal(nb_replay_population(&l, "t.ini", NB_REPLAY_BUSY,
					      1 << 30, 512, &p), -EINVAL);
	assert_string_equal(nb_err_last(), "load 't.ini': no VM issues I/O at its "
			    "busiest hour");
	nb_replay_pop_free(&p);
	nb_load_free(&l);
	parse(&l, "[vm a]\niops = 5\nread = 100\nbs_read = 64M\n");
	assert_int_equal(nb_replay_population(&l, "t.ini", NB_REPLAY_BUSY,
					      1ULL << 40, 512, &p), -EINVAL);
	assert_string_equal(nb_err_last(), "load 't.ini': VM 'a' has requests of "
			    "67108864 bytes, more than the 16777216 nasbench replays");
	nb_replay_pop_free(&p);
	nb_load_free(&l);
}

/* The open sweep of a replay starts at today's load, then bisects. */
static void osweep_first_step(void **state)
{
	struct nb_slo slo;
	struct nb_osweep sw;
	struct nb_ostep st = { .valid = 1, .samples = 5000 };
	uint32_t vms;
	double rate;

	(void)state;
	assert_int_equal(nb_slo_parse("mean=10ms", &slo), 0);
	nb_osweep_init(&sw, &slo, 1000, 0);
	sw.first = 350;
	assert_int_equal(nb_osweep_next(&sw, 0, &rate, &vms), NB_SWEEP_GO);
	NEAR(rate, 350, 1e-9);
	st.rate = 350;
	st.resp[NB_SLO_MEAN] = 1000;
	assert_int_equal(nb_osweep_add(&sw, &st), 0);
	assert_int_equal(nb_osweep_next(&sw, 0, &rate, &vms), NB_SWEEP_GO);
	NEAR(rate, 675, 1e-9);
}

/* ---- the workload end to end ---- */

static struct nb_config cfg;
static struct nb_runplan pl;
static volatile sig_atomic_t stop;

static void set(const char *section, const char *key, const char *value)
{
	if (nb_config_override(&cfg, section, key, value, "--x"))
		fail_msg("%s", nb_err_last());
}

NB_MEM_FIXTURE(cfg, stop)

static const char *write_load(const char *name, const char *text)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", test_scratch, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static json_t *run_replay(const char *load)
{
	set("suite", "size", "16M");
	set("suite", "iterations", "1");
	/* a step is valid when the client issued 98% of what fell due: the
	 * last 2% of a 300 ms step (6 ms) was a stall of a loaded machine
	 * (make check runs this under the sanitizers beside the integration
	 * files); 2% of 2 s is 40 ms */
	set("capacity", "step-time", "2s");
	set("capacity", "slo", "mean=500ms");
	set("replay", "load", load);
	set("replay", "scale", "1,2");
	return nb_mem_run(&cfg, &pl, &stop, NULL, "replay", NB_EXIT_OK);
}

static double num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/* Scales 1 and 2 of a captured load on a box that answers at once: the
 * headroom a lower bound of 2, its years at the file's growth, today's
 * step per VM, the busiest bucket as it was. */
static void replay_on_memory(void **state)
{
	json_t *doc;
	const json_t *it, *rp, *m, *steps, *td, *pk;
	char text[1200];

	(void)state;
	snprintf(text, sizeof(text), "[population]\ngrowth = 25%%/year\n%s", captured);
	doc = run_replay(write_load("captured.ini", text));
	it = json_array_get(json_object_get(json_array_get(json_object_get(doc,
		"results"), 0), "iterations"), 0);
	m = json_object_get(it, "metrics");
	rp = json_object_get(it, "replay");
	steps = json_object_get(json_object_get(it, "sweep"), "steps");
	assert_non_null(rp);
	assert_int_equal(json_array_size(steps), 2);
	NEAR(num(json_array_get(steps, 0), "scale"), 1, 1e-9);
	NEAR(num(json_array_get(steps, 1), "scale"), 2, 1e-9);
	NEAR(num(json_array_get(steps, 1), "rate_iops"), 600, 1e-6);
	assert_null(json_object_get(json_array_get(steps, 0), "per_source"));
	NEAR(num(m, "headroom"), 2, 1e-6);
	NEAR(num(m, "years"), log(2) / log(1.25), 1e-6);
	assert_true(json_is_true(json_object_get(rp, "lower_bound")));
	assert_string_equal(nb_jstr(rp, "growth_from"), "the load file");
	assert_string_equal(nb_jstr(rp, "text"), "headroom at least 2.00x today's "
			    "load (2 VMs, 300 IOPS at their busiest hour) at mean <= "
			    "500 ms; at least 3.1 years at 25%/year");
	NEAR(num(rp, "population"), 2, 0);
	assert_int_equal(json_array_size(json_object_get(rp, "vms")), 2);
	assert_int_equal(json_array_size(json_object_get(json_object_get(rp,
		"series"), "read_iops")), 3);
	NEAR(num(json_object_get(rp, "series"), "bucket_s"), 60, 0);
	td = json_object_get(rp, "today");
	assert_int_equal(json_array_size(json_object_get(td, "per_vm")), 2);
	NEAR(num(json_array_get(json_object_get(td, "per_vm"), 1), "asked_iops"),
	     200, 1e-9);
	pk = json_object_get(rp, "peak");
	assert_true(json_is_object(pk));
	NEAR(num(pk, "rate_iops"), 500, 1e-6);
	NEAR(num(pk, "of_busy"), 500.0 / 300, 1e-9);
	NEAR(num(pk, "bucket"), 1, 0);
	assert_int_equal(json_array_size(json_object_get(pk, "per_vm")), 2);
	assert_true(!strncmp(nb_jstr(pk, "text"), "the busiest minute (bucket 1, "
			     "500 IOPS, 1.67x the busiest hour) as it was: meets "
			     "mean <= 500 ms", 92));
	json_decref(doc);
}

/* A load file with a mistake is refused when the run is planned, with
 * its FILE:LINE; so is a load that does not fit the data set. */
static void refused_when_planned(void **state)
{
	const char *bad = write_load("bad.ini", "[vm a]\niops = 10\nread = 50\n"
				     "bs_read = 8K\nbs_write = 8K\nsequental = 5\n");
	char want[256];

	(void)state;
	set("replay", "load", bad);
	assert_int_equal(nb_config_apply(&cfg, 0), 0);
	assert_int_equal(nb_runplan_make(&pl, &cfg, "replay", NULL, 0), -EINVAL);
	snprintf(want, sizeof(want), "%s:6: unknown key 'sequental' in [vm a]; "
		 "did you mean 'sequential'?", bad);
	assert_string_equal(nb_err_last(), want);
	set("replay", "load", write_load("c.ini", classes));
	set("suite", "size", "1M");
	assert_int_equal(nb_config_apply(&cfg, 0), 0);
	assert_int_equal(nb_runplan_make(&pl, &cfg, "replay", NULL, 0), -EINVAL);
	assert_true(!strncmp(nb_err_last(), "the load does not fit: in a data set "
			     "of 1 MiB", 40));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scales),
		cmocka_unit_test(population_of_classes),
		cmocka_unit_test(population_shares_and_idle),
		cmocka_unit_test(population_of_a_bucket),
		cmocka_unit_test(population_refusals),
		cmocka_unit_test(osweep_first_step),
		cmocka_unit_test_setup_teardown(replay_on_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(refused_when_planned, setup, teardown),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
