#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Steady state, preconditioning, TRIM and --span (docs/steady-state.md).
# The ground truth is a loop device throttled by cgroup-v1 blkio
# (throttle.write_bps_device bites on O_DIRECT writes; a change takes effect
# within a second).  The throttle changes at a known point of the run: the
# test build stops after round N ("round:WORKLOAD:N", core/hook.h), the test
# changes it and lets the run go on; never after a sleep.  The long
# demonstrations (400 -> 100 MiB/s at second 20, a 3 s oscillation out of
# phase with the rounds) are ci/bench-steady.
. "$(dirname "$0")/lib.sh"

for c in losetup lsblk tgtd mkfs.ext4 blkid; do
	command -v $c >/dev/null || { missing "$c is not installed"; t_done; exit; }
done
[ -d /sys/fs/cgroup/blkio ] || { missing "no cgroup-v1 blkio controller"; t_done; exit; }

CG=/sys/fs/cgroup/blkio/nbtest-steady-$$
mkdir "$CG" || { missing "cannot create the blkio cgroup $CG"; t_done; exit; }
at_exit 'rmdir "$CG"'
# the loop devices' files live in RAM (tmpfs): the machine's own disk, shared
# with other runs, is then no part of the ground truth
SHM=$(mktemp -d /dev/shm/nbtest-steady.XXXXXX) || { missing "no /dev/shm"; t_done; exit; }
at_exit 'rm -rf "$SHM"'
# loopdev NAME SIZE: a loop device over the sparse file $SHM/NAME.img; sets
# DEV_NAME=/dev/loopN and MM_NAME=MAJ:MIN
loopdev() {
	local dev
	truncate -s "$2" "$SHM/$1.img"
	dev=$(losetup -f --show "$SHM/$1.img") || return 1
	at_exit "losetup -d $dev"
	printf -v "DEV_$1" %s "$dev"
	printf -v "MM_$1" %s "$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')"
}
# throttle MAJ:MIN MiB/s: the cgroup's write limit on that device
throttle() { echo "$1 $(($2 << 20))" >"$CG/blkio.throttle.write_bps_device"; }
# in_cg CMD...: CMD inside the throttled cgroup (as this process: started
# with &, $! is CMD's pid)
in_cg() { exec sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG" "$@"; }
cg_run() { (in_cg "$@"); }
# cg_bg ERRFILE CMD...: CMD in the cgroup, in the background ($! its pid)
cg_bg() { local e=$1; shift; (in_cg "$@" 2>"$e") & }
# alloc FILE: bytes the file system really holds for FILE
alloc() { echo $(( $(stat -c '%b * %B' "$1") )); }
MB=1048576
# queue depth 4: 2 MiB in flight, 50 ms at 40 MiB/s, so a round of 1 s holds
# many completions
STEADY=(--steady-state snia --round 1s -w seq512k-write --iodepth 4 -q)

loopdev a 64M && loopdev b 16M && loopdev c 48M && loopdev g 16M && loopdev f 240M || { missing "no loop device"; t_done; exit; }

t_case "bad values exit 2 naming the knob and what it accepts"
REFUSED_ARGS=(--span 0)
refused "$DEV_a" 2 "--span" "a percentage in (0, 100] or a size"
REFUSED_ARGS=(--span 150%)
refused "$DEV_a" 2 "--span" "a percentage in (0, 100] or a size"
REFUSED_ARGS=(--steady-state fast)
refused "$DEV_a" 2 "--steady-state" "unknown steady-state criterion 'fast': one of snia, snia:bw"
REFUSED_ARGS=(--steady-state snia --steady-window 10 --steady-rounds 5)
refused "$DEV_a" 2 "--steady-window 10 is larger than the round limit --steady-rounds 5"
REFUSED_ARGS=(--trim sometimes)
refused "$DEV_a" 2 "--trim" "no|before|each"
run "$NB" run -t "$DEV_a" --span 65M -w seq512k-write -q -o "$T/beyond.json"
assert_rc 2
assert_err "target 'local': --span 68157440 bytes is beyond the end of the target (67108864 bytes)"

t_case "a constant throttle is steady once a window of 5 rounds agrees; the figure is the window's mean"
throttle "$MM_b" 40
printf 'seq512k-write@local steady = yes\nseq512k-write@local mb_s >= 1\n' >"$T/steady.acc"
run cg_run "$NB" run -t "$DEV_b" "${STEADY[@]}" --accept "$T/steady.acc" -o "$T/const.json"
assert_rc 0
assert_json "$T/const.json" 'd["accept"]["verdict"] == "pass"' 'd["accept"]'
# steady as soon as 5 rounds agree: after round 5 on a quiet machine
# (ci/bench-steady's 5 s rounds: always); 1 s rounds on a machine others
# load may dip, so the test holds the window to the rounds, not their count
echo "constant: rounds $(python3 -c 'import json,sys; print([round(r["metrics"]["bw_bytes"] / 1e6, 1) for r in json.load(open(sys.argv[1]))["results"][0]["steady"]["rounds"]])' "$T/const.json")" >&2
assert_json "$T/const.json" 'd["results"][0]["steady"]["reached"] and d["results"][0]["steady"]["rounds_run"] >= 5' 'd["results"][0]["steady"]'
assert_json "$T/const.json" '(lambda s: len(d["results"][0]["iterations"]) == 5 and s["window_last"] == s["rounds_run"] and s["window_first"] == s["rounds_run"] - 4)(d["results"][0]["steady"])'
# the figure is the throttle's: 40 MiB/s = 41.9 MB/s, within 10%
assert_json "$T/const.json" 'abs(d["results"][0]["summary"]["bw_bytes"]["mean"] / (40 << 20) - 1) < 0.1' 'd["results"][0]["summary"]["bw_bytes"]'
assert_json "$T/const.json" 'abs(d["results"][0]["steady"]["mean"] - d["results"][0]["summary"]["bw_bytes"]["mean"]) < 1'

t_case "a step 160 -> 40 MiB/s after round 3: steady at 40, rounds 1-3 the transient"
H=$(hook_dir)
throttle "$MM_b" 160
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=round:seq512k-write:3 \
	cg_bg "$T/step.err" "$NBT" run -t "$DEV_b" "${STEADY[@]}" -o "$T/step.json"
pid=$!
hook_wait "$H" round:seq512k-write:3 && throttle "$MM_b" 40
hook_go "$H" round:seq512k-write:3
wait $pid; RC=$?; ERR=$(cat "$T/step.err")
assert_rc 0
assert_json "$T/step.json" 'd["results"][0]["steady"]["reached"]' 'd["results"][0]["steady"]'
assert_json "$T/step.json" '[r["transient"] for r in d["results"][0]["steady"]["rounds"][:3]] == [True] * 3'
assert_json "$T/step.json" 'd["results"][0]["steady"]["window_first"] >= 4'
# the rounds before the change ran at 160 MiB/s, as far as a loaded machine
# lets them: well above the settled figure
assert_json "$T/step.json" 'all(r["metrics"]["bw_bytes"] > 1.3 * d["results"][0]["steady"]["mean"] for r in d["results"][0]["steady"]["rounds"][:3])' '[round(r["metrics"]["bw_bytes"] / 1e6, 1) for r in d["results"][0]["steady"]["rounds"]]'
assert_json "$T/step.json" 'abs(d["results"][0]["steady"]["mean"] / (40 << 20) - 1) < 0.1' 'd["results"][0]["steady"]["mean"]'

t_case "a throttle flipped 40/120 MiB/s every round is not steady at the round limit; accept can require steady; compare does not gate on it"
H=$(hook_dir)
throttle "$MM_b" 40
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT='round:seq512k-write:*' \
	cg_bg "$T/osc.err" "$NBT" run -t "$DEV_b" "${STEADY[@]}" --steady-rounds 6 --accept "$T/steady.acc" -o "$T/osc.json"
pid=$!
for k in 1 2 3 4 5 6; do
	hook_wait "$H" round:seq512k-write:$k || break
	throttle "$MM_b" $((k % 2 ? 120 : 40))
	hook_go "$H" round:seq512k-write:$k
done
wait $pid; RC=$?; ERR=$(cat "$T/osc.err")
# accept can require steady state: 'steady = yes' fails, and the figure's
# criterion passes but says it was measured on an unsteady window
assert_rc 1
assert_json "$T/osc.json" '[c["verdict"] for c in d["accept"]["criteria"]] == ["fail", "pass"]' 'd["accept"]'
assert_json "$T/osc.json" 'd["accept"]["criteria"][1]["reason"].startswith("not steady (the range is ")'
assert_json "$T/osc.json" 'not d["results"][0]["steady"]["reached"] and d["results"][0]["steady"]["rounds_run"] == 6' 'd["results"][0]["steady"]'
assert_json "$T/osc.json" '"range is" in d["results"][0]["steady"]["why"]'
assert_json "$T/osc.json" '[r["round"] for r in d["results"][0]["steady"]["rounds"]] == list(range(1, 7))'
run "$NB" compare "$T/const.json" "$T/osc.json"
assert_rc 0
assert_out "not steady"
run "$NB" compare --format json "$T/const.json" "$T/osc.json"
assert_rc 0
echo "$OUT" >"$T/cmp.json"
assert_json "$T/cmp.json" 'd["comparisons"][0]["verdicts"][0]["verdict"] == "not-steady" and not d["comparisons"][0]["verdicts"][0]["regression"]' 'd["comparisons"][0]["verdicts"][0]'
run "$NB" compare --allow-unsteady --format json "$T/const.json" "$T/osc.json"
echo "$OUT" >"$T/cmp2.json"
assert_json "$T/cmp2.json" 'd["comparisons"][0]["verdicts"][0]["verdict"] != "not-steady"'

t_case "SIGINT during a steady-state run keeps the finished rounds (complete: false)"
H=$(hook_dir)
throttle "$MM_b" 120
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=round:seq512k-write:3 \
	cg_bg "$T/int.err" "$NBT" run -t "$DEV_b" "${STEADY[@]}" -o "$T/int.json"
pid=$!
hook_wait "$H" round:seq512k-write:3 && kill -INT $pid
wait $pid; RC=$?; ERR=$(cat "$T/int.err")
assert_rc 130
assert_json "$T/int.json" 'd["complete"] is False and d["results"][0]["status"] == "interrupted"'
assert_json "$T/int.json" 'd["results"][0]["steady"]["rounds_run"] == 3 and not d["results"][0]["steady"]["reached"]'
assert_json "$T/int.json" 'len(d["results"][0]["iterations"]) == 3'

t_case "bigfile's per-second series: its last 5 rounds are judged by the SNIA criteria"
# what is held is the judgement of the series the run recorded, not the
# machine's steadiness (1 s of a shared machine may dip)
throttle "$MM_f" 40
run cg_run "$NB" run -t "$DEV_f" -w bigfile --size 224M --round 1s -i 1 -q -o "$T/big.json"
assert_rc 0
assert_json "$T/big.json" '(lambda it, s: s["window"] == 5 and s["round_s"] == 1 and s["rounds_run"] >= 5 and s["window_last"] == s["rounds_run"] and abs(s["mean"] - sum(it["series_bw_bytes"][s["window_first_s"]:s["window_first_s"] + 5]) / 5) < 1 and s["reached"] == (s["range_pct"] <= 20 and s["excursion_pct"] <= 10))(d["results"][0]["iterations"][0], d["results"][0]["iterations"][0]["steady"])' '(d["results"][0]["iterations"][0].get("steady"), d["results"][0]["iterations"][0]["series_bw_bytes"])'
assert_json "$T/big.json" 'd["results"][0]["iterations"][0]["steady"]["mean"] < 1.05 * (40 << 20)'
throttle "$MM_f" 0

t_case "TRIM on a loop device over a sparse file: BLKDISCARD frees the backing blocks"
run "$NB" run -t "$DEV_a" -w seq512k-write -i 1 -q -o "$T/fill.json"
assert_rc 0
before=$(alloc "$SHM/a.img")
[ "$before" -ge $((64 * MB)) ] || t_fail "the loop file holds $before bytes after a full write"
run "$NB" run -t "$DEV_a" --trim before --destroy-data -w rand4k-read --size 4M -i 1 -q -o "$T/trim.json"
assert_rc 0
after=$(alloc "$SHM/a.img")
assert_json "$T/trim.json" 'd["results"][0]["discard"] == {"when": "before", "method": "BLKDISCARD", "offset": 0, "bytes": 64 << 20, "accepted": True}' 'd["results"][0]["discard"]'
[ "$after" -le $((5 * MB)) ] || t_fail "after the discard the loop file holds $after bytes (before: $before)"
echo "loop TRIM: allocated $before -> $after bytes" >&2

t_case "directory targets: --trim each punches the data file locally; over NFSv3 (no DEALLOCATE) removes it and says so"
mkdir -p "$T/dir"
run "$NB" run -t "$T/dir" --trim each -w seq512k-write,rand4k-read --size 8M --runtime 300ms -i 1 -q -o "$T/dirtrim.json"
assert_rc 0
assert_json "$T/dirtrim.json" '[r["discard"]["method"] for r in d["results"]] == ["none (no data file yet)", "FALLOC_FL_PUNCH_HOLE"]' '[r.get("discard") for r in d["results"]]'
assert_json "$T/dirtrim.json" 'd["results"][1]["discard"]["accepted"] and d["results"][1]["discard"]["bytes"] == 8 << 20'
if [ -n "${NASBENCH_NFS_URL:-}" ]; then
	run "$NB" run -t "$NASBENCH_NFS_URL" --trim each -w seq512k-write,rand4k-read --size 8M --runtime 300ms -i 1 -q -o "$T/nfstrim.json"
	assert_rc 0
	assert_json "$T/nfstrim.json" 'd["results"][1]["discard"] == {"when": "each", "method": "unlink", "offset": 0, "bytes": 8 << 20, "accepted": True}' 'd["results"][1].get("discard")'
	assert_json "$T/nfstrim.json" 'any("NFSv3 has no DEALLOCATE, that is NFS 4.2): the data file was removed instead" in w for w in d["results"][1]["warnings"])' 'd["results"][1].get("warnings")'
else
	t_fail "no NASBENCH_NFS_URL: run it under tests/integration/run (the testbox)"
fi

t_case "--span 80% never touches the last 20%: preconditioning, TRIM and writes stay in the span"
head -c $((48 * MB)) /dev/urandom >"$T/orig.img"
dd if="$T/orig.img" of="$DEV_c" bs=1M oflag=direct status=none
run "$NB" run -t "$DEV_c" --span 80% --destroy-data --precondition --trim before -w seq512k-write,rand4k-write --runtime 300ms -i 1 -q -o "$T/span.json"
assert_rc 0
# 80% of 48 MiB in whole 512-byte sectors
SPAN=$(( (48 * MB * 8 / 10) / 512 * 512 ))
assert_json "$T/span.json" 'd["targets"][0]["span"] == {"bytes": '$SPAN', "of": 48 << 20, "pct": 80.0}' 'd["targets"][0].get("span")'
assert_json "$T/span.json" 'd["results"][0]["preconditioning"]["span_bytes"] == '$SPAN' and d["results"][0]["preconditioning"]["bytes_written"] == 2 * '$SPAN'' 'd["results"][0]["preconditioning"]'
assert_json "$T/span.json" 'd["results"][0]["discard"]["bytes"] == '$SPAN''
cmp -s <(tail -c +$((SPAN + 1)) "$T/orig.img") <(tail -c +$((SPAN + 1)) "$SHM/c.img") ||
	t_fail "bytes beyond 80% of the device changed"
cmp -s -n $((1 * MB)) "$T/orig.img" "$SHM/c.img" && t_fail "the span was not written at all"

t_case "preconditioning and TRIM of a device holding a file system are refused without --destroy-data"
mkfs.ext4 -q "$DEV_g" || t_fail "mkfs.ext4 failed"
for opt in --precondition "--trim before"; do
	run "$NB" run -t "$DEV_g" $opt -w rand4k-read --size 4M -i 1 -q -o "$T/guard.json"
	assert_rc 3
	assert_err "holds an ext2/3/4 file system: writing would destroy it" "--destroy-data"
done
[ "$(blkid -o value -s TYPE "$DEV_g")" = ext4 ] || t_fail "the file system on $DEV_g is gone"

t_case "a thin tgtd LUN: SCSI UNMAP frees the backing file's blocks; a thick one refuses"
if tgt_up thin:64M thick:32M; then
	tgtadm -C $TGT_C --lld iscsi --op update --mode logicalunit --tid 1 --lun 1 --params thin_provisioning=1
	run "$NB" run -t "lun=$TGT_IQN:thin/1" -w seq512k-write -i 1 -q -o "$T/lunfill.json"
	assert_rc 0
	before=$(alloc "$T/thin.img")
	run "$NB" run -t "lun=$TGT_IQN:thin/1" --trim before --destroy-data -w rand4k-read --size 4M -i 1 -q -o "$T/luntrim.json"
	assert_rc 0
	after=$(alloc "$T/thin.img")
	assert_json "$T/luntrim.json" 'd["results"][0]["discard"]["method"] == "SCSI UNMAP" and d["results"][0]["discard"]["accepted"]' 'd["results"][0]["discard"]'
	[ "$before" -ge $((64 * MB)) ] && [ "$after" -le $((5 * MB)) ] ||
		t_fail "the LUN file held $before bytes, after UNMAP $after"
	echo "tgtd UNMAP: allocated $before -> $after bytes" >&2
	run "$NB" run -t "lun=$TGT_IQN:thick/1" --trim before -w rand4k-read --size 4M -i 1 -q -o "$T/thick.json"
	assert_rc 3
	assert_err "the LUN refuses UNMAP (is it thin-provisioned? tgtd: --params thin_provisioning=1)"
	run "$NB" run -t "lun=$TGT_IQN:thick/1" --trim before --trim-optional -w rand4k-read --size 4M -i 1 -q -o "$T/thick.json"
	assert_rc 0
	assert_json "$T/thick.json" 'd["results"][0]["status"] == "ok" and d["results"][0]["discard"]["accepted"] is False and "refuses UNMAP" in d["results"][0]["discard"]["error"]'
	assert_json "$T/thick.json" 'any(w.startswith("TRIM refused, the run goes on without it: ") for w in d["results"][0]["warnings"])'
	tgt_down
else
	t_fail "cannot start tgtd: $(cat "$T/tgtd.log")"
fi

t_done
