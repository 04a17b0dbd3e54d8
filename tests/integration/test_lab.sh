#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The lab (ci/lab, docs/lab.md): a zfs-fuse pool on HDD-throttled loop devices
# over NFS and iSCSI.  Bad input, the box's labels in the result, the
# crash check on a crashed box (sync honoured and disabled), zfs-fuse dying
# under a run, and a clean 'down'.  Nothing here is a timing: it runs side
# by side with the other files (tests/integration/schedule: 'lab', one lab
# file at a time).  The lab's figures (sync against async, the SLOG,
# raid10 against raidz1) are test_lab_figures.sh's, alone.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lablib.sh"

# ------------------------------------------------------------ bad input
t_case "unknown configuration or option: exit 2 with the list"
run "$LAB" up raidz9
assert_rc 2
assert_err "lab: unknown configuration 'raidz9' (known: raidz1, raidz2, raid10, single)"
assert_err "--compression C"
run "$LAB" up raidz1 --bogus
assert_rc 2
assert_err "lab: unknown option '--bogus' (known: --slog, --page-cache, --compression"
run "$LAB" up raid10 --disks 5
assert_rc 2
assert_err "lab: --disks '5': raid10 needs an even number (2-way mirrors)"
run "$LAB" up raidz1 --sync maybe
assert_rc 2
assert_err "lab: --sync 'maybe': not one of standard, disabled"
run "$LAB" crash
assert_rc 1
assert_err "lab: no lab is up in $NASBENCH_LAB_STATE"

t_case "not root, no /dev/fuse or loop devices: exit 2 naming what is missing"
# uid 65534 cannot enter a checkout under a 0700 directory (root's home, a
# mktemp -d): it runs a copy of ci/lab in a directory anyone may enter
PUB=$(mktemp -d /tmp/nblab-pub.XXXXXX)
chmod 755 "$PUB"
cp -r "$ROOT/ci/lab" "$ROOT/ci/lab.d" "$PUB/"
chmod -R a+rX "$PUB"
run setpriv --reuid 65534 --regid 65534 --clear-groups "$PUB/lab" up raidz1
rm -rf "$PUB"
assert_rc 2
assert_err "lab: needs root"
# a /dev without fuse and loop-control, in a private mount namespace
run unshare -m sh -c 'mount -t tmpfs nbdev /dev && mknod /dev/null c 1 3 && exec "$0" up raidz1' "$LAB"
assert_rc 2
assert_err "lab: missing: /dev/fuse (FUSE: modprobe fuse) /dev/loop-control (loop devices: modprobe loop)"

# ------------------------------------------------- raidz1 + SLOG, hdd disks
t_case "up raidz1 --slog: assignments, a box file, the labels in the result"
# the documented form, eval "$(ci/lab up ...)", returns: a daemon that kept
# the command substitution's pipe held the shell for ever.  In
# a shell of its own under timeout (longer than NASBENCH_LAB_WAIT and an
# up), so a hang fails the case (124) instead of holding the suite
run timeout $((NASBENCH_LAB_WAIT + 600)) bash -c 'eval "$("$0" up raidz1 --slog 2>/dev/null)" && echo "box=$NASBENCH_LAB_BOX"' "$LAB"
assert_rc 0
assert_out "box=$NASBENCH_LAB_STATE/box.ini"
up raidz1 --slog        # reused: its assignments again, into OUT
assert_err "is already up: reusing it"
assert_out "NASBENCH_LAB_NFS=nfs://198.18.14.2$NASBENCH_LAB_STATE/mnt/nfs"
assert_out "NASBENCH_LAB_ISCSI=iscsi://198.18.14.2:3260/iqn.2026-11.org.nasbench.lab:raidz1/1"
assert_out "NASBENCH_LAB_LABELS='layout=raidz1 disks=5x2G disk=hdd slog=ssd compression=off arc=64M sync=standard'"
assert_out "NASBENCH_LAB_POOL=nblab"
run "$NB" run "$NASBENCH_LAB_BOX" -w seq512k-write --size 8M --runtime 1s -i 1 -q -o "$T/labels.json"
assert_rc 0
assert_json "$T/labels.json" '[d["labels"][k] for k in ("layout","slog","disk","compression","arc")] == ["raidz1","ssd","hdd","off","64M"] and "media" not in d["labels"]'
assert_json "$T/labels.json" 'sorted(r["target"] for r in d["results"]) == ["lab-iscsi","lab-nfs"] and all(r["status"] == "ok" for r in d["results"])'
# the box file carries its monitor: a run on it watches the box over ssh
grep -qx "monitor             = ssh://root@198.18.14.2:2222" "$NASBENCH_LAB_BOX" ||
	t_fail "no monitor in the box file: $(grep -n monitor "$NASBENCH_LAB_BOX")"
assert_json "$T/labels.json" 'all(it["telemetry"]["source"] == "ssh://root@198.18.14.2:2222" for r in d["results"] for it in r["iterations"])' \
	'[it.get("telemetry", {}).get("source") for r in d["results"] for it in r["iterations"]], d["results"][0]["warnings"]'

