#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nasbench in a shell user's hands: versions, did-you-mean, the man page,
# completion, machine-readable output, progress, install.
. "$(dirname "$0")/lib.sh"

D=$T/dir
mkdir -p "$D"

t_case "--version, -V and version: the release and the commit, and the libraries"
REL=$(cat "$ROOT/VERSION")
# the commit the binary was built from: a commit of this repository
GIT=$("$NB" version | sed -n '1s/^nasbench [^ ]* (git \([0-9a-f]\{7\}\))$/\1/p')
git -C "$ROOT" cat-file -e "$GIT^{commit}" 2>/dev/null || t_fail "no commit '$GIT' in $ROOT: $("$NB" version | head -1)"
for v in --version -V version; do
	run "$NB" $v
	assert_rc 0
	[ "$(head -1 <<<"$OUT")" = "nasbench $REL (git $GIT)" ] || t_fail "$v: $(head -1 <<<"$OUT")"
	assert_out "  libnfs    4.0.0"
	assert_out "  jansson   "
done
run "$NB" version --json
assert_rc 0
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["nasbench"] == sys.argv[2] and d["git"] == sys.argv[3] and d["libs"]["libiscsi"]' "$OUT" "$REL" "$GIT" ||
	t_fail "version --json: $OUT"
[[ $REL =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || t_fail "VERSION is not semantic: $REL"

t_case "the version and commit in every result"
run "$NB" run -q -t "$D" -w seq512k-write --size 1M --runtime 200ms -i 1 -o "$T/v.json"
assert_rc 0
assert_json "$T/v.json" "d['version'] == '$REL' and d['git'] == '$GIT'"

t_case "did you mean: commands, options of every command, hw's commands"
check() { # EXPECTED-STDERR ARGS...
	local want=$1; shift
	run "$NB" "$@"
	assert_rc 2
	[ "$ERR" = "$want" ] || t_fail "nasbench $*: '$ERR', expected '$want'"
}
check "nasbench: 'rnu' is not a nasbench command; did you mean 'run'?" rnu
check "nasbench: unknown option '--versoin'; did you mean '--version'?" --versoin
check "nasbench: unknown option '--taget'; did you mean '--target'?" run --taget "$D"
check "nasbench: unknown option '--taget'; did you mean '--target'?" run --taget="$D"
check "nasbench: unknown option '--bogus' (see 'nasbench help run')" run --bogus
check "nasbench: unknown option '--formt'; did you mean '--format'?" compare --formt json a b
check "nasbench: unknown option '--max-regrss'; did you mean '--max-regress'?" compare --max-regrss=5 a b
check "nasbench: unknown option '--bogus' (see 'nasbench help compare')" compare --bogus a b
check "nasbench: unknown option '--outptu'; did you mean '--output'?" report --outptu "$T/rep" a.json
check "nasbench: unknown option '--gnuplt'; did you mean '--gnuplot'?" report --gnuplt x -o "$T/rep" a.json
check "nasbench: unknown option '--jsno'; did you mean '--json'?" hw --jsno
check "nasbench: unknown option '--dsks'; did you mean '--disks'?" hw plan --dsks 5x3TB
check "nasbench: 'plna' is not an hw command; did you mean 'plan'?" hw plna --disks 5x3TB
check "nasbench: 'zzzz' is not an hw command; see 'nasbench help hw'" hw zzzz
check "nasbench: unknown option '--lable'; did you mean '--label'?" import --lable a=b -o "$T/i.json" x
check "nasbench: unknown option '--jsn'; did you mean '--json'?" version --jsn
check "nasbench: unknown option '--lable'; did you mean '--label'?" history list --lable a=b
check "nasbench: --format: 'jsno' is not one of text|markdown|json|junit|openmetrics; did you mean 'json'?" compare -f jsno a b
check "nasbench: --color: 'alway' is not one of auto|always|never; did you mean 'always'?" compare --color alway a b
check "nasbench: --format: 'mardown' is not one of html|markdown|pr; did you mean 'markdown'?" report --format mardown a.json

t_case "did you mean: suites, workloads, layouts, choices"
check "nasbench: unknown suite 'quik'; did you mean 'quick'?" run -n -t "$D" --suite quik
check "nasbench: unknown workload 'seq51k-read'; did you mean 'seq512k-read'?" run -n -t "$D" -w seq51k-read
check "nasbench: unknown workload 'zzzzzz' (see 'nasbench list workloads')" run -n -t "$D" -w zzzzzz
check "nasbench: --label: 'raidz9' is not one of raidz1|raidz2|raidz3|mirror|raid10|raid5|raid6|raid1|raid0|stripe|single; did you mean 'raidz1'?" run -n -t "$D" -l layout=raidz9
check "nasbench: --sync: 'alway' is not one of none|end|always; did you mean 'always'?" run -n -t "$D" --sync alway
printf '[box]\nlayout = miror\n[target a]\nurl = %s\n' "$D" >"$T/box.ini"
check "nasbench: $T/box.ini:2: 'layout' in [box]: 'miror' is not one of raidz1|raidz2|raidz3|mirror|raid10|raid5|raid6|raid1|raid0|stripe|single; did you mean 'mirror'?" run -n "$T/box.ini"

t_case "machine-readable: list --json, run --dry-run --json (the plan: targets, workloads, bytes, time)"
run "$NB" list --json
assert_rc 0
printf '%s' "$OUT" >"$T/list.json"
assert_json "$T/list.json" 'sorted(d) == ["runners", "suites", "workloads"] and "seq512k-read" in [w["name"] for w in d["workloads"]]'
assert_json "$T/list.json" '[r["scheme"] for r in d["runners"]][:3] == ["file", "nfs", "iscsi"] or {"file", "nfs", "iscsi"} <= {r["scheme"] for r in d["runners"]}'
assert_json "$T/list.json" '[s for s in d["suites"] if s["name"] == "quick"][0]["workloads"][0] == {"name": "seq512k-write", "iterations": 3, "seconds": 6.0, "written_bytes": 600000000}'
run "$NB" list --json suites
assert_rc 0
printf '%s' "$OUT" >"$T/suites.json"
assert_json "$T/suites.json" 'list(d) == ["suites"]'
check "nasbench: list: expected workloads, suites or runners, not 'suits'; did you mean 'suites'?" list suits
run "$NB" run --dry-run --json -t "$D" -t "nfs://u:secret@127.0.0.1/export" --suite quick -o "$T/never.json"
assert_rc 0
printf '%s' "$OUT" >"$T/plan.json"
assert_no_file "$T/never.json"
[ -z "$ERR" ] || t_fail "dry-run --json wrote to stderr: $ERR"
assert_json "$T/plan.json" 'd["source"] == "suite \x27quick\x27" and d["suite"] == "quick" and d["iterations"] == 3 and d["size_bytes"] == 256 << 20'
assert_json "$T/plan.json" 'd["targets"] == [{"name": "local", "url": "'"$D"'", "scheme": "file"}, {"name": "nfs", "url": "nfs://u:***@127.0.0.1/export", "scheme": "nfs"}]'
assert_json "$T/plan.json" '[w["name"] for w in d["workloads"]] == ["seq512k-write", "seq512k-read", "rand4k-write", "rand4k-read"] and d["workloads"][0] == {"name": "seq512k-write", "iterations": 3, "space_bytes": 256 << 20, "written_bytes": 600000000, "seconds": 6.0}'
assert_json "$T/plan.json" 'd["per_target"] == {"space_bytes": 256 << 20, "written_bytes": 1200000000, "seconds": 24.0} and d["total"] == {"written_bytes": 2400000000, "seconds": 48.0}'
grep -q secret "$T/plan.json" && t_fail "the password is in the plan"
run "$NB" run -n --json -t "$D"
printf '%s' "$OUT" >"$T/plan2.json"
assert_json "$T/plan2.json" 'd["source"] == "the default workloads: no --suite or --workload given" and d["suite"] is None'

t_case "progress: --status-interval off a terminal, IOPS and p99 on the line, on stderr; --quiet silent"
run "$NB" run -t "$D" --status-interval 0.5 -w rand4k-read -i 1 --size 16M --runtime 2s -o "$T/p.json"
assert_rc 0
n=$(grep -cE '^rand4k-read on local \(1/1\) +[0-9.]+ MB/s +[0-9]+ IOPS  p99 +[0-9.]+ (us|ms) +[0-9]+%  ETA [0-9]+:[0-9]{2}$' <<<"$ERR")
[ "$n" -ge 2 ] || t_fail "expected progress lines every 0.5 s on stderr, got $n: $ERR"
grep -q "IOPS  p99" <<<"$OUT" && t_fail "progress on stdout: $OUT"
assert_out "result: $T/p.json"
run "$NB" run -t "$D" -q --status-interval 0.5 -w rand4k-read -i 1 --size 16M --runtime 1s -o "$T/q.json"
assert_rc 0
[ -z "$OUT$ERR" ] || t_fail "--quiet printed: $OUT$ERR"
check "nasbench: --status-interval: value '0' is too small: at least 0.1 s" run -n -t "$D" --status-interval 0
check "nasbench: --status-interval: invalid duration 'soon' (use e.g. 30s, 500ms, 2m, 1h)" run -n -t "$D" --status-interval soon
script -qec "$NB run -t $D --size 16M --runtime 1s -i 1 -w rand4k-read -o $T/tty.json" /dev/null >"$T/tty.out" 2>&1 ||
	t_fail "the run under script failed: $(cat "$T/tty.out")"
grep -qE $'\r''rand4k-read on local \(1/1\) +[0-9.]+ MB/s +[0-9]+ IOPS  p99 ' "$T/tty.out" ||
	t_fail "no live line with IOPS and p99 on a terminal: $(cat -v "$T/tty.out")"

t_case "an output that cannot be written is exit 3 in every command, named as the user gave it"
run "$NB" run -q -t "$D" -w seq512k-read --size 1M --runtime 200ms -i 1 -o "$T/r.json"
touch "$T/afile"
mkdir -p "$T/busy" && touch "$T/busy/mine"
check3() { # EXPECTED-STDERR ARGS...
	local want=$1; shift
	run "$NB" "$@"
	assert_rc 3
	[ "$ERR" = "$want" ] || t_fail "nasbench $*: '$ERR', expected '$want'"
}
check3 "nasbench: unable to write '$T/afile/c.txt': Not a directory" compare "$T/r.json" "$T/r.json" -o "$T/afile/c.txt"
check3 "nasbench: unable to write '$T/afile/i.json': Not a directory" import "$T/r.json" -o "$T/afile/i.json"
check3 "nasbench: unable to write '$T/afile/r.json': Not a directory" run -q -t "$D" -w seq512k-read --size 1M -i 1 -o "$T/afile/r.json"
check3 "nasbench: unable to write '$T/nodir/j.xml': No such file or directory" run -q -t "$D" -w seq512k-read --size 1M -i 1 --junit "$T/nodir/j.xml"
check3 "nasbench: unable to write '$T/afile/h.json': Not a directory" hw -o "$T/afile/h.json"
check3 "nasbench: cannot use '$T/afile/rep': Not a directory" report "$T/r.json" -o "$T/afile/rep"
check3 "nasbench: cannot create '/proc/nb-rep': No such file or directory" report "$T/r.json" -o /proc/nb-rep
# a directory of something else is refused, not overwritten: a usage error
check "nasbench: '$T/busy' is not empty and is not a nasbench report (it has no .nasbench marker): not writing into it; give a new or empty directory" report "$T/r.json" -o "$T/busy"

t_case "a gate file's unknown section is named on its own line"
printf '[thresholds]\nbw_bytes = 5\n' >"$T/g1.ini"
check "nasbench: $T/g1.ini:1: unknown section [thresholds] (expected [gate], [metric], [bands] or [workload NAME])" compare "$T/r.json" "$T/r.json" -g "$T/g1.ini"
printf '# thresholds\n\n[metric]\niops = 5%%\n [thresholds]\n' >"$T/g2.ini"
check "nasbench: $T/g2.ini:5: unknown section [thresholds] (expected [gate], [metric], [bands] or [workload NAME])" compare "$T/r.json" "$T/r.json" -g "$T/g2.ini"
printf '[metric]\niosp = 5\n[workload seq512k-raed]\nbw_bytes = 5\n[workload seq512k-read]\nlat_p99_uss = 5\n' >"$T/g3.ini"
run "$NB" compare "$T/r.json" "$T/r.json" -g "$T/g3.ini"
assert_rc 5
assert_err "nasbench: warning: $T/g3.ini:2: no metric 'iosp' in the results; did you mean 'iops'?"
assert_err "nasbench: warning: $T/g3.ini:4: no workload 'seq512k-raed' with metric 'bw_bytes' in the results; did you mean 'seq512k-read'?"
assert_err "nasbench: warning: $T/g3.ini:6: no workload 'seq512k-read' with metric 'lat_p99_uss' in the results; did you mean 'lat_p99_us'?"

t_case "'-' is standard input or output wherever a file is read or written"
printf '[target a]\nurl = %s\n[suite]\niodepht = 4\n' "$D" >"$T/bad.ini"
run bash -c '"$1" run -n -c - <"$2"' _ "$NB" "$T/bad.ini"
assert_rc 2
[ "$ERR" = "nasbench: <stdin>:4: unknown key 'iodepht' in [suite]; did you mean 'iodepth'?" ] || t_fail "-c -: $ERR"
printf '[target a]\nurl = %s\n' "$D" >"$T/good.ini"
run bash -c '"$1" run -n - <"$2"' _ "$NB" "$T/good.ini"
assert_rc 0
assert_out "  target a            $D"
run bash -c '"$1" hw -o - | "$1" run -n -t "$2" --box-hw -' _ "$NB" "$D"
assert_rc 0
run bash -c '"$1" hw -o -' _ "$NB"
printf '%s' "$OUT" >"$T/hw.json"
assert_json "$T/hw.json" 'd["kind"] == "nasbench-hw"'
printf 'seq512k-read@local mb_s >= 0.001\n' >"$T/crit"
run bash -c '"$1" run -q -t "$2" -w seq512k-read --size 1M --runtime 200ms -i 1 -o "$3" --accept - --junit - <"$4"' _ "$NB" "$D" "$T/acc.json" "$T/crit"
assert_rc 0
python3 -c 'import sys, xml.etree.ElementTree as ET; r = ET.fromstring(sys.argv[1]); assert r.tag == "testsuites" and r.find("./testsuite/testcase") is not None' "$OUT" ||
	t_fail "--junit -: no JUnit XML on stdout: $OUT"
run bash -c '"$1" run -q -t "$2" -w seq512k-read --size 1M --runtime 200ms -i 1 -o - | "$1" report - -o "$3"' _ "$NB" "$D" "$T/rep-stdin"
assert_rc 0
assert_file "$T/rep-stdin/report.html"
run bash -c '"$1" hw -o - >/dev/full' _ "$NB"
assert_rc 3
assert_err "nasbench: unable to write 'standard output': No space left on device"
[ ! -e "$ROOT/-" ] && [ ! -e ./- ] || t_fail "a file named '-' was written"

t_case "the man page: from the help's tables, no groff warnings, every command and key"
run "$NB" help --man
assert_rc 0
printf '%s\n' "$OUT" >"$T/nasbench.1"
groff -man -Tutf8 -ww "$T/nasbench.1" >"$T/man.txt" 2>"$T/groff.err" || t_fail "groff failed"
[ ! -s "$T/groff.err" ] || t_fail "groff warns: $(cat "$T/groff.err")"
MANWIDTH=80 man --warnings -l "$T/nasbench.1" >"$T/man2.txt" 2>"$T/man.err" || t_fail "man -l failed"
[ ! -s "$T/man.err" ] || t_fail "man -l warns: $(cat "$T/man.err")"
sed 's/.\x08//g' "$T/man2.txt" >"$T/man.plain"
for want in "NASBENCH(1)" "nasbench 0.2.0" "   nasbench run" "   nasbench compare" \
	"   nasbench hw" "       -t, --target X" "       --status-interval SECONDS" \
	"   [box]" "   [target NAME]" "       destroy-data" "       seq512k-write-sync" \
	"       quick" "       iscsi://" "EXIT STATUS" "       -r, --max-regress PCT" \
	"source <(nasbench help --completion bash)"; do
	grep -qF -- "$want" "$T/man.plain" || t_fail "the man page lacks '$want'"
done
# every option 'help run' lists is in the page (one source, no drift)
for o in $("$NB" help run | grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
	grep -qF -- "$o" "$T/man.plain" || t_fail "the man page lacks run's $o"
done
[ -f "$ROOT/build/nasbench.1" ] && cmp -s "$ROOT/build/nasbench.1" "$T/nasbench.1" ||
	t_fail "build/nasbench.1 is not what 'help --man' prints (run make)"

t_case "bash completion: sourced, commands, options, workloads, suites, layouts, files"
"$NB" help --completion bash >"$T/comp.bash" || t_fail "help --completion bash failed"
touch "$T/box-one.ini"
complete_of() { # the words bash offers for the command line "$@" (last word: the one completed)
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _nasbench; printf "%s\n" "${COMPREPLY[@]}" | sort' \
		_ "$T/comp.bash" nasbench "$@"
}
# completes WANT WORD...: bash offers exactly the words WANT (one string,
# space-separated) for "nasbench WORD..."
completes() {
	local want=$1 got
	shift
	got=$(complete_of "$@" | tr '\n' ' ')
	[ "$got" = "$want " ] || t_fail "$* -> '$got', expected '$want'"
}
completes run ru
completes "seq512k-read seq512k-write seq512k-write-sync" run --workload seq5
completes "seq512k-read,rand4k-mix" run -w seq512k-read,rand4k-m
completes "--target" run --tar
completes quick run --suite qu
completes always run --sync al
completes "layout=raidz1 layout=raidz2 layout=raidz3" run -l layout=raidz
completes "mirror,raid1 mirror,raid10" hw plan --layout mirror,raid1
completes "nfs://" run --target nf
completes "$T/box-one.ini" run -c "$T/box-o"
completes "--format" compare --form
completes plan hw pl
completes trend history t
completes config help con
run "$NB" help --completion zsh
assert_rc 2
assert_err "nasbench: help --completion: the shell is bash, not 'zsh'"

t_case "make install DESTDIR PREFIX lays out the program, the man page, the completion and the schema; uninstall removes them"
make -C "$ROOT" --no-print-directory -s install DESTDIR="$T/inst" PREFIX=/usr >"$T/make.out" 2>&1 ||
	t_fail "make install failed: $(cat "$T/make.out")"
for f in usr/bin/nasbench usr/share/man/man1/nasbench.1 usr/share/bash-completion/completions/nasbench \
	usr/share/nasbench/result.schema.json; do
	assert_file "$T/inst/$f"
done
cmp -s "$T/inst/usr/share/nasbench/result.schema.json" <("$ROOT/ci/result-schema" "$ROOT/docs/result.md") ||
	t_fail "the installed schema is not the one docs/result.md makes"
[ -x "$T/inst/usr/bin/nasbench" ] || t_fail "the installed program is not executable"
MANPATH="$T/inst/usr/share/man" man -w nasbench >/dev/null 2>&1 || t_fail "man finds no nasbench under the installed MANPATH"
make -C "$ROOT" --no-print-directory -s uninstall DESTDIR="$T/inst" PREFIX=/usr >"$T/make.out" 2>&1 ||
	t_fail "make uninstall failed: $(cat "$T/make.out")"
[ -z "$(find "$T/inst" -type f)" ] || t_fail "uninstall left: $(find "$T/inst" -type f)"

t_done
