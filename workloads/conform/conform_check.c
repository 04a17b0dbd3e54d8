/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conform_check.c - the record of one conformance test, shared by the
 * protocols' checks (conform_check.h).
 */
#include "conform_check.h"
#include "../../core/escape.h"

void nb_conform_add(struct nb_conform_tests *ts, const char *name, int ok,
		    const char *msg)
{
	json_t *o = json_pack("{s:s, s:s}", "name", name, "status",
			      ok ? "pass" : "fail");

	if (msg && *msg)
		json_object_set_new(o, "message", nb_json_text(msg));
	json_array_append_new(ts->list, o);
	if (ok)
		ts->passed++;
	else
		ts->failed++;
}
