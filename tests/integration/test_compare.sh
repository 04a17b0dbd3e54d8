#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare and import end to end, on real runs of the posix runner,
# real fio output, real gnuplot and a real browser (headless chromium).
. "$(dirname "$0")/lib.sh"

BOX=$T/box
mkdir -p "$BOX"
# short runs: one second per iteration, three iterations
quick() { "$NB" run --target "$BOX" --runtime 1s --size 64M -i 3 -q "$@"; }

# run_once OUT ARGS...: one iteration (no test stops the shared testbox's
# servers: the fault tests have private ones)
run_once() {
	local out=$1
	shift
	run "$NB" run "$@" -i 1 -q -o "$out"
	[ "$RC" = 0 ]
}

# merge OUT FILE...: one result holding every FILE's iterations
merge() {
	python3 - "$@" <<'PY'
import json, sys
from results import result
docs = [json.load(open(f)) for f in sys.argv[2:]]
d = docs[0]
for r in d["results"]:
    r["iterations"] = [it for x in docs
                       for it in result(x, r["workload"], r["target"])["iterations"]]
    r.pop("summary", None)
json.dump(d, open(sys.argv[1], "w"), indent=1)
PY
}

# alternate N A.json B.json: run "$NB" run "${A_ARGS[@]}" and "${B_ARGS[@]}"
# alternately, one iteration at a time, and merge each side's iterations
# into one result: the load others put on this shared machine falls on
# both sides alike, so what differs is what the two configurations do.
alternate() {
	local n=$1 out_a=$2 out_b=$3 i
	for i in $(seq "$n"); do
		run_once "$T/alt.a.$i.json" "${A_ARGS[@]}" || t_fail "run A $i failed: $ERR"
		run_once "$T/alt.b.$i.json" "${B_ARGS[@]}" || t_fail "run B $i failed: $ERR"
	done
	merge "$out_a" "$T"/alt.a.*.json
	merge "$out_b" "$T"/alt.b.*.json
	rm -f "$T"/alt.[ab].*.json
}

# The same box twice must pass.  Others share this two-core VM, so the
# box's speed drifts between two runs made one after the other; the two
# results are therefore taken from one run of 10 iterations, alternately
# (odd iterations -> a.json, even -> b.json): the same box, measured twice
# under the same conditions.  The gate allows for the VM: 25%, and the
# latency tails (p99.9, max: single events) not gated.
cat >"$T/gate.ini" <<'INI'
[gate]
max-regress = 25%
[metric]
lat_p99.9_us = off
lat_max_us = off
INI
split() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k, out in enumerate(sys.argv[2:]):
    e = json.loads(json.dumps(d))
    for r in e["results"]:
        r["iterations"] = r["iterations"][k::2]
        r.pop("summary", None)
    json.dump(e, open(out, "w"), indent=1)
PY
}

t_case "same box twice: inconclusive from two single runs (exit 5), never a regression"
"$NB" run --target "$BOX" --runtime 0.5s --size 64M -i 10 -q -w seq512k-read,rand4k-read \
	-l layout=single -o "$T/ab.json"
split "$T/ab.json" "$T/a.json" "$T/b.json"
# two single runs cannot measure how far a whole run drifts: what the
# assumed noise does not call significant is inconclusive, with what it
# could have detected (5 vs 5 iterations, one-sided: a fall beyond ~-33%)
run "$NB" compare "$T/a.json" "$T/b.json" --gate "$T/gate.ini"
[ "$RC" = 5 ] || [ "$RC" = 0 ] || t_fail "same box twice: exit $RC (a regression, or an error): $OUT"
assert_out "local   seq512k-read"
assert_out "MB/s (bw_bytes, higher is better)"
assert_out "5/5"
run "$NB" compare "$T/a.json" "$T/a.json"
assert_rc 5
assert_out_re "^inconclusive: 2 verdicts the noise could not decide; could detect changes beyond -[0-9]+% on .* \\(max regress 5%, alpha 0.05\\)$"
assert_out "inconclusive: could detect only a fall beyond -"
assert_out "Gate against a history of 3 or more runs (--baseline history), or measure the noise on it (--noise history)."

