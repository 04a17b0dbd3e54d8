#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The open loop (issue 36, docs/capacity.md): I/O issued on a schedule and
# timed from when it was due, against real servers: a local file, the
# testbox's NFS server frozen mid-run (a private one), a loop device held
# at 2000 read IOPS by blk-throttle, and ci/fifobox's FIFO server of known
# service time against queueing theory.  The long versions (the 15% bars,
# the generator against fio's) are ci/bench-openloop.
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null || { echo "FAIL test_openloop.sh: cannot run: fio is not installed (ci/install-deps)" >&2; exit 1; }
D=$T/data; mkdir -p "$D"
E='result(d, "rand4k-read")'
I="$E[\"iterations\"]"

t_case "an open loop at 500 IOPS: offered and achieved, response and service, pooled"
run "$NB" run -t "$D" -w rand4k-read --rate 500 --runtime 2s --size 16M -i 2 -o "$T/o.json"
assert_rc 0
assert_out "local        rand4k-read "
F=$T/o.json
assert_json "$F" "$E[\"spec\"][\"rate_iops\"] == 500 and $E[\"spec\"][\"arrival\"] == \"poisson\" and $E[\"spec\"][\"loop\"] == \"open\" and $E[\"spec\"][\"qd\"] == 256"
assert_json "$F" "all(set(it[\"open\"]) >= {\"rate_iops\", \"arrival\", \"sources\", \"arrivals\", \"queued\", \"late\", \"late_free\", \"abandoned\", \"blocked_submits\", \"offered_iops\", \"achieved_iops\", \"achieved_pct\", \"window_s\", \"valid\", \"behind\", \"samples\", \"resp_p99_ci_us\", \"timed_from\"} for it in $I)"
assert_json "$F" "all(400 <= it[\"metrics\"][\"achieved_iops\"] <= 600 and it[\"open\"][\"valid\"] and it[\"open\"][\"timed_from\"] == \"intended\" and it[\"open\"][\"abandoned\"] == 0 for it in $I)" "[it[\"open\"] for it in $I]"
# the response includes the service: never below it
assert_json "$F" "all(it[\"metrics\"][\"resp_mean_us\"] >= it[\"metrics\"][\"lat_mean_us\"] and it[\"metrics\"][\"resp_p99_us\"] > 0 for it in $I)"
# pooled: both iterations' samples, the p99 with its interval
assert_json "$F" "$E[\"pooled\"][\"resp\"][\"iterations\"] == 2 and $E[\"pooled\"][\"resp\"][\"samples\"] == sum(it[\"open\"][\"samples\"] for it in $I) and $E[\"pooled\"][\"resp\"][\"enough_p99\"]" "$E[\"pooled\"]"
assert_json "$F" "(lambda p: p[\"p99_ci_us\"][0] <= p[\"p99_us\"] <= p[\"p99_ci_us\"][1])($E[\"pooled\"][\"resp\"])" "$E[\"pooled\"][\"resp\"]"
assert_json "$F" "all(sum(n for _, n in it[\"resp_hist_ns\"]) == it[\"open\"][\"samples\"] for it in $I)"

t_case "a population of 4 VMs: 4 sources at the profile's rate"
run "$NB" run -t "$D" -w vm --vms 4 --vm-iops 50 --runtime 2s --size 16M -i 1 -o "$T/vms.json"
assert_rc 0
assert_json "$T/vms.json" "result(d, \"vm\")[\"spec\"][\"sources\"] == 4 and result(d, \"vm\")[\"spec\"][\"rate_iops\"] == 200 and result(d, \"vm\")[\"iterations\"][0][\"open\"][\"sources\"] == 4"
assert_json "$T/vms.json" "120 <= result(d, \"vm\")[\"iterations\"][0][\"metrics\"][\"achieved_iops\"] <= 280"

t_case "a rate this machine cannot carry: said, with the rate it achieved"
# on a local target the client and the box are this machine: which of
# them fell behind is either (the client alone: test_openloop.c)
run "$NB" run -t /dev/shm -w rand4k-read --rate 5000000 --runtime 1s --size 4M -i 1 -o "$T/fast.json"
assert_rc 0
assert_out "local        rand4k-read "
assert_out_re "warning: open loop at 5000000 I/Os per second: achieved [0-9]+ of the [0-9]+ I/Os per second offered \([0-9.]+%, below 98%\), [0-9]+ never issued: the (client|box) fell behind"
assert_json "$T/fast.json" "not $I[0][\"open\"][\"valid\"] and $I[0][\"open\"][\"behind\"] in (\"client\", \"box\") and $I[0][\"metrics\"][\"achieved_iops\"] < 0.98 * 5000000 and $I[0][\"open\"][\"abandoned\"] > 0"

