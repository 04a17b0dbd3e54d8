#!/usr/bin/env bash
# crashcheck (docs/crashcheck.md): acknowledged writes journalled on the
# client, the box "crashed" by the [box] crash command at a known point
# (after N acknowledged writes), every journalled write read back.  Here the
# crash command damages the data file the way a box that lost writes would
# (a block zeroed, a sector overwritten, an old copy put back), on a local
# directory; on the testbox's NFS export and LUN it changes nothing and
# nothing may be lost.  The real crash of a ZFS box is in test_lab.sh.
. "$(dirname "$0")/lib.sh"

J() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
DATA=$T/data
mkdir -p "$DATA"
box() { # BOX CRASH-COMMAND: a box file with the local target
	{
		echo "[box]"
		echo "name = crashtest"
		echo "sync = standard"
		[ -z "$2" ] || echo "crash = $2"
		echo "[target local]"
		echo "url = $DATA"
		echo "[target nfs]"
		echo "url = $NASBENCH_NFS_URL"
		echo "[target lun]"
		echo "url = $NASBENCH_ISCSI_URL"
		echo "destroy-data = yes"
	} >"$1"
}

# ------------------------------------------------------------ bad input
t_case "bad input: exit 2 naming the option, nothing written"
box "$T/box.ini" true
run "$NB" run "$T/box.ini" -t local -w crashcheck --crash-writes 0 -o "$T/bad.json"
assert_rc 2
assert_err "--crash-writes"
assert_no_file "$T/bad.json"
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

# ------------------------------------------- lost writes at a known point
t_case "a block zeroed and a sector overwritten at the crash: 1 missing, 1 torn, where"
cat >"$T/damage.sh" <<EOF
#!/bin/sh
f=\$(ls -d "$DATA"/nasbench.*)/crashcheck
dd if=/dev/zero of="\$f" bs=4096 seek=2 count=1 conv=notrunc status=none
dd if=/dev/urandom of="\$f" bs=512 seek=41 count=1 conv=notrunc status=none
echo "\$NASBENCH_CRASH_TARGET \$NASBENCH_CRASH_ACKED" >"$T/hook.env"
EOF
chmod +x "$T/damage.sh"
box "$T/damage.ini" "$T/damage.sh"
run "$NB" run "$T/damage.ini" -t local -w crashcheck -i 1 --crash-writes 100 --size 64K -o "$T/d.json"
assert_rc 0
assert_out "crash 1: 2 of 16 acknowledged writes not read back intact (1 missing, 0 stale, 1 torn; first at offset 8192)"
assert_json "$T/d.json" 'd["results"][0]["iterations"][0]["metrics"]["crash_lost"] == 2 and d["results"][0]["iterations"][0]["metrics"]["crash_acked"] == 100'
assert_json "$T/d.json" 'd["results"][0]["iterations"][0]["crash"]["missing_offsets"] == [8192] and d["results"][0]["iterations"][0]["crash"]["torn_offsets"] == [20480]'
assert_json "$T/d.json" 'd["results"][0]["crash_verdict"]["summary"] == "sync=standard: 2 acknowledged writes lost in crash 1 of 1"'
assert_json "$T/d.json" 'd["results"][0]["iterations"][0]["crash"]["point"]["acked"] == 100 and d["results"][0]["iterations"][0]["crash"]["hook"]["status"] == 0'
[ "$(cat "$T/hook.env")" = "local 100" ] || t_fail "the crash command saw '$(cat "$T/hook.env")', not 'local 100'"
assert_clean "$DATA"
# the accept verdict: the workload's own criterion fails
printf '[accept]\ncrashcheck@local crash_lost = 0\n' >"$T/accept.ini"
run "$NB" run "$T/damage.ini" -t local -w crashcheck -i 1 --crash-writes 100 --size 64K --accept "$T/accept.ini" -o "$T/d2.json"
assert_rc 1
assert_json "$T/d2.json" 'd["accept"]["verdict"] == "fail" and d["accept"]["criteria"][0]["measured"] == 2' 'd["accept"]'

