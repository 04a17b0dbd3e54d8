/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_criteria - acceptance criteria: one criterion as given with
 * --accept, and a criteria file (FILE:LINE messages).
 */
#include "fuzz.h"

#include "../../accept/criteria.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_accept a;
	struct nb_criterion c;

	nb_accept_parse(&c, fuzz_str(data, size), "--accept");
	nb_accept_init(&a);
	nb_accept_from_file(&a, fuzz_path(data, size));
	nb_accept_free(&a);
	return 0;
}
