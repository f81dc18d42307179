#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The cycle model: SiFive U74 and U54 cycles of each benchmark call, from the
instructions the call executed under QEMU, by LLVM's machine-code analyzer.

  plugin-args ELF [--harness F,...] [--mark SYM]   the trace plugin's on=/off=
      (the two `csrr rd, instret` of each harness function) and mark= arguments
  model --elf ELF --log LOG --trace TRACE --out CSV [--impl NAME]... [--period N]
      the model of every cell of a BENCH=trace log (tests/cycles.mk)

How a cell becomes cycles, why a jump goes to llvm-mca as c.j or c.jr, and the
CSV's format: docs/benchmarks.md, "How the model works".  Bad input: a message,
exit status 1, and no CSV.
"""

import argparse
import concurrent.futures
import functools
import itertools
import os
import re
import shutil
import subprocess
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf as elfmod  # noqa: E402  (tools/elf.py)
import wmlog  # noqa: E402  (tools/wmlog.py)
from wmlog import Error  # noqa: E402

MAGIC = "# wordmerge cycle model v2"
# A mix line's row: dst and src empty, n its bytes, kind mix, and its class and calls.
COLUMNS = "fn,impl,dst,src,n,kind,instructions,u74,u54,class,calls"
CORES = (("u74", "sifive-u74"), ("u54", "sifive-u54"))
MC_ARGS = ["-triple=riscv64", "-mattr=+m,+a,+c"]
MCA_ARGS = ["-mtriple=riscv64", "-iterations=1", "-instruction-info=0", "-resource-pressure=0"]
HARNESS, MARK = ("time_cpy", "time_set", "umode_gate"), "bench_trace_start"
LINK_LOOKBACK = 72     # a dropped link's writer this close to its reader: docs, step 4 (b)
NO_LINK = "the jump cannot be modeled exactly without its link (docs/benchmarks.md)"
REGS = ("zero ra sp gp tp t0 t1 t2 s0 s1 a0 a1 a2 a3 a4 a5 a6 a7 s2 s3 s4 s5 s6 s7 s8 s9 "
        "s10 s11 t3 t4 t5 t6").split()
# Mnemonics whose first register operand is read, not written (b...: branches).
NO_DEST = ("sb", "sh", "sw", "sd", "jr", "sfence.vma")


@functools.cache
def llvm():
    """(folder, version) of the llvm-mca-N of the highest N on the PATH, else llvm-mca: the model
    runs that folder's llvm-mca, llvm-mc and llvm-objdump (run()); one before 17 is refused."""
    p = next(filter(None, map(shutil.which, [f"llvm-mca-{v}" for v in range(40, 16, -1)]
                              + ["llvm-mca"])), None)
    m = p and re.search(r"version (\d+)\S*", run([p, "--version"]).stdout)
    if not m or int(m.group(1)) < 17:    # LLVM 17 gave the SiFive7 model its ALU bypass
        raise Error((f"{p}: {m.group(0)}: its SiFive7 model has no ALU bypass; " if m else
                     "no llvm-mca; ") + "install 17 or later (Debian: llvm-19; Fedora, Arch: llvm)")
    return os.path.dirname(os.path.realpath(p)), f"LLVM {m.group(0)}"


def run(args, stdin=None):
    args = [os.path.join(llvm()[0], args[0]), *args[1:]] if args[0].startswith("llvm-") else args
    try:
        return subprocess.run(args, input=stdin, capture_output=True, text=True)
    except OSError as e:
        raise Error(f"cannot run {args[0]} ({e.strerror})")


def where(elf, pc):
    """pc as function+offset, for messages."""
    return f"0x{pc:x} <{name}>" if (name := elf.lookup(pc)) else f"0x{pc:x}"


def plugin_args(elf, harness, marks):
    """on=, off= (each harness function's two instret reads) and mark=."""
    reads = []
    for fn in harness:
        lo, size = elf.address(fn)
        p = run(["llvm-objdump", "-d", "--no-show-raw-insn", f"--start-address=0x{lo:x}",
                 f"--stop-address=0x{lo + size:x}", elf.path])
        reads.append(re.findall(r"^\s*([0-9a-f]+):\s+rdinstret\s", p.stdout, re.M))
        if p.returncode or len(reads[-1]) != 2:
            raise Error(f"{elf.path}: {fn} has {len(reads[-1])} `csrr rd, instret` "
                        f"instructions, not 2 (one before the call, one after)"
                        f"{': ' + p.stderr.strip()[:200] if p.returncode else ''}")
    return ",".join([k + "=" + ":".join(hex(int(r[i], 16)) for r in reads)
                     for i, k in enumerate(("on", "off"))]
                    + ["mark=" + ":".join(hex(elf.address(m)[0]) for m in marks)])


