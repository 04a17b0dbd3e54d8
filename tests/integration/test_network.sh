#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The network path (docs/network.md): several paths to one LUN or export,
# the refusal of paths that lead to different ones, a path that dies, the
# last path dying, N connections as the server sees them, the MTU end to
# end (a router at 1500 between two 9000-byte ends, a clean 9000 path, a
# switch that black-holes jumbo frames) - against a private testbox with
# two links, a routed and a switched way to the box (ci/testbox.d/net.sh).
. "$(dirname "$0")/lib.sh"

PTB=$T/testbox
at_exit 'NASBENCH_TESTBOX_DIR=$PTB "$ROOT/ci/testbox" down >/dev/null 2>&1'
if ! NASBENCH_TESTBOX_DIR=$PTB "$ROOT/ci/testbox" up --private --links 2 --mtu 9000 \
	--router 1500 --switch 1500 >"$T/ptb.env" 2>"$T/ptb.err"; then
	missing "a private testbox with two links did not start: $(cat "$T/ptb.err")"
	t_done
	exit 1
fi
eval "$(sed -n 's/^NASBENCH_\([A-Z0-9_]*\)=/P_\1=/p' "$T/ptb.env")"
BOX=${P_ISCSI_URL#iscsi://}
BOX=${BOX%%:*}
A2=$P_TB_ADDR2
WB=iqn.2026-11.org.nasbench:wb
EXPORT=$PTB/nfs/export
ISCSI="mp=iscsi://$BOX:3262/$WB/1"
NFS="mp=nfs://$BOX$EXPORT"
link() { NASBENCH_TESTBOX_DIR=$PTB "$ROOT/ci/testbox" link "$@"; }
Q() { J "$T/$1.json" "$2"; }

t_case "bad paths, policies and connections are refused with the reason"
run "$NB" run -t "$ISCSI" --paths "$BOX,,$A2:99999" -w seq512k-read -o "$T/bad.json"
assert_rc 2
assert_err "nasbench: --paths: '$A2:99999' has no port from 1 to 65535 after the ':'"
run "$NB" run -t "$ISCSI" --paths "$BOX,$BOX" -w seq512k-read -o "$T/bad.json"
assert_rc 2
assert_err "nasbench: --paths: '$BOX' is given twice"
run "$NB" run -t "$ISCSI" --path-policy rr:0 -w seq512k-read -o "$T/bad.json"
assert_rc 2
assert_err "nasbench: --path-policy: path policy 'rr:0': N of rr:N must be a number of I/Os from 1 to 1000000"
run "$NB" run -t "$ISCSI" --path-policy mru -w seq512k-read -o "$T/bad.json"
assert_rc 2
assert_err "nasbench: --path-policy: path policy 'mru': not one of rr:N (round robin, a new path every N I/Os), fixed, least-io"
run "$NB" run -t "local=$T" --connections 2 -w seq512k-read --size 1M -o "$T/bad.json"
assert_rc 2
assert_err "nasbench: target 'local': paths and connections are for nfs:// and iscsi:// targets, not 'file://'"

t_case "iSCSI: two portals that lead to different LUs are refused, naming both"
# tgt names a LU by its target id and LUN: this tgtd's 'wb' is tid 2
tgt_up other:1M wb:16M
run "$NB" run -t "$ISCSI" --paths "$BOX,127.0.0.1:$TGT_PORT" --destroy-data \
	-w seq512k-write --size 4M --runtime 300ms -i 1 -o "$T/lu.json"
assert_rc 2
assert_err "nasbench: target 'mp': the paths lead to different LUs: '$BOX:3262' to naa.60000000000000000e00000000010001, '127.0.0.1:$TGT_PORT' to naa.60000000000000000e00000000020001; several paths must reach the same LU (nothing was written)"
cmp -s -n 16777216 "$T/wb.img" /dev/zero || t_fail "the other LU was written"
tgt_down

t_case "NFS: two addresses that lead to different exports are refused, naming both"
# another box behind the router: its own rpcbind and ganesha, the same
# export path over another directory
TWIN=$T/twin
mkdir -p "$TWIN/run" "$TWIN/other"
chmod 0777 "$TWIN/other"
TWIN_IP=${P_TB_ROUTED_ADDR%.*}.97
sed -e "s|Bind_addr = .*;|Bind_addr = $TWIN_IP;|" "$PTB/nfs/ganesha.conf" >"$TWIN/ganesha.conf"
twin_run() {
	exec nsenter "--net=/run/netns/${P_TB_NS}r2" unshare -m --propagation private sh -c \
		'mount -t tmpfs -o mode=0755 nbtwin /run && mkdir -p /run/rpcbind && chown _rpc /run/rpcbind 2>/dev/null; mount --bind "$0" "$1" && shift && exec "$@"' \
		"$TWIN/other" "$EXPORT" "$@"
}
(twin_run rpcbind -f -w) >"$TWIN/rpcbind.log" 2>&1 </dev/null &
echo $! >"$TWIN/rpcbind.pid"
for _ in $(seq 100); do ip netns exec "${P_TB_NS}r2" rpcinfo -p 127.0.0.1 >/dev/null 2>&1 && break; sleep 0.1; done
(twin_run ganesha.nfsd -F -L "$TWIN/ganesha.log" -f "$TWIN/ganesha.conf" -p /run/g.pid) >/dev/null 2>&1 </dev/null &
echo $! >"$TWIN/ganesha.pid"
at_exit 'kill $(cat "$TWIN/ganesha.pid" "$TWIN/rpcbind.pid") 2>/dev/null'
for _ in $(seq 300); do
	ip netns exec "${P_TB_NS}r2" rpcinfo -t "$TWIN_IP" nfs 3 >/dev/null 2>&1 && break
	sleep 0.1
done
fsid() { local i; i=$(stat -f -c %i "$1"); echo "0x${i:8:8}${i:0:8}"; }
run "$NB" run -t "$NFS" --paths "$BOX,$TWIN_IP" -w seq512k-write --size 4M --runtime 300ms -i 1 -o "$T/ex.json"
assert_rc 2
assert_err "nasbench: target 'mp': the paths lead to different exports: '$BOX:2049' to fsid $(fsid "$EXPORT") fileid $(stat -c %i "$EXPORT"), '$TWIN_IP:2049' to fsid $(fsid "$TWIN/other") fileid $(stat -c %i "$TWIN/other"); several paths must reach the same export (nothing was written)"
assert_clean "$EXPORT"
assert_clean "$TWIN/other"
kill $(cat "$TWIN/ganesha.pid" "$TWIN/rpcbind.pid") 2>/dev/null

t_case "iSCSI: rr:1 over two portals, per-path bytes add up to the total"
# runs of 64 MiB in one pass: 128 requests of 512 KiB (the 100 samples a
# figure needs), so each path's count is exact
run "$NB" run -t "$ISCSI" --paths "$BOX,$A2" --path-policy rr:1 --destroy-data \
	-w seq512k-write,seq512k-read --size 64M -i 1 -o "$T/rr.json"
assert_rc 0
# per workload: [(ios, bytes) of each path], the bytes of the iteration
P="[[(p['ios'], p['bytes']) for p in result(d, w)['iterations'][0]['paths']] for w in ('seq512k-write', 'seq512k-read')]"
assert_json "$T/rr.json" "d['labels'] == {'paths': '2', 'connections': '1', 'path-policy': 'rr:1', 'mtu': '9000'} and d['targets'][0]['paths']['ident'] == 'naa.60000000000000000e00000000010001' and all(sum(b for _, b in ps) == 64 << 20 and all(abs(n - 64) <= 1 for n, _ in ps) for ps in $P) and result(d, 'seq512k-write')['iterations'][0]['bytes_written'] == result(d, 'seq512k-read')['iterations'][0]['bytes_read'] == 64 << 20" "(d['labels'], d['targets'][0]['paths']['ident'], $P)"

t_case "iSCSI: fixed keeps one path, the other standby; rr:1000 stays on one"
for pol in fixed rr:1000; do
	run "$NB" run -t "$ISCSI" --paths "$BOX,$A2" --path-policy $pol --destroy-data \
		-w seq512k-read --size 64M -i 1 -o "$T/$pol.json"
	assert_rc 0
done
assert_json "$T/fixed.json" "[p['ios'] for p in result(d, 'seq512k-read')['iterations'][0]['paths']] == [128, 0] and [p['state'] for p in d['targets'][0]['paths']['list']] == ['active', 'standby']" "(result(d, 'seq512k-read')['iterations'][0]['paths'], d['targets'][0]['paths'])"
assert_json "$T/rr:1000.json" "[p['ios'] for p in result(d, 'seq512k-read')['iterations'][0]['paths']] == [128, 0] and [p['state'] for p in d['targets'][0]['paths']['list']] == ['active', 'active']" "(result(d, 'seq512k-read')['iterations'][0]['paths'], d['targets'][0]['paths'])"

t_case "NFS: the same export through two addresses, two connections each"
run "$NB" run -t "$NFS" --paths "$BOX,$A2" --connections 2 -w seq512k-write,seq512k-read \
	--size 64M -i 1 -o "$T/nfs.json"
assert_rc 0
assert_json "$T/nfs.json" "[p['path'] for p in d['targets'][0]['paths']['list']] == ['$BOX:2049', '$A2:2049', '$BOX:2049#2', '$A2:2049#2'] and d['targets'][0]['paths']['ident'] == 'fsid $(fsid "$EXPORT") fileid $(stat -c %i "$EXPORT")' and [p['bytes'] for p in result(d, 'seq512k-read')['iterations'][0]['paths']] == [16777216] * 4" "(d['targets'][0]['paths'], result(d, 'seq512k-read')['iterations'][0]['paths'])"
assert_clean "$EXPORT"

t_case "NFS: N connections to one address, as the server sees them"
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=start:seq512k-read:1 \
	"$NBT" run -t "$NFS" --connections 4 -w seq512k-write,seq512k-read --size 64M -i 1 \
	-q -o "$T/conn.json" >"$T/conn.out" 2>"$T/conn.err" &
pid=$!
if hook_wait "$H" start:seq512k-read:1; then
	# the box's side of each connection: what it received of the writes
	ip netns exec "$P_TB_NS" ss -tni state established '( sport = :2049 )' >"$T/ss.txt"
	hook_go "$H" start:seq512k-read:1
fi
wait $pid
RC=$?
assert_rc 0
n=$(grep -c 'bytes_received:' "$T/ss.txt")
[ "$n" = 4 ] || t_fail "the server sees $n connections, not 4: $(cat "$T/ss.txt")"
python3 - "$T/ss.txt" <<'PY' || t_fail "the connections' bytes differ by more than 10%: $(cat "$T/ss.txt")"
import re, sys
b = [int(x) for x in re.findall(r"bytes_received:(\d+)", open(sys.argv[1]).read())]
sys.exit(0 if b and min(b) >= 0.9 * max(b) else 1)
PY

t_case "engine = fio: one job per path, each over its own slice"
FE=${NASBENCH_FIO_ENGINES:-}
[ -n "$FE" ] && [ -x "$FE" ] || FE=$("$ROOT/ci/fio-engines" 2>/dev/null | tail -n1)
if [ -x "$FE" ]; then
	NASBENCH_FIO=$FE run "$NB" run -t "$ISCSI" --paths "$BOX,$A2" --engine fio --destroy-data \
		-w seq512k-read --size 64M -i 1 -o "$T/fio.json"
	assert_rc 0
	assert_json "$T/fio.json" "[(p['path'], p['ios'], p['bytes']) for p in result(d, 'seq512k-read')['iterations'][0]['paths']] == [('$BOX:3262', 64, 32 << 20), ('$A2:3262', 64, 32 << 20)] and result(d, 'seq512k-read')['iterations'][0]['fio']['job'].count('filename=iscsi') == 2" "result(d, 'seq512k-read')['iterations'][0]"
else
	t_fail "no fio with the libiscsi engine (ci/fio-engines)"
fi

t_case "a path dies: its I/O reissued, marked dead, failover under twice the timeout, data verifies"
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=pass-1 \
	"$NBT" run -t "$ISCSI" --paths "$BOX,$A2" --path-policy rr:1 --timeout 2s --destroy-data \
	-w integrity --size 32M -i 1 -o "$T/die.json" >"$T/die.out" 2>"$T/die.err" &
pid=$!
hook_wait "$H" pass-1 && link 2 down && hook_go "$H" pass-1
wait $pid
RC=$?
link 2 up
ERR=$(cat "$T/die.err")
assert_rc 0
assert_err "nasbench: warning: target 'mp': path $A2:3262 is dead: no answer within 2000 ms"
assert_json "$T/die.json" "result(d, 'integrity')['iterations'][0]['metrics']['corrupt_blocks'] == 0 == result(d, 'integrity')['iterations'][0]['metrics']['stale_blocks'] and [p['state'] for p in d['targets'][0]['paths']['list']] == ['active', 'dead'] and 0 < d['targets'][0]['paths']['list'][1]['failover_ms'] < 4000 and d['targets'][0]['paths']['list'][1]['reissued'] > 0" "(result(d, 'integrity')['iterations'][0]['metrics'], d['targets'][0]['paths'])"

t_case "the last path dies: exit 3, the iteration measured before kept"
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=start:seq512k-write:2 \
	"$NBT" run -t "$ISCSI" --paths "$BOX,$A2" --path-policy rr:1 --timeout 2s --destroy-data \
	-w seq512k-write --size 8M --runtime 300ms -i 2 -q -o "$T/last.json" >"$T/last.out" 2>"$T/last.err" &
pid=$!
hook_wait "$H" start:seq512k-write:2 && link 1 down && link 2 down && hook_go "$H" start:seq512k-write:2
wait $pid
RC=$?
link 1 up
link 2 up
ERR=$(cat "$T/last.err")
assert_rc 3
assert_err "target 'mp': every path is dead: $BOX:3262 (no answer within 2000 ms); $A2:3262 (no answer within 2000 ms)"
assert_json "$T/last.json" "len(result(d, 'seq512k-write')['iterations']) == 1 and result(d, 'seq512k-write')['status'] == 'failed'" "result(d, 'seq512k-write')"

# the box's sshd, for its MTU over the telemetry (ci/lab.d/ssh.sh's way)
S=$T/ssh
mkdir -p "$S" /run/sshd
chmod 700 "$S"
for k in host id; do ssh-keygen -q -t ed25519 -N '' -C "nbnet-$k" -f "$S/$k"; done
cp "$S/id.pub" "$S/authorized_keys"
echo "[$BOX]:2222 $(cut -d' ' -f1,2 "$S/host.pub")" >"$S/known_hosts"
printf 'Port 2222\nListenAddress %s\nHostKey %s/host\nAuthorizedKeysFile %s/authorized_keys\nPidFile none\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n' \
	"$BOX" "$S" "$S" >"$S/sshd_config"
nsenter "--net=/run/netns/$P_TB_NS" /usr/sbin/sshd -D -f "$S/sshd_config" </dev/null >"$S/sshd.log" 2>&1 &
echo $! >"$S/sshd.pid"
at_exit 'kill $(cat "$S/sshd.pid") 2>/dev/null'
for _ in $(seq 100); do (exec 3<>"/dev/tcp/$BOX/2222") 2>/dev/null && break; sleep 0.1; done
# one run, one telemetry source: the box reached through the routers, and
# straight over link 1
cat >"$T/box.ini" <<EOF
[box]
monitor = ssh://root@$BOX:2222
monitor-identity = $S/id
monitor-known-hosts = $S/known_hosts
[target routed]
url = iscsi://$P_TB_ROUTED_ADDR:3262/$WB/1
destroy-data = yes
[target clean]
url = iscsi://$BOX:3262/$WB/1
destroy-data = yes
EOF
run "$NB" run "$T/box.ini" -w seq512k-write --size 16M --runtime 300ms -i 1 --netbase no -o "$T/mtu.json"
M="[(m['iface_mtu'], m.get('box_mtu'), m['mss_open'], m['pmtu_open'], m['mss'], m['pmtu']) for m in result(d, 'seq512k-write', TGT)['iterations'][0]['mtu']]"
ROUTED=${M//TGT/\'routed\'} CLEAN=${M//TGT/\'clean\'}

t_case "MTU: a router's 1500-byte link between two 9000-byte ends gives the verdict"
assert_rc 0
assert_out "routed seq512k-write: warning: jumbo frames: the client and the box are at 9000 but the path carries 1500 (a switch or router between them is at 1500)"
assert_json "$T/mtu.json" "$ROUTED == [(9000, 9000, 8948, 9000, 1448, 1500)] and d['labels']['mtu'] == 'mixed'" "($ROUTED, d['labels'])"

t_case "MTU: a clean 9000-byte path gives no verdict and MSS 8948"
grep -q "^clean.*\(jumbo frames\|MTU\)" <<<"$OUT" && t_fail "a verdict on a clean path: $OUT"
assert_json "$T/mtu.json" "$CLEAN == [(9000, 9000, 8948, 9000, 8948, 9000)]" "$CLEAN"

t_case "MTU: a switch that drops jumbo frames is said to, not a slow box"
run "$NB" run -t "mp=iscsi://$P_TB_SWITCHED_ADDR:3262/$WB/1" --destroy-data --timeout 2s \
	-w seq512k-write --size 16M --runtime 300ms -i 1 -o "$T/hole.json"
assert_rc 3
assert_err "no answer within 2000 ms: a jumbo-frame black hole: a new connection to $P_TB_SWITCHED_ADDR still opens (small frames pass), but this one, sending segments of 8948 bytes from interface nbhs${P_TB_NS#nbtb} (MTU 9000), got no answer: a switch or router between the client and the box drops larger frames without an ICMP 'fragmentation needed', so this is the network, not a slow box"

t_done
