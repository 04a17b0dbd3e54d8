#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The failure walk (docs/failure.md): the refusals that touch nothing, then
# on the lab (ci/lab, raidz1 of 5 ssd-like disks, small data) a fail
# command that fails, the whole walk healthy -> degraded -> rebuilding ->
# rebuilt over NFS and iSCSI with the pool read over the lab's SSH (records
# read back, the rebuild timed under load and idle, accept's criteria
# passing and failing, compare and the report's timeline), and SIGINT
# while degraded (the box reported degraded, 'ci/lab down' repairs it).
# The long walk on HDD-like disks, raidz1 against raid10, is
# ci/bench-failure.
. "$(dirname "$0")/lib.sh"

LAB=$ROOT/ci/lab
export NASBENCH_LAB_STATE=$T/lab
# one lab at a time on a machine: wait for another test's or user's lab
export NASBENCH_LAB_WAIT=3600
at_exit '"$LAB" down >/dev/null 2>&1'
# each case says when it starts (lib.sh)
NASBENCH_IT_TIMES=1

# ------------------------------------------------ refused, nothing touched
mkdir -p "$T/data"
localbox() { # FILE [LINES...]: a box file of a local directory target
	local f=$1
	shift
	{
		echo "[box]"
		echo "name = refusals"
		echo "monitor = local"
		printf '%s\n' "$@"
		echo "[target local]"
		echo "url = $T/data"
	} >"$f"
}
cmds=("fail-disk = touch $T/failed" "replace-disk = touch $T/replaced")

t_case "no consent: exit 2, the fail command never runs"
localbox "$T/c.ini" "${cmds[@]}"
run "$NB" run "$T/c.ini" -w rand4k-read --rebuild load --size 1M -o "$T/c.json"
assert_rc 2
assert_err "nasbench: failing a disk takes the box's redundancy away until the rebuild ends: say --fail-disks to let this run run 'touch $T/failed'; nothing was touched"
assert_no_file "$T/c.json"
assert_no_file "$T/failed"

t_case "no commands, consent in a box file, no monitor: exit 2, nothing touched"
localbox "$T/n.ini"
run "$NB" run "$T/n.ini" -w rand4k-read --rebuild idle --fail-disks --size 1M -o "$T/n.json"
assert_rc 2
assert_err "--rebuild idle walks the box through a failed disk: the box file must name the commands, [box] fail-disk and replace-disk (docs/failure.md); nothing was touched"
localbox "$T/k.ini" "${cmds[@]}" "[failure]" "fail-disks = yes"
run "$NB" run "$T/k.ini" -w rand4k-read --rebuild load --size 1M -o "$T/k.json"
assert_rc 2
assert_err "'fail-disks' in [failure] is consent given on the command line (--fail-disks), never in a box file"
localbox "$T/m.ini" "${cmds[@]}" "monitor = off"
sed -i '/^monitor = local$/d' "$T/m.ini"
run "$NB" run "$T/m.ini" -w rand4k-read --rebuild load --fail-disks --size 1M -o "$T/m.json"
assert_rc 2
assert_err "the failure walk reads the pool's health from the box: set [box] monitor"
assert_no_file "$T/failed"
run "$NB" run "$T/c.ini" -w rand4k-read --rebuild sometimes -o "$T/c.json"
assert_rc 2
assert_err "--rebuild: 'sometimes' is not one of load|idle|both"

# ------------------------------------------------------------ on the lab
t_case "lab up: raidz1 of 5 ssd-like disks; its box file names the commands"
run "$LAB" up raidz1 --disk ssd
assert_rc 0
eval "$OUT"
grep -q "^fail-disk *= NASBENCH_LAB_STATE=$NASBENCH_LAB_STATE $LAB fail-disk 1" "$NASBENCH_LAB_BOX" ||
	t_fail "the lab's box file names no fail command: $(cat "$NASBENCH_LAB_BOX")"
pool_health() { zpool list -H -o health "$NASBENCH_LAB_POOL" 2>/dev/null; }
# the lab's box file (it carries its monitor: the lab's SSH), the commands given
labbox() { # FILE [FAIL-COMMAND]
	sed -e "${2:+s|^fail-disk *=.*|fail-disk = $2|}" "$NASBENCH_LAB_BOX" >"$1"
}

t_case "a fail command that fails: said, exit 3, the pool as it was"
labbox "$T/bad.ini" "NASBENCH_LAB_STATE=$NASBENCH_LAB_STATE $LAB fail-disk 9"
run "$NB" run "$T/bad.ini" -t lab-nfs -w rand4k-read -i 1 --runtime 1s --size 16M \
	--netbase no --records 4M --rebuild load --fail-disks -q -o "$T/bad.json"