t_case "queue depth 32 -> 1: settings differ, exit 2 naming them"
# the same workload name at other settings is not comparable: no figure is
# judged against the other (no timing in this case: the verdict does not
# depend on what the runs measured)
"$NB" run --target "$BOX" --runtime 0.3s --size 16M -w rand4k-read --iodepth 32 -l iodepth=32 \
	-i 1 -q -o "$T/q32.json"
"$NB" run --target "$BOX" --runtime 0.3s --size 16M -w rand4k-read --iodepth 1 -l iodepth=1 \
	-i 1 -q -o "$T/q1.json"
run "$NB" compare "$T/q32.json" "$T/q1.json"
assert_rc 2
assert_out "  iodepth: 32 -> 1"
assert_out "changed-settings: qd 32 -> 1"
assert_err "nasbench: settings differ between the results (the verdicts say which); compare like with like, or --allow-changed"
run "$NB" compare "$T/q32.json" "$T/q1.json" --format junit
assert_rc 2
python3 - "$T/.out" <<'PY' || t_fail "junit: no changed-settings failure"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
c = [c for c in r.findall("./testsuite/testcase") if c.get("name") == "rand4k-read"][0]
f = c.find("failure")
assert f is not None and f.get("type") == "changed-settings" and "qd 32 -> 1" in f.get("message")
PY
run "$NB" compare "$T/q32.json" "$T/q1.json" --bands 10%,2x
assert_rc 2          # bands do not make other settings comparable
assert_err "nasbench: settings differ between the results"
run "$NB" compare "$T/q32.json" "$T/q1.json" --allow-changed
[ "$RC" = 0 ] || [ "$RC" = 1 ] || [ "$RC" = 5 ] || t_fail "--allow-changed: exit $RC, expected a verdict (0, 1 or 5)"
assert_out "warning: local/rand4k-read: settings differ (allowed by --allow-changed)"
assert_out "(settings: qd 32 -> 1)"

t_case "testbox: the sync LUN against the write-back LUN"
if [ -n "${NASBENCH_ISCSI_URL:-}" ] && [ -n "${NASBENCH_ISCSI_SYNC_URL:-}" ] &&
	"$NB" list runners 2>/dev/null | grep -q iscsi; then
	# queue-depth-1 4 KiB writes: each one reaches the disk on the sync LUN,
	# the page cache on the other; five each, alternately (U test: exact).
	# 1 MiB of them, 256 writes, not a second's: a loaded disk's sync LUN
	# wrote 80 in a second, too few for a figure (core/samples.h)
	A_ARGS=(--target "lun=$NASBENCH_ISCSI_URL" --destroy-data -w rand4k-write
		--iodepth 1 --size 1M -l lun=write-back)
	B_ARGS=(--target "lun=$NASBENCH_ISCSI_SYNC_URL" --destroy-data -w rand4k-write
		--iodepth 1 --size 1M -l lun=sync)
	alternate 5 "$T/wb.json" "$T/sy.json"
	# one target name, two URLs: not the same target, exit 2 naming it
	run "$NB" compare "$T/wb.json" "$T/sy.json"
	assert_rc 2
	assert_out "  lun: write-back -> sync"
	assert_out "changed-settings: url $NASBENCH_ISCSI_URL -> $NASBENCH_ISCSI_SYNC_URL"
	# judged when asked (no timing asserted: the verdict is the box's)
	run "$NB" compare "$T/wb.json" "$T/sy.json" --allow-changed
	# (0, 1, or 5: inconclusive when the two LUNs land within the noise
	# one run a side can rule out)
	[ "$RC" = 0 ] || [ "$RC" = 1 ] || [ "$RC" = 5 ] || t_fail "--allow-changed: exit $RC"
	assert_out "5/5"
	assert_out "warning: lun/rand4k-write: settings differ (allowed by --allow-changed)"
else
	missing "the LUN case: NASBENCH_ISCSI_URL or NASBENCH_ISCSI_SYNC_URL is unset (ci/testbox up)"
