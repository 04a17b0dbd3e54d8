#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A new user's first minutes: the testbox started in the
# documented form returns; nasbench run as a normal user works against it,
# and a server that requires a reserved source port (the testbox's secure
# export: ganesha's PrivilegedPort, as Linux's 'secure' exports and
# FreeBSD's mountd) is refused with its cause and both fixes; ci/apt-get
# waits for a real apt-get that holds the dpkg lock at its prompt, says
# so, gives up when told, and goes on when the lock is let go.
. "$(dirname "$0")/lib.sh"

command -v setpriv >/dev/null || { missing "setpriv (util-linux)"; t_done; exit; }
PTB=$T/testbox
at_exit 'NASBENCH_TESTBOX_DIR=$PTB "$ROOT/ci/testbox" down >/dev/null 2>&1'

t_case "eval \"\$(ci/testbox up --private)\" returns, its assignments in the shell"
# in a shell of its own under timeout: a server holding the command
# substitution's pipe would keep it waiting (124) rather than the suite
run timeout 300 env NASBENCH_TESTBOX_DIR="$PTB" bash -c \
	'eval "$("$0" up --private 2>/dev/null)" && echo "nfs=$NASBENCH_NFS_URL" && echo "secure=$NASBENCH_NFS_SECURE_URL"' \
	"$ROOT/ci/testbox"
assert_rc 0
assert_out_re "^nfs=nfs://198\.18\.[0-9]+\.2$PTB/nfs/export$" "^secure=nfs://198\.18\.[0-9]+\.2$PTB/nfs/secure$"
URL=$(sed -n 's/^nfs=//p' <<<"$OUT")
SECURE=$(sed -n 's/^secure=//p' <<<"$OUT")

# a copy of nasbench a normal user may run, and a directory for its result
PUB=$(mktemp -d /tmp/nbsetup-pub.XXXXXX)
at_exit 'rm -rf "$PUB"'
chmod 1777 "$PUB"
cp "$NB" "$PUB/nasbench"
chmod 755 "$PUB/nasbench"
as_user() { (cd "$PUB" && exec setpriv --reuid 65534 --regid 65534 --clear-groups "$PUB/nasbench" "$@"); }

t_case "a normal user runs nasbench against the testbox's NFS export"
[ -n "$URL" ] || t_fail "no NFS URL from the testbox"
run as_user run -t "nfs=$URL" -w seq512k-write --size 4M --runtime 300ms -i 1 -q -o "$PUB/user.json"
assert_rc 0
assert_json "$PUB/user.json" 'result(d, "seq512k-write")["status"] == "ok" and result(d, "seq512k-write")["summary"]["bw_bytes"]["median"] > 0'

t_case "a server that requires a reserved source port: the cause and both fixes"
run as_user run -t "nfs=$SECURE" -w seq512k-write --size 4M --runtime 300ms -i 1 -q -o "$PUB/secure.json"
assert_rc 3
HOST=${SECURE#nfs://}; HOST=${HOST%%/*}
assert_err "nasbench: target 'nfs': NFS server '$HOST' refused '$PTB/nfs/secure' from a non-reserved source port: nasbench runs as a normal user (uid 65534), only root can use a port below 1024, and this server requires one; run nasbench as root, or allow non-reserved ports on the server (Linux: 'insecure' in /etc/exports; FreeBSD: mountd -n, or sysctl vfs.nfsd.nfs_privport=0; TrueNAS: 'allow non-root mount'; nfs-ganesha: PrivilegedPort = false)"
assert_no_file "$PUB/secure.json"
# root binds a reserved port (libnfs does): the same export mounts
run "$NB" run -t "nfs=$SECURE" -w seq512k-write --size 4M --runtime 300ms -i 1 -q -o "$T/root.json"
assert_rc 0

t_case "ci/apt-get waits for a real apt-get holding the dpkg lock at its prompt"
if dpkg-query -W -f='${Status}' cowsay 2>/dev/null | grep -q "ok installed"; then
	missing "cowsay is installed: no apt-get prompt to hold the lock with"
else
	# apt-get asks before it installs cowsay's dependency, holding
	# /var/lib/dpkg/lock-frontend while it waits for an answer
	mkfifo "$T/answer"
	LC_ALL=C apt-get install --no-install-recommends cowsay <"$T/answer" >"$T/apt.out" 2>&1 &
	APT=$!
	exec 7>"$T/answer"
	at_exit "kill $APT 2>/dev/null; exec 7>&-"
	for _ in $(seq 600); do grep -q "continue?" "$T/apt.out" && break; sleep 0.1; done
	grep -q "Do you want to continue?" "$T/apt.out" || t_fail "apt-get did not prompt: $(cat "$T/apt.out")"
	# bounded: gives up, naming the lock and who holds it
	NASBENCH_APT_WAIT=3 run "$ROOT/ci/apt-get" install -y -qq bc
	assert_rc 100
	assert_err "ci/apt-get: waiting for /var/lib/dpkg/lock-frontend, held by process $APT (apt-get) (apt-get install; up to 3 s, NASBENCH_APT_WAIT)" \
		"ci/apt-get: gave up after " " s waiting for /var/lib/dpkg/lock-frontend, held by process $APT (apt-get) (NASBENCH_APT_WAIT=3); apt-get install -y -qq bc: E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process $APT (apt-get)"
	# and goes on once the other apt-get is answered (no) and lets go
	NASBENCH_APT_WAIT=300 "$ROOT/ci/apt-get" install -y -qq bc >"$T/wait.out" 2>"$T/wait.err" &
	W=$!
	for _ in $(seq 600); do grep -q "waiting for" "$T/wait.err" && break; sleep 0.1; done
	grep -q "ci/apt-get: waiting for /var/lib/dpkg/lock-frontend, held by process $APT (apt-get)" "$T/wait.err" ||
		t_fail "ci/apt-get did not say it waits: $(cat "$T/wait.err")"
	echo n >&7
	wait "$APT"
	wait "$W"
	rc=$?
	[ $rc -eq 0 ] || t_fail "ci/apt-get after the lock was let go: exit $rc: $(cat "$T/wait.err")"
	grep -qE "^ci/apt-get: got the lock after [0-9]+ s$" "$T/wait.err" || t_fail "no 'got the lock': $(cat "$T/wait.err")"
	dpkg-query -W -f='${Status}' cowsay 2>/dev/null | grep -q "ok installed" && t_fail "cowsay was installed: the answer was no"
fi
t_done
