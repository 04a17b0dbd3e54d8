/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_telem.c - the sampler on this machine, the monitor URL, a box that
 * cannot be reached, and the verdicts drawn from telemetry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "../../core/clock.h"
#include "../../core/err.h"
#include "../../telemetry/telem.h"
#include "../../telemetry/telem_verdict.h"

static void local_sampler(void **state)
{
	struct nb_telem_cfg cfg = { .monitor = "local", .interval_us = 50000 };
	struct nb_telem *tm;
	const json_t *se, *su;
	json_t *j;
	volatile uint64_t spin = 0;
	uint64_t end;

	(void)state;
	assert_int_equal(nb_telem_open(&tm, &cfg), 0);
	assert_non_null(tm);
	assert_string_equal(nb_telem_source(tm), "local");
	assert_int_equal(nb_telem_start(tm), 0);
	end = nb_now_ns() + 300000000ULL;
	while (nb_now_ns() < end)
		spin++;
	j = nb_telem_stop(tm);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "os")), "linux");
	se = json_object_get(j, "series");
	su = json_object_get(j, "summary");
	/* every series as long as the time axis; at least the last sample,
	 * however slowly a loaded machine ran the thread (no timing here) */
	assert_true(json_array_size(json_object_get(se, "t_ms")) >= 1);
	assert_int_equal(json_array_size(json_object_get(se, "mem_avail_bytes")),
			 json_array_size(json_object_get(se, "t_ms")));
	assert_int_equal(json_integer_value(json_object_get(su, "samples")),
			 json_array_size(json_object_get(se, "t_ms")));
	assert_true(json_is_number(json_object_get(su, "cpu_busy_max_pct")));
	assert_true(json_number_value(json_object_get(su, "cpu_busy_max_pct")) <= 100);
	assert_true(json_integer_value(json_object_get(su, "mem_total_bytes")) > 0);
	assert_true(json_is_object(json_object_get(su, "disk_busy_pct")));
	assert_string_equal(nb_telem_warning(tm), "");
	/* what it cost is said */
	assert_true(json_is_number(json_object_get(json_object_get(j, "cost_cpu_ms"),
						   "thread")));
	json_decref(j);
	/* a second iteration on the same source */
	assert_int_equal(nb_telem_start(tm), 0);
	j = nb_telem_stop(tm);
	json_decref(j);
	nb_telem_close(tm);
}

static void monitor_urls(void **state)
{
	(void)state;
	assert_int_equal(nb_telem_check("local"), 0);
	assert_int_equal(nb_telem_check("ssh://lab@198.18.14.2:2222"), 0);
	assert_int_equal(nb_telem_check("ssh://nas.example"), 0);
	assert_int_equal(nb_telem_check("ssh://root:secret@nas"), -EINVAL);
	assert_string_equal(nb_err_last(), "a password in the URL is refused; "
			    "use a key or an agent");
	assert_null(strstr(nb_err_last(), "secret"));
	assert_int_equal(nb_telem_check("ssh://nas:99999"), -EINVAL);
	assert_string_equal(nb_err_last(), "'ssh://nas:99999': bad port");
	assert_int_equal(nb_telem_check("ssh://nas/x"), -EINVAL);
	assert_int_equal(nb_telem_check("ssh://n;rm"), -EINVAL);
	assert_int_equal(nb_telem_check("http://nas"), -EINVAL);
	assert_string_equal(nb_err_last(), "'http://nas' is not auto, local, off "
			    "or ssh://[user@]host[:port]");
}

/* Nothing listens on 127.0.0.1:1: ssh is refused at once; a warning, no
 * source, and no failure. */
static void unreachable(void **state)
{
	struct nb_telem_cfg cfg = { .monitor = "ssh://nobody@127.0.0.1:1",
				    .timeout_us = 5000000 };
	struct nb_telem *tm = (void *)1;

	(void)state;
	assert_int_equal(nb_telem_open(&tm, &cfg), 0);
	assert_null(tm);
	assert_non_null(strstr(nb_telem_warning(NULL),
			       "telemetry from 'ssh://nobody@127.0.0.1:1': ssh: connect to host "));
	assert_non_null(strstr(nb_telem_warning(NULL), "Connection refused"));
	assert_non_null(strstr(nb_telem_warning(NULL), "the run goes on"));
}

