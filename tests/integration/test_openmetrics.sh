#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nasbench export --openmetrics and compare --format openmetrics on real
# runs (a local directory and the testbox's NFS export, a load sweep, a
# comparison): promtool (Prometheus' own checker) accepts each export, the
# figures are the results' medians in base units, a series two results
# would share is refused, and every query of the Grafana dashboard in
# examples/grafana reads a metric and labels the exports carry.
. "$(dirname "$0")/lib.sh"

command -v promtool >/dev/null || { missing "no promtool (Debian package prometheus: make deps)"; t_done; exit; }
[ -n "${NASBENCH_NFS_URL:-}" ] || { missing "no NASBENCH_NFS_URL (the testbox)"; t_done; exit; }
BOX=$T/box
mkdir -p "$BOX"
one_run() {   # one_run OUT LABEL: local + NFS, two workloads, 2 iterations
	"$NB" run --target "local=$BOX" --target "nfs=$NASBENCH_NFS_URL" \
		-w seq512k-write,rand4k-read --runtime 0.3s --size 16M -i 2 -q \
		--label name=omtest --label "$2" -o "$1" >/dev/null 2>"$T/run.err" ||
		t_fail "run $2 failed: $(cat "$T/run.err")"
}

t_case "a result's export passes promtool; figures in base units"
# the labels: the run's, and the MTU nasbench measured on the NFS target's
# connection (the testbox's link: 1500, docs/network.md)
one_run "$T/a.json" sync=standard
run "$NB" export --openmetrics "$T/a.json"
assert_rc 0
printf '%s\n' "$OUT" >"$T/a.prom"
promtool check metrics <"$T/a.prom" >"$T/promtool.out" 2>&1 ||
	t_fail "promtool check metrics: $(cat "$T/promtool.out")"
assert_out "# HELP nasbench_bw_bytes_per_second throughput (nasbench's bw_bytes, stored in bytes/s)" \
	"# TYPE nasbench_bw_bytes_per_second gauge" \
	"# UNIT nasbench_bw_bytes_per_second bytes_per_second" \
	"# TYPE nasbench_lat_p99_seconds gauge" \
	'nasbench_workload_ok{target="nfs",workload="rand4k-read",mtu="1500",name="omtest",sync="standard"} 1' \
	'nasbench_iterations{target="local",workload="seq512k-write",mtu="1500",name="omtest",sync="standard"} 2'
assert_out_re '^nasbench_io_ops_per_second\{target="nfs",workload="rand4k-read",mtu="1500",name="omtest",sync="standard",statistic="median"\} [0-9.e+]+$' \
	'^nasbench_run_start_timestamp_seconds\{mtu="1500",name="omtest",sync="standard"\} [0-9]{10}$'
[ "$(tail -n1 "$T/a.prom")" = "# EOF" ] || t_fail "the export does not end with # EOF"
# every figure against the result: bytes/s as stored, us / 1e6, % / 100
python3 - "$T/a.json" "$T/a.prom" <<'PY' || t_fail "figures differ from the result"
import json, re, sys
d = json.load(open(sys.argv[1]))
prom = {}
for line in open(sys.argv[2]):
    m = re.match(r'^(\w+)\{(.*)\} (\S+)$', line)
    if m:
        prom[(m.group(1), m.group(2))] = float(m.group(3))
checked = 0
for e in d["results"]:
    base = 'target="%s",workload="%s",mtu="1500",name="omtest",sync="standard"' % (e["target"], e["workload"])
    for metric, fam, scale in (("bw_bytes", "nasbench_bw_bytes_per_second", 1),
                               ("lat_p99_us", "nasbench_lat_p99_seconds", 1e-6),
                               ("iops", "nasbench_io_ops_per_second", 1)):
        for st in ("median", "min", "max"):
            want = e["summary"][metric][st] * scale
            got = prom[(fam, base + ',statistic="%s"' % st)]
            assert abs(got - want) <= 1e-9 * max(1, abs(want)), (fam, st, got, want)
            checked += 1
assert checked == 36, checked
PY

t_case "a load sweep's export passes promtool: capacity and saturation"
run "$NB" run -t "local=$BOX" -w rand4k-read --size 16M -i 1 --sweep --steps 1,4 \
	--step-time 0.5s --slo mean=100ms --label name=omtest -q -o "$T/sweep.json"
