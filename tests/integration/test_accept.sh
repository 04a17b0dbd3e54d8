#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Acceptance: criteria, verdicts, JUnit, integrity, durability, conformance.
. "$(dirname "$0")/lib.sh"

D=$T/box            # a local directory target
mkdir -p "$D"

# junit_failure FILE CASE MESSAGE: in the JUnit FILE, the test case CASE of
# the suite nasbench.accept fails with MESSAGE
junit_failure() {
	python3 - "$@" <<'PY' || t_fail "JUnit $1 lacks the failure of '$2' with '$3'"
import sys, xml.etree.ElementTree as E
s = E.parse(sys.argv[1]).getroot().find("testsuite[@name='nasbench.accept']")
m = [t for t in s.findall("testcase") if t.get("name") == sys.argv[2]][0].find("failure").get("message")
assert m == sys.argv[3], m
PY
}

# ---------------------------------------------------------------- criteria
cat >"$T/meets.ini" <<EOF
[box]
name = testbox-local

[target local]
url = $D

[suite]
workloads = seq512k-write, rand4k-read, integrity
; 128 writes of 512 KiB: the 100 I/Os a figure needs (core/samples.h)
size = 64M
iterations = 2

[accept]
seq512k-write@local mb_s >= 1          ; any disk does 1 MB/s
rand4k-read@local   p99_us <= 2s
rand4k-read@local   iops > 10
integrity@local     corrupt_blocks = 0
integrity@local     stale_blocks:worst <= 0
EOF

t_case "criteria the box meets: exit 0, verdict pass in JSON and JUnit"
run "$NB" run "$T/meets.ini" -o "$T/meets.json" --junit "$T/meets.xml"
assert_rc 0
assert_out "acceptance: PASS (5 passed, 0 failed)"
assert_json "$T/meets.json" 'd["accept"]["verdict"] == "pass" and len(d["accept"]["criteria"]) == 5'
assert_json "$T/meets.json" 'all(c["verdict"] == "pass" for c in d["accept"]["criteria"])'
assert_json "$T/meets.json" '[c["statistic"] for c in d["accept"]["criteria"]] == ["median", "median", "median", "worst", "worst"]'
assert_json "$T/meets.json" '1 <= d["accept"]["criteria"][0]["measured"] < 100000 and d["accept"]["criteria"][0]["unit"] == "MB/s"'
assert_json "$T/meets.json" 'd["accept"]["criteria"][1]["required"] == 2000000'
assert_file "$T/meets.xml"
python3 - "$T/meets.xml" <<'PY' || t_fail "JUnit of a passing run is wrong"
import sys, xml.etree.ElementTree as E
s = E.parse(sys.argv[1]).getroot().find("testsuite[@name='nasbench.accept']")
assert s.get("tests") == "5" and s.get("failures") == "0", s.attrib
assert len(s.findall("testcase")) == 5 and not s.findall(".//failure")
PY
assert_clean "$D"

cat >"$T/cannot.ini" <<EOF
[target local]
url = $D

[suite]
workloads = seq512k-write
size = 64M
iterations = 1

[accept]
seq512k-write@local mb_s >= 1
seq512k-write@local mb_s >= 1000000
rand4k-read@local iops >= 1
EOF

