#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The CI recipe (examples/ci/nasbench-ci.sh) run twice against a private
# testbox as a pipeline would, the history kept between the two: the first
# run starts the history and passes; the box then gets 70% slower (its link
# reshaped from 200 to 60 Mbit/s) and the second run's gate fails with exit
# 1, its JUnit and Markdown written and the run not recorded.  The GitLab
# CI and GitHub Actions recipes call that script and keep that history.
. "$(dirname "$0")/lib.sh"
CI=$ROOT/examples/ci
private_testbox || { t_done; exit 1; }
NASBENCH_TESTBOX_DIR=$PTB "$ROOT/ci/testbox" shape --rate 200mbit ||
	missing "ci/testbox shape could not shape the private testbox's link"
cat >"$T/box.ini" <<EOF
[box]
name = testbox
[target nfs]
url = $PRIV_NFS_URL
timeout = 30s
[suite]
workloads = seq512k-read
iterations = 3
size = 24M
runtime = 2s
EOF
# pipeline N: the job as a CI runs it, in a work tree of its own, the
# history where the CI's cache restores it
pipeline() {
	mkdir -p "$T/p$1"
	(cd "$T/p$1" && NASBENCH=$NB NASBENCH_DB=$T/cache/history.db \
		NASBENCH_LABELS="box=testbox" sh "$CI/nasbench-ci.sh" "$T/box.ini") \
		>"$T/p$1.out" 2>"$T/p$1.err"
	RC=$?
	ERR=$(cat "$T/p$1.err")
}

t_case "the first pipeline starts the history and passes"
pipeline 1
assert_rc 0
assert_err "nasbench-ci: no run of these labels in the history ($T/cache/history.db): this one starts it" \
	"nasbench-ci: inconclusive: building the history (0 of 3 runs); passing" \
	"nasbench-ci: recorded in $T/cache/history.db"
for f in run.json junit.xml compare.md report/report.html report/report.md; do
	assert_file "$T/p1/nasbench-out/$f"
done
grep -q '<skipped message="no baseline yet' "$T/p1/nasbench-out/junit.xml" ||
	t_fail "the first JUnit does not say why nothing was gated: $(cat "$T/p1/nasbench-out/junit.xml")"
[ "$(NASBENCH_DB=$T/cache/history.db "$NB" history list --json | grep -c '"run_id"')" = 1 ] ||
	t_fail "the history does not hold the first run"

t_case "the box 70% slower: the second pipeline's gate fails, its reports written"
NASBENCH_TESTBOX_DIR=$PTB "$ROOT/ci/testbox" shape --rate 60mbit
pipeline 2
assert_rc 1
assert_err "nasbench-ci: REGRESSION against 1 run(s) of the history: see nasbench-out/compare.md"
J=$T/p2/nasbench-out/junit.xml
assert_file "$J"
python3 - "$J" <<'PY' || t_fail "the JUnit does not fail seq512k-read: $(cat "$J")"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = [c for c in root.iter("testcase") if "seq512k-read" in c.get("name", "")]
sys.exit(0 if cases and all(c.find("failure") is not None for c in cases) else 1)
PY
grep -q "seq512k-read" "$T/p2/nasbench-out/compare.md" && grep -qi "worse" "$T/p2/nasbench-out/compare.md" ||
	t_fail "compare.md does not say seq512k-read got worse: $(cat "$T/p2/nasbench-out/compare.md")"
# the figures really fell by about the shaping (60 of 200 Mbit/s)
ratio=$(python3 -c "
import json, statistics as s
def mbs(p): return s.median(i['metrics']['bw_bytes'] for i in json.load(open(p))['results'][0]['iterations'])
print(round(mbs('$T/p2/nasbench-out/run.json') / mbs('$T/p1/nasbench-out/run.json'), 3))")
python3 -c "import sys; sys.exit(0 if 0.2 <= $ratio <= 0.45 else 1)" ||
	t_fail "the second run is $ratio of the first, not the 0.3 the links' rates give"
assert_file "$T/p2/nasbench-out/report/report.html"
[ "$(NASBENCH_DB=$T/cache/history.db "$NB" history list --json | grep -c '"run_id"')" = 1 ] ||
	t_fail "the regressed run was recorded in the history"

t_case "the GitLab CI and GitHub Actions recipes run that script and keep its history"
/usr/bin/python3 - "$CI/gitlab-ci.yml" "$CI/github-actions.yml" <<'PY' || t_fail "a recipe does not call the script or keep the history"
import sys, yaml
gl = yaml.safe_load(open(sys.argv[1]))["nasbench"]
assert "sh examples/ci/nasbench-ci.sh box.ini" in gl["script"], gl["script"]
assert gl["variables"]["NASBENCH_DB"] == ".nasbench/history.db"
assert ".nasbench/" in gl["cache"]["paths"]
assert gl["artifacts"]["reports"]["junit"] == "nasbench-out/junit.xml"
gh = yaml.safe_load(open(sys.argv[2]))["jobs"]["nasbench"]
steps = gh["steps"]
assert any(s.get("run") == "sh examples/ci/nasbench-ci.sh box.ini" for s in steps)
assert gh["env"]["NASBENCH_DB"] == ".nasbench/history.db"
cache = [s for s in steps if str(s.get("uses", "")).startswith("actions/cache")]
assert len(cache) == 2 and all(s["with"]["path"] == ".nasbench" for s in cache)
assert any("junit.xml" in str(s.get("with", {}).get("report_paths", "")) for s in steps)
PY
run sh -n "$CI/nasbench-ci.sh"
assert_rc 0

t_done
