#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/result.md names every key of the result file: a handful of small
# runs on a local scratch directory (plain I/O, open loop, closed and open
# sweeps, the VM profile, steady state, the box's telemetry, crashcheck,
# the replay, the seed workloads, a workload skipped, fio's cross-check
# and fio as the engine,
# an NFS target's network baseline over two connections, the data written
# and a hot-set sweep) make real results, and result_keys.py fails on a key
# one of them writes that the document does not name, or a key the
# document names that none of them writes (save the failure walk's, which
# only a pool that can fail makes: its rows say "(lab)" and
# tests/integration/test_failure.sh runs it; and those only another file's
# runs write: their rows say "(test_NAME.sh", and t_done validates that
# file's results against the schema made from them).
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { missing "python3"; t_done; exit; }
D=$T/data; mkdir -p "$D"
KEYS=$ROOT/tests/integration/result_keys.py
DOC=$ROOT/docs/result.md
R=()

# nb NAME ARGS...: a run on the scratch directory into $T/NAME.json, exit 0
# (NB_RC=5: a run whose result is unmeasured, exit 5)
nb() {
	local name=$1; shift
	run "$NB" run -t "local=$D" -i 1 --size 8M "$@" -o "$T/$name.json"
	assert_rc "${NB_RC:-0}"
	assert_file "$T/$name.json"
	[ ! -f "$T/$name.json" ] || R+=("$T/$name.json")
}

t_case "real results: every kind of entry a local run writes"
printf '[box]\nname = doc\nram = 64M\ncrash = true\nmonitor = local\nmonitor-interval = 200ms\n' >"$T/box.ini"
nb plain "$T/box.ini" -w seq512k-read,rand4k-mix,rand4k-write-sync -i 2 --runtime 500ms -l layout=raidz1
# whole ON/OFF cycles of 100 ms on average, 30 of them: 900 I/Os or so,
# fewer than the 100 a mean needs about never (a run of 500 ms of 500 ms
# cycles issued none in 3 of 8: issue 46, tests/unit/test_openloop.c)
nb open -w rand4k-read --rate 300 --step-time 3s --arrival onoff --burst 20ms/80ms
assert_json "$T/open.json" 'result(d, "rand4k-read")["iterations"][0]["open"]["samples"] >= 100' \
	'result(d, "rand4k-read")["iterations"][0]["open"]'
nb closed -w rand4k-read --sweep --steps 1,2 --step-time 300ms
nb osweep -w vm --sweep --rates 200,400 --step-time 500ms --slo mean=500ms --loop both
nb steady -w rand4k-write --steady-state iops:50% --round 200ms --steady-window 2 --steady-rounds 3 --steady-limit 10s --precondition --precondition-fill 1 --trim before --trim-optional
# crash = true: no crash observed, nothing proven: unmeasured, exit 5
NB_RC=5 nb crash "$T/box.ini" -w crashcheck --crash-writes 50 --size 64K
assert_json "$T/crash.json" 'd["results"][0]["status"] == "unmeasured" and d["results"][0]["reason"].startswith("no crash observed in 1 of 1 iteration") and d["results"][0]["reason"].endswith(": nothing is proven about what a crash loses")'
nb replay -w replay --load "$ROOT/tests/fuzz/corpus/replay/capture.ini" --scale 0.5,1 --step-time 1s --slo mean=500ms --size 64M
nb skipped -w conform
# verify = yes: bigfile reads its file back (verified_bytes)
nb seed -w bigfile,syncprobe,integrity,bonnie,xz --set fast=yes --set files=1 --set verify=yes --runtime 300ms
nb fio -w seq512k-read --cross-check --runtime 300ms
# engine = fio: the iteration holds fio's record of its run
nb fioengine -w rand4k-read --engine fio --runtime 300ms
nb data -w seq512k-write,rand4k-read --compress 2:1 --dedupe 50% --random-distribution zipf:1.2 --runtime 300ms
nb hot -w rand4k-read --hot-sizes 1M,2M --runtime 300ms
# acceptance criteria: one judged on a steady-state run that cannot settle
# (two rounds within 0.00001% of their mean: never, so not steady; 1% was met
# once on a quiet machine), one on a workload not in the plan (fails)
printf 'rand4k-write@local iops >= 1\nseq512k-read@local mb_s >= 1\n' >"$T/acc.crit"
run "$NB" run -t "local=$D" -i 1 --size 8M -w rand4k-write --steady-state iops:0.00001% --round 200ms \
	--steady-window 2 --steady-rounds 2 --accept "$T/acc.crit" -o "$T/accept.json"
