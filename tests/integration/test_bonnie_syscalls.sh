#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bonnie's block phases make the system calls bonnie++ 2.00's make: both
# traced with strace on the same directory (a short run: the block phases,
# bonnie++ -f, nasbench fast=yes), each open of the data file summed up:
# how it was opened, the writes and reads on it (count, size, offsets),
# the fsync before its close.  ci/bench-seed holds the figures against
# each other; this holds the work.
. "$(dirname "$0")/lib.sh"

command -v bonnie++ >/dev/null || { missing "bonnie++ is not installed (ci/install-deps)"; t_done; exit; }
command -v strace >/dev/null || { missing "strace is not installed (ci/install-deps)"; t_done; exit; }
mkdir -p "$T/bpp" "$T/nb"
TRACE=openat,unlink,write,pwrite64,read,pread64,lseek,fsync,fdatasync,close,ftruncate,fallocate,fadvise64

# sessions STRACE_LOG NAME: one line per open of the file whose path ends
# in NAME that read or wrote it, in order: "FLAGS writes=N wsize=S,..
# wseq=0|1 reads=N fsyncs=N closed=0|1 unlink_before=0|1" (wseq: pwrite
# offsets in order; unlink_before: the file was removed first, or tried:
# it is a new file)
sessions() {
	python3 - "$1" "$2" <<'PY'
import re, sys
log, name = sys.argv[1], sys.argv[2]
call = re.compile(r'^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+)')
open_fd, sess, out, unlinked = {}, {}, [], False
for line in open(log):
    m = call.match(line)
    if not m:
        continue
    pid, sc, args, ret = m.group(1), m.group(2), m.group(3), int(m.group(4))
    a = [x.strip() for x in args.split(',')]
    if sc == 'unlink' and a[0].strip('"').endswith(name):
        unlinked = True
    if sc == 'openat' and a[1].strip('"').endswith(name) and ret >= 0:
        s = {'flags': a[2], 'w': 0, 'wsize': set(), 'off': 0, 'seq': 1,
             'r': 0, 'fsync': 0, 'closed': 0, 'unl': int(unlinked)}
        unlinked = False
        sess[ret] = s
        out.append(s)
        continue
    if not a or not a[0].isdigit() or int(a[0]) not in sess:
        continue
    s = sess[int(a[0])]
    if sc in ('write', 'pwrite64'):
        s['w'] += 1
        s['wsize'].add(ret)
        if sc == 'pwrite64':
            s['seq'] &= int(int(a[-1]) == s['off'])
            s['off'] += ret
    elif sc in ('read', 'pread64'):
        s['r'] += 1
    elif sc in ('fsync', 'fdatasync'):
        s['fsync'] += 1
    elif sc == 'close':
        s['closed'] = 1
        del sess[int(a[0])]
for s in out:
    if not s['w'] and not s['r']:
        continue        # bonnie++ creates the file once before it starts
    fl = '|'.join(sorted(f for f in s['flags'].split('|') if f in ('O_CREAT', 'O_DIRECT', 'O_SYNC', 'O_DSYNC', 'O_APPEND')))
    print('%s writes=%d wsize=%s wseq=%d reads=%d fsyncs=%d closed=%d unlink_before=%d' % (
        fl or '-', s['w'], ','.join(map(str, sorted(s['wsize']))) or '-', s['seq'],
        s['r'], s['fsync'], s['closed'], s['unl']))
PY
}

t_case "put_block, rewrite, get_block: the same system calls as bonnie++ 2.00"
run strace -f -qq -e trace=$TRACE -o "$T/bpp.strace" \
	bonnie++ -d "$T/bpp" -s 16 -r 8 -n 0 -f -u root -x 1 -q
assert_rc 0
# the box's telemetry off: its sampler thread's calls would split
# bonnie's in the trace (strace's "<unfinished ...>"); on an ASan build
# (make check-deep) no leak check: LeakSanitizer stops the threads with
# ptrace, which strace already holds ("thread was not suspended")
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
run strace -f -qq -e trace=$TRACE -o "$T/nb.strace" \
	"$NB" run -t "$T/nb" -w bonnie --size 16M --set fast=yes --set files=1 -i 1 -q \
	--monitor off -o "$T/nb.json"
assert_rc 0
B=$(sessions "$T/bpp.strace" "/Bonnie.$(sed -n 's/^\([0-9]*\) .*Bonnie\.\([0-9]*\)".*/\2/p' "$T/bpp.strace" | head -1)")
N=$(sessions "$T/nb.strace" "/bonnie.data")
# put_block: a new file (the old one removed), 2048 writes of 8 KiB in
# order, one fsync, closed; no O_DIRECT, no O_SYNC
PUT="O_CREAT writes=2048 wsize=8192 wseq=1 reads=0 fsyncs=1 closed=1 unlink_before=1"
[ "$(sed -n 1p <<<"$B")" = "$PUT" ] || t_fail "bonnie++'s put_block: $(sed -n 1p <<<"$B") (all: $B)"
[ "$(sed -n 1p <<<"$N")" = "$PUT" ] || t_fail "nasbench's put_block: $(sed -n 1p <<<"$N") (all: $N)"
# rewrite: 2048 reads and 2048 writes back, then get_block: 2048 reads;
# each ends with an fsync and a close, as bonnie++'s Close() does
REW="- writes=2048 wsize=8192 wseq=1 reads=2048 fsyncs=1 closed=1 unlink_before=0"
GET="- writes=0 wsize=- wseq=1 reads=2048 fsyncs=1 closed=1 unlink_before=0"
[ "$(sed -n 2p <<<"$B")" = "$REW" ] || t_fail "bonnie++'s rewrite: $(sed -n 2p <<<"$B")"
[ "$(sed -n 2p <<<"$N")" = "$REW" ] || t_fail "nasbench's rewrite: $(sed -n 2p <<<"$N")"
[ "$(sed -n 3p <<<"$B")" = "$GET" ] || t_fail "bonnie++'s get_block: $(sed -n 3p <<<"$B")"
[ "$(sed -n 3p <<<"$N")" = "$GET" ] || t_fail "nasbench's get_block: $(sed -n 3p <<<"$N")"
assert_json "$T/nb.json" 'all(k in d["results"][0]["iterations"][0]["metrics"] for k in ("put_block_kps", "rewrite_kps", "get_block_kps"))'

t_done
