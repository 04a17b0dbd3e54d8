#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nasbench run on local scratch directories, files and bad input.
. "$(dirname "$0")/lib.sh"

D=$T/dir
mkdir -p "$D"
SMALL=(--size 16M --runtime 0.3s --iterations 2)

t_case "quick run: exit 0, JSON shape, plausible figures, scratch removed"
run "$NB" run --target "$D" "${SMALL[@]}" --label layout=raidz1 -o "$T/r.json" --quiet
assert_rc 0
assert_file "$T/r.json"
assert_clean "$D"
[ -z "$OUT" ] || t_fail "--quiet printed: $OUT"
assert_json "$T/r.json" 'd["schema"] == 1 and d["tool"] == "nasbench" and d["complete"] is True'
assert_json "$T/r.json" 'd["labels"] == {"layout": "raidz1", "platform": d["client"]["virtualization"]["platform"]} and d["targets"][0]["runner"] == "posix"'
assert_json "$T/r.json" '[r["workload"] for r in d["results"]] == ["seq512k-write", "seq512k-read", "rand4k-write", "rand4k-read"]'
assert_json "$T/r.json" 'all(r["status"] == "ok" and len(r["iterations"]) == 2 for r in d["results"])'
assert_json "$T/r.json" 'all(1e6 < r["summary"]["bw_bytes"]["median"] < 1e11 for r in d["results"])'
assert_json "$T/r.json" 'all(i["metrics"]["lat_p50_us"] <= i["metrics"]["lat_p99_us"] <= i["metrics"]["lat_p99.9_us"] <= i["metrics"]["lat_max_us"] for r in d["results"] for i in r["iterations"])'
assert_json "$T/r.json" 'all(abs(i["metrics"]["iops"] * r["spec"]["bs"] - i["metrics"]["bw_bytes"]) < 1e-6 * i["metrics"]["bw_bytes"] for r in d["results"] for i in r["iterations"])'
assert_json "$T/r.json" 'result(d, "seq512k-write")["spec"] == {"pattern": "seq", "rw": "write", "read_pct": 0, "bs": 524288, "qd": 16, "size": 16777216, "bytes": 0, "runtime_s": 0.3, "sync": "end", "direct": True, "compress": "incompressible", "dedupe_pct": 0, "random_distribution": "uniform"}'
assert_json "$T/r.json" 'result(d, "rand4k-read")["spec"]["qd"] == 32 and result(d, "rand4k-read")["spec"]["bs"] == 4096'
assert_json "$T/r.json" 'set(result(d, "seq512k-write")["summary"]["bw_bytes"]) == {"n", "median", "mean", "min", "max", "stddev"}'

t_case "the table a person reads"
run "$NB" run --target "$D" "${SMALL[@]}" -w seq512k-read -o "$T/t.json"
assert_rc 0
assert_out "target       workload                   MB/s"
assert_out "local        seq512k-read"
assert_out "result: $T/t.json"
grep -qE 'seq512k-read +[0-9.]+ +±[0-9]+%' <<<"$OUT" || t_fail "2 iterations show no spread: $OUT"

t_case "one iteration: no spread claimed (no ±0%)"
run "$NB" run --target "$D" --size 16M --runtime 0.3s -i 1 -w seq512k-read -o "$T/t1.json"
assert_rc 0
assert_out "local        seq512k-read"
! grep -q "±" <<<"$OUT" || t_fail "n = 1 shows a spread: $OUT"

t_case "--json: the result on stdout, no file"
run bash -c "cd '$T' && '$NB' run --target '$D' --size 8M --iterations 1 -w rand4k-read --json"
assert_rc 0
python3 -c 'import json,sys; from results import result; d=json.loads(sys.argv[1]); assert result(d, "rand4k-read")["workload"]=="rand4k-read"' "$OUT" || t_fail "stdout is not the result JSON"
[ -z "$(ls "$T"/nasbench-*.json 2>/dev/null)" ] || t_fail "--json wrote a file"

