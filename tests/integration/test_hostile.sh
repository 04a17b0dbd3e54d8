#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile text (docs/security.md, issue 45): a result file is data, and
# text reaches each sink only through that sink's escaper (core/escape.h).
# The cases the issue found, each exact: chart titles that ran commands in
# gnuplot, a label that is not UTF-8 that threw a run away with exit 0,
# terminal escapes printed raw by compare, CSV cells a spreadsheet runs,
# an empty label key promtool refused.  Then the hostile-result corpus
# (hostile.py): every reader of results on every hostile string, and the
# documents that are not results; its counts per sink are printed.
. "$(dirname "$0")/lib.sh"

command -v promtool >/dev/null || { missing "no promtool (Debian package prometheus: make deps)"; t_done; exit; }
command -v gnuplot >/dev/null || { missing "no gnuplot (make deps)"; t_done; exit; }
CANARY=$T/canary
mkdir -p "$CANARY" "$T/box-a" "$T/box-b" "$T/cwd"
# one_run OUT LABEL...: two workloads on a local directory, 2 iterations
one_run() {
	local out=$1 dir=$2
	shift 2
	"$NB" run -t "local=$dir" -w seq512k-write,rand4k-read --runtime 0.2s \
		--size 8M -i 2 -q "$@" -o "$out" >/dev/null 2>"$T/run.err" ||
		t_fail "run $* failed: $(cat "$T/run.err")"
}
# nothing anywhere but where it was asked for
no_canary() {
	local made
	made=$(find "$CANARY" "$T/cwd" -mindepth 1)
	[ -z "$made" ] || t_fail "files created: $made"
}

t_case "a label with backticks runs nothing when its report draws charts"
one_run "$T/a.json" "$T/box-a" -l "cfg=a\`touch $CANARY/PWNED_A\`"
one_run "$T/b.json" "$T/box-b" -l "cfg=b\$(touch $CANARY/PWNED_B)"
(cd "$T/cwd" && "$NB" report "$T/a.json" "$T/b.json" -o "$T/rep" >"$T/rep.out" 2>&1) ||
	t_fail "report failed: $(cat "$T/rep.out")"
