#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Render a wordmerge log's benchmark block (tools/wmlog.py reads it) in the image's
order of implementations (lib's own first) and functions; docs/benchmarks.md says what they mean.

  summary LOG [--elf ELF]   the tables as text (run-qemu.sh prints them); mode quick: per call
  report LOG [--out DIR] [--elf ELF | --images O] [--targets FILE]
             [--cycles CSV | --cycles-guess CSV...] [--core u74|u54]
      DIR/report.md, the cycle model's (tools/cycles.py) cycles beside the counts; written
      whole or not at all: after an error the old report stays.  --images O: the ELF is the
      image under O with the log's build id (tools/elf.py find).
  check LOG --targets FILE [--elf ELF] [--cycles CSV]
      lib's instruction counts, code size and modeled cycles against the targets: a
      PASS:/UNMET:/FAIL: line each and a SUMMARY: line; exit status 1 if any fails.
  cycles CSV [--clang CSV] [--impl NAME]...   the cycle model's tables (make cycles prints them)
  compare BEFORE.csv AFTER.csv [--impl NAME]... [--within PCT]   two cycle models cell by cell:
      what each metric made better or worse, the totals; --within: a check that AFTER's totals
      and largest cells are at most PCT % above BEFORE's (exit status 1 if not).
  misalign RAW ELF [--fail-in SYM,...] [--require SYM,...] [--log LOG]
      the misalign plugin's records (tools/plugin.c mode=misalign, its out=RAW) by function of ELF:
        MISALIGNED: <function> <loads> <stores> <first-pc> (<sym+off>) <addr> <sites>
        MISALIGNED-TOTAL: <n> accesses at <k> sites
      (sites: each misaligned instruction as +off:<L|S><size>x<count>; a user's code no function
      holds is user_NAME.o's, code no implementation owns <unknown>'s).  SYM may be a glob
      ('wm_*'); both options repeat.  --fail-in SYM: `FAIL: misaligned access in <sym> at
      <sym+off>` for each site in SYM or <unknown>, exit 1.  --require SYM: `PASS: control
      <sym> seen`, or FAIL: and exit 1.  --log LOG: `MISALIGNED-IMPL: <impl> <loads> <stores>`,
      informative, for every implementation LOG's benchmark announces (a user's: its object's).

Exit status 2 with one line saying why: a log that breaks the protocol, a failed run (summary
shows it all the same), an ELF or a cycle model of another build, any other unusable input.
"""
import argparse
import fnmatch
import io
import json
import os
import re
import sys
import textwrap
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cycles  # noqa: E402  (tools/cycles.py: the cycle model's CSV)
import elf as elfmod  # noqa: E402  (tools/elf.py)
import wmlog  # noqa: E402  (tools/wmlog.py)
from wmlog import Error  # noqa: E402

CORES = tuple(core for core, _ in cycles.CORES)     # u74, u54: the cycle model's
# A board's core, by the device tree's model name.
BOARDS = (("u74", r"jh71[01]0|visionfive|unmatched|fu740|star64|beaglev|pinetab-v|milk-?v.?mars"
                  r"|u74"), ("u54", r"unleashed|fu540|mpfs|icicle|polarfire|u54"))
# A target line (tests/bench-targets.txt): function n pairs kind bound [ceiling], function mix
# class kind bound [ceiling] (the mean over the fleet mix's calls), or size opt what kind bound.
NUM = r"(\d+(?:\.\d*)?)"
TARGET = re.compile(r"(?:(\S+) (?:(\d+) (al|mis|any|\d(?:,\d)?) (per_call|per_byte|memcpy\+|"
                    r"(?:u74|u54)_per_(?:call|byte))|mix (all|\d+(?:-\d+)?) (per_call|"
                    rf"(?:u74|u54)_per_call))|size (\S+) (\S+) \S+) {NUM}(?: {NUM})?")
COUNTERS = ("Counters: cycle = rdcycle, instret = rdinstret, time = rdtime; each figure the "
            "minimum over the runs of a point, net of the measurement overhead, per call [per "
            "byte]; MB/s: 10^6 bytes per second of rdtime (under -icount 1 ns an instruction).")
NO_MODEL = "no cycle model given (--cycles FILE; make cycles-wordmerge makes it)"


class Run:
    """LOG's last benchmark block, and what every rendering needs of it."""
    def __init__(self, path, allow_failed=False):
        self.log, self.b = wmlog.read_bench(path, allow_failed)
        b = self.b
        for key in ("platform", "timebase_hz", "counters_lockstep", "overhead_cpy", "overhead_set"):
            if key not in b.meta:
                raise Error(f"{path}: the block from line {b.line} has no CSV:meta,{key}")
        self.path, self.mode, self.meta, self.title = path, b.mode, b.meta, b.functions
        self.sweep, self.extra, self.big, self.mix = (b.cells[k] for k in (
            "sweep", "extra", "big", "mix"))
        if not self.sweep and not self.big:
            raise Error(f"{path}: the block from line {b.line} has no measurements")
        keys = [k for cells in b.cells.values() for k in cells]
        self.impls = [i for i in b.impls if any(k[1] == i for k in keys)]
        self.fns = [f for f in b.functions if any(k[0] == f for k in keys)]
        self.ours, self.hz = b.impls[0], b.meta_int("timebase_hz")
        self.symfns = list(dict.fromkeys(fn for _, fn in b.symbols))  # memcpy memmove memset
        self.big4 = {k[:4]: v for k, v in self.big.items()}  # n follows from the offsets
        self.matrix = {fn for fn in self.fns if len(pairs(self.big, fn)) == 64}  # 8x8 offsets
        self.lock = b.meta["counters_lockstep"] == "1"
        self.board = not self.lock and int(b.meta.get("mvendorid", "0"), 0) != 0  # QEMU's: 0
        self.counts, self.why = (("instructions, exactly", "QEMU -icount: rdcycle = rdinstret")
            if self.lock else ("the core's", "rdcycle its cycles, rdinstret its instructions")
            if self.board else ("NOT meaningful", "QEMU without -icount: host clock ticks"))


def pairs(cells, fn):
    """fn's (dst%8, src%8) pairs in CELLS, in order (src None: memset)."""
    return sorted({k[2:4] for k in cells if k[0] == fn}, key=lambda p: (p[0], p[1] or 0))


def pair_text(d, s):
    return f"dst%8={d}" if s is None else f"dst%8={d}, src%8={s}"


def pair_class(d, s):
    """al: co-aligned (memset: dst%8 = 0); mis: the others."""
    return "al" if d == (0 if s is None else s) else "mis"


def cell_name(k):
    return f"{k[0]} {k[1]} {pair_text(k[2], k[3])} n={k[4]}"


def size_label(n):
    return next((f"{n >> s} {unit}" for s, unit in ((20, "MiB"), (10, "KiB"))
                 if n >= 1 << s and n % (1 << s) == 0), f"n={n}")


def mbps(v, hz):
    return f"{v['n'] * hz / v['ticks'] / 1e6:.1f}" if v["ticks"] else "-"


def read_elf(path, run):
    """Code sizes from PATH if it is the image that wrote the log (the same build id)."""
    elf = elfmod.Elf(path)
    elf.wrote(run.path, run.log.build_id)
    try:
        syms = {f.name: f for f in elf.functions()}
    except Error as e:    # stripped: the same build, but no names to size
        print(f"report: note: {e}: no code sizes", file=sys.stderr)
        return None
    missing = [s for s in ("memcpy", *run.b.symbols.values()) if s not in syms]
    if missing:
        raise Error(f"{path} is not the image that wrote {run.path}: no function {missing[0]}")
    elf.wrote(run.path, None, run.meta.get("memcpy_addr"))
    lib = sorted((f.name, f.size) for f in syms.values() if f.size and elfmod.is_lib(f.name, False))
    # Another's total: every function of its symbols' prefix (extract-refs.sh's PREFIX_), the
    # longest, each address once (aliases); a user's: its object's code as linked (impls.mk).
    prefixes = {i: s[:-len(fn)] for (i, fn), s in run.b.symbols.items() if s.endswith("_" + fn)}
    own = {f.name: max((p for p in prefixes.values() if f.name.startswith(p)), key=len,
                       default=None) for f in syms.values()}
    return {"elf": path, "libfile": elfmod.LIB_FILE, "lib": lib,
            "lib_total": sum(s for _, s in lib),
            "size": {k: syms[s].size for k, s in run.b.symbols.items()},
            "total": {i: sum({f.addr: f.size for f in syms.values() if own[f.name] == p}
                             .values()) for i, p in prefixes.items()}
            | {u: elf.address(f".user.{u}.code_end")[0] - a for u, (a, _) in elf.owners().items()}}


def read_cycles(path, run):
    """The cycle model's CSV if its shared sweep cells have the log's instruction counts."""
    head, rows = cycles.read_csv(path)
    ms, extra, mix = rows["sweep"], rows["extra"], rows["mix"]
    shared = [k for k in ms if k in run.sweep]
    bad = [(cell_name(k), ms[k]["ins"], run.sweep[k]["instret"]) for k in shared
           if ms[k]["ins"] != run.sweep[k]["instret"]]
    bad += [(f"{' '.join(k)} (mix)", mix[k]["ins"], run.mix[k]["instret"]) for k in mix
            if k in run.mix
            and (mix[k]["ins"], mix[k]["calls"]) != (run.mix[k]["instret"], run.mix[k]["calls"])]
    if not shared:
        raise Error(f"{path} shares no sweep cell with {run.path}")
    if bad:
        ex = "; ".join(f"{c}: {m} instructions in the model, {g} in the log" for c, m, g in bad[:3])
        raise Error(f"{path} is from a different build than {run.path}: {len(bad)} of "
                       f"{len(shared) + sum(k in run.mix for k in mix)} shared cells differ in "
                       f"instruction count (e.g. {ex}); make cycles anew from the log's image")
    return {"path": path, "info": dict(h[2:].partition(": ")[::2] for h in head),
            "shared": len(shared), "sweep": ms, "extra": extra, "mix": mix}


def pick(run, given, guesses, read):
    """(read(GIVEN), []), or of the first GUESS of the log's build and why those before were not."""
    if given:
        return read(given, run), []
    tried = []
    for path in (p for p in guesses if os.path.exists(p)):
        try:
            return read(path, run), tried
        except Error as e:
            print(f"report: note: not using {path}: {e}", file=sys.stderr)
            tried.append(str(e))
    return None, tried


def read_targets(path, run):
    """The targets for the log's build (the last -O of lib's flags), how many are not, its -O."""
    flags = run.meta.get("lib_cflags", run.meta.get("cflags", ""))
    opt = (re.findall(r"(?:^|\s)(-O\w*)", flags) or ["?"])[-1]
    rows, scope = [], "any"
    with open(path) as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines, 1):
        p = line.split("#", 1)[0].split()
        m = TARGET.fullmatch(" ".join(p))
        if len(p) == 2 and p[0] == "for":
            scope = p[1]                # the build the rows below are for
        elif m and not (m[7] and m[10]):    # a size row has no ceiling
            rows.append({"fn": m[1] or "size", "n": m[2] and int(m[2]), "pairs": m[3] or m[5],
                         "kind": m[4] or m[6], "opt": m[7] or scope, "what": m[8],
                         "bound": float(m[9]), "ceiling": m[10] and float(m[10]),
                         "where": f"{path}:{i}"})
        elif p:
            raise Error(f"{path}:{i}: not a target line (function n pairs kind bound "
                           f"[ceiling], function mix class kind bound [ceiling], size opt "
                           f"what kind bound, or for OPT): {line}")
    mine = [t for t in rows if t["opt"] in ("any", opt)]
    if not mine:
        raise Error(f"no target of {path} applies to a {opt} build")
    return mine, len(rows) - len(mine), opt