t_case "box file, labels from it, command line overrides"
cat > "$T/box.ini" <<INI
[box]
name   = testbox
layout = raidz1
[target scratch]
url = $D
[suite]
workloads  = seq512k-write
iterations = 4
size       = 64M
INI
run "$NB" run "$T/box.ini" --iterations 1 --label layout=raid10 -o "$T/b.json" -q
assert_rc 0
assert_json "$T/b.json" 'd["labels"] == {"name": "testbox", "layout": "raid10", "platform": d["client"]["virtualization"]["platform"]}'
assert_json "$T/b.json" 'len(d["results"]) == 1 and result(d, "seq512k-write")["target"] == "scratch" and len(result(d, "seq512k-write")["iterations"]) == 1'

t_case "config errors: file:line, exact text, exit 2"
printf '[suite]\niodepht = 4\n' > "$T/e1.ini"
run "$NB" run "$T/e1.ini"
assert_rc 2
assert_err "nasbench: $T/e1.ini:2: unknown key 'iodepht' in [suite]; did you mean 'iodepth'?"
printf '[target x]\nurl = %s\n[suite]\nsize = 12Q\n' "$D" > "$T/e2.ini"
run "$NB" run "$T/e2.ini"
assert_rc 2
assert_err "nasbench: $T/e2.ini:4: 'size' in [suite]: invalid size '12Q' (use a number with K, M, G, T, KiB, GB...)"
run "$NB" run "$T/missing.ini"
assert_rc 2
assert_err "nasbench: cannot open config '$T/missing.ini': No such file or directory"
run "$NB" run --target "$D" --workload seq512k-wrte
assert_rc 2
assert_err "nasbench: unknown workload 'seq512k-wrte'; did you mean 'seq512k-write'?"
run "$NB" run
assert_rc 2
assert_err "nasbench: no target: give --target URL or a box file with a [target NAME] section"
run "$NB" run --target "$D" --bogus
assert_rc 2
assert_err "nasbench: unknown option '--bogus' (see 'nasbench help run')"
assert_clean "$D"

t_case "a target that does not exist: exit 3, no result file"
run "$NB" run --target "$T/nope" -o "$T/n.json"
assert_rc 3
assert_err "nasbench: target 'local': cannot use '$T/nope': No such file or directory"
assert_no_file "$T/n.json"

t_case "an existing result survives a failed run"
cp "$T/r.json" "$T/keep.json"
run "$NB" run --target "$T/nope" -o "$T/keep.json"
assert_rc 3
cmp -s "$T/r.json" "$T/keep.json" || t_fail "the old result was changed"

t_case "output in a missing directory: exit 3 (the output cannot be written) before touching the target"
run "$NB" run --target "$D" -o "$T/nodir/r.json"
assert_rc 3
assert_err "nasbench: unable to write '$T/nodir/r.json': No such file or directory"
assert_clean "$D"

t_case "a read-only target: exit 3, says why"
mkdir -p "$T/ro"
if mount -t tmpfs -o ro,size=1m nbro "$T/ro" 2>/dev/null; then
	run "$NB" run --target "$T/ro" --size 1M -o "$T/ro.json"
	assert_rc 3
	assert_err "cannot create scratch directory '$T/ro/nasbench."
	assert_err "': Read-only file system"
	umount "$T/ro"
else
	missing "cannot mount a read-only tmpfs here"
fi

t_case "not enough space: refused before starting, says how much is free"
mkdir -p "$T/small"
if mount -t tmpfs -o size=8m nbsmall "$T/small" 2>/dev/null; then
	run "$NB" run --target "$T/small" --size 64M -o "$T/s.json"
	assert_rc 3
	assert_err "nasbench: target 'local' has 8 MiB free, but the workloads need 64 MiB: lower the size (--size)"
	assert_clean "$T/small"
	t_case "disk full mid-run (ENOSPC): exit 3, names the failure, scratch removed"
	run "$NB" run --target "$T/small" --size 64M --no-space-check -w seq512k-write,seq512k-read --iterations 1 -o "$T/f.json"
	assert_rc 3
	assert_err "nasbench: target 'local': write at offset "
	assert_err " failed: No space left on device"
	assert_json "$T/f.json" 'result(d, "seq512k-write")["status"] == "failed" and "No space left on device" in result(d, "seq512k-write")["reason"]'
	assert_json "$T/f.json" 'result(d, "seq512k-read")["status"] == "skipped" and result(d, "seq512k-read")["reason"] == "an earlier workload on this target failed"'
	assert_clean "$T/small"
	umount "$T/small"
