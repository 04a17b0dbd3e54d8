#!/usr/bin/env python3
"""html_render.py REPORT.html SHOT.png: render the page in headless Chromium
(Debian's chromium) at 1280x800 as a person first sees it, save that first
screen as SHOT.png, and print what the tests check, as JSON:

  summary_top, summary_bottom   the #summary element's box (CSS px from the
                                top of the page; null when there is none)
  page_width                    the page's scroll width (px)
  grid_width                    the widest table.grid (px; 0 when none)
  details, details_open         <details> elements, and how many are open
  charts                        <figure class="chart"> elements
  svg_texts, min_svg_font_px    text elements drawn in the charts, and the
                                smallest of their font sizes as rendered
                                (the font size times the SVG's scale), with
                                every <details> opened to measure them

The page itself has no script (html_check.py refuses one): the measuring
script goes into a copy beside it, which is removed afterwards.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars",
         "--window-size=1280,800"]

MEASURE = """<script>
(function () {
  var m = {}, s = document.getElementById('summary');
  if (s) { var r = s.getBoundingClientRect();
           m.summary_top = r.top + scrollY; m.summary_bottom = r.bottom + scrollY; }
  else { m.summary_top = m.summary_bottom = null; }
  m.page_width = document.documentElement.scrollWidth;
  m.grid_width = 0;
  document.querySelectorAll('table.grid').forEach(function (t) {
    m.grid_width = Math.max(m.grid_width, t.getBoundingClientRect().width); });
  var d = document.querySelectorAll('details');
  m.details = d.length;
  m.details_open = Array.prototype.filter.call(d, function (x) { return x.open; }).length;
  m.charts = document.querySelectorAll('figure.chart').length;
  d.forEach(function (x) { x.open = true; });
  var n = 0, min = 1e9;
  document.querySelectorAll('figure.chart svg text').forEach(function (t) {
    if (!t.textContent.trim()) return;
    var ctm = t.getScreenCTM();
    if (!ctm) return;
    var px = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(ctm.a * ctm.a + ctm.b * ctm.b);
    n++; if (px < min) min = px; });
  m.svg_texts = n; m.min_svg_font_px = n ? min : null;
  document.body.setAttribute('data-measured', JSON.stringify(m));
})();
</script>"""


def chromium(args, profile):
    return subprocess.run(["chromium"] + FLAGS + ["--user-data-dir=" + profile] + args,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          timeout=120, check=False).stdout.decode("utf-8", "replace")


def main():
    page, shot = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    html = open(page, encoding="utf-8").read()
    fd, copy = tempfile.mkstemp(suffix=".html", dir=os.path.dirname(page))
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(html.replace("</body>", MEASURE + "</body>"))
    try:
        with tempfile.TemporaryDirectory() as prof:
            dom = chromium(["--dump-dom", "file://" + copy], prof)
        with tempfile.TemporaryDirectory() as prof:
            chromium(["--screenshot=" + shot, "file://" + page], prof)
    finally:
        os.unlink(copy)
    m = re.search(r'data-measured="([^"]*)"', dom)
    if not m:
        print("html_render: chromium gave no measurement", file=sys.stderr)
        return 1
    raw = m.group(1).replace("&quot;", '"').replace("&amp;", "&")
    print(json.dumps(json.loads(raw)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
