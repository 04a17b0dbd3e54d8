#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/result.md names every key of the result file: a handful of small
# runs on a local scratch directory (plain I/O, open loop, closed and open
# sweeps, the VM profile, steady state, the box's telemetry, crashcheck,
# the replay, the seed workloads, a workload skipped, fio's cross-check,
# the data written and a hot-set sweep, an NFS target's network
# baseline) make real results, and result_keys.py fails on a key
# one of them writes that the document does not name, or a key the
# document names that none of them writes (save the failure walk's, which
# only a pool that can fail makes: its rows say "(lab)" and
# tests/integration/test_failure.sh runs it).
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { missing "python3"; t_done; exit; }
D=$T/data; mkdir -p "$D"
KEYS=$ROOT/tests/integration/result_keys.py
DOC=$ROOT/docs/result.md
R=()

# nb NAME ARGS...: a run on the scratch directory into $T/NAME.json, exit 0
nb() {
	local name=$1; shift
	run "$NB" run -t "local=$D" -i 1 --size 8M "$@" -o "$T/$name.json"
	assert_rc 0
	assert_file "$T/$name.json"
	[ ! -f "$T/$name.json" ] || R+=("$T/$name.json")
}

t_case "real results: every kind of entry a local run writes"
printf '[box]\nname = doc\nram = 64M\ncrash = true\nmonitor = local\nmonitor-interval = 200ms\n' >"$T/box.ini"
nb plain "$T/box.ini" -w seq512k-read,rand4k-mix,rand4k-write-sync -i 2 --runtime 500ms -l layout=raidz1
nb open -w rand4k-read --rate 300 --step-time 500ms --arrival onoff
nb closed -w rand4k-read --sweep --steps 1,2 --step-time 300ms
nb osweep -w vm --sweep --rates 1000,2000 --step-time 500ms --slo mean=500ms --loop both
nb steady -w rand4k-write --steady-state iops:50% --round 200ms --steady-window 2 --steady-rounds 3 --precondition --precondition-fill 1 --trim before --trim-optional
nb crash "$T/box.ini" -w crashcheck --crash-writes 50 --size 64K
nb replay -w replay --load "$ROOT/tests/fuzz/corpus/replay/capture.ini" --scale 1,2 --step-time 1s --slo mean=500ms --size 64M
nb skipped -w conform
nb seed -w bigfile,syncprobe,integrity,bonnie,xz --set fast=yes --set files=1 --runtime 300ms
nb fio -w seq512k-read --cross-check --runtime 300ms
nb data -w seq512k-write,rand4k-read --compress 2:1 --dedupe 50% --random-distribution zipf:1.2 --runtime 300ms
nb hot -w rand4k-read --hot-sizes 1M,2M --runtime 300ms
if [ -n "${NASBENCH_NFS_URL:-}" ]; then
	run "$NB" run -t "nfs=$NASBENCH_NFS_URL" -w rand4k-read -i 1 --size 4M --runtime 300ms --netbase yes -o "$T/nfs.json"
	assert_rc 0
	R+=("$T/nfs.json")
else
	t_fail "no NFS server (NASBENCH_NFS_URL: ci/testbox up)"
fi

t_case "docs/result.md names every key these results hold, and no other"
run python3 "$KEYS" check "$DOC" "${R[@]}"
assert_rc 0
[ "$RC" -eq 0 ] || t_fail "$OUT"

t_case "the check fails on a key the document does not name"
python3 - "$T/plain.json" "$T/extra.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"][0]["undocumented_key"] = 1
json.dump(d, open(sys.argv[2], "w"))
PY
run python3 "$KEYS" check "$DOC" "$T/extra.json" "${R[@]}"
assert_rc 1
assert_out "result key not in docs/result.md: results[].undocumented_key"

t_case "the check fails on a key the document names that no result holds"
{ cat "$DOC"; echo '| `results[].never_written` | number |  | no run writes it |'; } >"$T/doc.md"
run python3 "$KEYS" check "$T/doc.md" "${R[@]}"
assert_rc 1
assert_out "docs/result.md names a key no result holds: results[].never_written"

t_done
