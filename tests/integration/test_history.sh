#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nasbench history (SQLite) and compare --baseline history: real runs
# recorded, a gate against the last runs, 8 concurrent writers, corrupted
# and foreign database files.
. "$(dirname "$0")/lib.sh"

BOX=$T/box
mkdir -p "$BOX"
export NASBENCH_DB=$T/db/history.db
tiny() { "$NB" run --target "$BOX" --runtime 0.1s --size 4M -w seq512k-read -q "$@"; }

# synth OUT RUN_ID FACTOR: a result like $T/r1.json whose figures are fixed
# iterations (+-1%) times FACTOR (bw_bytes, iops): verdicts with no timing
# (SYNTH_N=2: its first two iterations only)
synth() {
	SYNTH_N=${SYNTH_N:-5} python3 - "$T/r1.json" "$@" <<'PY'
import json, os, sys
src, out, run_id, factor = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
n = int(os.environ["SYNTH_N"])
d = json.load(open(src))
d["run_id"] = run_id
for r in d["results"]:
    first = {k: v for k, v in r["iterations"][0]["metrics"].items()
             if isinstance(v, (int, float))}
    first["bw_bytes"] = 100e6
    first["iops"] = 200
    r["iterations"] = [{"metrics": {k: v * f * (factor if k in ("bw_bytes", "iops") else 1)
                                    for k, v in first.items()}}
                       for f in (1.0, 1.01, 0.99, 1.005, 0.995)[:n]]
    r.pop("summary", None)
json.dump(d, open(out, "w"))
PY
}

t_case "run --history records a real run, created on first use; list, show, rm"
assert_no_file "$NASBENCH_DB"
run tiny -i 3 --history -l ci=main -o "$T/r1.json"
assert_rc 0
assert_file "$NASBENCH_DB"
run "$NB" run --target "$BOX" --runtime 0.1s --size 4M -w seq512k-read -i 3 --history -l ci=main -o "$T/r2.json"
assert_rc 0
assert_out "history: run 2 ($NASBENCH_DB)"
python3 - "$NASBENCH_DB" <<'PY' || t_fail "not a WAL database with the two runs and their figures"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
assert c.execute("SELECT count(*) FROM runs").fetchone()[0] == 2
assert c.execute("SELECT count(*) FROM figures WHERE metric = 'bw_bytes' AND n = 3").fetchone()[0] == 2
import json
doc = json.loads(c.execute("SELECT doc FROM runs WHERE id = 1").fetchone()[0])
from results import result
assert doc["tool"] == "nasbench" and len(result(doc, "seq512k-read")["iterations"]) == 3
PY
run "$NB" history list
assert_rc 0
assert_out "ci=main"
assert_out "2 runs in $NASBENCH_DB"
run "$NB" history list --label ci=other
assert_rc 0
assert_out "0 runs in"
run "$NB" history list --since 2999-01-01 --json
assert_rc 0
[ "$OUT" = "[]" ] || t_fail "--since in the future listed: $OUT"
run "$NB" history show 1
assert_rc 0
assert_out "run 1: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$T/r1.json")"
assert_out "local        seq512k-read"
run "$NB" history show 1 -o "$T/shown.json"
assert_rc 0
python3 - "$T/r1.json" "$T/shown.json" <<'PY' || t_fail "show -o does not give the recorded result back"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["run_id"] == b["run_id"] and a["results"] == b["results"]
PY
# [box] history = yes records too, and is not a label of the result
printf '[box]\nname = b\nhistory = yes\n[target local]\nurl = %s\n' "$BOX" >"$T/box.ini"
run "$NB" run "$T/box.ini" -w seq512k-read --runtime 0.1s --size 4M -i 1 -q -o "$T/r3.json"
assert_rc 0
assert_json "$T/r3.json" '"history" not in d["labels"] and d["labels"]["name"] == "b"'
run "$NB" history list
assert_out "3 runs in"
run "$NB" history rm 3
assert_rc 0
assert_out "history: run 3 removed"
run "$NB" history rm 3
assert_rc 2
assert_err "nasbench: no run '3' in the history '$NASBENCH_DB' (see 'nasbench history list')"
run "$NB" history bogus
assert_rc 2
run "$NB" history show
assert_rc 2
assert_err "nasbench: history show: expected one RUN (see 'nasbench history list')"

