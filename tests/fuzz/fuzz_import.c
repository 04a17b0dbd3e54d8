/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_import - `nasbench import` of other tools' output: fio JSON (also
 * client/server output with text before the JSON) and bonnie++ CSV lines.
 * The corpus holds both; the importer picks the format from the content.
 */
#include "fuzz.h"

#include "../../core/result.h"
#include "../../formats/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = nb_result_new("fuzz", "nasbench import");

	if (nb_import_file(doc, fuzz_path(data, size), NULL) == 0) {
		char *s = nb_result_dump(doc);

		free(s);
	}
	json_decref(doc);
	return 0;
}
