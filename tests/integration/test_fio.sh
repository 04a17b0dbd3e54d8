#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fio as an engine, --cross-check, and fio client/server with real
# 'fio --server' instances on loopback ports (started and stopped by pid).
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null || { echo "FAIL test_fio.sh: cannot run: fio is not installed (ci/install-deps)" >&2; exit 1; }

SERVERS=()
stop_servers() {
	for p in "${SERVERS[@]}"; do kill -9 -- "-$p" 2>/dev/null; done
	SERVERS=()
}
trap 'stop_servers; rm -rf "$T"' EXIT

# start_server PORT: 'fio --server' in a process group of its own
start_server() {
	setsid fio --server=ip:127.0.0.1,"$1" >/dev/null 2>&1 &
	SERVERS+=($!)
	disown $!       # no "Killed" notice when a case kills it
	for _ in $(seq 50); do
		python3 -c "import socket,sys; socket.create_connection(('127.0.0.1',$1),0.2)" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "fio --server on port $1 did not start" >&2
}

D=$T/data; mkdir -p "$D"
SMALL="--size 64M --runtime 1s"

t_case "engine=fio runs and records the job file"
run "$NB" run --target "$D" --engine fio -w rand4k-read,seq512k-write,rand4k-mix $SMALL -i 1 -o "$T/fio.json" -q
assert_rc 0
assert_json "$T/fio.json" 'all(r["status"] == "ok" for r in d["results"])'
assert_json "$T/fio.json" 'all(1e6 < it["metrics"]["bw_bytes"] < 1e11 and it["metrics"]["iops"] > 1 for r in d["results"] for it in r["iterations"])'
assert_json "$T/fio.json" 'all(0 < it["metrics"]["lat_p50_us"] <= it["metrics"]["lat_p99_us"] <= it["metrics"]["lat_max_us"] for r in d["results"] for it in r["iterations"])'
assert_json "$T/fio.json" 'all(it["fio"]["version"].startswith("fio-3") and "[global]" in it["fio"]["job"] for r in d["results"] for it in r["iterations"])'
assert_json "$T/fio.json" '"rw=randread" in result(d, "rand4k-read")["iterations"][0]["fio"]["job"] and "end_fsync=1" in result(d, "seq512k-write")["iterations"][0]["fio"]["job"] and "rwmixread=70" in result(d, "rand4k-mix")["iterations"][0]["fio"]["job"]'
assert_clean "$D"

t_case "the recorded job file reproduces the run with fio alone"
python3 -c 'import json,sys; from results import result; d=json.load(open(sys.argv[1])); print(result(d, "rand4k-read")["iterations"][0]["fio"]["job"], end="")' "$T/fio.json" \
	| sed "s#^filename=.*#filename=$T/again#" >"$T/again.fio"
run fio --output-format=json "$T/again.fio"
assert_rc 0
assert_out '"jobname" : "nasbench"'
rm -f "$T/again"

t_case "ioengine knob: psync and libaio"
run "$NB" run --target "$D" --engine fio --ioengine psync -w rand4k-read $SMALL -i 1 -o "$T/psync.json" -q
assert_rc 0
assert_json "$T/psync.json" 'result(d, "rand4k-read")["iterations"][0]["fio"]["ioengine"] == "psync"'
assert_json "$T/psync.json" 'any("psync is synchronous" in w for w in result(d, "rand4k-read")["warnings"])'
cat >"$T/box.ini" <<EOF
[target local]
url = $D
engine = fio
ioengine = libaio
EOF
run "$NB" run "$T/box.ini" -w seq512k-read $SMALL -i 1 -o "$T/libaio.json" -q
assert_rc 0
assert_json "$T/libaio.json" '"ioengine=libaio" in result(d, "seq512k-read")["iterations"][0]["fio"]["job"]'
assert_clean "$D"