fi

t_case "figures halved fail the gate, in every format"
# a synthetic pair made from a real result: its figures replaced by fixed
# iterations (+-1%), and those halved - the verdict depends on no timing
python3 - "$T/a.json" "$T/syn.json" "$T/half.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
spread = [1.0, 1.01, 0.99, 1.005, 0.995]
for r in d["results"]:
    first = dict(r["iterations"][0]["metrics"])
    r["iterations"] = [{"metrics": {k: v * f for k, v in first.items()
                                    if isinstance(v, (int, float))}} for f in spread]
    r.pop("summary", None)
    # the real run's warnings (a CPU-bound verdict per iteration on a
    # loaded machine: 41 lines) are not this case's: its figures are
    r["warnings"] = []
    r.pop("box_verdicts", None)
json.dump(d, open(sys.argv[2], "w"))
for r in d["results"]:
    for it in r["iterations"]:
        m = it["metrics"]
        for k in m:
            if k in ("bw_bytes", "iops"): m[k] /= 2
            elif k.startswith("lat_"): m[k] *= 2
d["labels"]["layout"] = "halved"
json.dump(d, open(sys.argv[3], "w"))
PY
run "$NB" compare "$T/syn.json" "$T/half.json" --gate "$T/gate.ini"
assert_rc 1
assert_out "  layout: single -> halved"
assert_out "-50.0%"
# one verdict per workload, on its primary metric: two regressions, not 18
assert_out "2 regressions (max regress 25%, alpha 0.05)"
grep -q "local   seq512k-read  MB/s .* worse" <<<"$OUT" || t_fail "no MB/s verdict for seq512k-read: $OUT"
grep -q "local   rand4k-read   IOPS .* worse" <<<"$OUT" || t_fail "no IOPS verdict for rand4k-read: $OUT"
run "$NB" compare "$T/syn.json" "$T/half.json" --format markdown
assert_rc 1
assert_out "| local | seq512k-read | MB/s |"
assert_out "**worse**"
assert_out "<details><summary>"
# the summary (the decision, each workload's change folded) first, then the table
assert_out "## Summary" "- layout single -\> halved: "
[ "$(wc -l <<<"$OUT")" -lt 50 ] || t_fail "the PR comment has $(wc -l <<<"$OUT") lines, expected under 50"
run "$NB" compare "$T/syn.json" "$T/syn.json" "$T/half.json" --format json
assert_rc 1
python3 -c 'import json,sys; d=json.load(sys.stdin); c=d["comparisons"]; sys.exit(not (c[0]["regressions"] == 0 and c[0]["inconclusive"] == 2 and c[1]["regressions"] > 0 and c[1]["new"].endswith("half.json") and d["outcome"] == "regression"))' <<<"$OUT" || t_fail "expected no regression against itself (inconclusive), some against half.json"

t_case "the between-run noise measured: 70% is worse against 3 runs, inconclusive against one"
# the same figures as three runs in one file (iterations carrying "run",
# as --baseline history makes them): the noise between their levels is
# measured, so 70% of them is a regression and the same figures pass
python3 - "$T/syn.json" "$T/runs3.json" "$T/at70b.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    its = r["iterations"]
    r["iterations"] = [dict(it, run=k) for k, f in enumerate((1.0, 1.01, 0.995))
                       for it in ({"metrics": {m: v * f for m, v in i["metrics"].items()}} for i in its)]
json.dump(d, open(sys.argv[2], "w"))
for r in d["results"]:
    r["iterations"] = [{"metrics": {m: v * (0.7 if m in ("bw_bytes", "iops") else 1 / 0.7)
                                    for m, v in i["metrics"].items()}} for i in r["iterations"] if i["run"] == 0]
