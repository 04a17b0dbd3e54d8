# SPDX-License-Identifier: GPL-2.0-or-later
# tests/integration/lablib.sh - sourced (after lib.sh) by the files that
# bring up the lab (ci/lab, docs/lab.md): test_lab.sh, test_lab_crash.sh.
# The lab's state is the file's own ($T/lab); its 'down' runs at exit.
LAB=$ROOT/ci/lab
trap '"$LAB" down >/dev/null 2>&1; rm -rf "$T"' EXIT
export NASBENCH_LAB_STATE=$T/lab
# one lab at a time on a machine: wait for another test's or user's lab
export NASBENCH_LAB_WAIT=${NASBENCH_LAB_WAIT:-3600}
# each case says when it starts (lib.sh)
NASBENCH_IT_TIMES=1

up() { # ARGS...: up and eval the assignments
	run "$LAB" up "$@"
	assert_rc 0
	eval "$OUT"
}
# the processes of the lab that is up (zfs-fuse, rpcbind, ganesha, tgtd, sshd)
lab_pids() { cat "$NASBENCH_LAB_STATE"/zfs.pid "$NASBENCH_LAB_STATE"/serve/*.pid 2>/dev/null; }
# nothing of the lab is left: loops, mounts, cgroup, processes (PIDS), namespace
assert_gone() {
	local l p
	l=$(losetup -a | grep -F "$NASBENCH_LAB_STATE/" || true)
	[ -z "$l" ] || t_fail "loop devices left: $l"
	l=$(grep -F " $NASBENCH_LAB_STATE/" /proc/mounts || true)
	[ -z "$l" ] || t_fail "mounts left: $l"
	# (a killed process not yet reaped by init holds nothing)
	l=$(for p in $1; do
		[ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null || echo Z)" = Z ] || ps -o pid=,args= -p "$p"
	done)
	[ -z "$l" ] || t_fail "processes left: $l"
	# another lab may have come up since (one at a time, shared names)
	if [ ! -s /run/nasbench-lab.dir ]; then
		[ ! -d /sys/fs/cgroup/blkio/nasbench-lab ] || t_fail "cgroup left"
		! ip netns list | grep -qw nblab || t_fail "network namespace nblab left"
	fi
}
