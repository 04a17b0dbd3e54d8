#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Nothing lost, nothing clobbered (docs/security.md): a run's figures survive
# a result that cannot be written (a real tmpfs that fills during the run,
# mounted by this test in its scratch directory); history, report, export
# and trend on a full disk leave nothing half-written; no output replaces a
# file nasbench did not write; no temporary file is opened through a link.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || { missing "mounting a small tmpfs needs root"; t_done; exit; }
command -v unshare >/dev/null || { missing "unshare (util-linux)"; t_done; exit; }

# small FS: a tmpfs of SIZE at $T/FS (unmounted at exit)
small() {
	mkdir -p "$T/$1"
	mount -t tmpfs -o "size=$2" "nbclobber" "$T/$1" || { missing "cannot mount a tmpfs"; return 1; }
	at_exit "umount '$T/$1'"
}
# fill FS: its last block taken
fill() { dd if=/dev/zero of="$T/$1/fill.$RANDOM" bs=4k 2>/dev/null; sync; }
# only NAMES...: the directory $1 holds exactly these entries
only() {
	local dir=$1 got want
	shift
	got=$(ls -A "$dir" | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	[ "$got" = "$want" ] || t_fail "'$dir' holds '$got', expected '$want'"
}

small full 256k || { t_done; exit; }
mkdir -p "$T/data" "$T/rescue" "$T/cwd"
RUN=(run --target "$T/data" -w seq512k-write --size 8M --runtime 0.2s -i 1)

t_case "run: -o on a disk that fills during the run: the table printed, the result saved in \$TMPDIR, said where"
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=start:seq512k-write:1 TMPDIR=$T/rescue \
	"$NBT" "${RUN[@]}" -o "$T/full/r.json" >"$T/run.out" 2>"$T/run.err" &
pid=$!
hook_wait "$H" start:seq512k-write:1 && fill full
hook_go "$H" start:seq512k-write:1
wait $pid
RC=$? OUT=$(cat "$T/run.out") ERR=$(cat "$T/run.err")
assert_rc 3
assert_out_re '^local +seq512k-write +[0-9.]+ +[0-9]+ '
saved=$(ls "$T"/rescue/nasbench-*.json 2>/dev/null)
[ "$(wc -w <<<"$saved")" = 1 ] || t_fail "expected one saved result in $T/rescue, found: $saved"
assert_err "nasbench: unable to write '$T/full/r.json': No space left on device; the result is saved in '$saved' instead"
[[ "$saved" =~ ^$T/rescue/nasbench-[0-9]{8}T[0-9]{6}Z-[0-9a-f]+-[a-z0-9]{6}\.json$ ]] || t_fail "saved as '$saved'"
assert_json "$saved" 'result(d, "seq512k-write")["status"] == "ok" and result(d, "seq512k-write")["iterations"][0]["metrics"]["bw_bytes"] > 0 and d["complete"]'
grep -qF "result: " <<<"$OUT" && t_fail "the table says a result was written: $OUT"
only "$T/full" $(ls "$T/full" | grep '^fill\.')

t_case "run: \$TMPDIR and /tmp full: the result goes to the current directory"
small full2 64k && fill full2
small tmp2 64k && fill tmp2
# /tmp of this run alone, full: a private mount namespace with tmp2 over
# /tmp; $T (under /tmp) is then hidden, so the run works from a directory
# it entered before (relative paths).  nasbench itself may live under /tmp
# too (a clean clone in CI): it is opened before the mount and run as
# /proc/self/fd/3, the one name the hidden file keeps.
REL=(run --target ./data -w seq512k-write --size 8M --runtime 0.2s -i 1)
hide_tmp() {    # hide_tmp DIR ENV...: nasbench in DIR with the full tmp2 as /tmp
	local dir=$1
	shift
	run unshare -m --propagation private sh -c "cd '$dir' && exec 3<'$NB' && mount --bind '$T/tmp2' /tmp && exec \"\$@\"" sh "$@"
}
ln -s ../data "$T/cwd/data"
mkdir -p "$T/cwd/full" && mount --bind "$T/full" "$T/cwd/full" && at_exit "umount '$T/cwd/full'"
hide_tmp "$T/cwd" env -u TMPDIR /proc/self/fd/3 "${REL[@]}" -q -o full/r2.json
assert_rc 3
saved=$(ls "$T"/cwd/nasbench-*.json 2>/dev/null)
assert_err "nasbench: unable to write 'full/r2.json': No space left on device; the result is saved in '$saved' instead"
assert_json "$saved" 'result(d, "seq512k-write")["iterations"][0]["metrics"]["bw_bytes"] > 0'

t_case "run: no place takes the result: it follows the message on standard error"
ln -s ../data "$T/full2/data" 2>/dev/null || { rm -f "$T"/full2/fill.*; ln -s ../data "$T/full2/data"; fill full2; }
hide_tmp "$T/full2" env TMPDIR=/tmp /proc/self/fd/3 "${REL[@]}" -o ./r3.json
assert_rc 3
assert_out_re '^local +seq512k-write +[0-9.]+ '
assert_err "nasbench: unable to write './r3.json': No space left on device; no other place took it ('/tmp': No space left on device, '$T/full2': No space left on device): the result follows on standard error"
python3 - "$T/.err" <<'PY' || t_fail "no whole result on standard error"
import json, sys
err = open(sys.argv[1]).read()
d = json.loads(err[err.index("\n{") + 1:])
assert d["tool"] == "nasbench" and d["results"][0]["iterations"][0]["metrics"]["bw_bytes"] > 0
PY
only "$T/full2" data $(ls "$T/full2" | grep '^fill\.')

t_case "run --json into a full file: the result saved elsewhere, said where"
"$NB" "${RUN[@]}" --json -q >"$T/full/out.json" 2>"$T/j.err" </dev/null &
wait $!
RC=$? ERR=$(cat "$T/j.err")
assert_rc 3
saved=$(ls -t "$T"/rescue/nasbench-*.json 2>/dev/null | head -1)
# TMPDIR unset here: /tmp takes it
saved=$(grep -o "saved in '[^']*'" <<<"$ERR" | cut -d"'" -f2)
assert_err "nasbench: unable to write 'standard output': No space left on device; the result is saved in '$saved' instead"
assert_json "$saved" 'result(d, "seq512k-write")["iterations"][0]["metrics"]["bw_bytes"] > 0'
rm -f "$saved" "$T/full/out.json"

t_case "run: fsync fails (ext4 on a loop device whose backing tmpfs is full): no file left, the result saved"
# the writes land in ext4's page cache (it sees free space); the loop
# device's writes to its full backing file fail at fsync, for real
mkdir -p "$T/back" "$T/ext"
mount -t tmpfs -o size=8m nbclobber "$T/back" || missing "cannot mount a tmpfs"
truncate -s 64M "$T/back/disk.img" && mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$T/back/disk.img"
DEV=$(losetup -f --show "$T/back/disk.img") || missing "no free loop device"
# in this order: the file system, its loop device, then the tmpfs under it
# (once the loop device has let its file go: the detach is asynchronous)
unback() {
	umount "$T/ext" 2>/dev/null
	losetup -d "$DEV"
	for _ in $(seq 600); do umount "$T/back" 2>/dev/null && return; sleep 0.1; done
	echo "test_clobber: '$T/back' is still mounted" >&2
}
at_exit unback
mount "$DEV" "$T/ext" && fill back
TMPDIR=$T/rescue run "$NB" "${RUN[@]}" -q -o "$T/ext/r.json"
assert_rc 3
saved=$(ls -t "$T"/rescue/nasbench-*.json | head -1)
assert_err "nasbench: unable to write '$T/ext/r.json': No space left on device; the result is saved in '$saved' instead"
assert_json "$saved" 'result(d, "seq512k-write")["iterations"][0]["metrics"]["bw_bytes"] > 0'
only "$T/ext" lost+found

# results to feed the other commands
"$NB" "${RUN[@]}" -q -o "$T/a.json" && "$NB" "${RUN[@]}" -q -o "$T/b.json" || t_fail "setup runs failed"

t_case "export, report, history and trend on a full disk: exit 3, nothing half-written, the old file kept"
small full3 1m
"$NB" export --csv "$T/a.json" -o "$T/full3/x.csv" || t_fail "first export failed"
sum=$(md5sum <"$T/full3/x.csv")
fill full3
run "$NB" export --csv "$T/a.json" "$T/b.json" -o "$T/full3/x.csv"
assert_rc 3
assert_err "nasbench: unable to write '$T/full3/x.csv': No space left on device"
[ "$(md5sum <"$T/full3/x.csv")" = "$sum" ] || t_fail "the old export changed"
run "$NB" report "$T/a.json" "$T/b.json" -o "$T/full3/rep"
assert_rc 3
assert_err "nasbench: unable to write '$T/full3/rep/bars_bw_bytes.gp': No space left on device"
"$NB" history add --db "$T/h.db" "$T/a.json" "$T/b.json" >/dev/null || t_fail "history add failed"
run "$NB" history trend -o "$T/full3/trend/" --db "$T/h.db"
assert_rc 3
assert_err "nasbench: unable to write '$T/full3/trend/trend_local_seq512k-write.gp': No space left on device"
NASBENCH_DB=$T/full3/h.db run "$NB" history add "$T/a.json"
assert_rc 3
assert_err "nasbench: history '$T/full3/h.db': setting WAL mode: database or disk is full"
# the old export, and nothing else: no temporary file, no empty history
only "$T/full3" x.csv $(ls "$T/full3" | grep '^fill\.')

t_case "an output never replaces a file nasbench did not write (exit 2, the file unchanged)"
echo "my notes" >"$T/notes.txt"
refuse() {      # refuse CMD...: exit 2, the message names notes.txt and its kind
	local what=$1
	shift
	run "$@"
	assert_rc 2
	assert_err "nasbench: '$T/notes.txt' exists and is not $what: not replacing it; remove it or choose another name"
	[ "$(cat "$T/notes.txt")" = "my notes" ] || t_fail "notes.txt changed after: $*"
}
refuse "a nasbench result" "$NB" "${RUN[@]}" -o "$T/notes.txt"
assert_no_file "$T/data/nasbench.run"
[ -z "$OUT" ] || t_fail "the run ran before refusing: $OUT"
refuse "the JUnit XML of nasbench's acceptance" "$NB" "${RUN[@]}" -o "$T/c.json" --junit "$T/notes.txt"
assert_no_file "$T/c.json"
refuse "a nasbench result" "$NB" import -o "$T/notes.txt" "$T/a.json"
refuse "a CSV export of nasbench" "$NB" export --csv "$T/a.json" -o "$T/notes.txt"
refuse "an OpenMetrics export of nasbench" "$NB" export --openmetrics "$T/a.json" -o "$T/notes.txt"
refuse "an output of nasbench compare" "$NB" compare "$T/a.json" "$T/b.json" -o "$T/notes.txt"
refuse "a nasbench load file" "$NB" capture --for 2s --interval 1s --bucket 1s -o "$T/notes.txt"
refuse "a nasbench result" "$NB" history show --db "$T/h.db" 1 -o "$T/notes.txt"
refuse "a hardware inventory of nasbench" "$NB" hw -o "$T/notes.txt"
# a result is not a comparison, nor a CSV: each kind replaces its own
cp "$T/a.json" "$T/keep.json"
run "$NB" compare "$T/a.json" "$T/b.json" -o "$T/keep.json"
assert_rc 2
assert_err "nasbench: '$T/keep.json' exists and is not an output of nasbench compare"
cmp -s "$T/a.json" "$T/keep.json" || t_fail "the result given to compare -o changed"
run "$NB" export --csv "$T/a.json" -o "$T/keep.json"
assert_rc 2
cmp -s "$T/a.json" "$T/keep.json" || t_fail "the result given to export -o changed"
# and its own kind is replaced, as before
"$NB" compare "$T/a.json" "$T/b.json" -o "$T/c.txt" >/dev/null
run "$NB" compare "$T/a.json" "$T/b.json" --format markdown -o "$T/c.txt"
[ "$RC" = 0 ] || [ "$RC" = 5 ] || t_fail "compare over its own output: exit $RC: $ERR"
"$NB" "${RUN[@]}" -q -o "$T/a.json" || t_fail "a run over its own result failed"

t_case "a symbolic link as -o is refused; the file it points to is untouched"
cp "$T/a.json" "$T/target.json"
ln -s "$T/target.json" "$T/link.json"
run "$NB" "${RUN[@]}" -o "$T/link.json"
assert_rc 2
assert_err "nasbench: '$T/link.json' is a symbolic link: not replacing it; remove it or choose another name"
cmp -s "$T/a.json" "$T/target.json" || t_fail "the link's target changed"

t_case "report and trend: a directory is taken by its marker, never by a file name"
mkdir -p "$T/site" && echo "<p>mine</p>" >"$T/site/report.html"
run "$NB" report "$T/a.json" -o "$T/site"
assert_rc 2
assert_err "nasbench: '$T/site' is not empty and is not a nasbench report (it has no .nasbench marker): not writing into it; give a new or empty directory"
[ "$(cat "$T/site/report.html")" = "<p>mine</p>" ] || t_fail "a report.html nasbench did not write was replaced"
run "$NB" report "$T/a.json" "$T/b.json" -o "$T/rep"
assert_rc 0
assert_file "$T/rep/.nasbench"
[ "$(head -1 "$T/rep/.nasbench")" = "nasbench output directory: report" ] || t_fail "marker: $(head -1 "$T/rep/.nasbench")"
grep -qx report.html "$T/rep/.nasbench" || t_fail "the marker does not list report.html"
echo "my analysis" >"$T/rep/notes.md"
run "$NB" report "$T/a.json" -o "$T/rep"
assert_rc 2
assert_err "nasbench: '$T/rep' holds 'notes.md', which nasbench did not write there: not replacing the directory; move it away or give another directory"
[ "$(cat "$T/rep/notes.md")" = "my analysis" ] || t_fail "notes.md changed"
rm "$T/rep/notes.md"
run "$NB" report "$T/a.json" -o "$T/rep"
assert_rc 0
[ -z "$(ls -d "$T"/rep.* 2>/dev/null)" ] || t_fail "left beside the report: $(ls -d "$T"/rep.*)"
mkdir -p "$T/photos" && echo jpeg >"$T/photos/a.jpg"
run "$NB" history trend --db "$T/h.db" -o "$T/photos"
assert_rc 2
assert_err "nasbench: '$T/photos' is not empty and is not a nasbench history trend (it has no .nasbench marker): not writing into it; give a new or empty directory"
only "$T/photos" a.jpg
run "$NB" history trend --db "$T/h.db" -o "$T/rep"
assert_rc 2
assert_err "nasbench: '$T/rep' holds a nasbench report, not a nasbench history trend: not replacing it; give a new or empty directory"

t_case "a link planted where the old temporary name was is not followed"
echo "precious" >"$T/victim"
H=$(hook_dir)
NASBENCH_TEST_PAUSE=$H NASBENCH_TEST_PAUSE_AT=start:seq512k-write:1 \
	"$NBT" "${RUN[@]}" -q -o "$T/p.json" >"$T/p.out" 2>"$T/p.err" &
pid=$!
hook_wait "$H" start:seq512k-write:1 && ln -s "$T/victim" "$T/p.json.tmp.$pid"
hook_go "$H" start:seq512k-write:1
wait $pid || t_fail "the run failed: $(cat "$T/p.err")"
[ "$(cat "$T/victim")" = precious ] || t_fail "the victim was written through the planted link"
assert_json "$T/p.json" 'd["tool"] == "nasbench"'
[ -L "$T/p.json.tmp.$pid" ] || t_fail "the planted link was replaced"

t_done
