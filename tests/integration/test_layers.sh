#!/usr/bin/env bash
# ci/check-layers: the tree passes, and an include that runs up fails it.
. "$(dirname "$0")/lib.sh"

t_case "the tree keeps its layers"
run "$ROOT/ci/check-layers"
assert_rc 0
assert_out "every include runs down"

copy_tree() {
	mkdir -p "$T/tree"
	(cd "$ROOT" && cp -r core runners workloads reports hw cmd nasbench.c "$T/tree/")
	for d in fio run; do [ -d "$ROOT/$d" ] && cp -r "$ROOT/$d" "$T/tree/"; done
	return 0
}

t_case "core including a workload header fails"
copy_tree
echo '#include "../workloads/workload.h"' >>"$T/tree/core/stats.c"
n=$(wc -l <"$T/tree/core/stats.c")
run "$ROOT/ci/check-layers" "$T/tree"
assert_rc 1
assert_err "core/stats.c:$n: includes '../workloads/workload.h': workloads/ is above core/"

t_case "a sibling layer fails too"
rm -rf "$T/tree"; copy_tree
echo '#include "../hw/plan.h"' >>"$T/tree/reports/text.c"
run "$ROOT/ci/check-layers" "$T/tree"
assert_rc 1
assert_err "includes '../hw/plan.h': hw/ is beside (a sibling layer) reports/"

t_done