assert_rc 1
assert_file "$T/accept.json"
assert_json "$T/accept.json" 'd["accept"]["criteria"][0].get("not_steady") is True' 'd["accept"]["criteria"][0]'
[ ! -f "$T/accept.json" ] || R+=("$T/accept.json")
if [ -n "${NASBENCH_NFS_URL:-}" ]; then
	# the box described by labels (-l nic, -l ram): its inventory from them;
	# two connections: a target of several paths (docs/network.md)
	run "$NB" run -t "nfs=$NASBENCH_NFS_URL" --connections 2 -w rand4k-read -i 1 --size 4M --runtime 300ms --netbase yes \
		-l nic=1gbit -l ram=64M -o "$T/nfs.json"
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
# altered FROM TO PYTHON: TO is the result FROM changed by PYTHON (on d),
# crafted (t_done does not validate it)
altered() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(d, open(sys.argv[2], "w"))' "$@"
	crafted "$2"
}
altered "$T/plain.json" "$T/extra.json" 'd["results"][0]["undocumented_key"] = 1'
run python3 "$KEYS" check "$DOC" "$T/extra.json" "${R[@]}"
assert_rc 1
assert_out "result key not in docs/result.md: results[].undocumented_key"

t_case "the result schema, made from docs/result.md, refuses that key and a wrong type"
altered "$T/plain.json" "$T/badtype.json" 'd["results"][0]["status"] = 7'
run "$ROOT/ci/validate-results" "$ROOT/build/result.schema.json" "$T/extra.json" "$T/badtype.json" "$T/plain.json"
assert_rc 1
assert_out "$T/extra.json: results[0]: Additional properties are not allowed ('undocumented_key' was unexpected)" \
	"$T/badtype.json: results[0].status: 7 is not of type 'string'"
assert_err "validate-results: 1 of 3 results valid"
# the schema is the document's: a row added there is a key the schema takes
{ cat "$DOC"; echo '| `results[].undocumented_key` | number |  | now documented |'; } >"$T/doc2.md"
"$ROOT/ci/result-schema" "$T/doc2.md" >"$T/schema2.json"
run "$ROOT/ci/validate-results" "$T/schema2.json" "$T/extra.json"
assert_rc 0

t_case "the check fails on a key the document names that no result holds"
{ cat "$DOC"; echo '| `results[].never_written` | number |  | no run writes it |'; } >"$T/doc.md"
run python3 "$KEYS" check "$T/doc.md" "${R[@]}"
assert_rc 1
assert_out "docs/result.md names a key no result holds: results[].never_written"

t_case "a row marked (test_NAME.sh) is another file's: not needed here, but the file must be there"
{ cat "$DOC"; echo '| `results[].elsewhere` | number |  | only another file writes it (test_fio.sh: a case) |'; } >"$T/doc3.md"
run python3 "$KEYS" check "$T/doc3.md" "${R[@]}"
assert_rc 0
{ cat "$DOC"; echo '| `results[].elsewhere` | number |  | only another file writes it (test_nosuch.sh: a case) |'; } >"$T/doc4.md"
run python3 "$KEYS" check "$T/doc4.md" "${R[@]}"
assert_rc 1
assert_out "docs/result.md marks a key (tests/integration/test_nosuch.sh), a file that is not there"

t_done
