/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_loadfile - the load file (loadfile/loadfile.h) is written by people:
 * anything is read without a crash, refused with "NAME:LINE: ...", and
 * what is read is written back to a text that reads back to itself.  The
 * corpus: a capture's file, a hand-written one and some refusals.
 */
#include "fuzz.h"

#include "../../core/err.h"
#include "../../loadfile/loadfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), *t1, *t2;
	struct nb_load a, b;

	nb_load_init(&a);
	nb_err_clear();
	if (nb_load_parse(&a, s, "fuzz.ini")) {
		if (strncmp(nb_err_last(), "fuzz.ini:", 9))
			abort();
		nb_load_free(&a);
		return 0;
	}
	t1 = nb_load_format(&a);
	nb_load_init(&b);
	if (!t1 || nb_load_parse(&b, t1, "again.ini"))
		abort();
	t2 = nb_load_format(&b);
	if (!t2 || strcmp(t1, t2))
		abort();
	free(t1);
	free(t2);
	nb_load_free(&a);
	nb_load_free(&b);
	return 0;
}