def read_log(path):
    """A trace-mode log's meta and its cells (sweep, extra, mix) in call order."""
    log, b = wmlog.read_bench(path)
    if b.mode != "trace":
        raise Error(f"{path}: a benchmark log of mode {b.mode}, not trace "
                    f"(the model needs the image built with BENCH=trace)")
    cells = [dict(b.cells[kind][key], kind=kind) for kind, key in b.order if kind != "big"]
    if not cells:
        raise Error(f"{path}: no CSV:sweep lines")
    return log, b.meta, cells


def read_trace(path):
    """(windows [(runs [(pc, count, repeat)], instructions)], the index of the first window
    after the first mark, {pc: bytes}) of a trace of tools/plugin.c mode=trace (its format)."""
    recs, trailer = wmlog.read_plugin(path, "trace-plugin v1", dict(
        B="x", M="x", R="xdd", E="xd", I="xdb", **{"!": ""}))
    windows, insns, first, cur, problems = [], {}, None, None, []
    for no, t, f in recs:
        if t == "!":
            problems.append(f)
        elif t == "B":
            cur = []
        elif t == "M":
            first = len(windows) if first is None else first
        elif t == "I":
            insns[f[0]] = f[2]
            if len(f[2]) != f[1]:
                raise Error(f"{path}:{no}: {len(f[2])} bytes of an instruction of {f[1]}")
        elif cur is None:
            raise Error(f"{path}:{no}: {t} outside a window")
        elif t == "R":
            cur.append(tuple(f))
        elif sum(n * rep for _, n, rep in cur) != f[1]:
            raise Error(f"{path}:{no}: the window's runs do not add up to its count")
        else:
            windows.append((cur, f[1]))
            cur = None
    if problems or trailer.get("anomalies") != "0":
        raise Error(f"{path}: the plugin saw {trailer.get('anomalies')} anomalies: "
                    + "; ".join(problems[:3]))
    if trailer.get("open") != "0" or cur is not None:
        raise Error(f"{path}: QEMU exited inside a window")
    total = sum(n for _, n in windows)
    if str(len(windows)) != trailer.get("windows") or str(total) != trailer.get("insns"):
        raise Error(f"{path}: {len(windows)} windows of {total} instructions, the "
                    f"trailer says {trailer.get('windows')} of {trailer.get('insns')}")
    return windows, first, insns


def analyse(pc, raw, text):
    """What the model needs of one instruction (docs, steps 3 and 4): the registers it reads
    and writes, the one it links to (0: none), whether it is a jump or any transfer of control
    (ctl), its line for llvm-mca ('{L}': a label) and whether that needs the C extension."""
    mn, _, rest = text.partition(" ")
    ops = [o.strip() for o in rest.split(",")] if rest else []
    regs = [REGS.index(r) for o in ops for r in re.findall(r"[a-z][a-z0-9]*", o) if r in REGS]
    branch, jump = mn.startswith("b"), mn in ("j", "jal", "jr", "jalr", "ret")
    link = (regs[0] if len(ops) == 2 else 1) if mn in ("jal", "jalr") else 0
    source = (regs[-1] if regs else 1) if mn in ("jalr", "jr", "ret") else None
    if jump:
        writes, reads = [link], [] if source is None else [source]
    elif ops and ops[0] in REGS and not branch and mn not in NO_DEST:
        writes, reads = regs[:1], regs[1:]
    else:
        writes, reads = [], regs
    # A branch's target is its last operand, a number relative to the pc.
    line = re.sub(r"([ ,])-?\d+$", r"\1{L}", text) if branch else text
    if jump:
        if source == 0:
            raise Error(f"jalr with source x0 at 0x{pc:x}: no c.jr form")
        line = "c.j {L}" if source is None else f"c.jr {REGS[source]}"
    elif branch and line == text:
        raise Error(f"cannot find the branch target in '{text}' at 0x{pc:x}")
    return types.SimpleNamespace(
        pc=pc, raw=raw, text=text, jump=jump, ctl=jump or branch, link=link,
        reads=frozenset(r for r in reads if r), writes=frozenset(r for r in writes if r),
        line=line, rvc=len(raw) == 2 or jump)


