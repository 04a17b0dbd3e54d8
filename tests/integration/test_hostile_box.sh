#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The box under test is not trusted (docs/security.md, "What the box
# says"): what it answers nasbench's telemetry, capture and failure walk
# is data, and a hostile or broken box costs a warning, a gap or a clear
# refusal, never a crash, a hang, a NaN in a file, a file nasbench's own
# reader refuses, or a command run.
#
# A box that answers so cannot be made for real: tests/support/hostile/ssh,
# first in PATH, stands in for the box's shell.  It runs what nasbench
# sends in a real /bin/sh, its /proc, /sys/block and tools answering from
# a scenario directory (recorded outputs of tests/golden/ and crafted
# ones: names that are not UTF-8 or hold '$(touch ...)', backticks, ';',
# counters that go back, jump, overflow or are not numbers, lines cut,
# without an end, CR LF, binary garbage, NULs, an answer without end, an
# ssh that exits 255).  nasbench and its runs are the real ones, on a
# scratch directory.  Each nasbench runs in a mount namespace of its own
# whose /tmp holds nothing but this test's directory: whatever it leaves
# there is counted (strays), as are files under the box's working
# directory (the canary: a name that ran would write there) and any
# 'pwned' file anywhere under the test's directory.  The telemetry and
# capture cases run once under valgrind (jansson's frees are invisible
# to ASan): no error, no definite leak.
. "$(dirname "$0")/lib.sh"

HOSTILE=$ROOT/tests/support/hostile
eval "lib_$(declare -f t_case)"
t_case() { echo "test_hostile_box: +${SECONDS}s $1" >&2; lib_t_case "$@"; }
G=$ROOT/tests/golden
for p in valgrind unshare python3 yes; do
	command -v "$p" >/dev/null || { missing "$p (valgrind, util-linux, python3, coreutils)"; exit 1; }
done
[ "$(id -u)" = 0 ] || { missing "root (a mount namespace a run)"; exit 1; }
export PATH=$HOSTILE:$PATH
MON=ssh://hostile
mkdir -p "$T/data"
# what the harness tried, for the closing count (docs/security.md)
TRIED=$T/tried
: >"$TRIED"
# tried PARSER N: N crafted inputs (names, numbers, lines) went to PARSER
tried() { echo "$2 $1" >>"$TRIED"; }

# box NAME: a fresh scenario directory, the box's shell's files (a Linux
# box, its counters moving: proc/stat/gen and proc/diskstats/gen are
# replaced by the cases that need others); the box's clock is this
# machine's (proc/uptime)
box() {
	B=$T/$1
	rm -rf "$B"
	mkdir -p "$B/proc/stat" "$B/proc/diskstats" "$B/cwd"
	cp "$G/telemetry/linux-meminfo" "$B/proc/meminfo"
	cp "$G/telemetry/linux-vmstat" "$B/proc/vmstat"
	ln -s /proc/uptime "$B/proc/uptime"
	gen "$B/proc/stat" 'printf "cpu0 %d 0 %d %d 0 0 0 0\n" $((10 * $1)) $((10 * $1)) $((20 * $1))'
	gen "$B/proc/diskstats" 'printf "   8 0 sda %d 0 %d 0 %d 0 %d 0 0 %d 0\n" $((100 * $1)) $((800 * $1)) $((50 * $1)) $((400 * $1)) $((90 * $1))'
	export NASBENCH_HOSTILE=$B
}
# gen DIR SCRIPT: DIR's content is SCRIPT's output, $1 the read (1, 2, ...)
gen() {
	mkdir -p "$1"
	printf '#!/bin/sh\n%s\n' "$2" >"$1/gen"
	chmod +x "$1/gen"
}

