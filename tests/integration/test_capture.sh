#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nasbench capture (docs/capture.md): three loop devices of this test stand
# for three VMs' volumes under a known open-loop load (fio, poisson: 100,
# 200 and 50 IOPS of 8 KiB, 70% reads); captured locally and over ssh to
# an sshd of the test's own on 127.0.0.1 at the same time, each VM's
# IOPS, read share and request sizes are held against what fio issued.
# Refusals: bad options, no device matching, an ssh connection lost
# midway (the buckets so far kept, said), an interrupt, an edited load
# file with a mistake.  The lab's sshd and longer captures:
# ci/bench-capture.
. "$(dirname "$0")/lib.sh"

for p in fio losetup /usr/sbin/sshd ssh ssh-keygen; do
	command -v "$p" >/dev/null || { missing "$p (fio, mount, openssh-server, openssh-client)"; exit 1; }
done
[ "$(id -u)" = 0 ] || { missing "root (loop devices)"; exit 1; }

# ------------------------------------------------------------ refusals
t_case "a bad growth rate, bad times, a bad source: exit 2, naming the option"
run "$NB" capture --growth 25 -o "$T/x.ini"
assert_rc 2
assert_err "nasbench: --growth: invalid growth '25': expected a rate such as 25%/year or VMs a year such as 4vms/year (a number alone says neither)"
run "$NB" capture --growth -3%/year -o "$T/x.ini"
assert_rc 2
assert_err "nasbench: --growth: invalid growth '-3%/year': the rate must be above 0%/year"
run "$NB" capture --interval 10s --bucket 5s -o "$T/x.ini"
assert_rc 2
assert_err "nasbench: --bucket: a bucket (5s) is shorter than the interval (10s): a bucket holds samples"
run "$NB" capture --for 30s -o "$T/x.ini"
assert_rc 2
assert_err "nasbench: --for: '30s' is shorter than one bucket (1m)"
run "$NB" capture --interval 100ms -o "$T/x.ini"
assert_rc 2
assert_err "nasbench: --interval: '100ms' is out of range: 1 s to 3600 s"
run "$NB" capture nfs://nas/x -o "$T/x.ini"
assert_rc 2
assert_err "nasbench: 'nfs://nas/x' is not local or ssh://[user@]host[:port]"
run "$NB" capture --devics 'vg0/*'
assert_rc 2
assert_err "nasbench: unknown option '--devics'; did you mean '--devices'?"
assert_no_file "$T/x.ini"

t_case "no device matches the pattern: said, with what the box has; nothing written"
run "$NB" capture --devices 'nbtest-none*,vgX/*' --for 2s --interval 1s --bucket 1s -o "$T/x.ini"
assert_rc 2
assert_err "nasbench: no device of local matches 'nbtest-none*,vgX/*' (it has: "
assert_no_file "$T/x.ini"

t_case "an edited load file with a mistake: FILE:LINE, exit 2"
printf '[vm web]\ncount = 10\niops = 50\nread = 70\nbs_read = 8K\nbs_write = 8K\nsequental = 20\n' >"$T/mine.ini"
run "$NB" capture --show "$T/mine.ini"
assert_rc 2
assert_err "nasbench: $T/mine.ini:7: unknown key 'sequental' in [vm web]; did you mean 'sequential'?"
sed -i 's/sequental/sequential/' "$T/mine.ini"
run "$NB" capture --show "$T/mine.ini"
assert_rc 0
assert_out "population: 10 VMs; growth: none"

# ------------------------------------------------- three VMs under fio
DEVS=()
FIO=
# fio first (a failed case may leave it running), then the loop devices
stop_fio() { [ -n "$FIO" ] && kill $FIO 2>/dev/null && wait $FIO 2>/dev/null; FIO=; }
detach() { for d in "${DEVS[@]}"; do losetup -d "$d" 2>/dev/null; done; }
at_exit stop_fio
at_exit detach
for i in 1 2 3; do
	truncate -s 256M "$T/vm$i.img"
	DEVS+=("$(losetup -f --show "$T/vm$i.img")") || { missing "a loop device"; exit 1; }
done
NAMES=$(for d in "${DEVS[@]}"; do printf '%s,' "${d#/dev/}"; done)
NAMES=${NAMES%,}
# rate_iops is per direction: 70,30 is 100 I/Os a second, 70% reads
fio_job() {
	printf '[global]\nioengine=libaio\ndirect=1\nrw=randrw\nrwmixread=70\nbs=8k\niodepth=4\nrate_process=poisson\ntime_based=1\nruntime=%s\n' "$1"
	printf '[vm1]\nfilename=%s\nrate_iops=70,30\n[vm2]\nfilename=%s\nrate_iops=140,60\n[vm3]\nfilename=%s\nrate_iops=35,15\n' "${DEVS[@]}"
}

