#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nasbench hw: the inventory of this machine against lscpu, lsblk and
# /proc/meminfo; the planner's output and its errors; the published
# profiles load (and compare, once 'nasbench compare' exists); a run embeds
# the inventories and fills platform = auto.
. "$(dirname "$0")/lib.sh"
P=$ROOT/hw/profiles

t_case "hw --json matches lscpu, lsblk and /proc/meminfo"
run "$NB" hw --json
assert_rc 0
echo "$OUT" >"$T/hw.json"
lscpu -J >"$T/lscpu.json"
lsblk -J -b -d -o NAME,SIZE,ROTA,SCHED,LOG-SEC,PHY-SEC,TYPE >"$T/lsblk.json"
python3 - "$T/hw.json" "$T/lscpu.json" "$T/lsblk.json" <<'PY' || t_fail "inventory differs from lscpu/lsblk/meminfo"
import json, sys
hw = json.load(open(sys.argv[1]))
cpu = {e["field"].rstrip(":"): e["data"] for e in json.load(open(sys.argv[2]))["lscpu"]}
bad = []
def check(what, got, want):
    if got != want:
        bad.append("%s: nasbench %r, expected %r" % (what, got, want))
check("cpu model", hw["cpu"]["model"], cpu["Model name"])
check("sockets", hw["cpu"]["sockets"], int(cpu["Socket(s)"]))
check("cores", hw["cpu"]["cores"], int(cpu["Socket(s)"]) * int(cpu["Core(s) per socket"]))
check("threads", hw["cpu"]["threads"],
      int(cpu["Socket(s)"]) * int(cpu["Core(s) per socket"]) * int(cpu["Thread(s) per core"]))
# lscpu names the hypervisor only for vendors it knows (not bhyve, say);
# the CPU's hypervisor flag (CPUID leaf 1, ECX bit 31) is there either way
hv = cpu.get("Hypervisor vendor")
flagged = "hypervisor" in cpu.get("Flags", "").split()
if hv or flagged:
    check("virtual", hw["virtualization"]["virtual"], True)
    check("cpuid hypervisor bit", hw["virtualization"]["evidence"]["cpuid_hypervisor_bit"], True)
if hv:
    check("hypervisor", hw["virtualization"]["hypervisor"],
          {"KVM": "kvm", "Xen": "xen", "VMware": "vmware", "Microsoft": "hyperv"}.get(hv, hw["virtualization"]["hypervisor"]))
elif not flagged:
    check("virtual", hw["virtualization"]["virtual"] in (False, None), True)
mem = {l.split(":")[0]: int(l.split()[1]) * 1024 for l in open("/proc/meminfo") if l.split()[-1] == "kB"}
check("memory", hw["memory"]["total_bytes"], mem["MemTotal"])
check("swap", hw["memory"]["swap_bytes"], mem["SwapTotal"])
mine = {d["name"]: d for d in hw["disks"]}
for d in json.load(open(sys.argv[3]))["blockdevices"]:
    if d["type"] != "disk" or d["name"].startswith(("zram", "loop", "ram", "md", "dm-")):
        continue
    if d["name"] not in mine:
        bad.append("disk %s missing" % d["name"]); continue
    m = mine[d["name"]]
    check(d["name"] + " size", m["size_bytes"], int(d["size"]))
    check(d["name"] + " rotational", m["rotational"], d["rota"] in (True, "1", 1))
    check(d["name"] + " scheduler", m["scheduler"], d["sched"])
    check(d["name"] + " logical", m["logical_block_size"], int(d["log-sec"]))
    check(d["name"] + " physical", m["physical_block_size"], int(d["phy-sec"]))
import os
check("kernel", hw["os"]["kernel"], os.uname().release)
check("arch", hw["os"]["arch"], os.uname().machine)
for n in hw["nics"]:
    check(n["name"] + " mtu", n["mtu"], int(open("/sys/class/net/%s/mtu" % n["name"]).read()))
if bad:
    print("\n".join(bad), file=sys.stderr); sys.exit(1)