json.dump(d, open(sys.argv[3], "w"))
PY
run "$NB" compare "$T/runs3.json" "$T/syn.json"
assert_rc 0
assert_out "no regression (max regress 5%, alpha 0.05)"
grep -q "local   seq512k-read  MB/s .* 15(3 runs)/5 .* 3 runs  unchanged" <<<"$OUT" || t_fail "not measured from 3 runs: $OUT"
run "$NB" compare "$T/runs3.json" "$T/at70b.json"
assert_rc 1
assert_out "2 regressions (max regress 5%, alpha 0.05)"
run "$NB" compare "$T/syn.json" "$T/at70b.json" --format junit
assert_rc 5
python3 - "$T/.out" <<'PY' || t_fail "junit: no skipped inconclusive case"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
c = [c for c in r.findall("./testsuite/testcase") if c.get("name") == "seq512k-read"][0]
s = c.find("skipped")
assert s is not None and "inconclusive: could detect only a fall beyond -" in s.get("message"), s
assert r.get("skipped") == "2", r.attrib
PY
run "$NB" compare "$T/syn.json" "$T/at70b.json" --format markdown
assert_rc 5
assert_out "## nasbench compare: inconclusive: 2 verdicts the noise could not decide; could detect changes beyond -"

t_case "viability bands: viable, decide, not viable in every format, exit 0 / 4 / 1"
# the synthetic pair above, with the new side at 95%, 70% and 50% of it:
# 1.05x, 1.43x and 2x the time against --bands 10%,2x
for f in 95 70 50; do
	python3 - "$T/syn.json" "$T/at$f.json" "$f" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); k = int(sys.argv[3]) / 100
for r in d["results"]:
    for it in r["iterations"]:
        m = it["metrics"]
        for x in m:
            if x in ("bw_bytes", "iops"): m[x] *= k
            elif x.startswith("lat_"): m[x] /= k
d["labels"]["layout"] = "at%s" % sys.argv[3]
json.dump(d, open(sys.argv[2], "w"))
PY
done
run "$NB" compare "$T/syn.json" "$T/at95.json" --bands 10%,2x
assert_rc 0
grep -q "local   seq512k-read  MB/s .*; viable (1.05x the time)" <<<"$OUT" || t_fail "no viable verdict: $OUT"
assert_out "bands 10%,2x: viable"
run "$NB" compare "$T/syn.json" "$T/at70.json" --bands 10%,2x
assert_rc 4
grep -q "local   seq512k-read  MB/s .*; decide (1.43x the time)" <<<"$OUT" || t_fail "no decide verdict: $OUT"
assert_out "warning: overall, bands 10%,2x: decide (a loss between the bands: a person decides)"
run "$NB" compare "$T/syn.json" "$T/half.json" --bands 10%,2x
assert_rc 1
grep -q "local   rand4k-read   IOPS .*; not viable (2.00x the time)" <<<"$OUT" || t_fail "no not-viable verdict: $OUT"
assert_out "FAIL: overall, bands 10%,2x: not viable"
run "$NB" compare "$T/syn.json" "$T/at70.json" --bands 10%,2x --format json
assert_rc 4
python3 -c 'import json,sys; d=json.load(sys.stdin); c=d["comparisons"][0]; v=[x for x in c["verdicts"] if x["workload"]=="seq512k-read"][0]; sys.exit(not (d["bands"]=={"verdict":"decide","text":"10%,2x","exit":4} and v["band"]["verdict"]=="decide" and abs(v["band"]["time"]-1/0.7)<1e-6 and c["bands"]["decide"]>=2))' <<<"$OUT" ||
	t_fail "json: no band fields: $(head -c 600 <<<"$OUT")"