t_case "a criterion the box cannot meet: exit 1, both numbers in the JUnit"
run "$NB" run "$T/cannot.ini" -o "$T/cannot.json" --junit "$T/cannot.xml"
assert_rc 1
assert_out "acceptance: FAIL (1 passed, 2 failed)"
assert_out "  FAIL  seq512k-write@local mb_s >= 1000000"
assert_out "'rand4k-read' did not run on 'local' (not in the plan)"
assert_json "$T/cannot.json" 'd["accept"]["criteria"][1]["verdict"] == "fail" and d["accept"]["criteria"][1]["required"] == 1000000'
assert_json "$T/cannot.json" 'd["accept"]["criteria"][2]["measured"] is None and d["accept"]["criteria"][2]["verdict"] == "fail"'
python3 - "$T/cannot.xml" "$T/cannot.json" <<'PY' || t_fail "JUnit lacks the failing criterion with both numbers"
import sys, json, xml.etree.ElementTree as E
d = json.load(open(sys.argv[2]))
got = d["accept"]["criteria"][1]["measured"]
s = E.parse(sys.argv[1]).getroot().find("testsuite[@name='nasbench.accept']")
assert s.get("tests") == "3" and s.get("failures") == "2", s.attrib
f = s.find("testcase[@name='seq512k-write@local mb_s >= 1000000']/failure")
m = f.get("message")
shown = "%.0f" % got if abs(got) >= 1000 else "%.4g" % got
assert m == "measured %s MB/s (median), required >= 1000000 MB/s" % shown, m
assert "cannot.ini:11" in f.text, f.text
PY

t_case "--accept FILE replaces the [accept] section"
printf '# floor only\n[accept]\nseq512k-write@local mb_s >= 1MB/s\n' >"$T/floor.accept"
run "$NB" run "$T/cannot.ini" -o "$T/floor.json" --accept "$T/floor.accept"
assert_rc 0
assert_json "$T/floor.json" 'len(d["accept"]["criteria"]) == 1 and d["accept"]["criteria"][0]["where"].endswith("floor.accept:3")'

# ---------------------------------------------------------- bad criteria
bad() { # bad NAME LINE EXPECTED-MESSAGE
	t_case "bad criterion: $1"
	printf 'seq512k-write@local mb_s >= 1\n%s\n' "$2" >"$T/bad.accept"
	run "$NB" run -t "local=$D" -w seq512k-write --size 1M -i 1 --accept "$T/bad.accept" -o "$T/bad.json"
	assert_rc 2
	assert_err "nasbench: $T/bad.accept:2: $3"
	assert_no_file "$T/bad.json"
}
bad "unknown metric" "seq512k-write@local mbs >= 80" "unknown metric 'mbs'; did you mean 'mb_s'?"
bad "unknown workload" "seq512k-wirte@local mb_s >= 80" "unknown workload 'seq512k-wirte'; did you mean 'seq512k-write'?"
bad "unknown target" "seq512k-write@nas mb_s >= 80" "unknown target 'nas' (targets: local)"
bad "operator" "seq512k-write@local mb_s => 80" "unknown operator '=>' (one of >= <= > < = !=)"
bad "wrong unit" "seq512k-write@local mb_s >= 5ms" "'5ms' is a time (e.g. 5ms), but 'mb_s' is a throughput (e.g. 80MB/s)"
bad "unknown unit" "rand4k-read@local p99_us <= 5parsecs" "unknown unit 'parsecs' in '5parsecs'"
bad "yes for a figure" "seq512k-write@local mb_s = yes" "'yes' is yes or no, but 'mb_s' is a throughput (e.g. 80MB/s)"
bad "missing value" "seq512k-write@local mb_s >=" "expected 'WORKLOAD@TARGET METRIC OP VALUE'"
bad "no target" "seq512k-write mb_s >= 1" "'seq512k-write' is not WORKLOAD@TARGET"
bad "statistic" "seq512k-write@local mb_s:typical >= 1" "unknown statistic 'typical'"

t_case "bad criterion in the box file names the box file's line"
printf '[target local]\nurl = %s\n\n[accept]\nrand4k-read@local p99_us <= 5GB/s\n' "$D" >"$T/badbox.ini"
run "$NB" run "$T/badbox.ini" -w rand4k-read --size 1M -o "$T/badbox.json"
assert_rc 2
assert_err "nasbench: $T/badbox.ini:5: '5GB/s' is a throughput (e.g. 80MB/s), but 'p99_us' is a time (e.g. 5ms)"