def eval_target(run, t, sizes, model):
    """(verdict, cell, text) of lib's worst pair of the target's class (tests/bench-targets.txt):
    PASS, UNMET (above the bound, within the ceiling), FAIL, or None (cannot be evaluated)."""
    if t["fn"] == "size":
        cell, s = f"code size, {t['what']} at {t['opt']}", sizes
        if not s:
            return None, cell, "no ELF to read the sizes from"
        ok = s["lib_total"] <= t["bound"]
        return ("PASS" if ok else "FAIL", cell, f"{s['lib_total']} bytes of .text from "
                f"{os.path.basename(s['libfile'])} ({', '.join(f'{n} {b}' for n, b in s['lib'])})"
                f" {'<=' if ok else '>'} {t['bound']:g}")
    fn, n, cls, kind, bound, ceil = (t[k] for k in ("fn", "n", "pairs", "kind", "bound", "ceiling"))
    if fn not in run.title:
        raise Error(f"{t['where']}: the log announces no function {fn} "
                       f"(it has {', '.join(run.title)})")
    core = kind[:3] if kind[:3] in CORES else None
    cell = (f"{fn} {size_label(n)} {cls}" if n is not None else f"{fn} fleet mix, "
            f"{cls if cls == 'all' else cls + ' B'}") + (f" {core.upper()} model" if core else "")
    if core and model is None:
        return None, cell, NO_MODEL
    if n is None:
        return verdict(cell, *mix_target(run, fn, cls, core, model), bound, ceil)
    cells = {**model["sweep"], **model["extra"]} if core else run.sweep   # targets may name extras
    pts = {k: v[core] if core else v["instret"] for k, v in cells.items()
           if k[0] == fn and k[1] == run.ours and k[4] == n and cls in (
               "any", pair_class(k[2], k[3]), f"{k[2]}" if k[3] is None else f"{k[2]},{k[3]}")}
    why = f"not modeled in {model['path']}" if core else "not measured in this log"
    if kind == "memcpy+" and pts:       # each pair against memcpy's at the same pair
        ref = {k: cells[("memcpy", *k[1:])]["instret"] for k in pts if ("memcpy", *k[1:]) in cells}
        pts, why = {k: pts[k] - ref[k] for k in ref}, "no memcpy figures at its pairs"
    if not pts:
        return None, cell, why
    k = max(pts, key=pts.get)
    v, pair = pts[k], cycles.pair(k[2], k[3])
    x, pre = v / n if kind.endswith("per_byte") else v, "memcpy +" if kind == "memcpy+" else ""
    unit = "modeled cycles" if core else "instructions"
    worst = f"worst pair {pair}" + (f", llvm-mca -mcpu=sifive-{core}" if core else "")
    text = (f"memcpy {v:+d} (worst pair {pair}: {v + ref[k]} vs memcpy {ref[k]} instructions)"
            if kind == "memcpy+" else f"{x:.4f} {unit} per byte ({v} per call, {worst})"
            if kind.endswith("per_byte") else f"{v} {unit} per call ({worst})")
    return verdict(cell, x, text, bound, ceil, pre)