run "$NB" compare "$T/syn.json" "$T/at70.json" --bands 10%,2x --format junit
assert_rc 4
python3 - "$T/.out" <<'PY' || t_fail "junit: no decide failure"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
c = [c for c in r.findall("./testsuite/testcase") if c.get("name") == "seq512k-read"][0]
f = c.find("failure")
assert f is not None and f.get("type") == "decide" and "decide (1.43x the time)" in f.get("message"), f
PY
run "$NB" compare "$T/syn.json" "$T/at70.json" --bands 10%,2x --format markdown
assert_rc 4
assert_out "inconclusive: " "bands 10%,2x: decide" "; decide (1.43x the time)"
# the gate file's form: a workload's own bands win over the default
printf '[bands]\ndefault = 10%%,2x\n[workload seq512k-read]\nbands = 40%%,3x\n' >"$T/bands.ini"
run "$NB" compare "$T/syn.json" "$T/at70.json" --gate "$T/bands.ini"
assert_rc 4
grep -q "local   seq512k-read  MB/s .*; viable (1.43x the time)" <<<"$OUT" || t_fail "the workload's bands were not used: $OUT"
# the seed's own pair: put_block 343719 -> 217553 K/s is 1.58x the time
run "$NB" compare "$ROOT/hw/profiles/dl380p-bare.json" "$ROOT/hw/profiles/dl380p-xen.json" --bands 10%,2x
assert_rc 4
# the decision at the end, in the seed's words; the bands' overall verdict under it
assert_out "decisions" "Virtualisation (xen): the bonnie++ block writes 1.58x slower (n=1 each, ±0%; too few iterations to test)" \
	"warning: overall, bands 10%,2x: decide (a loss between the bands: a person decides)"
grep -q "local   bonnie    put_block MB/s .*; decide (1.58x the time)" <<<"$OUT" || t_fail "no put_block decide: $OUT"
run "$NB" report "$ROOT/hw/profiles/dl380p-bare.json" "$ROOT/hw/profiles/dl380p-xen.json" --bands 10%,2x --format pr
assert_rc 0
assert_out "- **warning:** dl380p-xen against dl380p-bare (bands 10%,2x): decide: bonnie++ block writes 1.58x the time (n=1 each, ±0%; too few iterations to test)" \
	"bands 10%,2x, dl380p-xen.json against dl380p-bare.json: bonnie on local, put\_block MB/s 352.0 -\> 222.8 (1.58x the time): decide"
FORMS="(use VIABLE,NOT-VIABLE, each a loss 'N%' (0 < N < 100) or a time factor 'Nx' (N > 1), the first below the second, e.g. '10%,2x')"
for bad in "2x,10%|the first limit (2x the time) must be below the second (1.11x)" \
	   "0|two limits are needed, separated by a comma" \
	   "10%,2y|unknown unit 'y' in '2y'"; do
	run "$NB" compare "$T/syn.json" "$T/at70.json" --bands "${bad%%|*}"
	assert_rc 2
	assert_err "nasbench: --bands: invalid bands '${bad%%|*}': ${bad#*|} $FORMS"
	[ -z "$OUT" ] || t_fail "output written for bad bands: $OUT"
done
printf '[bands]\nlat_p99_us = 3x,20%%\n' >"$T/badbands.ini"
run "$NB" compare "$T/syn.json" "$T/at70.json" --gate "$T/badbands.ini"
assert_rc 2
assert_err "nasbench: $T/badbands.ini:2: lat_p99_us: invalid bands '3x,20%': "

t_case "missing workloads, targets and metrics fail; --allow-missing warns"
# a real run against two targets, then one whose second target cannot be
# opened: it writes no entries for it
mkdir -p "$T/box2"
"$NB" run --target "a=$BOX" --target "b=$T/box2" --runtime 0.2s --size 16M -w seq512k-read \
	-i 1 -q -o "$T/two.json"
rmdir "$T/box2"
run "$NB" run --target "a=$BOX" --target "b=$T/box2" --runtime 0.2s --size 16M -w seq512k-read \
	-i 1 -q -o "$T/one.json"
assert_file "$T/one.json"
run "$NB" compare "$T/two.json" "$T/one.json" -r off
assert_rc 0
run "$NB" compare "$T/two.json" "$T/one.json" --format junit --allow-changed -r 1000%
assert_rc 1
python3 - "$T/.out" <<'PY' || t_fail "junit: no failure naming the missing target"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
f = [c.find("failure") for c in r.findall("./testsuite/testcase")
     if c.get("classname") == "nasbench.b" and c.get("name") == "seq512k-read"][0]