t_case "a figure without its samples is not accepted: unmeasured, exit 1"
# 1 MiB of 512 KiB writes: two I/Os, no mean (core/samples.h)
printf '[accept]\nseq512k-write@local mb_s >= 1\n' >"$T/thin.accept"
run "$NB" run -t "local=$D" -w seq512k-write --size 1M -i 1 --accept "$T/thin.accept" -o "$T/thin.json"
assert_rc 1
assert_out "local seq512k-write: unmeasured: iteration 1 timed 2 I/Os, fewer than the 100 a mean needs: its figures are shown, not measured (run longer: --runtime, --step-time)"
assert_json "$T/thin.json" 'd["results"][0]["status"] == "unmeasured" and d["accept"]["criteria"][0]["verdict"] == "fail" and d["accept"]["criteria"][0]["reason"] == "\x27seq512k-write\x27 on \x27local\x27 unmeasured: iteration 1 timed 2 I/Os, fewer than the 100 a mean needs: its figures are shown, not measured (run longer: --runtime, --step-time)"' 'd["accept"]'

t_case "a target that cannot be used: exit 3 wins, its criteria fail with the reason"
printf '[target gone]\nurl = %s/nonexistent/dir\n\n[target local]\nurl = %s\n\n[accept]\nseq512k-write@gone mb_s >= 1\nseq512k-write@local mb_s >= 1\n' "$T" "$D" >"$T/gone.ini"
run "$NB" run "$T/gone.ini" -w seq512k-write --size 64M -i 1 -o "$T/gone.json" --junit "$T/gone.xml"
assert_rc 3
assert_out "acceptance: FAIL (1 passed, 1 failed)"
assert_json "$T/gone.json" '"did not run: target " in d["accept"]["criteria"][0]["reason"] and "could not be used: " in d["accept"]["criteria"][0]["reason"]'
assert_out "did not run: target 'gone' could not be used: "
assert_file "$T/gone.xml"

t_case "missing criteria file"
run "$NB" run -t "$D" --accept "$T/nope.accept"
assert_rc 2
assert_err "cannot open criteria file '$T/nope.accept'"

# ---------------------------------------------------------------- integrity
# integrity_fault TARGET-ARGS FILE-LOCATOR: pause after each pass, save
# block 5 after pass 1, and after pass 2 put it back (a lost write), flip a
# byte of block 9 (corruption) and copy block 20 over block 30 (misplaced).
integrity_fault() {
	local locate=$1; shift
	local P f
	P=$(hook_dir)
	NASBENCH_TEST_PAUSE=$P "$NBT" run "$@" -w integrity --size 1M -i 1 \
		-o "$T/integ.json" --junit "$T/integ.xml" >"$T/integ.out" 2>"$T/integ.err" &
	local pid=$!
	hook_wait "$P" pass-1 || { t_fail "its stderr: $(cat "$T/integ.err")"; kill $pid; return; }
	f=$($locate "$P/pass-1.ready")
	[ -n "$f" ] && [ -e "$f" ] || { t_fail "cannot find the data on the box ($f)"; kill $pid; hook_go "$P" pass-1; hook_go "$P" pass-2; wait $pid; return; }
	dd if="$f" of="$T/block5.pass1" bs=4096 skip=5 count=1 status=none
	hook_go "$P" pass-1
	hook_wait "$P" pass-2 || { kill $pid; return; }
	cmp -s "$T/block5.pass1" <(dd if="$f" bs=4096 skip=5 count=1 status=none) &&
		t_fail "pass 2 did not rewrite block 5"
	dd if="$T/block5.pass1" of="$f" bs=4096 seek=5 count=1 conv=notrunc,fsync status=none
	# one byte of block 9 flipped (a constant could equal what is there)
	local b
	b=$(dd if="$f" bs=1 skip=$((9 * 4096 + 1000)) count=1 status=none | od -An -tu1 | tr -d ' ')
	printf "\\$(printf %03o $((b ^ 255)))" |
		dd of="$f" bs=1 seek=$((9 * 4096 + 1000)) conv=notrunc,fsync status=none
	dd if="$f" of="$f" bs=4096 skip=20 seek=30 count=1 conv=notrunc,fsync status=none
	hook_go "$P" pass-2
	wait $pid
	RC=$?
	ERR=$(cat "$T/integ.err")
	OUT=$(cat "$T/integ.out")
}
# locators: where the data file of the paused run lies on the box's storage
ready_val() { sed -n "s/^$2=//p" "$1"; }
local_file() { echo "$D/nasbench.$(ready_val "$1" run_id)/integrity"; }

