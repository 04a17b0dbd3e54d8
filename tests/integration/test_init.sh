#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nasbench init: a box file written from what the testbox's NFS export, an
# empty LUN, a LUN holding an ext4 file system and an unreachable target
# answer, with the box (this machine, over an sshd of the test's own) asked
# for its memory; 'nasbench run' takes the file unchanged and the LUN with
# data is never written.  The refusals: nothing usable, a file that exists,
# an unknown question.
. "$(dirname "$0")/lib.sh"
: "${NASBENCH_NFS_URL:?run through tests/integration/run (the testbox)}"
: "${NASBENCH_ISCSI_TMPFS_URL:?} ${NASBENCH_ISCSI_EXT4_URL:?} ${NASBENCH_TESTBOX_DIR:?}"
EXT4=$(find "$NASBENCH_TESTBOX_DIR" -name ext4.img | head -1)
[ -f "$EXT4" ] || missing "the testbox's ext4 LUN file under $NASBENCH_TESTBOX_DIR"
# nobody answers iSCSI on a port of 127.0.0.1 just found free
DPORT=$(free_port)
DEAD=iscsi://127.0.0.1:$DPORT/iqn.2026-11.org.nasbench:none/1

sshd_prepare
cat "$S/id.pub" >"$S/authorized_keys"
sshd_start
MON=ssh://root@127.0.0.1:$PORT
RAM=$(awk '/^MemTotal:/ { print $2 * 1024 }' /proc/meminfo)

t_case "init probes each target and the box, and writes a commented box file"
sum_before=$(md5sum <"$EXT4")
run "$NB" init "data=$NASBENCH_NFS_URL" "lun=$NASBENCH_ISCSI_TMPFS_URL" \
	"used=$NASBENCH_ISCSI_EXT4_URL" "gone=$DEAD" --box "$MON" \
	--identity "$S/id" --known-hosts "$S/known_hosts" --name testbox \
	--for tune -o "$T/box.ini"
assert_rc 0
assert_out_re "^  box        $MON: reached, linux$" \
	"^  data       $NASBENCH_NFS_URL: writable, free [0-9.]+ [KMGT]iB$" \
	"^  lun        $NASBENCH_ISCSI_TMPFS_URL: 64 MiB, no data on it$"
assert_out "  used       $NASBENCH_ISCSI_EXT4_URL: NOT USED, it holds an ext2/3/4 file system (nothing written)" \
	"  gone       $DEAD: NOT USED, unreachable: target 'gone': cannot connect to '127.0.0.1:$DPORT': iscsi_service: socket error Connection refused(111)." \
	"wrote $T/box.ini (2 of 4 targets used, question: tune); next: nasbench run $T/box.ini"
F=$(cat "$T/box.ini")
for want in "[box]" "name = testbox" "monitor = $MON   ; reached: a linux box" \
	"monitor-identity = $S/id" "monitor-known-hosts = $S/known_hosts" \
	"[target data]" "url = $NASBENCH_NFS_URL" "[target lun]" \
	"url = $NASBENCH_ISCSI_TMPFS_URL" "; NOT USED: it holds an ext2/3/4 file system; writing to it would destroy that," \
	";[target used]" ";url = $NASBENCH_ISCSI_EXT4_URL" ";destroy-data = yes" \
	";[target gone]" "[suite]" "suite = io" "iterations = 5" \
	"; The question (--for tune): did my change make it faster or slower?" \
	";   nasbench compare before.json after.json"; do
	grep -qxF -- "$want" <<<"$F" || t_fail "the box file has no line '$want': $F"