static json_t *telemetry(const char *summary, const char *cpu_series)
{
	json_t *j = json_pack("{s:o, s:o, s:[{s:s, s:s, s:[s,s,s,s], s:b},"
			      " {s:s, s:s, s:[s], s:b}]}",
			      "summary", json_loads(summary, 0, NULL),
			      "series", json_pack("{s:o}", "cpu_busy_max_pct",
						  json_loads(cpu_series, 0, NULL)),
			      "vdevs", "pool", "tank", "vdev", "raidz1-0", "disks",
			      "loop0", "loop1", "loop2", "loop3", "special", 0,
			      "pool", "tank", "vdev", "loop5", "disks", "loop5",
			      "special", 1);

	assert_non_null(j);
	return j;
}

static const char *text_of(const json_t *v, const char *kind)
{
	size_t i;
	json_t *x;

	json_array_foreach(v, i, x)
		if (!strcmp(json_string_value(json_object_get(x, "kind")), kind))
			return json_string_value(json_object_get(x, "text"));
	return NULL;
}

static void verdicts(void **state)
{
	struct nb_tv_ctx c = { .workload = "bonnie", .iteration = 4 };
	json_t *t, *v, *m = json_object();

	(void)state;
	/* a quiet box: nothing to say */
	t = telemetry("{\"swapped_bytes\": 0, \"mem_avail_min_pct\": 40,"
		      " \"mem_total_bytes\": 1000, \"cpu_busy_max_pct\": 99,"
		      " \"arc_hits\": 900, \"arc_misses\": 100, \"arc_hit_pct\": 90,"
		      " \"disk_busy_pct\": {\"loop0\": 40, \"loop1\": 42,"
		      " \"loop2\": 41, \"loop3\": 55, \"loop5\": 99},"
		      " \"disk_busiest\": \"loop5\"}", "[99, 20, 30]");
	v = nb_tv_judge(t, &c, m);
	assert_int_equal(json_array_size(v), 0);
	/* the figures a criterion can reach */
	assert_true(json_number_value(json_object_get(m, "box_cpu_max_pct")) == 99);
	assert_true(json_number_value(json_object_get(m, "box_arc_hit_pct")) == 90);
	assert_true(json_number_value(json_object_get(m, "box_swapped_bytes")) == 0);
	assert_true(json_number_value(json_object_get(m, "box_disk_busy_max_pct")) == 99);
	json_decref(v);
	json_decref(t);

	/* swapped, cached read, CPU-bound, one slow disk, at the link's rate */
	t = telemetry("{\"swapped_bytes\": 4187593113, \"mem_avail_min_pct\": 2,"
		      " \"arc_hits\": 900, \"arc_misses\": 100, \"arc_hit_pct\": 90,"
		      " \"cpu_busy_max_pct\": 100, \"cpu_busiest\": \"cpu1\","
		      " \"disk_busy_pct\": {\"loop0\": 40, \"loop1\": 42,"
		      " \"loop2\": 41, \"loop3\": 92}}", "[99, 97, 30]");
	c.uncached_read = 1;
	c.figure_bytes = 90e6;
	c.ceiling_bytes = 94e6;
	v = nb_tv_judge(t, &c, NULL);
	assert_int_equal(json_array_size(v), 5);
	assert_string_equal(text_of(v, "memory"), "the box swapped 3.90 GiB during "
			    "bonnie iteration 4: it ran out of memory, and its figures "
			    "are those of a box that pages");
	assert_string_equal(text_of(v, "cache"), "bonnie iteration 4: the box's ARC "
			    "answered 90% of the reads (900 of 1000): the figure is "
			    "the box's RAM, not its disks; use a data set of at "
			    "least twice its RAM");
	assert_string_equal(text_of(v, "cpu"), "the box was CPU-bound during "
			    "bonnie iteration 4: its busiest core was 97% busy at the "
			    "median second (peak 100%, cpu1); compression, checksums "
			    "or the file server's threads, not the disks, set the "
			    "figure");
	assert_string_equal(text_of(v, "slow-disk"), "disk loop3 of raidz1-0 was "
			    "2.2x busier than its peers during bonnie iteration 4 "
			    "(92% against 41%): a slow disk holds the whole vdev back");
	assert_string_equal(text_of(v, "network"), "bonnie iteration 4: 90.0 MB/s "
			    "is within 10% of the network's ceiling (94.0 MB/s, "
			    "measured before the workloads): the figure is the "
			    "link's, not the disks'");
	json_decref(v);
	/* a local target: the box is this machine, its CPU the client's */
	c.local = 1;
	c.self_user_pct = 38.4;
	c.self_sys_pct = 121.6;
	v = nb_tv_judge(t, &c, NULL);
	assert_string_equal(text_of(v, "cpu"), "this machine was CPU-bound during "
			    "bonnie iteration 4: its busiest core was 97% busy at the "
			    "median second (peak 100%, cpu1); the target is local, so "
			    "nasbench's threads and the kernel, not the disks, set the "
			    "figure (nasbench used 38% of a core in user space and 122% "
			    "in the kernel)");
	json_decref(v);
	/* nasbench used a fifth of a core: something else kept it busy */
	c.self_user_pct = 5.2;
	c.self_sys_pct = 14.4;
	v = nb_tv_judge(t, &c, NULL);
	assert_string_equal(text_of(v, "cpu"), "this machine was CPU-bound during "
			    "bonnie iteration 4: its busiest core was 97% busy at the "
			    "median second (peak 100%, cpu1); the target is local, and "
			    "nasbench used 5% of a core in user space and 14% in the "
			    "kernel: other work on this machine kept its cores busy and "
			    "set the figure, not the disks");
	json_decref(v);
	c.self_user_pct = c.self_sys_pct = -1;     /* not known: no split */
	v = nb_tv_judge(t, &c, NULL);
	assert_string_equal(text_of(v, "cpu"), "this machine was CPU-bound during "
			    "bonnie iteration 4: its busiest core was 97% busy at the "
			    "median second (peak 100%, cpu1); the target is local, so "
			    "nasbench's threads and the kernel, not the disks, set the "
			    "figure");
	json_decref(v);
	c.local = 0;
	/* busier for more I/Os, each as quick as its peers': no slow disk;
	 * each I/O 3x as long: the slow one */
	json_object_set_new(json_object_get(t, "summary"), "disk_ms_per_io",
			    json_loads("{\"loop0\": 2.0, \"loop1\": 2.1, \"loop2\": 1.9,"
				       " \"loop3\": 2.2}", 0, NULL));
	v = nb_tv_judge(t, &c, NULL);
	assert_null(text_of(v, "slow-disk"));
	json_decref(v);
	json_object_set_new(json_object_get(json_object_get(t, "summary"), "disk_ms_per_io"),
			    "loop3", json_real(6.0));
	v = nb_tv_judge(t, &c, NULL);
	assert_non_null(text_of(v, "slow-disk"));
	json_decref(v);
	/* under the thresholds: no cache verdict for a read meant to be
	 * cached, none for a figure 11% under the ceiling */
	c.uncached_read = 0;
	c.figure_bytes = 83e6;
	v = nb_tv_judge(t, &c, NULL);
	assert_null(text_of(v, "cache"));
	assert_null(text_of(v, "network"));
	json_decref(v);
	json_decref(t);

	/* reads the ARC never saw (zfs-fuse's dbufs, a page cache) and the
	 * disks did not serve either: 1 MiB read for 320 MiB asked */
	t = telemetry("{\"disks_read_bytes\": 1048576, \"arc_hits\": 0,"
		      " \"arc_misses\": 0}", "[10]");
	c.uncached_read = 1;
	c.figure_bytes = 0;
	c.read_bytes = 320 << 20;
	v = nb_tv_judge(t, &c, NULL);
	assert_string_equal(text_of(v, "cache"), "bonnie iteration 4: the box's "
			    "disks read 1 MiB for the 320 MiB the client read: the "
			    "box answered from its RAM, not its disks; use a data "
			    "set of at least twice its RAM");
	json_decref(v);
	/* the disks read more than was asked (raidz reads whole records) */
	json_object_set_new(json_object_get(t, "summary"), "disks_read_bytes",
			    json_real(900 << 20));
	v = nb_tv_judge(t, &c, NULL);
	assert_null(text_of(v, "cache"));
	json_decref(v);
	json_decref(t);
	json_decref(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(local_sampler),
		cmocka_unit_test(monitor_urls),
		cmocka_unit_test(unreachable),
		cmocka_unit_test(verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
