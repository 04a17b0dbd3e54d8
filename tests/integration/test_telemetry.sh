#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The box's telemetry (docs/telemetry.md): local sampling in the result,
# bad monitors refused, the SSH path against a real sshd of the test's own
# on 127.0.0.1 (one connection a run, a host key mismatch, a box with
# neither Linux nor FreeBSD tools, a closed port), the memory verdict from
# a memory hog started at a known point, accept and compare on the box's
# figures, the network baseline on the testbox's NFS and iSCSI targets.
# The lab's verdicts (slow disk, ARC, gzip, a shaped link) are
# ci/bench-telemetry's: they take minutes.
. "$(dirname "$0")/lib.sh"

D=$T/box
mkdir -p "$D"
J() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
for p in /usr/sbin/sshd ssh ssh-keygen "$TOOLS/memhog"; do
	command -v "$p" >/dev/null || { missing "$p (openssh-server, openssh-client; make test-build)"; exit 1; }
done

# ---------------------------------------------------------------- local
t_case "local telemetry: a series per iteration, aligned, and its summary"
run "$NB" run -t "local=$D" -w seq512k-write --size 32M --runtime 300ms -i 2 --monitor-interval 200ms -q -o "$T/local.json"
assert_rc 0
assert_json "$T/local.json" '(all(it["telemetry"]["source"] == "local" and it["telemetry"]["os"] == "linux"
	for it in d["results"][0]["iterations"]) and len(d["results"][0]["iterations"]) == 2)' \
	'd["results"][0]["iterations"][0].get("telemetry")'
assert_json "$T/local.json" '(all(len(s) == len(it["telemetry"]["series"]["t_ms"]) == it["telemetry"]["summary"]["samples"] >= 1
	for it in d["results"][0]["iterations"] for k, s in it["telemetry"]["series"].items() if k != "disk_busy_pct"))'
assert_json "$T/local.json" '(all(0 <= it["telemetry"]["io_offset_ms"] < 60000 and
	0 < it["telemetry"]["summary"]["mem_avail_min_bytes"] <= it["telemetry"]["summary"]["mem_total_bytes"] and
	0 <= it["metrics"]["box_cpu_max_pct"] <= 100 and it["metrics"]["box_swapped_bytes"] >= 0
	for it in d["results"][0]["iterations"]))' 'd["results"][0]["iterations"][0]["telemetry"]["summary"]'

t_case "a core kept busy: CPU-bound, this machine's on a local target, the box's on NFS"
# a shell spinning on core 0 (pinned: it does not wander between cores)
# makes this machine's busiest core 100% busy for the run, as a client
# that keeps a core busy does (the verdict's words: on a
# local target the box is this machine)
taskset -c 0 bash -c 'while :; do :; done' &
SPIN=$!
at_exit "kill $SPIN 2>/dev/null"
run "$NB" run -t "local=$D" -w rand4k-read --size 16M --runtime 2s -i 1 -q -o "$T/cpu.json"
assert_rc 0
assert_json "$T/cpu.json" '[w for w in result(d, "rand4k-read")["warnings"] if "CPU-bound" in w]' \
	'result(d, "rand4k-read")["warnings"]'
python3 - "$T/cpu.json" <<'PY' || t_fail "the local CPU verdict's words"
import json, re, sys
w = [x for x in json.load(open(sys.argv[1]))["results"][0]["warnings"] if "CPU-bound" in x]
assert len(w) == 1, w
# which of the two endings depends on nasbench's own CPU beside the
# spinning shell (half a core or more: it set the figure; less: the
# other work did); both name this machine
head = (r"this machine was CPU-bound during rand4k-read iteration 1: its busiest core was "
        r"\d+% busy at the median second \(peak \d+%, cpu\d+\); the target is local, ")
split = r"nasbench used \d+% of a core in user space and \d+% in the kernel"
assert (re.fullmatch(head + r"so nasbench's threads and the kernel, not the disks, set the "
                     r"figure \(" + split + r"\)", w[0]) or
        re.fullmatch(head + r"and " + split + r": other work on this machine kept its cores "
                     r"busy and set the figure, not the disks", w[0])), w[0]
print(w[0])
PY
if [ -n "${NASBENCH_NFS_URL:-}" ]; then
	run "$NB" run -t "nfs=$NASBENCH_NFS_URL" -w rand4k-read --size 16M --runtime 2s -i 1 \
		--monitor local --netbase no -q -o "$T/cpu-nfs.json"
	assert_rc 0
	assert_json "$T/cpu-nfs.json" '[w for w in result(d, "rand4k-read")["warnings"] if w.startswith("the box was CPU-bound during rand4k-read iteration 1: its busiest core was ") and w.endswith("; compression, checksums or the file server'"'"'s threads, not the disks, set the figure")]' \
		'result(d, "rand4k-read")["warnings"]'
else
	missing "NASBENCH_NFS_URL (the testbox) for the NFS half"
fi
kill $SPIN 2>/dev/null; wait $SPIN 2>/dev/null

