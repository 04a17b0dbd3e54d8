#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""result_keys.py - the key paths of nasbench result files, against
docs/result.md (tests/integration/test_result_doc.sh).

  result_keys.py paths RESULT.json...       every path the results hold
  result_keys.py check DOC.md RESULT.json...
      exit 1, naming them, when a result holds a path the document does not
      name, or the document names a path no result holds

A path names objects by their keys and arrays by "[]":
results[].iterations[].metrics.  An object whose keys are data (a metric's
name, a label, a library, a VM) is a map: its keys are written "*"
(results[].summary.*.median).  The document names its paths as the first
cell of a table row, in backquotes: | `results[].status` | ... |; a map
is a row whose path ends in ".*"; a row that says "(lab)" or "(lab: why)"
is a key only a run on the ZFS lab writes (the failure walk's, the ARC's
figures), which the local runs need not hold, and so is a row that says
"(import" or "(published" (an import's, a published profile's), or
"(test_NAME.sh" (a key only another integration file's runs write:
"(test_fio.sh: fio --clients)"; that file's results validate against
the schema made from the row, ci/validate-results); a row that says "the
shape of `OTHER`" is an object whose keys are OTHER's (the box's
inventory is the client's): its paths are checked as OTHER's.  An
object or array row that names no key below it is free-form (fio's own
record of its run): what it holds is not checked, as the schema does not.
"""
import json
import os
import re
import sys

# Objects whose keys are data, not names the code chooses.
MAPS = {
    "libs", "labels", "results[].iterations[].metrics", "results[].summary",
    "results[].iterations[].cross_check.metrics",
    "results[].iterations[].telemetry.series.disk_busy_pct",
}


def walk(v, path, out, maps, alias=None):
    for a, b in (alias or {}).items():
        if path == a or path.startswith(a + ".") or path.startswith(a + "["):
            out.add(a)
            path = b + path[len(a):]
            break
    out.add(path)
    if isinstance(v, dict):
        is_map = path in maps
        for k, sub in v.items():
            name = "*" if is_map else f'["{k}"]' if "." in k else k
            walk(sub, f"{path}.{name}" if path else name, out, maps, alias)
    elif isinstance(v, list):
        for sub in v:
            walk(sub, path + "[]", out, maps, alias)


def doc_paths(doc):
    """The paths DOC names, the maps among them, and those the local runs
    need not write (a row that says "(lab)", "(import", "(published" or
    "(test_NAME.sh")."""
    paths, maps, lab, alias, files, types = set(), set(), set(), {}, set(), {}
    for line in open(doc, encoding="utf-8"):
        m = re.match(r"\|\s*`([^`]+)`\s*\|", line)
        if not m:
            continue
        p = m.group(1)
        paths.add(p)
        types[p] = set(line.split("|")[2].strip().split("/"))
        if re.search(r"\((lab|import|published|test_\w+\.sh)\b", line):
            lab.add(p)
        files.update(re.findall(r"\((test_\w+\.sh)\b", line))
        a = re.search(r"the shape of `([^`]+)`", line)
        if a:
            alias[p] = a.group(1)
        # every prefix of a documented path is a path too
        parts = re.split(r"\.(?![^\[]*\])", p)
        for i in range(1, len(parts)):
            paths.add(".".join(parts[:i]))
        while p.endswith("[]"):
            p = p[:-2]
            paths.add(p)
        if p.endswith(".*"):
            maps.add(p[:-2])
    free = {p for p, t in types.items() if t & {"object", "array"} and
            not any(q != p and (q.startswith(p + ".") or q.startswith(p + "["))
                    for q in types)}
    return expand(paths), maps, expand(lab), alias, files, expand(free)


def expand(paths):
    """The paths, each without its trailing []s (an array is named by its
    key: a row says what its elements are)."""
    out = set()
    for p in paths:
        while p.endswith("[]"):
            p = p[:-2]
        out.add(p)
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if sys.argv[1] == "paths":
        found = set()
        for f in sys.argv[2:]:
            walk(json.load(open(f)), "", found, MAPS)
        print("\n".join(sorted(p for p in found if p)))
        return 0
    documented, maps, lab, alias, files, free = doc_paths(sys.argv[2])
    here = os.path.dirname(os.path.abspath(__file__))
    gone = sorted(f for f in files if not os.path.isfile(os.path.join(here, f)))
    found, where = set(), {}
    for f in sys.argv[3:]:
        seen = set()
        walk(json.load(open(f)), "", seen, maps, alias)
        for p in expand(seen):
            where.setdefault(p, f)
        found |= seen
    found.discard("")
    found = {p for p in expand(found) if not any(
        p.startswith(f + ".") or p.startswith(f + "[") for f in free)}
    undocumented = sorted(found - documented)
    unseen = sorted(documented - found - lab)
    for p in undocumented:
        print(f"result key not in docs/result.md: {p} ({where.get(p, '?')})")
    for p in unseen:
        print(f"docs/result.md names a key no result holds: {p}")
    for f in gone:
        print(f"docs/result.md marks a key (tests/integration/{f}), a file "
              "that is not there")
    print(f"{len(found)} paths in {len(sys.argv) - 3} results, "
          f"{len(documented)} in the document")
    return 1 if undocumented or unseen or gone else 0


if __name__ == "__main__":
    sys.exit(main())
