#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ci/check-layers and ci/check-functions: the tree passes, and an include
# that runs up, or a function over 80 lines, fails it.
. "$(dirname "$0")/lib.sh"

t_case "the tree keeps its layers"
run "$ROOT/ci/check-layers"
assert_rc 0
assert_out "every include runs down"

copy_tree() {
	mkdir -p "$T/tree"
	# the rooms of ci/rooms (a room inside another at its own path)
	(cd "$ROOT" && cp -r --parents $(awk '!/^#/ && NF { print $2 }' ci/rooms) "$T/tree/")
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

t_case "a room inside workloads including one beside it fails"
rm -rf "$T/tree"; copy_tree
echo '#include "../io/openload.h"' >>"$T/tree/workloads/seed/xz.c"
n=$(wc -l <"$T/tree/workloads/seed/xz.c")
run "$ROOT/ci/check-layers" "$T/tree"
assert_rc 1
assert_err "workloads/seed/xz.c:$n: includes '../io/openload.h': workloads/io/ is beside (a sibling layer) workloads/seed/"

t_case "workloads' mechanism including one of its rooms fails"
rm -rf "$T/tree"; copy_tree
echo '#include "io/openload.h"' >>"$T/tree/workloads/common.c"
run "$ROOT/ci/check-layers" "$T/tree"
assert_rc 1
assert_err "includes 'io/openload.h': workloads/io/ is above workloads/"

t_case "the tree has no function over 80 lines"
run "$ROOT/ci/check-functions"
assert_rc 0
assert_out "no function over 80 lines, no file over 800"

t_case "a function of 81 lines fails, one of 80 passes"
rm -rf "$T/tree"; copy_tree
n=$(($(wc -l <"$T/tree/core/stats.c") + 1))
{
	echo 'int nb_long_one(int x)'
	echo '{'
	for i in $(seq 1 77); do echo '	x += 1;'; done
	echo '}'
} >>"$T/tree/core/stats.c"
run "$ROOT/ci/check-functions" "$T/tree"
assert_rc 0
{
	echo 'int nb_longer_one(int x)'
	echo '{'
	for i in $(seq 1 78); do echo '	x += 1;'; done
	echo '}'
} >>"$T/tree/core/stats.c"
run "$ROOT/ci/check-functions" "$T/tree"
assert_rc 1
assert_err "core/stats.c:$((n + 80)): nb_longer_one() is 81 lines"
assert_err "check-functions: 1 function(s) over 80 lines"

t_case "a .c file of 801 lines with its header fails, one of 800 passes"
rm -rf "$T/tree"; copy_tree
h=$(wc -l <"$T/tree/core/stats.h")
: >"$T/tree/core/stats.c"
for i in $(seq 1 $((800 - h))); do echo '/* */'; done >>"$T/tree/core/stats.c"
run "$ROOT/ci/check-functions" "$T/tree"
assert_rc 0
echo '/* */' >>"$T/tree/core/stats.c"
run "$ROOT/ci/check-functions" "$T/tree"
assert_rc 1
assert_err "core/stats.c: 801 lines with its header"
assert_err "check-functions: 1 file(s) over 800 lines"

t_done
