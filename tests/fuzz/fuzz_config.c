/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_config - the box file (INI: [box], [suite], [accept], [clients],
 * [target NAME]) through the loader and the checks a run does next.
 */
#include "fuzz.h"

#include "../../core/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_config c;

	nb_config_init(&c);
	if (nb_config_load(&c, fuzz_path(data, size)) == 0 &&
	    nb_config_check_targets(&c) == 0)
		nb_config_apply(&c, 1);
	nb_config_free(&c);
	return 0;
}
