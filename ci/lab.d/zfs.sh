# SPDX-License-Identifier: GPL-2.0-or-later
# ci/lab.d/zfs.sh - the lab's pool: loop devices, a throttling blkio cgroup,
# a private zfs-fuse and the pool on it (sourced by ci/lab).
#
# Each disk is a sparse file $LAB/disks/dN.img on a loop device; the SLOG is
# $LAB/ram/slog.img on a tmpfs.  zfs-fuse runs in the foreground (--no-daemon), with
# O_DIRECT on its vdevs (--disable-block-cache: the blkio throttle only
# bites on direct I/O) and no page cache over its files
# (--disable-page-cache: the ARC is the box's only cache, as on a NAS).
# It is moved into the blkio cgroup $LAB_CGROUP, which throttles each disk's
# loop device to the profile's IOPS and bytes/s; the SLOG's device is left
# alone (an SSD).  zfs-fuse's control socket and pool cache are the
# machine's (/var/run/zfs, /var/lib/zfs): one lab at a time.

LAB_POOL=nblab
LAB_CGROUP=/sys/fs/cgroup/blkio/nasbench-lab
LAB_MNT=$LAB/mnt

# The pid of any zfs-fuse on this machine (the lab's or not) that runs: a
# killed one that init has not reaped yet holds nothing, but one whose
# other threads still exit holds the socket (lab_tg_alive).
lab_zfs_any() {
	local p
	for p in $(pgrep -x zfs-fuse); do
		lab_tg_alive "$p" && { echo "$p"; return; }
	done
}

# lab_zfs_departing PID: that zfs-fuse is a lab's on its way out: it is in
# the lab's cgroup (its 'down' is stopping it, or one that gave up on it
# left it there), or a TERM or KILL waits for it.
lab_zfs_departing() {
	local pend
	grep -q ":blkio:${LAB_CGROUP#/sys/fs/cgroup/blkio}\$" "/proc/$1/cgroup" 2>/dev/null && return 0
	pend=$(awk '$1 == "SigPnd:" || $1 == "ShdPnd:" { print $2 }' "/proc/$1/status" 2>/dev/null)
	for pend in $pend; do
		# bits 9 (SIGKILL) and 15 (SIGTERM) of the pending masks
		(( 0x$pend & 0x4100 )) && return 0
	done
	return 1
}

# Until no zfs-fuse runs: one on its way out (another lab's 'down' or
# 'crash' a moment ago) is waited for, up to a minute; one that is not a
# lab's is the machine's, and the lab cannot run beside it.
lab_zfs_wait_none() {
	local other t=0
	while other=$(lab_zfs_any) && [ -n "$other" ]; do
		lab_zfs_departing "$other" && [ $t -lt 600 ] ||
			lab_die "a zfs-fuse that is not the lab's runs (pid $other$([ $t -lt 600 ] || echo ", still there after 60 s")):" \
				"the lab needs the machine's only one (its socket is /var/run/zfs/zfs_socket)"
		[ $t != 0 ] || lab_log "waiting for a zfs-fuse on its way out (pid $other)"
		sleep 0.1
		t=$((t + 1))
	done
}

lab_zfs_alive() { lab_pid_alive "$LAB/zfs.pid" zfs-fuse; }

# lab_loops_up: one loop device per disk image (and the SLOG's), recorded in
# $LAB/loops as "ROLE DEVICE" lines.
lab_loops_up() {
	local i dev img
	mkdir -p "$LAB/disks"
	: >"$LAB/loops"
	for i in $(seq 0 $((LAB_DISKS - 1))) slog; do
		[ "$i" = slog ] && [ "$LAB_SLOG" = none ] && continue
		img=$LAB/disks/d$i.img
		if [ "$i" = slog ]; then
			# in RAM: its flush costs nothing, as on a power-loss-
			# protected SSD (on this machine's disk a flush costs
			# about what the pool's own ZIL writes cost)
			mkdir -p "$LAB/ram"
			mountpoint -q "$LAB/ram" ||
				mount -t tmpfs -o size=1100m,mode=0700 nblab-slog "$LAB/ram" ||
				lab_die "cannot mount a tmpfs on $LAB/ram for the SLOG"
			img=$LAB/ram/slog.img
		fi
		rm -f "$img"
		if [ "$i" = slog ]; then truncate -s 1G "$img"; else truncate -s "$LAB_DISK_SIZE" "$img"; fi
		dev=$(losetup -f --show "$img") ||
			lab_die "cannot attach a loop device to $img (all in use? see 'losetup -a')"
		if [ "$i" = "$LAB_SLOW" ]; then
			# the slow disk is a loop device over this one, throttled
			# below (lab_cgroup_up): its I/O waits while it is in
			# flight, and its busy time shows it, as a slow disk's does
			echo "lower$i $dev" >>"$LAB/loops"
			dev=$(losetup -f --show --direct-io=on "$dev") ||
				lab_die "cannot attach a loop device over $dev"
		fi
		echo "$i $dev" >>"$LAB/loops"
	done
}

