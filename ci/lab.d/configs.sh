# SPDX-License-Identifier: GPL-2.0-or-later
# ci/lab.d/configs.sh - the lab's named configurations and its options
# (sourced by ci/lab).
#
# A configuration is a pool layout and its default number of disks; the
# options change the disks, the SLOG, compression and the ARC.  lab_parse
# sets the LAB_* variables below and lab_canon prints them back as one line
# (what 'up' compares to tell an identical lab from a different one).

# name  zpool-vdev-kind  default-disks  minimum  what
LAB_CONFIGS="\
raidz1 raidz  5 3 RAIDZ1 of 5 disks (the seed's N40L)
raidz2 raidz2 6 4 RAIDZ2 of 6 disks
raid10 mirror 4 4 striped 2-way mirrors, 2x2 disks (the seed's alternative)
single single 1 1 one disk, no redundancy"

# Throttle profiles, per disk: IOPS and bytes/s (read and write each).
# hdd: a 5400-7200 rpm NAS disk (the seed's WD Red); ssd: a SATA SSD.
LAB_PROFILES="\
hdd 150 125829120 150 IOPS, 120 MiB/s (a NAS hard disk)
ssd 20000 524288000 20000 IOPS, 500 MiB/s (a SATA SSD)
none 0 0 unthrottled (this machine's disk)"

LAB_OPTIONS="--slog --page-cache --compression lzjb|gzip|gzip-1..9|zle|off --disk hdd|ssd|none
--arc MiB (16..16384) --disks N --disk-size SIZE --lun-size SIZE --slow-disk N --sync standard|disabled
--links 1|2 --mtu M --link-rate RATE"

lab_usage() {
	cat <<EOF
usage: ci/lab up NAME [options]   build the pool, start NFS and iSCSI, print
                                 shell assignments (eval them)
       ci/lab down                stop everything 'up' started, remove it
       ci/lab crash [--sync S]    the box loses power: SIGKILL zfs-fuse and the
                                 servers, start them again, import the pool
                                 (--sync: it comes back with sync S, as an
                                 admin would set it before the box boots)
       ci/lab fail-disk N         disk N (0 = the first) of the pool offline
       ci/lab replace-disk N      a new disk for N: the pool resilvers onto it
       ci/lab link N down|up      the box's end of link N (1, 2) down or back up
       ci/lab status | env | list
configurations:
$(echo "$LAB_CONFIGS" | awk '{ printf "  %-8s", $1; for (i = 5; i <= NF; i++) printf " %s", $i; print "" }')
options:
  --slog              add a separate intent log (an unthrottled loop device: an SSD)
  --compression C     lzjb, gzip, gzip-1 .. gzip-9, zle or off (default off)
  --disk P            throttle profile of each disk (default hdd):
$(echo "$LAB_PROFILES" | awk '{ printf "                        %-5s", $1; for (i = 4; i <= NF; i++) printf " %s", $i; print "" }')
  --page-cache        keep the box's kernel page cache over the pool (default: off,
                      the ARC is the box's only cache, as on a NAS)
  --arc MiB           zfs-fuse's ARC, the box's only cache (default 64; 16..16384)
  --disks N           number of disks (default: the configuration's)
  --disk-size SIZE    size of each (sparse) disk, e.g. 2G (default 2G)
  --lun-size SIZE     size of the iSCSI LUN file (default 1G)
  --slow-disk N       disk N (0 = the first) throttled to a third of the others
                      (with --disk none: to the hdd profile), for the slow-disk verdict
  --sync S            standard (default): sync writes are made durable; disabled:
                      ganesha and tgtd run with libeatmydata preloaded, which
                      acknowledges fsync, O_SYNC and O_DSYNC without a sync, as
                      ZFS's sync=disabled does (zfs-fuse 0.7 has no sync property)
  --links N           1 (default) or 2: a second link to the box (198.19.14.2),
                      tgtd and ganesha on both: multipathing (docs/network.md)
  --mtu M             every link's MTU at both ends (default 1500; 9000: jumbo)
  --link-rate RATE    shape every link with tbf, e.g. 1gbit (default: unshaped)
EOF
}

lab_usage_die() { echo "lab: $*" >&2; lab_usage >&2; exit 2; }

# lab_config_field NAME FIELD: a column of LAB_CONFIGS (2 kind, 3 disks, 4 min).
lab_config_field() { echo "$LAB_CONFIGS" | awk -v n="$1" -v f="$2" '$1 == n { print $f }'; }
# lab_profile_field NAME FIELD: a column of LAB_PROFILES (2 IOPS, 3 bytes/s,
# 4 the description to the end of the line).
lab_profile_field() {
	echo "$LAB_PROFILES" | awk -v n="$1" -v f="$2" '$1 == n {
		if (f < 4) { print $f; exit }
		s = $f; for (i = f + 1; i <= NF; i++) s = s " " $i; print s }'
}

# lab_bytes SIZE: 512M, 2G, 1048576 -> bytes; empty when not a size.
lab_bytes() {
	local n u
	[[ $1 =~ ^([0-9]+)([KkMmGgTt]?)(i?[Bb])?$ ]] || return 0
	n=${BASH_REMATCH[1]} u=${BASH_REMATCH[2]}
	case $u in
	K|k) n=$((n << 10)) ;; M|m) n=$((n << 20)) ;; G|g) n=$((n << 30)) ;; T|t) n=$((n << 40)) ;;
	esac
	echo "$n"
}