# An sshd of this test on 127.0.0.1 (keys made here): the box is this
# machine, reached as a NAS is.
sshd_prepare half
# the key 'half' reaches a box that answers telemetry's first question
# (uname -s: what it is) and refuses every other command
printf '#!/bin/sh\ncase $SSH_ORIGINAL_COMMAND in\n"uname -s;"*) exec sh -c "$SSH_ORIGINAL_COMMAND" ;;\nesac\necho "this box answers uname only" >&2\nexit 7\n' >"$S/half.sh"
chmod 755 "$S/half.sh"
{ cat "$S/id.pub"; echo "command=\"$S/half.sh\",no-pty $(cat "$S/half.pub")"; } >"$S/authorized_keys"
sshd_up() {
	: >"$S/sshd.log"
	/usr/sbin/sshd -D -f "$S/sshd_config" -E "$S/sshd.log" &
	SSHD=$!
	sshd_listening
}
# sshd_down: the listener and each connection's sshd (its children), by pid
sshd_down() {
	local kids
	kids=$(ps -o pid= --ppid "$SSHD" 2>/dev/null)
	kill $SSHD $kids 2>/dev/null
	wait $SSHD 2>/dev/null
	SSHD=
}
sshd_up
at_exit '[ -n "$SSHD" ] && sshd_down'
SSH=(ssh://root@127.0.0.1:$PORT --identity "$S/id" --known-hosts "$S/known_hosts")

t_case "a box that answers its first question but not what it has: exit 3, said why"
# the failure's detail survives the ssh connection's close (it said
# "nasbench: " and nothing more)
run "$NB" capture ssh://root@127.0.0.1:$PORT --identity "$S/half" --known-hosts "$S/known_hosts" \
	--devices "$NAMES" --for 10s --interval 1s --bucket 5s -o "$T/half.ini"
assert_rc 3
assert_err "nasbench: cannot ask ssh://root@127.0.0.1:$PORT what it has: " "this box answers uname only"
assert_no_file "$T/half.ini"

t_case "three VMs under a known load, captured locally and over ssh at once"
# fio runs until both captures are done (then an interrupt ends it, and its
# figures are over the time it ran); they begin once every device has
# done some I/O
fio_job 300 >"$T/job.fio"
fio --output-format=json --output="$T/fio.json" "$T/job.fio" >"$T/fio.out" 2>&1 &
FIO=$!
ios() { awk -v d="$1" '$3 == d { print $4 + $8 }' /proc/diskstats; }
for d in "${DEVS[@]}"; do
	n0=$(ios "${d#/dev/}")
	for _ in $(seq 600); do [ "$(ios "${d#/dev/}")" -ge $((n0 + 20)) ] && break; sleep 0.05; done
	[ "$(ios "${d#/dev/}")" -ge $((n0 + 20)) ] || t_fail "fio does no I/O on $d: $(cat "$T/fio.out")"
done
"$NB" capture "${SSH[@]}" --devices "$NAMES" --for 30s --interval 1s --bucket 5s -o "$T/ssh.ini" \
	>"$T/ssh.out" 2>"$T/ssh.err" &
SSHCAP=$!
run "$NB" capture --devices "$NAMES" --for 30s --interval 1s --bucket 5s -o "$T/local.ini"
assert_rc 0
wait $SSHCAP
SSHRC=$?
kill -INT $FIO
wait $FIO
FIO=
# fio says why it stopped before its JSON
sed -i -n '/^{/,$p' "$T/fio.json"
assert_err "capture: local (linux): $(tr , '\n' <<<"$NAMES" | sort -V | paste -sd, | sed 's/,/, /g') (--devices)" \
	"capture: bucket 6 of 6: " \
	"nasbench: warning: too short for a busiest-hour figure: 6 buckets of 5s captured, p95 needs at least 20; the file gives their mean"
[ "$SSHRC" = 0 ] || t_fail "the ssh capture exited $SSHRC: $(cat "$T/ssh.err")"
grep -qF "capture: ssh://root@127.0.0.1:$PORT (linux): " "$T/ssh.err" || t_fail "ssh capture: $(cat "$T/ssh.err")"
assert_file "$T/local.ini"
assert_file "$T/ssh.ini"
# each VM's captured figures against fio's: IOPS within 10%, read share
# within 5 points, request sizes within 10%; the total within 5%
check_capture() {
	python3 - "$1" "$T/fio.json" "${DEVS[@]}" <<'PY'
import json, re, sys
load, fio = sys.argv[1], json.load(open(sys.argv[2]))
devs = [d[5:] for d in sys.argv[3:]]
secs, cur = {}, None
for line in open(load):
    line = line.split(";")[0].strip()
    if line.startswith("["):
        cur = line[1:-1]; secs[cur] = {}
    elif "=" in line and cur:
        k, v = (x.strip() for x in line.split("=", 1)); secs[cur][k] = v
bad, tot_got, tot_want = [], 0, 0
for dev, job in zip(devs, fio["jobs"]):
    vm = secs["vm " + dev]
    r, w = job["read"]["iops"], job["write"]["iops"]
    want, got = r + w, float(vm["iops_mean"])
    tot_got += got; tot_want += want
    rs = 100 * r / want
    print(f"{dev}: IOPS {got:.1f} (fio {want:.1f}), read {float(vm['read']):.1f}% (fio {rs:.1f}%), "
          f"bs {vm['bs_read']}/{vm['bs_write']} (fio 8192)")
    if abs(got - want) > 0.10 * want: bad.append(f"{dev} IOPS {got} vs {want}")
    if abs(float(vm["read"]) - rs) > 5: bad.append(f"{dev} read {vm['read']} vs {rs}")
    for k in ("bs_read", "bs_write"):
        if abs(float(vm[k]) - 8192) > 819.2: bad.append(f"{dev} {k} {vm[k]}")
    if vm["sequential_from"] != "merges" or float(vm["sequential"]) > 5:
        bad.append(f"{dev} sequential {vm['sequential']} from {vm['sequential_from']} (random I/O)")
tot = float(secs["total"]["iops_mean"])
print(f"total: {tot:.1f} (fio {tot_want:.1f})")
if abs(tot - tot_want) > 0.05 * tot_want: bad.append(f"total {tot} vs {tot_want}")
if secs["capture"]["buckets"] != "6" or secs["capture"]["complete"] != "yes": bad.append("buckets/complete")
if bad:
    print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
}
out=$(check_capture "$T/local.ini" 2>&1) || t_fail "local capture: $out"
echo "$out" | sed 's/^/  local: /'
out=$(check_capture "$T/ssh.ini" 2>&1) || t_fail "ssh capture: $out"
echo "$out" | sed 's/^/  ssh:   /'
run "$NB" capture --show "$T/ssh.ini"
assert_rc 0
assert_out "IOPS: the mean; busy: p95 of 6 buckets of 5s; * assumed" "population: 3 VMs; growth: none"

t_case "the ssh connection lost midway: the buckets so far kept and said, exit 3"
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=capture-bucket-2 \
	"$NBT" capture "${SSH[@]}" --devices "$NAMES" --for 60s --interval 1s --bucket 2s \
	-o "$T/lost.ini" >"$T/lost.out" 2>"$T/lost.err" &
CAP=$!
if hook_wait "$H" capture-bucket-2; then
	sshd_down
	hook_go "$H" capture-bucket-2
fi
wait $CAP
RC=$?
[ "$RC" = 3 ] || t_fail "exit status $RC, expected 3: $(cat "$T/lost.err")"
grep -qE "nasbench: ssh://root@127.0.0.1:$PORT: the box stopped answering.* after [0-9]+ of 30 buckets; the [0-9]+ captured so far are in '$T/lost.ini'" "$T/lost.err" ||
	t_fail "not said: $(cat "$T/lost.err")"
assert_file "$T/lost.ini"
n=$(sed -n 's/^buckets *= \([0-9]*\).*/\1/p' "$T/lost.ini")
[ "${n:-0}" -ge 2 ] && [ "$n" -lt 30 ] || t_fail "$n buckets in the file, expected 2 or a few more"
grep -q '^complete *= no' "$T/lost.ini" || t_fail "not marked incomplete"
grep -q "^stopped *= the box stopped answering" "$T/lost.ini" || t_fail "no reason in the file"
run "$NB" capture --show "$T/lost.ini"
assert_rc 0
sshd_up

t_case "an interrupt: the buckets so far written, exit 130"
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=capture-bucket-2 \
	"$NBT" capture --devices "$NAMES" --for 60s --interval 1s --bucket 2s -q \
	-o "$T/int.ini" >"$T/int.out" 2>"$T/int.err" &
CAP=$!
hook_wait "$H" capture-bucket-2 && kill -INT $CAP
wait $CAP
RC=$?
[ "$RC" = 130 ] || t_fail "exit status $RC, expected 130: $(cat "$T/int.err")"
grep -qF "nasbench: interrupted after 2 of 30 buckets; the 2 captured so far are in '$T/int.ini'" "$T/int.err" ||
	t_fail "not said: $(cat "$T/int.err")"
grep -q '^buckets *= 2' "$T/int.ini" || t_fail "not 2 buckets: $(grep buckets "$T/int.ini")"
t_done
