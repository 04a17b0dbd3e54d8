#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""html_render.py REPORT.html SHOT.png: render the page in headless Chromium
(Debian's chromium) at 1280x800 as a person first sees it, save that first
screen as SHOT.png, and print what the tests check, as JSON:

  summary_top, summary_bottom   the #summary element's box (CSS px from the
                                top of the page; null when there is none)
  decisions                     each decision sentence (#summary
                                ul.decisions li): [text, top, bottom]
  page_width                    the page's scroll width (px)
  grid_width                    the widest table.grid (px; 0 when none)
  details, details_open         <details> elements, and how many are open
  charts                        <figure class="chart"> elements
  svg_texts, min_svg_font_px    text elements drawn in the charts, and the
                                smallest of their font sizes as rendered
                                (the font size times the SVG's scale), with
                                every <details> opened to measure them
  labels_outside                the charts' texts whose box (as Chromium
                                lays the glyphs out) leaves their picture:
                                [chart id, text, [x0, y0, x1, y1], [w, h]]
  keys, colours                 per bar chart (id chart-bars_*), the names
                                in its key, in order, and each one's fill

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
  m.decisions = [];
  document.querySelectorAll('#summary ul.decisions > li').forEach(function (li) {
    var b = li.getBoundingClientRect();
    m.decisions.push([li.textContent, b.top + scrollY, b.bottom + scrollY]); });
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
  m.labels_outside = []; m.keys = {};
  document.querySelectorAll('figure.chart svg').forEach(function (svg) {
    var id = svg.closest('figure').id, vb = svg.viewBox.baseVal;
    var w = vb && vb.width ? vb.width : svg.width.baseVal.value;
    var h = vb && vb.height ? vb.height : svg.height.baseVal.value;
    svg.querySelectorAll('text').forEach(function (t) {
      var s = t.textContent.trim();
      if (!s) return;
      var b = t.getBBox(), c = t.getCTM(), r = svg.createSVGRect();
      var p = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
               [b.x + b.width, b.y + b.height]].map(function (q) {
        var pt = svg.createSVGPoint(); pt.x = q[0]; pt.y = q[1];
        var m2 = svg.getCTM().inverse().multiply(c);
        return pt.matrixTransform(m2); });
      var x0 = Math.min.apply(null, p.map(function (q) { return q.x; }));
      var x1 = Math.max.apply(null, p.map(function (q) { return q.x; }));
      var y0 = Math.min.apply(null, p.map(function (q) { return q.y; }));
      var y1 = Math.max.apply(null, p.map(function (q) { return q.y; }));
      if (x0 < -0.5 || y0 < -0.5 || x1 > w + 0.5 || y1 > h + 0.5)
        m.labels_outside.push([id, s, [x0, y0, x1, y1].map(Math.round), [w, h]]);
    });
    if (id.indexOf('chart-bars_') === 0) {
      var k = [];
      var cs = [];
      svg.querySelectorAll('g[id*="gnuplot_plot_"]').forEach(function (g) {
        var t = g.querySelector(':scope > title');
        if (!t) return;
        k.push(t.textContent);
        var f = null;
        g.querySelectorAll('polygon, path, rect').forEach(function (e) {
          var c = e.getAttribute('fill');
          if (!f && c && c !== 'none' && c !== 'white' && c !== 'black' && c !== 'currentColor') f = c; });
        cs.push(f); });
      m.keys[id] = k; m.colours = m.colours || {}; m.colours[id] = cs;
    }
  });
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
