# SPDX-License-Identifier: GPL-2.0-or-later
# ci/lab.d/failure.sh - a disk of the lab's pool fails, and its replacement
# comes in (sourced by ci/lab; nasbench's failure walk, docs/failure.md).
#
# fail-disk N     zpool offline of disk N (0 = the first, as --slow-disk):
#                 the pool reads DEGRADED (zfs-fuse takes the device's full
#                 path; the bare name is "no such device in pool")
# replace-disk N  a new sparse image on a fresh loop device, throttled to the
#                 lab's profile as the others are, and 'zpool replace POOL
#                 OLD NEW': the pool resilvers onto it; $LAB/loops then names
#                 the new device as disk N (a second fail-disk N fails it)
# Only disks of the lab's pool are touched, by their number; 'down' removes
# whatever state the pool is in (degraded, resilvering) with the rest.

lab_fail_usage() { lab_usage_die "'$1' takes a disk number (0 = the first)"; }

# lab_fail_target N: the lab is up and N is one of its pool's disks; sets
# LAB_FAIL_DEV (its device now) and LAB_FAIL_STATE (zpool status's word).
lab_fail_target() {
	[ "$(id -u)" -eq 0 ] || { echo "lab: needs root" >&2; exit 2; }
	lab_lock
	[ "$(lab_current)" = "$LAB" ] && [ -s "$LAB/config.args" ] && lab_load && lab_alive ||
		{ echo "lab: no lab is up in $LAB ('ci/lab up NAME')" >&2; exit 1; }
	[[ $1 =~ ^[0-9]+$ ]] && [ "$1" -lt "$LAB_DISKS" ] ||
		{ echo "lab: no disk '$1' in the pool: disks 0 to $((LAB_DISKS - 1))" >&2; exit 2; }
	[ "$LAB_KIND" != single ] ||
		{ echo "lab: 'single' has no redundancy: failing its disk loses the pool" >&2; exit 2; }
	LAB_FAIL_DEV=$(awk -v n="$1" '$1 == n { print $2 }' "$LAB/loops")
	LAB_FAIL_STATE=$(zpool status "$LAB_POOL" 2>/dev/null |
		awk -v d="${LAB_FAIL_DEV#/dev/}" '$1 == d { print $2 }')
	[ -n "$LAB_FAIL_STATE" ] ||
		{ echo "lab: disk $1 ($LAB_FAIL_DEV) is not in pool $LAB_POOL" >&2; exit 1; }
}

cmd_fail_disk() {
	[ $# -eq 1 ] || lab_fail_usage fail-disk
	lab_fail_target "$1"
	[ "$LAB_FAIL_STATE" = ONLINE ] ||
		{ echo "lab: disk $1 ($LAB_FAIL_DEV) is $LAB_FAIL_STATE already" >&2; exit 1; }
	zpool offline "$LAB_POOL" "$LAB_FAIL_DEV" >"$LAB/fail.log" 2>&1 ||
		{ echo "lab: zpool offline $LAB_POOL $LAB_FAIL_DEV: $(tail -1 "$LAB/fail.log")" >&2; exit 1; }
	echo "lab: disk $1 ($LAB_FAIL_DEV) offline; pool $LAB_POOL" \
	     "$(zpool list -H -o health "$LAB_POOL" 2>/dev/null)"
}

# lab_disk_throttle DEV: the profile's IOPS and bytes/s on DEV (hdd, ssd).
lab_disk_throttle() {
	local iops bps mm f
	iops=$(lab_profile_field "$LAB_PROFILE" 2)
	bps=$(lab_profile_field "$LAB_PROFILE" 3)
	[ "$iops" -gt 0 ] || return 0
	mm=$(lsblk -dno MAJ:MIN "$1" | tr -d ' ')
	for f in read write; do
		echo "$mm $iops" >"$LAB_CGROUP/blkio.throttle.${f}_iops_device"
		echo "$mm $bps" >"$LAB_CGROUP/blkio.throttle.${f}_bps_device"
	done
}

cmd_replace_disk() {
	local img k=1 new
	[ $# -eq 1 ] || lab_fail_usage replace-disk
	lab_fail_target "$1"
	[ "$LAB_FAIL_STATE" != ONLINE ] ||
		{ echo "lab: disk $1 ($LAB_FAIL_DEV) is ONLINE: nothing to replace ('ci/lab fail-disk $1' first)" >&2; exit 1; }
	while [ -e "$LAB/disks/d$1.r$k.img" ]; do k=$((k + 1)); done
	img=$LAB/disks/d$1.r$k.img
	truncate -s "$LAB_DISK_SIZE" "$img"
	new=$(losetup -f --show "$img") ||
		{ rm -f "$img"; echo "lab: cannot attach a loop device to $img" >&2; exit 1; }
	lab_disk_throttle "$new"
	if ! zpool replace "$LAB_POOL" "$LAB_FAIL_DEV" "$new" >"$LAB/replace.log" 2>&1; then
		losetup -d "$new" 2>/dev/null
		rm -f "$img"
		echo "lab: zpool replace $LAB_POOL $LAB_FAIL_DEV $new: $(grep -v '^Defaulting' "$LAB/replace.log" | tail -1)" >&2
		exit 1
	fi
	awk -v n="$1" -v d="$new" '$1 == n { $2 = d } { print }' "$LAB/loops" >"$LAB/loops.new" &&
		mv "$LAB/loops.new" "$LAB/loops"
	echo "lab: disk $1 replaced: $LAB_FAIL_DEV -> $new; pool $LAB_POOL" \
	     "$(zpool status "$LAB_POOL" 2>/dev/null | sed -n 's/^ *\(scrub\|scan\): //p' | head -1)"
}
