#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The replay of a captured load (docs/replay.md): three loop
# devices stand for three VMs' volumes under a known open-loop load (fio,
# poisson: 100, 200 and 50 IOPS of 8 KiB, 70% reads), captured with
# 'nasbench capture', and the load file replayed on another loop device:
# each VM's own source issues the captured IOPS and read share (the
# result's per-VM counts; the device's own counters, read by a capture
# while the replay runs, for the total).  On a loop device held at 700
# read and 300 write IOPS by blk-throttle, the replay's headroom against
# the open sweep's capacity over the captured load, and the years from
# the formula; the report, the CSV and the acceptance criterion keep
# them.  Refusals: a bad growth rate, a load file that does not read, a
# load that does not fit.  The long versions: ci/bench-replay.
. "$(dirname "$0")/lib.sh"

for p in fio losetup python3; do
	command -v "$p" >/dev/null || { missing "$p (fio, mount)"; exit 1; }
done
[ "$(id -u)" = 0 ] || { missing "root (loop devices, blkio cgroup)"; exit 1; }
D=$T/data; mkdir -p "$D"

# ------------------------------------------------------------ refusals
printf '[population]\ngrowth = 4 VMs a year\n[vm web]\ncount = 3\niops = 50\nread = 70\nbs_read = 8K\nbs_write = 16K\n[vm db]\niops = 200\nread = 90\nbs_read = 8K\nbs_write = 8K\n' >"$T/hand.ini"

t_case "a bad growth rate, a bad scale, no load file: exit 2 naming the knob, nothing written"
REFUSED_ARGS=(-w replay --load "$T/hand.ini" --growth 25)
refused "$D" 2 "nasbench: --growth: invalid growth '25': expected a rate such as 25%/year or VMs a year such as 4vms/year (a number alone says neither)"
REFUSED_ARGS=(-w replay --load "$T/hand.ini" --growth 0%/year)
refused "$D" 2 "nasbench: --growth: invalid growth '0%/year': the rate must be above 0%/year"
REFUSED_ARGS=(-w replay --load "$T/hand.ini" --scale 2,1)
refused "$D" 2 "nasbench: --scale: invalid scales '2,1': give rising multiples of the captured load above 0 (1,1.25,1.5,2 or 1x,2x), or auto"
REFUSED_ARGS=(-w replay)
refused "$D" 2 "nasbench: the replay workload needs a load file: --load FILE or [replay] load ('nasbench capture' writes one; docs/replay.md)"
printf '[target local]\nurl = %s\n[replay]\nload = %s\ngrowth = fast\n' "$D" "$T/hand.ini" >"$T/box.ini"
run "$NB" run "$T/box.ini" -w replay -o "$T/f.json"
assert_rc 2
assert_err "nasbench: $T/box.ini:5: 'growth' in [replay]: invalid growth 'fast': expected a rate such as 25%/year or VMs a year such as 4vms/year"
assert_no_file "$T/f.json"
assert_clean "$D"

t_case "a load file that does not read: FILE:LINE, exit 2, before anything runs"
printf '[vm a]\niops = 10\nread = 50\nbs_read = 8K\nbs_write = 8K\nsequental = 5\n' >"$T/bad.ini"
REFUSED_ARGS=(-w replay --load "$T/bad.ini")
refused "$D" 2 "nasbench: $T/bad.ini:6: unknown key 'sequental' in [vm a]; did you mean 'sequential'?"
printf '[vm a]\niops = 10\nread = 50\n' >"$T/nosize.ini"
REFUSED_ARGS=(-w replay --load "$T/nosize.ini")
refused "$D" 2 "nasbench: $T/nosize.ini:1: [vm a] has no 'bs_read' (a VM needs iops, read, and the bs_read and bs_write its reads and writes use)"
REFUSED_ARGS=(-w replay --load "$T/none.ini")
refused "$D" 2 "nasbench: cannot read load file '$T/none.ini': No such file or directory"
assert_clean "$D"