else
	missing "cannot mount a tmpfs here"
fi

t_case "SIGINT: exit 130, partial result with complete false, scratch removed"
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=running \
"$NBT" run --target "$D" --size 16M --runtime 20s --iterations 1 -w seq512k-write,seq512k-read -o "$T/int.json" >"$T/int.out" 2>"$T/int.err" &
pid=$!
hook_wait "$H" running                  # seq512k-write has written 1 MiB
kill -INT $pid
hook_go "$H" running
wait $pid
RC=$?
ERR=$(cat "$T/int.err")
assert_rc 130
assert_err "nasbench: interrupted: the result keeps what finished"
assert_json "$T/int.json" 'd["complete"] is False and result(d, "seq512k-write")["status"] == "interrupted"'
assert_clean "$D"

t_case "a file target: the data-loss guard refuses a file system"
# 64 MiB of 512 KiB I/Os: 128, more than the 100 a figure needs
truncate -s 64M "$T/disk.img"
mkfs.ext4 -q -F "$T/disk.img" >/dev/null 2>&1 || t_fail "mkfs.ext4 failed"
run "$NB" run --target "$T/disk.img" --size 64M --iterations 1 -w seq512k-write -o "$T/g.json"
assert_rc 3
assert_err "nasbench: target 'local' ($T/disk.img) holds an ext2/3/4 file system: writing would destroy it; if that is intended, set 'destroy-data = yes' in its [target] section or pass --destroy-data"
run "$NB" run --target "$T/disk.img" --size 64M --iterations 1 -w seq512k-read -o "$T/g.json" -q
assert_rc 0
run "$NB" run --target "$T/disk.img" --size 64M --iterations 1 -w seq512k-write --destroy-data -o "$T/g.json" -q
assert_rc 0
t_case "a file nasbench wrote before needs no confirmation"
run "$NB" run --target "$T/disk.img" --size 8M --iterations 1 -w rand4k-write -o "$T/g.json" -q
assert_rc 0

t_case "O_DIRECT refused (ramfs): recorded in the result; integrity will not call data verified"
mkdir -p "$T/ram"
if mount -t ramfs nbtest-ramfs "$T/ram"; then
	truncate -s 16M "$T/ram/lun"
	printf 'integrity@rf corrupt_blocks = 0\n' > "$T/rf.accept"
	run "$NB" run -t "rf=$T/ram/lun" --destroy-data -w integrity,seq512k-read -i 1 --size 8M --runtime 0.2s --accept "$T/rf.accept" -o "$T/rf.json"
	assert_rc 1
	assert_json "$T/rf.json" 'all(r["spec"]["direct"] is False and r["spec"]["direct_refused"] is True for r in d["results"])'
	assert_json "$T/rf.json" 'all(any(w.startswith("O_DIRECT was refused on target \u0027rf\u0027: I/O went through this client\u0027s page cache") for w in r["warnings"]) for r in d["results"])'
	assert_json "$T/rf.json" '(lambda i: i["verified"] is False and "corrupt_blocks" not in i["metrics"])(result(d, "integrity")["iterations"][0])'
	assert_err "nasbench: warning: target 'rf': the file system under '$T/ram/lun' refuses O_DIRECT; measuring through the page cache"
	assert_json "$T/rf.json" 'd["accept"]["verdict"] == "fail"'
	umount "$T/ram"
else
	t_fail "cannot mount a ramfs (the test runs as root)"
fi

t_case "a data set that fits in the box's RAM is warned; --size auto is twice the RAM"
# --monitor off: the warnings asserted whole are the data set's; on a busy
# machine this machine's CPU-bound verdict would join them
run "$NB" run -t "$D" -w seq512k-read,syncprobe --monitor off --label ram=64M --size 32M -i 1 --runtime 2s -q -o "$T/ram.json"
assert_rc 0
assert_json "$T/ram.json" 'result(d, "seq512k-read")["warnings"] == ["data set 32 MiB is less than twice the box\u0027s RAM (64 MiB): it can sit in the box\u0027s cache, so the figures may measure RAM, not the disks; use --size auto (twice the RAM) for disk figures"] and not any("RAM" in w for w in result(d, "syncprobe")["warnings"]) and d["labels"]["ram"] == "64M"'
run "$NB" run -t "$D" -w seq512k-read --monitor off --label ram=64M --size auto -i 1 --runtime 0.2s -q -o "$T/ram.json"
assert_rc 0
assert_json "$T/ram.json" 'result(d, "seq512k-read")["spec"]["size"] == 128 << 20 and result(d, "seq512k-read")["warnings"] == []'
run "$NB" run -t "$D" -w seq512k-read --size auto -i 1 --dry-run
assert_rc 2
assert_err "nasbench: size = auto is twice the box's RAM, which is not known: set 'ram' in [box] or pass --label ram=SIZE"
run "$NB" run -t "$D" -w seq512k-read --label ram=lots --dry-run
assert_rc 2
assert_err "nasbench: --label: invalid size 'lots'"