assert_rc 0
run "$NB" export --openmetrics "$T/sweep.json" -o "$T/sweep.prom"
assert_rc 0
promtool check metrics <"$T/sweep.prom" >"$T/promtool.out" 2>&1 ||
	t_fail "promtool check metrics (sweep): $(cat "$T/promtool.out")"
grep -qE '^nasbench_io_ops_at_slo_per_second\{target="local",workload="rand4k-read",name="omtest"(,[a-z_]+="[^"]*")*,statistic="median"\} [0-9.e+]+$' "$T/sweep.prom" ||
	t_fail "no capacity in the sweep's export: $(grep -c . "$T/sweep.prom") lines"
grep -q '^# TYPE nasbench_sat_io_ops_per_second gauge$' "$T/sweep.prom" || t_fail "no saturation family"

t_case "a comparison's export passes promtool"
one_run "$T/b.json" sync=always
run "$NB" compare "$T/a.json" "$T/a.json" --format openmetrics
# one run a side: the noise is not measured, the verdicts inconclusive
assert_rc 5
printf '%s\n' "$OUT" >"$T/cmp.prom"
promtool check metrics <"$T/cmp.prom" >"$T/promtool.out" 2>&1 ||
	t_fail "promtool check metrics (compare): $(cat "$T/promtool.out")"
assert_out "nasbench_compare_regressions 0" \
	"nasbench_compare_change_ratio{target=\"local\",workload=\"seq512k-write\",metric=\"bw_bytes\",base=\"$T/a.json\",new=\"$T/a.json\"} 0" \
	"nasbench_compare_verdict{target=\"nfs\",workload=\"rand4k-read\",metric=\"iops\",base=\"$T/a.json\",new=\"$T/a.json\",verdict=\"unchanged\"} 1"
assert_out_re "^nasbench_compare_bw_bytes_per_second\{target=\"local\",workload=\"seq512k-write\",metric=\"bw_bytes\",base=\"[^\"]*\",new=\"[^\"]*\",side=\"new\"\} [0-9.e+]+$"

t_case "two results of the same series are refused, nothing written"
run "$NB" export --openmetrics "$T/a.json" "$T/b.json" -o "$T/two.prom"
assert_rc 0                             # sync= tells them apart
run "$NB" export --openmetrics "$T/a.json" "$T/a.json" -o "$T/dup.prom"
assert_rc 2
assert_err "nasbench: '$T/a.json' and '$T/a.json' give the same series nasbench_run_start_timestamp_seconds{mtu=\"1500\",name=\"omtest\",sync=\"standard\"}: a label must tell them apart (run --label, or export them one at a time)"
assert_no_file "$T/dup.prom"
run "$NB" export --csv --openmetrics "$T/a.json"
assert_rc 2
assert_err "say one format: --csv or --openmetrics; see 'nasbench help export'"
run "$NB" export --openmetrics "$T/a.json" -o "$T/no/such/dir/x.prom"
assert_rc 3
[ -z "$OUT" ] || t_fail "output on stdout: $OUT"

t_case "the Grafana dashboard's queries read the exported metrics"
D=$ROOT/examples/grafana/nasbench.json
run python3 "$ROOT/tests/support/dashboard_check.py" "$D" "$T/a.prom" "$T/sweep.prom" "$T/cmp.prom"
assert_rc 0
assert_out_re "^[0-9]+ queries, every metric and label in the export$"
# a query of a metric nasbench does not write, or a label it does not set, fails
sed 's/nasbench_lat_p99_seconds/nasbench_lat_p99_ms/; s/label_values(nasbench_workload_ok, name)/label_values(nasbench_workload_ok, box)/' \
	"$D" >"$T/bad.json"
run python3 "$ROOT/tests/support/dashboard_check.py" "$T/bad.json" "$T/a.prom" "$T/sweep.prom" "$T/cmp.prom"
assert_rc 1
assert_out "panel 'p99 latency (median of the iterations)': no metric nasbench_lat_p99_ms in the export" \
	"variable 'name': nasbench_workload_ok has no label box"
t_done