t_case "history add: files and standard input; the same run twice is kept once"
synth "$T/s1.json" s1 1.00
synth "$T/s2.json" s2 1.01
synth "$T/s3.json" s3 0.99
export NASBENCH_DB=$T/db/gate.db
run "$NB" history add "$T/s1.json" "$T/s2.json"
assert_rc 0
assert_out "history: $T/s1.json recorded as run 1 (s1)"
run bash -c "'$NB' history add - <'$T/s3.json'"
assert_rc 0
assert_out "history: standard input recorded as run 3 (s3)"
run "$NB" history add "$T/s1.json"
assert_rc 0
assert_out "history: $T/s1.json is run 1 already (s1)"
run "$NB" history add "$T/box.ini"
assert_rc 2
assert_err "nasbench: '$T/box.ini': unknown format (expected fio JSON output or bonnie++ CSV)"
# fio's own output is imported as 'nasbench import' would, once
mkdir -p "$T/fio"
printf '[global]\ndirectory=%s\nsize=4m\nbs=4k\nioengine=psync\n[seq4k-write]\nrw=write\n' "$T/fio" >"$T/fio/job.fio"
fio --output-format=json --output="$T/fio/run.json" "$T/fio/job.fio" >/dev/null 2>&1 || t_fail "fio failed"
run "$NB" history add "$T/fio/run.json"
assert_rc 0
grep -q "history: $T/fio/run.json recorded as run 4 (import-[0-9a-f]*)" <<<"$OUT" || t_fail "fio output not recorded: $OUT"
run "$NB" history add "$T/fio/run.json"
assert_out "is run 4 already"
run "$NB" history rm 4
assert_rc 0

t_case "compare --baseline history: the median of the last runs, with the same verdicts"
synth "$T/same.json" new-same 1.003
synth "$T/half.json" new-half 0.5
run "$NB" compare --baseline history "$T/same.json"
assert_rc 0
assert_out "history (runs 1, 2, 3) -> $T/same.json"
assert_out "15(3 runs)/5"
run "$NB" compare --baseline history "$T/half.json"
assert_rc 1
grep -q "seq512k-read  MB/s .* -50.0% .* worse" <<<"$OUT" || t_fail "halved not worse against the history: $OUT"
# the history measures the between-run noise (1%): a 10% drop is worse,
# where two single runs could not tell it from this machine's drift
synth "$T/minus10.json" new-10 0.9
run "$NB" compare --baseline history "$T/minus10.json"
assert_rc 1
run "$NB" compare "$T/s1.json" "$T/minus10.json"
assert_rc 5
assert_out "inconclusive: could detect only a fall beyond -"
# the same two files, the noise measured on a history's runs of s1's
# labels (--noise history; s1 itself left out: s2, s3, s4 within 1%):
# worse; s2 against s3 passes
synth "$T/s4.json" s4 1.005
NASBENCH_DB=$T/db/noise.db "$NB" history add "$T/s1.json" "$T/s2.json" "$T/s3.json" "$T/s4.json" >/dev/null
NASBENCH_DB=$T/db/noise.db run "$NB" compare "$T/s1.json" "$T/minus10.json" --noise history
assert_rc 1
assert_out "  noise: measured on history (runs 2, 3, 4)"
grep -q "seq512k-read  MB/s .* 5/5 .* 3 runs  worse" <<<"$OUT" || t_fail "not worse, measured on 3 runs: $OUT"
NASBENCH_DB=$T/db/noise.db run "$NB" compare "$T/s2.json" "$T/s3.json" --noise history
assert_rc 0
assert_out "no regression (max regress 5%, alpha 0.05)"
run "$NB" compare --baseline history "$T/s1.json" --noise history
assert_rc 2
assert_err "nasbench: --noise history is for BASE NEW: --baseline history measures the noise on its runs already"
NASBENCH_DB=$T/db/none.db run "$NB" compare "$T/s1.json" "$T/minus10.json" --noise history
assert_rc 2
assert_err "nasbench: --noise history: no history at '$T/db/none.db' (record runs with 'run --history' or 'nasbench history add')"
assert_no_file "$T/db/none.db"
run "$NB" compare --baseline history "$T/half.json" --last 2 --format junit
assert_rc 1
assert_out 'name="history (runs 2, 3) -&gt; '
# other labels: no matching run
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["labels"]["ci"]="branch"; json.dump(d, open(sys.argv[2],"w"))' "$T/half.json" "$T/branch.json"
run "$NB" compare --baseline history "$T/branch.json"
assert_rc 2
assert_err "nasbench: no run in the history '$NASBENCH_DB' matches the new result's labels"
run "$NB" compare --baseline history "$T/branch.json" --label ci=main
assert_rc 1
run "$NB" compare --baseline history "$T/branch.json" --label ci=nosuch
assert_rc 2
assert_err "matches the --label filters"
# other settings: those runs are not a baseline
python3 -c 'import json,sys; from results import result; d=json.load(open(sys.argv[1])); result(d, "seq512k-read")["spec"]["qd"]=1; json.dump(d, open(sys.argv[2],"w"))' "$T/half.json" "$T/qd1.json"
run "$NB" compare --baseline history "$T/qd1.json"
assert_rc 2
assert_err "has the new result's workloads at the same settings"
run "$NB" compare "$T/s1.json" "$T/s2.json" --last 3
assert_rc 2
assert_err "nasbench: --last and --label choose runs of the history: add --baseline history (or --noise history)"

