# SPDX-License-Identifier: GPL-2.0-or-later
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
# at_exit CMD: run CMD (eval'd) when the test ends, before $T goes
T_ATEXIT=()
at_exit() { T_ATEXIT+=("$1"); }
t_exit() {
	local c
	for c in "${T_ATEXIT[@]}"; do eval "$c"; done
	rm -rf "$T"
}
trap t_exit EXIT
# a run interrupted (tests/integration/run ends a file by its process
# group): the EXIT trap still takes down what the test started
trap 'exit 143' TERM
trap 'exit 130' INT
T_FAILS=0
T_CASES=0
T_NAME=

T_CASE_FAILED=0
# NASBENCH_IT_TIMES=1 (ci/flake-hunt sets it): each case says when it
# starts, in seconds from the file's start
t_case() {
	T_NAME=$1; T_CASES=$((T_CASES + 1)); T_CASE_FAILED=0
	[ "${NASBENCH_IT_TIMES:-0}" != 1 ] || echo "${0##*/}: +${SECONDS}s $1" >&2
}
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
# assert_err TEXT...: stderr holds each TEXT; assert_out TEXT...: stdout does;
# assert_out_re REGEX...: stdout has a line matching each (grep -E) REGEX
assert_err() { local m; for m; do grep -qF -- "$m" <<<"$ERR" || t_fail "stderr lacks '$m': $ERR"; done; }
assert_out() { local m; for m; do grep -qF -- "$m" <<<"$OUT" || t_fail "stdout lacks '$m': $OUT"; done; }
assert_out_re() { local m; for m; do grep -qE -- "$m" <<<"$OUT" || t_fail "stdout has no line matching '$m': $OUT"; done; }
assert_file() { [ -f "$1" ] || t_fail "no file '$1'"; }
assert_no_file() { [ ! -e "$1" ] || t_fail "'$1' should not exist"; }
# Python snippets of the tests import tests/integration/results.py:
# result(d, WORKLOAD[, TARGET]) is the one entry of d["results"] for it.
export PYTHONPATH="$ROOT/tests/integration${PYTHONPATH:+:$PYTHONPATH}"
# assert_json FILE EXPR [SHOW]: EXPR (Python, the document is d; result()
# selects an entry by workload and target) is true; on failure SHOW, if
# given, is evaluated and printed (what the run said)
assert_json() {
	local why
	why=$(python3 - "$1" "$2" "${3:-}" <<'PY'
import json, sys
from results import result
d = json.load(open(sys.argv[1]))
if eval(sys.argv[2], {"d": d, "result": result}):
    sys.exit(0)
if sys.argv[3]:
    print(": " + str(eval(sys.argv[3], {"d": d, "result": result})))
sys.exit(1)
PY
	) || t_fail "json check failed: $2 on $1$why"
}
# J FILE EXPR: print EXPR (Python, as assert_json's) of the document FILE
J() { python3 -c "import json,sys; from results import result; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
# refused TARGET RC MESSAGE...: 'nasbench run -t TARGET', with the test's
# REFUSED_ARGS after it, exits RC, says each MESSAGE on stderr and writes no
# result
REFUSED_ARGS=()
refused() {
	local target=$1 rc=$2
	shift 2
	rm -f "$T/f.json"
	run "$NB" run -t "$target" "${REFUSED_ARGS[@]}" -o "$T/f.json"
	assert_rc "$rc"
	assert_err "$@"
	assert_no_file "$T/f.json"
}
# Handshakes with the test build ($NBT, core/hook.h): run it with
#   NASBENCH_TEST_PAUSE=$(hook_dir) NASBENCH_TEST_PAUSE_AT=POINT
# (POINT: "start:WORKLOAD:ITERATION" before an iteration, "running" once a
# workload has moved 1 MiB, "pass-N" after integrity's passes); then
# hook_wait DIR POINT returns when the run stands there (fails after 60 s),
# and hook_go DIR POINT lets it go on.  A fault strikes at a known point,
# never after a guessed sleep.
hook_dir() { local d; d=$(mktemp -d "$T/hook.XXXXXX"); echo "$d"; }
hook_wait() {
	for _ in $(seq 1200); do [ -e "$1/$2.ready" ] && return 0; sleep 0.05; done
	t_fail "the run never reached the test point '$2'"
	return 1
}
hook_go() { : >"$1/$2.go"; }
# wait_traced PID: strace has attached to PID (its TracerPid is set)
wait_traced() {
	for _ in $(seq 200); do
		[ "$(awk '/^TracerPid:/ {print $2}' "/proc/$1/status" 2>/dev/null)" != 0 ] && return 0
		sleep 0.05
	done
	t_fail "strace did not attach to pid $1"
	return 1
}

# missing WHAT: a prerequisite of the test is not there; the test FAILS
# saying so (a test that cannot run must never pass by skipping)
missing() { t_case "prerequisite"; t_fail "cannot run: $*"; }

# free_port: a TCP port of 127.0.0.1 nobody listens on now
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
# sshd_prepare [KEY...]: what an sshd of the test's own on 127.0.0.1 needs,
# in S=$T/ssh: the ed25519 keys host, id and each KEY (comment nbtest-KEY),
# a free PORT, known_hosts holding the host's key, and sshd_config
# (public keys only, from $S/authorized_keys, which the test writes).
sshd_prepare() {
	S=$T/ssh
	mkdir -p "$S" /run/sshd
	chmod 700 "$S"
	for k in host id "$@"; do ssh-keygen -q -t ed25519 -N '' -C "nbtest-$k" -f "$S/$k"; done
	PORT=$(free_port)
	echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$S/host.pub")" >"$S/known_hosts"
	cat >"$S/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $S/host
AuthorizedKeysFile $S/authorized_keys
PidFile none
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
LogLevel VERBOSE
EOF
}
# sshd_listening: the sshd the test started on sshd_prepare's config (pid
# $SSHD, its log $S/sshd.log) listens; a minute at most (a loaded machine
# took seconds), else the case fails with what its log says
sshd_listening() {
	for _ in $(seq 1200); do
		grep -q "Server listening" "$S/sshd.log" 2>/dev/null && return 0
		kill -0 "$SSHD" 2>/dev/null || break
		sleep 0.05
	done
	t_fail "the test's sshd does not listen: $(tail -3 "$S/sshd.log" 2>/dev/null)"
	return 1
}
# sshd_start: the sshd of sshd_prepare's config, listening when this
# returns 0 (SSHD its pid, stopped at exit)
sshd_start() {
	/usr/sbin/sshd -D -f "$S/sshd_config" -E "$S/sshd.log" </dev/null >/dev/null 2>&1 &
	SSHD=$!
	at_exit "kill $SSHD 2>/dev/null; wait $SSHD 2>/dev/null"
	sshd_listening
}
# tgt_up [NAME:SIZE...]: a private tgtd of this test alone (own portal port,
# own control port), so a test may stop, kill or reconfigure it without
# disturbing the shared testbox that other tests use at the same time.  Each
# NAME is a target iqn.2026-11.org.nasbench:NAME (tid 1, 2... in order) whose
# LUN 1 is the sparse file $T/NAME.img of SIZE; without arguments one target
# 'private' of 64M.  Sets TGT_PID, TGT_C, TGT_PORT, TGT_IQN (the URL up to
# the ':NAME', for "$TGT_IQN:NAME/1") and TGT_URL (the first target's LUN);
# tgt_down stops it (also at exit).
tgt_up() {
	local tid=0 lun try
	[ $# -gt 0 ] || set -- private:64M
	TGT_NT=$#
	for lun; do truncate -s "${lun#*:}" "$T/${lun%%:*}.img" || return 1; done
	at_exit tgt_down
	# a control port no other tgtd uses (the testboxes' are 26, 27 and
	# 601-699, the lab's 14): one whose lock file ours holds, else another
	for try in 1 2 3 4 5; do
		TGT_C=$((1000 + RANDOM % 29000)) TGT_PORT=$(free_port)
		[ ! -e /run/tgtd/socket.$TGT_C.lock ] || continue
		tgtd -f -C $TGT_C --iscsi portal=127.0.0.1:$TGT_PORT >"$T/tgtd.log" 2>&1 </dev/null &
		TGT_PID=$!
		disown $TGT_PID          # no "Killed" notice when a case kills it
		for _ in $(seq 100); do
			kill -0 $TGT_PID 2>/dev/null || break
			tgtadm -C $TGT_C --op show --mode sys >/dev/null 2>&1 &&
				ls -l /proc/$TGT_PID/fd 2>/dev/null | grep -q "/socket\.$TGT_C\.lock\$" && break 2
			sleep 0.1
		done
		kill -0 $TGT_PID 2>/dev/null && return 1         # alive, never answered
		TGT_PID=
	done
	[ -n "${TGT_PID:-}" ] || return 1
	TGT_IQN=iscsi://127.0.0.1:$TGT_PORT/iqn.2026-11.org.nasbench
	TGT_URL=$TGT_IQN:${1%%:*}/1
	for lun; do
		tid=$((tid + 1))
		tgtadm -C $TGT_C --lld iscsi --op new --mode target --tid $tid -T "iqn.2026-11.org.nasbench:${lun%%:*}" &&
		tgtadm -C $TGT_C --lld iscsi --op new --mode logicalunit --tid $tid --lun 1 -b "$T/${lun%%:*}.img" &&
		tgtadm -C $TGT_C --lld iscsi --op bind --mode target --tid $tid -I ALL || return 1
	done
}
tgt_down() {
	[ -n "${TGT_PID:-}" ] || return 0
	kill -CONT $TGT_PID 2>/dev/null
	for tid in $(seq "$TGT_NT"); do
		tgtadm -C $TGT_C --op delete --mode target --tid $tid --force >/dev/null 2>&1
	done
	tgtadm -C $TGT_C --op delete --mode system >/dev/null 2>&1
	for _ in $(seq 50); do kill -0 $TGT_PID 2>/dev/null || break; sleep 0.1; done
	kill -0 $TGT_PID 2>/dev/null && kill $TGT_PID
	TGT_PID=
}

# private_testbox: a testbox of this test alone ('ci/testbox up --private':
# its own network namespace, rpcbind, ganesha and tgtd), for tests that stop,
# kill or restart servers while other tests use the shared one.  Sets PTB
# (its state directory) and PRIV_NFS_URL, PRIV_ISCSI_URL, ... (the
# NASBENCH_* lines of its 'ci/testbox env'); it goes at exit.
private_testbox() {
	PTB=$T/testbox
	at_exit 'NASBENCH_TESTBOX_DIR=$PTB "$ROOT/ci/testbox" down >/dev/null 2>&1'
	if ! NASBENCH_TESTBOX_DIR=$PTB "$ROOT/ci/testbox" up --private >"$T/ptb.env" 2>"$T/ptb.err"; then
		missing "a private testbox did not start: $(cat "$T/ptb.err")"
		return 1
	fi
	eval "$(sed -n 's/^NASBENCH_\([A-Z0-9_]*\)=/PRIV_\1=/p' "$T/ptb.env")"
}
# private_testbox_up: bring its servers back after a test stopped one
private_testbox_up() { NASBENCH_TESTBOX_DIR=$PTB "$ROOT/ci/testbox" up >/dev/null; }

# no scratch directory left under DIR
assert_clean() { [ -z "$(ls -d "$1"/nasbench.* 2>/dev/null)" ] || t_fail "scratch left in $1: $(ls -d "$1"/nasbench.*)"; }

# crafted FILE...: FILE is a result the test made up on purpose (a hostile
# or broken one), not one nasbench wrote: t_done does not validate it
T_CRAFTED=()
crafted() { T_CRAFTED+=("$@"); }
# Every result nasbench wrote under $T validates against the result schema
# (build/result.schema.json, made from docs/result.md): a key the document
# does not name, or a value of another type, fails the test
t_validate_results() {
	local schema=$ROOT/build/result.schema.json list
	list=$(python3 - "$T" "${T_CRAFTED[@]}" <<'PY'
import json, os, sys
skip = {os.path.realpath(p) for p in sys.argv[2:]}
for d, _, files in os.walk(sys.argv[1]):
    for f in files:
        p = os.path.join(d, f)
        if not f.endswith(".json") or os.path.realpath(p) in skip:
            continue
        try:
            doc = json.load(open(p, encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and doc.get("tool") == "nasbench" and "results" in doc:
            print(p)
PY
	)
	[ -n "$list" ] || return 0
	t_case "every result written validates against the result schema"
	[ -f "$schema" ] || { t_fail "no $schema: run 'make test-build'"; return; }
	local out
	# NASBENCH_IT_KEEP=DIR: a copy of each result in DIR, to read later
	if [ -n "${NASBENCH_IT_KEEP:-}" ]; then
		mkdir -p "$NASBENCH_IT_KEEP" && while read -r p; do
			cp "$p" "$NASBENCH_IT_KEEP/$(basename "$0" .sh)-$(basename "$p")"
		done <<<"$list"
	fi
	out=$(mapfile -t f <<<"$list"; "$ROOT/ci/validate-results" "$schema" "${f[@]}" 2>&1) ||
		t_fail "$out"
}
t_done() {
	t_validate_results
	echo "$(basename "$0"): $((T_CASES - T_FAILS)) of $T_CASES cases passed"
	[ "$T_FAILS" -eq 0 ]
}
