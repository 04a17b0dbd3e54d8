#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""dashboard_check.py DASHBOARD.json METRICS.prom... - every query of a
Grafana dashboard reads metrics that nasbench writes.

Each PromQL expression of the dashboard (panels' targets, templating
queries) is read for metric names (nasbench_*), the label names of their
selectors ({name=~"..."}), of 'by (...)' clauses and of label_values(...).
Every metric must be a family of one of the METRICS files (what 'nasbench
export --openmetrics' and 'compare --format openmetrics' wrote), and every
label name one that family's samples carry.  Prints each problem; exit
status 1 when there is one, 0 with a count of the queries checked."""
import json
import re
import sys

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="')


def families(paths):
    fam = {}
    for p in paths:
        for line in open(p):
            m = SAMPLE.match(line)
            if m:
                fam.setdefault(m.group(1), set()).update(LABEL.findall(m.group(2) or ""))
    return fam


def queries(dash):
    for p in dash.get("panels", []):
        for t in p.get("targets", []):
            yield "panel '%s'" % p.get("title"), t.get("expr", "")
    for v in dash.get("templating", {}).get("list", []):
        q = v.get("query")
        if isinstance(q, dict):
            q = q.get("query")
        if v.get("type") == "query":
            yield "variable '%s'" % v.get("name"), q or ""


SEL = re.compile(r'(nasbench_[a-zA-Z0-9_]*)\s*(\{[^}]*\})?')
BY = re.compile(r'\b(?:by|without)\s*\(([^)]*)\)')
LV = re.compile(r'label_values\(\s*(nasbench_[a-zA-Z0-9_]*)[^,]*,\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\)')
MATCHER = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)')


def main():
    dash = json.load(open(sys.argv[1]))
    fam = families(sys.argv[2:])
    bad, n = [], 0
    for where, q in queries(dash):
        n += 1
        used = []
        for m in SEL.finditer(q):
            name, sel = m.group(1), m.group(2) or ""
            if name not in fam:
                bad.append("%s: no metric %s in the export" % (where, name))
                continue
            used.append(name)
            for lab in MATCHER.findall(sel):
                if lab not in fam[name]:
                    bad.append("%s: %s has no label %s" % (where, name, lab))
        for m in BY.finditer(q):
            for lab in [x.strip() for x in m.group(1).split(",") if x.strip()]:
                if not any(lab in fam[u] for u in used):
                    bad.append("%s: no metric of '%s' has the label %s" % (where, q, lab))
        for m in LV.finditer(q):
            if m.group(1) in fam and m.group(2) not in fam[m.group(1)]:
                bad.append("%s: %s has no label %s" % (where, m.group(1), m.group(2)))
        if not used:
            bad.append("%s: the query '%s' reads no nasbench metric" % (where, q))
    for b in bad:
        print(b)
    if not bad:
        print("%d queries, every metric and label in the export" % n)
    return 1 if bad else 0


sys.exit(main())