no_canary
[ -z "$(find "$T/rep" -name 'PWNED*')" ] || t_fail "files created in the report: $(ls "$T/rep")"
ls "$T/rep"/*.svg >/dev/null 2>&1 || t_fail "no chart drawn: $(cat "$T/rep.out")"
grep -qF "title 'cfg=a\`touch $CANARY/PWNED_A\`'" "$T/rep/bars_iops.gp" ||
	t_fail "the series is not a single-quoted string: $(grep plot "$T/rep/bars_iops.gp")"
grep -qF "cfg=a\`touch $CANARY/PWNED_A\`" "$T/rep/bars_iops.svg" ||
	t_fail "the chart does not show the label as it is"

t_case "a label that is not UTF-8 is refused before anything runs (exit 2)"
run "$NB" run -t "local=$T/box-a" -w seq512k-write --size 8M -i 1 -l $'note=caf\xe9' -o "$T/c.json"
assert_rc 2
[ "$ERR" = "nasbench: --label 'note': not UTF-8 text (byte 0xe9 at byte 4)" ] ||
	t_fail "stderr: $ERR"
[ -z "$OUT" ] || t_fail "something ran: $OUT"
assert_no_file "$T/c.json"
run "$NB" run -t "local=$T/box-a" -w seq512k-write --size 8M -i 1 -l $'note=a\e[2Jb' -o "$T/c.json"
assert_rc 2
[ "$ERR" = "nasbench: --label 'note': a control character (0x1b at byte 2)" ] ||
	t_fail "stderr: $ERR"
assert_no_file "$T/c.json"

t_case "a target path that is not UTF-8 is refused before anything runs (exit 2)"
mkdir -p "$T/"$'t\xe9'
run "$NB" run -t "$T/"$'t\xe9' -w seq512k-write --size 8M -i 1 -o "$T/c.json"
assert_rc 2
[ "$ERR" = "nasbench: --target: not UTF-8 text (byte 0xe9 at byte $((${#T} + 3)))" ] ||
	t_fail "stderr: $ERR"
[ -z "$(ls -A "$T/"$'t\xe9')" ] || t_fail "the target was written to"
assert_no_file "$T/c.json"

t_case "a box file's value or section that is not UTF-8: refused at its line (exit 2)"
printf '[box]\nlayout = raidz1\nnotes = caf\xe9\n[target nas]\nurl = %s\n' "$T/box-a" >"$T/box.ini"
run "$NB" run "$T/box.ini" -w seq512k-write --size 8M -i 1 -o "$T/c.json"
assert_rc 2
[ "$ERR" = "nasbench: $T/box.ini:3: 'notes' in [box]: not UTF-8 text (byte 0xe9 at byte 4)" ] ||
	t_fail "stderr: $ERR"
printf '[box]\nlayout = raidz1\n[target n\xe9s]\nurl = %s\n' "$T/box-a" >"$T/box.ini"
run "$NB" run "$T/box.ini" -w seq512k-write --size 8M -i 1 -o "$T/c.json"
assert_rc 2
[ "$ERR" = "nasbench: $T/box.ini:3: not UTF-8 text (byte 0xe9 at byte 10)" ] ||
	t_fail "stderr: $ERR"
assert_no_file "$T/c.json"

t_case "an output path that is not UTF-8: the result is written, the command carried"
run "$NB" run -t "local=$T/box-a" -w seq512k-write --runtime 0.2s --size 8M -i 1 -q \
	-o "$T/r"$'\xe9'".json"
assert_rc 0
assert_file "$T/r"$'\xe9'".json"
python3 - "$T" <<'PY' || t_fail "the command is not carried escaped"
import json, os, sys
d = json.load(open(os.fsencode(sys.argv[1]) + b"/r\xe9.json"))
assert d["command"].endswith("/r\\xe9.json"), d["command"]
PY

# a result made hostile in one place by Python: hostile DOC KEY STRING OUT
hostile() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["labels"] = {sys.argv[2]: sys.argv[3]}
json.dump(d, open(sys.argv[4], "w"), ensure_ascii=False)
PY
}

t_case "compare shows a label's terminal escapes, never sends them"
hostile "$T/a.json" cfg $'a\e[2J\e]0;owned\a' "$T/ha.json"
hostile "$T/b.json" cfg $'b\e[31m\xc2\x9b' "$T/hb.json"
run "$NB" compare "$T/ha.json" "$T/hb.json" -r off
assert_rc 0
assert_out '  cfg: a\x1b[2J\x1b]0;owned\x07 -> b\x1b[31m\u009b'
! grep -q $'\e' "$T/.out" || t_fail "an escape sequence reached the terminal"
run "$NB" compare "$T/ha.json" "$T/hb.json" --color always
! grep -q $'\e\[2J' "$T/.out" || t_fail "the result's sequence passed with the colours"
grep -q $'\e\[' "$T/.out" || t_fail "--color always wrote no colour"

t_case "export --csv: a label a spreadsheet would run is text"
hostile "$T/a.json" cfg '=HYPERLINK("http://x","y")' "$T/ha.json"
hostile "$T/b.json" cfg '@SUM(1+1)' "$T/hb.json"
run "$NB" export --csv "$T/ha.json" "$T/hb.json"
assert_rc 0
assert_out "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"" "\"'@SUM(1+1)\""
python3 - "$T/.out" <<'PY' || t_fail "a cell starts a formula"
import csv, re, sys
for row in csv.reader(open(sys.argv[1], newline="")):
    for c in row:
        assert not (c[:1] in ("=", "+", "-", "@", "\t", "\r") and
                    not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", c)), c
PY

t_case "export --openmetrics: an empty label key passes promtool"
hostile "$T/a.json" "" 'v"\x' "$T/ha.json"
run "$NB" export --openmetrics "$T/ha.json"
assert_rc 0
assert_out_re '^nasbench_iterations\{target="local",workload="seq512k-write",_="v\\"\\\\x"\} 2$'
printf '%s\n' "$OUT" | promtool check metrics >"$T/promtool.out" 2>&1 ||
	t_fail "promtool: $(cat "$T/promtool.out")"
no_canary

t_case "the hostile-result corpus: every reader, every sink (counts below)"
python3 "$ROOT/tests/integration/hostile.py" "$NB" "$T/a.json" "$T/b.json" "$T/corpus" \
	>"$T/corpus.out" 2>"$T/corpus.err" ||
	t_fail "$(tail -n 30 "$T/corpus.err")"
cat "$T/corpus.out"
no_canary
t_done