t_case "bad rates, arrivals, bursts and combinations: exit 2 naming the knob"
REFUSED_ARGS=(-w rand4k-read --rate 0)
refused "$D" 2 "nasbench: --rate: invalid rate '0': give I/Os per second (500, 500iops) or a throughput (20MB/s, 20MiB/s), above 0"
REFUSED_ARGS=(-w rand4k-read --rate 20MB)
refused "$D" 2 "nasbench: --rate: invalid rate '20MB': give I/Os per second (500, 500iops) or a throughput (20MB/s, 20MiB/s), above 0"
REFUSED_ARGS=(-w rand4k-read --rate 5 --arrival bursty)
refused "$D" 2 "nasbench: --arrival: 'bursty' is not one of poisson|uniform|onoff"
REFUSED_ARGS=(-w rand4k-read --rate 5 --arrival onoff --burst 100/400)
refused "$D" 2 "nasbench: --burst: invalid burst '100/400': give the mean burst and pause lengths with their units, ON/OFF (100ms/400ms)"
REFUSED_ARGS=(-w rand4k-read --rate 500 --sweep)
refused "$D" 2 "nasbench: --rate sets one load, a sweep (--sweep, --rates, --steps, suite capacity) runs many: leave out one"
REFUSED_ARGS=(-w rand4k-read --arrival uniform)
refused "$D" 2 "nasbench: --arrival shapes an open loop: add --rate, --vms or --sweep"
REFUSED_ARGS=(-w rand4k-read --rates 400,200)
refused "$D" 2 "nasbench: --rates: invalid rates '400,200': give rising I/Os per second (200,400,600) or shares of the maximum (25%,50%,90%), or auto"
printf '[target local]\nurl = %s\n[suite]\nworkloads = rand4k-read\nrate = -5\n' "$D" >"$T/badrate.ini"
run "$NB" run "$T/badrate.ini" -o "$T/f.json"
assert_rc 2
assert_err "nasbench: $T/badrate.ini:5: 'rate' in [suite]: invalid rate '-5': give I/Os per second (500, 500iops) or a throughput (20MB/s, 20MiB/s), above 0"
assert_no_file "$T/f.json"
assert_clean "$D"

t_case "fio's open loop: rate_iops with rate_process=poisson, timed from the submission"
run "$NB" run -t "$D" --engine fio -w rand4k-read --rate 400 --runtime 2s --size 16M -i 1 -o "$T/fio.json"
assert_rc 0
assert_out "warning: fio's open loop (rate_iops, rate_process=poisson) times each I/O from its submission, not from when it was due"
assert_json "$T/fio.json" "\"rate_iops=400\nrate_process=poisson\n\" in $I[0][\"fio\"][\"job\"] and $I[0][\"open\"][\"timed_from\"] == \"submission\" and 320 <= $I[0][\"metrics\"][\"achieved_iops\"] <= 480" "$I[0][\"open\"]"
REFUSED_ARGS=(--engine fio -w vm --vms 3)
run "$NB" run -t "$D" "${REFUSED_ARGS[@]}" --runtime 1s --size 4M -o "$T/f.json"
assert_err "fio has no sources of their own (populations of VMs): an open loop through fio is one Poisson or uniform source (leave out engine = fio and --clients for it)"

