/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_gate - the gate file of `nasbench compare --gate` (per-workload and
 * per-metric thresholds).
 */
#include "fuzz.h"

#include "../../compare/gate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_gate g;
	double thr;

	nb_gate_init(&g);
	if (nb_gate_load(&g, fuzz_path(data, size)) == 0)
		nb_gate_threshold(&g, "seq512k-write", "bw_bytes", NULL);
	nb_gate_parse_threshold(fuzz_str(data, size), &thr);
	return 0;
}
