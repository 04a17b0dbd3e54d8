#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_nfs.sh - the NFS runner against the testbox's nfs-ganesha: writes (async
# and sync), reads, metadata calls, and every fault the runner
# must survive.
. "$(dirname "$0")/lib.sh"

# Every case runs on a testbox of this test alone (lib.sh private_testbox):
# the fault cases stop and kill its ganesha while other tests use the
# shared one, and two runs of this test at once do not meet.
private_testbox || { t_done; exit 1; }
URL=$PRIV_NFS_URL
TMPFS_URL=$PRIV_NFS_TMPFS_URL
HOST=${URL#nfs://}
HOST=${HOST%%/*}
# the testbox runs on this machine: the export's directory is the URL's path
EXPORT=/${URL#nfs://*/}
STATE=$(dirname "$EXPORT")
GANESHA_PID=$PTB/nfs-ganesha.pid
REFUSED_ARGS=(-q -w seq512k-write --size 4M -i 1)      # lib.sh refused

# scratch_gone RESULT DIR: the run of RESULT left no nasbench.<run-id> in DIR
# (other people's runs on the shared testbox may have theirs there)
scratch_gone() {
	local id
	id=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['run_id'])" "$1" 2>/dev/null)
	[ -n "$id" ] || { t_fail "no run_id in $1"; return; }
	[ ! -e "$2/nasbench.$id" ] || t_fail "scratch left: $2/nasbench.$id"
}
# drop_scratch RESULT DIR: remove what a run could not (its server was gone)
drop_scratch() {
	local id
	id=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['run_id'])" "$1" 2>/dev/null)
	[ -n "$id" ] && rm -rf "${2:?}/nasbench.$id"
}

result_status() { # FILE WORKLOAD -> status
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print([r['status'] for r in d['results'] if r['workload']==sys.argv[2]][0])" "$1" "$2"
}

t_case "async and sync writes, reads"
run "$NB" run -q -t "nas=$URL" -w seq512k-write,seq512k-write-sync,seq512k-read,rand4k-write,rand4k-read \
	--size 16M --runtime 300ms -i 1 -o "$T/io.json"
assert_rc 0
assert_json "$T/io.json" 'd["targets"][0]["runner"] == "nfs" and d["targets"][0]["url"] == "'"$URL"'"'
assert_json "$T/io.json" 'all(r["status"] == "ok" for r in d["results"]) and len(d["results"]) == 5'
# every figure in a plausible range: 1 MB/s .. 20 GB/s over loopback
assert_json "$T/io.json" 'all(1e6 < r["iterations"][0]["metrics"]["bw_bytes"] < 2e10 for r in d["results"])'
assert_json "$T/io.json" '[r["spec"]["sync"] for r in d["results"]][:2] == ["end", "always"]'
# the async write ends with a COMMIT whose time is in the figure
assert_json "$T/io.json" 'result(d, "seq512k-write")["iterations"][0]["flush_ms"] > 0'
assert_json "$T/io.json" 'result(d, "seq512k-read")["iterations"][0]["bytes_read"] >= 16 << 20 and result(d, "seq512k-read")["iterations"][0]["bytes_read"] % (512 << 10) == 0'
scratch_gone "$T/io.json" "$EXPORT"

# What the server does, watched from outside: ganesha's VFS backend calls
# fsync() for every FILE_SYNC WRITE and for a COMMIT.  128 writes of 512
# KiB (the 100 a figure needs, and more).
t_case "sync writes are FILE_SYNC, async writes UNSTABLE + one COMMIT"
if command -v strace >/dev/null && [ -n "$TMPFS_URL" ]; then
	for w in seq512k-write seq512k-write-sync; do
		strace -f -qq -c -e trace=fsync,fdatasync -p "$(cat "$GANESHA_PID")" -o "$T/st.$w" 2>/dev/null &
		st=$!
		wait_traced "$(cat "$GANESHA_PID")"
		"$NB" run -q -t "nas=$TMPFS_URL" -w $w --size 64M -i 1 -o "$T/st.json" ||
			t_fail "$w failed"
		kill -INT $st
		wait $st
	done
	n_async=$(awk '$NF ~ /^f(data)?sync$/ {n += $4} END {print n + 0}' "$T/st.seq512k-write")
	n_sync=$(awk '$NF ~ /^f(data)?sync$/ {n += $4} END {print n + 0}' "$T/st.seq512k-write-sync")
	[ "$n_sync" -ge 128 ] || t_fail "sync run: $n_sync fsyncs on the server, expected one per WRITE (128)"
	[ "$n_async" -ge 1 ] && [ "$n_async" -le 8 ] ||
		t_fail "async run: $n_async fsyncs on the server, expected the COMMIT only"