def verdict(cell, x, text, bound, ceil, pre="", unit=""):
    """(verdict, cell, text): PASS within the bound, UNMET within the ceiling, else FAIL: the
    one judge of every target (bench-check's, and compare --within's)."""
    if x is None:
        return None, cell, text
    if x <= bound + 1e-12:
        vd, rel = "PASS", f"<= {pre}{bound:g}{unit}"
    elif ceil is not None and x <= ceil + 1e-12:
        vd, rel = "UNMET", f"> target {pre}{bound:g}, within the recorded ceiling {pre}{ceil:g}"
    else:
        reg = "" if ceil is None else f" and above the recorded ceiling {pre}{ceil:g}: a regression"
        vd, rel = "FAIL", f"> {pre}{bound:g}{unit}{reg}"
    return vd, cell, f"{text} {rel}"


def mix_means(run, model, impl, fn):
    """{class or 'all': (calls, instructions, cycles, u74, u54 per call)} of impl's fn in the
    fleet call mix: the log's figures and the model's (None where it lacks some of the calls)."""
    def means(recs, fields):    # {class or 'all': (calls, each field's mean per call)}
        out = {}
        for (f, i, cls), r in recs.items():
            for c in (cls, "all") if (f, i) == (fn, impl) else ():
                got = out.setdefault(c, [0] * 3)
                for j, k in enumerate(("calls", *fields)):
                    got[j] += r[k]
        return {c: (v[0], *(x / v[0] for x in v[1:])) for c, v in out.items()}
    log = means(run.mix, ("instret", "cycles"))
    mod = means(model["mix"], ("u74", "u54")) if model else {}
    return {c: (*m, *(mod[c][1:] if c in mod and mod[c][0] == m[0] else (None, None)))
            for c, m in log.items()}


def mix_target(run, fn, cls, core, model):
    """(value, text) of a mix target (function mix class kind bound)."""
    m = mix_means(run, model, run.ours, fn).get(cls)
    if not m:
        return None, f"the log has no fleet mix of {fn}{'' if cls == 'all' else ' ' + cls}"
    x = m[3 + CORES.index(core)] if core else m[1]
    if x is None:
        return None, f"not modeled in {model['path']}"
    return x, (f"{x:.2f} {'modeled cycles' if core else 'instructions'} per call, "
               f"mean of {m[0]} calls" + (f", llvm-mca -mcpu=sifive-{core}" if core else ""))


def cmd_check(args):
    run = Run(args.log)
    if not run.lock:
        raise Error(f"{args.log}: counts {run.counts} ({run.why}), not QEMU -icount's")
    nondet = [k for k, v in run.sweep.items()
              if k[1] == run.ours and v["instret"] != v["instret_max"]]
    if nondet:
        raise Error(f"{args.log}: instruction counts differ between runs of one point "
                       f"({len(nondet)} points, e.g. {cell_name(nondet[0])}): not deterministic")
    sizes = args.elf and read_elf(args.elf, run)
    targets, other, opt = read_targets(args.targets, run)
    model = args.cycles and read_cycles(args.cycles, run)   # only the model of this very build
    if other:
        print(f"NOTE: {other} targets are for other builds than this one ({opt}); not checked")
    res = [eval_target(run, t, sizes, model) for t in targets]
    for vd, cell, text in res:
        print(f"{vd or 'FAIL'}: {cell}: {text}")
    met, unmet = (sum(1 for r in res if r[0] == v) for v in ("PASS", "UNMET"))
    failed = len(res) - met - unmet
    print(f"SUMMARY: bench-check: {len(res)} cells, {met} targets met, {unmet} unmet (no worse "
          f"than their recorded ceilings), {failed} failed (targets {args.targets}, log {args.log}"
          + (f", cycle model {args.cycles}: its {model['shared']} cells shared with the log match"
             if model else "") + ")")
    return 1 if failed else 0


def table(t, md=False):
    """T = (title, head, rows[, align: l or r each]) as Markdown, or as text lines."""
    title, head, rows, align = (*t, "l" + "r" * (len(t[1]) - 1))[:4]
    if md:
        lines = ["| " + " | ".join(map(str, r)) + " |" for r in [head, *rows]]
        lines.insert(1, "|" + "|".join("---" + ":" * (a == "r") for a in align) + "|")
        return (f"**{title}**\n\n" if title else "") + "\n".join(lines) + "\n"
    width = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    return ["", title] + [" | ".join(f"{str(x):{'<' if a == 'l' else '>'}{w}}" for x, a, w
                                     in zip(r, align, width)).rstrip() for r in [head, *rows]]


def size_table(run, sizes):
    """Code size: the functions of each implementation; lib's total with its helpers."""
    return (f"Code size, bytes of .text after link-time relaxation; {run.ours}'s total with the "
            f"static helpers of {os.path.basename(sizes['libfile'])}: "
            + ", ".join(f"{n} {s}" for n, s in sizes["lib"] if n not in run.symfns)
            + "; another's with its helpers (its symbols' prefix), a user's its object's code",
            ["implementation", *run.symfns, "total"],
            [[impl, *sz, sizes["lib_total"] if impl == run.ours else
              sizes["total"].get(impl, sum(x for x in sz if x != "–"))] for impl in
             run.b.impls for sz in [[sizes["size"].get((impl, f), "–") for f in run.symfns]]])


def sweep_tables(run, cells, model=None, cores=CORES):
    """{fn: [table of each pair]}: the counts per call [per byte], the model's cycles beside."""
    ms = model["sweep"] if model else {}
    mimpls = {k[1] for k in ms}

    def cell(key, n):
        v, m = cells.get(key), ms.get(key)
        pb = (lambda x: f"{x / n:.3f}") if n else (lambda x: "–")     # per byte; n = 0: none
        out = ["–" if not v else f"{v['instret']} [{pb(v['instret'])}]"
               if v["cycles"] == v["instret"] else f"{v['instret']} / {v['cycles']} "
               f"[{pb(v['instret'])} / {pb(v['cycles'])}]"]
        if key[1] in mimpls:
            out.append("–" if not m else " / ".join(str(m[c]) for c in cores) + " ["
                       + " / ".join(pb(m[c]) for c in cores) + "]" + (
                           " " + " / ".join(f"×{v['cycles'] / m[c]:.2f}" for c in cores)
                           if run.board and v else ""))
        return out
    names = " / ".join(c.upper() for c in cores)
    head = ["n"] + [h for impl in run.impls for h in [f"{impl} ins" + " / cyc" * (not run.lock)]
                    + [f"{impl} " + "model " * run.board + names] * (impl in mimpls)]
    return {fn: [(pair_text(d, s), head, [
        [n] + [c for impl in run.impls for c in cell((fn, impl, d, s, n), n)]
        for n in sorted({k[4] for k in cells if k[0] == fn and k[2:4] == (d, s)})],
        "r" * len(head)) for d, s in pairs(cells, fn)] for fn in run.fns if pairs(cells, fn)}


