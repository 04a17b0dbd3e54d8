#!/usr/bin/env bash
# nasbench in a shell user's hands: versions, did-you-mean, the man page,
# completion, machine-readable output, progress, install (issue 19).
. "$(dirname "$0")/lib.sh"

D=$T/dir
mkdir -p "$D"

t_case "--version, -V and version: the release and the commit, and the libraries"
REL=$(cat "$ROOT/VERSION")
GIT=$(git -C "$ROOT" rev-parse --short=7 HEAD)
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
run "$NB" run -q -t "$D" -w seq512k-write --size 1M -i 1 -o "$T/v.json"
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

t_case "did you mean: suites, workloads, layouts, choices"
check "nasbench: unknown suite 'quik'; did you mean 'quick'?" run -n -t "$D" --suite quik
check "nasbench: unknown workload 'seq51k-read'; did you mean 'seq512k-read'?" run -n -t "$D" -w seq51k-read
check "nasbench: unknown workload 'zzzzzz' (see 'nasbench list workloads')" run -n -t "$D" -w zzzzzz
check "nasbench: --label: 'raidz9' is not one of raidz1|raidz2|raidz3|mirror|raid10|raid5|raid6|raid1|raid0|stripe|single; did you mean 'raidz1'?" run -n -t "$D" -l layout=raidz9
check "nasbench: --sync: 'alway' is not one of none|end|always; did you mean 'always'?" run -n -t "$D" --sync alway
printf '[box]\nlayout = miror\n[target a]\nurl = %s\n' "$D" >"$T/box.ini"
check "nasbench: $T/box.ini:2: 'layout' in [box]: 'miror' is not one of raidz1|raidz2|raidz3|mirror|raid10|raid5|raid6|raid1|raid0|stripe|single; did you mean 'mirror'?" run -n "$T/box.ini"

t_done