t_case "--monitor off: no telemetry, the same figures"
run "$NB" run -t "local=$D" -w seq512k-write --size 16M --runtime 300ms -i 1 --monitor off -q -o "$T/off.json"
assert_rc 0
assert_json "$T/off.json" '("telemetry" not in d["results"][0]["iterations"][0] and
	not any(k.startswith("box_") for k in d["results"][0]["iterations"][0]["metrics"]) and
	d["results"][0]["iterations"][0]["metrics"]["bw_bytes"] > 0)'

t_case "a bad monitor is refused, a password never echoed"
run "$NB" run -t "local=$D" -w seq512k-write --monitor 'ssh://root:secret@nas' -o "$T/bad.json"
assert_rc 2
assert_err "nasbench: --monitor: a password in the URL is refused; use a key or an agent"
grep -q secret <<<"$ERR" && t_fail "the password was echoed: $ERR"
assert_no_file "$T/bad.json"
printf '[box]\nmonitor = ftp://nas\n[target a]\nurl = %s\n' "$D" >"$T/bad.ini"
run "$NB" run "$T/bad.ini" -w seq512k-write -o "$T/bad.json"
assert_rc 2
assert_err "$T/bad.ini:2: 'monitor' in [box]: 'ftp://nas' is not auto, local, off or ssh://[user@]host[:port]"
run "$NB" run -t "local=$D" -w seq512k-write --monitor 'ssh://nas:99999' -o "$T/bad.json"
assert_rc 2
assert_err "nasbench: --monitor: 'ssh://nas:99999': bad port"

# ---------------------------------------------------------------- ssh
# An sshd of this test on 127.0.0.1 (keys made here): the box is this
# machine, reached as a NAS is.
sshd_prepare unknown other
{ cat "$S/id.pub"; echo "command=\"echo SunOS\",no-pty $(cat "$S/unknown.pub")"; } >"$S/authorized_keys"
echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$S/other.pub")" >"$S/known_hosts_wrong"
sshd_start
MON=ssh://root@127.0.0.1:$PORT
# box KEY KNOWN_HOSTS: a box file watched over ssh
box() {
	printf '[box]\nmonitor = %s\nmonitor-identity = %s\nmonitor-known-hosts = %s\nmonitor-interval = 300ms\n[target local]\nurl = %s\n' \
		"$MON" "$1" "$2" "$D" >"$T/ssh.ini"
}

t_case "over ssh: the box's counters, one connection for the run"
box "$S/id" "$S/known_hosts"
before=$(grep -c "Connection from 127.0.0.1" "$S/sshd.log")
socks_before=$(ls -d /tmp/nb-ssh.* 2>/dev/null)
run "$NB" run "$T/ssh.ini" -w seq512k-write,seq512k-read --size 32M --runtime 300ms -i 2 -q -o "$T/ssh.json"
assert_rc 0
assert_json "$T/ssh.json" '(all(it["telemetry"]["source"] == "'"$MON"'" and it["telemetry"]["os"] == "linux"
	and it["telemetry"]["summary"]["samples"] >= 1 for r in d["results"] for it in r["iterations"]))' \
	'[r.get("warnings") for r in d["results"]]'
after=$(grep -c "Connection from 127.0.0.1" "$S/sshd.log")
[ $((after - before)) -eq 1 ] || t_fail "$((after - before)) ssh connections for one run, expected 1"
# a socket left is a master ssh left running (ssh removes the socket as
# its master exits); ours would hold a connection to this test's sshd:
# another run on the machine (a file beside this one in make check) has
# sockets of its own meanwhile
for d in $(ls -d /tmp/nb-ssh.* 2>/dev/null); do
	grep -qxF "$d" <<<"$socks_before" && continue
	[ -S "$d/ctl" ] || continue
	m=$(ssh -O check -o ControlPath="$d/ctl" nbtest 2>&1 | sed -n 's/.*(pid=\([0-9]*\)).*/\1/p')
	[ -n "$m" ] && ss -Htnp "( dport = :$PORT )" | grep -q "pid=$m," &&
		t_fail "a control socket left: $d (its master ssh, pid $m, still connected)"
done

t_case "a host key mismatch: a warning, the figures kept"
box "$S/id" "$S/known_hosts_wrong"
run "$NB" run "$T/ssh.ini" -w seq512k-write --size 16M --runtime 300ms -i 1 -q -o "$T/wrong.json"
assert_rc 0
assert_json "$T/wrong.json" '("telemetry from '"'$MON'"': its host key is not the one known_hosts holds (ssh: Host key verification failed): check the key; nasbench never accepts a changed one; no telemetry, the run goes on" in d["results"][0]["warnings"]
	and d["results"][0]["iterations"][0]["metrics"]["bw_bytes"] > 0)' 'd["results"][0]["warnings"]'

