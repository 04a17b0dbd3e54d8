/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_capture - what a box answers the capture's loops (capture/parse.h):
 * its text comes from another machine, so every parser must take anything
 * without reading past it, refuse a layout it does not know with a
 * message, and the answer's sections must split cleanly.  The corpus is
 * the recorded and transcribed outputs of tests/golden/capture.
 */
#include "fuzz.h"

#include "../../capture/capture_int.h"
#include "../../core/err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cp_answer a;
	static struct nb_cp_info info;
	static struct nb_cp_pools p;
	char *s = fuzz_str(data, size);
	struct nb_cp_nfs n;

	memset(&info, 0, sizeof(info));
	memset(&p, 0, sizeof(p));
	nb_cp_diskstats(s, &a.devs);
	nb_cp_nfsd(s, &n);
	nb_cp_sysblock(s, &info);
	nb_cp_diskinfo(s, &info);
	if (nb_cp_gstat(s, &a.devs) < 0 && !*nb_err_last())
		abort();
	if (nb_cp_iostat(s, &a.devs) < 0 && !*nb_err_last())
		abort();
	nb_err_clear();
	if (nb_cp_nfsstat(s, &n) < 0 && !*nb_err_last())
		abort();
	nb_cp_zpool(s, &p);
	nb_err_clear();
	if (nb_cp_zpool_hist(s, &p) < 0 && !*nb_err_last())
		abort();
	if (a.devs.n > NB_CP_MAXDEV || info.n > NB_CP_MAXDEV || p.n > NB_CP_MAXPOOL)
		abort();
	for (int i = 0; i < a.devs.n; i++)
		nb_cp_is_partition(&a.devs, a.devs.d[i].name);
	nb_err_clear();
	cp_answer_parse(s, &a);
	return 0;
}
