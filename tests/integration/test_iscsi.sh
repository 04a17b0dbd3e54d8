#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nasbench on iSCSI LUNs of the testbox's tgtd (ci/testbox.d/iscsi.sh).
. "$(dirname "$0")/lib.sh"

if [ -z "${NASBENCH_ISCSI_URL:-}" ]; then
	echo "FAIL $(basename "$0"): cannot run: NASBENCH_ISCSI_URL is unset (no iSCSI testbox: 'ci/testbox up')" >&2
	exit 1
fi
TB=${NASBENCH_TESTBOX_DIR:-/tmp/nasbench-testbox}
LUNS=$TB/iscsi                       # the LUNs' backing files: the server's truth
IQN=${NASBENCH_ISCSI_URL%:wb/1}      # iscsi://HOST:PORT/iqn.2026-11.org.nasbench
PORTAL=${IQN#iscsi://}
PORTAL=${PORTAL%%/*}                 # HOST:PORT
PASS=${NASBENCH_ISCSI_CHAP_URL#*%}
PASS=${PASS%%@*}
SMALL=(--size 16M --runtime 300ms --iterations 1 -q)
REFUSED_ARGS=("${SMALL[@]}")         # lib.sh refused

# the helper that shows the bytes a runner reads and writes
PIO=$TOOLS/iscsi_pio

# check_stamps FILE START LEN: every 4 KiB of FILE[START, START+LEN) is
# nasbench's (magic, then its offset in the window = position - START + BASE)
check_stamps() {
	python3 - "$@" <<'PY'
import struct, sys
path, start, length, base = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
with open(path, "rb") as f:
    f.seek(start)
    data = f.read(length)
assert len(data) == length, "short backing file"
for i in range(0, length, 4096):
    magic, off = struct.unpack_from("<QQ", data, i)
    if magic != 0x6e617362656e6368 or off != base + i:
        sys.exit("block at %d: magic %x offset %d" % (start + i, magic, off))
PY
}

t_case "seq and random, read and write: exit 0, JSON shape, plausible figures"
run "$NB" run -t "$NASBENCH_ISCSI_URL" "${SMALL[@]}" -o "$T/r.json"
assert_rc 0
assert_json "$T/r.json" 'd["targets"][0]["runner"] == "iscsi" and d["targets"][0]["url"] == "'"$NASBENCH_ISCSI_URL"'"'
assert_json "$T/r.json" '[r["workload"] for r in d["results"]] == ["seq512k-write", "seq512k-read", "rand4k-write", "rand4k-read"]'
assert_json "$T/r.json" 'all(r["status"] == "ok" for r in d["results"])'
assert_json "$T/r.json" 'all(1e6 < r["summary"]["bw_bytes"]["median"] < 2e10 for r in d["results"])'
assert_json "$T/r.json" 'all(i["metrics"]["lat_p50_us"] <= i["metrics"]["lat_p99_us"] <= i["metrics"]["lat_max_us"] for r in d["results"] for i in r["iterations"])'
assert_json "$T/r.json" 'result(d, "rand4k-read")["spec"]["qd"] == 32 and result(d, "seq512k-write")["spec"]["size"] == 16777216'
# the runtime wraps the file: every byte of it written, in whole requests
assert_json "$T/r.json" 'result(d, "seq512k-write")["iterations"][0]["bytes_written"] >= 16777216 and result(d, "seq512k-write")["iterations"][0]["bytes_written"] % 524288 == 0'
assert_json "$T/r.json" '"flush_ms" in result(d, "seq512k-write")["iterations"][0]'

t_case "a LUN smaller than the default size is used whole"
run "$NB" run -t "$NASBENCH_ISCSI_CHAP_URL" -w seq512k-read --runtime 300ms --iterations 1 -q -o "$T/whole.json"
assert_rc 0
assert_json "$T/whole.json" 'result(d, "seq512k-read")["spec"]["size"] == 32 << 20'

t_case "writes land where they should: window offset/size, data on the server"
if [ -f "$LUNS/tmpfs/tmpfs.img" ]; then
	IMG=$LUNS/tmpfs/tmpfs.img
	# markers just outside the window must survive
	printf 'BEFORE%.0s' $(seq 100) | dd of="$IMG" bs=1 seek=$((4 * 1048576 - 600)) conv=notrunc status=none
	printf 'AFTER%.0s' $(seq 100) | dd of="$IMG" bs=1 seek=$((12 * 1048576)) conv=notrunc status=none
	cat > "$T/win.ini" <<INI
[target win]
url          = $NASBENCH_ISCSI_TMPFS_URL
offset       = 4M
size         = 8M
destroy-data = yes
INI
	run "$NB" run "$T/win.ini" -w seq512k-write --runtime 300ms --iterations 1 -q -o "$T/win.json"
	assert_rc 0
	assert_json "$T/win.json" 'result(d, "seq512k-write")["spec"]["size"] == 8 << 20'
	check_stamps "$IMG" $((4 << 20)) $((8 << 20)) 0 || t_fail "window not written as stamped blocks"
	[ "$(dd if="$IMG" bs=1 skip=$((4 * 1048576 - 600)) count=600 status=none)" = "$(printf 'BEFORE%.0s' $(seq 100))" ] ||
		t_fail "bytes before the window changed"
	[ "$(dd if="$IMG" bs=1 skip=$((12 * 1048576)) count=500 status=none)" = "$(printf 'AFTER%.0s' $(seq 100))" ] ||
		t_fail "bytes after the window changed"
else
	missing "data checks: no backing file under $LUNS (is the testbox on this machine?)"
fi

t_case "reads return the server's bytes; writes store exactly what was sent"
if [ -f "$LUNS/tmpfs/tmpfs.img" ]; then
	IMG=$LUNS/tmpfs/tmpfs.img
	head -c $((1 << 20)) /dev/urandom > "$T/rnd"
	dd if="$T/rnd" of="$IMG" bs=1M seek=20 conv=notrunc status=none
	"$PIO" "$NASBENCH_ISCSI_TMPFS_URL" read $((20 << 20)) $((1 << 20)) > "$T/back"
	cmp -s "$T/rnd" "$T/back" || t_fail "read data differs from the LUN's"
	# through a window: offset 16M, so window offset 4M is LUN byte 20M
	OFFSET=$((16 << 20)) "$PIO" "$NASBENCH_ISCSI_TMPFS_URL" read $((4 << 20)) 65536 > "$T/back"
	cmp -s <(head -c 65536 "$T/rnd") "$T/back" || t_fail "windowed read differs"
	head -c 262144 /dev/urandom > "$T/rnd2"
	run env DESTROY=1 "$PIO" "$NASBENCH_ISCSI_TMPFS_URL" write $((24 << 20)) 262144 fua < "$T/rnd2"
	assert_rc 0
	cmp -s "$T/rnd2" <(dd if="$IMG" bs=256K skip=96 count=1 status=none) || t_fail "written data differs on the server"
	run "$PIO" "$NASBENCH_ISCSI_TMPFS_URL" read $((64 << 20)) 4096
	assert_rc 3
	assert_err "iscsi_pio: target 'pio': I/O at 67108864 of 4096 bytes is past the end of the LUN window (67108864 bytes)"
fi

t_case "sync=always: FUA on every write and SYNCHRONIZE CACHE at the end reach tgtd"
if command -v strace >/dev/null && [ -s "$TB/tgtd.pid" ]; then
	strace -f -c -e trace=pwrite64,fdatasync -o "$T/st" -p "$(cat "$TB/tgtd.pid")" 2>/dev/null &
	SP=$!
	wait_traced "$(cat "$TB/tgtd.pid")"
	run "$NB" run -t "$NASBENCH_ISCSI_SYNC_URL" -w seq512k-write-sync --size 64M --iterations 1 -q -o "$T/s.json"
	kill -INT $SP; wait $SP
	assert_rc 0
	assert_json "$T/s.json" 'result(d, "seq512k-write-sync")["spec"]["sync"] == "always" and "flush_ms" in result(d, "seq512k-write-sync")["iterations"][0]'
	# the prefill (so that every iteration overwrites): 64 writes of 1 MiB
	# and its flush; then 128 writes of 512 KiB (the 100 samples a figure
	# needs, and more): one fdatasync each (FUA) plus the final flush
	w=$(awk '$NF == "pwrite64" {print $4}' "$T/st")
	s=$(awk '$NF == "fdatasync" {print $4}' "$T/st")
	[ "${w:-0}" -eq 192 ] && [ "${s:-0}" -eq 130 ] || t_fail "tgtd saw ${w:-0} writes and ${s:-0} fdatasync, expected 192 and 130"
else
	missing "FUA check: strace or the testbox's tgtd.pid"
fi

t_case "a 4Kn LUN (4096-byte blocks): I/O, alignment, a GPT at 4096 is found"
U4K=$IQN:wb/2
if [ ! -f "$LUNS/wb4k.img" ] || ! "$PIO" "$U4K" read 0 4096 >/dev/null 2>&1; then
	missing "4Kn checks: the testbox has no 4Kn LUN $U4K"
else
	dd if=/dev/zero of="$LUNS/wb4k.img" bs=64K count=32 conv=notrunc status=none
	run "$NB" run -t "$U4K" -w seq512k-write,rand4k-read --runtime 300ms --iterations 1 -q -o "$T/4k.json"
	assert_rc 0
	assert_json "$T/4k.json" 'all(r["status"] == "ok" and r["spec"]["size"] == 32 << 20 for r in d["results"])'
	run "$NB" run -t "$U4K" -w rand4k-read --bs 512 --runtime 300ms --iterations 1 -q -o "$T/4k2.json"
	assert_rc 2
	assert_err "nasbench: target 'iscsi': block size 512 and size must be multiples of the target's 4096-byte blocks"
	run env OFFSET=512 "$PIO" "$U4K" read 0 4096
	assert_rc 3
	assert_err "iscsi_pio: target 'pio': offset and size must be multiples of the LUN's block size 4096"
	# a GPT header where a 4Kn disk keeps it (LBA 1 = byte 4096)
	dd if=/dev/zero of="$LUNS/wb4k.img" bs=64K count=32 conv=notrunc status=none
	printf 'EFI PART' | dd of="$LUNS/wb4k.img" bs=1 seek=4096 conv=notrunc status=none
	run "$NB" run -t "$U4K" -w rand4k-write --runtime 300ms --iterations 1 -q -o "$T/4k3.json"
	assert_rc 3
	assert_err "nasbench: target 'iscsi' ($U4K) holds a GPT partition table: writing would destroy it"
	dd if=/dev/zero of="$LUNS/wb4k.img" bs=64K count=32 conv=notrunc status=none
fi

t_case "the ext4 LUN: writing refused with the reason, reading allowed"
run "$NB" run -t "$NASBENCH_ISCSI_EXT4_URL" -w seq512k-write "${SMALL[@]}" -o "$T/e.json"
assert_rc 3
assert_err "nasbench: target 'iscsi' ($NASBENCH_ISCSI_EXT4_URL) holds an ext2/3/4 file system: writing would destroy it; if that is intended, set 'destroy-data = yes' in its [target] section or pass --destroy-data"
run "$NB" run -t "$NASBENCH_ISCSI_EXT4_URL" -w seq512k-read,rand4k-read "${SMALL[@]}" -o "$T/e2.json"
assert_rc 0
assert_json "$T/e2.json" 'all(r["status"] == "ok" for r in d["results"])'

t_case "the ext4 LUN: a window past the file system's start is still refused"
cat > "$T/ext.ini" <<INI
[target ext]
url    = $NASBENCH_ISCSI_EXT4_URL
offset = 16M
size   = 8M
INI
run "$NB" run "$T/ext.ini" -w seq512k-write --runtime 300ms --iterations 1 -q -o "$T/e3.json"
assert_rc 3
assert_err "target 'ext' ($NASBENCH_ISCSI_EXT4_URL) holds an ext2/3/4 file system: writing would destroy it"

t_case "the ext4 LUN: --destroy-data writes (in a window, so the refusal stays testable)"
run "$NB" run "$T/ext.ini" -w seq512k-write --runtime 300ms --iterations 1 -q --destroy-data -o "$T/e4.json"
assert_rc 0
assert_json "$T/e4.json" 'result(d, "seq512k-write")["status"] == "ok"'
if [ -f "$LUNS/ext4.img" ]; then
	check_stamps "$LUNS/ext4.img" $((16 << 20)) $((8 << 20)) 0 || t_fail "--destroy-data did not write the window"
fi

t_case "CHAP: right password works and never shows; missing or wrong is refused"
LOG=$T/chap.all
run "$NB" run -t "$NASBENCH_ISCSI_CHAP_URL" -w seq512k-write,rand4k-read --size 8M --runtime 300ms --iterations 1 -o "$T/c.json"
assert_rc 0
{ echo "$OUT"; echo "$ERR"; cat "$T/c.json"; } > "$LOG"
run "$NB" run -t "$NASBENCH_ISCSI_CHAP_URL" -w seq512k-read --size 8M --runtime 300ms --iterations 1 --json
assert_rc 0
{ echo "$OUT"; echo "$ERR"; } >> "$LOG"
run "$NB" run -t "$NASBENCH_ISCSI_CHAP_URL" -w seq512k-read --size 8M -n
{ echo "$OUT"; echo "$ERR"; } >> "$LOG"
assert_json "$T/c.json" 'all(r["status"] == "ok" for r in d["results"])'
assert_json "$T/c.json" 'd["targets"][0]["url"].startswith("iscsi://nbchap%***@")'
# through the environment, with a bad password: the refusal shows no secret
run env LIBISCSI_CHAP_USERNAME=nbchap LIBISCSI_CHAP_PASSWORD="$PASS" \
	"$NB" run -t "$IQN:chap/1" -w seq512k-read --size 8M --runtime 300ms --iterations 1 -o "$T/c2.json"
assert_rc 0
{ echo "$OUT"; echo "$ERR"; cat "$T/c2.json"; } >> "$LOG"
run "$NB" run -t "${NASBENCH_ISCSI_CHAP_URL/$PASS/${PASS}x}" -w seq512k-read "${SMALL[@]}" -o "$T/c3.json"
assert_rc 3
assert_err "nasbench: target 'iscsi': login to 'iqn.2026-11.org.nasbench:chap' at '$PORTAL' refused"
assert_err "Authentication failure(513) (check the CHAP user and password)"
{ echo "$OUT"; echo "$ERR"; } >> "$LOG"
run "$NB" run -t "$IQN:chap/1" -w seq512k-read "${SMALL[@]}" -o "$T/c4.json"
assert_rc 3
assert_err "refused: Failed to log in to target. Status: Authentication failure(513)"
run env LIBISCSI_CHAP_USERNAME=nbchap "$NB" run -t "$IQN:chap/1" -w seq512k-read "${SMALL[@]}" -o "$T/c5.json"
assert_rc 2
assert_err "nasbench: target 'iscsi': CHAP user 'nbchap' has no password: put it in the URL (user%password@host) or in LIBISCSI_CHAP_PASSWORD"
if grep -qF -- "$PASS" "$LOG" "$T"/*.json; then
	t_fail "the CHAP password appears in an output: $(grep -lF -- "$PASS" "$LOG" "$T"/*.json)"
fi
[ "$(wc -c < "$LOG")" -gt 1000 ] || t_fail "the CHAP outputs were not captured"

t_case "unknown host, refused port, wrong IQN, missing LUN, LUN 0, bad URL"
refused "iscsi://nosuchhost.invalid/iqn.2026-11.org.nasbench:wb/1" 3 "nasbench: target 'iscsi': cannot connect to 'nosuchhost.invalid:3260': Invalid target:nosuchhost.invalid:3260  Can not resolv into IPv4/v6."
refused "iscsi://127.0.0.1:9/iqn.2026-11.org.nasbench:wb/1" 3 "nasbench: target 'iscsi': cannot connect to '127.0.0.1:9': iscsi_service: socket error Connection refused(111)"
refused "$IQN:nosuch/1" 3 "nasbench: target 'iscsi': no target 'iqn.2026-11.org.nasbench:nosuch' at '$PORTAL'" \
	"Target not found(515)"
refused "$IQN:wb/9" 3 "nasbench: target 'iscsi': LUN 9 does not exist on 'iqn.2026-11.org.nasbench:wb'"
refused "$IQN:wb/0" 3 "nasbench: target 'iscsi': LUN 0 of 'iqn.2026-11.org.nasbench:wb' is a storage array controller (SCSI device type 0x0c), not a disk; tgt's LUN 0 is its controller and its disks start at LUN 1"
refused "$IQN:wb" 2 "nasbench: --target: invalid target URL '$IQN:wb': the LUN is missing after the IQN: iscsi://HOST[:PORT]/IQN/LUN, e.g. iscsi://192.0.2.10/iqn.2005-10.org.freenas.ctl:bench/0"
refused "$IQN:wb/x1" 2 "nasbench: --target: invalid target URL '$IQN:wb/x1': LUN 'x1' is not a number from 0 to 16383"

t_case "a LUN smaller than the requested size, a window past its end"
run "$NB" run -t "$NASBENCH_ISCSI_CHAP_URL" -w seq512k-read --size 1G --runtime 300ms --iterations 1 -q -o "$T/small.json"
assert_rc 3
assert_err "nasbench: target 'iscsi' has 32 MiB (the LUN, device or its window), fewer than the size 1 GiB asked for: lower --size"
printf '[target w]\nurl = %s\noffset = 60M\nsize = 8M\n' "$NASBENCH_ISCSI_TMPFS_URL" > "$T/past.ini"
run "$NB" run "$T/past.ini" -w seq512k-read --runtime 300ms --iterations 1 -q -o "$T/past.json"
assert_rc 3
assert_err "nasbench: target 'w': the LUN has 4194304 bytes past the offset, fewer than the size 8388608"

# The fault cases stop and kill a private tgtd of this test (lib.sh tgt_up):
# the shared testbox serves other tests meanwhile.
if ! tgt_up; then
	missing "the fault cases: a private tgtd did not start: $(cat "$T/tgtd.log")"
else
PPORTAL=127.0.0.1:$TGT_PORT

t_case "a target that stops answering: timeout, exit 3, no hang"
kill -STOP "$TGT_PID"
SECONDS=0
run timeout 30 "$NB" run -t "iscsi=$TGT_URL" -w seq512k-read "${SMALL[@]}" --timeout 2s -o "$T/hang.json"
kill -CONT "$TGT_PID"
assert_rc 3
assert_err "nasbench: target 'iscsi': no answer from '$PPORTAL' within 2000 ms"
[ $SECONDS -le 6 ] || t_fail "gave up after $SECONDS s with a 2 s timeout"

t_case "target killed mid-run: finished workloads kept, exit 3, names the target"
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=start:rand4k-read:1 \
"$NBT" run -t "iscsi=$TGT_URL" -w seq512k-write,rand4k-read,seq512k-read --size 16M \
	--runtime 1s --iterations 1 -q -o "$T/kill.json" 2> "$T/kill.err" &
NBPID=$!
hook_wait "$H" start:rand4k-read:1      # the second workload, logged in
kill -9 "$TGT_PID"
hook_go "$H" start:rand4k-read:1
wait $NBPID
RC=$?
ERR=$(cat "$T/kill.err")
for _ in $(seq 50); do kill -0 "$TGT_PID" 2>/dev/null || break; sleep 0.1; done
TGT_PID=
assert_rc 3
assert_err "nasbench: target 'iscsi': connection lost: "
assert_json "$T/kill.json" '[r["status"] for r in d["results"]] == ["ok", "failed", "skipped"]'
assert_json "$T/kill.json" 'len(result(d, "seq512k-write")["iterations"]) == 1 and result(d, "seq512k-write")["summary"]["bw_bytes"]["median"] > 0'
assert_json "$T/kill.json" '"connection lost" in result(d, "rand4k-read")["reason"]'
fi

t_done