t_case "a box with neither Linux nor FreeBSD tools: a warning"
box "$S/unknown" "$S/known_hosts"
run "$NB" run "$T/ssh.ini" -w seq512k-write --size 16M --runtime 300ms -i 1 -q -o "$T/unknown.json"
assert_rc 0
assert_json "$T/unknown.json" '("telemetry from '"'$MON'"': the box says it is '"'SunOS'"' (uname -s) and has neither Linux'"'"'s /proc nor FreeBSD'"'"'s sysctl counters: no telemetry" in d["results"][0]["warnings"]
	and d["results"][0]["iterations"][0]["metrics"]["bw_bytes"] > 0)' 'd["results"][0]["warnings"]'

t_case "nobody listening: a warning, the figures kept"
run "$NB" run -t "local=$D" -w seq512k-write --size 16M --runtime 300ms -i 1 --monitor ssh://root@127.0.0.1:1 -q -o "$T/closed.json"
assert_rc 0
assert_json "$T/closed.json" '("telemetry from '"'ssh://root@127.0.0.1:1'"': ssh: connect to host 127.0.0.1 port 1: Connection refused; no telemetry, the run goes on" in d["results"][0]["warnings"]
	and d["results"][0]["iterations"][0]["metrics"]["bw_bytes"] > 0)' 'd["results"][0]["warnings"]'

# ---------------------------------------------------------------- memory
t_case "a memory hog during iteration 2: its telemetry, not the others', sees it"
# 1 GiB, taken while the run stands at the start of iteration 2 (the
# sampler runs): a short version of ci/bench-telemetry's, which takes
# most of the machine's memory for the memory verdict (minutes in a VM)
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=start:seq512k-write:2,start:seq512k-write:3 \
	"$NBT" run -t "local=$D" -w seq512k-write --size 16M --runtime 300ms -i 3 --monitor-interval 200ms -q \
	-o "$T/hog.json" 2>"$T/hog.err" &
RUNPID=$!
if hook_wait "$H" start:seq512k-write:2; then
	"$TOOLS/memhog" 4 "$T/hog.ready" 1024 &
	HOG=$!
	at_exit "kill $HOG 2>/dev/null"
	for _ in $(seq 1200); do [ -s "$T/hog.ready" ] && break; sleep 0.05; done
	hook_go "$H" start:seq512k-write:2
	hook_wait "$H" start:seq512k-write:3
	kill "$HOG"; wait "$HOG" 2>/dev/null
	hook_go "$H" start:seq512k-write:3
fi
wait "$RUNPID"
RC=$?
ERR=$(cat "$T/hog.err")
assert_rc 0
assert_json "$T/hog.json" '[(s["mem_avail_start_bytes"] - s["mem_avail_min_bytes"]) > 700 << 20
	for s in (it["telemetry"]["summary"] for it in d["results"][0]["iterations"])] == [False, True, False]' \
	'(open("'"$T/hog.ready"'").read(), [(s["mem_avail_start_bytes"] - s["mem_avail_min_bytes"]) >> 20
	for s in (it["telemetry"]["summary"] for it in d["results"][0]["iterations"])])'

t_case "accept and compare read the box's figures"
printf 'seq512k-write@local max_swap_used = 0\nseq512k-write@local box_mem_avail_min_pct >= 5\n' >"$T/accept.txt"
run "$NB" run -t "local=$D" -w seq512k-write --size 16M --runtime 300ms -i 1 --accept "$T/accept.txt" -q -o "$T/acc.json"
assert_rc 0
run "$NB" run -t "local=$D" -w seq512k-write --size 16M --runtime 300ms -i 1 --accept "$T/accept.txt" --monitor off -q -o "$T/acc-off.json"
assert_rc 1
# base without telemetry, new with it: no lost figure, and the new run's
# verdicts (this loaded machine's CPU, if any) beside the comparison
run "$NB" compare "$T/off.json" "$T/acc.json"
assert_rc 5            # one run each side: inconclusive, never a regression
python3 - "$T/acc.json" "$OUT" <<'PY' || t_fail "compare does not show the new run's box verdicts: $OUT"
import json, sys
d = json.load(open(sys.argv[1]))
for v in d["results"][0].get("box_verdicts", []):
    assert "warning: local/seq512k-write (new): " + v["text"] in sys.argv[2], v
PY

# ---------------------------------------------------------------- network
t_case "the network baseline of NFS and iSCSI targets"
run "$NB" run -t "nfs=$NASBENCH_NFS_URL" -t "iscsi=$NASBENCH_ISCSI_URL" -w seq512k-read --size 16M --runtime 300ms -i 1 \
	--netbase yes -q -o "$T/net.json"
assert_rc 0
assert_json "$T/net.json" '([(t["name"], t["network"]["rtt_how"]) for t in d["targets"]] == [("nfs", "nfs-null"), ("iscsi", "iscsi-nop")]
	and all(0 < t["network"]["rtt_min_us"] <= t["network"]["rtt_us"] < 1e6 and t["network"]["ceiling_bytes"] > 1e6
	for t in d["targets"]))' 'd["targets"]'
run "$NB" run -t "nfs=$NASBENCH_NFS_URL" -w seq512k-read --size 16M --runtime 300ms -i 1 -q -o "$T/nonet.json"
assert_rc 0
assert_json "$T/nonet.json" '"network" not in d["targets"][0]'

t_done