# lab_parse NAME [options]: set LAB_NAME LAB_KIND LAB_DISKS LAB_SLOG
# LAB_COMPRESSION LAB_PROFILE LAB_ARC LAB_DISK_SIZE LAB_LUN_SIZE, or exit 2.
lab_parse() {
	[ $# -gt 0 ] || lab_usage_die "'up' needs a configuration"
	LAB_NAME=$1
	shift
	LAB_KIND=$(lab_config_field "$LAB_NAME" 2)
	[ -n "$LAB_KIND" ] || lab_usage_die "unknown configuration '$LAB_NAME'" \
		"(known: $(echo "$LAB_CONFIGS" | awk '{ print $1 }' | paste -sd, - | sed 's/,/, /g'))"
	LAB_DISKS=$(lab_config_field "$LAB_NAME" 3)
	LAB_SLOG=none LAB_COMPRESSION=off LAB_PROFILE=hdd LAB_ARC=64
	LAB_DISK_SIZE=2G LAB_LUN_SIZE=1G LAB_PAGE_CACHE=off LAB_SLOW=none LAB_SYNC=standard
	LAB_LINKS=1 LAB_MTU=1500 LAB_LINK_RATE=none
	while [ $# -gt 0 ]; do
		case $1 in
		--slog) LAB_SLOG=ssd ;;
		--page-cache) LAB_PAGE_CACHE=on ;;
		--compression|--disk|--arc|--disks|--disk-size|--lun-size|--slow-disk|--sync|--links|--mtu|--link-rate)
			[ $# -ge 2 ] || lab_usage_die "option '$1' needs a value"
			case $1 in
			--compression) LAB_COMPRESSION=$2 ;;
			--disk) LAB_PROFILE=$2 ;;
			--arc) LAB_ARC=$2 ;;
			--disks) LAB_DISKS=$2 ;;
			--disk-size) LAB_DISK_SIZE=$2 ;;
			--lun-size) LAB_LUN_SIZE=$2 ;;
			--slow-disk) LAB_SLOW=$2 ;;
			--sync) LAB_SYNC=$2 ;;
			--links) LAB_LINKS=$2 ;;
			--mtu) LAB_MTU=$2 ;;
			--link-rate) LAB_LINK_RATE=$2 ;;
			esac
			shift ;;
		*) lab_usage_die "unknown option '$1' (known: $(echo $LAB_OPTIONS | sed 's/ --/, --/g'))" ;;
		esac
		shift
	done
	lab_check
}

