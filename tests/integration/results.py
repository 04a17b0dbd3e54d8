# SPDX-License-Identifier: GPL-2.0-or-later
"""The entries of a result document, selected by what they are.

A suite that gains a workload moves every entry after it; a test that says
d["results"][2] then checks the wrong one.  result(d, WORKLOAD[, TARGET])
names the entry instead, and fails when there is not exactly one.
"""


def result(d, workload, target=None):
    """The one entry of D["results"] for WORKLOAD (on TARGET, when given)."""
    found = [e for e in d["results"]
             if e.get("workload") == workload
             and (target is None or e.get("target") == target)]
    if len(found) != 1:
        want = workload if target is None else workload + "@" + target
        have = ", ".join("%s@%s" % (e.get("workload"), e.get("target"))
                         for e in d["results"])
        raise LookupError("%d results for %s; the document has: %s"
                          % (len(found), want, have or "none"))
    return found[0]
