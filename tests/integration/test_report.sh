#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# report end to end on real runs of the posix runner: the grid's cells
# against the results' JSON, the run metadata, valid HTML, the page as
# headless chromium renders it (a 1280 px screenshot kept in build/), the
# Markdown on standard output, a report without gnuplot, and a plan of
# 'hw plan --json' in the report (--plan).
. "$(dirname "$0")/lib.sh"

BOX=$T/box
mkdir -p "$BOX"
# four configurations, layout x sync as labels; raidz1/standard run twice
n=0
for layout in raidz1 raid10; do
	for sync in standard always; do
		n=$((n + 1))
		"$NB" run --target "$BOX" -w seq512k-write,rand4k-read --runtime 0.3s --size 16M \
			-i 2 -q --label layout=$layout --label sync=$sync -o "$T/$n.json" \
			>/dev/null 2>"$T/run.err" || t_fail "run $layout/$sync failed: $(cat "$T/run.err")"
	done
done
"$NB" run --target "$BOX" -w seq512k-write,rand4k-read --runtime 0.3s --size 16M -i 2 -q \
	--label layout=raidz1 --label sync=standard -o "$T/5.json" >/dev/null 2>&1 || t_fail "run 5 failed"

# screenshot SHOT.png of FILE at 1280 px; the DOM to $T/dom.html
browse() {
	local prof; prof=$(mktemp -d "$T/chromium.XXXX")
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$prof" \
		--dump-dom "file://$1" 2>/dev/null >"$T/dom.html"
	prof=$(mktemp -d "$T/chromium.XXXX")
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$prof" --hide-scrollbars \
		--window-size=1280,4000 --screenshot="$2" "file://$1" >/dev/null 2>&1
}

t_case "report: the grid's cells are the medians of the results"
run "$NB" report "$T"/{1,2,3,4,5}.json -o "$T/rep"
assert_rc 0
assert_out "report: $T/rep/report.html ("
python3 - "$T/rep/report.md" "$T"/{1,2,3,4,5}.json <<'PY' || t_fail "grid cells differ from the JSON"
import json, statistics, sys
md = open(sys.argv[1]).read()
docs = [json.load(open(f)) for f in sys.argv[2:]]
assert "Rows: layout; columns: sync; one grid per workload." in md, md[:600]
def cell(layout, sync, wl, metric, scale):
    v = [it["metrics"][metric] for d in docs if d["labels"]["layout"] == layout
         and d["labels"]["sync"] == sync for r in d["results"] if r["workload"] == wl
         for it in r["iterations"]]
    runs = sum(1 for d in docs if d["labels"]["layout"] == layout and d["labels"]["sync"] == sync)
    m = statistics.median(v) * scale
    s = ("%.0f" % m) if m >= 1000 else ("%.1f" % m) if m >= 10 else ("%.3g" % m)
    s += " ±%.0f%%" % (100 * statistics.stdev(v) / statistics.median(v))
    s += " n=%d" % len(v) + (" (%d runs)" % runs if runs > 1 else "")
    return s, statistics.median(v)
for wl, metric, scale in (("seq512k-write", "bw_bytes", 1e-6), ("rand4k-read", "iops", 1)):
    grid = md.split("**workload=%s: " % wl)[1].split("\n\n")[1]
    for layout in ("raidz1", "raid10"):
        row = [l for l in grid.splitlines() if l.startswith("| %s |" % layout)][0]
        for sync in ("standard", "always"):
            text, med = cell(layout, sync, wl, metric, scale)
            assert text in row, (text, row)
            if layout == "raid10":
                base = cell("raidz1", sync, wl, metric, scale)[1]
                pct = "%+.0f%%" % (100 * (med - base) / base)
                assert text + ", " + pct in row, (text, pct, row)
            else:
                assert text + ", baseline" in row, row
print("ok")
PY
grep -qF "| 1.json | layout=raidz1 sync=standard | " "$T/rep/report.md" || t_fail "no run table"
grep -qF "| nasbench | $("$NB" version | awk '{print $2}')" "$T/rep/report.md" ||
	t_fail "no nasbench version in the run details: $(grep nasbench "$T/rep/report.md" | head -3)"