t_case "an old copy put back at the second crash: every location stale"
cat >"$T/restore.sh" <<EOF
#!/bin/sh
f=\$(ls -d "$DATA"/nasbench.*)/crashcheck
if [ -e "$T/old" ]; then cp "$T/old" "\$f"; else cp "\$f" "$T/old"; fi
EOF
chmod +x "$T/restore.sh"
box "$T/restore.ini" "$T/restore.sh"
run "$NB" run "$T/restore.ini" -t local -w crashcheck -i 2 --crash-writes 40 --size 64K -o "$T/s.json"
assert_rc 0
assert_json "$T/s.json" '[it["metrics"]["crash_stale"] for it in d["results"][0]["iterations"]] == [0, 16]'
assert_json "$T/s.json" 'd["results"][0]["crash_verdict"]["crashes_losing"] == 1 and d["results"][0]["crash_verdict"]["first_losing"] == 2'

# -------------------------------------------------- NFS and iSCSI, intact
t_case "NFS FILE_SYNC and iSCSI FUA, a crash command that loses nothing: 2 of 2 intact"
run "$NB" run "$T/box.ini" -t nfs -t lun -w crashcheck -i 2 --crash-writes 150 --size 256K -o "$T/ok.json"
assert_rc 0
for t in nfs lun; do
	assert_json "$T/ok.json" "[r for r in d['results'] if r['target'] == '$t'][0]['crash_verdict']['summary'] == '2 of 2 crashes: 0 acknowledged writes lost'"
	assert_file "$T/ok.$t.journal"
done
assert_json "$T/ok.json" 'all(it["metrics"]["crash_checked"] == 64 and it["metrics"]["crash_intact"] == 64 for r in d["results"] for it in r["iterations"])'

t_case "sync end (UNSTABLE + COMMIT, SYNCHRONIZE CACHE): intact too"
run "$NB" run "$T/box.ini" -t nfs -t lun -w crashcheck -i 1 --sync end --crash-writes 50 --size 64K -o "$T/end.json"
assert_rc 0
assert_json "$T/end.json" 'all(r["iterations"][0]["crash"]["sync"] == "end" and r["iterations"][0]["metrics"]["crash_lost"] == 0 for r in d["results"])'

t_case "a CHAP password reaches neither the journal nor the result"
printf '[box]\ncrash = true\n[target chap]\nurl = %s\ndestroy-data = yes\n' "$NASBENCH_ISCSI_CHAP_URL" >"$T/chap.ini"
run "$NB" run "$T/chap.ini" -w crashcheck -i 1 --crash-writes 20 --size 64K -o "$T/chap.json"
assert_rc 0
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
	-w crashcheck -i 1 --crash-writes 77 --size 128K -o "$T/k.json" -q 2>"$T/k.err" &
pid=$!
hook_wait "$H" crash:1
kill -9 $pid
wait $pid 2>/dev/null
assert_no_file "$T/k.json"
[ "$(grep -c '^a ' "$T/k.journal")" = 77 ] || t_fail "the journal holds $(grep -c '^a ' "$T/k.journal") writes, not 77"
run "$NB" run "$T/manual.ini" --verify "$T/k.journal" -o "$T/v.json"
assert_rc 0
assert_json "$T/v.json" 'd["results"][0]["target"] == "lun" and d["results"][0]["iterations"][0]["crash"]["mode"] == "verify"'
# 77 writes over 32 locations: each location's last write is read back
assert_json "$T/v.json" 'd["results"][0]["iterations"][0]["metrics"]["crash_acked"] == 77 and d["results"][0]["iterations"][0]["metrics"]["crash_checked"] == 32 and d["results"][0]["iterations"][0]["metrics"]["crash_intact"] == 32' 'd["results"][0]["iterations"][0]["metrics"]'

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