t_case "fio and the posix runner both find a throttled disk's limit"
# A ground truth both must find: the test's processes (nasbench and the fio
# it starts) go into a blkio cgroup that throttles the scratch file's disk
# to 40 MiB/s and 200 read IOPS (2000 was above what this disk gave random
# 4 KiB reads with two make checks and a sanitizer run beside it: 219-277,
# and the limit was then no ground truth).  Unthrottled, on this shared 2-core
# machine (load 8-9 while 8 sessions build and test), single runs of either
# engine swing by +-30%, so agreement there is reported by ci/bench-fio.
# Throttled, they still swing (0.84-1.34 seen at load 12-24): the test asks
# for the physics - each engine near the limit, the two within a factor of
# 1.5 - and the 10% bar is ci/bench-fio's, in alternating rounds.
CG=/sys/fs/cgroup/blkio/nb-fio-test.$$
DEV=$(findmnt -no MAJ:MIN -T "$D" 2>/dev/null | tr -d ' ')
if mkdir "$CG" 2>/dev/null &&
   echo "$DEV 41943040" >"$CG/blkio.throttle.read_bps_device" 2>/dev/null &&
   echo "$DEV 41943040" >"$CG/blkio.throttle.write_bps_device" 2>/dev/null &&
   echo "$DEV 200" >"$CG/blkio.throttle.read_iops_device" 2>/dev/null; then
	(echo $BASHPID >"$CG/cgroup.procs"
	 exec "$NB" run --target "$D" --cross-check -w seq512k-read,seq512k-write,rand4k-read \
		--size 64M --runtime 2s -i 3 -o "$T/x.json" -q) >"$T/.out" 2>"$T/.err"
	RC=$?; ERR=$(cat "$T/.err")
	rmdir "$CG"
	assert_rc 0
	python3 - "$T/x.json" <<'PY' || t_fail "fio and nasbench disagree on a throttled disk (see above)"
import json, sys
rs = {r["workload"]: r for r in json.load(open(sys.argv[1]))["results"]}
ok = True
for w, metric, limit in (("seq512k-read", "bw_bytes", 41943040), ("seq512k-write", "bw_bytes", 41943040),
                         ("rand4k-read", "iops", 200)):
    its = rs[w]["iterations"]
    nb = sorted(it["metrics"][metric] for it in its)[1]
    fio = sorted(it["cross_check"]["metrics"][metric] for it in its)[1]
    good = 1 / 1.5 <= fio / nb <= 1.5 and 0.5 <= nb / limit <= 1.25 and 0.5 <= fio / limit <= 1.25
    ok &= good
    print("  throttled %-14s %-8s limit %.0f: nasbench %.0f, fio %.0f (fio/nasbench %.3f) %s"
          % (w, metric, limit, nb, fio, fio / nb, "ok" if good else "OUT OF RANGE"))
sys.exit(0 if ok else 1)
PY
else
	rmdir "$CG" 2>/dev/null
	echo "  (no blkio cgroup throttling here: sanity bounds only)"
	run "$NB" run --target "$D" --cross-check -w seq512k-read,rand4k-read $SMALL -i 3 -o "$T/x.json" -q
	assert_rc 0
	assert_json "$T/x.json" 'all(0.5 <= r["summary"]["xcheck_bw_ratio"]["median"] <= 2 for r in d["results"])'
fi
assert_json "$T/x.json" 'all(it["cross_check"]["engine"] == "fio" and it["cross_check"]["metrics"]["bw_bytes"] > 0 and abs(it["cross_check"]["ratio"]["bw_bytes"] - it["cross_check"]["metrics"]["bw_bytes"] / it["metrics"]["bw_bytes"]) < 1e-6 for r in d["results"] for it in r["iterations"])'
assert_clean "$D"

t_case "cross-check flags a difference over 10%"
# the same spec, but fio through psync: queue depth 1 instead of 32
run "$NB" run --target "$D" --cross-check --ioengine psync -w rand4k-read $SMALL -i 1 -o "$T/flag.json"
assert_rc 0
assert_err "warning: rand4k-read on 'local': cross-check: fio/nasbench throughput 0."
assert_err "(median of 1 iteration, 0."
assert_out "local rand4k-read: warning: cross-check: fio/nasbench throughput 0."
assert_json "$T/flag.json" 'any("more than 10% apart" in w for w in result(d, "rand4k-read")["warnings"]) and result(d, "rand4k-read")["iterations"][0]["cross_check"]["flagged"] is True'