def mix_tables(run, model=None, cores=CORES):
    """The fleet call mix, a table per function: the mean per call, over all its calls and
    per size class, of the log's counters and of the model's cycles."""
    out, what = [], "instructions" if run.lock else f"rdcycle (rdinstret), counts {run.counts}"
    names = " / ".join(c.upper() for c in cores)

    def fig(m):
        s = f"{m[1]:.1f}" if run.lock else f"{m[2]:.1f} ({m[1]:.1f})"
        return s + (f" · {' / '.join(f'{m[3 + CORES.index(c)]:.1f}' for c in cores)}"
                    if m[3] is not None else "")
    for fn in dict.fromkeys(k[0] for k in run.mix):
        classes = ["all"] + list(dict.fromkeys(k[2] for k in run.mix if k[0] == fn))
        means = {i: mix_means(run, model, i, fn) for i in run.impls}
        calls = next(m["all"][0] for m in means.values() if m)
        modeled = any(m.get("all", (0, 0, 0, None))[3] is not None for m in means.values())
        out.append((f"Fleet call mix, {fn} ({calls} calls): mean per call, {what}"
                    + (f" · modeled {names} cycles" if modeled else "")
                    + ", all calls and by size in bytes",
                    ["implementation"] + classes,
                    [[i] + [fig(m[c]) if c in m else "–" for c in classes]
                     for i, m in means.items() if m]))
    return out


def big_tables(run):
    """The 32 MiB phase: the means, then each function's 8x8 matrices or a row per pair."""
    def fig(v):
        return f"{mbps(v, run.hz)} / {v['cycles'] / v['n']:.3f}" if v else "–"
    sels = [s for fn in run.fns if pairs(run.big, fn) for s in (
        [(f"{fn} co-aligned", fn, "al"), (f"{fn} misaligned", fn, "mis")] if fn in run.matrix
        else [(fn, fn, None)])]
    rows = [[impl] for impl in run.impls]
    for row, (_, fn, cls) in ((row, sel) for row in rows for sel in sels):
        v = [x for k, x in run.big.items()
             if k[:2] == (fn, row[0]) and cls in (None, pair_class(k[2], k[3]))]
        r = [x["n"] * run.hz / x["ticks"] / 1e6 for x in v if x["ticks"]] or [0]
        mean = sum(r) / len(r)      # MB/s, with its range if wide, and c/B
        row += ["–"] * 2 if not v else [f"{mean:.0f}" + (
            f" ({min(r):.0f}–{max(r):.0f})" if max(r) - min(r) > 0.05 * mean else ""),
            f"{sum(x['cycles'] / x['n'] for x in v) / len(v):.3f}"]
    out = [("32 MiB buffers (the 2021 series' method): means over the offsets (co-aligned: i = j; "
            "misaligned: i ≠ j; else every pair), ranges past 5 %; c/B = cycles per byte",
            ["implementation"] + [h for name, _, _ in sels for h in (f"{name} MB/s", "c/B")], rows)]
    for fn in (f for f in run.fns if pairs(run.big, f)):
        ps = pairs(run.big, fn)
        if fn not in run.matrix:
            gap = (run.b.meta_int("big_size") - run.big4[(fn, run.impls[0], *ps[0])]["n"]) // 2
            what = ("dst%8" if ps[0][1] is None else
                    f"{2 * gap} bytes, {gap} bytes apart plus the offsets")
            out.append((f"{run.title[fn]}, 32 MiB - {what}: MB/s / cycles per byte",
                        ["dst%8" if ps[0][1] is None else "(dst%8, src%8)"] + run.impls,
                        [[f"{d}" if s is None else f"({d},{s})"]
                         + [fig(run.big4.get((fn, impl, d, s))) for impl in run.impls]
                         for d, s in ps]))
        out += [(f"{fn}(dst + i, src + j, 32 MiB - max(i, j)), {impl}: MB/s / cycles per byte "
                 f"(rows: dst offset i, columns: src offset j)", ["i \\ j"] + list(range(8)),
                 [[i] + [fig(run.big4.get((fn, impl, i, j))) for j in range(8)] for i in range(8)])
                for impl in run.impls
                if fn in run.matrix and any(k[:2] == (fn, impl) for k in run.big)]
    return out


def facts(run):
    """(what, value) of the run, from the log."""
    m, cf = run.meta, run.meta.get("cflags", "?")
    by_runs = {}
    for k, v in run.sweep.items():
        by_runs.setdefault(v["runs"], []).append(k[4])
    runs = ", ".join(f"{r} at {size_label(max(ns))}" if min(ns) == max(ns) else
                     f"{r} from {size_label(min(ns))} to {size_label(max(ns))}"
                     for r, ns in sorted(by_runs.items(), reverse=True))
    big = ", ".join(map(str, sorted({v["runs"] for v in run.big.values()})))
    return [("platform (device tree model)", m["platform"]),
            ("compiler", m.get("compiler", "?")), ("flags", cf),
            ("lib's flags", "the same" if m.get("lib_cflags", cf) == cf else m["lib_cflags"]),
            ("timebase", f"{run.hz} Hz" + (f", {m['mem_mib']} MiB RAM" if "mem_mib" in m else "")),
            ("implementations", f"{', '.join(run.impls)} (firmware/impls.mk; {run.ours} is lib's)"),
            *((f"{s['impl']}'s {s['file']}", f"{s['version']}, sha256 {s['sha256']} "
               f"({s['known']})") for s in run.b.sources),    # docs/peers.md
            *(("left out", f["why"]) for *_, form, f in run.log.lines     # a peer's SKIP: line
              if form == "skip" and "[" not in f["why"].split(":")[0]),
            ("counts", f"{run.counts} ({run.why})"),
            ("measurement overhead (subtracted)", f"memcpy/memmove {m['overhead_cpy'][0]} "
             f"instructions, {m['overhead_cpy'][1]} cycles; memset {m['overhead_set'][0]}, "
             f"{m['overhead_set'][1]}"),
            ("runs of a point (the minimum is taken)", f"one call each (trace mode; "
             f"{len(run.extra)} extra cells)" if run.mode == "trace" else
             "; ".join(([f"sweep: {runs}"] if runs else []) + ([f"32 MiB: {big}"] if big else [])))]


