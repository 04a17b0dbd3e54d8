# tests/integration/lib.sh - sourced by every integration test.
#
# A test is tests/integration/test_<area>.sh: a series of `t_case NAME` blocks
# using the asserts below.  NB is the built binary (NBT its test build), T a scratch directory
# created for the test and removed after it.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
NB=${NB:-$ROOT/nasbench}
# the test build (core/hook.h): the same program with the test hooks, for
# the tests that strike at a known point of a run
NBT=${NBT:-$ROOT/build/nasbench-test}
# helper programs of the integration tests, built by `make test-build`
TOOLS=$ROOT/build/tools
for f in "$NB" "$NBT" "$TOOLS/iscsi_pio" "$TOOLS/nfs_meta"; do
	[ -x "$f" ] || { echo "FAIL: $f is missing: run 'make test-build'" >&2; exit 1; }
done
T=$(mktemp -d /tmp/nbtest.XXXXXX)
trap 'rm -rf "$T"' EXIT
T_FAILS=0
T_CASES=0
T_NAME=

T_CASE_FAILED=0
t_case() { T_NAME=$1; T_CASES=$((T_CASES + 1)); T_CASE_FAILED=0; }
# a case fails once however many of its asserts fail
t_fail() {
	echo "FAIL [$T_NAME] $*" >&2
	[ "$T_CASE_FAILED" = 1 ] || T_FAILS=$((T_FAILS + 1))
	T_CASE_FAILED=1
}

# run CMD...: sets RC, OUT (stdout) and ERR (stderr)
run() {
	"$@" >"$T/.out" 2>"$T/.err"
	RC=$?
	OUT=$(cat "$T/.out")
	ERR=$(cat "$T/.err")
}
assert_rc() { [ "$RC" -eq "$1" ] || t_fail "exit status $RC, expected $1; stderr: $ERR"; }
assert_err() { grep -qF -- "$1" <<<"$ERR" || t_fail "stderr lacks '$1': $ERR"; }
assert_out() { grep -qF -- "$1" <<<"$OUT" || t_fail "stdout lacks '$1': $OUT"; }
assert_file() { [ -f "$1" ] || t_fail "no file '$1'"; }
assert_no_file() { [ ! -e "$1" ] || t_fail "'$1' should not exist"; }
# assert_jq FILE FILTER: jq-less check via python3 expression on `d`
assert_json() {
	python3 - "$1" "$2" <<'PY' || t_fail "json check failed: $2 on $1"
import json, sys
d = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2], {"d": d})
sys.exit(0 if ok else 1)
PY
}
# no scratch directory left under DIR
assert_clean() { [ -z "$(ls -d "$1"/nasbench.* 2>/dev/null)" ] || t_fail "scratch left in $1: $(ls -d "$1"/nasbench.*)"; }

t_done() {
	echo "$(basename "$0"): $((T_CASES - T_FAILS)) of $T_CASES cases passed"
	[ "$T_FAILS" -eq 0 ]
}
