#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ci/fio-engines: the cached fio with the nfs and libiscsi engines (the
# integration run built it, or found it cached, before this test).
. "$(dirname "$0")/lib.sh"
FE=$ROOT/ci/fio-engines

t_case "a second run is quiet: one line, the cached fio's path"
run "$FE"
assert_rc 0
[ -z "$ERR" ] || t_fail "stderr not empty: $ERR"
[ "$(wc -l <<<"$OUT")" = 1 ] || t_fail "more than one line: $OUT"
[ -x "$OUT" ] || t_fail "not an executable: $OUT"
[ -z "${NASBENCH_FIO_ENGINES:-}" ] || [ "$OUT" = "$NASBENCH_FIO_ENGINES" ] ||
	t_fail "path $OUT, the integration run's NASBENCH_FIO_ENGINES $NASBENCH_FIO_ENGINES"
FIO=$OUT

t_case "the cached fio has the nfs and libiscsi engines"
run "$FIO" --enghelp
assert_rc 0
assert_out_re '^[[:space:]]+nfs$' '^[[:space:]]+libiscsi$'

t_case "a newer cached fio without the engines is passed over"
mkdir -p "$T/cache/fio-99.0" "$T/cache/fio-3.0"
ln -s "$(command -v fio)" "$T/cache/fio-99.0/fio"   # Debian's: no nfs engine
ln -s "$FIO" "$T/cache/fio-3.0/fio"
NASBENCH_FIO_CACHE=$T/cache run "$FE"
assert_rc 0
[ "$OUT" = "$T/cache/fio-3.0/fio" ] || t_fail "picked $OUT"

t_case "an argument is refused"
run "$FE" --rebuild
assert_rc 2
assert_err "usage: ci/fio-engines"

t_done
