#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The data and the access (docs/data.md): data written at 2:1 and 4:1
# compresses so under the lz4, gzip -6 and zstd -3 programs themselves
# (within 10%), as the result measured it; no 4 KiB block written twice
# unless asked, and a duplicate share that dedupes to the ratio the
# result expects (the file's blocks counted); the random distribution and
# its hot set in the spec; a hot-set sweep's steps, its text and the
# report's section; the replay writing data of the load file's
# compressratio; the refusals.  The ZFS side (the box's compressratio,
# dedupratio, ARC, the knee against a real ARC): ci/bench-data.
. "$(dirname "$0")/lib.sh"

for p in lz4 gzip zstd python3 gnuplot; do
	command -v "$p" >/dev/null || { missing "$p (ci/install-deps)"; exit 1; }
done
D=$T/data; mkdir -p "$D"

t_case "refusals: a bad ratio, share, distribution or hot set; nothing written"
REFUSED_ARGS=(-w seq512k-write --compress 3:2)
refused "$D" 2 "nasbench: --compress: compression '3:2': incompressible, a ratio (2:1, 1.5:1, 2x) or the share that compresses away (50%)"
REFUSED_ARGS=(-w seq512k-write --compress 9:1)
refused "$D" 2 "nasbench: --compress: compression '9:1': a ratio from 1:1 to 8:1"
REFUSED_ARGS=(-w seq512k-write --dedupe 120%)
refused "$D" 2 "nasbench: --dedupe: dedupe '120%': a whole share of the blocks written, 0% to 100% (50%)"
REFUSED_ARGS=(-w rand4k-read --random-distribution zoned:60/10:30/20)
refused "$D" 2 "nasbench: --random-distribution: random distribution 'zoned:60/10:30/20': the zones' I/Os and sizes must each add up to 100%"
REFUSED_ARGS=(-w rand4k-read --random-distribution normal:5)
refused "$D" 2 "nasbench: --random-distribution: random distribution 'normal:5': uniform, zipf:THETA, pareto:H or zoned:IO/SIZE[:IO/SIZE...]"
REFUSED_ARGS=(-w rand4k-read --hot-sizes 4M,2M)
refused "$D" 2 "nasbench: --hot-sizes: invalid hot-set sizes '4M,2M': give rising sizes (16M,32M,64M), or auto"
printf '[target local]\nurl = %s\n[suite]\ncompress = lots\n' "$D" >"$T/box.ini"
run "$NB" run "$T/box.ini" -w seq512k-write -o "$T/f.json"
assert_rc 2
assert_err "nasbench: $T/box.ini:4: 'compress' in [suite]: compression 'lots': incompressible, a ratio (2:1, 1.5:1, 2x) or the share that compresses away (50%)"
assert_no_file "$T/f.json"
assert_clean "$D"

# ratio FILE PROGRAM...: FILE's bytes over what PROGRAM makes of them
ratio() { local f=$1; shift; python3 -c "print($(stat -c %s "$f") / $("$@" <"$f" | wc -c))"; }
within() { python3 -c "import sys; sys.exit(0 if abs($1 - $2) <= $3 * $2 else 1)"; }

for R in 2 4; do
	t_case "data at $R:1: lz4, gzip -6 and zstd -3 (the programs) within 10%, as measured"
	rm -rf "$D"/nasbench.*
	run "$NB" run -t "$D" -w seq512k-write --size 64M -i 1 --compress "$R:1" --keep -o "$T/c$R.json"
	assert_rc 0
	assert_out_re "^local seq512k-write: data $R:1: lz4 [0-9.]+x, gzip [0-9.]+x, zstd [0-9.]+x \(lzjb [0-9.]+x\)$"
	F=$(ls "$D"/nasbench.*/data)
	for c in "lz4 -c" "gzip -6 -c" "zstd -3 -c -q"; do
		got=$(ratio "$F" $c)
		within "$got" "$R" 0.10 || t_fail "$c: $got, not within 10% of $R"
	done
	assert_json "$T/c$R.json" "all(abs(v - $R) <= 0.1 * $R for k, v in result(d, 'seq512k-write')['iterations'][0]['data']['ratio'].items() if k != 'lzjb')" \
		"result(d, 'seq512k-write')['iterations'][0]['data']"
	assert_json "$T/c$R.json" "result(d, 'seq512k-write')['spec']['compress'] == '$R:1' and abs(result(d, 'seq512k-write')['iterations'][0]['metrics']['data_compress_ratio'] - $R) <= 0.1 * $R"
	# never the same block twice: every 4 KiB of the file its own
	python3 - "$F" <<'PY' || t_fail "a 4 KiB block written twice"
