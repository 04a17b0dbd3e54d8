#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Reads of a LUN's (or a file target's) unwritten space, and
# sequential writes that are alike in every iteration (item 7):
# nasbench counts what it really wrote, prefills the rest before reading
# (the iteration's prefilled_bytes), and warns only when it may not write.
# A private tgtd serves sparse LUN files, so the server's allocation is the
# truth of what was written.  Runs of 64 MiB: 128 requests of 512 KiB, the
# 100 samples a figure needs and more.
. "$(dirname "$0")/lib.sh"

command -v tgtd >/dev/null || { echo "FAIL: tgtd is not installed (ci/install-deps)" >&2; exit 1; }

# allocated bytes of a sparse file: what was really written to it
alloc() { echo $(( $(stat -c '%b * %B' "$1") )); }

if ! tgt_up big:256M small:64M foreign:64M seqw:64M; then
	t_case "private tgtd"; t_fail "cannot start tgtd: $(cat "$T/tgtd.log")"
	t_done
	exit
fi
LUN=$TGT_IQN

t_case "iSCSI: a read after a short syncprobe prefills what the probe did not write"
# 0.2 s of queue-depth-1 writes covers far less than 256 MiB
run "$NB" run -t "lun=$LUN:big/1" -w syncprobe,seq512k-read --size 256M --runtime 0.2s -i 1 -q -o "$T/probe.json"
assert_rc 0
assert_json "$T/probe.json" '[r["status"] for r in d["results"]] == ["ok", "ok"]'
assert_json "$T/probe.json" '0 < result(d, "seq512k-read")["iterations"][0]["prefilled_bytes"] < 256 << 20'
assert_json "$T/probe.json" 'not any("thin LUN" in w for w in result(d, "seq512k-read").get("warnings", []))'
# the server holds data everywhere the read went: nothing unwritten was read
[ "$(alloc "$T/big.img")" -ge $((256 << 20)) ] || t_fail "LUN file has $(alloc "$T/big.img") bytes allocated, not 256 MiB"

t_case "iSCSI: a read-only run on a blank LUN writes it first, once"
run "$NB" run -t "lun=$LUN:small/1" -w seq512k-read,rand4k-read -i 2 -q -o "$T/blank.json"
assert_rc 0
assert_json "$T/blank.json" '[i["prefilled_bytes"] for r in d["results"] for i in r["iterations"]] == [64 << 20, 0, 0, 0]'
# the prefill's CPU is its iteration's prefill_cpu_s (ci/bench-fio-engines
# leaves it out of nasbench's CPU per I/O); iterations without one have none
assert_json "$T/blank.json" '[("prefill_cpu_s" in i) for r in d["results"] for i in r["iterations"]] == [True, False, False, False]'
assert_json "$T/blank.json" '0 < d["results"][0]["iterations"][0]["prefill_cpu_s"] < 30'
assert_json "$T/blank.json" 'not any(r.get("warnings") for r in d["results"])'
[ "$(alloc "$T/small.img")" -ge $((64 << 20)) ] || t_fail "LUN file has $(alloc "$T/small.img") bytes allocated, not 64 MiB"

t_case "iSCSI: a LUN holding data nasbench did not write is read as it is, with the thin-LUN warning"
head -c 1M /dev/urandom > "$T/foreign.head"
dd if="$T/foreign.head" of="$T/foreign.img" conv=notrunc status=none
run "$NB" run -t "lun=$LUN:foreign/1" -w seq512k-read -i 1 -q -o "$T/foreign.json"
assert_rc 0
assert_json "$T/foreign.json" 'result(d, "seq512k-read")["iterations"][0]["prefilled_bytes"] == 0'
assert_json "$T/foreign.json" 'any(w.startswith("read what the target holds, not data nasbench wrote (target ") and w.endswith("): unwritten areas of a thin LUN may read faster than real data") for w in result(d, "seq512k-read")["warnings"])'
cmp -s -n $((1 << 20)) "$T/foreign.head" "$T/foreign.img" || t_fail "the LUN's data was changed"

t_case "iSCSI: every iteration of a sequential write overwrites: the LUN is prefilled first, once"
run "$NB" run -t "lun=$LUN:seqw/1" -w seq512k-write -i 3 -q -o "$T/seqw.json"
assert_rc 0
assert_json "$T/seqw.json" '[i["prefilled_bytes"] for i in result(d, "seq512k-write")["iterations"]] == [64 << 20, 0, 0]'
assert_json "$T/seqw.json" '[i["bytes_written"] for i in result(d, "seq512k-write")["iterations"]] == [64 << 20] * 3'

tgt_down

t_case "file target: a read on a sparse file prefills it (no holes read)"
truncate -s 128M "$T/file.img"
# --monitor off: the warnings asserted absent are the unwritten reads';
# a local target is watched by default, and on a busy machine this
# machine's CPU-bound verdict (or its page cache's) would join them
run "$NB" run -t "$T/file.img" -w seq512k-read --size 64M -i 1 --monitor off -q -o "$T/file.json"
assert_rc 0
assert_json "$T/file.json" 'result(d, "seq512k-read")["iterations"][0]["prefilled_bytes"] == 64 << 20'
assert_json "$T/file.json" 'not result(d, "seq512k-read").get("warnings")'
[ "$(alloc "$T/file.img")" -ge $((64 << 20)) ] || t_fail "file has $(alloc "$T/file.img") bytes allocated, not 64 MiB"

t_case "file target: every iteration of a sequential write overwrites, after one prefill"
truncate -s 128M "$T/seqw-file.img"
run "$NB" run -t "$T/seqw-file.img" -w seq512k-write --size 64M -i 3 -q -o "$T/seqw-file.json"
assert_rc 0
assert_json "$T/seqw-file.json" '[i["prefilled_bytes"] for i in result(d, "seq512k-write")["iterations"]] == [64 << 20, 0, 0]'

t_done