assert_rc 3
assert_err "nasbench: the fail command 'NASBENCH_LAB_STATE=$NASBENCH_LAB_STATE $LAB fail-disk 9' exited with status 2: lab: no disk '9' in the pool: disks 0 to 4"
[ "$(pool_health)" = ONLINE ] || t_fail "the pool is $(pool_health) after a fail command that failed"
assert_json "$T/bad.json" 'd["failure"]["complete"] is False and d["failure"]["box_left"]["state"] == "healthy"' 'd["failure"]'
assert_json "$T/bad.json" 'd["failure"]["events"][0]["what"] == "fail" and d["failure"]["events"][0]["status"] == 2'
assert_json "$T/bad.json" 'result(d, "rand4k-read")["state"] == "healthy" and result(d, "rand4k-read")["status"] == "ok"'

t_case "the walk: every state measured, records intact, the rebuild timed, criteria judged"
labbox "$T/walk.ini"
cat >"$T/crit" <<'EOF'
max_rebuild_time = 10m
max_rebuild_time = 1ms               ; no rebuild is that fast
max_rebuild_time_idle = 10m
degraded_keeps = 1%
rand4k-read@lab-nfs degraded_keeps >= 10000%
rand4k-read@lab-iscsi:degraded iops > 0
EOF
run "$NB" run "$T/walk.ini" -w rand4k-read -i 1 --runtime 2s --size 48M --netbase no \
	--records 8M --rebuild both --fail-disks --accept "$T/crit" -o "$T/walk.json"
# two criteria fail by design
assert_rc 1
assert_json "$T/walk.json" '[c["verdict"] for c in d["accept"]["criteria"]] == ["pass", "fail", "pass", "pass", "pass", "fail", "pass"]' '[(c["criterion"], c["verdict"], c.get("measured"), c.get("reason")) for c in d["accept"]["criteria"]]'
# every entry names its state; the walk's four states on both targets
# healthy, degraded, rebuilt: each workload on each target (rebuilding: as
# many as the rebuild lasted, on ssd-like disks a second or two)
assert_json "$T/walk.json" 'all(sum(1 for e in d["results"] if (e["target"], e["workload"], e["state"]) == (t, w, s) and e["status"] == "ok" and len(e["iterations"]) == 1) == 1 for t in ("lab-nfs", "lab-iscsi") for w in ("rand4k-read",) for s in ("healthy", "degraded", "rebuilt"))' '[(e["target"], e["workload"], e.get("state"), e["status"]) for e in d["results"]]'
assert_json "$T/walk.json" 'all(e["state"] in ("healthy", "degraded", "rebuilding", "rebuilt") for e in d["results"])'
assert_json "$T/walk.json" 'all(it["box_state"] == e["state"] for e in d["results"] for it in e["iterations"])'
# the pool's state when each iteration ended (the watcher's latest reading;
# none yet on a loaded machine is no reading, not another state)
assert_json "$T/walk.json" 'all(it.get("pool_state", "DEGRADED") == "DEGRADED" for e in d["results"] if e["state"] == "degraded" for it in e["iterations"]) and any("pool_state" in it for e in d["results"] if e["state"] == "degraded" for it in e["iterations"])' '[(e["target"], e["state"], it.get("walk_t_ms"), it.get("pool_state")) for e in d["results"] for it in e["iterations"]] + [d["failure"]["events"], d["failure"]["phases"]]'
assert_json "$T/walk.json" 'all(it.get("pool_state", "ONLINE") == "ONLINE" for e in d["results"] if e["state"] in ("healthy", "rebuilt") for it in e["iterations"]) and any("pool_state" in it for e in d["results"] if e["state"] == "rebuilt" for it in e["iterations"])' '[(e["target"], e["state"], it.get("walk_t_ms"), it.get("pool_state")) for e in d["results"] for it in e["iterations"]] + [d["failure"]["events"], d["failure"]["phases"]]'
f='d["failure"]'
assert_json "$T/walk.json" "$f[\"complete\"] is True and $f[\"box_left\"][\"state\"] == \"healthy\" and $f[\"failed\"][0][\"state\"] == \"OFFLINE\"" "$f"
assert_json "$T/walk.json" "all(r[\"lost\"] == 0 and r[\"degraded\"][\"intact\"] == r[\"blocks\"] == 2048 and r[\"rebuilt\"][\"intact\"] == 2048 for r in $f[\"records\"]) and len($f[\"records\"]) == 2" "$f[\"records\"]"
assert_json "$T/walk.json" "0 < $f[\"rebuild\"][\"seconds\"] < 600 and $f[\"rebuild\"][\"load\"] and not $f[\"rebuild_idle\"][\"load\"] and $f[\"rebuild\"][\"kind\"] == \"resilver\"" "$f"
assert_json "$T/walk.json" "$f[\"counters\"][\"read\"] + $f[\"counters\"][\"write\"] + $f[\"counters\"][\"cksum\"] == 0 and len($f[\"counters\"][\"devices\"]) == 5"
assert_json "$T/walk.json" "[p[\"state\"] for p in $f[\"phases\"]][:4] == [\"healthy\", \"degraded\", \"rebuilding\", \"rebuilt\"] and len($f[\"timeline\"][\"t_ms\"]) > 10"
assert_json "$T/walk.json" 'all(len(it["series_lat_p99_us"]) == len(it["series_bw_bytes"]) for e in d["results"] for it in e["iterations"] if "series_bw_bytes" in it)'
# the failed disk by the name the pool gave it (which loop device the lab
# got depends on what else holds loop devices on the machine)
disk=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["failure"]["failed"][0]["name"])' "$T/walk.json")
assert_out "failure walk on pool 'nblab': disk $disk" "records on lab-nfs: 2048 of 2048 blocks written before the failure read back intact after the rebuild"
assert_out_re "rand4k-read on lab-nfs \(IOPS\): healthy [0-9.]+, degraded [0-9.]+ \(keeps [0-9]+%\)"
[ "$(pool_health)" = ONLINE ] || t_fail "the pool is $(pool_health) after the walk"

