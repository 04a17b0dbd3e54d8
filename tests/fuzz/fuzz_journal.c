/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_journal - a crashcheck journal as 'nasbench run --verify' reads it
 * (cut off by a crash of the client, damaged, hand-edited, not a journal
 * at all): the self-checking lines read (workloads/crash/crashlog.c) and the records
 * turned into the journal's state (workloads/crash/crashverify.c); every write
 * recorded must lie inside the header's region.
 */
#include "fuzz.h"

#include "../../workloads/crash/crashcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_crash_journal j;

	fuzz_quiet();
	if (nb_crash_journal_load(&j, fuzz_path(data, size)))
		return 0;
	if (!j.nblocks || j.nblocks * j.bs != j.region || j.iter_acked > j.writes)
		abort();
	nb_crash_journal_free(&j);
	return 0;
}