assert f is not None and f.get("type") == "missing", f
assert "not in the new result" in f.get("message")
PY
run "$NB" compare "$T/two.json" "$T/one.json" --allow-missing -r 1000%
assert_rc 5            # a/seq512k-read: one iteration each, low confidence
assert_out "missing: not in the new result"
assert_out "warning: b/seq512k-read: not in the new result (allowed by --allow-missing)"
# a metric gone from the new result
python3 - "$T/syn.json" "$T/nop99.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    for it in r["iterations"]:
        it["metrics"].pop("lat_p99_us", None)
json.dump(d, open(sys.argv[2], "w"))
PY
run "$NB" compare "$T/syn.json" "$T/nop99.json"
assert_rc 1
assert_out "missing: metric not in the new result"
assert_out "2 regressions"

t_case "-r off reports without gating; fewer than 3 iterations do not fail unless --strict"
run "$NB" compare "$T/syn.json" "$T/syn.json" -r off
assert_rc 0
assert_out "not gated (max regress off)"
grep -q "seq512k-read  MB/s .* inconclusive" <<<"$OUT" || t_fail "identical single runs not inconclusive under -r off: $OUT"
run "$NB" compare "$T/syn.json" "$T/half.json" -r off
assert_rc 0
grep -q "seq512k-read  MB/s .* worse" <<<"$OUT" || t_fail "halved not worse under -r off: $OUT"
run "$NB" compare "$T/two.json" "$T/one.json" -r off --format json
assert_rc 0
python3 - "$T/syn.json" "$T/syn2.json" "$T/half2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    r["iterations"] = r["iterations"][:2]
json.dump(d, open(sys.argv[2], "w"))
for r in d["results"]:
    for it in r["iterations"]:
        for k in ("bw_bytes", "iops"):
            it["metrics"][k] /= 2
json.dump(d, open(sys.argv[3], "w"))
PY
run "$NB" compare "$T/syn2.json" "$T/half2.json"
assert_rc 5
assert_out "worse (low confidence)"
assert_out "low confidence: fewer than 3 iterations on a side, so noise cannot be told apart: inconclusive (--strict gates it on the threshold). Run 5 or more iterations."
run "$NB" compare "$T/syn2.json" "$T/half2.json" --strict
assert_rc 1
assert_out "2 regressions (max regress 5%, alpha 0.05, strict)"

t_case "'-' is standard input and output"
run bash -c "'$NB' compare - '$T/half.json' <'$T/syn.json'"
assert_rc 1
assert_out "standard input -> $T/half.json"
run bash -c "'$NB' compare '$T/syn.json' - -f json -o - <'$T/half.json' | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"regressions\"])'"
assert_rc 0
assert_out "2"
assert_no_file "-"
run "$NB" compare - - <"$T/syn.json"
assert_rc 2
assert_err "nasbench: standard input ('-') can be read once"
run bash -c "'$NB' run --target '$BOX' --runtime 0.2s --size 16M -w seq512k-read -i 1 -q -o - | '$NB' compare '$T/syn.json' - --allow-missing -r off"
assert_rc 0
assert_out "$T/syn.json -> standard input"
echo "not json" >"$T/bad.txt"
run bash -c "'$NB' compare - '$T/syn.json' <'$T/bad.txt'"
assert_rc 2
assert_err "nasbench: 'standard input' is not valid JSON (line"

