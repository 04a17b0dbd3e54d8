#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# engine = fio and --clients on nfs:// and iscsi:// targets, through fio's
# nfs (libnfs) and libiscsi engines: the fio that ci/fio-engines built
# ($NASBENCH_FIO_ENGINES, set by tests/integration/run), the testbox's
# ganesha and tgtd, and two 'fio --server' instances of that fio on
# 127.0.0.2 and 127.0.0.3 (started and stopped by pid).
. "$(dirname "$0")/lib.sh"

FE=${NASBENCH_FIO_ENGINES:-}
[ -n "$FE" ] && [ -x "$FE" ] || FE=$("$ROOT/ci/fio-engines" 2>/dev/null | tail -n1)
[ -x "$FE" ] || { missing "no fio with the nfs and libiscsi engines (ci/fio-engines)"; t_done; exit; }
[ -n "${NASBENCH_NFS_TMPFS_URL:-}" ] && [ -n "${NASBENCH_ISCSI_TMPFS_URL:-}" ] ||
	{ missing "no testbox (eval \"\$(ci/testbox env)\")"; t_done; exit; }
NFS=$NASBENCH_NFS_TMPFS_URL
LUN=$NASBENCH_ISCSI_TMPFS_URL
SMALL="--size 32M --runtime 1s"
job() { # FILE W: the job file fio ran for workload W's first iteration
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
r=[r for r in d["results"] if r["workload"]==sys.argv[2]][0]["iterations"][0]["fio"]
print(r["job"] if "job" in r else r["jobs"][0]["job"])' "$1" "$2"
}

SERVERS=()
stop_servers() {
	for p in "${SERVERS[@]}"; do kill -9 -- "-$p" 2>/dev/null; done
	SERVERS=()
}
at_exit stop_servers
# start_server ADDR PORT: the engines' fio as a server, in a process group
start_server() {
	setsid "$FE" --server=ip:"$1","$2" >/dev/null 2>&1 &
	SERVERS+=($!)
	disown $!
	for _ in $(seq 50); do
		python3 -c "import socket; socket.create_connection(('$1',$2),0.2)" 2>/dev/null && return 0
		sleep 0.1
	done
	t_fail "fio --server on $1:$2 did not start"
}

t_case "engine = fio on nfs://: fio's nfs engine, writes said not durable"
NASBENCH_FIO=$FE run "$NB" run --target nas="$NFS" --engine fio -w seq512k-write,rand4k-read $SMALL -i 1 -o "$T/nfs.json" -q
assert_rc 0
assert_json "$T/nfs.json" 'all(r["status"] == "ok" and 1e5 < r["iterations"][0]["metrics"]["bw_bytes"] < 1e11 for r in d["results"])'
assert_json "$T/nfs.json" 'all(r["iterations"][0]["fio"]["ioengine"] == "nfs" for r in d["results"])'
assert_json "$T/nfs.json" 'd["results"][0]["iterations"][0]["fio"]["durable"] is False and d["results"][1]["iterations"][0]["fio"]["durable"] is True'
assert_json "$T/nfs.json" 'any(w.startswith("not durable: fio'"'"'s nfs engine sends no COMMIT") for w in d["results"][0]["warnings"])'
J=$(job "$T/nfs.json" seq512k-write)
grep -qx "nfs_url=nfs://.*" <<<"$J" || t_fail "no nfs_url= in: $J"
grep -qx 'filename=nasbench\.[^/]*/data' <<<"$J" || t_fail "filename not relative to the export: $J"
! grep -q "end_fsync" <<<"$J" || t_fail "end_fsync= (the nfs engine fails it): $J"

t_case "engine = fio on iscsi://: fio's libiscsi engine, the LUN's colons escaped"
NASBENCH_FIO=$FE run "$NB" run --target lun="$LUN" --destroy-data --engine fio -w seq512k-write,rand4k-read $SMALL -i 1 -o "$T/iscsi.json" -q
assert_rc 0
assert_json "$T/iscsi.json" 'all(r["status"] == "ok" and r["iterations"][0]["fio"]["ioengine"] == "libiscsi" for r in d["results"])'
J=$(job "$T/iscsi.json" seq512k-write)
grep -qx 'filename=iscsi\\://[^:]*\\:[0-9]*/iqn\.2026-11\.org\.nasbench\\:tmpfs/1' <<<"$J" || t_fail "filename: $J"
grep -qx "end_fsync=1" <<<"$J" || t_fail "no end_fsync=1: $J"

t_case "a fio without the engine is refused before anything runs"
NASBENCH_FIO=$(command -v fio) run "$NB" run --target nas="$NFS" --engine fio -w rand4k-read $SMALL -i 1 -o "$T/refused.json"
assert_rc 2
assert_err "nasbench: target 'nas': engine = fio on 'nfs://' needs fio's nfs engine, and '$(command -v fio)' has none ('fio --enghelp' does not list it; Debian's fio is built without it): build one with ci/fio-engines and set NASBENCH_FIO to the path it prints"
assert_no_file "$T/refused.json"
NASBENCH_FIO=$(command -v fio) run "$NB" run --target lun="$LUN" --destroy-data --engine fio -w rand4k-read $SMALL -i 1 -q
assert_rc 2
assert_err "engine = fio on 'iscsi://' needs fio's libiscsi engine"

