#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# examples/ci/nasbench-ci.sh BOX.ini - one CI job of nasbench: run the box
# file's suite, gate the run against the history the CI keeps between
# pipelines, write JUnit and Markdown for the CI to publish, and record the
# run when it did not regress.  The GitLab CI and GitHub Actions recipes
# beside it (gitlab-ci.yml, github-actions.yml) call it; so can any CI.
#
# Environment (all optional):
#   NASBENCH        the program (default: nasbench on PATH)
#   NASBENCH_DB     the SQLite history, kept by the CI between pipelines as
#                   a cache or an artifact (default: .nasbench/history.db)
#   NASBENCH_OUT    where this job's files go (default: nasbench-out):
#                   run.json, junit.xml, compare.md, report/ (HTML + Markdown)
#   NASBENCH_LABELS this configuration's labels, K=V separated by spaces
#                   ("box=nas1 branch=main"); the history's runs with the
#                   same labels are the baseline
#   NASBENCH_GATE   a gate file (compare -g: thresholds per workload)
#   NASBENCH_RECORD yes: record the run in the history unless it regressed
#                   (the main branch); no: gate only (merge requests)
#                   (default yes)
#   NASBENCH_MIN_RUNS  runs the history holds before an inconclusive gate
#                   fails the job (default 3): until then the job passes,
#                   "building the history"
#
# Exit status: 0 passed (or the history is still being built), 1 a
# regression (or a workload missing), 2 a usage or configuration error,
# 3 the target or an output failed, 5 inconclusive with a full history
# (the noise hides what the gate should see: more iterations).
# The box file must not record runs itself ([box] history = no, the
# default): this script records only what passed.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BOX.ini (see its header)" >&2; exit 2; }
box=$1
nb=${NASBENCH:-nasbench}
out=${NASBENCH_OUT:-nasbench-out}
NASBENCH_DB=${NASBENCH_DB:-.nasbench/history.db}
export NASBENCH_DB
record=${NASBENCH_RECORD:-yes}
min_runs=${NASBENCH_MIN_RUNS:-3}
say() { echo "nasbench-ci: $*" >&2; }

mkdir -p "$out" "$(dirname "$NASBENCH_DB")" || exit 3
set --
for l in ${NASBENCH_LABELS:-}; do set -- "$@" -l "$l"; done
gate=
[ -n "${NASBENCH_GATE:-}" ] && gate="-g $NASBENCH_GATE"

"$nb" run "$box" "$@" -q -o "$out/run.json"
rc=$?
if [ $rc -ne 0 ]; then
	say "the run failed (exit $rc): nothing gated, nothing recorded"
	exit $rc
fi

# the history's runs of these labels: the baseline
runs=$("$nb" history list "$@" --json | grep -c '"run_id"')
if [ "$runs" -eq 0 ]; then
	say "no run of these labels in the history ($NASBENCH_DB): this one starts it"
	printf '## nasbench\n\nNo baseline yet: this run starts the history (%s).\n' \
		"$NASBENCH_DB" >"$out/compare.md"
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="nasbench" tests="1" skipped="1">\n<testcase classname="nasbench" name="gate"><skipped message="no baseline yet: this run starts the history"/></testcase>\n</testsuite>\n' \
		>"$out/junit.xml"
	gate_rc=5
else
	# shellcheck disable=SC2086 # $gate is -g FILE or nothing
	"$nb" compare --baseline history "$out/run.json" $gate --format junit \
		-o "$out/junit.xml"
	gate_rc=$?
	# shellcheck disable=SC2086
	"$nb" compare --baseline history "$out/run.json" $gate --format markdown \
		-o "$out/compare.md" >/dev/null 2>&1
	[ $gate_rc -le 5 ] || { say "compare failed (exit $gate_rc)"; exit $gate_rc; }
fi
"$nb" report "$out/run.json" -o "$out/report" >/dev/null ||
	say "the report could not be written (the gate stands)"

case $gate_rc in
0) say "passed against $runs run(s) of the history" ;;
1) say "REGRESSION against $runs run(s) of the history: see $out/compare.md" ;;
5) if [ "$runs" -lt "$min_runs" ]; then
	say "inconclusive: building the history ($runs of $min_runs runs); passing"
	gate_rc=0
   else
	say "inconclusive against $runs runs: the noise hides a change (more iterations?)"
   fi ;;
*) say "compare: exit $gate_rc"; exit $gate_rc ;;
esac
if [ "$record" = yes ] && [ $gate_rc -ne 1 ]; then
	"$nb" history add "$out/run.json" >/dev/null || { say "could not record the run"; exit 3; }
	say "recorded in $NASBENCH_DB"
fi
exit $gate_rc