def disassemble(raw, elf):
    """{pc: text} for raw ({pc: bytes}), in llvm-mc's spelling.  With only
    RV64IMAC's extensions on, llvm-mc refuses what the model cannot take."""
    pcs = sorted(raw)
    p = run(["llvm-mc", "--disassemble"] + MC_ARGS,
            "".join(" ".join(f"0x{b:02x}" for b in raw[pc]) + "\n" for pc in pcs))
    texts = [l.strip() for l in p.stdout.splitlines() if l.strip() and l.strip()[0] != "."]
    bad = re.search(r"^<stdin>:(\d+):", p.stderr, re.M)    # a line is a pc
    if bad:
        pc = pcs[int(bad.group(1)) - 1]
        raise Error(f"llvm-mc cannot disassemble {raw[pc][::-1].hex()} at {where(elf, pc)}: "
                    f"{p.stderr.strip().splitlines()[0][:200]}")
    if p.returncode or len(texts) != len(pcs):
        raise Error(f"llvm-mc disassembled {len(texts)} instructions from "
                    f"{len(pcs)}: {p.stderr.strip()[:300]}")
    return {pc: re.sub(r"\s+", " ", t.split("#")[0]).strip() for pc, t in zip(pcs, texts)}


def roundtrip(insns, elf):
    """The text of each of insns assembled back to its original bytes (docs, step 3)."""
    p = run(["llvm-mc", "-show-encoding"] + MC_ARGS, "".join(
        f".option {'rvc' if len(i.raw) == 2 else 'norvc'}\n{i.text}\n" for i in insns))
    if p.returncode:
        m = re.search(r"<stdin>:(\d+):", p.stderr)     # two lines an instruction
        if m:
            i = insns[(int(m.group(1)) - 1) // 2]
            raise Error(f"the disassembly of {where(elf, i.pc)} does not assemble: "
                        f"'{i.text}': {p.stderr.strip().splitlines()[0]}")
        raise Error(f"llvm-mc cannot assemble its own disassembly: {p.stderr.strip()[:300]}")
    enc = re.findall(r"# encoding: \[([^\]]*)\]", p.stdout)
    if len(enc) != len(insns):
        raise Error(f"assembling {len(insns)} instructions gave {len(enc)} encodings")
    for i, e in zip(insns, enc):
        try:
            got = bytes(int(x, 16) for x in e.split(","))
        except ValueError:      # a fixup: the text names a symbol
            raise Error(f"the disassembly of {where(elf, i.pc)}, '{i.text}', "
                        f"assembles to an unresolved encoding [{e}]")
        if got != i.raw:
            raise Error(f"round trip failed at {where(elf, i.pc)}: bytes {i.raw.hex(' ')} "
                        f"disassemble to '{i.text}', which assembles to {got.hex(' ')}")


def prepare(insns, pcs, elf):
    """{pc: analyse()} for every pc of pcs, its bytes checked against the
    ELF's and its disassembly proven by the round trip."""
    for pc in pcs:
        want = elf.read(pc, len(insns[pc]))
        if want != insns[pc]:
            raise Error(f"the trace's bytes at {where(elf, pc)} ({insns[pc].hex(' ')}) are "
                        f"not the ELF's ({want.hex(' ') if want else 'none'}): the trace "
                        f"is of another image")
    texts = disassemble({pc: insns[pc] for pc in pcs}, elf)
    info = {pc: analyse(pc, insns[pc], texts[pc]) for pc in sorted(pcs)}
    roundtrip(list(info.values()), elf)
    return info


def count(seq):
    """Instructions of seq, a cell's sequence: a tuple of runs (pcs, repeat)."""
    return sum(len(p) * r for p, r in seq)


def pair(dst, src):
    return f"dst%8={dst}" if src is None else f"({dst},{src})"


def label(c):
    """A cell or a mix line, for messages."""
    if c.get("name"):
        return c["name"]
    if c.get("class"):
        return f"{c['fn']} {c['impl']} mix class {c['class']} ({c['calls']} calls)"
    return f"{c['fn']} {c['impl']} {pair(c['dst'], c['src'])} n={c['n']}"


def cells_from_trace(windows, first, cells, insns, elf, harness):
    """The sequence of each call, less the harness's own instructions (docs, steps 1 and 2)."""
    ranges = [(lo, lo + size) for lo, size in (elf.address(f) for f in harness)]
    if first is None:
        raise Error("the trace has no mark: not a trace of a BENCH=trace image run "
                    "with mark=bench_trace_start?")
    calls = sum(c.get("calls", 1) for c in cells)
    if len(windows) - first != calls:
        raise Error(f"the trace has {len(windows) - first} windows after the mark, the "
                    f"log {calls} calls: not the same run")

    @functools.cache
    def run_pcs(pc, n):
        out = []
        for _ in range(n):
            if pc not in insns:
                raise Error(f"the trace has no bytes for {where(elf, pc)}")
            if not any(lo <= pc < hi for lo, hi in ranges):
                out.append(pc)
            pc += len(insns[pc])
        return tuple(out)

    seqs, it = [], iter(windows[first:])
    for c in cells:
        mine = [tuple((p, rep) for p, rep in ((run_pcs(pc, n), rep) for pc, n, rep in runs)
                      if p) for runs, _ in (next(it) for _ in range(c.get("calls", 1)))]
        if sum(map(count, mine)) != c["instret"]:
            raise Error(f"{label(c)}: the trace holds {sum(map(count, mine))} instructions "
                        f"of the call{'s' if len(mine) > 1 else ''}, the log's instret says "
                        f"{c['instret']}")
        seqs += mine
    return seqs


def flat(seq):
    return (pc for p, r in seq for _ in range(r) for pc in p)


def check_links(seq, info, elf):
    """Error unless each linking jump of seq can lose its link (docs, step 4 (a) and (b))."""
    if not any(info[pc].link for p, _ in seq for pc in p):
        return
    pcs = list(flat(seq))
    for j, pc in enumerate(pcs):
        r = info[pc].link
        if not r:
            continue
        if j + 1 < len(pcs) and r in info[pcs[j + 1]].reads and not info[pcs[j + 1]].ctl:
            raise Error(f"{where(elf, pc)} links to {REGS[r]}, which the next instruction "
                        f"({where(elf, pcs[j + 1])}) reads: {NO_LINK}")
        m = next((m for m in range(j + 1, len(pcs)) if r in info[pcs[m]].reads
                  or r in info[pcs[m]].writes), len(pcs))
        if m == len(pcs) or r not in info[pcs[m]].reads:
            continue            # rewritten or never read: the link is dead
        for k in range(max(0, m - LINK_LOOKBACK), j):
            w = info[pcs[k]]
            span = (LINK_LOOKBACK if w.text.startswith(("div", "rem")) else 8
                    if w.text.startswith("mul") else 6)
            if r in w.writes and not w.jump and m - k < span:
                raise Error(f"{where(elf, pc)} links to {REGS[r]}, which "
                            f"{where(elf, pcs[k])} wrote {j - k} instructions before: {NO_LINK}")


def mca_text(seq, info):
    """llvm-mca's input for seq: straight-line code, each branch and jump
    with a label of its own as target."""
    out, rvc, labels = [], None, 0
    for pc in flat(seq):
        i = info[pc]
        if i.rvc != rvc:
            rvc = i.rvc
            out.append(".option rvc" if rvc else ".option norvc")
        if "{L}" in i.line:
            labels += 1
            out.append(f".Lb{labels}:")
        out.append(i.line.replace("{L}", f".Lb{labels}"))
    return "\n".join(out) + "\n"


def run_mca(texts, mcpu, ns, strict=True):
    """llvm-mca's Total Cycles of each of texts on mcpu, which must count ns instructions,
    a code region each of one run (docs, step 5); strict: any warning is an error."""
    src = "".join(f"# LLVM-MCA-BEGIN r{k}\n{t.replace('.Lb', f'.Lr{k}_')}# LLVM-MCA-END r{k}\n"
                  for k, t in enumerate(texts))
    p = run(["llvm-mca", f"-mcpu={mcpu}"] + MCA_ARGS, src)
    if p.returncode or strict and p.stderr.strip():
        raise Error(f"llvm-mca -mcpu={mcpu} failed: {p.stderr.strip()[:400]}")
    got = [[int(v) for v in re.findall(rf"^{k}:\s+(\d+)$", p.stdout, re.M)]
           for k in ("Instructions", "Total Cycles")]
    if got[0] != list(ns) or len(got[1]) != len(ns):
        raise Error(f"llvm-mca -mcpu={mcpu}: {len(got[1])} regions of {len(ns)} with "
                    f"{got[0][:3]}... instructions, not {list(ns)[:3]}...")
    return got[1]


# llvm-mca runs of many short sequences: up to this many instructions a run.
BATCH_INSNS = 20000


# A loop, a run repeated 3 periods of PERIOD iterations or more, is modeled cut to 2 to 3
# periods, then 1 and 2 periods longer: each period adds the same cycles (docs, step 6).
PERIOD = 32


def model(seqs, info, elf, jobs, period=PERIOD):
    """({seq: {core: cycles}} of the distinct seqs, llvm-mca runs, seqs modeled
    whole: those with a loop whose two periods differ, every one with period 0)."""
    def grown(seq, k, m):
        return seq[:k] + ((seq[k][0], seq[k][1] + m * period),) + seq[k + 1:]
    plans = {}
    for s in dict.fromkeys(seqs):
        check_links(s, info, elf)
        cut = [(k, r // period - 2) for k, (_, r) in enumerate(s) if period and r >= 3 * period]
        b = functools.reduce(lambda b, kn: grown(b, kn[0], -kn[1]), cut, s)
        plans[s] = b, [(n, [grown(b, k, m) for m in (0, 1, 2)]) for k, n in cut]
    got, runs = model_exact([b for b, _ in plans.values()] + [
        p for _, loops in plans.values() for _, ps in loops for p in ps], info, jobs)
    out = {s: {core: got[b][core] + sum(n * (got[p1][core] - got[p0][core])
                                        for n, (p0, p1, _) in loops) for core, _ in CORES}
           for s, (b, loops) in plans.items()}
    whole = [s for s, (_, loops) in plans.items() if any(
        got[p1][c] - got[p0][c] != got[p2][c] - got[p1][c]
        for _, (p0, p1, p2) in loops for c, _ in CORES)]
    more = model_exact(whole, info, jobs) if whole else ({}, 0)
    out.update(more[0])
    return out, runs + more[1], len(whole)


def model_exact(seqs, info, jobs):
    """({seq: {core: cycles}} of the distinct seqs, llvm-mca runs): jobs llvm-mca runs at a
    time, the longest sequences first, the short ones together up to BATCH_INSNS a run."""
    uniq = sorted(dict.fromkeys(seqs), key=count, reverse=True)
    out, texts, batches = {s: {} for s in uniq}, {s: mca_text(s, info) for s in uniq}, []
    for core, mcpu in CORES:
        for s in uniq:
            if not batches or batches[-1][0] != core or batches[-1][3] + count(s) > BATCH_INSNS:
                batches.append([core, mcpu, [], 0])
            batches[-1][2].append(s)
            batches[-1][3] += count(s)

    def work(batch):
        core, mcpu, items, _ = batch
        for s, v in zip(items, run_mca([texts[s] for s in items], mcpu, list(map(count, items)))):
            out[s][core] = v

    ex = concurrent.futures.ThreadPoolExecutor(jobs)
    try:
        list(ex.map(work, batches))     # an error of any batch is raised here
    finally:
        ex.shutdown(cancel_futures=True)
    return out, len(batches)


def cmd_model(a):
    elf = elfmod.Elf(a.elf)
    log, meta, cells = read_log(a.log)
    elf.wrote(a.log, log.build_id, meta["memcpy_addr"])
    windows, first, insns = read_trace(a.trace)
    seqs = cells_from_trace(windows, first, cells, insns, elf, HARNESS)
    impls = sorted({c["impl"] for c in cells})
    if set(a.impl or ()) - set(impls):
        raise Error(f"--impl {' '.join(set(a.impl) - set(impls))}: the log has {', '.join(impls)}")
    ends = list(itertools.accumulate((c.get("calls", 1) for c in cells), initial=0))
    pick = [k for k, c in enumerate(cells) if not a.impl or c["impl"] in a.impl]
    mine = {k: seqs[ends[k]:ends[k + 1]] for k in pick}
    info = prepare(insns, {pc for k in pick for s in mine[k] for p, _ in s for pc in p}, elf)
    res, runs, whole = model([s for k in pick for s in mine[k]], info, elf, a.jobs, a.period)
    out = [MAGIC, f"# llvm-mca: {llvm()[1]}", f"# elf: {a.elf}  log: {a.log}",
           f"# cflags: {meta['cflags']}", COLUMNS]
    for k in pick:
        c, m = cells[k], mine[k]
        ins, u74, u54 = (sum(count(s) if x is None else res[s][x] for s in m)
                         for x in (None, "u74", "u54"))
        where = (f",,{c['bytes']}" if c["kind"] == "mix" else
                 f"{c['dst']},{'' if c['src'] is None else c['src']},{c['n']}")
        out.append(f"{c['fn']},{c['impl']},{where},{c['kind']},{ins},{u74},{u54},"
                   f"{c.get('class', '')},{len(m)}")
    wmlog.write_atomic(a.out, "\n".join(out) + "\n")
    print(f"cycles: {len(pick)} cells and mix lines ({sum(map(len, mine.values()))} calls, "
          f"{len(res)} distinct sequences, {sum(count(s) for m in mine.values() for s in m)} "
          f"instructions), {whole} whole (a loop's steps differ), {runs} llvm-mca runs "
          f"-> {a.out}", file=sys.stderr)


def read_csv(path, impls=None):
    """(the '#' lines after the first, {kind: {key: row as a dict}}) of a model CSV, a cell's
    key as the log's (fn, impl, dst, src, n; a mix line's fn, impl, class); impls: only the rows
    of these implementations."""
    with open(path) as f:
        lines = f.read().split("\n")
    if lines[0] != MAGIC:
        raise Error(f"{path}: not a cycle model CSV")
    i = next((i for i, l in enumerate(lines) if not l.startswith("#")), len(lines))
    if lines[i:i + 1] != [COLUMNS]:
        raise Error(f"{path}: no column line")
    rows = {"sweep": {}, "extra": {}, "mix": {}}
    for lineno, line in enumerate(lines[i + 1:], i + 2):
        f = line.split(",")
        try:
            if line and (not impls or f[1] in impls):
                r = dict(fn=f[0], impl=f[1], dst=int(f[2]) if f[2] else None,
                         src=int(f[3]) if f[3] else None, n=int(f[4]), kind=f[5], ins=int(f[6]),
                         u74=int(f[7]), u54=int(f[8]), cls=f[9], calls=int(f[10]))
                rows[r["kind"]][(r["fn"], r["impl"], *((r["cls"],) if r["kind"] == "mix" else (
                    r["dst"], r["src"], r["n"])))] = r
        except (ValueError, IndexError, KeyError):
            raise Error(f"{path}:{lineno}: malformed line: {line}")
    return lines[1:i], rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plugin-args", help="the trace plugin's trigger arguments")
    p.add_argument("elf")
    p.add_argument("--harness", default=",".join(HARNESS), help="default %(default)s")
    p.add_argument("--mark", action="append", help=f"default {MARK}; repeatable")
    p = sub.add_parser("model", help="model every cell of a BENCH=trace run")
    for opt in ("--elf", "--log", "--trace", "--out"):
        p.add_argument(opt, required=True)
    p.add_argument("-j", "--jobs", type=int, default=len(os.sched_getaffinity(0)),
                   help="llvm-mca runs in parallel (default: the CPUs, %(default)s)")
    p.add_argument("--impl", action="append", help="only this implementation (repeatable)")
    p.add_argument("--period", type=int, default=PERIOD,
                   help="iterations of a loop's step (default %(default)s; 0: no loop cut)")
    a = ap.parse_args(argv)
    if getattr(a, "jobs", 1) < 1 or getattr(a, "period", 0) < 0:
        ap.error("--jobs must be at least 1, --period at least 0")
    try:
        if a.cmd == "plugin-args":
            return print(plugin_args(elfmod.Elf(a.elf), a.harness.split(","), a.mark or [MARK]))
        return cmd_model(a) or 0
    except (Error, OSError) as e:
        return wmlog.fail("cycles.py", e, 1)


if __name__ == "__main__":
    sys.exit(main())