t_case "messages in the user's units; target problems are exit 3"
run "$NB" run -t "$D" --size 0 --dry-run
assert_rc 2
assert_err "nasbench: --size: value '0' is too small: at least 4 KiB"
run "$NB" run -t "$D" --runtime 0s --dry-run
assert_rc 2
assert_err "nasbench: --runtime: value '0s' is too small: at least 0.001 s"
run "$NB" run -t "$D" --bs 1 --dry-run
assert_rc 2
assert_err "nasbench: --bs: value '1' out of range (512 B to 64 MiB)"
run "$NB" run -t "$D" -l layout=raidz9 --dry-run
assert_rc 2
assert_err "nasbench: --label: 'raidz9' is not one of raidz1|raidz2|raidz3|mirror|raid10|raid5|raid6|raid1|raid0|stripe|single"
run "$NB" run -t /proc/version -w seq512k-read -i 1 --size 8M -o "$T/pv.json"
assert_rc 3
assert_err "nasbench: target 'local': '/proc/version' is empty; give a directory, or a file or device with room to write"
assert_no_file "$T/pv.json"
run "$NB" run -t /dev/null -w seq512k-read -i 1 --size 8M -o "$T/pv.json"
assert_rc 3
assert_err "nasbench: target 'local': '/dev/null' is not a directory, file or block device"

t_case "the plan's first line says where the workloads came from"
run "$NB" run -t "$D" --dry-run
assert_out "plan: 1 target(s) x 4 workload(s) x 3 iteration(s) (the default workloads: no --suite or --workload given)"
run "$NB" run -t "$D" -s quick --dry-run
assert_out "plan: 1 target(s) x 4 workload(s) x 3 iteration(s) (suite 'quick')"
run "$NB" run -t "$D" -w rand4k-read -i 1 --size 8M --runtime 0.1s -o "$T/pl.json"
assert_rc 0
assert_out "plan: 1 target(s) x 1 workload(s) x 1 iteration(s) (the workloads given with --workload)"

t_case "--dry-run touches nothing"
run "$NB" run --target "$D" --suite quick --dry-run
assert_rc 0
assert_out "plan: 1 target(s) x 4 workload(s) x 3 iteration(s)"
assert_clean "$D"

t_case "progress on a terminal"
if command -v script >/dev/null; then
	script -qec "$NB run --target $D --size 8M --runtime 1s --iterations 1 -w seq512k-read -o $T/p.json" /dev/null >"$T/tty.out" 2>&1
	grep -q $'\r'"seq512k-read on local (1/1)" "$T/tty.out" || t_fail "no progress line on a tty"
	grep -q "MB/s" "$T/tty.out" || t_fail "progress line lacks MB/s"
fi

t_case "help, list, version"
run "$NB" help run
assert_rc 0
assert_out "usage: nasbench run [BOX.ini] [options]"
run "$NB" help config
assert_out "iodepth"
# each section once, in one order, its keys under it
heads=$(grep -E '^\[' <<<"$OUT" | sed 's/\].*/]/' | tr '\n' ' ')
[ "$heads" = "[box] [target NAME] [suite] [capacity] [vm] [failure] [replay] [accept] [clients] " ] ||
	t_fail "help config's sections: '$heads'"
run "$NB" list
assert_out "seq512k-read"
assert_out "quick"
assert_out "posix"
run "$NB" version
assert_out "libnfs    4.0.0"
run "$NB" rnu
assert_rc 2
assert_err "nasbench: 'rnu' is not a nasbench command; did you mean 'run'?"

t_done