# ns CMD...: run CMD (as lib.sh's run: RC, OUT, ERR) from $T/work in a
# mount namespace whose /tmp is empty but for $T (and the tree, when it is
# under /tmp: a clone in CI); STRAYS is what it left in /tmp, CANARY what
# is in the box's working directory, PWNED any file a name made
mkdir -p "$T/work"
ns() {
	unshare -m bash -c '
		set -e
		T=$1 R=$2; shift 2
		mount --make-rprivate /
		mkdir -p "$T/.ns"
		mount -t tmpfs nbhostile "$T/.ns"
		mkdir -p "$T/.ns/${T#/tmp/}"
		mount --bind "$T" "$T/.ns/${T#/tmp/}"
		keep=
		case $R in /tmp/*)
			keep=${R#/tmp/} keep=${keep%%/*}
			mkdir -p "$T/.ns/${R#/tmp/}"
			mount --bind "$R" "$T/.ns/${R#/tmp/}" ;;
		esac
		mount --move "$T/.ns" /tmp
		set +e
		cd "$T/work"
		"$@" >"$T/.out" 2>"$T/.err"
		rc=$?
		find /tmp -mindepth 1 -maxdepth 1 ! -name "${T#/tmp/}" ! -name "${keep:-${T#/tmp/}}" >"$T/.strays"
		exit $rc' ns "$T" "$ROOT" "$@"
	RC=$?
	OUT=$(cat "$T/.out")
	ERR=$(cat "$T/.err")
	STRAYS=$(cat "$T/.strays")
	CANARY=$(ls -A "$B/cwd" 2>/dev/null)
	PWNED=$(find / -maxdepth 1 -name 'pwned*' 2>/dev/null; find "$T" "$ROOT" -name 'pwned*' 2>/dev/null)
}
# nothing written outside the run's own, nothing run by a name
assert_clean_box() {
	[ -z "$STRAYS" ] || t_fail "left in /tmp: $STRAYS"
	[ -z "$CANARY" ] || t_fail "written in the box's working directory: $CANARY"
	[ -z "$PWNED" ] || t_fail "a name ran a command: $PWNED"
	echo "strays=$(echo -n "$STRAYS" | grep -c .) canary=$(echo -n "$CANARY" | grep -c .) pwned=$(echo -n "$PWNED" | grep -c .)" >>"$T/clean"
}
# VG: valgrind memcheck as make check-deep runs it (its report in $T/vg.log)
VG=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
	--show-leak-kinds=definite --log-file="$T/vg.log")
# assert_vg: the last run under valgrind had no error, no definite leak
assert_vg() {
	local n
	n=$(grep -c "^==[0-9]*== [A-Z]" "$T/vg.log" 2>/dev/null)
	[ "$RC" != 99 ] && [ "${n:-0}" = 0 ] || t_fail "valgrind: exit $RC, $n reports: $(head -40 "$T/vg.log")"
	echo "valgrind errors=${n:-0}" >>"$T/clean"
}
# a run of one short iteration on the scratch directory, watched over MON
RUN=(run -t "local=$T/data" -w rand4k-read --size 1M --runtime 1s -i 1 --monitor "$MON"
	--monitor-interval 200ms -q)
# strict JSON: UTF-8 only, no NaN or Infinity (which nasbench's readers
# and every JSON reader but Python's refuse)
JSONOK='import json, sys
def refuse(c): raise ValueError("a non-number in the file: " + c)
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"), parse_constant=refuse)'

# ---------------------------------------------------------------- telemetry
t_case "telemetry: names not UTF-8, with a terminal's escapes, '\$(...)', backticks, ';'"
box names
printf '%s\n' $'caf\xe9' '$(touch${IFS}pwned1)' '`touch${IFS}pwned2`' ';touch${IFS}pwned3;' \
	$'\e]0;pwned\ax' >"$B/names"
gen "$B/proc/diskstats" 'while IFS= read -r d; do
	printf "   8 0 %s %d 0 8 0 %d 0 8 0 0 %d 0\n" "$d" $((100 * $1)) $((100 * $1)) $((50 * $1)); done <"$NASBENCH_HOSTILE/names"'
mkdir -p "$B/zpool" "$B/zfs"
printf 'pool alloc free read write read write\n$(touch${IFS}pwned4) 1G 1G 0 0 0 0\n  mirror 1G 1G 0 0 0 0\n    caf\351 - - 0 0 0 0\n    `touch${IFS}pwned2` - - 0 0 0 0\n' >"$B/zpool/iostat-v"
printf '$(touch${IFS}pwned4)\t/\n' >"$B/zfs/list"
tried "/proc/diskstats (telemetry)" 5
tried "zpool iostat -v (telemetry)" 3
tried "zfs list (telemetry)" 1
ns "${VG[@]}" "$NB" "${RUN[@]}" -o "$T/names.json"
assert_rc 0
assert_vg
assert_clean_box
python3 - "$T/names.json" <<PY || t_fail "the names' series"
$JSONOK
t = d["results"][0]["iterations"][0]["telemetry"]
n = t["summary"]["samples"]
disks = t["series"]["disk_busy_pct"]
want = {"caf\\\\xe9", "\$(touch\${IFS}pwned1)", "\`touch\${IFS}pwned2\`", ";touch\${IFS}pwned3;", "\\\\x1b]0;pwned\\\\x07x"}
assert set(disks) == want, sorted(disks)
assert all(len(s) == n for s in disks.values()), disks
assert set(t["summary"]["disk_busy_pct"]) == want, t["summary"]
assert t["vdevs"] == [{"pool": "\$(touch\${IFS}pwned4)", "vdev": "mirror-0", "disks": ["caf\\\\xe9", "\`touch\${IFS}pwned2\`"], "special": False}], t["vdevs"]
PY
# nasbench's own reader takes it (one iteration: inconclusive, exit 5)
run "$NB" compare "$T/names.json" "$T/names.json"
assert_rc 5

t_case "telemetry: counters that go back, jump past 2^64 / 10^15 ms, of 400 digits: gaps, said"
box counters
gen "$B/proc/stat" 'v=$((1000000 - 10 * $1)); printf "cpu0 %d 0 %d %d 0 0 0 0\n" $v $v $v'
rm "$B/proc/vmstat"
gen "$B/proc/vmstat" 'printf "pswpin 0\npswpout %d\n" $((1000000 - $1))'
BIG=$(printf '9%.0s' $(seq 400))
printf 'MemTotal: 1000 kB\nMemAvailable: %s kB\n' "$BIG" >"$B/proc/meminfo"
gen "$B/proc/diskstats" 'printf "   8 0 sda %d 0 8 0 1 0 8 0 0 %d 0\n" $((1000000 - $1)) $((1000000 - 10 * $1))
printf "   8 16 sdb %d 0 8 0 1 0 8 0 0 %d000000000000000 0\n" $((100 * $1)) $1
printf "   8 32 sdc '"$BIG"' 0 8 0 1 0 8 0 0 7 0\n"
printf "   8 48 sdd %d 0 8 0 1 0 8 0 0 %d 0\n" $((100 * $1)) $((50 * $1))'
tried "/proc/stat (telemetry)" 1
tried "/proc/vmstat (telemetry)" 1
tried "/proc/meminfo (telemetry)" 1
tried "/proc/diskstats (telemetry)" 3
ns "${VG[@]}" "$NB" "${RUN[@]}" -o "$T/counters.json"
assert_rc 0
assert_vg
assert_clean_box
python3 - "$T/counters.json" "$MON" <<PY || t_fail "the counters' gaps"
$JSONOK
import re
r = d["results"][0]
t = r["iterations"][0]["telemetry"]
n = t["summary"]["samples"]
s = t["series"]
w = [x for x in r["warnings"] if x.startswith("telemetry from")]
# per sample: cpu0, the pages swapped and sda went back, sdb jumped; the
# memory and sdc were not numbers
want = ("telemetry from '%s': gaps in the series (null where a sample was not read): "
        "counters that went back (the box restarted, or one wrapped): %d; counters that "
        "moved beyond what a box can do: %d; values that were not numbers a box gives: %d; "
        "the first: cpu0" % (sys.argv[2], 3 * n, n, 2 * n))
assert w == [want], (w, n)
for k in ("cpu_busy_max_pct", "cpu_busy_pct", "swap_io_pages", "mem_avail_bytes"):
    assert s[k] == [None] * n, (k, s[k])
assert s["disk_busy_pct"]["sda"] == [None] * n, s["disk_busy_pct"]
assert s["disk_busy_pct"]["sdb"] == [None] * n, s["disk_busy_pct"]
assert s["disk_busy_pct"]["sdc"] == [None] * n, s["disk_busy_pct"]
assert len(s["disk_busy_pct"]["sdd"]) == n and all(0 <= x <= 100 for x in s["disk_busy_pct"]["sdd"]), s
assert r["iterations"][0]["metrics"]["bw_bytes"] > 0
PY
run "$NB" compare "$T/counters.json" "$T/counters.json"
assert_rc 5

t_case "telemetry: CR LF, a line of 3000 bytes, binary garbage and NULs, a last line without its end"
box lines
python3 - "$B/proc/diskstats.txt" <<'PY'
import random, sys
random.seed(45)
garbage = bytes(random.randrange(256) for _ in range(300)).replace(b"\n", b"")
with open(sys.argv[1], "wb") as f:
    f.write(b"   8 0 sda 100 0 800 0 50 0 400 0 0 90 0\r\n")
    f.write(b"   8 16 sdz 1 0 8 0 1 0 8 0 0 7 0 " + b"0 " * 1500 + b"\n")
    f.write(b"\x00\xff\xfe" + garbage + b"\x00\n")
    f.write(b"   8 32 sdy 100 0 800 0 50 0 400 0 0 90 0\n")
    f.write(b"   8 48 sdx 10 0 8 0 5 0 4 0 0 9 0")
PY
rm -rf "$B/proc/diskstats"
mv "$B/proc/diskstats.txt" "$B/proc/diskstats"
tried "/proc/diskstats (telemetry)" 5
ns "$NB" "${RUN[@]}" -o "$T/lines.json"
assert_rc 0
assert_clean_box
python3 - "$T/lines.json" <<PY || t_fail "the lines read"
$JSONOK
t = d["results"][0]["iterations"][0]["telemetry"]
# the line too long refused whole (its first 1023 bytes would read as a
# disk); the lines after a NUL read
assert sorted(t["series"]["disk_busy_pct"]) == ["sda", "sdx", "sdy"], t["series"]["disk_busy_pct"]
PY

t_case "telemetry: an answer without end: cut at 16 MiB, said, the figures kept"
box endless
rm -rf "$B/proc/diskstats"
mkdir -p "$B/proc/diskstats"
echo "   8 0 sda 1 0 8 0 1 0 8 0 0 7 0 and so on" >"$B/proc/diskstats/forever"
tried "the answer (telemetry)" 1
ns "$NB" "${RUN[@]}" -o "$T/endless.json"
assert_rc 0
assert_clean_box
assert_json "$T/endless.json" '("telemetry from '"'$MON'"': its answer passed 16 MiB without an end: not read" in d["results"][0]["warnings"]
	and d["results"][0]["iterations"][0]["metrics"]["bw_bytes"] > 0)' 'd["results"][0]["warnings"]'

t_case "telemetry: an answer that never ends, slowly: bounded by the timeout, said"
box slow
rm -rf "$B/proc/diskstats"
mkdir -p "$B/proc/diskstats"
echo "   8 0 sda 1 0 8 0 1 0 8 0 0 7 0" >"$B/proc/diskstats/slow"
tried "the answer (telemetry)" 1
ns "$NB" "${RUN[@]}" -o "$T/slow.json"
assert_rc 0
assert_clean_box
assert_json "$T/slow.json" '("telemetry from '"'$MON'"': no answer within 10 s" in d["results"][0]["warnings"]
	and d["results"][0]["iterations"][0]["metrics"]["bw_bytes"] > 0)' 'd["results"][0]["warnings"]'

t_case "telemetry: ssh exits 255: a warning, the run goes on"
box refused
echo "ssh: connect to host hostile port 22: Connection refused" >"$B/ssh-refused"
tried "ssh (telemetry)" 1
ns "$NB" "${RUN[@]}" -o "$T/refused.json"
assert_rc 0
assert_clean_box
assert_json "$T/refused.json" '("telemetry from '"'$MON'"': ssh: connect to host hostile port 22: Connection refused; no telemetry, the run goes on" in d["results"][0]["warnings"]
	and d["results"][0]["iterations"][0]["metrics"]["bw_bytes"] > 0)' 'd["results"][0]["warnings"]'

# ---------------------------------------------------------------- capture
# cbox NAME: a box with LVM volumes (the capture's default pick)
cbox() {
	box "$1"
	rm -rf "$B/proc/diskstats"
	mkdir -p "$B/sys/block" "$B/zpool"
}
# lv NAME DM-NAME: a logical volume of 1 MiB named DM-NAME
lv() {
	mkdir -p "$B/sys/block/$1/dm"
	echo 2048 >"$B/sys/block/$1/size"
	printf '%s\n' "$2" >"$B/sys/block/$1/dm/name"
	echo "LVM-$RANDOM$RANDOM" >"$B/sys/block/$1/dm/uuid"
}
CAP=(capture "$MON" --for 3s --interval 1s --bucket 1s)

t_case "capture: names not UTF-8 and '\$(...)'; pools with a quote, '\$(...)', '-x' as zpool's arguments"
cbox cnames
lv dm-0 $'vg0-caf\xe9'
lv dm-1 'vg0-$(touch${IFS}pwned5)'
mkdir -p "$B/sys/block/\$(touch pwned6)"
echo 8 >"$B/sys/block/\$(touch pwned6)/size"
gen "$B/proc/diskstats" 'for d in dm-0 dm-1; do
	printf "   253 0 %s %d 0 %d 0 %d 0 %d 0 0 %d 0\n" "$d" $((100 * $1)) $((800 * $1)) $((50 * $1)) $((400 * $1)) $((90 * $1)); done'
printf 'tank\nit'"'"'s\n$(touch${IFS}pwned7)\n-x\n' >"$B/zpool/list"
gen "$B/zpool/iostat-v" 'printf "              capacity     operations     bandwidth\npool        alloc   free   read  write   read  write\n"
for p in tank "it'"'"'s" "\$(touch\${IFS}pwned7)"; do printf "%s 1G 1G 10 20 1M 2M\n" "$p"; done'
tried "/sys/block (capture)" 3
tried "zpool list (capture)" 4
tried "zpool iostat -v (capture)" 3
ns "${VG[@]}" "$NB" "${CAP[@]}" -o "$T/work/names.ini"
assert_rc 0
assert_vg
assert_clean_box
assert_err "nasbench: warning: the sequential share is assumed where the counters cannot tell it (FreeBSD, LVs, zvols, md: no merges counted); the pools' ZFS has no 'zpool iostat -r': no request-size histogram; 1 pool left out (a name that begins with '-' or is too long, or more than a script holds; the first: '-x')"
grep -qF "zpool [iostat] [-v] [tank] [it's] [\$(touch\${IFS}pwned7)] [1] [2]" "$B/args" ||
	t_fail "the pools were not zpool's arguments as the box named them: $(grep iostat "$B/args" | head -3)"
for s in '[vm vg0/caf\xe9]' '[vm vg0/$(touch${IFS}pwned5)]' "[pool it's]" '[pool $(touch${IFS}pwned7)]'; do
	grep -qxF "$s" "$T/work/names.ini" || t_fail "no '$s' in the load file: $(grep '^\[' "$T/work/names.ini")"
done
run "$NB" capture --show "$T/work/names.ini"
assert_rc 0
assert_out 'vg0/caf\xe9'

t_case "capture: counters that jump 2^50, go back, of 400 digits, not numbers: gaps said, a file --show reads"
cbox ccounters
for i in 0 1 2 3; do lv dm-$i vg0-vm$i; done
gen "$B/proc/diskstats" 'printf "   253 0 dm-0 %d 0 8 0 %d 0 8 0 0 1 0\n" $(($1 * 1125899906842624)) $1
printf "   253 1 dm-1 %d 0 8 0 %d 0 8 0 0 1 0\n" $((1000000 - $1)) $((1000000 - $1))
printf "   253 2 dm-2 '"$BIG"' 0 8 0 1 0 8 0 0 1 0\n"
printf "   253 3 dm-3 %d 0 %d 0 %d 0 %d 0 0 1 0\n" $((100 * $1)) $((800 * $1)) $((50 * $1)) $((400 * $1))'
mkdir -p "$B/proc/net/rpc"
gen "$B/proc/net/rpc/nfsd" 'printf "io %d 10\nproc3 22 0 1 0 0 0 0 %d 9 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n" $((1000000 - $1)) $((1000000 - $1))'
printf 'tank\n' >"$B/zpool/list"
printf 'pool alloc free read write read write\ntank 1G 1G 1e999 20 inf 2M\n' >"$B/zpool/iostat-v"
tried "/proc/diskstats (capture)" 3
tried "/proc/net/rpc/nfsd (capture)" 1
tried "zpool iostat -v (capture)" 2
ns "${VG[@]}" "$NB" "${CAP[@]}" -o "$T/work/counters.ini"
assert_rc 0
assert_vg
assert_clean_box
assert_err "spans left out of the buckets (each bucket's figures are over the seconds it saw): counters that went back (a device made anew, the box restarted, a counter wrapped): " \
	"; the first: device 'dm-"
grep -q "^gaps *= spans left out of the buckets" "$T/work/counters.ini" || t_fail "no gaps in the file: $(head -30 "$T/work/counters.ini")"
run "$NB" capture --show "$T/work/counters.ini"
assert_rc 0
python3 - "$T/work/counters.ini" <<'PY' || t_fail "figures beyond a box in the load file"
import math, re, sys
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.split(";")[0].strip()
    m = re.match(r"^(iops\w*|mbps\w*|ops\w*|\d+) *= *(.*)$", line)
    if not m:
        continue
    for x in m.group(2).split():
        if x == "-":
            continue
        v = float(x)
        assert math.isfinite(v) and 0 <= v <= 1e9, line
PY

t_case "capture: ssh exits 255: exit 3, said, nothing written"
cbox crefused
echo "ssh: connect to host hostile port 22: Connection refused" >"$B/ssh-refused"
tried "ssh (capture)" 1
ns "$NB" "${CAP[@]}" -o "$T/work/refused.ini"
assert_rc 3
assert_err "nasbench: cannot capture from 'ssh://hostile': ssh: connect to host hostile port 22: Connection refused"
assert_no_file "$T/work/refused.ini"
assert_clean_box

t_case "capture: an answer without end: exit 3, said, nothing written"
cbox cendless
lv dm-0 vg0-vm0
mkdir -p "$B/proc/diskstats"
echo "   253 0 dm-0 1 0 8 0 1 0 8 0 0 1 0 and so on" >"$B/proc/diskstats/forever"
tried "the answer (capture)" 1
ns "$NB" "${CAP[@]}" -o "$T/work/endless.ini"
assert_rc 3
assert_err "nasbench: the box stopped answering (its answer passed 16 MiB without an end) before a whole bucket was captured: nothing written"
assert_no_file "$T/work/endless.ini"
assert_clean_box

# ---------------------------------------------------------------- failure walk
# wbox FILE: a box file whose disk failing and replacing commands touch a
# file of the test's (never run in these cases)
wbox() {
	printf '[box]\nmonitor = %s\nmonitor-interval = 200ms\nfail-disk = touch %s/failed\nreplace-disk = touch %s/replaced\n[target local]\nurl = %s\n' \
		"$MON" "$T" "$T" "$T/data" >"$1"
}
WALK=(run "$T/walk.ini" -w rand4k-read --size 1M --runtime 1s -i 1 --rebuild load --fail-disks -q)

t_case "failure walk: a pool named not UTF-8, degraded, devices with a terminal's escapes: refused, nothing touched"
box wdegraded
mkdir -p "$B/zpool"
printf '  pool: t\351nk\r\n state: DEGRADED\r\n  scan: resilver in progress since Sun\n\t1e999T scanned at nanG/s, 12G issued at 1e30G/s\n\t12G resilvered (, 1e30%% done, 99999999999 days 01:00:00 to go\nconfig:\n\n\tNAME STATE READ WRITE CKSUM\n\tt\351nk DEGRADED 0 0 0\n\t  \033]0;pwned\007 ONLINE 1e999 0 nan\n\t  sdb UNAVAIL 0 0 0\nerrors: No known data errors\n' >"$B/zpool/status"
wbox "$T/walk.ini"
tried "zpool status (failure walk)" 10
ns "$NB" "${WALK[@]}" -o "$T/work/walk.json"
assert_rc 3
assert_err "nasbench: pool 't\\xe9nk' is DEGRADED, its resilver before the walk: a disk is failed only in a healthy pool; nothing was touched"
assert_no_file "$T/failed"
assert_no_file "$T/work/walk.json"
assert_clean_box

t_case "failure walk: pools named '\$(...)' and not UTF-8, md arrays garbled: said as they are named, nothing touched"
box wpools
mkdir -p "$B/zpool"
printf '  pool: $(touch${IFS}pwned8)\n state: ONLINE\n  scan: none requested\nconfig:\n\n\tNAME STATE READ WRITE CKSUM\n\t$(touch${IFS}pwned8) ONLINE 0 0 0\n\t  `touch${IFS}pwned9` ONLINE 0 0 0\n  pool: t\351nk\n state: ONLINE\n' >"$B/zpool/status"
printf 'md\3770 : active raid1 s\351b[1] sdc[0]\n      100 blocks [2/2] [UU]\n      [=>...]  recovery = nan%% (1/2) finish=infmin speed=1e30K/sec\n\nmd1 : active' >"$B/proc/mdstat"
wbox "$T/walk.ini"
tried "zpool status (failure walk)" 3
tried "/proc/mdstat (failure walk)" 6
ns "$NB" "${WALK[@]}" -o "$T/work/walk.json"
assert_rc 2
assert_err "nasbench: the box has the pools '\$(touch\${IFS}pwned8)', 't\\xe9nk', 'md\\xff0', 'md1': name the one whose disk fails with [failure] pool (--fail-pool); nothing was touched"
assert_no_file "$T/failed"
assert_clean_box

t_case "failure walk: the rebuild read from lines beyond any box and a bracket never closed: null, not absurd"
box wrebuild
mkdir -p "$B/zpool"
echo "the pool as the fail and replace commands left it: zpool/status.sh" >"$B/zpool/status"
{
	printf '#!/bin/sh\nT=%s\n' "$T"
	cat <<'SH'
cfg() { printf 'config:\n\n\tNAME STATE READ WRITE CKSUM\n\ttank %s 0 0 0\n\t  mirror-0 %s 0 0 0\n\t    sda ONLINE 0 0 0\n\t    sdb %s 1e999 0 nan\n\nerrors: No known data errors\n' "$@"; }
if [ -e "$T/replaced" ]; then
	n=0
	[ -f "$T/reads" ] && read -r n <"$T/reads"
	echo $((n + 1)) >"$T/reads"
	if [ "$n" -lt 3 ]; then
		printf '  pool: tank\n state: DEGRADED\n  scan: resilver in progress since Sun\n\t1e999T scanned at nanG/s, 12G issued at 1e30G/s\n\t12G resilvered, 1e30%% done, 99999999999 days 01:00:00 to go\n'
		cfg DEGRADED DEGRADED ONLINE
	else
		printf '  pool: tank\n state: ONLINE\n  scan: resilvered (12G in 00:00:03 with 0 errors on Sun\n'
		cfg ONLINE ONLINE ONLINE
	fi
elif [ -e "$T/failed" ]; then
	printf '  pool: tank\n state: DEGRADED\n  scan: none requested\n'
	cfg DEGRADED DEGRADED UNAVAIL
else
	printf '  pool: tank\n state: ONLINE\n  scan: none requested\n'
	cfg ONLINE ONLINE ONLINE
fi
SH
} >"$B/zpool/status.sh"
chmod +x "$B/zpool/status.sh"
rm -f "$T/failed" "$T/replaced" "$T/reads"
wbox "$T/walk.ini"
echo "[failure]" >>"$T/walk.ini"
echo "records = 1M" >>"$T/walk.ini"
tried "zpool status (failure walk)" 8
ns "$NB" run "$T/walk.ini" -w rand4k-read --size 1M --runtime 1s -i 1 --rebuild idle --fail-disks -q -o "$T/work/rebuild.json"
assert_rc 0
assert_clean_box
python3 - "$T/work/rebuild.json" <<PY || t_fail "the rebuild's figures"
$JSONOK
f = d["failure"]
tl = f["timeline"]
# a share past 100%, a rate of 10^39 B/s, 10^14 s to go: not said
assert all(x is None or 0 <= x <= 100 for x in tl["pct"]), tl["pct"]
assert all(x is None for x in tl["rate_bytes"]), tl["rate_bytes"]
assert all(x is None for x in tl["eta_s"]), tl["eta_s"]
assert "resilver" in tl["scan"] and f["complete"], f
# "resilvered (12G in ...": the bracket never closed, no bytes said; the time is
assert "bytes" not in f["rebuild"] and f["rebuild"]["box_seconds"] == 3.0, f["rebuild"]
# a device's error counter of 1e999 is none: the counters are there
assert f["failed"] == [{"name": "sdb", "state": "UNAVAIL"}], f["failed"]
assert f["counters"]["read"] == 0 and f["counters"]["cksum"] == 0, f["counters"]
PY

# ---------------------------------------------------------------- counts
python3 - "$TRIED" "$T/clean" <<'PY'
import collections, re, sys
per = collections.Counter()
for line in open(sys.argv[1]):
    n, parser = line.rstrip("\n").split(" ", 1)
    per[parser] += int(n)
clean = open(sys.argv[2]).read()
def total(k):
    return sum(int(x) for x in re.findall(k + r"=(\d+)", clean))
print("test_hostile_box: crafted inputs: " + ", ".join(f"{p} {n}" for p, n in sorted(per.items())))
print(f"test_hostile_box: {len(re.findall('strays=', clean))} runs, {len(re.findall('valgrind errors=', clean))} "
      f"under valgrind: valgrind errors {total('valgrind errors')}; files left outside the runs' own "
      f"{total('strays')}; written by the box's shell {total('canary')}; made by a name {total('pwned')}")
PY
t_done