t_case "up again: identical reuses, another exits 2"
run "$LAB" up raidz1 --slog
assert_rc 0
assert_err "is already up: reusing it"
NASBENCH_LAB_WAIT=0 run "$LAB" up raid10
assert_rc 2
assert_err "lab: another lab is up: 'raidz1 disks=5 disk=hdd slog=ssd"

# crashcheck (docs/crashcheck.md): the box crashed by 'ci/lab crash' beside
# the writers; its boot id read over the lab's SSH is the evidence on iSCSI
# (tgt gives every login a power-on UNIT ATTENTION), the write verifier on
# NFS.  ci/bench-crash does the slow crashes ('sleep 35; ci/lab crash').
crashbox() { # FILE COMMAND: the lab's box file with the crash command and the box's SSH
	sed "/^\[box\]/a crash = $2" \
		"$NASBENCH_LAB_BOX" >"$1"
	printf '[accept]\ncrashcheck@lab-nfs crash_lost = 0\ncrashcheck@lab-iscsi crash_lost = 0\n' >>"$1"
}
t_case "crashcheck, sync honoured: each crash observed, 0 promised-durable writes lost (NFS, iSCSI)"
crashbox "$T/crash.ini" "$LAB crash"
run "$NB" run "$T/crash.ini" -w crashcheck -i 1 --crash-writes 100 --size 256K -o "$T/crash.json"
assert_rc 0
assert_json "$T/crash.json" 'all(r["crash_verdict"]["observed"] == 1 and r["crash_verdict"]["lost"] == 0 and r["iterations"][0]["metrics"]["crash_checked"] == 64 and r["iterations"][0]["crash"]["hook"]["status"] == 0 for r in d["results"])' '[r.get("crash_verdict", r.get("reason")) for r in d["results"]]'
assert_json "$T/crash.json" '"the box'"'"'s boot id changed" in d["results"][1]["iterations"][0]["crash"]["evidence"]["how"] and "write verifier changed" in d["results"][0]["iterations"][0]["crash"]["evidence"]["how"]' '[r["iterations"][0]["crash"]["evidence"] for r in d["results"]]'
assert_json "$T/crash.json" 'd["accept"]["verdict"] == "pass"'
# the box is back: a new zfs-fuse, the pool imported
[ "$(zpool list -H -o health "$NASBENCH_LAB_POOL" 2>/dev/null)" = ONLINE ] ||
	t_fail "the pool is not ONLINE after the crashes: $(zpool list 2>&1)"

t_case "crashcheck, crash = true: no crash observed, accept fails as unmeasured"
crashbox "$T/nocrash.ini" true
run "$NB" run "$T/nocrash.ini" -w crashcheck -i 1 --crash-writes 50 --size 256K -o "$T/nocrash.json"
assert_rc 1
assert_json "$T/nocrash.json" 'all(r["crash_verdict"]["unproven"] == 1 and "crash_lost" not in r["iterations"][0]["metrics"] and "boot id unchanged" in r["iterations"][0]["crash"]["evidence"]["how"] for r in d["results"])' '[r.get("crash_verdict", r.get("reason")) for r in d["results"]]'
assert_json "$T/nocrash.json" 'all("unmeasured: no crash observed" in c["reason"] and c["reason"].endswith("nothing is proven about what a crash loses") for c in d["accept"]["criteria"])' 'd["accept"]'

t_case "zfs-fuse killed under a run: nasbench exits 3 naming the target; down cleans up"
"$NB" run "$NASBENCH_LAB_BOX" -t lab-nfs -w seq512k-write --monitor off --runtime 60s --size 64M -i 1 -q --timeout 10s \
	-o "$T/killed.json" >"$T/killed.out" 2>"$T/killed.err" &
nbpid=$!
# until the run writes its data file in the dataset (seen through the mount)
for _ in $(seq 600); do
	[ -n "$(find "$NASBENCH_LAB_DIR" -mindepth 2 -type f -size +1M 2>/dev/null)" ] && break
	sleep 0.1
done
pids=$(lab_pids)
kill -9 "$(cat "$NASBENCH_LAB_STATE/zfs.pid")"
wait "$nbpid"
RC=$? ERR=$(cat "$T/killed.err")
assert_rc 3
assert_err "lab-nfs"
run "$LAB" down
assert_rc 0
assert_gone "$pids"

t_case "crashcheck, --sync disabled: the crash loses promised-durable writes, accept fails"
up single --sync disabled
assert_out "sync=disabled'"
crashbox "$T/crash2.ini" "$LAB crash"
run "$NB" run "$T/crash2.ini" -w crashcheck -i 1 --crash-writes 100 --size 256K -o "$T/crash2.json"
assert_rc 1
assert_json "$T/crash2.json" 'all(r["crash_verdict"]["observed"] == 1 and r["crash_verdict"]["lost"] > 0 and r["crash_verdict"]["summary"].startswith("sync=disabled: ") for r in d["results"])' '[r.get("crash_verdict", r.get("reason")) for r in d["results"]]'
assert_json "$T/crash2.json" 'd["accept"]["verdict"] == "fail"'
run "$LAB" down
assert_rc 0

t_done