def cmd_summary(args):
    """The tables as text; in mode quick (the suite image's) every counter of each call."""
    run = Run(args.log, allow_failed=True)
    b, sizes = run.b, args.elf and read_elf(args.elf, run)
    L = [f"wordmerge benchmark, mode {run.mode} ({run.path}: format {b.format}, "
         f"{b.records + 2} CSV lines, CRC checked)"]
    L += [f"{what}: {value}" for what, value in facts(run)] + textwrap.wrap(COUNTERS, 88)
    L += table(size_table(run, sizes)) if sizes else ["", "Code size: needs the image's ELF, --elf"]
    for kind, cells in (("sweep", run.sweep), ("extra cells", run.extra)):
        if run.mode != "quick":
            L += [x for fn, ts in sweep_tables(run, cells).items() for t in ts for x in table((
                f"{run.title[fn]}, {t[0]} ({kind}): instructions per call [per byte]", *t[1:]))]
            continue
        for fn, d, s in ((fn, d, s) for fn in run.fns for d, s in pairs(cells, fn)):
            L += table((f"{run.title[fn]}, {pair_text(d, s)}: per call, lower is better (* the "
                        f"fewest rdcycle of each n), counts {run.counts}",
                        ["n", "implementation", "rdcycle", "rdinstret", "rdtime", "MB/s"],
                        [[n, impl + " *" * (v["cycles"] == min(w["cycles"] for k, w in cells.items()
                                                             if k[0] == fn and k[2:] == (d, s, n))),
                          v["cycles"], v["instret"], v["ticks"], mbps(v, run.hz)]
                         for n in sorted({k[4] for k in cells if k[0] == fn})
                         for impl in run.impls for v in [cells.get((fn, impl, d, s, n))] if v],
                        "rlrrrr"))
    L += [x for t in mix_tables(run) + (big_tables(run) if run.big else []) for x in table(t)]
    pmu = [f for n, _, form, f in run.log.lines if form == "phase" and n > b.line]
    L += [""] * bool(pmu) + [f"PMU: {f['phase']}[{f['impl']}]: misaligned loads +{f['loads']} "
                             f"stores +{f['stores']}{f['ref'] or ''}" for f in pmu]
    if b.done:
        L.append(wmlog.DONE.format(**b.done) + (
            " (the log's FAIL: lines say which)" if b.done["failures"] else ""))
    print("\n".join(L))
    return 0


def cmd_cycles(a):
    """make cycles' tables from the model's CSV (and lib built by clang, its own columns): the
    cells as a log's sweep tables, the fleet mix as a log's, and ours over the fastest other."""
    head, model = cycles.read_csv(a.csv, a.impl)
    for kind, cells in (cycles.read_csv(a.clang, a.impl)[1] if a.clang else {}).items():
        model[kind].update({(k[0], f"{k[1]} (clang)", *k[2:]): dict(r, impl=f"{k[1]} (clang)")
                            for k, r in cells.items()})     # lib built by clang: its own columns
    rows = [r for cells in model.values() for r in cells.values()]
    impls = list(dict.fromkeys(r["impl"] for r in rows))
    # The model's instructions read as a log's counts under -icount (a cycle an instruction).
    run = types.SimpleNamespace(lock=True, board=False, impls=impls, fns=list(dict.fromkeys(
        r["fn"] for r in rows)), **{kind: {k: dict(r, instret=r["ins"], cycles=r["ins"])
                                           for k, r in model[kind].items()} for kind in model})
    print("Modeled cycles of one call (llvm-mca, SiFive U74 and U54 pipeline models; a model, "
          "not a board)", *head, sep="\n")
    for kind in ("sweep", "extra"):
        for fn, ts in sweep_tables(run, getattr(run, kind), {"sweep": model[kind]}).items():
            print("\n".join(x for t in ts for x in table((
                f"{fn}, {t[0]} ({kind}): instructions, modeled U74 / U54 cycles per call "
                "[per byte]", *t[1:]))))
    for fn, t in zip(dict.fromkeys(k[0] for k in run.mix), mix_tables(run, model)):
        print("\n".join(table(t)))
        # Ours (the first, and its clang build) and each --own one (a user's) against the
        # fastest of the others, per core.
        means = {i: mix_means(run, model, i, fn).get("all") for i in impls}
        for i in (i for i in impls if (i.startswith(impls[0]) or i in (a.own or ())) and means[i]):
            others = [o for o in impls if means[o] and o.split(" (")[0] != i.split(" (")[0]]
            if others:
                print(f"{i} / fastest other:" + "".join(
                    f" {core} {means[i][k] / means[b][k]:.2f} ({b})"
                    for core, k in (("U74", 3), ("U54", 4))
                    for b in [min(others, key=lambda o: means[o][k])]))
    return 0


def cmd_compare(a):
    """Two cycle model CSVs cell by cell, or (--within) AFTER held within PCT % of BEFORE."""
    rows = [{(kind, *k): r for kind, cells in cycles.read_csv(path, a.impl)[1].items()
             for k, r in cells.items()} for path in (a.before, a.after)]
    keys = [k for k in rows[0] if k in rows[1]]
    if not keys:
        raise Error(f"{a.before} and {a.after} have no cell in common")
    print(f"{len(keys)} cells in both ({a.before} -> {a.after})")
    if a.within is not None:
        return within(rows, keys, a.within)
    worse = []
    for m, name in (("ins", "instructions"), ("u74", "U74 model"), ("u54", "U54 model")):
        b, f = (sum(r[k][m] for k in keys) for r in rows)
        d = [rows[1][k][m] - rows[0][k][m] for k in keys]
        print(f"{name:>12}: {sum(x < 0 for x in d)} cells better, {sum(x == 0 for x in d)} "
              f"the same, {sum(x > 0 for x in d)} worse; total {b} -> {f} ({f / b - 1:+.1%})")
        worse += [(k, name, rows[0][k][m], rows[1][k][m]) for k, x in zip(keys, d) if x > 0]
    for k, name, x, y in sorted(worse, key=str):
        r = rows[1][k]
        what = (f"mix class {r['cls']}" if k[0] == "mix" else
                f"{cycles.pair(r['dst'], r['src'])} n={r['n']}")
        print(f"worse: {r['impl']} {r['fn']} {what}{' (extra)' if k[0] == 'extra' else ''}: "
              f"{name} {x} -> {y}")


def within(rows, keys, pct):
    """PASS:/FAIL: lines: AFTER's total U74 and U54 cycles over the cells and over the mix, and
    each cell at the largest size (the steady-state loops), at most pct % above BEFORE's."""
    cells, mix = ([k for k in keys if (k[0] == "mix") == m] for m in (False, True))
    top = max(k[5] for k in cells)
    checks = [(f"total {m.upper()} cycles over {what}", [m], ks)
              for what, ks in ((f"{len(cells)} cells", cells), (f"the mix ({len(mix)} rows)", mix))
              if ks for m in ("u74", "u54")]
    checks += [(f"{k[2]} {k[1]} {cycles.pair(k[3], k[4])} n={k[5]}", ["u74", "u54"], [k])
               for k in cells if k[5] == top]
    bad = 0
    for what, ms, ks in checks:
        for m in ms:
            b, f = (sum(r[k][m] for k in ks) for r in rows)
            vd, _, text = verdict(what, (f / b - 1) * 100, f"{m.upper()} {b} -> {f} "
                                  f"({f / b - 1:+.1%})", pct, None, unit=" % more")
            bad += vd != "PASS"
            print(f"{vd}: {what}: {text}")
    return 1 if bad else 0