# Detach every loop device backed by one of our images, recorded or not
# (a crashed 'up' may have attached one it did not record).
lab_loops_down() {
	local img dev up
	for img in "$LAB"/disks/*.img "$LAB"/ram/*.img; do
		[ -e "$img" ] || continue
		for dev in $(losetup -j "$img" -O NAME -n 2>/dev/null); do
			# a slow disk's loop device over this one goes first
			for up in $(losetup -j "$dev" -O NAME -n 2>/dev/null); do
				losetup -d "$up" 2>/dev/null || lab_log "cannot detach $up ($dev)"
			done
			losetup -d "$dev" 2>/dev/null || lab_log "cannot detach $dev ($img)"
		done
	done
	# images deleted under their loop devices
	for dev in $(losetup -l -n -O NAME,BACK-FILE 2>/dev/null |
		     awk -v d="$LAB/" 'index($2, d) == 1 && / \(deleted\)$/ { print $1 }'); do
		losetup -d "$dev" 2>/dev/null || lab_log "cannot detach $dev"
	done
	rm -f "$LAB/loops"
	if mountpoint -q "$LAB/ram" 2>/dev/null; then
		umount "$LAB/ram" || lab_log "cannot unmount $LAB/ram"
	fi
}

lab_disk_devs() { awk '$1 ~ /^[0-9]+$/ { print $2 }' "$LAB/loops"; }
lab_lower_dev() { awk -v r="lower$1" '$1 == r { print $2 }' "$LAB/loops"; }
lab_slog_dev() { awk '$1 == "slog" { print $2 }' "$LAB/loops"; }

# Throttle each disk (not the SLOG) in the cgroup.
lab_cgroup_up() {
	local iops bps dev mm f
	[ -d "${LAB_CGROUP%/*}" ] || lab_die "no blkio cgroup (v1) at ${LAB_CGROUP%/*}"
	mkdir -p "$LAB_CGROUP"
	iops=$(lab_profile_field "$LAB_PROFILE" 2)
	bps=$(lab_profile_field "$LAB_PROFILE" 3)
	local i=0 n_iops n_bps
	for dev in $(lab_disk_devs); do
		n_iops=$iops n_bps=$bps
		# --slow-disk: a third of the others, or an HDD among fast disks
		if [ "$i" = "$LAB_SLOW" ]; then
			if [ "$iops" -gt 0 ]; then n_iops=$((iops / 3)) n_bps=$((bps / 3))
			else n_iops=$(lab_profile_field hdd 2) n_bps=$(lab_profile_field hdd 3); fi
		fi
		[ "$i" != "$LAB_SLOW" ] || dev=$(lab_lower_dev "$i")
		i=$((i + 1))
		[ "$n_iops" -gt 0 ] || continue
		mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
		for f in read write; do
			echo "$mm $n_iops" >"$LAB_CGROUP/blkio.throttle.${f}_iops_device"
			echo "$mm $n_bps" >"$LAB_CGROUP/blkio.throttle.${f}_bps_device"
		done
	done
}

# The cgroup goes when its processes have (every thread: 'tasks'): wait
# for them, a minute at most.
lab_cgroup_down() {
	[ -d "$LAB_CGROUP" ] || return 0
	for _ in $(seq 600); do
		rmdir "$LAB_CGROUP" 2>/dev/null && return 0
		sleep 0.1
	done
	lab_log "cannot remove the cgroup $LAB_CGROUP (threads still in it: $(paste -sd' ' "$LAB_CGROUP/tasks"))"
	return 1
}

# The sync=disabled shim (lab.d/nosync.c) as $LAB/nosync.so, built once
# per state directory.
lab_nosync_build() {
	local so=$LAB/nosync.so
	[ -s "$so" ] && [ "$so" -nt "$LAB_HOME/lab.d/nosync.c" ] && return 0
	gcc -shared -fPIC -O2 $(pkg-config --cflags fuse) -o "$so" \
		"$LAB_HOME/lab.d/nosync.c" -ldl >"$LAB/nosync.log" 2>&1 ||
		lab_die "cannot build the sync=disabled shim: $(tail -3 "$LAB/nosync.log")"
}

lab_zfs_daemon_up() {
	local pid
	lab_zfs_wait_none
	: >"$LAB/zfs.log"
	# started directly, so $! is the daemon; it must not hold our lock
	local pc=--disable-page-cache
	[ "$LAB_PAGE_CACHE" = off ] || pc=
	# ahead of the machine's other work (LAB_NICE, ci/lab); --sync disabled:
	# fsync and O_SYNC acknowledged without a ZIL commit (lab.d/nosync.c)
	local pre=
	if [ "$LAB_SYNC" = disabled ]; then lab_nosync_build; pre=$LAB/nosync.so; fi
	LD_PRELOAD=$pre nice -n "$LAB_NICE" zfs-fuse --no-daemon --disable-block-cache $pc -m "$LAB_ARC" \
		>"$LAB/zfs.log" 2>&1 </dev/null 9>&- &
	pid=$!
	echo "$pid" >"$LAB/zfs.pid"
	# its own pid, not ours: every thread follows (cgroup v1 procs)
	echo "$pid" >"$LAB_CGROUP/cgroup.procs" ||
		lab_die "cannot move zfs-fuse ($pid) into $LAB_CGROUP"
	for _ in $(seq 200); do
		lab_zfs_alive || lab_die "zfs-fuse exited: $(tail -3 "$LAB/zfs.log")"
		zpool list >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	lab_die "zfs-fuse does not answer 'zpool list' after 20 s (see $LAB/zfs.log)"
}

# A pool of ours left by a crash comes back from the daemon's cache: destroy.
lab_zfs_stale() {
	local p
	for p in $(zpool list -H -o name 2>/dev/null); do
		[ "$p" = "$LAB_POOL" ] || continue
		lab_log "destroying the pool '$p' a previous lab left behind"
		zpool destroy -f "$p" >/dev/null 2>&1 || true
	done
	lab_umount_all
}

# Unmount what is left under $LAB_MNT (a dead daemon leaves its FUSE mounts).
lab_umount_all() {
	local m
	for m in $(awk -v d="$LAB_MNT" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/mounts | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || lab_log "cannot unmount $m"
	done
}

lab_pool_up() {
	local vdevs=() d n=0 pair=()
	case $LAB_KIND in
	single) vdevs=($(lab_disk_devs)) ;;
	mirror)
		for d in $(lab_disk_devs); do
			pair+=("$d")
			if [ ${#pair[@]} -eq 2 ]; then vdevs+=(mirror "${pair[@]}"); pair=(); fi
		done ;;
	*) vdevs=("$LAB_KIND" $(lab_disk_devs)) ;;
	esac
	[ "$LAB_SLOG" = none ] || vdevs+=(log "$(lab_slog_dev)")
	rm -rf "$LAB_MNT"
	mkdir -p "$LAB_MNT"
	zpool create -f -m "$LAB_MNT" "$LAB_POOL" "${vdevs[@]}" >"$LAB/zpool.log" 2>&1 ||
		lab_die "zpool create failed: $(grep -v '^Defaulting' "$LAB/zpool.log" | tail -3)"
	zfs set compression="$LAB_COMPRESSION" "$LAB_POOL" &&
	zfs create "$LAB_POOL/nfs" && zfs create "$LAB_POOL/iscsi" ||
		lab_die "cannot create the datasets on $LAB_POOL"
	chmod 0777 "$LAB_MNT/nfs"
	truncate -s "$LAB_LUN_SIZE" "$LAB_MNT/iscsi/lun.img" ||
		lab_die "cannot create the LUN file on $LAB_POOL/iscsi"
	# a snapshot waits for its transaction group: what 'up' made is on the
	# disks before a client writes (with --sync disabled nothing else puts
	# it there before a crash: ci/lab crash would lose the LUN file)
	zfs snapshot "$LAB_POOL/iscsi@up" && zfs destroy "$LAB_POOL/iscsi@up" ||
		lab_die "cannot sync the pool $LAB_POOL"
}

# After a crash: the restarted daemon imports the pool from its disks (its
# pool cache may have done it already) and mounts the datasets.
lab_pool_import() {
	zpool list -H -o name 2>/dev/null | grep -qx "$LAB_POOL" ||
		zpool import -f -d /dev "$LAB_POOL" >"$LAB/import.log" 2>&1 ||
		lab_die "zpool import $LAB_POOL failed: $(tail -3 "$LAB/import.log")"
	zfs mount -a >>"$LAB/import.log" 2>&1 || true
	for _ in $(seq 100); do
		mountpoint -q "$LAB_MNT/nfs" && mountpoint -q "$LAB_MNT/iscsi" && return 0
		sleep 0.1
	done
	lab_die "the datasets of $LAB_POOL are not mounted after the import (see $LAB/import.log)"
}

lab_zfs_up() {
	lab_loops_up
	lab_cgroup_up
	lab_zfs_daemon_up
	lab_zfs_stale
	lab_pool_up
}

# zpool destroy is busy: say who holds the pool's mounts.  A process of
# this mount namespace with a file or directory there is named; another
# mount namespace made while the lab was up (a testbox server started with
# 'ip netns exec', any 'unshare -m') has copies of the mounts that no
# unmount here reaches (this machine's / is not shared): they are detached
# there (lazily, deepest first), once per namespace.
lab_release() {
	local p ns seen=" " m h= own
	own=$(readlink /proc/$$/ns/mnt)
	for p in /proc/[0-9]*; do
		if { readlink "$p/cwd" "$p/root"; ls -l "$p/fd" | sed 's/.* -> //'; } 2>/dev/null |
		   grep -q "^$LAB_MNT\(/\|$\)"; then
			h="$h ${p#/proc/}($(cat "$p/comm" 2>/dev/null))"
			continue
		fi
		ns=$(readlink "$p/ns/mnt" 2>/dev/null) || continue
		[ "$ns" != "$own" ] && [ "${seen#* $ns }" = "$seen" ] || continue
		m=$(awk -v d="$LAB_MNT" '$5 == d || index($5, d "/") == 1 { print $5 }' "$p/mountinfo" 2>/dev/null | sort -r)
		[ -n "$m" ] || continue
		seen="$seen$ns "
		h="$h ${p#/proc/}($(cat "$p/comm" 2>/dev/null): its mount namespace, detached)"
		for m in $m; do nsenter -t "${p#/proc/}" -m -- umount -l "$m" 2>/dev/null || true; done
	done
	[ -z "$h" ] || lab_log "zpool destroy: busy; the pool's mounts are held by:$h"
}

# Tear-down in order, each waited for: the pool (the servers holding its
# mount are gone by now), the daemon, mounts, loops, the cgroup.
lab_zfs_down() {
	local rc=0 i
	if lab_zfs_alive && zpool list -H -o name 2>/dev/null | grep -qx "$LAB_POOL"; then
		# busy while the threads of a stopped server still exit (a
		# zombie leader's threads keep its mount namespace), or while
		# another mount namespace has copies of the pool's mounts:
		# retry, and after 2 s release them (lab_release)
		for i in $(seq 50); do
			zpool destroy -f "$LAB_POOL" >"$LAB/destroy.log" 2>&1 && break
			grep -q busy "$LAB/destroy.log" || break
			[ "$i" != 10 ] || lab_release
			sleep 0.2
		done
		zpool list -H -o name 2>/dev/null | grep -qx "$LAB_POOL" &&
			lab_log "zpool destroy $LAB_POOL failed ($(tail -1 "$LAB/destroy.log")); stopping the daemon anyway"
	fi
	# zfs-fuse takes seconds to exit; a new one started before it has dies
	# (every thread waited for: lab_stop_pid)
	lab_stop_pid "$LAB/zfs.pid" zfs-fuse 20 || rc=1
	# its pid file lost (the state directory removed under a live lab):
	# the zfs-fuse in our cgroup is ours
	local p
	[ "$LAB_SHARED" = 1 ] || { lab_umount_all; lab_loops_down; return $rc; }
	for p in $(cat "$LAB_CGROUP/cgroup.procs" 2>/dev/null); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = zfs-fuse ] || continue
		echo "$p" >"$LAB/zfs.pid"
		lab_stop_pid "$LAB/zfs.pid" zfs-fuse 20 || rc=1
	done
	lab_umount_all
	lab_loops_down
	lab_cgroup_down || rc=1
	return $rc
}

lab_zfs_status() {
	if lab_zfs_alive; then
		echo "zfs-fuse: pid $(cat "$LAB/zfs.pid"), ARC $LAB_ARC MiB"
		zpool status "$LAB_POOL" 2>/dev/null | sed -n 's/^ *\(state\|pool\|scrub\|scan\):/  &/p'
		zpool list -H -o name,size,alloc,free,health "$LAB_POOL" 2>/dev/null | sed 's/^/  /'
		zfs get -H -o name,value compressratio "$LAB_POOL" 2>/dev/null | sed 's/^/  compressratio /'
	else
		echo "zfs-fuse: not running"
		return 1
	fi
}
