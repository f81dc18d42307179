#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Read the benchmark image's log (firmware/bench.c) and report on it.

  report.py report LOG [--out DIR] [--elf ELF | --elf-guess PATTERN] [--run-info FILE]
                       [--cycles CSV | --cycles-guess CSV...] [--core u74|u54]
      DIR/report.md with tables and PNG plots (gnuplot): the size sweep
      (cycles per byte against size, per alignment and implementation), the
      32 MiB offset matrix as heat maps, code size, and the targets.
      With the cycle model's CSV, its modeled SiFive U74/U54 cycles beside
      the instruction counts (tables, and a second panel in the sweep
      plots); with a board's log, beside the measured cycles, with the
      ratio.  Everything is written to a temporary folder first and moved
      into place at the end: a log that is foreign, truncated or malformed,
      or a --cycles CSV of another build, gives an error, exit status 1 and
      no new report.
  report.py summary LOG [--elf ELF] [--per-call]
      The image's tables as text (run-qemu.sh prints them after a run):
      the run's facts, code size (from ELF), the size sweep (per call in
      mode quick), the 32 MiB tables, the PMU lines and the verdict.
  report.py check LOG --targets FILE [--elf ELF] [--cycles CSV]
      Check wordmerge's instruction counts in LOG (a run under QEMU -icount
      shift=0), its code size (from ELF) and its modeled cycles (from CSV)
      against the targets file: one PASS:/FAIL: line per cell, a SUMMARY:
      line, exit status 1 if any FAILs.

LOG may be a QEMU log or a board's serial capture: carriage returns and
anything before the first CSV line (boot messages, line noise) are ignored.
CSV is tools/cycles.py's (make cycles): "# wordmerge cycle model v1", "#"
lines, then fn,impl,dst,src,n,kind,instructions,u74,u54 per cell (kind
sweep or extra).  It is used only if every sweep cell it shares with LOG
has LOG's instruction count: the same build (a board's instret counts the
same instructions as QEMU's for the same image).
Python standard library only; gnuplot is called as a subprocess.
"""
import argparse
import csv
import hashlib
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf as elfmod  # noqa: E402  (tools/elf.py)

# The log formats read (firmware/bench.c): 2 added progress and done lines
# and the time field of sweep and extra lines.
FORMATS = (1, 2)
PREFIX = "CSV:"
IMPL_ORDER = ["wordmerge", "picolibc-size", "picolibc-speed", "byte-loop"]
FN_ORDER = ["memcpy", "memmove_fwd", "memmove_bwd", "memset"]
FN_TITLE = {
    "memcpy": "memcpy",
    "memmove_fwd": "memmove forward (dst < src)",
    "memmove_bwd": "memmove backward (dst > src, overlapping)",
    "memset": "memset",
}


class LogError(Exception):
    """The log cannot be used (foreign, truncated, malformed)."""


# ---- reading the log -----------------------------------------------------------

def read_log(path, allow_failed=False):
    """Parse LOG; returns a dict with meta, size, sweep, big, extra, done,
    the PMU: lines inside the benchmark and the exit status.  A run whose
    EXIT: status is not 0 is an error unless ALLOW_FAILED."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise LogError(f"cannot read {path}: {e.strerror}")
    text = raw.decode("utf-8", errors="replace")
    lines = text.replace("\r", "").split("\n")

    # The last CSV:begin of ours starts the run (a board log may hold an
    # aborted run before a complete one); junk may precede it on its line.
    start = None
    begins = 0
    for i, line in enumerate(lines):
        k = line.find(PREFIX + "begin,wordmerge-bench,")
        if k >= 0:
            start, begins = i, begins + 1
            lines[i] = line[k:]
    if start is None:
        raise LogError(f"{path}: not a wordmerge benchmark log "
                       f"(no '{PREFIX}begin,wordmerge-bench,' line)")
    recs = []
    pmu = []
    end = None
    for i in range(start, len(lines)):
        line = lines[i].rstrip()
        if not line.startswith(PREFIX):
            if line.startswith("PMU: "):
                pmu.append(line)
            continue
        fields = next(csv.reader([line[len(PREFIX):]]))
        if fields and fields[0] == "end":
            end = (i, fields)
            break
        recs.append((i + 1, fields))
    if end is None:
        last = recs[-1][1] if recs else []
        raise LogError(f"{path}: truncated log: no {PREFIX}end line after "
                       f"{PREFIX}begin (line {start + 1}); {len(recs) - 1} CSV lines "
                       f"read, the last: {PREFIX}{','.join(last)}")
    i_end, ef = end
    if len(ef) != 2 or not ef[1].isdigit() or int(ef[1]) != len(recs) - 1:
        raise LogError(f"{path}: truncated or damaged log: {PREFIX}end says "
                       f"{ef[1:] if len(ef) > 1 else '?'} CSV lines, "
                       f"{len(recs) - 1} found between begin and end")
    begin = recs[0][1]
    if len(begin) != 4 or begin[2] not in [str(f) for f in FORMATS]:
        raise LogError(f"{path}: unsupported log format {begin[2:3]} (this reads "
                       f"{', '.join(str(f) for f in FORMATS)})")

    data = {"path": path, "mode": begin[3], "format": int(begin[2]), "meta": {},
            "size": {}, "symbol": {}, "sweep": {}, "big": {}, "extra": {}, "done": None,
            "pmu": pmu, "exit": None, "begins": begins,
            "sha256": hashlib.sha256(raw).hexdigest(), "csv_lines": len(recs) + 1}
    for lineno, f in recs[1:]:
        try:
            parse_record(data, f)
        except (ValueError, IndexError) as e:
            raise LogError(f"{path}:{lineno}: malformed line ({e}): "
                           f"{PREFIX}{','.join(f)}")
    for line in lines[i_end + 1:]:
        m = re.match(r"EXIT: STATUS=(\d+)", line)
        if m:
            data["exit"] = int(m.group(1))
    if data["format"] >= 2 and data["done"] is None:
        raise LogError(f"{path}: damaged log: no {PREFIX}done line before {PREFIX}end")
    if data["exit"] not in (None, 0) and not allow_failed:
        raise LogError(f"{path}: the benchmark image failed (EXIT: STATUS={data['exit']})")
    for key in ("platform", "timebase_hz", "counters_lockstep", "overhead_cpy"):
        if key not in data["meta"]:
            raise LogError(f"{path}: no {PREFIX}meta,{key} line")
    if not data["sweep"] and not data["big"]:
        raise LogError(f"{path}: no measurements in the log")
    return data


def _int(s):
    if not re.fullmatch(r"\d+", s):
        raise ValueError(f"not a number: {s!r}")
    return int(s)


def _off(s):
    return None if s == "" else _int(s)


def parse_record(data, f):
    kind = f[0]
    if kind == "meta":
        if len(f) < 3:
            raise ValueError("meta needs a key and a value")
        data["meta"][f[1]] = f[2] if len(f) == 3 else f[2:]
    elif kind == "size":                # format 1: the image's symbol sizes
        if len(f) != 5:
            raise ValueError(f"size has {len(f)} fields, not 5")
        data["size"][(f[1], f[2])] = (f[3], _int(f[4]))
    elif kind == "symbol":              # format 2: the size is the ELF's
        if len(f) != 4:
            raise ValueError(f"symbol has {len(f)} fields, not 4")
        data["symbol"][(f[1], f[2])] = f[3]
    elif kind in ("sweep", "extra"):
        want = 10 if data["format"] == 1 else 11
        if len(f) != want:
            raise ValueError(f"{kind} has {len(f)} fields, not {want}")
        fn, impl = f[1], f[2]
        key = (fn, impl, _int(f[3]), _off(f[4]), _int(f[5]))
        data[kind][key] = {"runs": _int(f[6]), "cyc": _int(f[7]),
                           "ins": _int(f[8]), "ins_max": _int(f[9]),
                           "tim": _int(f[10]) if want == 11 else None}
    elif kind == "big":
        if len(f) != 10:
            raise ValueError(f"big has {len(f)} fields, not 10")
        key = (f[1], f[2], _int(f[3]), _off(f[4]))
        data["big"][key] = {"n": _int(f[5]), "runs": _int(f[6]), "cyc": _int(f[7]),
                            "ins": _int(f[8]), "tim": _int(f[9])}
    elif kind == "progress" and data["format"] >= 2:
        pass                            # what make bench shows while it runs
    elif kind == "done" and data["format"] >= 2:
        if len(f) != 4:
            raise ValueError(f"done has {len(f)} fields, not 4")
        data["done"] = {"mode": f[1], "points": _int(f[2]), "failures": _int(f[3])}
    else:
        raise ValueError(f"unknown record type {kind!r}")


