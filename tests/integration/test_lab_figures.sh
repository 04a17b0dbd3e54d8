#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The lab's figures (ci/lab, docs/lab.md): the seed's effects in shape on a
# zfs-fuse pool of HDD-throttled loop devices, over NFS; then a 'down'
# that leaves nothing behind.  Timing: it runs alone
# (tests/integration/schedule); the lab's other cases are test_lab.sh's.
#
# The effects are figures of a shared 2-core machine, so each is measured
# where it is strong and compared as medians of rounds taken alternately:
#  * sync vs async at queue depth 1 (each sync write waits for its own ZIL
#    commit: 5 disks written and flushed; at depth 16 commits are batched
#    and the gap shrinks to noise here).  Measured ratios 0.19-0.44, median
#    ~0.3, with load averages of 13-18 on 2 cores: asserted < 0.5.
#  * SLOG on vs off, toggled on one pool (zpool remove / add of the log
#    device, same disks, same data) at depth 1: measured 4.2-7.1x (medians
#    of 5 rounds, six runs); asserted >= 2x.  (With the SLOG on this
#    machine's disk rather than a tmpfs it was 1.4-2.3x: its flush cost
#    about what the pool's own ZIL writes cost.)
#  Each measurement starts after a transaction group sync: without it the
#  previous run's data, still being written, halved the next figure.
#  * rand4k-read raid10 (2x2) vs raidz1 (5), data set 4x the ARC and no box
#    page cache: measured 685-837 vs 212-250 IOPS; asserted > 1.5x.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lablib.sh"
# the client measuring the lab has a CPU of its own too, as the lab's NAS
# has (LAB_NICE in ci/lab): another make check beside does not slow it
NICE=-20
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# bw WORKLOAD EXTRA...: MB/s of one iteration on the lab's NFS target (the
# box file's monitor off: these measure the disks, as before it had one)
bw() {
	local w=$1
	shift
	nice -n "$NICE" "$NB" run "$NASBENCH_LAB_BOX" -t lab-nfs -w "$w" -i 1 -q --monitor off -o "$T/bw.json" "$@" 2>"$T/bw.err" ||
		{ t_fail "$w $*: $(cat "$T/bw.err")"; echo 0; return; }
	J "$T/bw.json" 'result(d, "'"$w"'")["summary"]["bw_bytes"]["median"] / 1e6'
}
iops() {
	nice -n "$NICE" "$NB" run "$NASBENCH_LAB_BOX" -t lab-nfs -w rand4k-read -i 1 -q --monitor off -o "$T/iops.json" "$@" 2>"$T/iops.err" ||
		{ t_fail "rand4k-read: $(cat "$T/iops.err")"; echo 0; return; }
	J "$T/iops.json" 'result(d, "rand4k-read")["summary"]["iops"]["median"]'
}

# ------------------------------------------------- raidz1 + SLOG, hdd disks
t_case "up raidz1 --slog"
up raidz1 --slog
assert_out "NASBENCH_LAB_LABELS='layout=raidz1 disks=5x2G disk=hdd slog=ssd compression=off arc=64M sync=standard'"

t_case "NFS on hdd raidz1: sync writes below half of async; a SLOG at least doubles them"
slog=$(awk '$1 == "slog" { print $2 }' "$NASBENCH_LAB_STATE/loops")
: >"$T/async"; : >"$T/sync"; : >"$T/slog"
# each measurement starts with the previous one's data on the disks (a
# snapshot waits for the open transaction group to be written); 56 MiB at
# queue depth 1: 112 writes, the 100 samples a figure needs and a margin
settle() { zfs snapshot "$NASBENCH_LAB_POOL/nfs@settle" && zfs destroy "$NASBENCH_LAB_POOL/nfs@settle"; }
for r in 1 2 3 4 5; do
	zpool remove "$NASBENCH_LAB_POOL" "$slog"
	settle; bw seq512k-write --iodepth 1 --size 56M >>"$T/async"
	settle; bw seq512k-write-sync --iodepth 1 --size 56M >>"$T/sync"
	zpool add -f "$NASBENCH_LAB_POOL" log "$slog" >/dev/null 2>&1
	settle; bw seq512k-write-sync --iodepth 1 --size 56M >>"$T/slog"
done
a=$(median <"$T/async") s=$(median <"$T/sync") g=$(median <"$T/slog")
echo "test_lab_figures: raidz1 hdd NFS qd1 MB/s medians: write $a, write-sync $s, write-sync + SLOG $g" \
     "(rounds: $(paste -sd/ "$T/async"), $(paste -sd/ "$T/sync"), $(paste -sd/ "$T/slog"))" >&2
awk -v a="$a" -v s="$s" 'BEGIN { exit !(s > 0 && s < a / 2) }' ||
	t_fail "write-sync $s MB/s is not below half of write $a MB/s"
awk -v s="$s" -v g="$g" 'BEGIN { exit !(s > 0 && g >= 2 * s) }' ||
	t_fail "with a SLOG write-sync $g MB/s is not 2 x $s MB/s"

t_case "raidz1 (5) uncached rand4k-read"
zraid=$(iops --size 256M --runtime 4s)

t_case "down: the lab goes (its pool, servers and disks)"
run "$LAB" down
assert_rc 0

# ------------------------------------------------------------ raid10 2x2
t_case "raid10 (2x2) beats raidz1 (5) on uncached rand4k-read (> 1.5x)"
up raid10
assert_out "NASBENCH_LAB_LABELS='layout=raid10 disks=4x2G disk=hdd slog=none"
mirror=$(iops --size 256M --runtime 4s)
echo "test_lab_figures: rand4k-read IOPS, 256 MiB over ARC 64 MiB: raidz1 $zraid, raid10 $mirror" >&2
awk -v z="$zraid" -v m="$mirror" 'BEGIN { exit !(z > 0 && m > 1.5 * z) }' ||
	t_fail "raid10 $mirror IOPS is not 1.5 x raidz1 $zraid IOPS"

t_case "down leaves nothing behind (loops, mounts, cgroup, processes, namespace)"
pids=$(lab_pids)
[ "$(wc -w <<<"$pids")" = 5 ] || t_fail "the lab's pids: '$pids'"
# a mount namespace made while the lab is up (as a testbox server's 'ip
# netns exec') has copies of the pool's mounts: zpool destroy was busy
unshare -m --propagation slave sleep 120 &
holder=$!
for _ in $(seq 50); do grep -qF " $NASBENCH_LAB_DIR " "/proc/$holder/mountinfo" && break; sleep 0.1; done
run "$LAB" down
assert_rc 0
assert_err "its mount namespace, detached"
grep -q "zpool destroy .* failed" <<<"$ERR" && t_fail "zpool destroy failed: $ERR"
! grep -qF " $NASBENCH_LAB_DIR " "/proc/$holder/mountinfo" || t_fail "the holder's namespace keeps the pool's mount"
kill "$holder"
wait "$holder" 2>/dev/null
assert_gone "$pids"
assert_no_file "$NASBENCH_LAB_STATE/disks"

t_done
