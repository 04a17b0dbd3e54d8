#!/usr/bin/env bash
# ci/check-layers: the tree passes, and an include that runs up fails it.
. "$(dirname "$0")/lib.sh"

t_case "the tree keeps its layers"
run "$ROOT/ci/check-layers"
assert_rc 0
assert_out "every include runs down"

copy_tree() {
	mkdir -p "$T/tree"
	(cd "$ROOT" && cp -r core runners workloads hw formats compare accept history report cmd \
		nasbench.c "$T/tree/")
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
echo '#include "../hw/planner.h"' >>"$T/tree/formats/text.c"
run "$ROOT/ci/check-layers" "$T/tree"
assert_rc 1
assert_err "includes '../hw/planner.h': hw/ is beside (a sibling layer) formats/"

t_case "a room of results including another fails"
rm -rf "$T/tree"; copy_tree
echo '#include "../history/history.h"' >>"$T/tree/compare/gate.c"
n=$(wc -l <"$T/tree/compare/gate.c")
run "$ROOT/ci/check-layers" "$T/tree"
assert_rc 1
assert_err "compare/gate.c:$n: includes '../history/history.h': history/ is beside (a sibling layer) compare/"

t_case "a format including a room above it fails"
rm -rf "$T/tree"; copy_tree
echo '#include "../report/report.h"' >>"$T/tree/formats/csv.c"
run "$ROOT/ci/check-layers" "$T/tree"
assert_rc 1
assert_err "includes '../report/report.h': report/ is above formats/"

t_done