t_case "integrity catches a corrupted, a reverted (lost) and a misplaced block on a file"
cat >"$T/integ.accept" <<'EOF'
integrity@local corrupt_blocks = 0
integrity@local misplaced_blocks = 0
integrity@local stale_blocks = 0
EOF
integrity_fault local_file -t "local=$D" --accept "$T/integ.accept"
assert_rc 1
assert_json "$T/integ.json" 'result(d, "integrity")["iterations"][0]["corrupt_offsets"] == [9 * 4096]'
assert_json "$T/integ.json" 'result(d, "integrity")["iterations"][0]["stale_offsets"] == [5 * 4096]'
assert_json "$T/integ.json" 'result(d, "integrity")["iterations"][0]["misplaced_offsets"] == [30 * 4096]'
assert_json "$T/integ.json" 'result(d, "integrity")["iterations"][0]["metrics"]["blocks_checked"] == 256'
assert_json "$T/integ.json" '[b for b in result(d, "integrity")["iterations"][0]["bad_blocks"] if b["state"] == "misplaced"][0]["claims_offset"] == 20 * 4096'
assert_json "$T/integ.json" '[b for b in result(d, "integrity")["iterations"][0]["bad_blocks"] if b["state"] == "stale"][0]["seq"] == 1'
assert_json "$T/integ.json" '[c["measured"] for c in d["accept"]["criteria"]] == [1, 1, 1]'
assert_out "warning: iteration 1: 1 corrupt, 1 misplaced, 1 stale of 256 blocks (first at offset 20480)"
assert_clean "$D"

t_case "integrity on an undamaged file finds nothing"
run "$NB" run -t "local=$D" -w integrity --size 2M -i 2 --accept "$T/integ.accept" -o "$T/clean.json"
assert_rc 0
assert_json "$T/clean.json" 'result(d, "integrity")["summary"]["blocks_checked"]["median"] == 512'

# ---------------------------------------------------------------- suite accept
# syncprobe is part of suite accept once the seed area's workload is there
HAS_SYNCPROBE=1

t_case "suite accept implies integrity (and durability) criteria on a local directory"
# this machine's disk commits an fdatasync in ~130 us: less than stable
# media without power-loss protection takes (200 us, docs/seed.md), so
# syncprobe would say "not proven durable" here and durable on a real disk;
# declaring plp = yes makes the criteria's outcome the machine's no more
run "$NB" run -s accept -t "local=$D" --size 2M -i 1 --runtime 6s -l plp=yes -o "$T/suite.json"
assert_rc 0
assert_out "acceptance: PASS ($((3 + HAS_SYNCPROBE)) passed, 0 failed)"
assert_json "$T/suite.json" '[c["criterion"] for c in d["accept"]["criteria"]] == ["integrity@local corrupt_blocks = 0", "integrity@local misplaced_blocks = 0", "integrity@local stale_blocks = 0"] + (["syncprobe@local durable = yes"] if any(r["workload"] == "syncprobe" for r in d["results"]) else [])'
assert_json "$T/suite.json" 'all(c["implied"] and c["where"] == "suite accept" for c in d["accept"]["criteria"])'
assert_json "$T/suite.json" '[r["status"] for r in d["results"] if r["workload"] == "conform"] == ["skipped"]'
assert_json "$T/suite.json" 'len([r for r in d["results"] if r["workload"] == "syncprobe"]) == '$HAS_SYNCPROBE