t_case "a load that does not fit the data set: said, with the size it needs"
REFUSED_ARGS=(-w replay --load "$T/hand.ini" --size 1M)
refused "$D" 2 "nasbench: the load does not fit: in a data set of 1 MiB, VM 'web' of '$T/hand.ini' (25% of the data) gets 256 KiB, fewer than 64 of its 16 KiB requests; give a data set of at least 5 MiB (--size), or edit the shares"
# a LUN smaller than the load needs, found when the target is open
truncate -s 2M "$T/small.img"
SMALL=$(losetup -f --show "$T/small.img") || { missing "a loop device"; exit 1; }
run "$NB" run -t "$SMALL" --destroy-data -w replay --load "$T/hand.ini" -i 1 -o "$T/small.json"
losetup -d "$SMALL"
assert_rc 2
assert_err "nasbench: the load does not fit: in a data set of 2 MiB, VM 'web' of '$T/hand.ini' (25% of the data) gets 512 KiB, fewer than 64 of its 16 KiB requests; give a data set of at least 5 MiB (--size), or edit the shares"

# ------------------------------------------------- three VMs under fio
DEVS=() NEW= FIO= CG=
stop_fio() { [ -n "$FIO" ] && kill $FIO 2>/dev/null && wait $FIO 2>/dev/null; FIO=; }
detach() { for d in "${DEVS[@]}" $NEW; do losetup -d "$d" 2>/dev/null; done; }
at_exit stop_fio
at_exit detach
at_exit '[ -n "$CG" ] && rmdir "$CG"'
for i in 1 2 3; do
	truncate -s 64M "/dev/shm/nbtest-replay.$$.vm$i"
	at_exit "rm -f /dev/shm/nbtest-replay.$$.vm$i"
	DEVS+=("$(losetup -f --show "/dev/shm/nbtest-replay.$$.vm$i")") || { missing "a loop device"; exit 1; }
done
truncate -s 192M "/dev/shm/nbtest-replay.$$.new"
at_exit "rm -f /dev/shm/nbtest-replay.$$.new"
NEW=$(losetup -f --show "/dev/shm/nbtest-replay.$$.new") || { missing "a loop device"; exit 1; }
names() { local n= d; for d; do n+="${d#/dev/},"; done; echo "${n%,}"; }
ios() { awk -v d="$1" '$3 == d { print $4 + $8 }' /proc/diskstats; }
# rate_iops is per direction: 70,30 is 100 I/Os a second, 70% reads
{ printf '[global]\nioengine=libaio\ndirect=1\nrw=randrw\nrwmixread=70\nbs=8k\niodepth=4\nrate_process=poisson\ntime_based=1\nruntime=300\n'
  printf '[vm1]\nfilename=%s\nrate_iops=70,30\n[vm2]\nfilename=%s\nrate_iops=140,60\n[vm3]\nfilename=%s\nrate_iops=35,15\n' "${DEVS[@]}"
} >"$T/job.fio"