PY

t_case "hw prints the same in words"
run "$NB" hw
assert_rc 0
assert_out "cpu       $(python3 -c "import json;print(json.load(open('$T/hw.json'))['cpu']['model'])")"
assert_out "platform  "
assert_out "disks     "

t_case "hw -o writes a file that run --box-hw reads"
run "$NB" hw -o "$T/box.json"
assert_rc 0
assert_json "$T/box.json" 'd["kind"] == "nasbench-hw" and d["schema"] == 1'

t_case "hw: bad option"
run "$NB" hw --bogus
assert_rc 2
assert_err "nasbench: unknown option '--bogus' (see 'nasbench help hw')"

t_case "run embeds client and box, fills platform = auto"
mkdir -p "$T/dir"
run "$NB" run -q --target "$T/dir" -w seq512k-write --size 4M --runtime 200ms -i 1 -o "$T/r.json" -l platform=auto
assert_rc 0
assert_json "$T/r.json" 'd["client"]["kind"] == "nasbench-hw" and d["box"]["cpu"] == d["client"]["cpu"]'
assert_json "$T/r.json" 'd["labels"]["platform"] == d["client"]["virtualization"]["platform"] and d["labels"]["platform"] is not None'
assert_clean "$T/dir"

t_case "run: an explicit platform label is kept; --box-hw is embedded as box"
python3 -c "
import json; d=json.load(open('$T/box.json')); d['hostname']='thebox'; d['virtualization']['platform']='xen'
json.dump(d, open('$T/box2.json','w'))"
run "$NB" run -q --target "$T/dir" -w seq512k-write --size 4M --runtime 200ms -i 1 -o "$T/r2.json" --box-hw "$T/box2.json"
assert_rc 0
assert_json "$T/r2.json" 'd["box"]["hostname"] == "thebox" and d["labels"]["platform"] == "xen"'
run "$NB" run -q --target "$T/dir" -w seq512k-write --size 4M --runtime 200ms -i 1 -o "$T/r3.json" -l platform=bare --box-hw "$T/box2.json"
assert_rc 0
assert_json "$T/r3.json" 'd["labels"]["platform"] == "bare"'

t_case "run: --box-hw of a missing or wrong file is a usage error, nothing written"
run "$NB" run -q --target "$T/dir" -w seq512k-write --size 4M --runtime 200ms -i 1 -o "$T/r4.json" --box-hw "$T/none.json"
assert_rc 2
assert_err "nasbench: --box-hw: cannot read '$T/none.json'"
echo '{"x": 1}' >"$T/wrong.json"
run "$NB" run -q --target "$T/dir" -w seq512k-write --size 4M -i 1 -o "$T/r4.json" --box-hw "$T/wrong.json"
assert_rc 2
assert_err "nasbench: --box-hw: '$T/wrong.json' is not a hardware inventory (make one with 'nasbench hw --json' on the box)"
assert_no_file "$T/r4.json"

t_case "plan: the N40L of the first story, capacity as 'zfs list' shows it"
run "$NB" hw plan --disks 5x3TB --disk-mbs 150 --disk-iops 120 --price 80 --nic 1gbit --layout raidz1,md-raid10,raidz2
assert_rc 0
assert_out "link 1000 Mbit/s: 117.7 MB/s of payload (94.1% of the line rate)"
assert_out "after parity          12.00 TB        7.50 TB         9.00 TB"
assert_out "usable (zfs list)     11.84 TB        7.50 TB         8.74 TB"
assert_out "                      10.77 TiB       6.82 TiB        7.95 TiB"
assert_out "disks may fail        1               1 (up to 2)     2"
assert_out "seq read MB/s         117.7 link      117.7 link      117.7 link"
assert_out "rand read IOPS        147             600             194"
assert_out "per usable TB         33.77           53.33           45.78"