else
	missing "FILE_SYNC case: needs strace and NASBENCH_NFS_TMPFS_URL"
fi

t_case "block sizes above the server's maximum are split"
run "$NB" run -q -t "nas=$URL" -w seq512k-write,seq512k-read --bs 4M --size 16M --runtime 1s -i 1 -o "$T/big.json"
assert_rc 0
assert_json "$T/big.json" 'all(r["status"] == "ok" and r["spec"]["bs"] == 4 << 20 for r in d["results"])'
assert_json "$T/big.json" 'result(d, "seq512k-read")["iterations"][0]["bytes_read"] >= 16 << 20 and result(d, "seq512k-read")["iterations"][0]["bytes_read"] % (4 << 20) == 0'
scratch_gone "$T/big.json" "$EXPORT"

t_case "metadata calls: mkdir, stat, rename, readdir, unlink, rmdir"
run "$TOOLS/nfs_meta" "$URL" "meta$$"
assert_rc 0
assert_out "fua write ok"
assert_out "readback same"
assert_out "stat size 100000 dir 0"
assert_out "stat d dir 1"
assert_out "entry g"
assert_out "stat d/f: target 'meta': cannot stat '/nasbench.meta$$/d/f': No such file or directory"
assert_out "rmdir d refused"
# what the server holds, seen on its own file system
[ "$(stat -c %s "$EXPORT/nasbench.meta$$/d/g" 2>/dev/null)" = 100000 ] ||
	t_fail "d/g is not on the export with 100000 bytes"
[ -d "$EXPORT/nasbench.meta$$/e" ] || t_fail "directory e is not on the export"
rm -rf "$EXPORT/nasbench.meta$$"
run "$TOOLS/nfs_meta" "$URL" "meta2$$" clean
assert_rc 0
assert_out "unlink rmdir ok"
[ ! -e "$EXPORT/nasbench.meta2$$" ] || t_fail "scratch left: $EXPORT/nasbench.meta2$$"

t_case "no server at the address"
start=$(date +%s)
run "$NB" run -q -t "nfs://127.0.0.9/export" -w seq512k-write --size 4M -i 1 --timeout 3s -o "$T/f.json"
assert_rc 3
assert_err "nasbench: target 'nfs': cannot reach NFS server '127.0.0.9'"
[ $(($(date +%s) - start)) -le 6 ] || t_fail "took $(($(date +%s) - start)) s"
# nothing ran: no half-written result
assert_no_file "$T/f.json"

t_case "no such export"
refused "nfs://$HOST/no/such/export" 3 "nasbench: target 'nfs': NFS server '$HOST' refused to mount '/no/such/export': Permission denied (no export holds it, or it is not exported to this client)"

t_case "export not for this client"
refused "nfs://$HOST$STATE/denied" 3 "refused to mount '$STATE/denied': Permission denied"

t_case "a directory that does not exist below the export"
refused "nfs://$HOST$EXPORT/missing$$" 3 "nasbench: target 'nfs': '$EXPORT/missing$$' does not exist on NFS server '$HOST' (export '$EXPORT')"

t_case "a path that is a file"
echo data >"$EXPORT/afile$$"
refused "nfs://$HOST$EXPORT/afile$$" 3 "'$EXPORT/afile$$' on NFS server '$HOST' is a file, not a directory"
rm -f "$EXPORT/afile$$"

t_case "permission denied"
mkdir -m 0755 "$EXPORT/ro$$"
refused "nfs://$HOST$EXPORT/ro$$?uid=65534&gid=65534" 3 "nasbench: target 'nfs': cannot create the scratch directory '$EXPORT/ro$$/nasbench." \
	"on NFS server '$HOST': Permission denied"
[ -z "$(ls -A "$EXPORT/ro$$")" ] || t_fail "files left in $EXPORT/ro$$"
rmdir "$EXPORT/ro$$"

t_case "version=4 is refused before any traffic"
refused "nfs://$HOST$EXPORT?version=4" 2 "nasbench: target 'nfs': NFSv4 is not supported: libnfs 4.0.0 cannot write 4 KiB or more over NFSv4; use version=3 (the default)"

t_case "a mistyped URL argument"
refused "nfs://$HOST$EXPORT?verison=3" 2 "unknown NFS URL argument 'verison'; did you mean 'version'?"

# A box file: the target's name and its timeout come from it.
cat >"$T/box.ini" <<EOF
[target nas]
url = $URL
timeout = 2s
EOF

