#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# crashcheck (docs/crashcheck.md): acknowledged writes journalled on the
# client with what the box promised, the crash command run beside the
# writers, the evidence that the box went down, the iteration's writes read
# back.  Losses are made at a known point (the test build's crashverify:N,
# the box back and nothing read yet) by damaging the data file on a local
# directory; a real restart is a private testbox's ganesha or tgtd killed and
# started again by the crash command.  The ZFS lab's crashes are in
# test_lab.sh and ci/bench-crash.
. "$(dirname "$0")/lib.sh"

DATA=$T/data
mkdir -p "$DATA"
box() { # BOX CRASH-COMMAND: a box file with the local target and the testbox's
	{
		echo "[box]"
		echo "name = crashtest"
		echo "sync = standard"
		[ -z "$2" ] || echo "crash = $2"
		echo "[target local]"
		echo "url = $DATA"
		echo "[target nfs]"
		echo "url = ${3:-$NASBENCH_NFS_URL}"
		echo "[target lun]"
		echo "url = ${4:-$NASBENCH_ISCSI_URL}"
		echo "destroy-data = yes"
	} >"$1"
}
# it N JSON EXPR: the Nth iteration of the first result
it() { echo "d['results'][0]['iterations'][$1]"; }
# damage POINT COMMAND ARGS...: run the test build paused at POINT
# (crashverify:N), run COMMAND there, let it go; RC, OUT, ERR as run sets them
damage() {
	local point=$1 cmd=$2 h pid
	shift 2
	h=$(hook_dir)
	NASBENCH_TEST_PAUSE=$h NASBENCH_TEST_PAUSE_AT=$point "$NBT" "$@" >"$T/d.out" 2>"$T/d.err" &
	pid=$!
	hook_wait "$h" "$point" && sh -c "$cmd"
	hook_go "$h" "$point"
	wait $pid
	RC=$? OUT=$(cat "$T/d.out") ERR=$(cat "$T/d.err")
}
scratch_file() { echo "$(ls -d "$DATA"/nasbench.*)/crashcheck"; }

# ------------------------------------------------------------ bad input
t_case "bad input: exit 2 naming the option, nothing written"
box "$T/box.ini" true
run "$NB" run "$T/box.ini" -t local -w crashcheck --crash-writes 0 -o "$T/bad.json"
assert_rc 2
assert_err "--crash-writes"
assert_no_file "$T/bad.json"
# two writes in flight to one place would race: refused before a write
run "$NB" run "$T/box.ini" -t local -w crashcheck --iodepth 16 --size 64K -o "$T/qd.json"
assert_rc 2
assert_err "crashcheck: the region (size) holds 16 writes of 4096 bytes: at most half of them (8) may be in flight, not iodepth 16"
assert_json "$T/qd.json" 'd["results"][0]["status"] == "failed" and not d["results"][0]["iterations"]'
assert_clean "$DATA"
run "$NB" run "$T/box.ini" --verify "$T/nothing.journal" -o "$T/bad.json"
assert_rc 2
assert_err "--verify: cannot read the journal '$T/nothing.journal': No such file or directory"
printf 'not a journal\n' >"$T/bad.journal"
run "$NB" run "$T/box.ini" --verify "$T/bad.journal" -o "$T/bad.json"
assert_rc 2
assert_err "--verify: journal '$T/bad.journal': no header line that checks out: not a crashcheck journal"
run "$NB" run "$T/box.ini" --verify "$T/bad.journal" -w seq512k-read -o "$T/bad.json"
assert_rc 2
assert_err "--verify runs crashcheck alone: no --workload"
assert_no_file "$T/bad.json"