t_case "a history of 4 runs of 2 iterations gates a new run of 2: a pass, and a 30% loss fails"
# the history's runs measured the between-run noise (levels within 1%):
# the new run is judged by where it falls among them, whatever its own
# iterations (it was "unchanged (low confidence)", exit 5, for ever:
# issue 46)
for r in 1:1.0 2:1.01 3:0.99 4:1.005; do
	SYNTH_N=2 synth "$T/two${r%%:*}.json" "two${r%%:*}" "${r##*:}"
	NASBENCH_DB=$T/db/two.db "$NB" history add "$T/two${r%%:*}.json" >/dev/null ||
		t_fail "history add two${r%%:*}"
done
SYNTH_N=2 synth "$T/two-same.json" two-same 1.002
NASBENCH_DB=$T/db/two.db run "$NB" compare --baseline history "$T/two-same.json"
assert_rc 0
assert_out "8(4 runs)/2"
assert_out "no regression (max regress 5%, alpha 0.05)"
! grep -q "low confidence" <<<"$OUT" || t_fail "low confidence against a measured history: $OUT"
SYNTH_N=2 synth "$T/two-30.json" two-30 0.7
NASBENCH_DB=$T/db/two.db run "$NB" compare --baseline history "$T/two-30.json"
assert_rc 1
grep -q "seq512k-read  MB/s .* -30.[0-9]% .* 8(4 runs)/2 .* worse$" <<<"$OUT" || t_fail "a 30% loss not worse against the history: $OUT"

t_case "8 concurrent writers: no run lost, the database whole"
export NASBENCH_DB=$T/db/concurrent.db
# first use by 8 at once (the schema race: SQLite refuses a change of
# journal mode at once, without its busy handler, to one of two first users;
# about 1 writer in 100 failed so before, so 10 new databases), then 8 real
# runs at once
for i in 1 2 3 4 5 6 7 8; do synth "$T/c$i.json" "c$i" 1; done
for db in 0 1 2 3 4 5 6 7 8 9; do
	pids=()
	for i in 1 2 3 4 5 6 7 8; do
		NASBENCH_DB=$T/db/first$db.db "$NB" history add "$T/c$i.json" >"$T/f$db-$i.out" 2>&1 &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || t_fail "first user $((i + 1)) of database $db failed: $(cat "$T/f$db-$((i + 1)).out")"
	done