def model_md(run, model, cores, figs):
    """The cycle model: its steady state; on a board's log, measured cycles against it."""
    info, ms, sw, board = model["info"], model["sweep"], run.sweep, run.board
    L = [f"From `{model['path']}` (llvm-mca: {info.get('llvm-mca', '?')}; the traced image's "
         f"flags: `{info.get('cflags', '?')}`): a model, not a board (docs/benchmarks.md); its "
         f"{model['shared']} sweep cells have the log's instruction counts.\n"]
    mimpls, rows = [i for i in run.impls if any(k[1] == i for k in ms)], []
    for fn, cls in ((fn, cls) for fn in run.fns for cls in ("al", "mis")):
        sel = [k for k in ms if k[0] == fn and pair_class(k[2], k[3]) == cls]
        if not sel:
            continue
        n = max(k[4] for k in sel)
        rows.append([(f"{fn}, dst%8 {'=' if cls == 'al' else '≠'} 0" if sel[0][3] is None else
                      f"{run.title[fn].split(' (')[0]}, "
                      + ("co-aligned" if cls == "al" else "relatively misaligned"))
                     + f", {size_label(n)}"])
        for ks in ([k for k in sel if k[1] == impl and k[4] == n] for impl in mimpls):
            rows[-1].append(" / ".join(f"{max(ms[k][c] for k in ks) / n:.3f}" for c in cores)
                            if ks else "–")
    L.append(table((f"Steady state at the largest modeled size: modeled "
                    f"{' / '.join(c.upper() for c in cores)} cycles per byte, worst pair of each "
                    "row", [""] + mimpls, rows), True))
    for c in cores if board else ():
        qs = {(fn, i): sorted(sw[k]["cycles"] / ms[k][c] for k in ms if k[:2] == (fn, i)
                              and k in sw) for fn in run.fns for i in mimpls}
        L.append(table((f"Measured rdcycle / modeled {c.upper()} cycles, every sweep cell of "
                        f"both: median (range)", [""] + mimpls, [[run.title[fn]] + [
                            f"×{x[len(x) // 2]:.2f} ({x[0]:.2f}–{x[-1]:.2f}, {len(x)} cells)"
                            if x else "–" for x in (qs[(fn, i)] for i in mimpls)]
                            for fn in run.fns]), True))
    if board:
        L.append(plot(figs, "board-model.svg", f"Board {run.meta['platform']}: measured against "
                      "modeled cycles, every sweep cell", [{"title": f"the {c.upper()} model",
                        "ylabel": "measured rdcycle per call", "counter": c, "series": {
                            i: [(ms[k][c], sw[k]["cycles"]) for k in sorted(ms)
                                if k[1] == i and k in sw] for i in mimpls}} for c in cores],
                      "scatter", run.ours))
        L.append(f"The board's model (platform `{run.meta['platform']}`): " + (
            f"the {cores[0].upper()}'s.\n" if len(cores) == 1 else "both, as tools/report.py "
            "knows no such board (`make report ... CORE=u74` picks one).\n"))
    return L


def plot(figs, name, title, panels, kind, ours):
    """Draw PANELS, [{title, counter, series: {impl: [(x, y)]}}], as the SVG NAME in FIGS, and
    give its Markdown image.  kind line: per byte against size; bar: a group of bars per size
    class; scatter: measured against modeled; every y axis log.  Its data, as drawn, is kept in
    the SVG's description (tests/plots-check.py compares it with the tables)."""
    import matplotlib.pyplot as plt    # Debian python3-matplotlib; only make report draws
    plt.rcParams.update({"svg.hashsalt": "wordmerge", "font.size": 8, "axes.titley": 1})
    # The same bytes each time (the salt).  Margins in inches and titles at the panels' tops, not
    # measured: one draw saves it.  No minor ticks on the log y axes: each an artist, 1-2-3-5 do.
    w, h = 4.6 * len(panels) + 1.9, 4    # the top .8: two lines of title, then the panels' titles
    fig, axes = plt.subplots(1, len(panels), figsize=(w, h), squeeze=False)
    fig.subplots_adjust(left=.8 / w, right=1 - 1.9 / w, bottom=.5 / h, top=1 - .8 / h, wspace=.3)
    impls = list(panels[0]["series"])      # the log's panel: every implementation
    for ax, p in zip(axes[0], panels):
        for impl, pts in p["series"].items():
            (xs, ys), j, us = zip(*pts), impls.index(impl), impl == ours
            # Ours on top: thick, solid, dark red; each peer a colour (no red), a dash and a hollow
            # marker of its own, smaller than the one before: coinciding series ring each other.
            k = (j - 1) % 9
            c, mark, dash = ("darkred", "o", "-") if us else (f"C{k + (k > 2)}", "s^vDPX<>h"[k],
                                                              ("--", "-.", ":")[k % 3])
            st = dict(label=impl + " (this lib)" * us, gid=f"series-{impl}", zorder=3 - (not us))
            fill = c if us else "none"
            if kind == "bar":
                bw = .8 / len(impls)    # the bars of a class side by side, in the legend's order
                ax.bar([i + (j - len(impls) / 2 + .5) * bw for i in range(len(xs))], ys, bw,
                       color=c, edgecolor="black" if us else "none", **st)
            elif kind == "scatter":
                ax.scatter(xs, ys, s=22, marker=mark, edgecolors=c, facecolors=fill, **st)
            else:
                ax.plot(xs, ys, marker=mark, ls=dash, lw=2.2 if us else 1.1, color=c,
                        ms=3.5 if us else 10 - k, mfc=fill, **st)
        ax.set(title=p["title"], ylabel=p["ylabel"] + " (log)", yscale="log",
               xscale="linear" if kind == "bar" else "log", xlabel={"line": "size, bytes (log)",
               "bar": "size class, bytes", "scatter": "modeled cycles per call"}[kind])
        ax.yaxis.set(major_locator=plt.LogLocator(subs=(1, 2, 3, 5)), major_formatter="{x:g}",
                     minor_locator=plt.NullLocator())
        lo = min(y for pts in p["series"].values() for _, y in pts)     # a named tick below it
        ax.set_ylim(max(t for t in ax.yaxis.get_major_locator().tick_values(lo / 10, lo)
                        if t <= lo))
        if kind == "line":        # a tick at each measured size, the round ones named
            ns = sorted({x for pts in p["series"].values() for x, _ in pts})
            named = [n for n in ns if n in (1, 8, 64, 4096, 65536, 1 << 20)]
            ax.set_xticks(ns, [""] * len(ns), minor=True)
            ax.set_xticks(named, [size_label(n).removeprefix("n=") for n in named])
        elif kind == "bar":
            ax.set_xticks(range(len(xs)), xs)
        else:                     # scatter: measured = modeled
            ax.axline((1, 1), (2, 2), color="grey", lw=.6, ls="--")
        ax.grid(alpha=.3)
    fig.legend(*axes[0][0].get_legend_handles_labels(), loc="upper left",
               bbox_to_anchor=(1 - 1.8 / w, 1 - .8 / h))
    fig.suptitle(textwrap.fill(title + ": lower is better" * (kind != "scatter"), 55 * len(panels)))
    svg, data = io.StringIO(), json.dumps({"kind": kind, "panels": panels})
    fig.savefig(svg, format="svg", metadata={"Date": None, "Title": title, "Description": data})
    plt.close(fig)
    figs[name] = svg.getvalue()
    return f"![{title}]({name})\n"