t_case "CHAP credentials in the URL are refused: they would land in the job file"
if [ -n "${NASBENCH_ISCSI_CHAP_URL:-}" ]; then
	NASBENCH_FIO=$FE run "$NB" run --target lun="$NASBENCH_ISCSI_CHAP_URL" --engine fio -w rand4k-read $SMALL -i 1 -o "$T/chap.json"
	assert_rc 2
	assert_err "nasbench: target 'lun': the CHAP user and password would be written into fio's job file, which the result keeps: take them out of the URL and give them to fio as LIBISCSI_CHAP_USERNAME and LIBISCSI_CHAP_PASSWORD in its environment"
	assert_no_file "$T/chap.json"
	pw=${NASBENCH_ISCSI_CHAP_URL#*%}; pw=${pw%%@*}
	! grep -qF -- "$pw" <<<"$ERR$OUT" || t_fail "the password was printed"
else
	t_fail "the testbox gives no NASBENCH_ISCSI_CHAP_URL"
fi

P=$(free_port)
start_server 127.0.0.2 "$P"
start_server 127.0.0.3 "$P"
printf '127.0.0.2:%s\n127.0.0.3:%s\n' "$P" "$P" >"$T/two-servers"
# both clients' figures, their bytes adding up to fio's aggregate, and
# both running at the same time (none late, none early)
CLIENTS_OK='all(len(it["clients"]) == 2 and all(c["metrics"]["bw_bytes"] > 0 and c["bytes"] > 0 for c in it["clients"]) for r in d["results"] for it in r["iterations"])'
SUM_OK='all(sum(c["bytes"] for c in it["clients"]) == it["fio"]["all_clients_bytes"] == it["fio"]["sum_client_bytes"] and it["fio"]["bytes_match"] is True and it["metrics"]["bw_bytes"] == it["fio"]["all_clients_bw_bytes"] for r in d["results"] for it in r["iterations"])'
SHOW='[(r["status"], r["warnings"], [(c["client"], c.get("bytes"), c.get("start_s"), c.get("end_s"), c.get("error")) for c in it.get("clients", [])], {k: v for k, v in it.get("fio", {}).items() if k not in ("jobs",)}) for r in d["results"] for it in r["iterations"]]'
# (whether a client starts late depends on the machine: the shape, and a
# warning for each client named)
OVERLAP_OK='all(0 < it["fio"]["overlap"]["common_s"] <= it["fio"]["overlap"]["longest_s"] and all(0 <= c["start_s"] < c["end_s"] and (c["late"] or c["early"]) == (c["client"] in it["fio"]["overlap"]["late"] + it["fio"]["overlap"]["early"]) for c in it["clients"]) and all(any(n in w for w in r["warnings"]) for n in it["fio"]["overlap"]["late"] + it["fio"]["overlap"]["early"]) for r in d["results"] for it in r["iterations"])'

t_case "--clients two-servers on nfs://: one export from two fio servers, no mount"
run "$NB" run --engine fio --clients "$T/two-servers" --target nas="$NFS" -w seq512k-write,rand4k-read $SMALL -i 1 -o "$T/c-nfs.json" -q
assert_rc 0
for e in "$CLIENTS_OK" "$SUM_OK" "$OVERLAP_OK"; do assert_json "$T/c-nfs.json" "$e" "$SHOW"; done
assert_json "$T/c-nfs.json" '[c["client"] for c in d["results"][0]["iterations"][0]["clients"]] == ["127.0.0.2:'"$P"'", "127.0.0.3:'"$P"'"]'
assert_json "$T/c-nfs.json" 'any(w.startswith("not durable:") for w in d["results"][0]["warnings"]) and d["results"][0]["iterations"][0]["fio"]["durable"] is False'
grep -qx "ioengine=nfs" <<<"$(job "$T/c-nfs.json" rand4k-read)" || t_fail "not the nfs engine"

t_case "--clients two-servers on iscsi://: one LUN from two fio servers, own initiator names"
run "$NB" run --engine fio --clients "$T/two-servers" --target lun="$LUN" --destroy-data -w seq512k-write,rand4k-read $SMALL -i 1 -o "$T/c-iscsi.json" -q
assert_rc 0
for e in "$CLIENTS_OK" "$SUM_OK" "$OVERLAP_OK"; do assert_json "$T/c-iscsi.json" "$e" "$SHOW"; done
assert_json "$T/c-iscsi.json" '[j["job"].count("initiator=iqn.2026-11.org.nasbench:fio-c%d\n" % (i + 1)) for i, j in enumerate(d["results"][1]["iterations"][0]["fio"]["jobs"])] == [1, 1]'

t_case "--clients: a server whose fio lacks the engine is named with its complaint (exit 3)"
DP=$(free_port)
setsid fio --server=ip:127.0.0.4,"$DP" >/dev/null 2>&1 &   # Debian's fio
SERVERS+=($!); disown $!
for _ in $(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.4',$DP),0.2)" 2>/dev/null && break; sleep 0.1; done
printf '127.0.0.4:%s\n' "$DP" >"$T/plain-server"
run "$NB" run --engine fio --clients "$T/plain-server" --target nas="$NFS" -w rand4k-read $SMALL -i 1 -o "$T/plain.json" -q
assert_rc 3
assert_err "fio clients: no client ran its job: <" "> fio: engine nfs not loadable"

t_done