done
pids=()
for i in 1 2 3 4 5 6 7 8; do
	"$NB" history add "$T/c$i.json" >"$T/c$i.out" 2>&1 &
	pids+=($!)
done
for i in "${!pids[@]}"; do
	wait "${pids[$i]}" || t_fail "writer $((i + 1)) failed: $(cat "$T/c$((i + 1)).out")"
done
pids=()
for i in 1 2 3 4 5 6 7 8; do
	tiny -i 1 --history -o "$T/w$i.json" >"$T/w$i.out" 2>&1 &
	pids+=($!)
done
for i in "${!pids[@]}"; do
	wait "${pids[$i]}" || t_fail "run --history $((i + 1)) failed: $(cat "$T/w$((i + 1)).out")"
done
python3 - "$NASBENCH_DB" "$T" <<'PY' || t_fail "runs lost or the database damaged"
import glob, json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
ids = {r[0] for r in c.execute("SELECT run_id FROM runs")}
want = {json.load(open(f))["run_id"] for f in glob.glob(sys.argv[2] + "/w*.json")}
want |= {"c%d" % i for i in range(1, 9)}
assert len(want) == 16 and ids == want, (len(ids), want - ids)
assert c.execute("SELECT count(DISTINCT run) FROM figures").fetchone()[0] == 16
PY
run "$NB" history list
assert_out "16 runs in"

t_case "a corrupted or foreign database: a clear error, exit 2, never written"
echo "not a database at all" >"$T/garbage.db"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE notes (t TEXT)"); c.execute("INSERT INTO notes VALUES (1)"); c.commit()' "$T/foreign.db"
head -c 3000 "$T/db/concurrent.db" >"$T/torn.db"
for db in garbage foreign torn; do
	sum=$(md5sum <"$T/$db.db")
	export NASBENCH_DB=$T/$db.db
	run "$NB" history add "$T/s1.json"
	assert_rc 2
	run "$NB" history list
	assert_rc 2
	run "$NB" compare --baseline history "$T/half.json"
	assert_rc 2
	# a run still writes its result, and says the history refused it
	run tiny -i 1 --history -o "$T/kept.$db.json"
	assert_rc 2
	assert_file "$T/kept.$db.json"
	[ "$(md5sum <"$T/$db.db")" = "$sum" ] || t_fail "$db.db was written to"
	[ ! -e "$T/$db.db-wal" ] || [ ! -s "$T/$db.db-wal" ] || t_fail "$db.db got a WAL"
done
NASBENCH_DB=$T/garbage.db run "$NB" history list
assert_err "nasbench: '$T/garbage.db' is not a nasbench history (reading its tables: file is not a database); not touching it"
NASBENCH_DB=$T/foreign.db run "$NB" history list
assert_err "nasbench: '$T/foreign.db' is an SQLite database but not a nasbench history; not touching it (set NASBENCH_DB to another file)"
NASBENCH_DB=$T/torn.db run "$NB" history list
assert_err "nasbench: '$T/torn.db' is not a nasbench history"
mkdir -p "$T/adir"
NASBENCH_DB=$T/adir run "$NB" history list
assert_rc 2
assert_err "nasbench: history '$T/adir' is not a regular file"

t_case "history trend: a chart per workload with the baseline band, in HTML"
export NASBENCH_DB=$T/db/gate.db
run "$NB" history trend -o "$T/trend"
assert_rc 0
assert_out "trend: $T/trend/trend.html (1 chart)"
assert_file "$T/trend/trend_local_seq512k-read.svg"
assert_file "$T/trend/trend_local_seq512k-read.png"
grep -q "<svg" "$T/trend/trend.html" || t_fail "trend.html has no inline chart"
grep -q "baseline" "$T/trend/trend_local_seq512k-read.gp" || t_fail "no baseline band in the chart"
run "$NB" history trend
assert_rc 2
assert_err "history trend: -o DIR is required"

t_done