def counters(run, model, cores):
    """(counter, what, where) of the plots' panels: the log's counter, each core's model."""
    return ([("instret", "instructions", "QEMU -icount")] if run.lock else [
        ("cycles", "cycles", f"board {run.meta['platform']}")]) + [
        (c, "cycles", f"{c.upper()} model (llvm-mca)") for c in (cores if model else ())]


def sweep_plot(run, figs, fn, d, s, model, cores):
    """fn at the pair (d, s): per byte against size, a panel per counter (the table's sizes)."""
    ns = {k[4] for k in run.sweep if k[0] == fn and k[2:4] == (d, s)} - {0}
    cells = [sorted((k, v) for k, v in x.items() if k[0] == fn and k[2:4] == (d, s) and k[4] in ns)
             for x in (run.sweep, model["sweep"] if model else {})]   # the log's, the model's
    panels = [{"title": f"{where}: {what} per byte", "ylabel": f"{what} per byte", "counter": c,
               "series": {i: pts for i in run.impls for pts in [[(k[4], v[c] / k[4]) for k, v in
                   cells[c not in ("instret", "cycles")] if k[1] == i and c in v]] if pts}}
              for c, what, where in counters(run, model, cores)]
    return plot(figs, f"sweep-{fn}-{d}-{'x' if s is None else s}.svg", f"{run.title[fn]}, "
                f"{pair_text(d, s)}", panels, "line", run.ours)


def mix_plot(run, figs, fn, model, cores):
    """fn's fleet call mix: the mean per call of each size class, a panel per counter."""
    means = {i: mix_means(run, model, i, fn) for i in run.impls}
    classes = ["all"] + list(dict.fromkeys(k[2] for k in run.mix if k[0] == fn))
    at = {"instret": 1, "cycles": 2, **{c: 3 + CORES.index(c) for c in CORES}}
    panels = [{"title": f"{where}: {what} per call", "ylabel": f"mean {what} per call",
               "counter": c, "series": {i: [(cls, m[cls][at[c]]) for cls in classes if cls in m]
                                        for i, m in means.items()
                                        if m and m["all"][at[c]] is not None}}
              for c, what, where in counters(run, model, cores)]
    return plot(figs, f"mix-{fn}.svg", f"Fleet call mix, {fn}", panels, "bar", run.ours)


def report_md(run, args, sizes, targets, model, tried, cores, figs):
    b, run_info = run.b, ""
    if os.path.exists(args.log + ".run"):      # how the log was made (make bench writes it)
        with open(args.log + ".run") as f:
            run_info = " ".join(f.read().split())
    build = f"build id `{run.log.build_id}`, " if run.log.build_id else ""
    L = ["# wordmerge benchmark report\n",
         f"Made by `tools/report.py` from `{run.path}` (mode `{run.mode}`, {build}"
         f"{b.records + 2} CSV lines, CRC-32 `{b.crc:08x}` checked).\n",
         table((None, ["run", ""], facts(run) + [
             ("how it was run", run_info or "not recorded (no `LOG.run` file beside the log)"),
             ("cycle model", f"`{model['path']}`" if model else "absent (see Modeled cycles)")],
             "ll"), True), COUNTERS + "\n"]
    big = big_tables(run) if run.big else []
    L += ["## Headline: 32 MiB buffers\n", table(big[0], True)] if big else []
    L += ["## Code size\n", table(size_table(run, sizes), True) + f"\nFrom `{sizes['elf']}` "
          "(tools/elf.py).\n" if sizes else f"No image in `{args.images}` has the log's build id "
          f"`{run.log.build_id}`: `make report ... ELF=FILE` names it.\n"]
    if targets:     # the model's cells, when there is no model, in a sentence, not as rows
        rows, vds = [t for t in targets if t[2] != NO_MODEL], {t[0] for t in targets}
        L += [f"## Targets: the bounds {run.ours} must stay within (`{args.targets}`)\n", table((
            None, ["cell", "verdict", "measured vs bound"],
            [[c, "–" if vd is None else vd if vd == "PASS" else f"**{vd}**", t]
             for vd, c, t in rows], "lll"), True) + f"\n{run.ours}'s instructions, code size "
            "and modeled cycles, each at the worst pair of the cell, as tests/bench-targets.txt "
            "says; `make bench-check` checks the same. Lower is better." + " **UNMET**: above "
            "its target, within the ceiling recorded when it was set: not met yet, no worse."
            * ("UNMET" in vds) + " –: this log cannot judge the cell (why: beside it)."
            * (None in vds) + f" {len(targets) - len(rows)} of the cycle model's cells are not "
            f"shown: {NO_MODEL}." * (len(rows) < len(targets)) + "\n"]
    if run.mix:
        L += ["## Fleet call mix\n", "The calls Google's fleet makes (tests/fleet/, drawn by "
              "tools/fleetmix.py; docs/benchmarks.md): each implementation makes the same calls; "
              "the mean per call over all of them and per size class, counted as the sweep "
              "counts" + (", and modeled by the cycle model" if model else "") + ".\n"]
        L += [table(t, True) + "\n" + mix_plot(run, figs, fn, model, cores)
              for fn, t in zip(dict.fromkeys(k[0] for k in run.mix), mix_tables(run, model, cores))]
    if run.sweep:
        L += ["## Modeled cycles (SiFive U74 and U54, llvm-mca)\n"] + (
            model_md(run, model, cores, figs) if model else ["The modeled columns are absent: " + (
                " ".join(tried) or "no cycle model CSV was given; `make cycles` makes one "
                "(docs/benchmarks.md), `make report` picks it up.") + "\n"])
        L.append("## Size sweep\n\nPer call: instructions (and cycles where they differ) [per byte]"
                 + (f"; {' / '.join(c.upper() for c in cores)}: modeled cycles" + ", then measured "
                    "/ modeled" * run.board + ", a dash if not modeled" if model else "") + ".\n")
        for fn, tables in sweep_tables(run, run.sweep, model, cores).items():
            L += [f"### {run.title[fn]}\n"] + [
                table(t, True) + "\n" + sweep_plot(run, figs, fn, d, s, model, cores)
                for t, (d, s) in zip(tables, pairs(run.sweep, fn))]
    if big:
        L += ["## 32 MiB buffers\n"] + [table(t, True) for t in big[1:]]
    return "\n".join(L)