t_case "suite accept adds the workloads the criteria name"
printf 'rand4k-read@local iops >= 1\n' >"$T/extra.accept"
# the implied durable = yes needs syncprobe's 64 sync writes: an fsync of this
# shared disk took ~40 ms under load (49 in a 2 s probe, inconclusive); 6 s
run "$NB" run -s accept -t "local=$D" --size 2M -i 1 --runtime 6s -l plp=yes --accept "$T/extra.accept" -o "$T/suite2.json"
assert_rc 0
assert_json "$T/suite2.json" '[r["workload"] for r in d["results"]][-1] == "rand4k-read" and d["accept"]["criteria"][0]["criterion"] == "rand4k-read@local iops >= 1" and d["accept"]["criteria"][0]["verdict"] == "pass"'

# ---------------------------------------------------------------- NFS
if [ -z "${NASBENCH_NFS_URL:-}" ]; then
	missing "NFS cases: NASBENCH_NFS_URL is unset (start the testbox: ci/testbox up)"
else
	NFS_DIR=${NASBENCH_NFS_URL#nfs://*/}; NFS_DIR=/${NFS_DIR%%\?*}

	t_case "NFS conformance: six named datastore checks pass on ganesha, in the verdict and JUnit"
	printf 'conform@nfs conform_failed = 0\nconform@nfs conform_passed >= 6\n' >"$T/nfs.accept"
	run "$NB" run -t "nfs=$NASBENCH_NFS_URL" -w conform -i 1 --accept "$T/nfs.accept" -o "$T/nfs.json" --junit "$T/nfs.xml"
	assert_rc 0
	assert_json "$T/nfs.json" '[t["name"] for t in result(d, "conform")["iterations"][0]["conformance"]["tests"]] == ["nfs.create-visible", "nfs.readdir-lists", "nfs.rename-replaces", "nfs.unlink-removes", "nfs.file-sync-read", "nfs.size-mtime"]'
	assert_json "$T/nfs.json" 'all(t["status"] == "pass" for t in result(d, "conform")["iterations"][0]["conformance"]["tests"])'
	python3 - "$T/nfs.xml" <<'PY' || t_fail "JUnit lacks the NFS checks"
import sys, xml.etree.ElementTree as E
s = E.parse(sys.argv[1]).getroot().find("testsuite[@name='conform.nfs']")
assert s.get("tests") == "6" and s.get("failures") == "0", s.attrib
assert [c.get("name") for c in s.findall("testcase")][0] == "nfs.create-visible"
PY
	rid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$T/nfs.json")
	[ -d "$NFS_DIR" ] && [ -n "$(ls -d "$NFS_DIR"/nasbench."$rid"* 2>/dev/null)" ] && t_fail "scratch left on the export: $(ls -d "$NFS_DIR"/nasbench."$rid"*)"

	nfs_file() { echo "$NFS_DIR/nasbench.$(ready_val "$1" run_id)/integrity"; }
	t_case "integrity over NFS catches a corrupted, a reverted and a misplaced block"
	sed 's/@local/@nfs/' "$T/integ.accept" >"$T/integ-nfs.accept"
	if [ -d "$NFS_DIR" ]; then
		integrity_fault nfs_file -t "nfs=$NASBENCH_NFS_URL" --accept "$T/integ-nfs.accept"
		assert_rc 1
		assert_json "$T/integ.json" 'result(d, "integrity")["iterations"][0]["corrupt_offsets"] == [9 * 4096] and result(d, "integrity")["iterations"][0]["stale_offsets"] == [5 * 4096] and result(d, "integrity")["iterations"][0]["misplaced_offsets"] == [30 * 4096]'
		junit_failure "$T/integ.xml" "integrity@nfs stale_blocks = 0" "measured 1 blocks (worst), required = 0 blocks"
	else
		missing "the NFS integrity fault: the export '$NFS_DIR' is not on this machine"
	fi
fi

# ---------------------------------------------------------------- iSCSI
# A private tgtd with its own 64 MiB LUN file: iscsi-test-cu writes all over
# its LUN and the fault test edits the LUN file, which must not disturb the
# shared testbox's LUNs other tests use at the same time.

if ! command -v tgtd >/dev/null; then
	missing "iSCSI cases: no tgtd (ci/install-deps installs tgt)"
elif ! tgt_up; then
	t_case "private tgtd"; t_fail "cannot start tgtd: $(cat "$T/tgtd.log")"
else
	LUN=$TGT_URL

	t_case "iscsi-test-cu subset runs against tgtd; its results are in the verdict and JUnit"
	printf 'conform@lun conform_failed = 0\nconform@lun conform_passed >= 50\n' >"$T/lun.accept"
	run "$NB" run -t "lun=$LUN" -w conform --destroy-data -i 1 --accept "$T/lun.accept" -o "$T/lun.json" --junit "$T/lun.xml"
	assert_rc 0
	assert_json "$T/lun.json" 'd["accept"]["verdict"] == "pass" and d["accept"]["criteria"][1]["measured"] >= 50'
	assert_json "$T/lun.json" '{t["name"] for t in result(d, "conform")["iterations"][0]["conformance"]["tests"]} >= {"SCSI.Inquiry.Standard", "SCSI.Read10.Simple", "SCSI.Write16.Simple", "SCSI.WriteSame16.Simple", "SCSI.Unmap.Simple", "SCSI.Verify10.Simple"}'
	assert_json "$T/lun.json" 'not any(t["name"].startswith(("SCSI.Prout", "SCSI.Sanitize", "SCSI.Reserve")) for t in result(d, "conform")["iterations"][0]["conformance"]["tests"])'
	python3 - "$T/lun.xml" "$T/lun.json" <<'PY' || t_fail "JUnit lacks the iscsi-test-cu tests"
import sys, json, xml.etree.ElementTree as E
from results import result
d = json.load(open(sys.argv[2]))
n = len(result(d, "conform")["iterations"][0]["conformance"]["tests"])
s = E.parse(sys.argv[1]).getroot().find("testsuite[@name='conform.lun']")
assert int(s.get("tests")) == n and len(s.findall("testcase")) == n, (s.attrib, n)
assert s.find("testcase[@name='SCSI.Inquiry.Standard']").get("classname") == "iscsi-test-cu"
PY

	t_case "iscsi-test-cu needs destroy-data"
	run "$NB" run -t "lun=$LUN" -w conform -i 1 -o "$T/lun2.json"
	assert_rc 2
	assert_err "nasbench: target 'lun': the iSCSI conformance tests write anywhere on the LUN: say destroy-data = yes (or --destroy-data) to run them"

	t_case "iscsi-test-cu missing: exit 3, the criterion fails"
	NASBENCH_ISCSI_TEST_CU=/nonexistent/iscsi-test-cu run "$NB" run -t "lun=$LUN" -w conform --destroy-data -i 1 --accept "$T/lun.accept" -o "$T/lun3.json"
	assert_rc 3
	assert_err "nasbench: target 'lun': cannot run '/nonexistent/iscsi-test-cu': not found (install Debian's libiscsi-bin)"
	assert_json "$T/lun3.json" 'd["accept"]["verdict"] == "fail" and d["accept"]["criteria"][0]["measured"] is None'

	t_case "iscsi-test-cu crashing: exit 3"
	printf '#!/bin/sh\nkill -SEGV $$\n' >"$T/crash-cu"; chmod +x "$T/crash-cu"
	NASBENCH_ISCSI_TEST_CU=$T/crash-cu run "$NB" run -t "lun=$LUN" -w conform --destroy-data -i 1 -o "$T/lun4.json"
	assert_rc 3
	assert_err "nasbench: target 'lun': iscsi-test-cu crashed (signal 11, Segmentation fault)"

	lun_file() { echo "$T/private.img"; }
	t_case "integrity on a LUN catches a corrupted, a reverted and a misplaced block"
	sed 's/@local/@lun/' "$T/integ.accept" >"$T/integ-lun.accept"
	integrity_fault lun_file -t "lun=$LUN" --destroy-data --accept "$T/integ-lun.accept"
	assert_rc 1
	assert_json "$T/integ.json" 'result(d, "integrity")["iterations"][0]["corrupt_offsets"] == [9 * 4096] and result(d, "integrity")["iterations"][0]["stale_offsets"] == [5 * 4096] and result(d, "integrity")["iterations"][0]["misplaced_offsets"] == [30 * 4096]'
	t_case "a read-only LUN fails iscsi-test-cu's write tests: in the verdict (exit 1) and the JUnit"
	tgtadm -C $TGT_C --lld iscsi --op update --mode logicalunit --tid 1 --lun 1 --params readonly=1
	run "$NB" run -t "lun=$LUN" -w conform --destroy-data -i 1 --accept "$T/lun.accept" -o "$T/ro.json" --junit "$T/ro.xml"
	assert_rc 1
	assert_out "  FAIL  conform@lun conform_failed = 0"
	assert_json "$T/ro.json" '{t["name"]: t["status"] for t in result(d, "conform")["iterations"][0]["conformance"]["tests"]}["SCSI.Write10.Simple"] == "fail"'
	assert_json "$T/ro.json" '{t["name"]: t["status"] for t in result(d, "conform")["iterations"][0]["conformance"]["tests"]}["SCSI.Read10.Simple"] == "pass"'
	assert_json "$T/ro.json" 'd["accept"]["criteria"][0]["measured"] == sum(t["status"] == "fail" for t in result(d, "conform")["iterations"][0]["conformance"]["tests"]) > 0'
	python3 - "$T/ro.xml" <<'PY' || t_fail "JUnit lacks the failing iscsi-test-cu test"
import sys, xml.etree.ElementTree as E
s = E.parse(sys.argv[1]).getroot().find("testsuite[@name='conform.lun']")
f = s.find("testcase[@name='SCSI.Write10.Simple']/failure")
assert f is not None and "test_write10_simple.c:" in f.get("message"), f
assert int(s.get("failures")) > 0
PY
	tgt_down
fi

# ---------------------------------------------------------------- durability
if [ -z "${NASBENCH_NFS_TMPFS_URL:-}" ] || [ -z "${NASBENCH_ISCSI_SYNC_URL:-}" ]; then
	missing "durability cases: NASBENCH_NFS_TMPFS_URL or NASBENCH_ISCSI_SYNC_URL is unset (ci/testbox up)"
else
	t_case "the tmpfs-backed export fails durable = yes; the disk-backed sync LUN too: timing alone proves nothing"
	printf 'syncprobe@tmpfs durable = yes\nsyncprobe@synclun durable = yes\n' >"$T/durable.accept"
	durable() { run "$NB" run -t "tmpfs=$NASBENCH_NFS_TMPFS_URL" -t "synclun=$NASBENCH_ISCSI_SYNC_URL" -w syncprobe -i 1 --accept "$T/durable.accept" -o "$T/durable.json" --junit "$T/durable.xml"; }
	durable
	assert_rc 1
	assert_json "$T/durable.json" '[(c["target"], c["measured"], c["verdict"]) for c in d["accept"]["criteria"]][0] == ("tmpfs", "no", "fail")'
	# this machine's disk commits in 120 us to 2 ms: consistent with
	# durable media from 200 us, never durable from timing alone (issue 46)
	assert_json "$T/durable.json" '[(c["target"], c["measured"], c["verdict"]) for c in d["accept"]["criteria"]][1] == ("synclun", "no", "fail")' 'd["accept"]'
	junit_failure "$T/durable.xml" "syncprobe@tmpfs durable = yes" "measured no (worst), required = yes"
fi

t_done
