#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One data-loss guard for every path to a device (docs/security.md): each
# way nasbench writes a file or block device - the native engine, fio here
# and through 'fio --server' clients, preconditioning, TRIM, the replay,
# crashcheck and the failure walk - is refused on a target holding data
# (exit 3, the message, the data's checksum unchanged, the box's commands
# never run) and allowed with destroy-data.  The guard judges the whole
# file or device: a partition table before a window ([target] offset), a
# ZFS label past a --span, a device the kernel holds (a mounted loop
# device).  Loop devices are made over files in the scratch directory and
# detached at exit; 'fio --server' runs on loopback ports.
. "$(dirname "$0")/lib.sh"

for p in fio losetup mkfs.ext4 python3; do
	command -v "$p" >/dev/null || { missing "$p"; t_done; exit; }
done
[ "$(id -u)" = 0 ] || { missing "root (loop devices, mount)"; t_done; exit; }

SERVERS=()
at_exit 'for p in "${SERVERS[@]}"; do kill -9 -- "-$p" 2>/dev/null; done'
start_server() {        # start_server PORT: 'fio --server' in its own group
	setsid fio --server=ip:127.0.0.1,"$1" >/dev/null 2>&1 &
	SERVERS+=($!)
	disown $!
	for _ in $(seq 50); do
		python3 -c "import socket; socket.create_connection(('127.0.0.1',$1),0.2)" 2>/dev/null && return 0
		sleep 0.1
	done
	t_fail "fio --server on port $1 did not start"
}
# data FILE: 128 MiB whose first 8 MiB are random: data nasbench did not write
data() {
	truncate -s 128M "$1"
	head -c 8M /dev/urandom | dd of="$1" conv=notrunc status=none
}
sum() { md5sum <"$1"; }
WHY="holds data nasbench did not write: writing would destroy it; if that is intended, set 'destroy-data = yes' in its [target] section or pass --destroy-data"
SMALL=(--size 8M --runtime 0.3s -i 1)
# refused_on FILE CMD...: exit 3, the guard's message on FILE, FILE unchanged,
# no result
refused_on() {
	local file=$1 before
	shift
	before=$(sum "$file")
	rm -f "$T/r.json"
	run "$@" -o "$T/r.json"
	assert_rc 3
	assert_err "target 'local' ($file) $WHY"
	[ "$(sum "$file")" = "$before" ] || t_fail "'$file' changed: $*"
}

F=$T/f.img
data "$F"

t_case "native engine: a file holding data is refused, untouched"
refused_on "$F" "$NB" run -t "$F" -w seq512k-write "${SMALL[@]}"
refused_on "$F" "$NB" run -t "$F" -w rand4k-write "${SMALL[@]}"

t_case "fio on this machine (engine = fio): refused, untouched"
refused_on "$F" "$NB" run -t "$F" --engine fio -w seq512k-write "${SMALL[@]}"

t_case "fio clients on this machine (--clients): refused as the native engine, untouched"
P1=$(free_port)
start_server "$P1"
echo "127.0.0.1:$P1" >"$T/clients"
refused_on "$F" "$NB" run -t "$F" --clients "$T/clients" -w seq512k-write "${SMALL[@]}"
refused_on "$F" "$NB" run -t "$F" --clients "$T/clients" -w rand4k-read "${SMALL[@]}"

t_case "a fio client on another host: refused without destroy-data, nothing sent"
# TEST-NET-1: refused before any connection is tried
printf '127.0.0.1:%s\n192.0.2.10\n' "$P1" >"$T/far"
before=$(sum "$F")
run "$NB" run -t "$F" --clients "$T/far" -w seq512k-write "${SMALL[@]}" -o "$T/r.json"
assert_rc 3
assert_err "nasbench: target 'local' ($F): fio client '192.0.2.10:8765' writes it on its own host, where nasbench cannot read it to check for data (a file system, a partition table, data nasbench did not write): writing could destroy what is there; if that is intended, set 'destroy-data = yes' in its [target] section or pass --destroy-data"
[ "$(sum "$F")" = "$before" ] || t_fail "the file changed"