def cmd_report(args):
    run = Run(args.log)
    if not run.lock and not run.board:
        raise Error(f"{args.log}: counts {run.counts} ({run.why}); boot without --no-icount")
    found = args.elf or args.images and elfmod.find(args.images, run.log.build_id)
    if not found and args.images:
        print(f"report: note: no image in {args.images} has the log's build id "
              f"{run.log.build_id}: no code sizes (make report ... ELF=FILE)", file=sys.stderr)
    sizes = pick(run, found, [], read_elf)[0]
    model, tried = pick(run, args.cycles, args.cycles_guess or [], read_cycles)
    # The models to show: both; on a board's log its core's (both if its name does not tell).
    cores = list(CORES) if not run.board else [args.core] if args.core else next(
        ([core] for core, rx in BOARDS if re.search(rx, run.meta["platform"], re.I)), list(CORES))
    # Targets only where instruction counts are exact: under QEMU -icount.
    targets = args.targets and run.lock and [eval_target(run, t, sizes, model)
                                             for t in read_targets(args.targets, run)[0]]
    figs = {}
    text = report_md(run, args, sizes, targets, model, tried, cores, figs)
    os.makedirs(args.out, exist_ok=True)
    for name, svg in figs.items():        # the plots beside report.md, each under its table
        wmlog.write_atomic(os.path.join(args.out, name), svg)
    wmlog.write_atomic(os.path.join(args.out, "report.md"), text)
    print(f"report: {os.path.join(args.out, 'report.md')} from {args.log}"
          + (f", cycle model {model['path']}" if model else ", no cycle model"))
    return 0


def read_misalign(path):
    """(checked, [(pc, size, kind, count, addr)]) of the plugin's report, by pc, kind, size."""
    recs, end = wmlog.read_plugin(path, "misalign-plugin v4", dict(L="xddx", S="xddx"))
    for no, _, (pc, size, count, addr) in recs:
        if size not in (1, 2, 4, 8, 16) or count <= 0:
            raise Error(f"{path}:{no}: access size {size}, count {count}")
    if end.get("records") != str(len(recs)) or not end.get("checked", "").isdigit():
        raise Error(f"{path}: its trailer says records={end.get('records')} checked="
                    f"{end.get('checked')}, for {len(recs)} records read")
    return int(end["checked"]), sorted(((pc, size, kind, count, addr) for _, kind, (
        pc, size, count, addr) in recs), key=lambda r: (r[0], r[2], r[1]))


def cmd_misalign(a):
    """The misalign plugin's records as a table by function, and the --fail-in/--require checks."""
    fail_in, require = ([x.strip() for v in opt or () for x in v.split(",") if x.strip()]
                        for opt in (a.fail_in, a.require))
    (checked, records), guest = read_misalign(a.raw), elfmod.Elf(a.elf)
    bench, funcs, owners = a.log and wmlog.read(a.log).bench, {}, guest.owners()
    for r in records:
        # Whose it is, by where it lies (elf.py whose): user_NAME.o's where no name of NAME's is.
        user, names, off = guest.whose(r[0])
        func = names[0] if names else f"user_{user}.o" if user else "<unknown>"
        where, off = (f"{func}+0x{off:x}", f"+0x{off:x}") if names else (f"0x{r[0]:x}",) * 2
        funcs.setdefault(func, []).append(types.SimpleNamespace(
            r=r, func=func, where=where, site=f"{off}:{r[2]}{r[1]}x{r[3]}", user=user,
            names=names or [func] * bool(user)))
    sites = [s for ss in funcs.values() for s in ss]
    print(f"# plugin checked {checked} data accesses")
    if checked == 0:
        print("WARN: the plugin saw no data access at all")
    print("# function  loads  stores  first-pc (symbol+off)  example-addr  "
          "sites(+off:<L|S><size>x<count>)")
    if not funcs:
        print("MISALIGNED: none")
    width = max([len(f) for f in funcs] + [8])
    for func, ss in funcs.items():
        loads, stores = (sum(s.r[3] for s in ss if s.r[2] == k) for k in "LS")
        print(f"MISALIGNED: {func:<{width}} {loads:7d} {stores:7d}  0x{ss[0].r[0]:x} "
              f"({ss[0].where})  0x{ss[0].r[4]:x}  {' '.join(s.site for s in ss)}")
    print(f"MISALIGNED-TOTAL: {sum(r[3] for r in records)} accesses at {len(records)} sites")
    for impl in bench.impls if bench else ():     # a user's: its object; another's: its symbols
        syms = {s for (i, _), s in bench.symbols.items() if i == impl}
        loads, stores = (sum(s.r[3] for s in sites if s.r[2] == k and (
            s.user == impl if impl in owners else syms & set(s.names))) for k in "LS")
        print(f"MISALIGNED-IMPL: {impl} {loads} {stores}")
    status, symbols = 0, {f.name for f in guest.functions()}
    for pat, required in [(p, False) for p in fail_in] + [(p, True) for p in require]:
        # Code no implementation owns (no function's, no user's object) may be anyone's.
        hits = [s for s in sites if any(fnmatch.fnmatchcase(n, pat) for n in s.names)
                or not (s.names or required) and guest.read(s.r[0], 2)]
        if not any(fnmatch.fnmatchcase(n, pat) for n in symbols):
            print(f"FAIL: control {pat} is not a symbol of {a.elf}" if required else
                  f"WARN: --fail-in {pat} matches no symbol in {a.elf} (typo, or inlined away?)")
        if required:
            print(f"PASS: control {pat} seen" if hits else f"FAIL: control {pat} not seen: "
                  "plugin did not observe the deliberate misaligned access")
        for s in () if required else hits:
            kind = {"L": "load", "S": "store"}[s.r[2]]
            print(f"FAIL: misaligned access in {s.func} at {s.where} ({kind}{s.r[1]} x{s.r[3]}, "
                  f"e.g. addr 0x{s.r[4]:x})")
        if not (hits or required):
            print(f"PASS: no misaligned access in {pat}")
        status |= bool(hits) != required
    return int(status)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("summary", "report", "check"):
        p = sub.add_parser(name)
        p.add_argument("log")
        p.add_argument("--elf")
        if name != "summary":
            p.add_argument("--targets", required=name == "check")
            p.add_argument("--cycles")
        if name == "report":
            p.add_argument("--out", default="build/report")
            p.add_argument("--images", metavar="O")
            p.add_argument("--cycles-guess", action="append", metavar="CSV")
            p.add_argument("--core", choices=CORES)
    p, c = sub.add_parser("cycles"), sub.add_parser("compare")
    for q, opt in ((p, "csv"), (p, "--clang"), (c, "before"), (c, "after")):
        q.add_argument(opt)
    p.add_argument("--own", action="append", help="a user's implementation: its ratio line too")
    c.add_argument("--within", type=float, metavar="PCT")
    for q in (p, c):
        q.add_argument("--impl", action="append")
    m = sub.add_parser("misalign")
    for opt in ("raw", "elf", "--log"):
        m.add_argument(opt)
    for opt in ("--fail-in", "--require"):
        m.add_argument(opt, action="append", metavar="SYM[,SYM...]")
    args = ap.parse_args()
    try:
        return globals()["cmd_" + args.cmd](args)
    except (Error, OSError) as e:
        kept = f" (no report written: {args.out} is as it was)" if args.cmd == "report" else ""
        return wmlog.fail(args.cmd, e, 2, kept)


if __name__ == "__main__":
    sys.exit(main())
