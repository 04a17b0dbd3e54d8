/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_result - a result JSON as compare, report and accept read it
 * (someone else's file, a truncated one, a hand-edited one): loaded, shown
 * as the run table and the seed table, and compared with itself.
 */
#include "fuzz.h"

#include "../../core/result.h"
#include "../../compare/compare.h"
#include "../../compare/gate.h"
#include "../../formats/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc, *cmp = NULL;
	struct nb_compare_opts co;
	struct nb_gate g;

	fuzz_quiet();
	if (nb_result_load(fuzz_path(data, size), &doc) != 0)
		return 0;
	nb_text_result(stdout, doc);
	nb_text_seed(stdout, doc);
	nb_gate_init(&g);
	nb_compare_opts_init(&co);
	if (nb_compare(doc, "base", doc, "new", &g, &co, &cmp) == 0) {
		json_t *all = json_array();

		json_array_append_new(all, cmp);
		cmp = nb_compare_doc(all, &g, &co);
		nb_compare_text(stdout, cmp, 0);
		nb_compare_markdown(stdout, cmp);
		nb_compare_junit(stdout, cmp);
		json_decref(cmp);
	}
	json_decref(doc);
	return 0;
}