grep -qF "| command | nasbench run --target $BOX" "$T/rep/report.md" || t_fail "no command line"
grep -q "| client | .*RAM" "$T/rep/report.md" || t_fail "no client hardware"
python3 "$ROOT/tests/support/html_check.py" "$T/rep/report.html" >"$T/html.err" ||
	t_fail "report.html is not valid: $(head -5 "$T/html.err")"

t_case "report: the browser shows the grid and the charts (screenshot in build/)"
mkdir -p "$ROOT/build"
browse "$T/rep/report.html" "$ROOT/build/report-screenshot.png"
python3 - "$T/dom.html" "$ROOT/build/report-screenshot.png" "$ROOT/tests/support" <<'PY' || t_fail "the rendered page is wrong"
import re, sys
sys.path.insert(0, sys.argv[3])
from png_edges import decode
dom = open(sys.argv[1]).read()
figs = re.findall(r'<figure class="chart" id="chart-[^"]+">\s*<svg.*?</svg>', dom, re.S)
drawn = sum(1 for f in figs if f.count("<path") + f.count("<rect") > 5)
assert drawn == len(figs) >= 4, (drawn, len(figs))
assert dom.count('class="num better"') + dom.count('class="num worse"') + \
    dom.count('class="num same"') >= 4, "grid cells not coloured"
# the screenshot: 1280 wide, and its charts are not blank - count the
# pixels of colour (not grey) in it, every fourth of a row
w, h, lines = decode(sys.argv[2])
assert w == 1280, w
coloured, rows_coloured = 0, 0
for line in lines:
    n = sum(1 for p in line[::4] if max(p) - min(p) > 40)
    coloured += n
    rows_coloured += n > 10
assert rows_coloured > 300, ("too little colour: blank charts?", rows_coloured)
print("ok", rows_coloured)
PY

