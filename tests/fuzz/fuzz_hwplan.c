/*
 * fuzz_hwplan - `nasbench hw plan` arguments: the disk description
 * ("5x3TB WD Red") and every layout computed from it.
 */
#include "fuzz.h"

#include "../../hw/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *layouts[] = { "single", "raid0", "raid1", "raid10",
					 "raidz1", "raidz2", "raidz3", "raid5",
					 "raid6", "mirror3" };
	struct nb_plan_in in = { .disk_mbs = 120, .disk_iops = 150,
				 .price = -1, .nic_bps = 1000000000ULL,
				 .efficiency = 0.94 };
	struct nb_plan_out out;
	char rest[256];

	if (nb_plan_parse_disks(fuzz_str(data, size), &in.ndisks,
				&in.disk_bytes, rest, sizeof(rest)) != 0)
		return 0;
	for (size_t i = 0; i < sizeof(layouts) / sizeof(*layouts); i++)
		if (nb_plan_compute(&in, layouts[i], &out) == 0)
			json_decref(nb_plan_json(&in, &out));
	return 0;
}