import sys
b = open(sys.argv[1], "rb").read()
blocks = [b[i:i + 4096] for i in range(0, len(b), 4096)]
sys.exit(0 if len(set(blocks)) == len(blocks) else 1)
PY
done

t_case "50% duplicates: the file's 512 KiB blocks dedupe to the ratio the result expects"
rm -rf "$D"/nasbench.*
run "$NB" run -t "$D" -w seq512k-write --size 64M -i 1 --dedupe 50% --compress 2:1 --keep -o "$T/d.json"
assert_rc 0
F=$(ls "$D"/nasbench.*/data)
python3 - "$F" "$T/d.json" <<'PY' || t_fail "the duplicates are not what the result says"
import json, sys
from results import result
b = open(sys.argv[1], "rb").read()
blocks = [b[i:i + 524288] for i in range(0, len(b), 524288)]
it = result(json.load(open(sys.argv[2])), "seq512k-write")["iterations"][0]
d = it["data"]
got = len(blocks) / len(set(blocks))
print(f"  {len(blocks)} blocks, {len(set(blocks))} distinct: {got:.3f}; the result: "
      f"{d['duplicates']} duplicates of {d['blocks']}, {d['dedupe_ratio_expected']:.3f}")
ok = d["blocks"] == len(blocks) and abs(got - d["dedupe_ratio_expected"]) < 1e-9
ok = ok and 0.40 <= d["duplicates"] / d["blocks"] <= 0.60 and d["duplicate_set"] <= 64
sys.exit(0 if ok else 1)
PY

rm -rf "$D"/nasbench.*

t_case "a hot spot: the spec names the distribution and its hot set"
run "$NB" run -t "$D" -w rand4k-read --size 16M --runtime 1s -i 1 --random-distribution zoned:80/20 -o "$T/h.json"
assert_rc 0
assert_json "$T/h.json" "result(d, 'rand4k-read')['spec']['random_distribution'] == 'zoned:80/20:20/80' and abs(result(d, 'rand4k-read')['spec']['hot_set']['data_pct'] - 20) < 0.1 and result(d, 'rand4k-read')['spec']['hot_set']['share_pct'] == 80" \
	"result(d, 'rand4k-read')['spec']"
assert_json "$T/h.json" "not [v for v in result(d, 'rand4k-read').get('box_verdicts', []) if v['kind'] == 'cache']"

t_case "a hot-set sweep: a step per size, the knee's text, the report's section and chart"
run "$NB" run -t "$D" -w rand4k-read,seq512k-read --size 16M --runtime 1s -i 1 --hot-sizes 1M,2M,4M -o "$T/s.json"
assert_rc 0
assert_out_re "^local rand4k-read: hot set +1 MiB: +[0-9]+ IOPS +mean +[0-9]+ us +p99 +[0-9]+ us"
assert_out_re "^local rand4k-read: the hot set fits (in|at every size)"
assert_out "local seq512k-read: warning: hot-sizes: seq512k-read is sequential, run once without a hot set"
assert_json "$T/s.json" "[s['hot_bytes'] for s in result(d, 'rand4k-read')['iterations'][0]['hot_sweep']['steps']] == [1048576, 2097152, 4194304] and result(d, 'rand4k-read')['iterations'][0]['metrics']['hot_fits_bytes'] > 0"
run "$NB" report "$T/s.json" -o "$T/rep"
assert_rc 0
grep -q "^## Hot set and ARC" "$T/rep/report.md" || t_fail "no Hot set section in the report"
assert_file "$T/rep/hotset_rand4k-read.png"

t_case "the replay writes data of the load file's compressratio"
printf '[data]\ncompressratio = 2\n[vm w]\niops = 40\nread = 0\nbs_read = 8K\nbs_write = 64K\nsequential = 0\n' >"$T/load.ini"
run "$NB" run -t "$D" -w replay --load "$T/load.ini" --scale 0.5,1 --step-time 2s --peak no --slo mean=1s --size 32M -i 1 -o "$T/r.json"
assert_rc 0
assert_json "$T/r.json" "result(d, 'replay')['spec']['compress'] == '2:1' and result(d, 'replay')['spec']['compress_from'] == 'load file' and abs(result(d, 'replay')['iterations'][0]['data']['ratio']['gzip'] - 2) <= 0.2" \
	"(result(d, 'replay')['spec'], result(d, 'replay')['iterations'][0].get('data'))"
assert_clean "$D"

t_done