t_case "fio clients with --destroy-data: written; then known as nasbench's own"
run "$NB" run -t "$F" --clients "$T/clients" -w seq512k-write "${SMALL[@]}" --destroy-data -q -o "$T/c.json"
assert_rc 0
[ "$(sum "$F")" != "$before" ] || t_fail "--destroy-data wrote nothing"
# the first block fio wrote carries nasbench's mark: no destroy-data needed
run "$NB" run -t "$F" --clients "$T/clients" -w seq512k-write "${SMALL[@]}" -q -o "$T/c2.json"
assert_rc 0
run "$NB" run -t "$F" -w seq512k-write "${SMALL[@]}" -q -o "$T/c3.json"
assert_rc 0

t_case "engine = fio with --destroy-data, then a run without it: the data is nasbench's"
G=$T/g.img
data "$G"
run "$NB" run -t "$G" --engine fio -w seq512k-write "${SMALL[@]}" --destroy-data -q -o "$T/g1.json"
assert_rc 0
run "$NB" run -t "$G" --engine fio -w seq512k-write "${SMALL[@]}" -q -o "$T/g2.json"
assert_rc 0
run "$NB" run -t "$G" -w rand4k-write "${SMALL[@]}" -q -o "$T/g3.json"
assert_rc 0

t_case "preconditioning and TRIM: refused before they write or discard"
data "$F"
refused_on "$F" "$NB" run -t "$F" --precondition --precondition-passes 1 -w rand4k-read "${SMALL[@]}"
refused_on "$F" "$NB" run -t "$F" --trim before -w rand4k-read "${SMALL[@]}"
# --trim-optional goes on without a discard the target refuses, not past the guard
refused_on "$F" "$NB" run -t "$F" --trim before --trim-optional -w rand4k-read "${SMALL[@]}"

t_case "the replay: refused, untouched"
printf '[population]\ngrowth = 4 VMs a year\n[vm web]\ncount = 2\niops = 50\nread = 70\nbs_read = 8K\nbs_write = 8K\n' >"$T/load.ini"
refused_on "$F" "$NB" run -t "$F" -w replay --load "$T/load.ini" --scale 1 --runtime 0.5s --size 8M -i 1

t_case "crashcheck: refused before it writes; the crash command never runs"
printf '[box]\nname = g\ncrash = touch %s/crashed\n[target local]\nurl = %s\n' "$T" "$F" >"$T/crash.ini"
refused_on "$F" "$NB" run "$T/crash.ini" -w crashcheck --size 1M
assert_no_file "$T/crashed"

t_case "the failure walk: refused, the disk never failed"
# the box's answer to 'zpool status' (the walk needs a healthy pool to
# start): a stand-in first in PATH; the guarded writes are the real ones
mkdir -p "$T/bin"
cat >"$T/bin/zpool" <<'EOF'
#!/bin/sh
[ "$1" = status ] || exit 1
printf '  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\ttank        ONLINE       0     0     0\n\t  raidz1-0  ONLINE       0     0     0\n\t    sda     ONLINE       0     0     0\n\t    sdb     ONLINE       0     0     0\n\t    sdc     ONLINE       0     0     0\n\nerrors: No known data errors\n'
EOF
chmod +x "$T/bin/zpool"
printf '[box]\nname = g\nmonitor = local\nfail-disk = touch %s/failed\nreplace-disk = touch %s/replaced\n[target local]\nurl = %s\n' "$T" "$T" "$F" >"$T/walk.ini"
PATH=$T/bin:$PATH refused_on "$F" "$NB" run "$T/walk.ini" -w rand4k-write --rebuild load --fail-disks --size 1M -i 1 --runtime 0.3s
assert_err "nasbench: failure walk: no target was measured healthy: no disk was failed, the box is as it was"
assert_no_file "$T/failed"
assert_no_file "$T/replaced"