t_case "bad input: exit 2, the file named, no output file"
head -c 300 "$T/a.json" >"$T/trunc.json"
run "$NB" compare "$T/trunc.json" "$T/b.json" -o "$T/never.txt"
assert_rc 2
assert_err "nasbench: '$T/trunc.json' is not valid JSON (line"
assert_no_file "$T/never.txt"
echo "this is not json" >"$T/text.json"
run "$NB" compare "$T/a.json" "$T/text.json"
assert_rc 2
assert_err "'$T/text.json' is not valid JSON"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['schema']=99; json.dump(d,open(sys.argv[2],'w'))" "$T/a.json" "$T/new.json"
run "$NB" compare "$T/a.json" "$T/new.json"
assert_rc 2
assert_err "nasbench: '$T/new.json' has result schema 99, newer than this nasbench reads (1): upgrade nasbench"
run "$NB" compare "$T/a.json" "$T/missing.json"
assert_rc 2
assert_err "'$T/missing.json'"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['results']=[dict(r, workload='xz') for r in d['results'][:1]]+[dict(d['results'][0], target='other', workload='bonnie')]; json.dump(d,open(sys.argv[2],'w'))" "$T/a.json" "$T/other.json"
run "$NB" compare "$T/a.json" "$T/other.json"
assert_rc 2
assert_err "nasbench: '$T/a.json' and '$T/other.json' have no target and workload in common"
run "$NB" compare "$T/a.json" "$T/b.json" --format xml
assert_rc 2
assert_err "nasbench: --format: 'xml' is not one of text|markdown|json|junit"
printf '[gate]\nmax-regress = 5%%\n[metric]\niops = fast\n' >"$T/bad.ini"
run "$NB" compare "$T/a.json" "$T/b.json" --gate "$T/bad.ini"
assert_rc 2
assert_err "nasbench: $T/bad.ini:4: bad threshold 'fast' for 'iops' (a percentage like 5% or 'off')"
run "$NB" compare "$T/a.json"
assert_rc 2
assert_err "need a BASE and at least one NEW result"
printf '[workload nosuch]\nmax-regress = 10%%\n' >"$T/typo.ini"
run "$NB" compare "$T/a.json" "$T/a.json" --gate "$T/typo.ini"
assert_rc 5
assert_err "$T/typo.ini:2: no workload 'nosuch' in the results"

# report itself: tests/integration/test_report.sh

t_case "import: fio runs become a result that compare and report read"
mkdir -p "$T/fio"
cat >"$T/fio/job.fio" <<FIO
[global]
directory=$T/fio
size=8m
bs=4k
ioengine=psync
[seq4k-write]
rw=write
FIO
for i in 1 2 3; do
	fio --output-format=json+ --output="$T/fio/run$i.json" "$T/fio/job.fio" >/dev/null 2>&1 ||
		t_fail "fio run $i failed"
done
run "$NB" import "$T"/fio/run{1,2,3}.json -l tool=fio -l layout=single -o "$T/fio.json"
assert_rc 0
assert_out "result: $T/fio.json (1 workloads)"
assert_json "$T/fio.json" 'len(result(d, "seq4k-write")["iterations"]) == 3 and d["labels"] == {"tool": "fio", "layout": "single"}'
assert_json "$T/fio.json" 'result(d, "seq4k-write")["summary"]["bw_bytes"]["n"] == 3 and result(d, "seq4k-write")["workload"] == "seq4k-write"'
python3 - "$T/fio/run2.json" "$T/fio.json" <<'PY' || t_fail "imported figures differ from fio's"
import json, sys
from results import result
f = json.load(open(sys.argv[1]))["jobs"][0]["write"]
m = result(json.load(open(sys.argv[2])), "seq4k-write")["iterations"][1]["metrics"]
# results keep 10 significant digits
assert m["bw_bytes"] == f["bw_bytes"] and abs(m["iops"] / f["iops"] - 1) < 1e-9
assert abs(m["lat_p99_us"] - f["clat_ns"]["percentile"]["99.000000"] / 1000) < 1e-9
PY
run "$NB" compare "$T/fio.json" "$T/fio.json"
assert_rc 5
run bash -c "'$NB' import '$T'/fio/run{1,2,3}.json -o - | '$NB' compare '$T/fio.json' -"
assert_rc 5
assert_out "$T/fio.json -> standard input"
run "$NB" report "$T/fio.json" "$T/a.json" -o "$T/rep4"
assert_rc 0
grep -q "seq4k-write" "$T/rep4/report.md" || t_fail "report lacks the imported workload"
run "$NB" import "$T/gate.ini" -o "$T/x.json"
assert_rc 2
assert_err "nasbench: '$T/gate.ini': unknown format (expected fio JSON output or bonnie++ CSV)"
assert_no_file "$T/x.json"

t_done