# ------------------------------------------------ no crash: nothing proven
t_case "crash = true: no crash observed, no loss figure, accept fails as unproven"
printf '[accept]\ncrashcheck@local crash_lost = 0\n' >"$T/accept.ini"
run "$NB" run "$T/box.ini" -t local -w crashcheck -i 1 --crash-writes 100 --size 64K --accept "$T/accept.ini" -o "$T/none.json"
assert_rc 1
assert_json "$T/none.json" "$(it 0)['metrics']['crash_observed'] == 0 and 'crash_lost' not in $(it 0)['metrics'] and $(it 0)['metrics']['crash_intact'] == 16"
assert_json "$T/none.json" "d['results'][0]['crash_verdict']['summary'].startswith('no crash observed in 1 of 1 iteration (boot id unchanged (') and d['results'][0]['crash_verdict']['unproven'] == 1" "d['results'][0]['crash_verdict']"
assert_json "$T/none.json" "d['accept']['criteria'][0]['verdict'] == 'fail' and d['accept']['criteria'][0]['reason'].startswith(\"'crashcheck' on 'local' unmeasured: no crash observed in 1 of 1 iteration\")" "d['accept']"
# nothing proven is no ok: unmeasured (exit 5 where nothing failed)
assert_json "$T/none.json" "d['results'][0]['status'] == 'unmeasured' and d['results'][0]['reason'].endswith('not proven: nothing is proven about what a crash loses')" "d['results'][0]['reason']"
assert_out "crashcheck on local: no crash observed in 1 of 1 iteration"
# the writers wrote on while the command ran (queue depth 8)
assert_json "$T/none.json" "$(it 0)['crash']['writers']['queue_depth'] == 8 and $(it 0)['crash']['hook']['status'] == 0 and $(it 0)['crash']['point']['acked'] >= 100"
assert_clean "$DATA"

# ------------------------------------------- lost writes at a known point
t_case "a block zeroed and a sector overwritten: 1 missing, 1 torn, where; the next crash recounts nothing"
# 16 locations of 4 KiB: every one written after 100 acknowledged writes
F='$(ls -d '"$DATA"'/nasbench.*)/crashcheck'
damage crashverify:1 "dd if=/dev/zero of=\"$F\" bs=4096 seek=2 count=1 conv=notrunc status=none; dd if=/dev/urandom of=\"$F\" bs=512 seek=41 count=1 conv=notrunc status=none" \
	run "$T/box.ini" -t local -w crashcheck -i 2 --crash-writes 100 --size 64K -o "$T/d.json"
assert_rc 0
assert_out "crash 1: 2 of 16 locations lost a promised-durable write (1 missing, 0 stale, 1 torn; O_DSYNC 2, fsync 0; first at offset 8192)"
assert_json "$T/d.json" "$(it 0)['metrics']['crash_lost'] == 2 and $(it 0)['metrics']['crash_lost_durable'] == 2 and $(it 0)['metrics']['crash_acked'] >= 100"
assert_json "$T/d.json" "$(it 0)['crash']['missing_offsets'] == [8192] and $(it 0)['crash']['torn_offsets'] == [20480]"
# the second crash verifies only its own writes: crash 1's losses are not counted again
assert_json "$T/d.json" "'crash_lost' not in $(it 1)['metrics'] and $(it 1)['metrics']['crash_checked'] == 16 and $(it 1)['metrics']['crash_intact'] == 16" "$(it 1)['metrics']"
assert_json "$T/d.json" "d['results'][0]['crash_verdict']['summary'].startswith('sync=standard: 2 promised-durable writes lost in 1 of 2 crashes')" "d['results'][0]['crash_verdict']"
assert_clean "$DATA"

t_case "an old copy put back at the second crash: every location stale, accept fails"
printf '[accept]\ncrashcheck@local crash_lost = 0\n' >"$T/accept.ini"
h=$(hook_dir)
NASBENCH_TEST_PAUSE=$h NASBENCH_TEST_PAUSE_AT=crashverify:1,crashverify:2 "$NBT" run "$T/box.ini" -t local \
	-w crashcheck -i 2 --crash-writes 40 --size 64K --accept "$T/accept.ini" -o "$T/s.json" >"$T/s.out" 2>&1 &
pid=$!
hook_wait "$h" crashverify:1 && cp "$(scratch_file)" "$T/old"
hook_go "$h" crashverify:1
hook_wait "$h" crashverify:2 && cp "$T/old" "$(scratch_file)"
hook_go "$h" crashverify:2
wait $pid
RC=$?
assert_rc 1
assert_json "$T/s.json" "'crash_lost' not in $(it 0)['metrics'] and $(it 1)['metrics']['crash_stale'] == 16 and $(it 1)['metrics']['crash_lost'] == 16" "[i['metrics'] for i in d['results'][0]['iterations']]"
assert_json "$T/s.json" "d['results'][0]['crash_verdict']['first_losing'] == 2 and d['accept']['verdict'] == 'fail'"
assert_clean "$DATA"