t_case "the lab demo's report: at most five decisions, each with its figure, on the first screen"
# the four results of 'make lab-demo' (tests/fixtures/seed1: real runs,
# trimmed); the report's decisions at the end of its terminal output too
run "$NB" report "$ROOT"/tests/fixtures/seed1/*.json -o "$T/lab"
assert_rc 0
assert_out "decisions" "A SLOG: 4.6-15x the sync IOPS on both layouts (n=3 each, ±64%)" \
	"raid10 over raidz1 for sequential reads: 2.8-3.7x with and without a SLOG"
python3 "$ROOT/tests/support/html_check.py" "$T/lab/report.html" >"$T/html.err" ||
	t_fail "report.html is not valid: $(head -5 "$T/html.err")"
mkdir -p "$ROOT/build"
python3 "$ROOT/tests/support/html_render.py" "$T/lab/report.html" \
	"$ROOT/build/report-lab-first-screen.png" >"$T/render.json" 2>"$T/render.err" ||
	t_fail "chromium did not render the page: $(cat "$T/render.err")"
assert_json "$T/render.json" '1 <= len(d["decisions"]) <= 5 and all(b <= 800 for _, _, b in d["decisions"])' 'd["decisions"]'
assert_json "$T/render.json" 'all(__import__("re").search(r"\d(\.\d+)?x ", t) and "(n=" in t for t, _, _ in d["decisions"])' 'd["decisions"]'
# the markdown: the same sentences, the detail folded under them
sed -n '/^## Summary/,/^## Grid/p' "$T/lab/report.md" >"$T/summary.md"
[ "$(sed '/^<details>/q' "$T/summary.md" | grep -c "^- [^*]")" -le 5 ] ||
	t_fail "more than five decisions: $(cat "$T/summary.md")"
grep -q "^<details><summary>Detail: 48 comparisons per workload and target" "$T/summary.md" ||
	t_fail "no folded detail: $(cat "$T/summary.md")"

t_case "report of one demo-like result: the summary on the first screen, <= 12 charts, < 300 KB"
# what 'make demo' writes: the quick suite's five workloads on a local
# directory and the testbox's NFS export and iSCSI LUN, 2 iterations
if [ -z "${NASBENCH_NFS_URL:-}" ] || [ -z "${NASBENCH_ISCSI_URL:-}" ]; then
	missing "the demo case: NASBENCH_NFS_URL / NASBENCH_ISCSI_URL unset (ci/testbox up)"
else
	"$NB" run --suite quick -i 2 --size 16M --runtime 0.5s --label name=demo --destroy-data \
		-w seq512k-write,seq512k-write-sync,seq512k-read,rand4k-write,rand4k-read \
		--target "local=$BOX" --target "nfs=$NASBENCH_NFS_URL" --target "iscsi=$NASBENCH_ISCSI_URL" \
		-q -o "$T/demo.json" >/dev/null 2>"$T/run.err" || t_fail "demo run failed: $(cat "$T/run.err")"
	run "$NB" report "$T/demo.json" -o "$T/demo"
	assert_rc 0
	grep -q "columns: ;" "$T/demo/report.md" && t_fail "an empty column axis: $(grep Rows: "$T/demo/report.md")"
	grep -qF "Rows: workload; columns: target." "$T/demo/report.md" ||
		t_fail "one result on 3 targets: not workload x target: $(grep Rows: "$T/demo/report.md")"
	nsvg=$(ls "$T"/demo/*.svg | wc -l)
	[ "$nsvg" -le 12 ] || t_fail "$nsvg charts, more than 12"
	size=$(stat -c %s "$T/demo/report.html")
	[ "$size" -lt 300000 ] || t_fail "report.html is $size bytes, not under 300 KB"
	python3 "$ROOT/tests/support/html_check.py" "$T/demo/report.html" >"$T/html.err" ||
		t_fail "report.html is not valid: $(head -5 "$T/html.err")"
	# the Markdown opens with the summary, the grid after it
	head -c 2000 "$T/demo/report.md" | grep -q "^## Summary" || t_fail "report.md does not open with the summary"
	# the page as Chromium draws it at 1280x800: the first screen kept in build/
	mkdir -p "$ROOT/build"
	python3 "$ROOT/tests/support/html_render.py" "$T/demo/report.html" \
		"$ROOT/build/report-first-screen.png" >"$T/render.json" 2>"$T/render.err" ||
		t_fail "chromium did not render the page: $(cat "$T/render.err")"
	assert_json "$T/render.json" 'd["summary_top"] is not None and d["summary_bottom"] <= 800' 'd'
	assert_json "$T/render.json" 'd["charts"] == '"$nsvg"' and d["svg_texts"] > 20 and d["min_svg_font_px"] >= 12' 'd'
	assert_json "$T/render.json" 'd["details"] >= 5 and d["details_open"] == 0 and d["page_width"] <= 1280 and 0 < d["grid_width"] <= 1280' 'd'
	# charts people read: every label inside its picture as
	# Chromium lays it out, a bar chart's key names the targets with a
	# colour each, no chart of a figure zero everywhere (box swapped)
	assert_json "$T/render.json" 'd["labels_outside"] == []' 'd["labels_outside"]'
	assert_json "$T/render.json" 'all(k == ["local", "nfs", "iscsi"] for k in d["keys"].values()) and len(d["keys"]) == 3' 'd["keys"]'
	assert_json "$T/render.json" 'all(len(set(c)) == 3 and None not in c for c in d["colours"].values())' 'd["colours"]'
	assert_no_file "$T/demo/figures_bytes.svg"
	# the detail tables in plain words (98.5 was "box mem%": 98.5% free)
	grep -qF "box memory available %" "$T/demo/report.md" ||
		t_fail "no 'box memory available %' column in report.md"
	grep -qF "box mem%" "$T/demo/report.md" && t_fail "report.md still says 'box mem%'"
	# and in the PNGs: nothing drawn on a picture's outermost pixels (a
	# label running off it leaves its cut glyphs there), 900-1200 px wide
	python3 "$ROOT/tests/support/png_edges.py" "$T"/demo/*.png >"$T/edges.out" ||
		t_fail "a label at a PNG's edge: $(grep -v ' ok$' "$T/edges.out")"
	awk '{ split($2, s, "x"); if (s[1] < 900 || s[1] > 1200 || s[2] < 300) exit 1 }' "$T/edges.out" ||
		t_fail "a PNG of an odd size: $(cat "$T/edges.out")"
	assert_file "$ROOT/build/report-first-screen.png"
	# the targets are the one question: a decision names the winner, or
	# says once that they decided nothing
	grep -Eq "^- (local|NFS|iSCSI) over |^- .*(local|NFS|iSCSI) vs .*: within the noise" "$T/demo/report.md" ||
		t_fail "the summary decides nothing among the targets: $(sed -n '/## Summary/,/^## [^S]/p' "$T/demo/report.md")"
fi

t_case "report: latency CDF from the stored histograms, throughput over time of a runtime run"
for f in cdf_all bars_lat_p99_us bars_bw_bytes bars_iops; do
	assert_file "$T/rep/$f.svg"
done
grep -q '<title>rand4k-read</title>' "$T/rep/cdf_all.svg" || grep -q 'rand4k-read' "$T/rep/cdf_all.svg" ||
	t_fail "the CDF has no rand4k-read panel"
assert_json "$T/1.json" 'sum(c for it in result(d, "rand4k-read")["iterations"] for _, c in it["lat_hist_ns"]) == sum(it["ios"] for it in result(d, "rand4k-read")["iterations"])'
assert_no_file "$T/rep/series_all.svg"     # 0.3 s: no whole seconds
"$NB" run --target "$BOX" -w rand4k-read --runtime 3.5s --size 16M -i 1 -q -o "$T/long.json" \
	>/dev/null 2>&1 || t_fail "the 3.5 s run failed"
assert_json "$T/long.json" 'len(result(d, "rand4k-read")["iterations"][0]["series_bw_bytes"]) == 3'
run "$NB" report "$T/long.json" -o "$T/replong"
assert_rc 0
assert_file "$T/replong/series_all.svg"
grep -q 'throughput over time, per workload' "$T/replong/report.html" && grep -q '<title>rand4k-read</title>\|>rand4k-read<' "$T/replong/series_all.svg" || t_fail "no time series in the page"

t_case "report --format pr: the summary first, then the grid, under 65536 characters for 50 results"
python3 - "$T/pr" <<'PY'
import json, os, random, itertools, sys
random.seed(7)
os.makedirs(sys.argv[1])
matrix = list(itertools.product(["raidz1", "raidz2", "mirror", "raid10"], ["none", "ssd"],
                                ["standard", "always", "disabled"], ["bare", "xen"]))
wls = {"seq512k-write": (300e6, 524288, "seq", "write"), "seq512k-read": (900e6, 524288, "seq", "read"),
       "rand4k-write": (40e6, 4096, "rand", "write"), "rand4k-read": (120e6, 4096, "rand", "read")}
for i in range(50):
    layout, slog, sync, platform = matrix[i % len(matrix)]
    res = []
    for w, (bw, bs, pat, rw) in wls.items():
        its = []
        for k in range(3):
            b = bw * random.uniform(0.95, 1.05) * (0.5 if sync == "always" and slog == "none" else 1)
            its.append({"metrics": {"bw_bytes": b, "iops": b / bs, "lat_p99_us": bs / b * 4e7}})
        res.append({"target": "nas", "workload": w, "status": "ok", "warnings": [], "iterations": its,
                    "spec": {"bs": bs, "qd": 16, "pattern": pat, "rw": rw}})
    json.dump({"schema": 1, "tool": "nasbench", "version": "t", "run_id": "r%d" % i, "complete": True,
               "targets": [{"name": "nas", "url": "nfs://box/x", "runner": "nfs"}],
               "labels": {"name": "box", "layout": layout, "slog": slog, "sync": sync, "platform": platform},
               "results": res}, open("%s/r%02d.json" % (sys.argv[1], i), "w"))
PY
run "$NB" report "$T"/pr/r*.json --format pr
assert_rc 0
[ "${#OUT}" -lt 65536 ] || t_fail "the PR Markdown is ${#OUT} characters"
python3 - "$T/.out" <<'PY' || t_fail "the PR Markdown is not summary then grid"
import sys
md = open(sys.argv[1]).read()
s, g = md.index("## Summary"), md.index("## Grid")
assert s < g and md.count("| layout |") >= 8 and "## Details" not in md and "## Runs" not in md, md[:400]
print(len(md))
PY

t_case "report: Markdown to standard output, the grid chosen by the user"
run "$NB" report "$T"/{1,2,3,4}.json -o - --rows sync --cols layout --baseline layout=raid10 --metric p99_us
assert_rc 0
assert_out "Rows: sync; columns: layout; one grid per workload."
assert_out "| sync | layout=raidz1 | layout=raid10 |"
assert_out "the baseline layout=raid10"
[ -z "$(ls "$T"/rep 2>/dev/null | grep -v -e '\.' )" ] || true
run "$NB" report "$T/1.json" --format markdown
assert_rc 0
assert_out "# nasbench report"
run "$NB" report "$T"/{1,2}.json -o - --rows pool
assert_rc 2
assert_err "nasbench: --rows: no dimension 'pool'; the results vary in sync (2), "
run "$NB" report "$T/1.json" --format markdown -o "$T/x"
assert_rc 2
assert_err "--format markdown writes to standard output; drop -o $T/x or use -o -"

t_case "report: without gnuplot the tables still come out, with a warning"
NASBENCH_GNUPLOT=/nonexistent/gnuplot run "$NB" report "$T"/{1,2}.json -o "$T/nogp"
assert_rc 0
assert_err "nasbench: warning: cannot run '/nonexistent/gnuplot': not found (install gnuplot-nox, or set NASBENCH_GNUPLOT); charts skipped"
assert_out "report: $T/nogp/report.html (tables only: charts skipped, $T/nogp/report.md)"
grep -q "Charts skipped: cannot run" "$T/nogp/report.html" || t_fail "report.html does not say the charts were skipped"
grep -q "| sync=standard |" "$T/nogp/report.md" || t_fail "no tables without gnuplot"
assert_file "$T/nogp/bars_bw_bytes.gp"
python3 "$ROOT/tests/support/html_check.py" "$T/nogp/report.html" >"$T/html.err" ||
	t_fail "report.html is not valid: $(head -5 "$T/html.err")"

t_case "report: gnuplot failing leaves the old report whole"
sum=$(md5sum <"$T/rep/report.html")
# the real gnuplot, out of memory (its address space limited, not
# nasbench's: an ASan build of nasbench cannot start under such a limit)
printf '#!/bin/sh\nulimit -v 100000\nexec gnuplot "$@"\n' >"$T/gnuplot-oom"
chmod +x "$T/gnuplot-oom"
export NASBENCH_GNUPLOT=$T/gnuplot-oom
run "$NB" report "$T/1.json" -o "$T/rep"
assert_rc 3
assert_err "nasbench: gnuplot failed on '"
[ "$(md5sum <"$T/rep/report.html")" = "$sum" ] || t_fail "the previous report changed"
[ -z "$(ls -d "$T"/rep.* 2>/dev/null)" ] || t_fail "temporary report left: $(ls -d "$T"/rep.*)"
run "$NB" report "$T/1.json" -o "$T/broken"
assert_rc 3
assert_no_file "$T/broken"
unset NASBENCH_GNUPLOT
mkdir -p "$T/notrep" && echo keep >"$T/notrep/data.txt"
run "$NB" report "$T/1.json" -o "$T/notrep"
assert_rc 2
assert_err "nasbench: '$T/notrep' is not empty and is not a nasbench report (it has no .nasbench marker): not writing into it; give a new or empty directory"
[ "$(cat "$T/notrep/data.txt")" = keep ] || t_fail "a user's file was touched"
printf '{"schema": 1, "results": [' >"$T/trunc.json"
run "$NB" report "$T/trunc.json" -o "$T/rep3"
assert_rc 2
assert_err "'$T/trunc.json' is not valid JSON"
assert_no_file "$T/rep3"

t_case "report --plan: the plan's layouts, and the results beside what it expects"
"$NB" hw plan --disks 4x4TB --disk-mbs 150 --disk-iops 120 --nic 1gbit --slog ssd \
	--price 120 --currency EUR --layout raidz1,raid10 --json >"$T/plan.json" ||
	t_fail "hw plan --json failed"
assert_json "$T/plan.json" 'd["kind"] == "nasbench-plan" and d["schema"] == 3 and d["input"]["nic"] == {"value": 1e9, "unit": "bit/s"} and d["input"]["price_per_disk"] == {"value": 120, "unit": "EUR"}'
run "$NB" report "$T"/{1,2,3,4}.json --plan "$T/plan.json" -o "$T/repplan"
assert_rc 0
python3 - "$T/repplan/report.md" "$T/plan.json" "$T"/{1,2,3,4}.json <<'PY' || t_fail "the Plan section differs from the plan and the results"
import json, sys
md = open(sys.argv[1]).read()
plan = json.load(open(sys.argv[2]))
docs = {f: json.load(open(f)) for f in sys.argv[3:]}
sec = md.split("## Plan\n")[1].split("\n## ")[0]
assert md.index("## Plan") < md.index("## Configurations"), "Plan not before Configurations"
assert "from plan.json ('nasbench hw plan --json')" in sec, sec[:300]
assert "link 1000 Mbit/s: 117.7 MB/s of payload" in sec, sec[:600]
assert "|  | raidz1 | raid10 |" in sec, sec
lay = {l["layout"]: l for l in plan["layouts"]}
def tb(v): return "%.2f TB" % (v / 1e12)
def mbs(v): return "%.1f MB/s" % (v / 1e6)
want = [
    "| usable (zfs list) | %s (%.2f TiB) | %s (%.2f TiB) |" % (
        tb(lay["raidz1"]["usable"]["value"]), lay["raidz1"]["usable"]["value"] / 2**40,
        tb(lay["raid10"]["usable"]["value"]), lay["raid10"]["usable"]["value"] / 2**40),
    "| seq read (seq\\*-read) | 117.7 MB/s, link | 117.7 MB/s, link |",
    "| rand read (rand4k-read) | %.0f IOPS | %.0f IOPS |" % (
        lay["raidz1"]["rand_read"]["value"], lay["raid10"]["rand_read"]["value"]),
    "| sync write, no SLOG (seq\\*-write-sync) | %s | %s |" % (
        mbs(lay["raidz1"]["sync_write"]["value"]), mbs(lay["raid10"]["sync_write"]["value"])),
    "| sync write, SLOG ssd | %s | %s |" % (
        mbs(lay["raidz1"]["sync_write_slog"]["value"]), mbs(lay["raid10"]["sync_write_slog"]["value"])),
    "| price | 480.00 EUR | 480.00 EUR |",
    "| per usable TB | %.2f EUR | %.2f EUR |" % (
        lay["raidz1"]["price_per_tb"]["value"], lay["raid10"]["price_per_tb"]["value"]),
]
for w in want:
    assert w in sec, (w, sec)
# every result's figures: its median against its layout's ceiling, and
# the planner's flag exactly when the share is over 110%
n = 0
for f, d in docs.items():
    l = lay[d["labels"]["layout"]]
    for r in d["results"]:
        wl = r["workload"]
        if wl == "seq512k-write":
            v, e, unit = r["summary"]["bw_bytes"]["median"], l["seq_write"]["value"], "MB/s"
            ms, es = mbs(v), mbs(e) + ", link"
        else:
            v, e = r["summary"]["iops"]["median"], l["rand_read"]["value"]
            ms, es = "%.0f IOPS" % v, "%.0f IOPS, disks" % e
        flag = "cached or compressed - check the data set size" if v > 1.10 * e else ""
        row = "| %s | %s | %s | %s | %s | %s | %.0f%% | %s |" % (
            f.rsplit("/", 1)[1], l["layout"], r["target"], wl, ms, es, 100 * v / e, flag)
        assert row in sec, (row, sec)
        n += 1
assert n == 8, n
print("ok", n)
PY
grep -q "<h2>Plan</h2>" "$T/repplan/report.html" || t_fail "no Plan section in report.html"
grep -q "<td class=\"num\">480.00 EUR</td>" "$T/repplan/report.html" || t_fail "no price in report.html"
python3 "$ROOT/tests/support/html_check.py" "$T/repplan/report.html" >"$T/html.err" ||
	t_fail "report.html is not valid: $(head -5 "$T/html.err")"
# the seed's published N40L behind a 100 Mbit/s link: its 75.5 MB/s iSCSI
# writes cannot have crossed it, and the report says so
"$NB" hw plan --disks 5x3TB --disk-mbs 150 --disk-iops 120 --nic 100mbit --layout raidz1 \
	--json >"$T/slow.json" || t_fail "hw plan --json failed"
run "$NB" report "$ROOT/hw/profiles/n40l-raidz1.json" --plan "$T/slow.json" -o -
assert_rc 0
assert_out "| n40l-raidz1.json (published) | raidz1 | iscsi | seq512k-write | 75.5 MB/s | 11.8 MB/s, link | 642% | cached or compressed - check the data set size |"

t_case "report --plan: a bad plan file is a usage error, and no report is written"
sum=$(md5sum <"$T/repplan/report.html")
run "$NB" report "$T/1.json" --plan "$T/none.json" -o "$T/repbad"
assert_rc 2
assert_err "nasbench: --plan: cannot read '$T/none.json': unable to open $T/none.json: No such file or directory"
[ -z "$OUT" ] || t_fail "stdout: $OUT"
run "$NB" report "$T/1.json" --plan "$T/1.json" -o "$T/repbad"
assert_rc 2
assert_err "nasbench: --plan: '$T/1.json' is not a plan (make one with 'nasbench hw plan ... --json > FILE')"
head -c 300 "$T/plan.json" >"$T/trunc-plan.json"
run "$NB" report "$T/1.json" --plan "$T/trunc-plan.json" -o "$T/repbad"
assert_rc 2
assert_err "nasbench: --plan: '$T/trunc-plan.json' is not valid JSON (line "
python3 - "$T/plan.json" "$T/tb-plan.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["layouts"][1]["usable"]["unit"] = "TB"
json.dump(d, open(sys.argv[2], "w"))
PY
run "$NB" report "$T/1.json" --plan "$T/tb-plan.json" -o "$T/repbad"
assert_rc 2
assert_err "nasbench: --plan: '$T/tb-plan.json': layout 2: 'usable' is in 'TB', not 'B'"
assert_no_file "$T/repbad"
[ -z "$(ls -d "$T"/repbad.* 2>/dev/null)" ] || t_fail "half a report left: $(ls -d "$T"/repbad.*)"
run "$NB" report "$T/1.json" --plan "$T/none.json" -o "$T/repplan"
assert_rc 2
[ "$(md5sum <"$T/repplan/report.html")" = "$sum" ] || t_fail "the previous report changed"
run "$NB" report "$T/1.json" --plan "$T/none.json" -o -
assert_rc 2
[ -z "$OUT" ] || t_fail "Markdown printed before the error: $OUT"

t_case "export --csv: a row per result x workload x iteration, labels as columns"
run "$NB" export --csv "$T"/{1,2}.json
assert_rc 0
CSV=$OUT python3 - "$T"/{1,2}.json <<'PY' || t_fail "the CSV differs from the JSON: $OUT"
import csv, io, json, os, sys
rows = list(csv.DictReader(io.StringIO(os.environ["CSV"])))
docs = [json.load(open(f)) for f in sys.argv[1:]]
want = [(f, r, k, it) for f, d in zip(sys.argv[1:], docs) for r in d["results"]
        for k, it in enumerate(r["iterations"])]
assert len(rows) == len(want), (len(rows), len(want))
for row, (f, r, k, it) in zip(rows, want):
    assert row["file"] == f and row["workload"] == r["workload"] and row["iteration"] == str(k + 1)
    assert row["layout"] == "raidz1" and row["sync"] in ("standard", "always")
    assert abs(float(row["bw_bytes"]) / it["metrics"]["bw_bytes"] - 1) < 1e-9
    assert row["spec.bs"] == str(r["spec"]["bs"])
print("ok")
PY
run "$NB" export --csv "$T/1.json" -o "$T/x.csv"
assert_rc 0
[ "$(head -c 5 "$T/x.csv")" = "file," ] || t_fail "no CSV written to -o"
run "$NB" export "$T/1.json"
assert_rc 2
assert_err "nasbench: say one format: --csv or --openmetrics; see 'nasbench help export'"

t_done