done
grep -qE "^ram = [0-9.]+ [KMGT]iB   ; its memory" <<<"$F" || t_fail "no ram line: $F"
# the box's memory as the file says it, against /proc/meminfo (2 decimals)
said=$(sed -n 's/^ram = \([0-9.]*\) \([KMGT]\)iB .*/\1 \2/p' <<<"$F")
python3 - "$said" "$RAM" <<'PY' || t_fail "ram '$said' is not this machine's $RAM bytes"
import sys
v, u = sys.argv[1].split()
b = float(v) * 1024 ** "KMGT".index(u) * 1024
sys.exit(0 if abs(b - float(sys.argv[2])) / float(sys.argv[2]) < 0.01 else 1)
PY
grep -q "NOT USED: unreachable: target 'gone': cannot connect" <<<"$F" || t_fail "the unreachable target's cause is not in the file: $F"
[ "$(md5sum <"$EXT4")" = "$sum_before" ] || t_fail "init changed the ext4 LUN"

t_case "run takes the written file unchanged; the LUN with data is not written"
run "$NB" run "$T/box.ini" -w seq512k-write,rand4k-read --size 16M --runtime 300ms -i 1 -q -o "$T/r.json"
assert_rc 0
# the box it names is watched over the same ssh
assert_json "$T/r.json" 'all(it["telemetry"]["source"] == "'"$MON"'" for r in d["results"] for it in r["iterations"])' \
	'[r.get("warnings") for r in d["results"]]'
assert_json "$T/r.json" '[t["name"] for t in d["targets"]] == ["data", "lun"]' '[t["name"] for t in d["targets"]]'
assert_json "$T/r.json" 'all(r["status"] == "ok" for r in d["results"])' '[(r["target"], r["status"]) for r in d["results"]]'
[ "$(md5sum <"$EXT4")" = "$sum_before" ] || t_fail "the run changed the ext4 LUN"

t_case "a box that cannot be reached is said, in the file and on the terminal"
run "$NB" init "$NASBENCH_NFS_URL" --box "ssh://root@127.0.0.1:$(free_port)" \
	--identity "$S/id" --known-hosts "$S/known_hosts" -o "$T/nobox.ini"
assert_rc 0
assert_out_re "^  box        ssh://root@127\.0\.0\.1:[0-9]+: NOT REACHED: .*"
grep -q "^; monitor = ssh://root@127.0.0.1:[0-9]*$" "$T/nobox.ini" || t_fail "no commented monitor: $(cat "$T/nobox.ini")"
grep -q "^;   NOT REACHED: " "$T/nobox.ini" || t_fail "no cause for the box: $(cat "$T/nobox.ini")"

t_case "no target can be used: exit 3, nothing written"
run "$NB" init "$DEAD" "$NASBENCH_ISCSI_EXT4_URL" -o "$T/none.ini"
assert_rc 3
assert_err "nasbench: no target can be used: nothing written"
assert_no_file "$T/none.ini"
[ "$(md5sum <"$EXT4")" = "$sum_before" ] || t_fail "init changed the ext4 LUN"

t_case "a file that exists is not replaced without --force"
echo "mine" >"$T/exists.ini"
run "$NB" init "$NASBENCH_NFS_URL" -o "$T/exists.ini"
assert_rc 2
assert_err "nasbench: '$T/exists.ini' exists: nasbench init does not replace a file (--force does, or -o another)"
[ "$(cat "$T/exists.ini")" = mine ] || t_fail "the file was changed"
run "$NB" init "$NASBENCH_NFS_URL" -o "$T/exists.ini" --force --for gate
assert_rc 0
grep -qx "suite = quick" "$T/exists.ini" || t_fail "--force did not write the gate's file"
grep -q "^;   NASBENCH_LABELS=box=NAME sh examples/ci/nasbench-ci.sh $T/exists.ini$" "$T/exists.ini" ||
	t_fail "the gate's file does not name the CI recipe: $(cat "$T/exists.ini")"

t_case "usage errors: an unknown question, no target"
run "$NB" init "$NASBENCH_NFS_URL" --for bye -o "$T/q.ini"
assert_rc 2
assert_err "--for: 'bye' is not one of buy|tune|gate; did you mean 'buy'?"
run "$NB" init -o "$T/q.ini"
assert_rc 2
assert_err "nasbench: init needs a target"
assert_no_file "$T/q.ini"

t_done