t_case "compare and report: the states side by side, the timeline chart"
run "$NB" compare "$T/walk.json" "$T/walk.json"
# one run a side: the noise is not measured, so no verdict (exit 5)
assert_rc 5
assert_out "under failure (the share of the healthy figure kept):" "rand4k-read degraded"
run "$NB" report "$T/walk.json" -o "$T/rep"
assert_rc 0
assert_file "$T/rep/timeline-1-walk.svg"
grep -q "## Under failure" "$T/rep/report.md" || t_fail "report.md has no 'Under failure' section"
grep -q "| healthy |" "$T/rep/report.md" || t_fail "the grid has no row per box state"
python3 "$ROOT/tests/support/html_check.py" "$T/rep/report.html" >"$T/html.err" ||
	t_fail "report.html is not valid: $(head -5 "$T/html.err")"
grep -q "rebuild %" "$T/rep/timeline-1-walk.svg" || t_fail "the timeline draws no rebuild percent"

t_case "SIGINT while degraded: complete false, the box reported degraded; ci/lab down repairs it"
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=failure:degraded \
	"$NBT" run "$T/walk.ini" -t lab-nfs -w rand4k-read -i 1 --runtime 1s --size 16M \
	--netbase no --records 4M --rebuild load --fail-disks -q -o "$T/int.json" >"$T/int.out" 2>"$T/int.err" &
pid=$!
hook_wait "$H" failure:degraded
[ "$(pool_health)" = DEGRADED ] || t_fail "the pool is $(pool_health) at failure:degraded"
kill -INT "$pid"
wait "$pid"
RC=$? ERR=$(cat "$T/int.err")
assert_rc 130
assert_err "nasbench: failure walk interrupted: the box is left degraded (pool 'nblab' DEGRADED): bring in its replacement ([box] replace-disk)"
assert_json "$T/int.json" 'd["complete"] is False and d["failure"]["complete"] is False and d["failure"]["box_left"]["state"] == "degraded" and d["failure"]["box_left"]["not_online"][0]["state"] == "OFFLINE"' 'd["failure"]["box_left"]'
[ "$(pool_health)" = DEGRADED ] || t_fail "the pool is $(pool_health) after the interrupt, not left DEGRADED"
run "$LAB" status
assert_out "state: DEGRADED"
run "$LAB" down
assert_rc 0
[ -z "$(losetup -a | grep -F "$NASBENCH_LAB_STATE/")" ] || t_fail "loop devices left: $(losetup -a | grep -F "$NASBENCH_LAB_STATE/")"
# (another lab may have come up since: one a machine, the same pool name)
if [ ! -s /run/nasbench-lab.dir ] && zpool list -H -o name 2>/dev/null | grep -qx "$NASBENCH_LAB_POOL"; then
	t_fail "the pool is left after down"
fi

t_done
