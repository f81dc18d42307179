#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The fleet call mix: a fixed sample of memcpy, memmove and memset calls drawn
from Google's fleet profiles (tests/fleet/, README.md there), as a C header for
the benchmark image (firmware/bench.c, part mix).

  fleetmix.py header DIR OUT [--calls N]   write OUT (a C header) from DIR's three CSVs
  fleetmix.py show DIR [--calls N]         per function and size class: the data's share,
                                           the calls drawn (and the exact share), their bytes

No randomness: per size class, calls in proportion to the class's probability (largest
remainder), sizes at evenly spaced quantiles of the class; pointer residues (mod 8) from a
low-discrepancy sequence through fleetbench's own alignment rule; memmove's overlapping calls
evenly spaced.  The same data gives the same header byte for byte.  Bad data: a message, exit
status 1, no header.  Python standard library only.
"""
import argparse
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wmlog  # noqa: E402  (tools/wmlog.py: write_atomic, fail)
from wmlog import Error  # noqa: E402

CLASSES = ((0, 0), (1, 16), (17, 64), (65, 256), (257, 4096))
FILES = (("memcpy", "Memcpy_Fleet.csv"), ("memmove", "Memmove_Fleet.csv"),
         ("memset", "Memset_Fleet.csv"))
# Irrational steps (1/p and 1/p^2, p the plastic number, for the residues of dst
# and src; sqrt(2) - 1 for memmove's overlap offset): the k-th call's values are
# frac(0.5 + k * step), spread evenly over [0, 1) and independent of each other.
STEPS = (0.7548776662466927, 0.5698402909980532, 0.4142135623730950)
APART = 8192        # memmove's calls that do not overlap: dst and src this far apart


def parse_line(text, where):
    out = {}
    for item in text.split(","):
        k, sep, v = item.partition(":")
        try:
            key, p = int(k), float(v)
        except ValueError:
            raise Error(f"{where}: '{item[:40]}' is not value:probability")
        if not sep or p < 0 or key in out:
            raise Error(f"{where}: bad or repeated entry '{item[:40]}'")
        out[key] = p
    if abs(sum(out.values()) - 1) > 1e-3:
        raise Error(f"{where}: the probabilities add up to {sum(out.values()):.6f}, not 1")
    return out


def read(path):
    """(sizes, overlap, alignments) of one fleetbench file: {value: probability} each."""
    with open(path) as f:
        lines = f.read().split("\n")
    if len(lines) != 4 or lines[3]:
        raise Error(f"{path}: {len(lines) - 1} lines, not the three of a fleetbench file")
    sizes, overlap, align = (parse_line(l, f"{path}:{i}") for i, l in enumerate(lines[:3], 1))
    if min(sizes) < 0 or max(sizes) > CLASSES[-1][1]:
        raise Error(f"{path}:1: sizes beyond 0..{CLASSES[-1][1]}")
    if set(overlap) - {0, 1} or any(a & (a - 1) or not 1 <= a <= 64 for a in align):
        raise Error(f"{path}: line 2 must be of 0 and 1, line 3 of powers of two up to 64")
    return sizes, overlap, align


def residues(align):
    """P(pointer % 8 == r): fleetbench places a pointer at a uniform offset in
    0..62 of a 64-byte line, rounded down to a multiple of its sampled alignment."""
    p = [0.0] * 8
    for a, q in align.items():
        for u in range(63):
            p[(u // a * a) % 8] += q / 63
    return p


def pick(cdf, u):
    """The first value whose cumulative probability reaches u."""
    return next((v for v, c in cdf if c >= u - 1e-12), cdf[-1][0])


def cdf_of(pairs):
    total, acc = sum(p for _, p in pairs), itertools.accumulate(p for _, p in pairs)
    return [(v, a / total) for (v, _), a in zip(pairs, acc)]


def frac(x):
    return x - int(x)


def draw(fn, data, calls):
    """[(class, [(n, dst%8, src%8, dst - src)])] of fn: every class, maybe empty."""
    sizes, overlap, align = data
    share = [sum(p for n, p in sizes.items() if lo <= n <= hi) for lo, hi in CLASSES]
    exact = [calls * s / sum(share) for s in share]
    count = [int(x) for x in exact]
    for k in sorted(range(len(exact)), key=lambda k: (count[k] - exact[k], k))[:calls - sum(count)]:
        count[k] += 1
    res = cdf_of(list(enumerate(residues(align))))
    p_over = overlap.get(1, 0.0) / sum(overlap.values())
    out, i = [], 0
    for (lo, hi), m in zip(CLASSES, count):
        cdf, got = cdf_of(sorted((n, p) for n, p in sizes.items() if lo <= n <= hi)), []
        for j in range(m):
            n = pick(cdf, (j + 0.5) / m)
            d, s = (pick(res, frac(0.5 + i * step)) for step in STEPS[:2])
            delta = 0
            if fn == "memmove":
                if int((i + 1) * p_over) > int(i * p_over) and n > 0:
                    delta = int(frac(0.5 + i * STEPS[2]) * (2 * n - 1)) - (n - 1)
                    d = (s + delta) % 8     # overlapping: dst = src + delta, |delta| < n
                else:
                    delta = (APART if i % 2 else -APART) + d - s
            if fn == "memset":
                s = 0
            got.append((n, d, s, delta))
            i += 1
        out.append((f"{lo}" if lo == hi else f"{lo}-{hi}", got))
    return out, share


def load(folder, calls):
    if calls < len(CLASSES) or calls > 65535:
        raise Error(f"--calls {calls}: between {len(CLASSES)} and 65535")
    return [(fn, *draw(fn, read(os.path.join(folder, name)), calls)) for fn, name in FILES]


def header(mixes, calls, folder):
    L = [f"/* The fleet call mix: made by tools/fleetmix.py from {folder}/; do not edit. */",
         "#define FLEETMIX_CALLS " + str(calls),
         f"#define FLEETMIX_APART {APART}",
         f"#define FLEETMIX_NCLASSES {len(CLASSES)}",
         "static const char *const fleetmix_classes[FLEETMIX_NCLASSES] = { "
         + ", ".join(f'"{name}"' for name, _ in mixes[0][1]) + " };"]
    for fn, mix, _ in mixes:
        L.append(f"static const unsigned short fleetmix_{fn}_count[FLEETMIX_NCLASSES] = "
                 "{ " + ", ".join(str(len(g)) for _, g in mix) + " };")
        L.append(f"static const struct fleetmix_call fleetmix_{fn}[FLEETMIX_CALLS] = {{")
        L += [f"\t{{ {n}, {d}, {s}, {delta} }}," for _, g in mix for n, d, s, delta in g]
        L.append("};")
    return "\n".join(L) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    h, s = sub.add_parser("header"), sub.add_parser("show")
    for p in (h, s):
        p.add_argument("dir")
        p.add_argument("--calls", type=int, default=400)
    h.add_argument("out")
    a = ap.parse_args(argv)
    try:
        mixes = load(a.dir, a.calls)
        if a.cmd == "show":
            for fn, mix, share in mixes:
                for (name, got), p in zip(mix, share):
                    print(f"{fn:8} {name:>8}: data {p / sum(share):7.2%}, {len(got):4} calls "
                          f"(exact {a.calls * p / sum(share):7.2f}), "
                          f"{sum(c[0] for c in got):7} bytes")
            return 0
        wmlog.write_atomic(a.out, header(mixes, a.calls, a.dir))
    except (Error, OSError) as e:
        return wmlog.fail("fleetmix.py", e, 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