t_case "plan: raid10 wants an even count; grouped vdevs, mixed disks, spares"
run "$NB" hw plan --disks 5x3TB --layout raid10
assert_rc 2
assert_err "nasbench: layout 'raid10' needs an even number of disks, not 5 (a ZFS pool of 2-way mirrors; md-raid10 takes odd counts)"
run "$NB" hw plan --disks 4x4TB,2x8TB,1x8TB --spares 1 --layout 3xmirror,2xraidz1 --price 100 --currency EUR
assert_rc 0
assert_out "4 x 4.00 TB + 2 x 8.00 TB + 1 x 8.00 TB disks (in this order), unknown MB/s and unknown IOPS each, the last 1 a spare"
assert_out "vdevs x disks         3 x 2           2 x 3"
assert_out "after parity          16.00 TB        16.00 TB"
assert_out "price                 700.00 EUR      700.00 EUR"

t_case "plan: 12 x 4 TB raidz2 is 33.12 TiB, not 40 TB; zvol blocks cost space"
run "$NB" hw plan --disks 12x4TB --layout raidz2,2xraidz2 --volblocksize 16K
assert_rc 0
assert_out "after parity          40.00 TB        32.00 TB"
assert_out "                      33.12 TiB       28.93 TiB"
assert_out "data at 16 KiB blocks 28.98 TiB       28.96 TiB"

t_case "plan: sync writes with and without a SLOG (the seed's ESXi through FreeNAS: 64 KiB writes)"
run "$NB" hw plan --disks 5x3TB --disk-mbs 150 --disk-iops 120 --nic 1gbps --layout raidz1 --slog ssd --sync-io 64K
assert_rc 0
assert_out "sync writes of 64 KiB, 1 committed together; SLOG ssd (400 MB/s, 1000 sync writes/s)"
assert_out "sync write MB/s       3.8"
assert_out "sync, SLOG MB/s       38.1"

t_case "plan: ci/lab's disk profile (throttled): raidz1 streams, raid10 seeks and syncs"
run "$NB" hw plan --disks 4x2GB --disk-iops 150 --disk-mbs 125.8 --throttled --layout raidz1,raid10 --slog plp-nvme
assert_rc 0
assert_out "4 x 2.00 GB disks, 126 MB/s and 150 IOPS each (throttled)"
assert_out "seq write MB/s        57.2 disks      39.3 disks"
assert_out "rand read IOPS        200             600"
assert_out "sync write MB/s       15.7            26.2"
assert_out "sync, SLOG MB/s       57.2            39.3"
run "$NB" hw plan --disks 4x2GB --disk-iops 150 --disk-mbs 125.8 --throttled --box-io 32K --layout raidz1,raid10
assert_rc 0
assert_out "seq write MB/s        14.3 disks      9.8 disks"

t_case "plan --json: every figure with its unit (the DL380p, 20% over-provisioning)"
run "$NB" hw plan --disks 10x500GB --disk-mbs 500 --disk-iops 90000 --price 80 --base-price 700 --reserve 20% --layout raid6,raidz2,md-raid10 --currency USD --json
assert_rc 0
echo "$OUT" >"$T/plan.json"
assert_json "$T/plan.json" 'd["kind"] == "nasbench-plan" and [l["layout"] for l in d["layouts"]] == ["md-raid6", "raidz2", "md-raid10"]'
assert_json "$T/plan.json" '[l["usable"]["value"] for l in d["layouts"]][0::2] == [3.2e12, 2e12] and d["layouts"][1]["usable"]["unit"] == "B"'
assert_json "$T/plan.json" 'd["layouts"][0]["seq_read_limit"] == "disks" and d["layouts"][0]["link"] is None'
assert_json "$T/plan.json" 'd["layouts"][0]["price_per_tb"] == {"value": 468.75, "unit": "USD"} and d["layouts"][0]["rand_write"] == {"value": 150000, "unit": "IOPS"}'
assert_json "$T/plan.json" 'all(v is None or isinstance(v, (str, int, float)) or set(v) == {"value", "unit"} for l in d["layouts"] for v in l.values())'