# ---- a stall shows: the testbox's NFS server frozen for 1 s mid-run ----
if private_testbox; then
	GANESHA=$(cat "$PTB/nfs-ganesha.pid")
	# stall LOOP_ARGS...: a 10 s run that freezes the server at second 3
	# (the open loop's 500 I/Os delayed by it, half of them 0.5 s, are 5%
	# of its 5000: its p99; the closed loop's 4 are under 1% of what 4 in
	# flight do in 10 s from 250 I/Os a second up, thousands here)
	stall() {
		local h pid
		h=$(hook_dir)
		NASBENCH_TEST_PAUSE=$h NASBENCH_TEST_PAUSE_AT=io:3s \
		"$NBT" run -t "$PRIV_NFS_URL" -w rand4k-read "$@" --runtime 10s --size 16M \
			-i 1 -q -o "$T/stall.json" >"$T/stall.out" 2>&1 &
		pid=$!
		hook_wait "$h" io:3s || { kill $pid; wait $pid; return; }
		kill -STOP "$GANESHA"
		hook_go "$h" io:3s
		sleep 1                         # the freeze itself, not its aim
		kill -CONT "$GANESHA"
		wait $pid
		RC=$?
		ERR=$(cat "$T/stall.out")
	}
	# delayed FILE KEY MS: I/Os of the run that took MS or longer
	delayed() { J "$1" "sum(n for lo, n in $I[0][\"$2\"] if lo >= $3e6)"; }

	t_case "a stall shows in the open loop: ~500 I/Os delayed, half by 0.5 s, p99 >= 0.5 s"
	stall --rate 500
	assert_rc 0
	n=$(delayed "$T/stall.json" resp_hist_ns 100) half=$(delayed "$T/stall.json" resp_hist_ns 500)
	[ "$n" -ge 400 ] && [ "$n" -le 600 ] || t_fail "$n I/Os delayed >= 100 ms, expected about 500"
	[ "$half" -ge $((n * 35 / 100)) ] || t_fail "$half of $n delayed by >= 0.5 s, expected about half"
	assert_json "$T/stall.json" "$I[0][\"metrics\"][\"resp_p99_us\"] >= 500000" "$I[0][\"metrics\"]"

	t_case "the same stall in a closed loop at 4 outstanding: 4 I/Os delayed, p99 hides it"
	stall --iodepth 4
	assert_rc 0
	n=$(delayed "$T/stall.json" lat_hist_ns 100)
	# the 4 in flight (a busy machine may add a few of its own)
	[ "$n" -ge 1 ] && [ "$n" -le 25 ] || t_fail "$n I/Os delayed >= 100 ms, expected the 4 in flight"
	assert_json "$T/stall.json" "$I[0][\"metrics\"][\"lat_p99_us\"] < 100000" "$I[0][\"metrics\"]"
fi

