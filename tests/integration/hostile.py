#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""hostile.py NB A.json B.json DIR: the hostile-result corpus (docs/security.md).

Two real results (A, B: the same workloads, two configurations) are made
hostile, one string at a time: the string becomes a label's value and a
label's key, the target's and a workload's name, a warning, a reason, the
host, a disk of the box's telemetry and a metric's name.  Each pair then
goes through every reader of results: report (HTML, Markdown, charts drawn
by gnuplot), report -o - (Markdown), compare (text, Markdown, JSON, JUnit,
OpenMetrics), export (CSV, OpenMetrics), history (add, list, show, trend).
Each string's payloads would create a file in a canary directory if any
sink ran them (`touch`, $(touch), gnuplot's system()).

Then documents that are not results (bytes that are not UTF-8, NUL, NaN,
numbers past a double, wrong types) go through the same readers: refused
with the exact message and exit 2, or read with what they lack as missing;
never a crash.

Asserted for every command: no file created outside its output (the
canary directory and the command's working directory stay empty), exit
status, and each output valid for its reader: html_check.py, Python's
XML parser for JUnit, promtool for OpenMetrics, json for JSON, csv with
no cell a spreadsheet would run, Markdown tables that keep their columns,
and text with no control character, C1 or bidi override sent raw.

Prints per sink the inputs tried and the failures; exit 1 on any failure.
"""
import copy
import csv
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

NB, A_PATH, B_PATH, W = sys.argv[1:5]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HTML_CHECK = os.path.join(ROOT, "tests", "support", "html_check.py")
CANARY = os.path.join(W, "canary")
CWD = os.path.join(W, "cwd")
os.makedirs(CANARY)
os.makedirs(CWD)

tried = {}      # sink -> inputs tried
failed = {}     # sink -> failures
FAILS = []


BATCH = 4       # hostile strings a document carries at once
carried = 1     # the strings the documents being read carry


def count(sink):
    tried[sink] = tried.get(sink, 0) + carried


def fail(sink, what):
    failed[sink] = failed.get(sink, 0) + 1
    FAILS.append(f"{sink}: {what}")
    print(f"FAIL [{sink}] {what}", file=sys.stderr)


def canary(tag):
    return os.path.join(CANARY, tag)


def hostile_strings():
    """(name, string): each sink's attacks, and the unlucky user's."""
    c = canary
    return [
        ("backtick", f"a`touch {c('bt')}`"),
        ("dollar", f"b$(touch {c('ds')})"),
        ("gp-single", f"c' . system('touch {c('gs')}') . '"),
        ("gp-double", f"d\" . system(\"touch {c('gd')}\") . \""),
        ("gp-macro", f"e@x `touch {c('gm')}` EOD"),
        ("sh", f"'; touch {c('sh')}; echo '"),
        ("newline", "line1\nline2 | x | y |\n# heading"),
        ("crlf", "cr\r\nlf\r"),
        ("ansi", "\x1b[31mred\x1b[0m\x1b]0;title\x07\x1b[2J\x1b[1A"),
        ("c1", "\u009b2J csi \u0085 nel"),
        ("bidi", "\u202eevil\u202c \u2066x\u2069"),
        ("html", "<script>alert(1)</script><img src=x onerror=alert(2)>"),
        ("attr", "\" onmouseover=\"alert(1)\" x=\""),
        ("entity", "&lt;&amp;&#x3c;]]>"),
        ("markdown", "**b** _i_ [l](http://x) ![i](http://x/y.png) `c` ~s~ $m$"),
        ("csv-eq", "=HYPERLINK(\"http://x\",\"y\")"),
        ("csv-at", "@SUM(1+1)*cmd|' /C calc'!A0"),
        ("csv-plus", "+cmd|' /C calc'!A0"),
        ("csv-minus", "-2+3+cmd|' /C calc'!A0"),
        ("csv-tab", "\t=1+1"),
        ("csv-cr", "\r=1+1"),
        ("xml-forbidden", "x\x01\x02\x0b\x0c\x1f\x7fy"),
        ("xml-nonchar", "\ufffe\uffff"),
        ("om", "a\\b\"c\nd} 1\nnasbench_fake 2"),
        ("empty", ""),
        ("dunder", "__name__"),
        ("digit", "9lives"),
        ("unicode", "caf\u00e9 \u2603 \U0001F600"),
        ("path", "../../etc/passwd"),
        ("long", "L" * 5000),
        ("huge", "H" * 100000),
        ("quote", "it's \"quoted\" \\ back"),
        ("camel", "diskType NASName"),
    ]


# ---- the hostile document ----

def hostile_doc(doc, strs, side):
    """DOC with each of STRS in every place a reader shows text from."""
    d = copy.deepcopy(doc)
    every = "|".join(strs)
    d["labels"] = {"cfg": f"{side} {every}"}
    for s in strs:
        d["labels"][s + "_k"] = "v " + s
        d["labels"][s] = side + s
    tname = "t" + every
    for t in d.get("targets", []):
        t["name"] = tname
    d.setdefault("client", {})["hostname"] = "h" + every
    for i, e in enumerate(d["results"]):
        e["target"] = tname
        if i == 0:
            e["workload"] = e["workload"] + every
        e.setdefault("warnings", []).extend("w" + s for s in strs)
        e["reason"] = "r" + every
        for it in e.get("iterations", []):
            m = it.setdefault("metrics", {})
            for s in strs:
                m["m" + s] = 1.5
            tel = it.get("telemetry")
            if tel:
                for part in ("series", "summary"):
                    db = tel.get(part, {}).get("disk_busy_pct")
                    if isinstance(db, dict) and db:
                        first = next(iter(db.values()))
                        for s in strs:
                            db["d" + s] = first
    return d


def write_json(path, d):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(d, f, ensure_ascii=False)


# ---- the checks of each sink ----

BAD_TERM = re.compile("[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069"
                      "\u200e\u200f\u061c]")


def check_term(sink, what, data):
    count(sink)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail(sink, f"{what}: not UTF-8 ({e})")
        return
    m = BAD_TERM.search(text)
    if m:
        fail(sink, f"{what}: {m.group()!r} sent raw at {m.start()}: "
             f"{text[max(0, m.start() - 60):m.start() + 20]!r}")


class Dangerous(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.bad = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "img", "iframe", "object", "embed"):
            self.bad.append(f"<{tag}>")
        for k, _ in attrs:
            if k.lower().startswith("on"):
                self.bad.append(f"<{tag} {k}=>")


def check_html(what, path):
    count("html")
    r = subprocess.run([sys.executable, HTML_CHECK, path], capture_output=True, text=True)
    if r.returncode:
        fail("html", f"{what}: html_check: {r.stdout.strip()[:300]}")
    p = Dangerous()
    p.feed(open(path, encoding="utf-8").read())
    if p.bad:
        fail("html", f"{what}: {', '.join(sorted(set(p.bad)))}")


PIPE = re.compile(r"(?<!\\)\|")


def check_md(what, data):
    count("markdown")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        fail("markdown", f"{what}: not UTF-8")
        return
    m = BAD_TERM.search(text.replace("\n", " "))
    if m:
        fail("markdown", f"{what}: control {m.group()!r} at {m.start()}")
    cols = None
    for n, line in enumerate(text.split("\n"), 1):
        if not line.startswith("|"):
            cols = None
            continue
        k = len(PIPE.findall(line))
        if cols is None:
            cols = k
        elif k != cols:
            fail("markdown", f"{what}: line {n} has {k - 1} cells, its table "
                 f"{cols - 1}: {line[:120]!r}")
            return


def plain_number(c):
    return re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", c) is not None


def check_csv(what, data):
    count("csv")
    try:
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    except (UnicodeDecodeError, csv.Error) as e:
        fail("csv", f"{what}: {e}")
        return
    width = len(rows[0]) if rows else 0
    for n, row in enumerate(rows, 1):
        if len(row) != width:
            fail("csv", f"{what}: row {n} has {len(row)} cells, the header {width}")
            return
        for c in row:
            t = c.lstrip(" ")
            if t and t[0] in "=+-@\t\r\n" and not plain_number(c):
                fail("csv", f"{what}: row {n}: a cell a spreadsheet runs: {c[:80]!r}")
                return


def check_promtool(what, data):
    count("openmetrics")
    r = subprocess.run(["promtool", "check", "metrics"], input=data, capture_output=True)
    if r.returncode:
        fail("openmetrics", f"{what}: promtool: {r.stdout.decode()[:300]}"
             f"{r.stderr.decode()[:300]}")


def check_junit(what, data):
    count("junit")
    try:
        root = ET.fromstring(data)
        if root.tag != "testsuites":
            fail("junit", f"{what}: root <{root.tag}>")
    except ET.ParseError as e:
        fail("junit", f"{what}: {e}")


def check_json(what, data):
    count("json")
    try:
        json.loads(data)
    except ValueError as e:
        fail("json", f"{what}: {e}")


def no_stray(what):
    """Nothing in the canary or the working directory; fail and clear."""
    for d in (CANARY, CWD):
        left = os.listdir(d)
        if left:
            fail("files", f"{what}: {d} holds {left}")
            for f in left:
                p = os.path.join(d, f)
                if os.path.isdir(p):
                    subprocess.run(["rm", "-rf", p])
                else:
                    os.unlink(p)


def nb(args, what, rcs=(0,), term=True):
    """Run nasbench ARGS in CWD; check its exit status, its stderr (and
    stdout when TERM) as a terminal shows them, and that it left nothing."""
    r = subprocess.run([NB] + args, cwd=CWD, capture_output=True, timeout=300)
    count("files")
    if r.returncode not in rcs:
        fail("exit", f"{what}: exit status {r.returncode}, expected {rcs}: "
             f"{r.stderr.decode('utf-8', 'replace')[:400]}")
    count("exit")
    check_term("terminal", f"{what} (stderr)", r.stderr)
    if term:
        check_term("terminal", f"{what} (stdout)", r.stdout)
    no_stray(what)
    return r


# ---- the readers, one hostile pair at a time ----

def readers(name, a, b, gp=True):
    tag = name
    rep = os.path.join(W, "rep-" + tag)
    r = nb(["report", a, b, "-o", rep], f"{tag}: report")
    if r.returncode == 0:
        check_html(f"{tag}: report.html", os.path.join(rep, "report.html"))
        check_md(f"{tag}: report.md", open(os.path.join(rep, "report.md"), "rb").read())
        if gp:
            count("gnuplot")
            if not any(f.endswith(".svg") for f in os.listdir(rep)):
                fail("gnuplot", f"{tag}: no chart drawn: {r.stdout.decode()[:200]}")
        subprocess.run(["rm", "-rf", rep])
    r = nb(["report", a, b, "-o", "-"], f"{tag}: report -o -", term=False)
    check_md(f"{tag}: report -o -", r.stdout)
    # two single runs: the noise is not measured (exit 5), or a change (1)
    r = nb(["compare", a, b, "-r", "off"], f"{tag}: compare", rcs=(0, 1, 5))
    r = nb(["compare", a, b, "--allow-changed", "--color", "always"], f"{tag}: compare --color",
           rcs=(0, 1, 5), term=False)
    # its own colours only: every ESC is one of nasbench's SGR sequences
    count("terminal")
    stripped = re.sub(rb"\x1b\[[0-9;]*m", b"", r.stdout)
    if b"\x1b" in stripped or BAD_TERM.search(stripped.decode("utf-8", "replace")):
        fail("terminal", f"{tag}: compare --color: a raw control beside the colours")
    for fmt, check in (("markdown", check_md), ("json", check_json),
                       ("junit", check_junit), ("openmetrics", check_promtool)):
        r = nb(["compare", a, b, "--allow-changed", "-f", fmt], f"{tag}: compare -f {fmt}",
               rcs=(0, 1, 5), term=False)
        check(f"{tag}: compare -f {fmt}", r.stdout)
    r = nb(["export", "--csv", a, b], f"{tag}: export --csv", term=False)
    check_csv(f"{tag}: export --csv", r.stdout)
    r = nb(["export", "--openmetrics", a, b], f"{tag}: export --openmetrics",
           rcs=(0, 2), term=False)
    if r.returncode == 0:
        check_promtool(f"{tag}: export --openmetrics", r.stdout)
    elif b"give the same series" not in r.stderr:
        fail("exit", f"{tag}: export --openmetrics refused: {r.stderr[:300]}")
    db = os.path.join(W, f"h-{tag}.db")
    nb(["history", "add", "--db", db, a, b], f"{tag}: history add")
    nb(["history", "list", "--db", db], f"{tag}: history list")
    nb(["history", "show", "--db", db, "1"], f"{tag}: history show")
    if gp:
        tr = os.path.join(W, "trend-" + tag)
        r = nb(["history", "trend", "--db", db, "-o", tr], f"{tag}: history trend")
        if r.returncode == 0:
            check_html(f"{tag}: trend.html", os.path.join(tr, "trend.html"))
            count("gnuplot")
        subprocess.run(["rm", "-rf", tr])
    if os.path.exists(db):
        os.unlink(db)


def batches():
    h = hostile_strings()
    for i in range(0, len(h), BATCH):
        yield "+".join(n for n, _ in h[i:i + BATCH]), [s for _, s in h[i:i + BATCH]]


def corpus(base_a, base_b):
    global carried
    for name, strs in batches():
        a = os.path.join(W, f"a-{name}.json")
        b = os.path.join(W, f"b-{name}.json")
        write_json(a, hostile_doc(base_a, strs, "a"))
        write_json(b, hostile_doc(base_b, strs, "b"))
        carried = len(strs)
        readers(name, a, b)
        carried = 1
        os.unlink(a)
        os.unlink(b)


FIO_JSON = os.path.join(ROOT, "tests", "fuzz", "corpus", "import", "fio.json")
BONNIE_CSV = os.path.join(ROOT, "tests", "fuzz", "corpus", "import", "bonnie.csv")


def imports():
    """fio's job names and bonnie++'s fields, hostile, imported and read;
    what is not UTF-8 refused with its file and line."""
    global carried
    fio = json.load(open(FIO_JSON, encoding="utf-8"))
    for name, strs in batches():
        f = copy.deepcopy(fio)
        for job in f["jobs"]:
            job["jobname"] = job["job options"]["name"] = "j" + "|".join(strs)
        src = os.path.join(W, f"fio-{name}.json")
        write_json(src, f)
        carried = len(strs)
        out = {}
        for side in ("a", "b"):
            out[side] = os.path.join(W, f"i{side}-{name}.json")
            nb(["import", src, "-l", f"cfg={side}", "-o", out[side]], f"{name}: import")
        r = nb(["compare", out["a"], out["b"], "-r", "off"], f"{name}: compare (import)",
               rcs=(0, 1, 5))
        r = nb(["report", out["a"], out["b"], "-o", "-"], f"{name}: report -o - (import)",
               term=False)
        check_md(f"{name}: report -o - (import)", r.stdout)
        r = nb(["export", "--csv", out["a"], out["b"]], f"{name}: export --csv (import)",
               term=False)
        check_csv(f"{name}: export --csv (import)", r.stdout)
        r = nb(["export", "--openmetrics", out["a"], out["b"]],
               f"{name}: export --openmetrics (import)", term=False)
        check_promtool(f"{name}: export --openmetrics (import)", r.stdout)
        carried = 1
        for x in (src, out["a"], out["b"]):
            os.unlink(x)
    line = open(BONNIE_CSV, encoding="utf-8").read().rstrip("\n")
    bad = os.path.join(W, "bonnie-bad.csv")
    with open(bad, "wb") as f:
        f.write(line.replace(",vm,", ",v\xe9m,", 1).encode("latin-1"))
    r = nb(["import", bad, "-o", os.path.join(W, "x.json")], "bonnie not UTF-8", rcs=(2,))
    count("refused")
    want = f"nasbench: {bad}:1: not UTF-8 text (byte 0xe9 at byte 13)\n"
    if r.stderr.decode("utf-8", "replace") != want:
        fail("refused", f"bonnie not UTF-8: {r.stderr!r}, wanted {want!r}")
    if os.path.exists(os.path.join(W, "x.json")):
        fail("files", "bonnie not UTF-8: a result was written")


# ---- documents that are not results ----

def refusals(base_a, a_path):
    """Each not-a-result: every reader refuses it, exit 2, the message exact
    ({p} the file, {c} a column).  'history add' also takes fio's and
    bonnie++'s output: what it says of a file that is neither is its own."""
    good = json.dumps(base_a, ensure_ascii=False).encode()
    schema = re.compile(rb'"schema": \d+')

    def with_schema(v):
        return schema.sub(b'"schema": ' + v, good, count=1)
    not_json = "'{p}' is not valid JSON (line 1, column {c}: "
    cases = [
        # (name, bytes, the message after "nasbench: ", history's)
        ("not-utf8", good.replace(b'"cfg": "', b'"cfg": "caf\xe9 ', 1),
         not_json + "unable to decode byte 0xe9 near '\"caf')",
         "{p}:1: not valid fio JSON: unable to decode byte 0xe9 near '\"caf'"),
        ("nul", good.replace(b'"cfg": "', b'"cfg": "x\\u0000', 1),
         not_json + "\\u0000 is not allowed without JSON_ALLOW_NUL)",
         "{p}:1: not valid fio JSON: \\u0000 is not allowed without JSON_ALLOW_NUL"),
        ("nan", with_schema(b"NaN"), not_json + "invalid token near 'NaN')",
         "{p}:1: not valid fio JSON: invalid token near 'NaN'"),
        ("real-overflow", with_schema(b"1e400"),
         not_json + "real number overflow near '1e400')",
         "{p}:1: not valid fio JSON: real number overflow near '1e400'"),
        ("int-overflow", with_schema(b"123456789012345678901234567890"),
         not_json + "too big integer)", "{p}:1: not valid fio JSON: too big integer"),
        ("ansi-in-json-error", b'{"a": \x1b[2J}', not_json + "invalid token near '\\x1b')",
         "{p}:1: not valid fio JSON: invalid token near '\\x1b'"),
        ("not-a-result", b'{"tool": "fio"}', "'{p}' is not a nasbench result",
         "'{p}': JSON, but not fio output (no \"jobs\" or \"client_stats\")"),
        ("array", b'[1, 2]', "'{p}' is not a nasbench result",
         "'{p}': unknown format (expected fio JSON output or bonnie++ CSV)"),
    ]
    for name, data, want, hist in cases:
        p = os.path.join(W, f"bad-{name}.json")
        with open(p, "wb") as f:
            f.write(data)
        refused_by_all(name, p, a_path, want, hist or want)
        os.unlink(p)


def refused_by_all(name, p, a_path, want, hist):
    db = os.path.join(W, "h-bad.db")
    for args in (["report", p, a_path, "-o", os.path.join(W, "rep-bad")],
                 ["compare", a_path, p], ["compare", p, a_path],
                 ["export", "--csv", p], ["export", "--openmetrics", p],
                 ["history", "add", "--db", db, p]):
        r = nb(args, f"{name}: {' '.join(args[:2])}", rcs=(2,), term=False)
        count("refused")
        err = r.stderr.decode("utf-8", "replace").rstrip("\n")
        w = hist if args[0] == "history" else want
        pat = re.escape("nasbench: " + w.replace("{p}", "\0P").replace("{c}", "\0C"))
        pat = pat.replace(re.escape("\0P"), re.escape(p)).replace(re.escape("\0C"), r"\d+")
        if not re.fullmatch(pat, err):
            fail("refused", f"{name}: {args[0]}: stderr {err[:300]!r}, wanted {w!r}")
    if os.path.exists(db):
        os.unlink(db)


def wrong_types(base_a, base_b):
    """Keys of the wrong type: refused with the key's path (exit 2), or,
    where nothing reads them as that type, read; never a crash, every
    output still valid."""
    r0, it0 = 'results[0]', 'results[0].iterations[0]'
    muts = [
        ("labels-number", lambda d: d.__setitem__("labels", 5),
         "labels is a number, not an object"),
        ("label-value-number", lambda d: d["labels"].__setitem__("cfg", 5),
         "labels.cfg is a number, not a string"),
        ("label-value-null", lambda d: d["labels"].__setitem__("cfg", None),
         "labels.cfg is null, not a string"),
        ("targets-string", lambda d: d.__setitem__("targets", "x"),
         "targets is a string, not an array"),
        ("target-number", lambda d: d["results"][0].__setitem__("target", 7),
         f"{r0}.target is a number, not a string"),
        ("workload-null", lambda d: d["results"][0].__setitem__("workload", None),
         f"{r0}.workload is null, not a string"),
        ("result-number", lambda d: d["results"].append(1),
         "results[{n}] is a number, not an object"),
        ("iterations-string", lambda d: d["results"][0].__setitem__("iterations", "x"),
         f"{r0}.iterations is a string, not an array"),
        ("iteration-number", lambda d: d["results"][0]["iterations"].append(3),
         f"{r0}.iterations[{{i}}] is a number, not an object"),
        ("metrics-array", lambda d: d["results"][0]["iterations"][0].__setitem__("metrics", [1]),
         f"{it0}.metrics is an array, not an object"),
        ("metric-string", lambda d: d["results"][0]["iterations"][0]["metrics"].__setitem__("iops", "fast"),
         f"{it0}.metrics.iops is a string, not a number"),
        ("summary-array", lambda d: d["results"][0].__setitem__("summary", []),
         f"{r0}.summary is an array, not an object"),
        ("summary-stat-string", lambda d: d["results"][0]["summary"]["iops"].__setitem__("median", "x"),
         f"{r0}.summary.iops.median is a string, not a number"),
        ("warnings-object", lambda d: d["results"][0].__setitem__("warnings", {"a": 1}),
         f"{r0}.warnings is an object, not an array"),
        ("warning-number", lambda d: d["results"][0]["warnings"].append(5),
         f"{r0}.warnings[{{w}}] is a number, not a string"),
        ("status-number", lambda d: d["results"][0].__setitem__("status", 0),
         f"{r0}.status is a number, not a string"),
        ("spec-string", lambda d: d["results"][0].__setitem__("spec", "x"),
         f"{r0}.spec is a string, not an object"),
        ("telemetry-string", lambda d: d["results"][0]["iterations"][0].__setitem__("telemetry", "x"),
         f"{it0}.telemetry is a string, not an object"),
        ("disk-busy-number",
         lambda d: d["results"][0]["iterations"][0]["telemetry"]["series"].__setitem__("disk_busy_pct", 3),
         f"{it0}.telemetry.series.disk_busy_pct is a number, not an object"),
        ("client-hostname-number", lambda d: d["client"].__setitem__("hostname", 1),
         "client.hostname is a number, not a string"),
        # read: what nothing takes as another type
        ("workload-missing", lambda d: d["results"][0].pop("workload"), None),
        ("started-garbage", lambda d: d.__setitem__("started", "\x1b[2J yesterday"), None),
        ("huge-numbers", lambda d: d["results"][0]["iterations"][0]["metrics"].update(
            {"iops": 1.7e308, "bw_bytes": -1.7e308, "lat_p99_us": 5e-324}), None),
        ("huge-summary", lambda d: d["results"][0]["summary"]["iops"].update(
            {"median": 1.7e308, "min": -1.7e308, "max": 1.7e308, "mean": 1e308,
             "stddev": 1e308}), None),
        ("zero-everything", lambda d: [it["metrics"].update({k: 0 for k in it["metrics"]})
                                       for it in d["results"][0]["iterations"]], None),
        ("negative-everything", lambda d: [it["metrics"].update({k: -1 for k in it["metrics"]})
                                           for it in d["results"][0]["iterations"]], None),
    ]
    for name, fn, want in muts:
        da, db = copy.deepcopy(base_a), copy.deepcopy(base_b)
        fn(da)
        fn(db)
        a = os.path.join(W, f"a-{name}.json")
        b = os.path.join(W, f"b-{name}.json")
        write_json(a, da)
        write_json(b, db)
        if want:
            e0 = da["results"][0] if isinstance(da["results"][0], dict) else {}
            w = want.format(n=len(da["results"]) - 1,
                            i=len(e0.get("iterations", [])) - 1,
                            w=len(e0.get("warnings", [])) - 1)
            msg = "'{p}' is not a nasbench result: " + w
            refused_by_all(name, a, A_PATH, msg, msg)
        else:
            wrong_readers(name, a, b)
        os.unlink(a)
        os.unlink(b)


def wrong_readers(name, a, b):
    any_rc = (0, 1, 5)
    rep = os.path.join(W, "rep-" + name)
    r = nb(["report", a, b, "-o", rep], f"{name}: report", rcs=any_rc)
    if r.returncode == 0:
        check_html(f"{name}: report.html", os.path.join(rep, "report.html"))
        check_md(f"{name}: report.md", open(os.path.join(rep, "report.md"), "rb").read())
    subprocess.run(["rm", "-rf", rep])
    nb(["compare", a, b, "--allow-changed"], f"{name}: compare", rcs=any_rc)
    for fmt, check in (("markdown", check_md), ("json", check_json),
                       ("junit", check_junit), ("openmetrics", check_promtool)):
        r = nb(["compare", a, b, "--allow-changed", "-f", fmt], f"{name}: compare -f {fmt}",
               rcs=any_rc, term=False)
        check(f"{name}: compare -f {fmt}", r.stdout)
    r = nb(["export", "--csv", a, b], f"{name}: export --csv", term=False)
    check_csv(f"{name}: export --csv", r.stdout)
    r = nb(["export", "--openmetrics", a, b], f"{name}: export --openmetrics", term=False)
    check_promtool(f"{name}: export --openmetrics", r.stdout)
    db = os.path.join(W, f"h-{name}.db")
    nb(["history", "add", "--db", db, a, b], f"{name}: history add")
    nb(["history", "show", "--db", db, "1"], f"{name}: history show")
    os.unlink(db)


def main():
    base_a = json.load(open(A_PATH, encoding="utf-8"))
    base_b = json.load(open(B_PATH, encoding="utf-8"))
    only = os.environ.get("HOSTILE_ONLY", "corpus,refusals,wrong,import").split(",")
    if "corpus" in only:
        corpus(base_a, base_b)
    if "refusals" in only:
        refusals(base_a, A_PATH)
    if "wrong" in only:
        wrong_types(base_a, base_b)
    if "import" in only:
        imports()
    n = len(hostile_strings())
    print(f"hostile strings: {n}, {BATCH} a document; inputs: the strings a "
          "sink was handed (documents x strings each carries)")
    print(f"{'sink':<12} {'inputs':>7} {'failed':>7}")
    for sink in sorted(tried):
        print(f"{sink:<12} {tried[sink]:>7} {failed.get(sink, 0):>7}")
    if FAILS:
        print(f"{len(FAILS)} failures", file=sys.stderr)
        sys.exit(1)


main()