t_case "the old box captured: three VMs of 100, 200 and 50 IOPS"
fio --output-format=json --output="$T/fio.json" "$T/job.fio" >"$T/fio.out" 2>&1 &
FIO=$!
for d in "${DEVS[@]}"; do
	n0=$(ios "${d#/dev/}")
	for _ in $(seq 600); do [ "$(ios "${d#/dev/}")" -ge $((n0 + 20)) ] && break; sleep 0.05; done
done
run "$NB" capture --devices "$(names "${DEVS[@]}")" --for 20s --interval 1s --bucket 5s --growth 25%/year -o "$T/old.ini"
stop_fio
assert_rc 0
assert_file "$T/old.ini"

t_case "replayed on a loop device: each VM's IOPS and read share as captured"
# a warm-up step at half the load (the data file made), then today's at
# 1x: the device's counters read by a capture over 10 s of its 15
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=sweep:replay:2 \
"$NBT" run -t "$NEW" --destroy-data --size 192M -w replay --load "$T/old.ini" --scale 0.5,1 \
	--step-time 15s --peak no --slo mean=50ms -i 1 -o "$T/faithful.json" >"$T/faithful.out" 2>&1 &
RP=$!
hook_wait "$H" sweep:replay:2
n0=$(ios "${NEW#/dev/}")
hook_go "$H" sweep:replay:2
for _ in $(seq 600); do [ "$(ios "${NEW#/dev/}")" -ge $((n0 + 5)) ] && break; sleep 0.02; done
"$NB" capture --devices "${NEW#/dev/}" --for 10s --interval 1s --bucket 5s -o "$T/new.ini" >"$T/newcap.out" 2>&1
CAPRC=$?
wait $RP
RC=$?
OUT=$(cat "$T/faithful.out") ERR=$OUT
assert_rc 0
[ "$CAPRC" = 0 ] || t_fail "the capture of the replay failed: $(cat "$T/newcap.out")"
# (the box here is the whole loaded machine: whether 1x met the objective
# is its business; the load is what this case checks)
assert_out_re "^local replay: (headroom (at least )?[0-9.]+x|no scale of) today's load \(3 VMs, [0-9]+ IOPS at their busiest hour\) (at|meets) mean <= 50 ms"
assert_out_re "^local replay: today's load \(1x\) (meets the objective|breaks the objective|was not achieved): response p99 [0-9.]+ ms; each VM issued within [0-9.]+% of its rate, its reads within [0-9.]+ points$"
assert_out "local replay: the busiest bucket not replayed: not asked for (--peak no)"
RPJ='result(d, "replay")["iterations"][0]["replay"]'
assert_json "$T/faithful.json" "set($RPJ) >= {\"load\", \"population\", \"today_iops\", \"vms\", \"headroom\", \"years\", \"growth\", \"today\", \"peak\", \"series\", \"text\"} and $RPJ[\"population\"] == 3 and $RPJ[\"growth_from\"] == \"the load file\""
assert_json "$T/faithful.json" "[s[\"scale\"] for s in result(d, \"replay\")[\"iterations\"][0][\"sweep\"][\"steps\"]] == [0.5, 1.0]" "result(d, \"replay\")[\"iterations\"][0][\"sweep\"][\"steps\"]"
python3 - "$T/faithful.json" "$T/old.ini" "$T/new.ini" <<'PY' || t_fail "the replay was not the captured load"
import json, sys
from results import result
def ini(p):
    secs, cur = {}, None
    for line in open(p):
        line = line.split(";")[0].strip()
        if line.startswith("["): cur = line[1:-1]; secs[cur] = {}
        elif "=" in line and cur:
            k, v = (x.strip() for x in line.split("=", 1)); secs[cur][k] = v
    return secs
d = json.load(open(sys.argv[1])); old = ini(sys.argv[2]); new = ini(sys.argv[3])
rp = result(d, "replay")["iterations"][0]["replay"]
bad = []
for v in rp["today"]["per_vm"]:
    want = float(old["vm " + v["name"]]["iops"]); rs = float(old["vm " + v["name"]]["read"])
    print(f"  {v['name']}: asked {want:.1f} IOPS {rs:.1f}% reads, issued {v['issued_iops']:.1f} "
          f"({100 * (v['issued_iops'] - want) / want:+.1f}%) {v['issued_read_pct']:.1f}%")
    # 15 s of Poisson arrivals: 750 to 3000 I/Os a VM
    if abs(v["issued_iops"] - want) > 0.15 * want: bad.append(v["name"] + " IOPS")
    if abs(v["issued_read_pct"] - rs) > 5: bad.append(v["name"] + " reads")
dev = [s for s in new if s.startswith("vm ")][0]
got, rd = float(new[dev]["iops_mean"]), float(new[dev]["read"])
print(f"  the device: {got:.1f} IOPS {rd:.1f}% reads, {new[dev]['bs_read']}/{new[dev]['bs_write']} bytes "
      f"(asked {rp['today_iops']:.1f}, {rp['read_pct']:.1f}%)")
if abs(got - rp["today_iops"]) > 0.10 * rp["today_iops"]: bad.append("the device's IOPS")
if abs(rd - rp["read_pct"]) > 3: bad.append("the device's reads")
if new[dev]["bs_read"] != "8192" or new[dev]["bs_write"] != "8192": bad.append("request sizes")
if bad: print("off: " + ", ".join(bad))
sys.exit(1 if bad else 0)
PY

# ------------------------------------- a device of known capacity
t_case "on 700 read + 300 write IOPS: the headroom is the capacity over today's load"
CG=/sys/fs/cgroup/blkio/nb-replay-test.$$
if mkdir "$CG" && MM=$(cat /sys/block/"${NEW#/dev/}"/dev) &&
   echo "$MM 700" >"$CG/blkio.throttle.read_iops_device" &&
   echo "$MM 300" >"$CG/blkio.throttle.write_iops_device"; then
	in_cg() {
		(echo $BASHPID >"$CG/cgroup.procs"; exec "$@") >"$T/.out" 2>"$T/.err"
		RC=$?; OUT=$(cat "$T/.out"); ERR=$(cat "$T/.err")
	}
	in_cg "$NB" run -t "$NEW" --destroy-data --size 192M -w rand4k-mix --bs 8k --sweep \
		--slo mean=10ms --step-time 2s -i 1 -o "$T/sweep.json"
	assert_rc 0
	printf 'replay@local years >= 1000\n' >"$T/accept.txt"
	in_cg "$NB" run -t "$NEW" --destroy-data --size 192M -w replay --load "$T/old.ini" \
		--slo mean=10ms --step-time 2s --growth 4%/year -i 1 --accept "$T/accept.txt" -o "$T/years.json"
	assert_rc 1
	assert_out_re "^local replay: headroom (at least )?[0-9.]+x today's load \(3 VMs, [0-9]+ IOPS at their busiest hour\) at mean <= 10 ms; (at least )?[0-9.]+ years at 4%/year$"
	assert_out_re "^local replay: the busiest minute|^local replay: the busiest bucket \(bucket [0-9]+, [0-9]+ IOPS, [0-9.]+x the busiest hour\) as it was: (meets|breaks) mean <= 10 ms"
	assert_out_re "replay@local years >= 1000 .*FAIL|FAIL.*replay@local years >= 1000"
	CAP=$(J "$T/sweep.json" 'result(d, "rand4k-mix")["iterations"][0]["metrics"]["iops_at_slo"]')
	assert_json "$T/years.json" "(lambda m, r: abs(m['headroom'] - $CAP / r['today_iops']) <= 0.25 * $CAP / r['today_iops'] and abs(m['years'] - __import__('math').log(m['headroom']) / __import__('math').log(1.04)) < 1e-6 * m['years'] and m['headroom'] > 1.8)(result(d, 'replay')['iterations'][0]['metrics'], result(d, 'replay')['iterations'][0]['replay'])" "(result(d, 'replay')['iterations'][0]['metrics'], $CAP)"
	echo "  open sweep: $CAP IOPS at mean <= 10 ms; replay: headroom $(J "$T/years.json" 'round(result(d, "replay")["iterations"][0]["metrics"]["headroom"], 3)') of $(J "$T/years.json" 'round(result(d, "replay")["iterations"][0]["replay"]["today_iops"], 1)') IOPS, $(J "$T/years.json" 'round(result(d, "replay")["iterations"][0]["metrics"]["years"], 2)') years at 4%/year"
	assert_json "$T/years.json" "result(d, 'replay')['iterations'][0]['replay']['peak']['bucket'] >= 0 and len(result(d, 'replay')['iterations'][0]['replay']['peak']['per_vm']) == 3"

	t_case "the report, the CSV, compare and the history keep the headroom and the years"
	run "$NB" report "$T/years.json" "$T/faithful.json" -o "$T/rep"
	assert_rc 0
	grep -q '^## Replay' "$T/rep/report.md" && grep -q 'The population replayed' "$T/rep/report.md" &&
		grep -q 'replay_load.png' "$T/rep/report.md" && [ -f "$T/rep/replay_load.gp" ] ||
		t_fail "the report lacks the Replay section or the captured load's chart: $(grep -A12 Replay "$T/rep/report.md")"
	grep -q 'captured: all I/O' "$T/rep/replay_load.gp" && grep -q 'holds' "$T/rep/replay_load.gp" ||
		t_fail "the load chart lacks the captured load or what the box holds"
	python3 "$ROOT/tests/support/html_check.py" "$T/rep/report.html" >"$T/html.err" ||
		t_fail "report.html: $(cat "$T/html.err")"
	run "$NB" export --csv "$T/years.json"
	assert_rc 0
	head -1 <<<"$OUT" | grep -q ',headroom,years,' && head -1 <<<"$OUT" | grep -q ',scale' ||
		t_fail "the CSV lacks headroom, years or the steps' scale: $(head -1 <<<"$OUT")"
	run "$NB" compare "$T/faithful.json" "$T/years.json"
	assert_out_re "local +replay +headroom "
	run "$NB" history add --db "$T/h.db" "$T/years.json"
	assert_rc 0
	run "$NB" history show 1 --db "$T/h.db"
	assert_rc 0
	assert_out_re "^local replay: headroom (at least )?[0-9.]+x today's load"
else
	missing "a blkio throttle (root, cgroup v1 blkio)"
fi
t_done
