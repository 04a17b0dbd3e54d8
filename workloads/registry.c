/* SPDX-License-Identifier: GPL-2.0-or-later */
/* registry.c - every workload and suite nasbench knows. */
#include "workload.h"

#include <stdio.h>
#include <string.h>

extern const struct nb_workload nb_wl_seq512k_read, nb_wl_seq512k_write,
	nb_wl_seq512k_write_sync, nb_wl_rand4k_read, nb_wl_rand4k_write,
	nb_wl_rand4k_write_sync, nb_wl_rand4k_mix;
extern const struct nb_workload nb_wl_bigfile, nb_wl_syncprobe,
	nb_wl_xz, nb_wl_bonnie;
extern const struct nb_workload nb_wl_integrity, nb_wl_conform,
	nb_wl_crashcheck;
extern const struct nb_workload nb_wl_vm, nb_wl_replay;

const struct nb_workload *const nb_workloads[] = {
	&nb_wl_seq512k_write,
	&nb_wl_seq512k_write_sync,
	&nb_wl_seq512k_read,
	&nb_wl_rand4k_write,
	&nb_wl_rand4k_write_sync,
	&nb_wl_rand4k_read,
	&nb_wl_rand4k_mix,
	&nb_wl_vm,
	&nb_wl_replay,
	&nb_wl_bigfile,
	&nb_wl_syncprobe,
	&nb_wl_bonnie,
	&nb_wl_xz,
	&nb_wl_integrity,
	&nb_wl_conform,
	&nb_wl_crashcheck,
	NULL,
};

/* A suite's knobs: every field unset (NB_PARAMS_UNSET, core/params.h) but
 * those named after it, which override it (the later of two designated
 * initialisers of a field wins: C11 6.7.9). */
#define SUITE_PARAMS(...) { NB_PARAMS_UNSET, __VA_ARGS__ }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
const struct nb_suite nb_suites[] = {
	{ "quick", "small and fast: 512 KiB sequential and 4 KiB random, "
		   "256 MiB, 2 s each (CI-sized)",
	  "seq512k-write,seq512k-read,rand4k-write,rand4k-read", 3,
	  SUITE_PARAMS(.size = 256ULL << 20, .runtime_us = 2000000) },
	{ "io", "512 KiB sequential and 4 KiB random, async and sync writes, 1 GiB",
	  "seq512k-write,seq512k-write-sync,seq512k-read,rand4k-write,"
	  "rand4k-write-sync,rand4k-read", 3,
	  NB_PARAMS_INIT },
	{ "seed1", "the first story: I/O Analyzer's 512 KiB sequential write (sync "
		   "and async) and read, and whether sync writes are durable",
	  "seq512k-write-sync,seq512k-write,seq512k-read,syncprobe", 3,
	  NB_PARAMS_INIT },
	{ "seed2", "the second story: bonnie++ x5, a 100 GB file of random data, "
		   "xz on every CPU (bonnie's file is 2 x RAM)",
	  "bonnie*5,bigfile*1,xz*1", 1, NB_PARAMS_INIT },
	{ "full", "everything: sequential, random, sync probe, bonnie, bigfile, xz",
	  "seq512k-write,seq512k-write-sync,seq512k-read,rand4k-write,"
	  "rand4k-write-sync,rand4k-read,rand4k-mix,syncprobe,bonnie,bigfile*1,xz*1",
	  3, NB_PARAMS_INIT },
	{ "accept", "acceptance: integrity, sync durability and protocol "
		    "conformance, plus what the [accept] criteria name; 256 MiB",
	  "integrity,syncprobe,conform", 3,
	  SUITE_PARAMS(.size = 256ULL << 20) },
	{ "capacity", "how many VMs like [vm] the box serves at the objective "
		      "([capacity] slo, default p99=20ms): populations of VMs "
		      "like [vm], each its own open-loop source, bisected to the "
		      "objective after a probe for the maximum, 10 s a step",
	  "vm", 3,
	  SUITE_PARAMS(.sweep = 1) },
	{ "failure", "a disk fails and is replaced: 4 KiB random and 512 KiB "
		     "sequential reads healthy, degraded, during the rebuild and "
		     "after it, the rebuild timed, records written before read "
		     "back ([box] fail-disk, replace-disk; run --fail-disks; "
		     "docs/failure.md)",
	  "rand4k-read,seq512k-read", 3,
	  SUITE_PARAMS(.runtime_us = 10000000, .rebuild = "load") },
	{ "ssd-care", "figures after the first hour: the span preconditioned "
		      "(SNIA PTS), then 4 KiB random and 512 KiB sequential "
		      "writes in rounds until steady; run it with --span and "
		      "--trim as labelled runs (docs/steady-state.md)",
	  "rand4k-write,seq512k-write,rand4k-read", 1,
	  SUITE_PARAMS(.precondition = 1, .steady = "snia") },
	{ NULL, NULL, NULL, 0, NB_PARAMS_INIT },
};
#pragma GCC diagnostic pop

const struct nb_workload *nb_workload_find(const char *name)
{
	for (int i = 0; nb_workloads[i]; i++)
		if (!strcmp(nb_workloads[i]->name, name))
			return nb_workloads[i];
	return NULL;
}

const struct nb_suite *nb_suite_find(const char *name)
{
	for (int i = 0; nb_suites[i].name; i++)
		if (!strcmp(nb_suites[i].name, name))
			return &nb_suites[i];
	return NULL;
}