# strike NAME SIGNAL [ARG...]: the test build runs seq512k-write then
# rand4k-read on box.ini (ARGs added) into $T/NAME.json; once rand4k-read has
# its mount, ganesha gets SIGNAL and the run goes on.  Sets RC and ERR, and
# checks what either fault must give: exit 3 within the timeout (2 s, and
# 4 s of slack after the signal), seq512k-write kept, rand4k-read failed.
strike() {
	local name=$1 sig=$2 h pid t0 waited
	shift 2
	h=$(hook_dir)
	NASBENCH_TEST_PAUSE=$h NASBENCH_TEST_PAUSE_AT=start:rand4k-read:1 \
	"$NBT" run "$T/box.ini" "$@" -w seq512k-write,rand4k-read --size 8M --runtime 1s -i 1 \
		-o "$T/$name.json" >"$T/$name.out" 2>"$T/$name.err" &
	pid=$!
	hook_wait "$h" start:rand4k-read:1      # the second workload, mounted
	kill -"$sig" "$(cat "$GANESHA_PID")"
	# the shell's own clock at both ends: the end was taken by a python3
	# started after the run had ended, whose start (pyenv's shims) took
	# seconds of a loaded machine's (13.3 s "after SIGSTOP" at a load of 17)
	t0=$EPOCHREALTIME
	hook_go "$h" start:rand4k-read:1
	wait $pid
	RC=$?
	waited=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
	ERR=$(cat "$T/$name.err")
	assert_rc 3
	awk -v w="$waited" 'BEGIN { exit !(w < 2 + 4) }' ||
		t_fail "took $waited s after SIG$sig to the server (timeout 2 s)"
	[ "$(result_status "$T/$name.json" seq512k-write)" = ok ] || t_fail "seq512k-write not kept"
	[ "$(result_status "$T/$name.json" rand4k-read)" = failed ] || t_fail "rand4k-read not failed"
}

t_case "server hangs mid-run: exit 3 within the timeout, finished workloads kept"
strike hang STOP -q
kill -CONT "$(cat "$GANESHA_PID")"
assert_err "nasbench: target 'nas': no answer from NFS server '$HOST' within 2 s"
assert_json "$T/hang.json" 'len(result(d, "seq512k-write")["iterations"]) == 1'
drop_scratch "$T/hang.json" "$EXPORT"    # the server could not be asked to

t_case "server killed mid-run: exit 3, names the target, keeps finished workloads"
strike kill KILL
assert_err "nasbench: target 'nas': lost the connection to NFS server '$HOST'"
assert_err "warning: target 'nas': could not remove the scratch directory '$EXPORT/nasbench."
assert_json "$T/kill.json" 'd["complete"] is True and result(d, "seq512k-write")["summary"]["bw_bytes"]["median"] > 1e6'
# what was left on the user's storage is in the result, also under -q
assert_json "$T/kill.json" 'd["targets"][0]["leftover"].startswith("could not remove the scratch directory") and "'"$EXPORT"'/nasbench." in d["targets"][0]["leftover"]'
drop_scratch "$T/kill.json" "$EXPORT"
# ganesha must be back, which the next run shows
private_testbox_up 2>"$T/up.err"
run "$NB" run -q -t "nas=$URL" -w seq512k-write --size 4M --runtime 300ms -i 1 -o "$T/back.json"
assert_rc 0
[ "$RC" -eq 0 ] || t_fail "ganesha is not back after 'ci/testbox up': $(cat "$T/up.err")"

t_case "ENOSPC on the export"
if [ -n "$TMPFS_URL" ]; then
	TMPFS=/${TMPFS_URL#nfs://*/}
	# 4 KiB writes at queue depth 1 are slow enough to fill the rest under them
	"$NB" run -q -t "small=$TMPFS_URL" -w seq512k-write --bs 4k --iodepth 1 --size 256M -i 1 \
		-o "$T/nospc.json" >"$T/nospc.out" 2>"$T/nospc.err" &
	pid=$!
	for _ in $(seq 100); do [ -n "$(ls -d "$TMPFS"/nasbench.* 2>/dev/null)" ] && break; sleep 0.05; done
	avail=$(df -B1 --output=avail "$TMPFS" | tail -1)
	fallocate -l "$avail" "$TMPFS/filler$$" 2>/dev/null ||
		head -c "$avail" /dev/zero >"$TMPFS/filler$$" 2>/dev/null
	wait $pid
	RC=$?
	ERR=$(cat "$T/nospc.err")
	rm -f "$TMPFS/filler$$"
	assert_rc 3
	assert_err "nasbench: target 'small': write at offset"
	assert_err "failed: No space left on device"
	[ "$(result_status "$T/nospc.json" seq512k-write)" = failed ] || t_fail "not recorded as failed"
	scratch_gone "$T/nospc.json" "$TMPFS"
else
	missing "ENOSPC case: NASBENCH_NFS_TMPFS_URL is unset"
fi

t_done