t_case "plan: measured beside expected from the published N40L profile"
run "$NB" hw plan --disks 5x3TB --disk-mbs 150 --disk-iops 120 --nic 1gbit --layout raidz1 --slog ssd --sync-io 64K --result "$P/n40l-raidz1.json" --result "$P/n40l-raidz1-slog.json"
assert_rc 0
assert_out "measured in $P/n40l-raidz1.json, layout raidz1:"
assert_out "(published figures, not measured by nasbench)"
assert_out "iscsi        seq512k-read                 102.8 MB/s      117.7 MB/s link      87%"
assert_out "nfs          seq512k-write-sync             5.2 MB/s       3.8 MB/s disks     139%"
assert_out "nfs          seq512k-write-sync (slog)      31.5 MB/s      38.1 MB/s disks      83%"

t_case "plan: a figure over 110% of its ceiling is flagged"
python3 - "$T/cached.json" <<'PY'
import json, sys
s = {"bw_bytes": {"n": 1, "median": 400e6, "mean": 400e6, "min": 400e6, "max": 400e6, "stddev": 0}}
json.dump({"schema": 1, "tool": "nasbench", "labels": {"layout": "raidz1"},
           "results": [{"target": "nfs", "workload": "seq512k-read", "status": "ok",
                        "iterations": [{"metrics": {"bw_bytes": 400e6}}], "summary": s}]}, open(sys.argv[1], "w"))
PY
run "$NB" hw plan --disks 5x3TB --disk-mbs 150 --nic 1gbit --result "$T/cached.json"
assert_rc 0
assert_out "nfs          seq512k-read                 400.0 MB/s      117.7 MB/s link     340%  cached or compressed - check the data set size"
run "$NB" hw plan --disks 5x3TB --disk-mbs 150 --nic 1gbit --result "$T/cached.json" --json
assert_rc 0
echo "$OUT" >"$T/cached-plan.json"
assert_json "$T/cached-plan.json" 'd["measured"][0]["figures"][0]["flag"] == "cached or compressed - check the data set size" and d["measured"][0]["figures"][0]["measured"]["unit"] == "B/s"'

t_case "plan: a bonnie result shows block output and input"
python3 - "$T/bonnie.json" <<'PY'
import json, sys
m = {"put_block_kps": 100000.0, "get_block_kps": 200000.0, "put_char_kps": 5.0}
s = {k: {"n": 1, "median": v, "mean": v, "min": v, "max": v, "stddev": 0} for k, v in m.items()}
json.dump({"schema": 1, "tool": "nasbench", "labels": {"layout": "raid10"},
           "results": [{"target": "local", "workload": "bonnie", "status": "ok",
                        "iterations": [{"metrics": m}], "summary": s}]}, open(sys.argv[1], "w"))
PY
run "$NB" hw plan --disks 4x1TB --disk-mbs 100 --layout raidz1 --result "$T/bonnie.json"
assert_rc 0
assert_out "measured in $T/bonnie.json, layout raid10:"
assert_out "local        bonnie put_block             102.4 MB/s     200.0 MB/s disks      51%"
assert_out "local        bonnie get_block             204.8 MB/s     400.0 MB/s disks      51%"

