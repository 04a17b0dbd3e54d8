#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The closed-loop sweep (--loop closed), the latency objective and
# capacity in VMs (docs/capacity.md; the open loop, the default,
# is test_openloop.sh): against a loop device held at 2000 read IOPS by
# cgroup-v1 blk-throttle (the ground truth), over the testbox's NFS, over
# two fio clients; the refusals; an interrupted sweep.  The long version
# (5 s steps, the 10% and 15% bars, the CPU cost) is ci/bench-capacity.
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null || { echo "FAIL test_capacity.sh: cannot run: fio is not installed (ci/install-deps)" >&2; exit 1; }

D=$T/data; mkdir -p "$D"
SERVERS=()
stop_servers() { for p in "${SERVERS[@]}"; do kill -9 -- "-$p" 2>/dev/null; done; SERVERS=(); }
at_exit stop_servers

# the loop device over a tmpfs file, its read IOPS held at 2000
LOOP= CG=/sys/fs/cgroup/blkio/nb-capacity-test.$$
loop_down() { rmdir "$CG" 2>/dev/null; [ -n "$LOOP" ] && losetup -d "$LOOP"; rm -f /dev/shm/nb-capacity-test.$$.img; }
at_exit loop_down
if truncate -s 64M /dev/shm/nb-capacity-test.$$.img &&
   LOOP=$(losetup -f --show /dev/shm/nb-capacity-test.$$.img) && mkdir "$CG" &&
   echo "$(cat /sys/block/"${LOOP#/dev/}"/dev) 2000" >"$CG/blkio.throttle.read_iops_device"; then
	:
else
	missing "no loop device with a blkio throttle (root, cgroup v1 blkio)"
	t_done; exit
fi
# in_cg CMD...: CMD in the throttled cgroup, RC/OUT/ERR as run()
in_cg() {
	(echo $BASHPID >"$CG/cgroup.procs"; exec "$@") >"$T/.out" 2>"$T/.err"
	RC=$?; OUT=$(cat "$T/.out"); ERR=$(cat "$T/.err")
}
VM=(-w vm --vm-bs 4k --vm-read 100 --vm-random 100 --vm-iops 100)
ON_LOOP=(run -t "$LOOP" --destroy-data --size 64M -i 1 --step-time 1s)

t_case "a closed sweep finds the throttle: saturation, Little's law, 20 VMs of 100 IOPS"
in_cg "$NB" "${ON_LOOP[@]}" "${VM[@]}" --sweep --loop closed --slo mean=10ms -o "$T/vm.json"
assert_rc 0
assert_out "local        vm "
assert_out_re "vm: capacity: [0-9.]+ VMs \([0-9]+ IOPS\) at mean <= 10 ms; knee at "
F=$T/vm.json
assert_json "$F" 'd["complete"] and d["results"][0]["status"] == "ok"'
SW='d["results"][0]["iterations"][0]["sweep"]'
M='d["results"][0]["iterations"][0]["metrics"]'
assert_json "$F" "$SW[\"objective\"] == \"mean=10ms\" and $SW[\"complete\"] and $SW[\"stop\"] in (\"throughput-flat\", \"objective-broken\", \"steps-done\")" "$SW[\"stop\"]"
assert_json "$F" "$SW[\"vm\"] == {\"bs\": 4096, \"read_pct\": 100, \"random_pct\": 100, \"iops\": 100, \"sync\": False}"
assert_json "$F" "[s[\"outstanding\"] for s in $SW[\"steps\"]] == [1, 2, 4, 8, 16, 32, 64, 128, 256][:len($SW[\"steps\"])] and len($SW[\"steps\"]) >= 3"
assert_json "$F" "all(set(s) >= {\"outstanding\", \"qd\", \"bw_bytes\", \"iops\", \"lat_mean_us\", \"lat_p50_us\", \"lat_p99_us\", \"lat_p99.9_us\", \"ios\", \"cpu_per_thread\", \"slo_met\", \"little\", \"little_ok\", \"client_bound\"} for s in $SW[\"steps\"])"
# the physics, loosely (the 10% and 15% bars are ci/bench-capacity's, 5 s steps)
assert_json "$F" "all(0.85 <= s[\"little\"] <= 1.15 for s in $SW[\"steps\"])" "[s[\"little\"] for s in $SW[\"steps\"]]"
assert_json "$F" "1500 <= $M[\"sat_iops\"] <= 2500 and 15 <= $M[\"vms\"] <= 25 and $M[\"little_failed\"] == 0" "$M"
assert_json "$F" "$SW[\"capacity\"][\"found\"] and abs($SW[\"capacity\"][\"vms\"] - $M[\"vms\"]) < 1e-9 and $SW[\"capacity\"][\"text\"].startswith(\"%.1f VMs\" % $M[\"vms\"])"
assert_json "$F" "d[\"results\"][0][\"spec\"][\"rand_pct\"] == 100 and d[\"results\"][0][\"spec\"][\"vm\"][\"iops\"] == 100"

t_case "no step meets the objective: exit 1, said, the curve written"
in_cg "$NB" "${ON_LOOP[@]}" "${VM[@]}" --steps 1..8 --slo mean=100us -o "$T/none.json"
assert_rc 1
assert_err "nasbench: target 'local': vm: no step meets mean <= 100 us (the first, 1 outstanding: mean "
assert_json "$T/none.json" "$SW[\"stop\"] == \"objective-broken\" and len($SW[\"steps\"]) == 2 and not $SW[\"capacity\"][\"found\"]" "$SW"
SW2='d["results"][0]["iterations"][0]'
assert_json "$T/none.json" "$SW2[\"metrics\"][\"vms\"] == 0 and $SW2[\"metrics\"][\"iops_at_slo\"] == 0 and d[\"complete\"]"

t_case "compare judges VMs at the objective; export has a row per step; report draws the curve"
run "$NB" compare --strict "$T/vm.json" "$T/none.json"     # one sweep each: low confidence, --strict fails it
assert_rc 1
assert_out_re "^ +local +vm +VMs at the objective .* worse"
run "$NB" export --csv "$T/vm.json"
assert_rc 0
CSV=$OUT python3 - "$T/vm.json" <<'PY' || t_fail "the CSV rows of the sweep: $OUT"
import csv, io, json, os, sys
rows = list(csv.DictReader(io.StringIO(os.environ["CSV"])))
steps = json.load(open(sys.argv[1]))["results"][0]["iterations"][0]["sweep"]["steps"]
assert len(rows) == 1 + len(steps), len(rows)
assert rows[0]["step"] == "" and float(rows[0]["vms"]) > 0
for i, (r, s) in enumerate(zip(rows[1:], steps)):
    assert r["step"] == str(i + 1) and r["outstanding"] == str(s["outstanding"]), r
    assert abs(float(r["iops"]) - s["iops"]) < 1e-3 * s["iops"] and r["little_ok"] == "true", r
PY
run "$NB" report "$T/vm.json" "$T/none.json" -o "$T/rep"
assert_rc 0
assert_file "$T/rep/curve_vm.gp"
assert_file "$T/rep/curve_vm.svg"
grep -q "title 'objective mean <= 10 ms'" "$T/rep/curve_vm.gp" || t_fail "the curve has no objective line"
grep -q "title 'knee'" "$T/rep/curve_vm.gp" || t_fail "the curve marks no knee"
grep -q "title 'capacity'" "$T/rep/curve_vm.gp" || t_fail "the curve marks no capacity"
grep -q "VMs at the objective" "$T/rep/report.md" || t_fail "the grid does not say VMs at the objective"

t_case "bad objectives, steps and [vm] values: exit 2 naming the key, nothing written"
REFUSED_ARGS=(-w vm --slo p98=1ms)
refused "$D" 2 "nasbench: --slo: invalid objective 'p98=1ms': unknown statistic in 'p98=1ms' (use mean, p50, p90, p99 or p99.9)"
REFUSED_ARGS=(-w vm --slo p99=20)
refused "$D" 2 "nasbench: --slo: invalid objective 'p99=20': invalid latency in 'p99=20' (use e.g. 20ms, 500us, 1s)"
REFUSED_ARGS=(-w vm --steps 8,4)
refused "$D" 2 "nasbench: --steps: invalid steps '8,4': each step must be above the one before"
REFUSED_ARGS=(-w vm --vm-read 101)
refused "$D" 2 "nasbench: --vm-read: value '101' out of range (0 to 100)"
printf '[target local]\nurl = %s\n[vm]\nbs = 8K\nrandom = lots\n' "$D" >"$T/badvm.ini"
run "$NB" run "$T/badvm.ini" -o "$T/f.json"
assert_rc 2
assert_err "nasbench: $T/badvm.ini:5: 'random' in [vm]: invalid number 'lots'"
assert_no_file "$T/f.json"
printf '[target local]\nurl = %s\n[capacity]\nslo = p99=20ms,,mean=1ms\n' "$D" >"$T/badslo.ini"
run "$NB" run "$T/badslo.ini" -o "$T/f.json"
assert_rc 2
assert_err "nasbench: $T/badslo.ini:4: 'slo' in [capacity]: invalid objective 'p99=20ms,,mean=1ms': empty or overlong term"
assert_no_file "$T/f.json"

t_case "SIGINT between steps: exit 130, complete false, the finished step kept"
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=sweep:vm:2 \
"$NBT" run -t "$D" -w vm --steps 1,2,4 --step-time 1s --size 16M -i 2 -o "$T/int.json" >"$T/int.out" 2>"$T/int.err" &
pid=$!
hook_wait "$H" sweep:vm:2               # step 1 is done, step 2 not begun
kill -INT $pid
hook_go "$H" sweep:vm:2
wait $pid
RC=$?
ERR=$(cat "$T/int.err")
assert_rc 130
assert_err "nasbench: interrupted: the result keeps what finished"
I='d["results"][0]["iterations"]'
assert_json "$T/int.json" "d[\"complete\"] is False and d[\"results\"][0][\"status\"] == \"interrupted\" and len($I) == 1" "d[\"results\"][0]"
assert_json "$T/int.json" "$I[0][\"partial\"] and $I[0][\"sweep\"][\"complete\"] is False and $I[0][\"sweep\"][\"stop\"] == \"interrupted\" and [s[\"outstanding\"] for s in $I[0][\"sweep\"][\"steps\"]] == [1]" "$I[0][\"sweep\"]"
assert_clean "$D"

t_case "the capacity suite: the vm workload, swept"
run "$NB" run -t "$D" --suite capacity -n
assert_rc 0
assert_out "vm"
run "$NB" list suites
assert_out_re "^ *capacity "

t_case "a sweep over NFS (the testbox's ganesha)"
run "$NB" run -t "$NASBENCH_NFS_URL" -w vm --steps 1,4 --step-time 1s --size 16M -i 1 -o "$T/nfs.json" -q
assert_rc 0
assert_json "$T/nfs.json" "len($SW[\"steps\"]) == 2 and all(s[\"iops\"] > 0 for s in $SW[\"steps\"]) and $M[\"vms\"] > 0" "$SW"

t_case "a sweep over two fio clients: the outstanding I/O spread, each client's figures kept"
P1=$(free_port); P2=$(free_port)
printf '127.0.0.1:%s\n127.0.0.1:%s\n' "$P1" "$P2" >"$T/clients"
for p in "$P1" "$P2"; do
	setsid fio --server=ip:127.0.0.1,"$p" >/dev/null 2>&1 &
	SERVERS+=($!); disown $!
	for _ in $(seq 50); do
		python3 -c "import socket; socket.create_connection(('127.0.0.1',$p),0.2)" 2>/dev/null && break
		sleep 0.1
	done
done
run "$NB" run -t "$D" --clients "$T/clients" -w rand4k-read --steps 1,2,8 --step-time 1s --size 16M -i 1 -o "$T/cl.json" -q
assert_rc 0
# 1 outstanding cannot be spread over two: each client gets 1, 2 in all
assert_json "$T/cl.json" "[(s[\"outstanding\"], s[\"qd\"], s[\"clients\"]) for s in $SW[\"steps\"]] == [(2, 1, 2), (8, 4, 2)][:len($SW[\"steps\"])] and $SW[\"clients\"] == 2" "$SW[\"steps\"]"
assert_json "$T/cl.json" "all(len(s[\"per_client\"]) == 2 and all(c[\"metrics\"][\"iops\"] > 0 for c in s[\"per_client\"]) and s[\"cpu_per_thread\"] is None for s in $SW[\"steps\"])"
stop_servers
assert_clean "$D"

t_done
