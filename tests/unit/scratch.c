/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scratch.c - the scratch directory of scratch.h. */
#include "scratch.h"
#include "../../core/fsutil.h"

#include <stdio.h>
#include <stdlib.h>

char test_scratch[64];

int test_scratch_setup(void **state)
{
	(void)state;
	snprintf(test_scratch, sizeof(test_scratch), "/tmp/nb-unit.XXXXXX");
	return mkdtemp(test_scratch) ? 0 : -1;
}

int test_scratch_teardown(void **state)
{
	(void)state;
	return nb_rmtree(test_scratch);
}
