/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_planfile - a plan file as 'nasbench report --plan' reads it
 * (someone's hand-edited 'hw plan --json', a truncated one, an older
 * schema): loaded and checked, the seed's published N40L result held
 * against it, and the report's Plan section written as Markdown and HTML.
 */
#include "fuzz.h"

#include "../../core/result.h"
#include "../../hw/planner.h"
#include "../../hw/planner_result.h"
#include "../../report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static json_t *doc;
	static const char *path = "n40l-raidz1.json";
	json_t *plan;
	struct nb_report *r;

	fuzz_quiet();
	if (!doc)                /* labels layout=raidz1, four published figures */
		doc = json_pack("{s:s, s:i, s:{s:s, s:s}, s:{}, s:["
				"{s:s, s:s, s:s, s:{s:{s:f}}}, {s:s, s:s, s:s, s:{s:{s:f}}},"
				"{s:s, s:s, s:s, s:{s:{s:f}}}, {s:s, s:s, s:s, s:{s:{s:f}}}]}",
			"tool", "nasbench", "schema", 1, "labels", "layout", "raidz1",
			"slog", "SSD", "published",
			"results",
			"target", "iscsi", "workload", "seq512k-write", "status", "ok",
			"summary", "bw_bytes", "median", 75497472.0,
			"target", "nfs", "workload", "seq512k-write-sync", "status", "ok",
			"summary", "bw_bytes", "median", 5242880.0,
			"target", "nfs", "workload", "rand4k-read", "status", "ok",
			"summary", "iops", "median", 400.0,
			"target", "local", "workload", "bonnie", "status", "ok",
			"summary", "put_block_kps", "median", 343719.0);
	if (!doc || nb_planner_load(fuzz_path(data, size), &plan) != 0)
		return 0;
	r = nb_report_new(&doc, &path, 1);
	nb_planner_measure_all(plan, &doc, &path, 1);
	nb_report_plan(r, plan, "plan.json");
	json_decref(plan);
	nb_report_skip_charts(r, NULL);
	nb_report_markdown(r, stdout);
	nb_report_html(r, "/nonexistent", stdout);
	nb_report_free(r);
	return 0;
}
