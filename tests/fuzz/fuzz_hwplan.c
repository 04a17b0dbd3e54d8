/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_hwplan - `nasbench hw plan` arguments: the input's lines are the
 * disks ("5x3TB WD Red", "4x4TB+2x8TB"), the layout ("raidz2", "3x mirror
 * 2"), the link ("10GbE") and the log device ("plp-ssd"), each parsed as
 * the command does and planned.
 */
#include "fuzz.h"

#include "../../hw/planner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *layouts[] = { "stripe", "mirror", "raid10", "raidz1",
					 "raidz2", "raidz3", "raid5", "raid6" };
	char *line[4] = { "", "raidz1", "1gbit", "none" }, *save = NULL, *s;
	struct nb_planner_in in;
	struct nb_planner_out out;
	int n = 0;

	s = fuzz_str(data, size);
	for (char *l = strtok_r(s, "\n", &save); l && n < 4; l = strtok_r(NULL, "\n", &save))
		line[n++] = l;
	nb_planner_defaults(&in);
	in.disk_mbs = 120;
	in.disk_iops = 150;
	if (nb_pool_parse_disks(line[0], &in.pool.disks) != 0 ||
	    nb_planner_parse_link(line[2], &in.nic_bps) != 0 ||
	    nb_planner_parse_slog(line[3], &in.slog) != 0)
		return 0;
	if (nb_planner_compute(&in, line[1], &out) == 0)
		json_decref(nb_planner_json(&in, &out));
	for (size_t i = 0; i < sizeof(layouts) / sizeof(*layouts); i++)
		if (nb_planner_compute(&in, layouts[i], &out) == 0)
			json_decref(nb_planner_json(&in, &out));
	return 0;
}