t_case "plan: bad input is exit 2 with a clear message"
for args in "--disks 5x3TB --layout raidz4|unknown layout 'raidz4'; did you mean 'raidz1'?" \
	    "--disks 4x3TB --layout raidz3|layout 'raidz3' needs at least 5 disks, not 4" \
	    "--disks 3x3TB --layout raid10|layout 'raid10' needs at least 4 disks, not 3" \
	    "--disks 7x3TB --layout 2xraidz2|layout '2xraidz2': 7 disks do not split into 2 equal vdevs" \
	    "--disks 5x3XB|--disks: invalid disks '5x3XB': invalid size '3XB' (use a number with K, M, G, T, KiB, GB...)" \
	    "--disks 5x3TB --price -80|--price: must be 0 or more, not '-80'" \
	    "--disks 5x3TB --reserve 100%|--reserve: expected a percentage from 0 to below 100, not '100%'" \
	    "--disks 5x3TB --nic fast|--nic: invalid link speed 'fast' (use e.g. 1gbit, 10GbE, 2.5G, 800mbit, 1gbps: bits/s; 125MB/s: bytes/s)" \
	    "--disks 5x3TB --slog floppy|--slog: unknown log device 'floppy' (use none, ssd, plp-ssd, nvme, plp-nvme or hdd, with :NNNiops and :NNNMB/s, e.g. ssd:20000iops)" \
	    "--disks 5x3TB --recordsize 100K|--recordsize: must be a power of two from 512 to 16M, not '100K'" \
	    "--disks 5x3TB --spares 5|--spares: 5 of 5 disks leaves none for the layout" \
	    "--disks 5x3TB --throttled|--throttled needs --disk-iops (the throttle)" \
	    "--price 80|--disks is required (e.g. --disks 5x3TB)" \
	    "--disks 5x3TB --result $T/none.json|--result: cannot read '$T/none.json'"; do
	run "$NB" hw plan ${args%%|*}
	assert_rc 2
	assert_err "nasbench: ${args#*|}"
	[ -z "$OUT" ] || t_fail "stdout not empty on error: $OUT"
done

t_case "profiles are nasbench results, marked published, one iteration per figure"
for f in "$P"/*.json; do
	assert_json "$f" 'd["tool"] == "nasbench" and d["schema"] == 1 and d["published"]["note"] == "published figures, not measured by nasbench" and d["published"]["source"]'
	assert_json "$f" 'all(len(r["iterations"]) == 1 and r["summary"] and all(s["n"] == 1 for s in r["summary"].values()) for r in d["results"])'
	run "$NB" hw plan --disks 5x3TB --result "$f"
	assert_rc 0
done
assert_json "$P/n40l-raidz1.json" 'sorted((r["target"], r["workload"]) for r in d["results"]) == [("iscsi","seq512k-read"),("iscsi","seq512k-write"),("nfs","seq512k-read"),("nfs","seq512k-write-sync")]'
assert_json "$P/dl380p-bare.json" 'result(d, "bonnie")["summary"]["put_block_kps"]["median"] == 343719 and d["labels"]["platform"] == "bare"'
assert_json "$P/dl380p-xen.json" 'result(d, "bonnie")["summary"]["put_block_kps"]["median"] == 217553 and d["labels"]["platform"] == "xen"'

t_case "compare reads the profiles"
if "$NB" help compare >/dev/null 2>&1; then
	# bare -> xen is the story's -37% put_block: a regression (one
	# iteration each: low confidence, so it fails with --strict)
	run "$NB" compare "$P/dl380p-bare.json" "$P/dl380p-xen.json" --strict
	assert_rc 1
	assert_out "put_block_kps"
	assert_out "-36.7%"
	run "$NB" compare "$P/n40l-raidz1.json" "$P/n40l-raidz1.json"
	assert_rc 5        # one iteration a side: low confidence, inconclusive
	assert_out "seq512k-read"
	# a user's run with targets named as ad-hoc ones are matches the profile
	run "$NB" run -q --target "iscsi=$T/dir" -w seq512k-write,seq512k-read --size 4M --runtime 200ms -i 2 -o "$T/mine.json"
	assert_rc 0
	# another box at other settings: changed-settings unless allowed
	run "$NB" compare "$P/n40l-raidz1.json" "$T/mine.json"
	assert_rc 2
	run "$NB" compare "$P/n40l-raidz1.json" "$T/mine.json" --allow-changed --allow-missing
	[ "$RC" -eq 0 ] || [ "$RC" -eq 1 ] || [ "$RC" -eq 5 ] || t_fail "compare exit $RC: $ERR"
	assert_out "iscsi"
	grep -q "only in base: iscsi" <<<"$OUT" && t_fail "iscsi rows did not match: $OUT"
else
	missing "the compare case: 'nasbench compare' is not in this build"
fi

t_done
