/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_telem - what a box answers the telemetry's sampler (telemetry/telem_parse.h):
 * its text comes from another machine, so every parser must take anything
 * without reading past it, and the answer's sections must split cleanly.
 * The corpus is the recorded and transcribed outputs of tests/golden/telemetry.
 */
#include "fuzz.h"

#include "../../telemetry/telem_pool.h"
#include "../../telemetry/telem_rt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	static struct nb_telem_snap snap;
	static struct nb_tp_pools pools;
	struct nb_tp_vdevs v;

	memset(&snap, 0, sizeof(snap));
	nb_tp_linux_stat(s, &snap.cpu);
	nb_tp_linux_meminfo(s, &snap.mem);
	nb_tp_linux_vmstat(s, &snap.mem);
	nb_tp_linux_diskstats(s, &snap.disks);
	nb_tp_arc_kstat(s, &snap.arc);
	nb_tp_arc_kv(s, &snap.arc);
	nb_tp_bsd_sysctl(s, &snap.cpu, &snap.mem, &snap.arc);
	nb_tp_bsd_swapinfo(s, &snap.mem);
	nb_tp_bsd_vmstat(s, &snap.cpu, &snap.mem);
	nb_tp_bsd_iostat(s, &snap.disks);
	nb_tp_bsd_gstat(s, &snap.disks);
	nb_tp_zpool_iostat(s, &v);
	memset(&pools, 0, sizeof(pools));
	nb_tp_zpool_status(s, &pools);
	nb_tp_mdstat(s, &pools);
	if (snap.cpu.n > NB_TP_MAXCPU || snap.disks.n > NB_TP_MAXDISK ||
	    v.n > NB_TP_MAXVDEV || pools.n > NB_TP_MAXPOOL)
		abort();
	for (int i = 0; i < pools.n; i++)
		if (pools.p[i].ndev > NB_TP_POOLDEV)
			abort();
	memset(&snap, 0, sizeof(snap));
	nb_telem_parse_answer(s, NB_TELEM_LINUX, &snap);
	nb_telem_parse_answer(s, NB_TELEM_FREEBSD, &snap);
	return 0;
}