# ---- the throttled loop device: the open sweep beside the closed one ----
LOOP= CG=/sys/fs/cgroup/blkio/nb-openloop-test.$$
loop_down() { rmdir "$CG" 2>/dev/null; [ -n "$LOOP" ] && losetup -d "$LOOP"; rm -f /dev/shm/nb-openloop-test.$$.img; }
at_exit loop_down
if truncate -s 64M /dev/shm/nb-openloop-test.$$.img &&
   LOOP=$(losetup -f --show /dev/shm/nb-openloop-test.$$.img) && mkdir "$CG" &&
   echo "$(cat /sys/block/"${LOOP#/dev/}"/dev) 2000" >"$CG/blkio.throttle.read_iops_device"; then
	in_cg() {
		(echo $BASHPID >"$CG/cgroup.procs"; exec "$@") >"$T/.out" 2>"$T/.err"
		RC=$?; OUT=$(cat "$T/.out"); ERR=$(cat "$T/.err")
	}
	t_case "the open sweep on 2000 IOPS, the closed one beside it: both in the result, the report, the CSV"
	in_cg "$NB" run -t "$LOOP" --destroy-data --size 64M -i 1 --step-time 1s -w vm \
		--vm-bs 4k --vm-read 100 --vm-random 100 --vm-iops 100 --sweep --loop both \
		--slo mean=10ms -o "$T/both.json"
	assert_rc 0
	assert_out_re "^local vm: capacity \(open loop\): [0-9]+ VMs \([0-9]+ IOPS offered\) at mean <= 10 ms"
	assert_out_re "^local vm: a closed loop claims: [0-9.]+ VMs \([0-9]+ IOPS\) at mean <= 10 ms"
	SW='result(d, "vm")["iterations"][0]["sweep"]'
	M='result(d, "vm")["iterations"][0]["metrics"]'
	assert_json "$T/both.json" "$SW[\"loop\"] == \"open\" and $SW[\"probe\"][\"iops\"] > 1500 and $SW[\"capacity\"][\"found\"] and result(d, \"vm\")[\"iterations\"][0][\"sweep_closed\"][\"loop\"] == \"closed\"" "$SW"
	assert_json "$T/both.json" "all(set(s) >= {\"rate_iops\", \"vms\", \"offered_iops\", \"achieved_iops\", \"valid\", \"samples\", \"enough_samples\", \"slo_met\", \"resp_mean_us\", \"resp_p99_us\", \"lat_mean_us\", \"timed_from\"} for s in $SW[\"steps\"])"
	assert_json "$T/both.json" "all(s[\"vms\"] * 100 == s[\"rate_iops\"] for s in $SW[\"steps\"]) and $M[\"vms\"] == $SW[\"capacity\"][\"vms\"] and 10 <= $M[\"vms\"] <= 24 and $M[\"closed_vms\"] > 10" "$M"
	run "$NB" export --csv "$T/both.json"
	assert_rc 0
	grep -q ',open,' <<<"$OUT" && grep -q ',closed,' <<<"$OUT" || t_fail "the CSV has no rows of both loops: $OUT"
	run "$NB" report "$T/both.json" -o "$T/rep"
	assert_rc 0
	grep -q 'closed loop' "$T/rep/curve_vm.gp" && grep -q 'response time against offered load' "$T/rep/curve_vm.gp" ||
		t_fail "the curve lacks the closed loop or the offered load: $(head -c 600 "$T/rep/curve_vm.gp")"
else
	missing "no loop device with a blkio throttle (root, cgroup v1 blkio)"
fi

t_case "SIGINT between the open sweep's steps: exit 130, complete false, the finished step kept"
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=sweep:rand4k-read:2 \
"$NBT" run -t "$D" -w rand4k-read --rates 200,400 --slo mean=1s --step-time 500ms --size 16M -i 2 -o "$T/int.json" >"$T/int.out" 2>"$T/int.err" &
pid=$!
hook_wait "$H" sweep:rand4k-read:2
kill -INT $pid
hook_go "$H" sweep:rand4k-read:2
wait $pid
RC=$?
ERR=$(cat "$T/int.err")
assert_rc 130
assert_err "nasbench: interrupted: the result keeps what finished"
assert_json "$T/int.json" "d[\"complete\"] is False and $E[\"status\"] == \"interrupted\" and len($I) == 1 and $I[0][\"partial\"] and $I[0][\"sweep\"][\"stop\"] == \"interrupted\" and [s[\"rate_iops\"] for s in $I[0][\"sweep\"][\"steps\"]] == [200]" "$I"
assert_clean "$D"

# ---- queueing theory: the FIFO server of 1 ms ----
FB=$T/fifobox
at_exit 'NASBENCH_FIFOBOX_DIR=$FB "$ROOT/ci/fifobox" down >/dev/null 2>&1'
if env=$(NASBENCH_FIFOBOX_DIR=$FB "$ROOT/ci/fifobox" up --service 1ms --size 16M 2>"$T/fb.err"); then
	eval "$env"
	t_case "M/D/1 on a server of known service time: the median round's mean response within -20..+25% of Pollaczek-Khinchine"
	# calibrated through the same path, the client at real-time priority as
	# the server is (what else the machine runs must not join the figures):
	# the latency one I/O at a time, and the server's occupancy as 1 / its
	# saturated throughput (docs/capacity.md, "Checked against queueing theory").
	# Three rounds, the median judged: one stall of the machine's own (tens
	# of ms, a thread the kernel starts) adds a whole backlog's wait to a
	# 4 s round (+27..+51% seen), and only ever adds; uniform arrivals
	# instead of Poisson would give the D/D/1's -34% every round.
	for r in 1 2 3; do
		run chrt -f 10 "$NB" run -t "fifo=$NASBENCH_FIFO_DISK" --destroy-data -w rand4k-read --iodepth 1 --runtime 3s -i 1 -q --monitor off -o "$T/cal$r.json"
		assert_rc 0
		run chrt -f 10 "$NB" run -t "fifo=$NASBENCH_FIFO_DISK" --destroy-data -w rand4k-read --iodepth 32 --runtime 3s -i 1 -q --monitor off -o "$T/sat$r.json"
		assert_rc 0
		run chrt -f 10 "$NB" run -t "fifo=$NASBENCH_FIFO_DISK" --destroy-data -w rand4k-read --rate 500 --runtime 4s -i 1 -q --monitor off -o "$T/md1$r.json"
		assert_rc 0
	done
	python3 - "$T" <<'PY' || t_fail "the M/D/1 check (above)"
import json, statistics, sys
from results import result
dev = []
for r in (1, 2, 3):
    m = [result(json.load(open("%s/%s%d.json" % (sys.argv[1], f, r))), "rand4k-read")["iterations"][0]["metrics"] for f in ("cal", "sat", "md1")]
    l1, s = m[0]["lat_mean_us"] / 1e6, 1 / m[1]["iops"]
    lam = m[2]["achieved_iops"]
    rho = lam * s
    theory = l1 + lam * s * s / (2 * (1 - rho))
    got = m[2]["resp_mean_us"] / 1e6
    dev.append(got / theory - 1)
    print("round %d: queue depth 1: %.3f ms, occupancy %.3f ms, rho %.2f: mean response %.3f ms, theory %.3f ms (%+.0f%%)"
          % (r, l1 * 1e3, s * 1e3, rho, got * 1e3, theory * 1e3, 100 * dev[-1]), file=sys.stderr)
    assert 0.9e-3 < s < 1.5e-3 and rho < 0.8, (s, rho)
med = statistics.median(dev)
print("median %+.0f%%" % (100 * med), file=sys.stderr)
assert -0.20 < med < 0.25
PY
else
	missing "ci/fifobox did not start: $(cat "$T/fb.err")"
fi

t_done