# ----------------------------------------------------- NFS and iSCSI
t_case "NFS FILE_SYNC and iSCSI FUA, no crash: every write durable, none proven"
run "$NB" run "$T/box.ini" -t nfs -t lun -w crashcheck -i 1 --crash-writes 150 --size 256K -o "$T/ok.json"
assert_rc 5
assert_err "nasbench: 2 results unmeasured: their figures are shown, not measured"
assert_json "$T/ok.json" 'all(r["status"] == "unmeasured" for r in d["results"])'
for t in nfs lun; do
	assert_json "$T/ok.json" "[r for r in d['results'] if r['target'] == '$t'][0]['crash_verdict']['unproven'] == 1"
	assert_file "$T/ok.$t.journal"
done
assert_json "$T/ok.json" 'all(it["metrics"]["crash_checked"] == 64 and it["metrics"]["crash_intact"] == 64 and it["metrics"]["crash_acked_durable"] == it["metrics"]["crash_acked"] for r in d["results"] for it in r["iterations"])'
assert_json "$T/ok.json" '[r["iterations"][0]["crash"]["classes"]["durable"]["name"] for r in d["results"]] == ["FILE_SYNC", "FUA or write-through"]'
# tgt reports 29/00 to every new login: the control login shows it is no evidence
assert_json "$T/ok.json" '"to every new login (a login before the crash got it too): not evidence" in d["results"][1]["iterations"][0]["crash"]["evidence"]["how"]' 'd["results"][1]["iterations"][0]["crash"]["evidence"]'

t_case "sync end and none: UNSTABLE + COMMIT and UNSTABLE, flushed and write cache"
run "$NB" run "$T/box.ini" -t nfs -t lun -w crashcheck -i 1 --sync end --crash-writes 50 --size 64K -o "$T/end.json"
assert_rc 5
assert_json "$T/end.json" 'all(r["iterations"][0]["crash"]["sync"] == "end" and r["iterations"][0]["metrics"]["crash_acked_flushed"] >= 48 and r["iterations"][0]["metrics"]["crash_acked_durable"] == 0 for r in d["results"])' '[r["iterations"][0]["metrics"] for r in d["results"]]'
run "$NB" run "$T/box.ini" -t nfs -t lun -w crashcheck -i 1 --sync none --crash-writes 50 --size 64K -o "$T/none2.json"
assert_rc 5
assert_json "$T/none2.json" 'all(r["iterations"][0]["metrics"]["crash_acked_cached"] == r["iterations"][0]["metrics"]["crash_acked"] for r in d["results"])' '[r["iterations"][0]["metrics"] for r in d["results"]]'
assert_json "$T/none2.json" 'd["results"][1]["iterations"][0]["crash"]["write_cache"] == "on"'

t_case "a real restart: ganesha and tgtd killed and started again while the writers write"
private_testbox || true
if [ -n "${PTB:-}" ]; then
	cat >"$T/restart.sh" <<EOF
#!/bin/sh
# the server restarts: a new start time, a new write verifier (at 1 s)
kill -9 \$(cat "$PTB/nfs-ganesha.pid") \$(cat "$PTB/tgtd.pid")
sleep 1
NASBENCH_TESTBOX_DIR="$PTB" "$ROOT/ci/testbox" up >/dev/null 2>&1
EOF
	chmod +x "$T/restart.sh"
	box "$T/restart.ini" "$T/restart.sh" "$PRIV_NFS_URL" "$PRIV_ISCSI_URL"
	printf '[accept]\ncrashcheck@nfs crash_lost = 0\n' >"$T/accept.ini"
	run "$NB" run "$T/restart.ini" -t nfs -w crashcheck -i 2 --crash-writes 200 --size 256K --accept "$T/accept.ini" -o "$T/re.json"
	assert_rc 0
	assert_json "$T/re.json" 'all(it["crash"]["evidence"]["observed"] and "the NFS server'"'"'s write verifier changed" in it["crash"]["evidence"]["how"] and it["metrics"]["crash_lost"] == 0 and it["crash"]["writers"]["stopped_answering"] for it in d["results"][0]["iterations"])' 'd["results"][0]["iterations"][0]["crash"]'
	assert_json "$T/re.json" 'd["results"][0]["crash_verdict"]["summary"].startswith("2 of 2 crashes observed: 0 promised-durable writes lost") and d["accept"]["verdict"] == "pass"' 'd["results"][0]["crash_verdict"]'
	# tgtd's restart: its UNIT ATTENTION is the one every login gets: no
	# evidence, nothing proven (exit 5)
	run "$NB" run "$T/restart.ini" -t lun -w crashcheck -i 1 --crash-writes 200 --size 256K -o "$T/rel.json"
	assert_rc 5
	assert_json "$T/rel.json" '"crash_lost" not in d["results"][0]["iterations"][0]["metrics"] and d["results"][0]["iterations"][0]["crash"]["writers"]["stopped_answering"]' 'd["results"][0]["iterations"][0]'