# ---- code size from the ELF ------------------------------------------------------

def elf_symbols(elf):
    """{name: (addr, size, file)} of the ELF's function symbols (tools/elf.py;
    file: the source file of the symbol's compilation unit, "" if unknown)."""
    try:
        funcs = elfmod.Elf(elf).functions()
    except elfmod.ElfError as e:
        raise LogError(str(e))
    return {f.name: (f.addr, f.size, f.file or "") for f in funcs}


def elf_sizes(elf, data):
    """Code sizes from ELF, checked against the log: lib = every function
    from the source file that defines memcpy (its static helpers too)."""
    syms = elf_symbols(elf)
    if "memcpy" not in syms:
        raise LogError(f"{elf}: no memcpy symbol")
    addr = data["meta"].get("memcpy_addr")
    if addr is not None and int(addr, 16) != syms["memcpy"][0]:
        raise LogError(f"{elf} is not the image that wrote the log (memcpy at "
                       f"0x{syms['memcpy'][0]:x}, the log says {addr})")
    for (impl, fn), (sym, size) in data["size"].items():
        if sym in syms and syms[sym][1] != size:
            raise LogError(f"{elf} is not the image that wrote the log ({sym} is "
                           f"{syms[sym][1]} bytes, the log says {size})")
    for (impl, fn), sym in data["symbol"].items():
        if sym not in syms:
            raise LogError(f"{elf} is not the image that wrote the log (no function {sym})")
        data["size"][(impl, fn)] = (sym, syms[sym][1])
    libfile = syms["memcpy"][2]
    lib = sorted((name, s[1]) for name, s in syms.items() if s[2] == libfile and s[1])
    return {"elf": elf, "libfile": libfile, "lib": lib,
            "lib_total": sum(s for _, s in lib)}


def pick_elf(args, data):
    if args.elf:
        return elf_sizes(args.elf, data)
    if getattr(args, "elf_guess", None):
        path = args.elf_guess.replace("{mode}", data["mode"])
        if os.path.exists(path):
            try:
                return elf_sizes(path, data)
            except LogError as e:
                print(f"report: note: not using {path}: {e}", file=sys.stderr)
    return None


# ---- the cycle model's CSV (tools/cycles.py) -------------------------------------

CYCLES_MAGIC = "# wordmerge cycle model v1"
CYCLES_HEAD = "fn,impl,dst,src,n,kind,instructions,u74,u54"
CORES = ("u74", "u54")
CORE_NAME = {"u74": "U74", "u54": "U54"}
CORE_MCPU = {"u74": "sifive-u74", "u54": "sifive-u54"}


def read_cycles(path):
    """Parse the cycle model's CSV: {path, info, sweep, extra}; sweep and
    extra map the log's cell key (fn, impl, dst, src, n) to
    {ins, u74, u54}.  Anything unexpected is an error: a half-written or
    foreign file must not end up in a report."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise LogError(f"cannot read the cycle model {path}: {e.strerror}")
    if lines[-1] == "":
        lines.pop()
    if not lines or lines[0].rstrip() != CYCLES_MAGIC:
        raise LogError(f"{path}: not a cycle model CSV (its first line is not "
                       f"'{CYCLES_MAGIC}')")
    info = {}
    i = 1
    while i < len(lines) and lines[i].startswith("#"):
        # "# key: value", or "# elf: PATH  log: PATH" (two on one line)
        for m in re.finditer(r"(\w[\w-]*): (.*?)(?=\s{2,}\w[\w-]*: |$)", lines[i][1:].strip()):
            info[m.group(1)] = m.group(2).strip()
        i += 1
    if i >= len(lines) or lines[i].rstrip() != CYCLES_HEAD:
        raise LogError(f"{path}:{i + 1}: expected the column line '{CYCLES_HEAD}'")
    model = {"path": path, "info": info, "sweep": {}, "extra": {}}
    for lineno in range(i + 2, len(lines) + 1):
        line = lines[lineno - 1].rstrip()
        f = line.split(",")
        try:
            if len(f) != 9:
                raise ValueError(f"{len(f)} fields, not 9")
            fn, impl, d, s, n, kind = f[:6]
            if fn not in FN_ORDER:
                raise ValueError(f"unknown function {fn!r}")
            if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", impl):
                raise ValueError(f"bad implementation name {impl!r}")
            if kind not in ("sweep", "extra"):
                raise ValueError(f"kind {kind!r} is neither sweep nor extra")
            d, s, n = _int(d), _off(s), _int(n)
            if d > 7 or (s is not None and s > 7):
                raise ValueError("offsets are mod 8")
            if (s is None) != (fn == "memset"):
                raise ValueError("src must be empty for memset and only for memset")
            ins, u74, u54 = (_int(x) for x in f[6:])
            if min(n, ins, u74, u54) < 1:
                raise ValueError("n, instructions and cycles must be positive")
        except ValueError as e:
            raise LogError(f"{path}:{lineno}: malformed line ({e}): {line}")
        key = (fn, impl, d, s, n)
        if key in model[kind]:
            raise LogError(f"{path}:{lineno}: the cell {cell_name(key)} appears twice")
        model[kind][key] = {"ins": ins, "u74": u74, "u54": u54}
    if not model["sweep"]:
        raise LogError(f"{path}: no sweep cells")
    return model


def cell_name(k):
    pair = f"dst%8={k[2]}" if k[3] is None else f"({k[2]},{k[3]})"
    return f"{k[0]} {k[1]} {pair} n={k[4]}"


def match_cycles(model, data):
    """The model is for the build that wrote the log only if every cell the
    two share has the same instruction count (instret counts the same on a
    board as under QEMU for the same image).  Returns the number of shared
    cells; raises LogError otherwise."""
    sw = data["sweep"]
    shared = [k for k in model["sweep"] if k in sw]
    if not shared:
        raise LogError(f"{model['path']} shares no sweep cell with {data['path']}"
                       + ("" if sw else " (the log has no sweep)"))
    bad = [k for k in shared if model["sweep"][k]["ins"] != sw[k]["ins"]]
    if bad:
        ex = "; ".join(f"{cell_name(k)}: {model['sweep'][k]['ins']} instructions in "
                       f"the model, {sw[k]['ins']} in the log" for k in bad[:3])
        raise LogError(f"{model['path']} is from a different build than {data['path']}: "
                       f"{len(bad)} of {len(shared)} shared cells differ in instruction "
                       f"count (e.g. {ex}); remake it (make cycles) from the image "
                       f"that wrote the log")
    return len(shared)


def pick_cycles(args, data):
    """(model, note): --cycles FILE must match the log (else an error);
    --cycles-guess FILE (tried in order) is used only if it matches, and
    the note says why the modeled columns are absent otherwise."""
    if getattr(args, "cycles", None):
        model = read_cycles(args.cycles)
        model["shared"] = match_cycles(model, data)
        return model, None
    tried = []
    for path in getattr(args, "cycles_guess", None) or []:
        if not os.path.exists(path):
            continue
        try:
            model = read_cycles(path)
            model["shared"] = match_cycles(model, data)
            return model, None
        except LogError as e:
            print(f"report: warning: not using the cycle model: {e}", file=sys.stderr)
            tried.append(str(e))
    if tried:
        return None, ("The modeled columns are absent: " + " ".join(tried))
    return None, ("The modeled columns are absent: no cycle model CSV was given. "
                  "`make cycles` makes one (all implementations; `make "
                  "cycles-wordmerge` for wordmerge only) and `make report` then "
                  "picks it up, or pass it: `make report LOG=... CYCLES=FILE`.")


def board_cores(data, override=None):
    """The models to hold a board's measured cycles against: its core's, or
    both when the device tree's model names no board known here."""
    if override:
        return [override]
    p = data["meta"]["platform"].lower()
    if re.search(r"jh71[01]0|visionfive|unmatched|fu740|star64|beaglev|pinetab-v|"
                 r"milk-?v.?mars|u74", p):
        return ["u74"]
    if re.search(r"unleashed|fu540|mpfs|icicle|polarfire|u54", p):
        return ["u54"]
    return list(CORES)


