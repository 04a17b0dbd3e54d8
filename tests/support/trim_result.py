#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""trim_result.py IN.json OUT.json: a real run's result cut down to what the
decision summary reads (decision/summary*.c, decide*.c), for a fixture under
tests/fixtures/: the labels, each target's name, runner and URL, and per entry
its status, state, spec, warnings, summary, verdicts, steady state,
crash verdict and each iteration's figures, capacity and replay answers; a
failure walk's and an acceptance's objects whole but for their series.  The
figures are the run's own, untouched."""
import json
import sys

ENTRY = ("target", "workload", "status", "reason", "state", "warnings", "summary",
         "box_verdicts", "steady", "crash_verdict")
ITER = ("metrics", "steady", "box_state", "status")
SWEEP = ("objective", "objective_text")
REPLAY = ("headroom", "years", "growth", "growth_from", "found", "lower_bound",
          "interpolated", "objective", "text", "population", "today_iops")


def entry(e):
    out = {k: e[k] for k in ENTRY if k in e}
    if "spec" in e:
        out["spec"] = e["spec"]
    its = []
    for it in e.get("iterations", []):
        o = {k: it[k] for k in ITER if k in it}
        if "sweep" in it:
            sw = it["sweep"]
            o["sweep"] = {k: sw[k] for k in SWEEP if k in sw}
            if "capacity" in sw:
                o["sweep"]["capacity"] = sw["capacity"]
        if "replay" in it:
            o["replay"] = {k: it["replay"][k] for k in REPLAY if k in it["replay"]}
        its.append(o)
    out["iterations"] = its
    return out


def main():
    d = json.load(open(sys.argv[1]))
    out = {k: d[k] for k in ("schema", "tool", "complete", "labels") if k in d}
    out["targets"] = [{k: t[k] for k in ("name", "runner", "url") if k in t}
                      for t in d.get("targets", [])]
    out["results"] = [entry(e) for e in d.get("results", [])]
    for k in ("accept", "durability"):
        if k in d:
            out[k] = d[k]
    if "failure" in d:
        out["failure"] = {k: v for k, v in d["failure"].items()
                          if k not in ("timeline", "counters")}
    with open(sys.argv[2], "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
