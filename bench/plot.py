#!/usr/bin/env python3
"""plot.py REPORT.md OUT.svg [HEADING]: the scaling table under HEADING
(default "Scaling") of a bench report, drawn as an SVG line chart, with
nothing but the standard library.

The table's first column is the size (rooms); every column whose header
ends in " s" is a series, its cells "median (min CPU)" as run.sh writes
them: the chart shows the min CPU time, the one the doubling ratios use.
Both axes are logarithmic, so a linear step has slope 1; a dotted line of
slope 1 from each series' first point shows where linear would be.
Exits 1 (writing nothing) when the report has no such table."""
import math
import re
import sys

W, H, L, R, T, B = 640, 400, 70, 150, 40, 50
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def table(text, heading):
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip() == "## " + heading:
            block = []
            for l in lines[i + 1:]:
                if l.startswith("## "):
                    break
                if l.startswith("|"):
                    block.append([c.strip() for c in l.strip().strip("|").split("|")])
                elif block:
                    break
            return block if len(block) > 2 else None
    return None


def number(cell):
    m = re.match(r"^([0-9.]+)(?: \(([0-9.]+)\))?$", cell)
    if not m:
        return None
    return float(m.group(2) or m.group(1))


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main():
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    text = open(sys.argv[1], encoding="utf-8").read()
    heading = sys.argv[3] if len(sys.argv) > 3 else "Scaling"
    rows = table(text, heading)
    if not rows:
        sys.stderr.write("plot.py: no table under '## %s' in %s\n" % (heading, sys.argv[1]))
        return 1
    head, body = rows[0], rows[2:]
    xs = [float(r[0]) for r in body]
    series = []
    for j, h in enumerate(head):
        if j and h.endswith(" s"):
            pts = [(x, number(r[j])) for x, r in zip(xs, body)]
            pts = [(x, y) for x, y in pts if y and y > 0]
            if len(pts) >= 2:
                series.append((h[:-2], pts))
    if not series:
        sys.stderr.write("plot.py: no series of seconds in the table\n")
        return 1
    ys = [y for _, pts in series for _, y in pts]
    x0, x1 = math.log10(min(xs)), math.log10(max(xs))
    y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    if x1 == x0:
        x1 = x0 + 1
    px = lambda x: L + (math.log10(x) - x0) / (x1 - x0) * (W - L - R)
    py = lambda y: H - B - (math.log10(y) - y0) / (y1 - y0) * (H - T - B)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif" font-size="12">' % (W, H, W, H),
           '<rect width="100%" height="100%" fill="#fff"/>',
           '<text x="%d" y="22" font-size="14">%s: min CPU s against %s (log-log)</text>'
           % (L, esc(heading), esc(head[0]))]
    for e in range(y0, y1 + 1):
        y = py(10 ** e)
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (L, W - R, y, y))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (L - 6, y + 4, 10 ** e))
    for x in xs:
        out.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#ddd"/>' % (px(x), px(x), T, H - B))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%g</text>' % (px(x), H - B + 16, x))
    out.append('<text x="%d" y="%d" text-anchor="middle">%s</text>' % ((L + W - R) / 2, H - 12, esc(head[0])))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>'
               % (L, T, W - L - R, H - T - B))
    for i, (name, pts) in enumerate(series):
        c = COLOURS[i % len(COLOURS)]
        (fx, fy), (lx, _) = pts[0], pts[-1]
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-dasharray="2,4"/>'
                   % (px(fx), py(fy), px(lx), py(fy * lx / fx), c))
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                   % (c, " ".join("%.1f,%.1f" % (px(x), py(y)) for x, y in pts)))
        for x, y in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s: %g s at %g</title></circle>'
                       % (px(x), py(y), c, esc(name), y, x))
        ly = T + 16 + 18 * i
        out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"/>'
                   % (W - R + 10, W - R + 30, ly - 4, ly - 4, c))
        out.append('<text x="%d" y="%d">%s</text>' % (W - R + 34, ly, esc(name)))
    ly = T + 16 + 18 * len(series)
    out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#555" stroke-dasharray="2,4"/>'
               % (W - R + 10, W - R + 30, ly - 4, ly - 4))
    out.append('<text x="%d" y="%d">linear</text>' % (W - R + 34, ly))
    out.append("</svg>\n")
    open(sys.argv[2], "w", encoding="utf-8").write("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
