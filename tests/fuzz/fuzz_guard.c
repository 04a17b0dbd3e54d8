/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_guard - the guard's signature scan over what it reads from the
 * first and the last MiB of a target before writing to it (partition
 * tables, file systems, md and ZFS labels, foreign data).
 */
#include "fuzz.h"

#include "../../core/guard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t tsize = size;

	nb_guard_identify(data, size);
	if (size >= 8) {
		memcpy(&tsize, data, 8);
		tsize %= (1ULL << 44);
	}
	nb_guard_identify_tail(data, size, tsize < size ? size : tsize);
	return 0;
}