t_case "bad engine settings are config errors"
run "$NB" run --target "$D" --engine fios -w rand4k-read -i 1 -q
assert_rc 2
assert_err "nasbench: --engine: 'fios' is not one of native|fio"
run "$NB" run --target "$D" --engine fio --ioengine aio -w rand4k-read -i 1 -q
assert_rc 2
assert_err "nasbench: --ioengine: 'aio' is not one of io_uring|libaio|psync"
printf '[target t]\nurl = %s\nioengine = sync\n' "$D" >"$T/bad.ini"
run "$NB" run "$T/bad.ini" -q
assert_rc 2
assert_err "bad.ini:3: 'ioengine' in [target]: 'sync' is not one of io_uring|libaio|psync"
if "$NB" list | grep -q 'nfs://'; then
	# Debian's fio: no nfs engine (test_fio_remote.sh runs one that has it)
	NASBENCH_FIO=$(command -v fio) run "$NB" run --target nfs://127.0.0.1/export/x --engine fio -q
	assert_rc 2
	assert_err "engine = fio on 'nfs://' needs fio's nfs engine, and '$(command -v fio)' has none"
else
	echo "  (nfs runner not merged: engine = fio on nfs:// checked in the unit test only)"
fi

t_case "fio missing or failing"
NASBENCH_FIO=/nonexistent/fio run "$NB" run --target "$D" --engine fio -w rand4k-read $SMALL -i 1 -o "$T/nofio.json" -q
assert_rc 3
assert_err "cannot run '/nonexistent/fio': No such file or directory (engine = fio needs fio: apt-get install fio)"
assert_json "$T/nofio.json" 'result(d, "rand4k-read")["status"] == "failed"'
assert_clean "$D"

t_case "interrupting a fio run"
"$NB" run --target "$D" --engine fio -w seq512k-read --size 64M --runtime 20s -i 1 -o "$T/int.json" -q >/dev/null 2>&1 &
pid=$!
# the interrupt lands while fio runs: once nasbench has a fio child
for _ in $(seq 600); do pgrep -P $pid -x fio >/dev/null && break; sleep 0.05; done
pgrep -P $pid -x fio >/dev/null || t_fail "nasbench started no fio in 30 s"
kill -INT $pid; wait $pid; RC=$?
assert_rc 130
assert_json "$T/int.json" 'd["complete"] is False and result(d, "seq512k-read")["status"] == "interrupted"'
assert_clean "$D"

t_case "three fio clients at once"
P1=$(free_port); P2=$(free_port); P3=$(free_port)
printf '# VM hosts\n127.0.0.1:%s\n127.0.0.1:%s   ; second\n127.0.0.1:%s\n' "$P1" "$P2" "$P3" >"$T/clients"
run "$NB" run --target "$D" --clients "$T/clients" -n
assert_rc 0
assert_out "fio --server=ip:127.0.0.1,$P2"
# start them with the very commands nasbench printed
for cmd in $(grep -o 'fio --server=[^ ]*' <<<"$OUT" | cut -d= -f2); do start_server "${cmd##*,}"; done
run "$NB" run --target "$D" --clients "$T/clients" -w rand4k-read,seq512k-read --size 32M --runtime 1s -i 1 -o "$T/c3.json"
assert_rc 0
assert_out "127.0.0.1:$P1"
assert_json "$T/c3.json" 'all(len(it["clients"]) == 3 and all(c["metrics"]["bw_bytes"] > 0 for c in it["clients"]) for r in d["results"] for it in r["iterations"])'
# the aggregate is fio's "All clients" entry: all the clients' bytes
assert_json "$T/c3.json" 'all(it["metrics"]["bw_bytes"] == it["fio"]["all_clients_bw_bytes"] and sum(c["bytes"] for c in it["clients"]) == it["fio"]["all_clients_bytes"] == it["bytes_read"] for r in d["results"] for it in r["iterations"])'
assert_json "$T/c3.json" 'all(abs(sum(c["metrics"]["bw_bytes"] for c in it["clients"]) - it["fio"]["sum_bw_bytes"]) < 1 for r in d["results"] for it in r["iterations"])'
assert_json "$T/c3.json" 'len(result(d, "rand4k-read")["iterations"][0]["fio"]["jobs"]) == 3'
assert_clean "$D"
[ -z "$(ls "$D")" ] || t_fail "files left in $D: $(ls "$D")"