fi

t_case "a CHAP password reaches neither the journal nor the result"
printf '[box]\ncrash = true\n[target chap]\nurl = %s\ndestroy-data = yes\n' "$NASBENCH_ISCSI_CHAP_URL" >"$T/chap.ini"
run "$NB" run "$T/chap.ini" -w crashcheck -i 1 --crash-writes 20 --size 64K -o "$T/chap.json"
assert_rc 5
pw=$(sed -n 's|^iscsi://[^%]*%\([^@]*\)@.*|\1|p' <<<"$NASBENCH_ISCSI_CHAP_URL")
[ -n "$pw" ] || t_fail "no password in '$NASBENCH_ISCSI_CHAP_URL'"
assert_file "$T/chap.journal"
! grep -qF "$pw" "$T/chap.journal" "$T/chap.json" || t_fail "the CHAP password is in the journal or the result"
grep -qF '"url":"iscsi://nbchap%***@' "$T/chap.journal" || t_fail "the journal lacks the redacted URL: $(head -c 300 "$T/chap.journal")"

# ----------------------------------------- the client killed at the crash
t_case "the client SIGKILLed at the crash point: --verify checks every journalled write"
H=$(hook_dir)
box "$T/manual.ini" ""
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=crash:1 "$NBT" run "$T/manual.ini" -t lun \
	-w crashcheck -i 1 --iodepth 1 --crash-writes 77 --size 128K -o "$T/k.json" -q 2>"$T/k.err" &
pid=$!
hook_wait "$H" crash:1
kill -9 $pid
wait $pid 2>/dev/null
assert_no_file "$T/k.json"
[ "$(grep -c '^a ' "$T/k.journal")" = 77 ] || t_fail "the journal holds $(grep -c '^a ' "$T/k.journal") writes, not 77"
run "$NB" run "$T/manual.ini" --verify "$T/k.journal" -o "$T/v.json"
assert_rc 5
assert_json "$T/v.json" 'd["results"][0]["target"] == "lun" and d["results"][0]["iterations"][0]["crash"]["mode"] == "verify"'
# 77 writes over 32 locations: each location's last write is read back; the
# box never went down: nothing proven
assert_json "$T/v.json" 'd["results"][0]["iterations"][0]["metrics"]["crash_acked"] == 77 and d["results"][0]["iterations"][0]["metrics"]["crash_checked"] == 32 and d["results"][0]["iterations"][0]["metrics"]["crash_intact"] == 32 and d["results"][0]["crash_verdict"]["unproven"] == 1' 'd["results"][0]["iterations"][0]["metrics"]'

t_case "--verify on another LUN or another size: exit 2, nothing read"
run "$NB" run --verify "$T/k.journal" -t "lun=$NASBENCH_ISCSI_SYNC_URL" -o "$T/m.json"
assert_rc 2
assert_err "--verify: journal '$T/k.journal' was written on '$NASBENCH_ISCSI_URL', not on target 'lun' ($NASBENCH_ISCSI_SYNC_URL)"
assert_no_file "$T/m.json"
sed 's/^destroy-data = yes/&\nsize = 128M/' "$T/manual.ini" >"$T/window.ini"
run "$NB" run "$T/window.ini" --verify "$T/k.journal" -o "$T/m.json"
assert_rc 2
assert_err "journal '$T/k.journal' was written on a window of" "target 'lun' has 134217728 bytes at offset 0: not the LUN it was written on"

t_done