lab_check() {
	local min
	[[ $LAB_COMPRESSION =~ ^(lzjb|gzip|gzip-[1-9]|zle|off)$ ]] ||
		lab_usage_die "--compression '$LAB_COMPRESSION': not one of lzjb, gzip, gzip-1..9, zle, off"
	[[ $LAB_SYNC =~ ^(standard|disabled)$ ]] ||
		lab_usage_die "--sync '$LAB_SYNC': not one of standard, disabled"
	[ -n "$(lab_profile_field "$LAB_PROFILE" 1)" ] ||
		lab_usage_die "--disk '$LAB_PROFILE': not one of hdd, ssd, none"
	{ [[ $LAB_ARC =~ ^[0-9]+$ ]] && [ "$LAB_ARC" -ge 16 ] && [ "$LAB_ARC" -le 16384 ]; } ||
		lab_usage_die "--arc '$LAB_ARC': MiB from 16 to 16384 (zfs-fuse's range)"
	min=$(lab_config_field "$LAB_NAME" 4)
	[[ $LAB_DISKS =~ ^[0-9]+$ ]] && [ "$LAB_DISKS" -ge "$min" ] && [ "$LAB_DISKS" -le 32 ] ||
		lab_usage_die "--disks '$LAB_DISKS': $LAB_NAME needs $min to 32 disks"
	[ "$LAB_NAME" != single ] || [ "$LAB_DISKS" -eq 1 ] ||
		lab_usage_die "--disks '$LAB_DISKS': single is one disk"
	[ "$LAB_KIND" != mirror ] || [ $((LAB_DISKS % 2)) -eq 0 ] ||
		lab_usage_die "--disks '$LAB_DISKS': raid10 needs an even number (2-way mirrors)"
	local b
	b=$(lab_bytes "$LAB_DISK_SIZE")
	[ -n "$b" ] && [ "$b" -ge $((128 << 20)) ] ||
		lab_usage_die "--disk-size '$LAB_DISK_SIZE': a size of at least 128M, e.g. 2G"
	[ "$LAB_SLOW" = none ] || { [[ $LAB_SLOW =~ ^[0-9]+$ ]] && [ "$LAB_SLOW" -lt "$LAB_DISKS" ]; } ||
		lab_usage_die "--slow-disk '$LAB_SLOW': a disk from 0 to $((LAB_DISKS - 1))"
	b=$(lab_bytes "$LAB_LUN_SIZE")
	[ -n "$b" ] && [ "$b" -ge $((16 << 20)) ] ||
		lab_usage_die "--lun-size '$LAB_LUN_SIZE': a size of at least 16M, e.g. 1G"
	[[ $LAB_LINKS =~ ^[12]$ ]] || lab_usage_die "--links '$LAB_LINKS': 1 or 2"
	{ [[ $LAB_MTU =~ ^[0-9]+$ ]] && [ "$LAB_MTU" -ge 576 ] && [ "$LAB_MTU" -le 9000 ]; } ||
		lab_usage_die "--mtu '$LAB_MTU': from 576 to 9000"
	[ "$LAB_LINK_RATE" = none ] || [[ $LAB_LINK_RATE =~ ^[0-9.]+[kmg]?bit$ ]] ||
		lab_usage_die "--link-rate '$LAB_LINK_RATE': a rate such as 400mbit or 1gbit"
}

# One line that says everything about a lab: identical labs print the same.
lab_canon() {
	echo "$LAB_NAME disks=$LAB_DISKS disk=$LAB_PROFILE slog=$LAB_SLOG" \
	     "compression=$LAB_COMPRESSION arc=$LAB_ARC page-cache=$LAB_PAGE_CACHE disk-size=$LAB_DISK_SIZE lun-size=$LAB_LUN_SIZE" \
	     "slow-disk=$LAB_SLOW" \
	     "sync=$LAB_SYNC$(lab_net_canon)"
}

# The network's part of lab_canon: nothing when it is the default.
lab_net_canon() {
	[ "$LAB_LINKS$LAB_MTU$LAB_LINK_RATE" = 11500none ] ||
		echo " links=$LAB_LINKS mtu=$LAB_MTU link-rate=$LAB_LINK_RATE"
}

# The box's labels, as [box] keys of a box file (and --label K=V).
lab_labels() {
	echo "layout=$LAB_NAME disks=${LAB_DISKS}x$LAB_DISK_SIZE disk=$LAB_PROFILE" \
	     "slog=$LAB_SLOG compression=$LAB_COMPRESSION arc=${LAB_ARC}M sync=$LAB_SYNC"
}

lab_list() {
	echo "configurations:"
	echo "$LAB_CONFIGS" | awk '{ printf "  %-8s", $1; for (i = 5; i <= NF; i++) printf " %s", $i; print "" }'
	echo "disk profiles (--disk):"
	echo "$LAB_PROFILES" | awk '{ printf "  %-8s", $1; for (i = 4; i <= NF; i++) printf " %s", $i; print "" }'
	echo "options: $(echo $LAB_OPTIONS)"
}