t_case "one client from [clients] in the box file"
cat >"$T/box1.ini" <<EOF
[target local]
url = $D

[clients]
127.0.0.1:$P1
EOF
run "$NB" run "$T/box1.ini" -w rand4k-read --size 32M --runtime 1s -i 1 -o "$T/c1.json" -q
assert_rc 0
assert_json "$T/c1.json" 'result(d, "rand4k-read")["iterations"][0]["clients"][0]["client"] == "127.0.0.1:'"$P1"'" and "all_clients_bw_bytes" not in result(d, "rand4k-read")["iterations"][0]["fio"]'
printf '[target local]\nurl = %s\n\n[clients]\n127.0.0.1:%s\n127.0.0.1:http\n' "$D" "$P1" >"$T/box2.ini"
run "$NB" run "$T/box2.ini" -q
assert_rc 2
assert_err "box2.ini:6: invalid port 'http' for host '127.0.0.1' (1 to 65535)"
printf '127.0.0.1:%s\n127.0.0.1:%s\n' "$P1" "$P1" >"$T/dup"
run "$NB" run --target "$D" --clients "$T/dup" -q
assert_rc 2
assert_err "--clients: $T/dup:2: client '127.0.0.1:$P1' is listed twice (first at $T/dup:1)"

t_case "an unreachable client: named, the others' figures kept, exit 3"
P4=$(free_port)
printf '127.0.0.1:%s\n127.0.0.1:%s\n' "$P1" "$P4" >"$T/clients2"
run "$NB" run --target "$D" --clients "$T/clients2" -w rand4k-read --size 32M --runtime 1s -i 1 -o "$T/unr.json" -q
assert_rc 3
assert_err "nasbench: fio client '127.0.0.1:$P4' is unreachable (is 'fio --server' running there?); the figures of the other 1 client(s) are kept"
assert_json "$T/unr.json" 'result(d, "rand4k-read")["status"] == "failed" and result(d, "rand4k-read")["iterations"][0]["partial"] is True and result(d, "rand4k-read")["iterations"][0]["metrics"]["bw_bytes"] > 0'
assert_json "$T/unr.json" '"metrics" in result(d, "rand4k-read")["iterations"][0]["clients"][0] and result(d, "rand4k-read")["iterations"][0]["clients"][1]["error"].startswith("fio client '"'"'127.0.0.1:'"$P4"''"'"' is unreachable")'

t_case "a client dying mid-run: named, the others' figures kept, exit 3"
# the second server dies once it runs the job (it has forked its job
# process), not after a guessed sleep
( for _ in $(seq 600); do pgrep -P "${SERVERS[1]}" >/dev/null && break; sleep 0.05; done
  kill -9 -- "-${SERVERS[1]}" ) &
killer=$!
run "$NB" run --target "$D" --clients "$T/clients" -w rand4k-read --size 32M --runtime 4s -i 1 -o "$T/die.json" -q
wait $killer
assert_rc 3
assert_err "nasbench: fio client '127.0.0.1:$P2' died or lost its connection mid-run: no figures from it"
assert_err "the figures of the other 2 client(s) are kept"
assert_json "$T/die.json" 'len([c for c in result(d, "rand4k-read")["iterations"][0]["clients"] if "metrics" in c]) == 2'

t_case "every client down"
stop_servers
run "$NB" run --target "$D" --clients "$T/clients" -w rand4k-read --size 32M --runtime 1s -i 1 -o "$T/none.json" -q
assert_rc 3
assert_err "nasbench: fio client '127.0.0.1:$P1' is unreachable"
assert_json "$T/none.json" 'result(d, "rand4k-read")["status"] == "failed"'
rm -f "$D"/nasbench.*-c* 2>/dev/null

t_done