def is_board(data):
    """A board's log: its counters are not in lockstep and it is not QEMU
    (QEMU without -icount has meaningless cycles, not a board's)."""
    return (data["meta"]["counters_lockstep"] != "1"
            and "qemu" not in data["meta"]["platform"].lower())


# ---- the targets ---------------------------------------------------------------------

AL_PAIRS = {(0, 0), (7, 7)}


def pair_class(fn, d, s):
    if fn == "memset":
        return "al" if d == 0 else "mis"
    return "al" if d == s else "mis"


# The instruction kinds, and the cycle model's: CORE_per_call and
# CORE_per_byte read the modeled cycles of CORE (llvm-mca) from the CSV.
TARGET_KINDS = ("per_call", "per_byte", "memcpy+") + tuple(
    f"{c}_{k}" for c in CORES for k in ("per_call", "per_byte"))


def model_kind(kind):
    """(core, per_call|per_byte) of a cycle model kind, else None."""
    core, _, what = kind.partition("_")
    return (core, what) if core in CORES else None


def read_targets(path):
    rows = []
    scope = "any"
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise LogError(f"cannot read the targets {path}: {e.strerror}")
    for i, line in enumerate(text.split("\n"), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        p = line.split()
        if p[0] == "for" and len(p) == 2:
            scope = p[1]                # the build the rows below are for
            continue
        if len(p) not in (5, 6):
            raise LogError(f"{path}:{i}: need 5 or 6 fields: function n pairs kind "
                           "bound [ceiling]")
        fn, n, pairs, kind, bound = p[:5]
        try:
            ceiling = float(p[5]) if len(p) == 6 else None
            if fn == "size":
                rows.append({"fn": fn, "opt": n, "what": pairs, "kind": kind,
                             "bound": int(bound), "line": i})
                continue
            if fn not in FN_ORDER or kind not in TARGET_KINDS or not (
                    pairs in ("al", "mis", "any") or re.fullmatch(r"\d(,\d)?", pairs)):
                raise ValueError("unknown function, pairs or kind")
            rows.append({"fn": fn, "n": int(n), "pairs": pairs, "kind": kind,
                         "bound": float(bound), "ceiling": ceiling, "line": i,
                         "opt": scope})
        except ValueError as e:
            raise LogError(f"{path}:{i}: bad target line ({e}): {line}")
    return rows


def size_label(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n >> 10} KiB"
    return f"n={n}"


def log_opt(data):
    """lib's optimisation flag in the log (the last -O... of its flags)."""
    flags = data["meta"].get("lib_cflags", data["meta"].get("cflags", ""))
    opt = re.findall(r"(?:^|\s)(-O\w*)", flags)
    return opt[-1] if opt else "?"


def verdict(val, t):
    """PASS: the target is met.  UNMET: not met, but no worse than the
    ceiling recorded beside it (what the current code measured: a regression
    still fails).  FAIL: above both."""
    pre = "memcpy +" if t["kind"] == "memcpy+" else ""
    if val <= t["bound"] + 1e-12:
        return "PASS", f"<= {pre}{t['bound']:g}"
    if t.get("ceiling") is not None and val <= t["ceiling"] + 1e-12:
        return "UNMET", (f"> target {pre}{t['bound']:g}, within the recorded ceiling "
                         f"{pre}{t['ceiling']:g}")
    return "FAIL", f"> {pre}{t['bound']:g}" + (
        f" and above the recorded ceiling {pre}{t['ceiling']:g}: a regression"
        if t.get("ceiling") is not None else "")


def eval_targets(data, targets, sizes, model=None):
    """[(verdict, cell, text)] for every target that applies to the log's
    build (its -O flag); verdict PASS, UNMET, FAIL (see verdict()) or None
    (cannot be evaluated).  The cycle model's kinds read MODEL (read_cycles,
    already matched against the log)."""
    sw = data["sweep"]
    out = []
    opt = log_opt(data)
    for t in targets:
        if t["opt"] not in ("any", opt):
            continue                        # a bound for another build
        if t["fn"] == "size":
            cell = f"code size, {t['what']} at {t['opt']}"
            if sizes is None:
                out.append((None, cell, "no ELF to read the sizes from"))
                continue
            parts = ", ".join(f"{n} {s}" for n, s in sizes["lib"])
            ok = sizes["lib_total"] <= t["bound"]
            out.append(("PASS" if ok else "FAIL", cell,
                        f"{sizes['lib_total']} bytes of .text from "
                        f"{os.path.basename(sizes['libfile'])} ({parts}) "
                        f"{'<=' if ok else '>'} {t['bound']}"))
            continue
        fn, n, cls = t["fn"], t["n"], t["pairs"]
        mk = model_kind(t["kind"])

        def in_cell(k):
            return k[0] == fn and k[1] == "wordmerge" and k[4] == n and \
                (cls == "any" or pair_class(fn, k[2], k[3]) == cls or
                 cls == (f"{k[2]}" if k[3] is None else f"{k[2]},{k[3]}"))

        def pname(k):
            return f"dst%8={k[2]}" if k[3] is None else f"({k[2]},{k[3]})"
        if mk:
            core, what = mk
            cell = f"{fn} {size_label(n)} {cls} {CORE_NAME[core]} model"
            if model is None:
                out.append((None, cell, "no cycle model given (report.py --cycles FILE; "
                            "make cycles-wordmerge makes it)"))
                continue
            pts = [(k, v) for k, v in model["sweep"].items() if in_cell(k)]
            if not pts:
                out.append((None, cell, f"not modeled in {model['path']}"))
                continue
            k, v = max(pts, key=lambda kv: kv[1][core])
            src = f"llvm-mca -mcpu={CORE_MCPU[core]}"
            if what == "per_byte":
                vd, rel = verdict(v[core] / n, t)
                out.append((vd, cell, f"{v[core] / n:.4f} modeled cycles per byte "
                            f"({v[core]} per call, worst pair {pname(k)}, {src}) {rel}"))
            else:
                vd, rel = verdict(v[core], t)
                out.append((vd, cell, f"{v[core]} modeled cycles per call (worst pair "
                            f"{pname(k)}, {src}) {rel}"))
            continue
        pts = [(k, v) for k, v in sw.items() if in_cell(k)]
        cell = f"{fn} {size_label(n)} {cls}"
        if not pts:
            out.append((None, cell, "not measured in this log"))
            continue
        if t["kind"] == "memcpy+":
            worst = None
            for k, v in pts:
                ref = sw.get(("memcpy", "wordmerge", k[2], k[3], n))
                if ref is None:
                    continue
                extra = v["ins"] - ref["ins"]
                if worst is None or extra > worst[0]:
                    worst = (extra, k, v["ins"], ref["ins"])
            if worst is None:
                out.append((None, cell, "no memcpy figures to compare with"))
                continue
            extra, k, a, b = worst
            vd, rel = verdict(extra, t)
            out.append((vd, cell, f"memcpy {extra:+d} (worst pair {pname(k)}: {a} vs "
                        f"memcpy {b} instructions) {rel}"))
            continue
        k, v = max(pts, key=lambda kv: kv[1]["ins"])
        if t["kind"] == "per_byte":
            val = v["ins"] / n
            vd, rel = verdict(val, t)
            out.append((vd, cell, f"{val:.4f} instructions per byte ({v['ins']} per call, "
                        f"worst pair {pname(k)}) {rel}"))
        else:
            vd, rel = verdict(v["ins"], t)
            out.append((vd, cell, f"{v['ins']} instructions per call (worst pair "
                        f"{pname(k)}) {rel}"))
    return out


def cmd_check(args):
    data = read_log(args.log)
    if data["meta"].get("counters_lockstep") != "1":
        raise LogError(f"{args.log}: cycle and instret were not in lockstep: not a "
                       "run under QEMU -icount shift=0, instruction counts unusable")
    nondet = [k for k, v in data["sweep"].items()
              if k[1] == "wordmerge" and v["ins"] != v["ins_max"]]
    if nondet:
        raise LogError(f"{args.log}: instruction counts differ between runs of one "
                       f"point ({len(nondet)} points, e.g. {nondet[0]}): not deterministic")
    sizes = elf_sizes(args.elf, data) if args.elf else None
    targets = read_targets(args.targets)
    model = None
    if args.cycles:
        # Refused unless it is the model of this very build (match_cycles).
        model = read_cycles(args.cycles)
        model["shared"] = match_cycles(model, data)
        print(f"NOTE: cycle model {args.cycles}: its {model['shared']} sweep cells shared "
              f"with the log have the log's instruction counts")
    res = eval_targets(data, targets, sizes, model)
    skipped = sum(1 for t in targets if t["opt"] not in ("any", log_opt(data)))
    if skipped:
        print(f"NOTE: {skipped} targets are for other builds than this one "
              f"({log_opt(data)}); not checked")
    if not res:
        raise LogError(f"no target of {args.targets} applies to a {log_opt(data)} build")
    count = {"PASS": 0, "UNMET": 0, "FAIL": 0, None: 0}
    for vd, cell, text in res:
        count[vd] += 1
        print(f"{vd or 'FAIL'}: {cell}: {text}")
    nfail = count["FAIL"] + count[None]
    print(f"SUMMARY: bench-check: {len(res)} cells, {count['PASS']} targets met, "
          f"{count['UNMET']} unmet (no worse than their recorded ceilings), "
          f"{nfail} failed (targets {args.targets}, log {args.log})")
    return 1 if nfail else 0


# ---- the summary: the tables as text, for a terminal -----------------------------

def fixed(num, den, dec):
    """num / den with DEC decimals, rounded half up, as the image's C did;
    "-" for a zero denominator."""
    if not den:
        return "-"
    scale = 10 ** dec
    q = (num * scale + den // 2) // den
    return f"{q // scale}.{q % scale:0{dec}d}" if dec else str(q)


def mbps_text(n, ticks, hz):
    """MB/s (10^6 bytes per second) of n bytes in TICKS of the timebase,
    one decimal, "-" under one tick ("?" when the log has no time)."""
    if ticks is None:
        return "?"
    return fixed(n * hz // 100000, ticks * 10, 1)


def runs_text(data):
    """How many runs each point is the minimum of, from the cells."""
    if data["mode"] == "trace":
        ns = sorted({k[4] for k in data["sweep"]})
        return (f"each point is one call (trace mode: the sweep up to "
                f"{size_label(ns[-1]) if ns else '?'}, then {len({k[:1] + k[2:] for k in data['extra']})} "
                f"extra cells; make cycles models each call's instructions)")
    parts = []
    by_runs = {}
    for k, v in data["sweep"].items():
        by_runs.setdefault(v["runs"], []).append(k[4])
    for runs in sorted(by_runs, reverse=True):
        ns = by_runs[runs]
        lo, hi = min(ns), max(ns)
        parts.append(f"{runs} at {size_label(hi)}" if lo == hi else
                     f"{runs} from {size_label(lo)} to {size_label(hi)}")
    text = "sweep: " + ", ".join(parts) if parts else ""
    big_runs = sorted({v["runs"] for v in data["big"].values()})
    if big_runs:
        text += ("; " if text else "") + "32 MiB phase: " + ", ".join(map(str, big_runs))
    return f"each point is the minimum of several runs ({text})"


def summary_text(data, per_call=None):
    """The tables the image used to print itself, from its data lines: the
    run's facts, code size, the sweep (quick mode and PER_CALL: one row per
    call with rdcycle, rdinstret, rdtime and MB/s; else instructions per
    call and cycles per byte), trace mode's extra cells, the 32 MiB
    phase, the PMU's lines and the closing verdict."""
    m = data["meta"]
    hz = int(m["timebase_hz"])
    lock = m["counters_lockstep"] == "1"
    qemu = "qemu" in m["platform"].lower()
    impls = impls_in(data)
    if per_call is None:
        per_call = data["mode"] == "quick"
    cf, lf = m.get("cflags", "?"), m.get("lib_cflags", m.get("cflags", "?"))
    L = [f"wordmerge benchmark, mode {data['mode']} ({data['path']}: format "
         f"{data['format']}, {data['csv_lines']} CSV lines, end marker checked"
         + (f"; the last of {data['begins']} runs" if data["begins"] > 1 else "") + ")",
         f"platform \"{m['platform']}\" (device tree model), timebase {hz} Hz"
         + (f", {m['mem_mib']} MiB RAM" if "mem_mib" in m else ""),
         f"compiler {m.get('compiler', '?')}",
         f"flags {cf}",
         "lib's flags: " + ("the same" if lf == cf else
                            f"the same and then {lf[len(cf):].strip()}"
                            if lf.startswith(cf) else lf),
         "implementations: wordmerge = lib's memcpy/memmove/memset (the image's own);",
         "  picolibc-size = picolibc's default build (libc.a), picolibc-speed = its",
         "  release build; byte-loop = a plain byte loop (firmware/bench.c)",
         "counters: cycle = rdcycle, instret = rdinstret, time = rdtime (timebase ticks).",
         "  On QEMU with -icount shift=0 (make bench, make bench-check), cycle and",
         "  instret both count retired instructions exactly and time advances 1 ns per",
         "  instruction, so MB/s is that of a virtual machine retiring one instruction",
         "  per ns; on QEMU without -icount, cycle and instret read the host's tick",
         "  counter and mean nothing; on hardware all three are the core's counters.",
         "  This run: cycle and instret in lockstep (calibration and 4 KiB copies): "
         + ("yes" if lock else "no")
         + ((" (QEMU, consistent with -icount)" if lock else
             " (QEMU without -icount? then counts are not instructions)") if qemu else ""),
         f"figures are net of the measurement overhead, which is subtracted: "
         f"{m['overhead_cpy'][0]}",
         f"  instret and {m['overhead_cpy'][1]} cycles (memcpy/memmove), "
         f"{m['overhead_set'][0]} and {m['overhead_set'][1]} (memset), measured",
         "  around a one-instruction function, less that instruction; a figure",
         "  counts the function's own work from its first instruction through ret",
         runs_text(data)]

    L += ["", "Code size, bytes (symbol sizes from the ELF; wordmerge's static helpers such",
          "as wm_copy_fwd are not in these columns: make report adds them)"
          if data["size"] else "Code size: give the image's ELF (--elf) to see it",
          f"{'':<16} {'memcpy':>8} {'memmove':>8} {'memset':>8} {'sum':>8}"]
    for impl in sorted({k[0] for k in data["size"]}, key=impl_rank):
        sz = [data["size"].get((impl, fn), ("", 0))[1] for fn in ("memcpy", "memmove", "memset")]
        L.append(f"{impl:<16} {sz[0]:>8} {sz[1]:>8} {sz[2]:>8} {sum(sz):>8}")

    def cells_table(cells, kind):
        """The sweep's (or the extra cells') tables, one per (fn, pair)."""
        out = []
        sizes = sorted({k[4] for k in cells})     # every table's rows (the sweep)
        for fn in FN_ORDER:
            pairs = sorted({(k[2], k[3]) for k in cells if k[0] == fn}, key=pair_key)
            for d, s in pairs:
                where = f"dst%8={d}" if s is None else f"dst%8={d} src%8={s}"
                ns = sorted({k[4] for k in cells if k[0] == fn and (k[2], k[3]) == (d, s)})
                if per_call:
                    out += ["", f"{FN_TITLE[fn]}, {where}: per call (the fastest of its runs)",
                            f"{'n':>8} {'':<15} {'rdcycle':>10} {'rdinstret':>10} "
                            f"{'rdtime':>10} {'MB/s':>9}"]
                    for n in ns:
                        for impl in impls:
                            v = cells.get((fn, impl, d, s, n))
                            if v:
                                out.append(f"{n:>8} {impl:<15} {v['cyc']:>10} {v['ins']:>10} "
                                           f"{'?' if v['tim'] is None else v['tim']:>10} "
                                           f"{mbps_text(n, v['tim'], hz):>9}")
                    continue
                out += ["", f"{FN_TITLE[fn]}, {where}: instructions per call, cycles per byte",
                        f"{'n':>8}" + "".join(f" | {impl:>21}" for impl in impls)]
                for n in (sizes if kind == "sweep" else ns):
                    row = f"{n:>8}"
                    vs = [cells.get((fn, impl, d, s, n)) for impl in impls]
                    if not any(vs):
                        row += " | (dst - src >= n: no backward overlap possible)"
                    for v in vs:
                        row += (f" | {v['ins']:>8} {fixed(v['cyc'], n, 3):>8} c/B" if v else
                                f" | {'–':>8} {'':>8}    ") if any(vs) else ""
                    out.append(row)
        return out

    sw = data["sweep"]
    if sw:
        L += ["", f"=== Size sweep: {len({k[4] for k in sw})} sizes, "
              f"{len({k[1] for k in sw})} implementations"]
        L += cells_table(sw, "sweep")
    if data["extra"]:
        L += ["", "=== Extra cells (trace mode)"]
        L += cells_table(data["extra"], "extra")

    big = data["big"]
    ij = "i\\j"
    if any(k[0] == "memcpy" for k in big):
        L += ["", "=== memcpy(dst + i, src + j, 32 MiB - max(i, j)), i, j in 0..7: "
              "two 32 MiB buffers"]
    for impl in impls:
        cells = {(k[2], k[3]): v for k, v in big.items() if k[0] == "memcpy" and k[1] == impl}
        if not cells:
            continue
        for what, cell in (("MB/s", lambda v: mbps_text(v["n"], v["tim"], hz)),
                           ("cycles per byte", lambda v: fixed(v["cyc"], v["n"], 3))):
            L += ["", f"memcpy 32 MiB, {impl}: {what} (rows: dst offset i, columns: src offset j)",
                  f"{ij:>6}" + "".join(f" {j:>8}" for j in range(8))]
            for i in range(8):
                L.append(f"{i:>6}" + "".join(
                    f" {cell(cells[(i, j)]) if (i, j) in cells else '–':>8}" for j in range(8)))
    for fn in ("memset", "memmove_fwd", "memmove_bwd"):
        keys = sorted({(k[2], k[3]) for k in big if k[0] == fn}, key=pair_key)
        if not keys:
            continue
        n_any = next(v["n"] for k, v in big.items() if k[0] == fn)
        gap = (big_size(data) - n_any) // 2
        L += ["", f"=== {FN_TITLE[fn]}, 32 MiB" + (" - i" if fn == "memset" else
              f" - {2 * gap} bytes, {gap} bytes apart plus the offsets")
              + ": MB/s, cycles per byte",
              f"{'i' if fn == 'memset' else 'dst,src%8':>9}"
              + "".join(f" | {impl:>21}" for impl in impls)]
        for d, s in keys:
            row = f"{d:>9}" if s is None else f"{f'{d},{s}':>9}"
            for impl in impls:
                v = big.get((fn, impl, d, s))
                row += (f" | {mbps_text(v['n'], v['tim'], hz):>8} "
                        f"{fixed(v['cyc'], v['n'], 3):>8} c/B" if v else f" | {'–':>21}")
            L.append(row)

    if data["pmu"]:
        L += [""] + data["pmu"]
    done = data["done"]
    if done:
        L.append(f"benchmark {done['mode']}: {done['points']} points measured, "
                 f"{done['failures']} failures"
                 + (" (misaligned accesses counted in wordmerge)" if done["failures"] else ""))
    if data["exit"] not in (None, 0):
        L.append(f"(the image's EXIT: STATUS={data['exit']}: it failed, see the log)")
    return "\n".join(L) + "\n"


def big_size(data):
    return int(data["meta"].get("big_size", 32 << 20))


def cmd_summary(args):
    data = read_log(args.log, allow_failed=True)
    pick_elf(args, data)                # the code sizes
    sys.stdout.write(summary_text(data, True if args.per_call else None))
    return 0


# ---- the report -------------------------------------------------------------------

def fmt(x, d=3):
    return f"{x:.{d}f}"


def md_table(head, rows, align=None):
    align = align or ["---"] + ["---:"] * (len(head) - 1)
    out = ["| " + " | ".join(head) + " |", "|" + "|".join(align) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def impls_in(data):
    seen = {k[1] for k in data["sweep"]} | {k[1] for k in data["big"]}
    return [i for i in IMPL_ORDER if i in seen] + sorted(seen - set(IMPL_ORDER))


def mbps(n, ticks, hz):
    return n * hz / ticks / 1e6 if ticks else float("nan")


def gnuplot(tmp, name, script):
    path = os.path.join(tmp, name + ".gp")
    with open(path, "w") as f:
        f.write(script)
    try:
        r = subprocess.run(["gnuplot", path], cwd=tmp, capture_output=True, text=True)
    except FileNotFoundError:
        raise LogError("gnuplot not found (Debian: apt-get install gnuplot-nox)")
    if r.returncode != 0:
        raise LogError(f"gnuplot failed on {name}.gp: {r.stderr.strip()}")
    os.remove(path)


def q(s):
    """s in a gnuplot double-quoted string (a newline stays a line break)."""
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def pair_key(p):
    return (p[0], -1 if p[1] is None else p[1])


def plot_sweep(tmp, data, fn, impls, model=None, mcore="u74"):
    """fn's sweep: cycles per byte against size, a panel per alignment; with
    MODEL, a second panel of the same layout below: MCORE's modeled cycles
    per byte, on the same axes so that the two compare by eye."""
    sw = data["sweep"]
    keys = sorted({(k[2], k[3]) for k in sw if k[0] == fn}, key=pair_key)
    if not keys:
        return None
    mod = model["sweep"] if model else None
    dat = f"sweep-{fn}.dat"
    blocks = []
    vals = []
    with open(os.path.join(tmp, dat), "w") as f:
        for panel in ("log", "model") if mod is not None else ("log",):
            for d, s in keys:
                for impl in impls:
                    src = sw if panel == "log" else mod
                    pts = sorted((k[4], v) for k, v in src.items()
                                 if k[0] == fn and k[1] == impl and (k[2], k[3]) == (d, s))
                    if not pts:
                        continue
                    if panel == "log":
                        f.write(f"# {fn} {impl} dst%8={d} src%8={s}: n, cycles per "
                                f"byte, instructions per byte\n")
                    else:
                        f.write(f"# model {fn} {impl} dst%8={d} src%8={s}: n, modeled "
                                f"U74 and U54 cycles per byte\n")
                    for n, v in pts:
                        if panel == "log":
                            vals.append(max(v["cyc"], 1) / n)
                            f.write(f"{n} {max(v['cyc'], 1) / n:.6g} {v['ins'] / n:.6g}\n")
                        else:
                            vals.append(v[mcore] / n)
                            f.write(f"{n} {v['u74'] / n:.6g} {v['u54'] / n:.6g}\n")
                    f.write("\n\n")
                    blocks.append((panel, (d, s), impl))
    lock = data["meta"]["counters_lockstep"] == "1"
    top = ("instructions per byte" if lock else "measured cycles per byte (rdcycle)"
           if is_board(data) else "cycles per byte")
    cols = 3 if len(keys) > 4 else 2
    rows = (len(keys) + cols - 1) // cols
    panels = 2 if mod is not None else 1
    title = f"{FN_TITLE[fn]}: cycles per byte against size (minimum of the runs, net of " \
            f"overhead; {data['meta']['platform']})"
    if mod is not None:
        title += f"\ntop: {top}; bottom: modeled SiFive {CORE_NAME[mcore]} cycles " \
                 f"per byte (llvm-mca -mcpu={CORE_MCPU[mcore]})"
    maxn = max(k[4] for k in sw if k[0] == fn)
    sc = [f'set terminal pngcairo size {cols * 560},{panels * rows * 420 + 40 * panels} '
          'font "sans,10"',
          f'set output "sweep-{fn}.png"',
          f'set multiplot layout {panels * rows},{cols} title "{q(title)}"',
          "set logscale xy 2", "set grid xtics ytics mxtics",
          'set xlabel "n (bytes)"',
          'set xtics ("1" 1, "4" 4, "16" 16, "64" 64, "256" 256, "1K" 1024, "4K" 4096, '
          '"16K" 16384, "64K" 65536, "256K" 262144, "1M" 1048576)', "set key top right font \",9\"",
          "set style data linespoints"]
    if mod is not None:
        # One scale for both panels (powers of two around every value):
        # the point of the second panel is to be read against the first.
        sc.append(f"set xrange [1:{2 ** math.ceil(math.log2(maxn))}]")
        sc.append(f"set yrange [{2.0 ** math.floor(math.log2(min(vals)))}:"
                  f"{2.0 ** math.ceil(math.log2(max(vals)))}]")
    styles = {"wordmerge": 'lw 2 pt 7 ps 0.6 lc rgb "#d62728"',
              "picolibc-size": 'lw 1 pt 4 ps 0.6 lc rgb "#1f77b4"',
              "picolibc-speed": 'lw 1 pt 6 ps 0.6 lc rgb "#2ca02c"',
              "byte-loop": 'lw 1 pt 2 ps 0.6 lc rgb "#7f7f7f" dt 2'}
    for panel in ("log", "model")[:panels]:
        ylabel = top if panel == "log" else f"modeled {CORE_NAME[mcore]} cycles per byte"
        sc.append(f'set ylabel "{q(ylabel)}"')
        for d, s in keys:
            title = f"dst%8={d}" if s is None else f"dst%8={d}, src%8={s}"
            if mod is not None:
                title += ": " + (top if panel == "log" else f"{CORE_NAME[mcore]} model")
            parts = []
            for impl in impls:
                if (panel, (d, s), impl) in blocks:
                    idx = blocks.index((panel, (d, s), impl))
                    col = 3 if panel == "model" and mcore == "u54" else 2
                    parts.append(f'"{dat}" index {idx} using 1:{col} title "{q(impl)}" '
                                 f'{styles.get(impl, "lw 1")}')
            sc.append(f'set title "{q(title)}"')
            if parts:
                sc.append("plot " + ", ".join(parts))
            else:
                # An empty panel keeps the layout: the model has no such cells.
                sc.append('set label 1 "not modeled" at graph 0.5, 0.5 center')
                sc.append("plot 1/0 notitle")
                sc.append("unset label 1")
    sc.append("unset multiplot")
    gnuplot(tmp, f"sweep-{fn}", "\n".join(sc) + "\n")
    return f"sweep-{fn}.png"


def cb_tics(lo, hi):
    """Tics for a log colour bar: the powers of two inside, and the ends."""
    tics = {math.ceil(lo * 1000) / 1000, math.floor(hi * 1000) / 1000}
    t = 1 / 64
    while t <= hi:
        if lo * 1.15 < t < hi / 1.15:
            tics.add(t)
        t *= 2
    return sorted(tics)


def plot_heat(tmp, data, impls):
    """The 8x8 memcpy offset matrix, one heat map per implementation."""
    have = [i for i in impls if any(k[0] == "memcpy" and k[1] == i for k in data["big"])]
    if not have:
        return None
    vals = []
    for impl in have:
        with open(os.path.join(tmp, f"heat-{impl}.dat"), "w") as f:
            for i in range(8):
                for j in range(8):
                    v = data["big"].get(("memcpy", impl, i, j))
                    cpb = max(v["cyc"], 1) / v["n"] if v else float("nan")
                    if v:
                        vals.append(cpb)
                    f.write(f"{j} {i} {cpb:.4f}\n")
                f.write("\n")
    # One logarithmic colour scale for every panel, so colours compare.
    lo, hi = min(vals), max(vals)
    if hi <= lo * 1.01:
        lo, hi = lo / 1.1, hi * 1.1
    cols = 2
    rows = (len(have) + 1) // 2
    sc = [f'set terminal pngcairo size 1100,{rows * 480 + 40} font "sans,10"',
          'set output "heat-memcpy.png"',
          f'set multiplot layout {rows},{cols} title "memcpy(dst + i, src + j, 32 MiB - '
          f'max(i, j)): cycles per byte ({q(data["meta"]["platform"])})"',
          "set xrange [-0.5:7.5]", "set yrange [7.5:-0.5]", "set size ratio 1",
          'set xlabel "src offset j"', 'set ylabel "dst offset i"',
          "set xtics 1", "set ytics 1", "set palette rgb 33,13,10",
          "set logscale cb", f"set cbrange [{lo:.6g}:{hi:.6g}]",
          "set cbtics (" + ", ".join(f'"{t:g}" {t:g}' for t in cb_tics(lo, hi)) + ")",
          'set cblabel "cycles per byte (log scale, shared)"']
    for impl in have:
        sc.append(f'set title "{q(impl)}"')
        sc.append(f'plot "heat-{impl}.dat" using 1:2:3 with image notitle, '
                  f'"" using 1:2:(sprintf("%.2f", $3)) with labels font ",8" notitle')
    sc.append("unset multiplot")
    gnuplot(tmp, "heat-memcpy", "\n".join(sc) + "\n")
    for impl in have:
        os.remove(os.path.join(tmp, f"heat-{impl}.dat"))
    return "heat-memcpy.png"


def class_title(fn, cls):
    if fn == "memset":
        return "memset, dst%8 = 0" if cls == "al" else "memset, dst%8 ≠ 0"
    return f"{FN_TITLE[fn].split(' (')[0]}, " + ("co-aligned" if cls == "al" else
                                                 "relatively misaligned")


def ratio(a, b):
    return f"×{a / b:.2f}"


def model_md(data, model, note, impls, cores):
    """The section on the cycle model: what it is, the steady state, and
    on a board's log its measured cycles against the model."""
    L = ["## Modeled cycles (SiFive U74 and U54, llvm-mca)\n"]
    if model is None:
        L.append(note + "\n")
        return L
    info = model["info"]
    L.append(f"From `{model['path']}` (llvm-mca: {info.get('llvm-mca', 'not recorded')}; "
             f"the traced image's flags: `{info.get('cflags', 'not recorded')}`): the "
             f"instructions one call executes, traced under QEMU, run through "
             f"`llvm-mca -mcpu=sifive-u74` (dual-issue, in-order) and `-mcpu=sifive-u54` "
             f"(single-issue): latencies, issue width, one memory pipe; no caches, "
             f"instruction fetch or branch prediction. A model, not a board. Its "
             f"{model['shared']} sweep cells that this log also has carry the log's "
             f"instruction counts, so the model is of the build that wrote the log.\n")
    ms = model["sweep"]
    board = is_board(data)
    sw = data["sweep"]
    mimpls = [i for i in impls if any(k[1] == i for k in ms)]
    rows = []
    nmax = None
    for fn in FN_ORDER:
        for cls in ("al", "mis"):
            sel = [k for k in ms if k[0] == fn and pair_class(fn, k[2], k[3]) == cls]
            if not sel:
                continue
            n = max(k[4] for k in sel)
            nmax = n if nmax in (None, n) else -1
            r = [class_title(fn, cls) + ("" if n == 65536 else f", {size_label(n)}")]
            for impl in mimpls:
                ks = [k for k in sel if k[1] == impl and k[4] == n]
                if not ks:
                    r.append("–")
                    continue
                worst = {c: max(ms[k][c] for k in ks) / n for c in CORES}
                if not board:
                    r.append(f"{worst['u74']:.3f} / {worst['u54']:.3f}")
                    continue
                meas = [sw[k]["cyc"] for k in ks if k in sw]
                if not meas:
                    r.append(" / ".join(f"{worst[c]:.3f}" for c in cores) + " (not measured)")
                    continue
                mc = max(meas) / n
                r.append(f"{mc:.3f} / " + " / ".join(f"{worst[c]:.3f}" for c in cores)
                         + " (" + " / ".join(ratio(mc, worst[c]) for c in cores) + ")")
            rows.append(r)
    at = "64 KiB" if nmax == 65536 else "the largest modeled size"
    cn = " / ".join(CORE_NAME[c] for c in cores)
    if board:
        L.append(f"**Steady state at {at}: measured rdcycle / modeled {cn} cycles per byte "
                 f"(measured / modeled)**, worst pair of each row (each figure on its own)\n")
    else:
        L.append(f"**Steady state at {at}: modeled U74 / U54 cycles per byte**, worst pair "
                 f"of each row\n")
    L.append(md_table([""] + mimpls, rows))
    L.append("")
    if board:
        for c in cores:
            rows = []
            for fn in FN_ORDER:
                r = [FN_TITLE[fn]]
                for impl in mimpls:
                    q_ = sorted(sw[k]["cyc"] / ms[k][c] for k in ms
                                if k[0] == fn and k[1] == impl and k in sw)
                    r.append(f"×{q_[len(q_) // 2]:.2f} ({q_[0]:.2f}–{q_[-1]:.2f}, "
                             f"{len(q_)} cells)" if q_ else "–")
                rows.append(r)
            L.append(f"**Measured rdcycle / modeled {CORE_NAME[c]} cycles, every sweep cell "
                     f"of both: median (range)**\n")
            L.append(md_table([""] + mimpls, rows))
            L.append("")
        L.append("The board's model: " + (
            f"the {CORE_NAME[cores[0]]}'s, from the platform name `{data['meta']['platform']}`"
            if len(cores) == 1 else
            f"both, as the platform name `{data['meta']['platform']}` names no board known "
            f"to tools/report.py (`make report ... CORE=u74` picks one)") +
            ". Where the board is slower than its model the difference is what the model "
            "leaves out: caches, instruction fetch, branch prediction.\n")
    ex = model["extra"]
    if ex:
        L.append("**Modeled cells outside the sweep** (per call [per byte])\n")
        L.append(md_table(["function", "implementation", "dst%8", "src%8", "n",
                           "instructions", "U74 cycles", "U54 cycles"],
                          [[k[0], k[1], k[2], "–" if k[3] is None else k[3], k[4],
                            v["ins"], f"{v['u74']} [{v['u74'] / k[4]:.3f}]",
                            f"{v['u54']} [{v['u54'] / k[4]:.3f}]"]
                           for k, v in sorted(ex.items(), key=lambda kv: (
                               FN_ORDER.index(kv[0][0]), impl_rank(kv[0][1]),
                               kv[0][2], -1 if kv[0][3] is None else kv[0][3],
                               kv[0][4]))],
                          ["---", "---"] + ["---:"] * 6))
        L.append("")
    return L


def impl_rank(impl):
    return IMPL_ORDER.index(impl) if impl in IMPL_ORDER else len(IMPL_ORDER)


def report_md(data, sizes, targets, run_info, plots, impls, model=None, model_note=None,
              cores=CORES):
    m = data["meta"]
    hz = int(m["timebase_hz"])
    lock = m["counters_lockstep"] == "1"
    L = []
    L.append("# wordmerge benchmark report\n")
    L.append(f"Made by `tools/report.py` from `{data['path']}` (sha256 "
             f"`{data['sha256'][:16]}…`, mode `{data['mode']}`, {data['csv_lines']} CSV "
             f"lines, end marker checked"
             + (f"; the log held {data['begins']} runs, this is the last" if data["begins"] > 1 else "")
             + ").\n")
    L.append(md_table(["run", ""], [
        ["platform (device tree model)", m["platform"]],
        ["compiler", m.get("compiler", "?")],
        ["flags", f"`{m.get('cflags', '?')}`"],
        ["lib's flags", f"`{m['lib_cflags']}`" if m.get("lib_cflags") not in
         (None, m.get("cflags")) else "the same"],
        ["timebase", f"{hz} Hz"],
        ["cycle/instret in lockstep", "yes: instruction-exact (QEMU -icount shift=0)"
         if lock else "no: hardware counters, or QEMU without -icount (then meaningless)"],
        ["measurement overhead (subtracted)",
         f"memcpy/memmove {m['overhead_cpy'][0]} instructions, {m['overhead_cpy'][1]} cycles; "
         f"memset {m['overhead_set'][0]}, {m['overhead_set'][1]}"],
        ["how it was run", run_info or "not recorded (no `LOG.run` file beside the log)"],
        ["cycle model", f"`{model['path']}`" if model else "absent (see Modeled cycles)"],
    ], ["---", "---"]))
    L.append("")
    L.append("Counters: `cycle` = rdcycle, `instret` = rdinstret, `time` = rdtime. Every "
             "figure is the minimum over the runs of a point, **net of the measurement "
             "overhead** (the deltas around a one-instruction function called the same "
             "way, less that instruction): a per-call figure counts the function's own "
             "work from its first instruction through its `ret`. Per byte = per call / n. "
             "MB/s = bytes / (rdtime delta / timebase), 10^6 bytes per second. Under QEMU "
             "with `-icount shift=0` cycle and instret both count retired instructions "
             "and time advances 1 ns per instruction, so MB/s there is that of a virtual "
             "machine retiring one instruction per ns. Implementations: **wordmerge** "
             "(lib/wordmerge.c), **picolibc-size** (picolibc's default Debian build), "
             "**picolibc-speed** (its release build), **byte-loop** (a plain byte loop, "
             "firmware/bench.c).\n")

    big = data["big"]
    if big:
        L.append("## Headline: 32 MiB buffers (the 2021 series' method)\n")
        rows = []
        for impl in impls:
            def agg(sel):
                v = [x for k, x in big.items() if k[1] == impl and sel(k)]
                if not v:
                    return "–", "–"
                r = [mbps(x["n"], x["tim"], hz) for x in v]
                c = [x["cyc"] / x["n"] for x in v]
                mean = sum(r) / len(r)
                rng = f" ({min(r):.0f}–{max(r):.0f})" if max(r) - min(r) > 0.05 * mean else ""
                return f"{mean:.0f}{rng}", fmt(sum(c) / len(c))
            cols = [impl]
            for sel in (lambda k: k[0] == "memcpy" and k[2] == k[3],
                        lambda k: k[0] == "memcpy" and k[2] != k[3],
                        lambda k: k[0] == "memset",
                        lambda k: k[0] == "memmove_fwd",
                        lambda k: k[0] == "memmove_bwd"):
                cols += agg(sel)
            rows.append(cols)
        L.append(md_table(["implementation", "memcpy co-aligned MB/s", "c/B",
                           "memcpy misaligned MB/s", "c/B", "memset MB/s", "c/B",
                           "memmove fwd MB/s", "c/B", "memmove bwd MB/s", "c/B"], rows))
        L.append("\nMeans over the offsets (co-aligned: the 8 cells i = j of the 8×8 "
                 "matrix; misaligned: the other 56; memset: i = 0..7; memmove: six "
                 "(dst%8, src%8) pairs, 64 bytes apart), ranges where they spread more "
                 "than 5 %; c/B = cycles per byte.\n")

    L.append("## Code size\n")
    rows = []
    for impl in impls:
        r = [impl]
        tot = 0
        for fn in ("memcpy", "memmove", "memset"):
            v = data["size"].get((impl, fn))
            r.append(v[1] if v else "–")
            tot += v[1] if v else 0
        if impl == "wordmerge" and sizes:
            helpers = [(n, s) for n, s in sizes["lib"] if n not in ("memcpy", "memmove", "memset")]
            r.append(", ".join(f"{n} {s}" for n, s in helpers) or "–")
            r.append(f"**{sizes['lib_total']}**")
        else:
            r.append("–")
            r.append(tot)
        rows.append(r)
    L.append(md_table(["implementation", "memcpy", "memmove", "memset",
                       "static helpers", "total"], rows))
    if sizes:
        L.append(f"\nBytes of `.text` (symbol sizes after link-time relaxation, tools/elf.py) "
                 f"from `{sizes['elf']}`; wordmerge's total is every function of "
                 f"`{os.path.basename(sizes['libfile'])}`, static helpers included "
                 f"(like bloat-o-meter).\n")
    else:
        L.append("\nNo matching ELF was given (`make report LOG=... ELF=...`): code sizes "
                 "are the ELF's, so only a log of the old format (its `size` lines) has "
                 "any here, and wordmerge's static helpers are not counted.\n")

    if targets is not None:
        L.append("## Targets (issue 4)\n")
        if not lock:
            L.append("Not evaluated: instruction counts are only exact under QEMU "
                     "`-icount shift=0` (`make bench`, `make bench-check`).\n")
        else:
            L.append(md_table(["cell", "verdict", "measured vs bound"],
                              [[c, "–" if vd is None else
                                ("PASS" if vd == "PASS" else f"**{vd}**"), t]
                               for vd, c, t in targets], ["---", "---", "---"]))
            L.append("\nInstruction counts of wordmerge, worst of the pairs of the cell "
                     "(al: dst%8 = src%8; mis: the relatively misaligned pairs; memset: "
                     "dst%8 = 0 vs 1, 3, 7); cells ending in `U74 model` or `U54 model`: "
                     "the cycle model's figures (below). `make bench-check` checks the "
                     "same.\n")

    sw = data["sweep"]
    board = is_board(data)
    if sw:
        L += model_md(data, model, model_note, impls, cores)
    if sw:
        ms = model["sweep"] if model else {}
        mimpls = {k[1] for k in ms}
        L.append("## Size sweep\n")
        text = ("Per call: instructions (cycles were equal: the counters ran in "
                "lockstep); per byte in brackets. " if lock else
                "Per call: instructions / cycles; per byte in brackets. ")
        if model and not board:
            text += ("U74 / U54: the cycles one call takes in llvm-mca's SiFive U74 / "
                     "U54 model, per byte in brackets. ")
        elif model:
            text += (f"Model {' / '.join(CORE_NAME[c] for c in cores)}: the cycles one "
                     f"call takes in llvm-mca's model, per byte in brackets, then the "
                     f"measured rdcycle figure / the model's. ")
        if model:
            text += "A dash where the model has no such cell. "
        L.append(text + "Backward memmove needs dst − src < n: smaller n at such pairs "
                 "are absent.\n")

        def model_cell(key, n):
            v = ms.get(key)
            if not v:
                return "–"
            cs = CORES if not board else cores
            cell = " / ".join(str(v[c]) for c in cs) + " [" + " / ".join(
                f"{v[c] / n:.3f}" for c in cs) + "]"
            if board and key in sw:
                cell += " " + " / ".join(ratio(sw[key]["cyc"], v[c]) for c in cs)
            return cell
        for fn in FN_ORDER:
            if not any(k[0] == fn for k in sw):
                continue
            L.append(f"### {FN_TITLE[fn]}\n")
            if plots.get(fn):
                L.append(f"![{fn}: cycles per byte against size]({plots[fn]})\n")
            pairs = sorted({(k[2], k[3]) for k in sw if k[0] == fn}, key=pair_key)
            for d, s in pairs:
                L.append(f"**dst%8={d}**\n" if s is None else f"**dst%8={d}, src%8={s}**\n")
                ns = sorted({k[4] for k in sw if k[0] == fn and (k[2], k[3]) == (d, s)})
                rows = []
                head = ["n"]
                for impl in impls:
                    head.append(f"{impl} ins" + ("" if lock else " / cyc"))
                    if impl in mimpls:
                        head.append(f"{impl} " + ("U74 / U54" if not board else
                                                  "model " + " / ".join(
                                                      CORE_NAME[c] for c in cores)))
                for n in ns:
                    r = [n]
                    for impl in impls:
                        v = sw.get((fn, impl, d, s, n))
                        if not v:
                            r.append("–")
                        elif v["cyc"] == v["ins"]:
                            r.append(f"{v['ins']} [{v['ins'] / n:.3f}]")
                        else:
                            r.append(f"{v['ins']} / {v['cyc']} [{v['ins'] / n:.3f} / "
                                     f"{v['cyc'] / n:.3f}]")
                        if impl in mimpls:
                            r.append(model_cell((fn, impl, d, s, n), n))
                    rows.append(r)
                L.append(md_table(head, rows))
                L.append("")

    if big:
        L.append("## 32 MiB offset matrices\n")
        if plots.get("heat"):
            L.append(f"![memcpy offset matrix heat maps]({plots['heat']})\n")
        for impl in impls:
            if not any(k[0] == "memcpy" and k[1] == impl for k in big):
                continue
            L.append(f"**memcpy, {impl}: MB/s / cycles per byte** (rows: dst offset i, "
                     f"columns: src offset j)\n")
            rows = []
            for i in range(8):
                r = [i]
                for j in range(8):
                    v = big.get(("memcpy", impl, i, j))
                    r.append(f"{mbps(v['n'], v['tim'], hz):.0f} / {v['cyc'] / v['n']:.3f}"
                             if v else "–")
                rows.append(r)
            L.append(md_table(["i \\ j"] + [str(j) for j in range(8)], rows))
            L.append("")
        for fn in ("memset", "memmove_fwd", "memmove_bwd"):
            ks = sorted({(k[2], k[3]) for k in big if k[0] == fn},
                        key=lambda p: (p[0], -1 if p[1] is None else p[1]))
            if not ks:
                continue
            L.append(f"**{FN_TITLE[fn]}, 32 MiB: MB/s / cycles per byte**\n")
            rows = []
            for d, s in ks:
                r = [f"{d}" if s is None else f"({d},{s})"]
                for impl in impls:
                    v = big.get((fn, impl, d, s))
                    r.append(f"{mbps(v['n'], v['tim'], hz):.0f} / {v['cyc'] / v['n']:.3f}"
                             if v else "–")
                rows.append(r)
            L.append(md_table(["dst off" if fn == "memset" else "(dst%8, src%8)"] + impls, rows))
            L.append("")
    return "\n".join(L) + "\n"


def cmd_report(args):
    data = read_log(args.log)
    sizes = pick_elf(args, data)
    model, model_note = pick_cycles(args, data)
    cores = board_cores(data, args.core)
    targets = None
    if args.targets:
        targets = eval_targets(data, read_targets(args.targets), sizes, model)
    run_info = None
    ri = args.run_info or args.log + ".run"
    if os.path.exists(ri):
        with open(ri) as f:
            run_info = " ".join(f.read().split()) or None
    impls = impls_in(data)
    out = os.path.abspath(args.out)
    parent = os.path.dirname(out)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="." + os.path.basename(out) + ".tmp-", dir=parent)
    try:
        plots = {}
        for fn in FN_ORDER:
            # A board is drawn against its own core's model; U74 unless known.
            plots[fn] = plot_sweep(tmp, data, fn, impls, model,
                                   cores[0] if is_board(data) else "u74")
        plots["heat"] = plot_heat(tmp, data, impls)
        with open(os.path.join(tmp, "report.md"), "w") as f:
            f.write(report_md(data, sizes, targets, run_info, plots, impls, model,
                              model_note, cores))
        old = None
        if os.path.exists(out):
            old = tempfile.mkdtemp(prefix="." + os.path.basename(out) + ".old-", dir=parent)
            os.rename(out, os.path.join(old, "r"))
        os.chmod(tmp, 0o755)
        os.rename(tmp, out)
        if old:
            shutil.rmtree(old)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    print(f"report: {os.path.join(args.out, 'report.md')} "
          f"({len([p for p in plots.values() if p])} plots) from {args.log}"
          + (f", cycle model {model['path']}" if model else ", no cycle model"))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("report", help="write DIR/report.md and plots")
    r.add_argument("log")
    r.add_argument("--out", default="build/report")
    r.add_argument("--elf", help="the image that wrote the log (code size of lib's helpers)")
    r.add_argument("--elf-guess", help="ELF path to try, {mode} = the log's mode; "
                   "used only if it matches the log")
    r.add_argument("--targets", help="targets file: add the targets table")
    r.add_argument("--run-info", help="how the log was made (default: LOG.run)")
    r.add_argument("--cycles", help="the cycle model's CSV (tools/cycles.py) of the build "
                   "that wrote the log: modeled columns; refused if it does not match")
    r.add_argument("--cycles-guess", action="append", metavar="FILE",
                   help="a cycle model CSV to try (repeatable, first match wins); used "
                   "only if it matches the log, else the report says why not")
    r.add_argument("--core", choices=CORES, help="a board log's core, when its platform "
                   "name does not tell (default: both models)")
    sm = sub.add_parser("summary", help="print the image's tables as text")
    sm.add_argument("log")
    sm.add_argument("--elf", help="the image that wrote the log (code sizes)")
    sm.add_argument("--per-call", action="store_true", help="one row per call with "
                    "rdcycle, rdinstret, rdtime and MB/s (the default in mode quick)")
    c = sub.add_parser("check", help="check instruction counts against the targets")
    c.add_argument("log")
    c.add_argument("--targets", required=True)
    c.add_argument("--elf", help="the image that wrote the log (code size bound)")
    c.add_argument("--cycles", help="the cycle model's CSV of the same build (modeled "
                   "kinds); refused if its instruction counts differ from the log's")
    args = ap.parse_args()
    try:
        return {"report": cmd_report, "summary": cmd_summary,
                "check": cmd_check}[args.cmd](args)
    except LogError as e:
        print(f"{args.cmd}: error: {e}", file=sys.stderr)
        if args.cmd == "report":
            print(f"{args.cmd}: no report written ({args.out} left as it was)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
