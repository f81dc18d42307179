#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Usage: plots-check.py DIR

Checks the plots of DIR/report.md (tools/report.py report) against its tables.
Each Markdown image names an SVG beside report.md whose description holds the
data as drawn (per panel: the counter and a series per implementation), and
which draws one group series-IMPL per series (per bar of a bar chart).  Checked: every panel of the
log's counters (QEMU -icount instructions, a board's cycles) has one series per
implementation of the log, a model's panel only implementations of the log;
and every point equals the tables: a size sweep's points the per-byte figures
of the table above the image (and every figure of the table is a point), the
fleet call mix's bars the per-call means of its table, a board's measured
against modeled cycles the per-call figures of the size sweep's tables; and
the plot has a legend, and every legend's box lies inside the figure (the SVG's
viewBox).  One PASS:/FAIL: line per plot and a closing one; exit status 1 if
any failed.
"""
import collections
import json
import os
import re
import sys


def cells(row):
    return [c.strip() for c in row.strip().strip("|").split("|")]


def read(path):
    """(the log's implementations, [(table rows or None, image name, title)])."""
    impls, table, plots, prev = None, [], [], ""
    for line in open(path, encoding="utf-8"):
        if line.startswith("| implementations |"):
            impls = cells(line)[1].split(" (")[0].split(", ")
        if line.startswith("|"):
            table = (table if prev.startswith("|") else []) + [cells(line)]
        prev = line
        m = re.match(r"!\[(.*)\]\((\S+\.svg)\)$", line.strip())
        if m:
            plots.append(([r for r in table if not set(r[0]) <= set("-:")], m[2], m[1]))
    return impls, plots


def figures(cell):
    """(per-call figures, bracketed per-byte figures) of a size sweep's cell."""
    head, _, rest = cell.partition("[")
    return head.split(" / "), rest.split("]")[0].split(" / ")


def sweep_pairs(table):
    """{(impl, counter): {n: (per call, per byte)}} of a size sweep's table."""
    out = {}
    for col, h in enumerate(table[0][1:], 1):
        impl, *what = h.replace(" model", "").split(" ")
        names = ["instret", "cycles"] if what[0] == "ins" else [w.lower() for w in what if w != "/"]
        for row in table[1:]:
            if row[col] == "–":
                continue
            call, byte = figures(row[col])
            for i, c in enumerate(names[:len(call)]):
                out.setdefault((impl, c), {})[int(row[0])] = (call[i], byte[i] if byte[i] != "–"
                                                              else None)
    return out


def mix_figure(cell, counter, cores):
    main, _, model = cell.partition(" · ")
    if counter in cores:
        return model.split(" / ")[cores.index(counter)]
    m = re.fullmatch(r"(\S+) \((\S+)\)", main)     # a board's: cycles (instructions)
    return main if not m else m[1] if counter == "cycles" else m[2]


def legends(svg):
    """The SVG's canvas (x, y, w, h) and each legend's box (x0, y0, x1, y1): the bounds of its
    frame, the first path matplotlib draws in a legend's group."""
    view = [float(v) for v in re.search(r'viewBox="([^"]+)"', svg)[1].split()]
    boxes = []
    for m in re.finditer(r'<g id="legend_\d+">\s*<g id="patch_\d+">\s*<path d="([^"]+)"', svg):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d*)?(?:e-?\d+)?", m[1])]
        boxes.append((min(nums[0::2]), min(nums[1::2]), max(nums[0::2]), max(nums[1::2])))
    return view, boxes


def check(top, impls, table, name, sweeps):
    with open(os.path.join(top, name), encoding="utf-8") as f:
        svg = f.read()
    m = re.search(r"<dc:description>(.*?)</dc:description>", svg, re.S)
    if not m:
        return "no description (the data as drawn) in the SVG"
    data = json.loads(m[1].replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<"))
    kind, panels, bad = data["kind"], data["panels"], []
    # A line or a set of points is one group, a series of bars a group per bar.
    drawn = collections.Counter(re.findall(r'<g id="series-([^"]+)"', svg))
    if drawn != collections.Counter({i: 0 for p in panels for i in p["series"]}) + sum(
            (collections.Counter({i: len(pts) if kind == "bar" else 1})
             for p in panels for i, pts in p["series"].items()), collections.Counter()):
        bad.append(f"the SVG draws {dict(drawn)}, not the series of its data")
    (x, y, w, h), boxes = legends(svg)
    bad += [] if boxes else ["no legend"]
    bad += [f"a legend at x {x0:.0f}..{x1:.0f}, y {y0:.0f}..{y1:.0f} pt lies outside the figure "
            f"({x:.0f}..{x + w:.0f}, {y:.0f}..{y + h:.0f} pt)" for x0, y0, x1, y1 in boxes
            if x0 < x or y0 < y or x1 > x + w or y1 > y + h]
    cores = [p["counter"] for p in panels if p["counter"] not in ("instret", "cycles")]
    for p in panels:
        c, series = p["counter"], p["series"]
        if c in ("instret", "cycles") and list(series) != impls:
            bad.append(f"panel {p['title']!r}: series {list(series)}, the log has {impls}")
        if not series or set(series) - set(impls):
            bad.append(f"panel {p['title']!r}: series {list(series)} not of the log's {impls}")
        for impl, pts in series.items():
            if kind == "line":
                want = {n: b for n, (_, b) in sweep_pairs(table).get((impl, c), {}).items() if n}
                got = {n: f"{y:.3f}" for n, y in pts}
            elif kind == "bar":
                row = next((r for r in table[1:] if r[0] == impl), None)
                want = {cls: mix_figure(row[table[0].index(cls)], c, cores) for cls, _ in pts} \
                    if row else {}
                got = {cls: f"{y:.1f}" for cls, y in pts}
            else:
                want = {(int(m_[0]), int(x[0])) for t in sweeps for k, v in sweep_pairs(t).items()
                        if k == (impl, c) for n, m_ in v.items()
                        for x in [sweep_pairs(t).get((impl, "cycles"), {}).get(n)] if x}
                got = {(int(x), int(y)) for x, y in pts}
            if got != want:
                diff = sorted(set(got.items() if isinstance(got, dict) else got)
                              ^ set(want.items() if isinstance(want, dict) else want), key=str)
                bad.append(f"panel {p['title']!r}, {impl}: the points differ from the tables "
                           f"({len(got)} points, {len(want)} figures; e.g. {diff[:3]})")
    return "; ".join(bad)


def main():
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    top = sys.argv[1]
    impls, plots = read(os.path.join(top, "report.md"))
    sweeps = [t for t, name, _ in plots if name.startswith("sweep-")]
    failed = 0
    for table, name, title in plots:
        why = check(top, impls, table, name, sweeps)
        failed += bool(why)
        print(f"FAIL: plots: {name}: {why}" if why else f"PASS: plots: {name} ({title}): "
              "its series are the log's implementations, its points the tables' figures, "
              "its legend inside the figure")
    verdict = "FAIL" if failed or not plots else "PASS"
    print(f"{verdict}: plots: {len(plots)} plots, {failed} failed")
    return 1 if failed or not plots else 0


if __name__ == "__main__":
    sys.exit(main())