# ------------------------------------------------------- the whole device
LOOPS=()
at_exit 'for l in "${LOOPS[@]}"; do umount "$l" 2>/dev/null; losetup -d "$l"; done'
loop() {        # loop FILE: a loop device over FILE, its name in DEV
	DEV=$(losetup -f --show "$1") || { missing "no free loop device"; return 1; }
	LOOPS+=("$DEV")
}
# an MBR with one Linux partition from 1 MiB to the end of a 64 MiB disk
mbr() {
	python3 - "$1" <<'PY'
import struct, sys
f = open(sys.argv[1], "r+b")
e = struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", 2048, 131072 - 2048)
f.seek(446); f.write(e); f.seek(510); f.write(b"\x55\xaa")
PY
}

t_case "a window past a partition table: the whole device is judged, not the window"
truncate -s 64M "$T/disk.img" && mbr "$T/disk.img"
loop "$T/disk.img" || { t_done; exit; }
printf '[target local]\nurl = %s\noffset = 16M\nsize = 16M\n' "$DEV" >"$T/win.ini"
before=$(sum "$DEV")
run "$NB" run "$T/win.ini" -w seq512k-write "${SMALL[@]}" -o "$T/r.json"
assert_rc 3
assert_err "nasbench: target 'local' ($DEV) holds an MBR partition table (a Linux partition): writing would destroy it; if that is intended, set 'destroy-data = yes' in its [target] section or pass --destroy-data"
[ "$(sum "$DEV")" = "$before" ] || t_fail "the device changed"
run "$NB" run "$T/win.ini" -w seq512k-write "${SMALL[@]}" --destroy-data -q -o "$T/r.json"
assert_rc 0
python3 - "$T/disk.img" <<'PY' || t_fail "--destroy-data wrote outside its window or did not write it"
import sys
d = open(sys.argv[1], "rb").read()
assert d[510:512] == b"\x55\xaa", "the partition table was written over"
assert d[16 << 20:(16 << 20) + 8] == b"hcnebsan", "the window was not written"
assert d[32 << 20:] == bytes(len(d) - (32 << 20)), "written past the window"
PY

t_case "a window further in holding data: refused at the window's start"
truncate -s 64M "$T/w2.img"
head -c 1M /dev/urandom | dd of="$T/w2.img" bs=1M seek=16 conv=notrunc status=none
printf '[target local]\nurl = %s\noffset = 16M\n' "$T/w2.img" >"$T/w2.ini"
before=$(sum "$T/w2.img")
run "$NB" run "$T/w2.ini" -w seq512k-write "${SMALL[@]}" -o "$T/r.json"
assert_rc 3
assert_err "nasbench: target 'local' ($T/w2.img) holds data nasbench did not write at offset 16777216, where its window starts: writing would destroy it"
[ "$(sum "$T/w2.img")" = "$before" ] || t_fail "the file changed"

t_case "a --span short of the end: a ZFS label at the real end is seen"
truncate -s 64M "$T/z.img"
# an uberblock's magic in label L2 (512 KiB from the end, its array at +128 KiB)
python3 - "$T/z.img" <<'PY'
import struct, sys
f = open(sys.argv[1], "r+b")
f.seek((64 << 20) - (512 << 10) + (128 << 10)); f.write(struct.pack("<Q", 0x00bab10c))
PY
before=$(sum "$T/z.img")
run "$NB" run -t "$T/z.img" --span 50% -w seq512k-write "${SMALL[@]}" -o "$T/r.json"
assert_rc 3
assert_err "nasbench: target 'local' ($T/z.img) holds a ZFS pool member at its end: writing would destroy it"
[ "$(sum "$T/z.img")" = "$before" ] || t_fail "the file changed"

t_case "a device the kernel holds (a mounted file system): refused as in use"
truncate -s 64M "$T/m.img" && mkfs.ext4 -q "$T/m.img"
loop "$T/m.img" || { t_done; exit; }
mkdir -p "$T/mnt" && mount "$DEV" "$T/mnt" && echo keep >"$T/mnt/file" && sync
run "$NB" run -t "$DEV" -w seq512k-write "${SMALL[@]}" -o "$T/r.json"
assert_rc 3
assert_err "nasbench: target 'local' ($DEV) holds a file system or volume in use (the kernel holds the device: mounted, swap, md, LVM or device-mapper): writing would destroy it"
[ "$(cat "$T/mnt/file")" = keep ] || t_fail "the mounted file system changed"
umount "$T/mnt"

t_done
