#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The cycle model: SiFive U74 and U54 cycles of each benchmark call, from the
instructions the call executed under QEMU, by LLVM's machine-code analyzer.

    cycles.py plugin-args ELF [--harness F,...] [--mark SYM]
        the trace plugin's on=/off=/mark= arguments for ELF: the two
        `csrr rd, instret` of each harness function (the first opens a
        window, the second closes it) and the mark function's entry
    cycles.py model --elf ELF --log LOG --trace TRACE --out CSV [--impl NAME]...
        the model of every cell of a BENCH=trace log (tests/cycles.mk)
    cycles.py table CSV [--impl NAME]...
        the model's table, read back from its CSV
    cycles.py compare BEFORE.csv AFTER.csv [--impl NAME]...
        cell by cell: how many cells each metric made better, kept or made
        worse, the totals, and every cell made worse (make cycles-compare)

How a cell becomes cycles (model):
 1. The trace (tools/trace-plugin.c) holds one window per timed call: every
    instruction executed between the harness's two instret reads, as runs of
    consecutive pcs, and the bytes of each distinct pc.  The windows after
    the image's mark (bench_trace_start) pair one to one, in order, with the
    log's CSV:sweep and CSV:extra lines (firmware/bench.c, trace mode).
 2. The harness's own instructions (the calling jalr, inside time_cpy or
    time_set) are dropped by the ELF's symbol ranges; what remains must be
    exactly the log's instret figure for the cell, or the trace is not of
    that run: an error.
 3. Every distinct instruction is disassembled by llvm-mc (compressed ones
    come out in their expanded spelling, every register named, so the
    registers it reads and writes and how it jumps are read off the text;
    llvm-mc with RV64IMAC's extensions only refuses any other instruction,
    which the model would not know either) and the text is proven exact: it is
    assembled again, 2-byte originals with the C extension on and 4-byte
    ones with it off (else the assembler would compress them), and the bytes
    must equal the original's.  Branch offsets are still numeric then; only
    afterwards does every branch and jump get a local label of its own as
    target (llvm-mca has no use for targets: it models the sequence as
    written, as straight-line code).
 4. llvm-mca 14 takes every jal and jalr (the 4-byte encodings, linking or
    not, and c.jalr) for a call, and a call for a 100-cycle instruction;
    only c.j and c.jr escape.  In both models every jump, linking or not,
    is one micro-op on the branch unit with a latency of 1 (llvm-mca's
    instruction info view shows it), so each jal goes to llvm-mca as c.j
    and each jalr as c.jr of the same source register: same unit, latency
    and register read, not a call (jalr's offset is an address, which a
    model without addresses never looks at).  A linking jump also loses its
    link write, which changes nothing provided (a) the instruction right
    after the jump does not read the link register, unless it is itself a
    jump or branch (it cannot pair with the jump: both need the one branch
    unit, and the U54 issues one at a time), and (b) none of the
    LINK_LOOKBACK instructions before the jump writes the link register, so
    that a later reader, now depending on that older write, finds it
    complete anyway (in order, at most two issue per cycle, and no latency
    of either model exceeds 34 cycles).  Both are checked; a cell that
    breaks them is an error.  In today's image the jumps of lib are tail
    calls (j) and returns; picolibc's speed memset calls into its byte-store
    ladder with jalr ra, -94(a3), which becomes c.jr a3.
 5. llvm-mca -mtriple=riscv64 -mcpu=sifive-u74 (and sifive-u54)
    -iterations=1 runs on each distinct sequence; its "Total Cycles" is the
    cell's figure.  Results are cached by content (the sequence text and the
    llvm-mca version and arguments), in memory and, with --cache, on disk.

The CSV (read by tools/report.py):
    # wordmerge cycle model v1
    # llvm-mca: <llvm-mca's version line>
    # elf: <path>  log: <path>
    # cflags: <the log's CSV:meta,cflags>
    fn,impl,dst,src,n,kind,instructions,u74,u54
fn as in the log (memcpy, memmove_fwd, memmove_bwd, memset), src empty for
memset, kind sweep or extra.  Bad input: a message, exit status 1, and no
CSV (it is written to a temporary file and renamed).

Python 3 standard library, and tools/elf.py (pyelftools) for the ELF.
"""

import argparse
import concurrent.futures
import hashlib
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf as elfmod  # noqa: E402  (tools/elf.py)
import wmlog  # noqa: E402  (tools/wmlog.py)

MAGIC = "# wordmerge cycle model v1"
COLUMNS = "fn,impl,dst,src,n,kind,instructions,u74,u54"
CORES = (("u74", "sifive-u74"), ("u54", "sifive-u54"))
TRACE_MAGIC = "# trace-plugin v1 "
LLVM_MC = "llvm-mc"
LLVM_OBJDUMP = "llvm-objdump"
LLVM_MCA = "llvm-mca"
MC_ARGS = ["-triple=riscv64", "-mattr=+m,+a,+c"]
MCA_ARGS = ["-mtriple=riscv64", "-iterations=1", "-instruction-info=0",
            "-resource-pressure=0"]
HARNESS = ("time_cpy", "time_set")
MARK = "bench_trace_start"
# See step 4 of the docstring: 2 x 34 cycles (the U54 model's division),
# rounded up.
LINK_LOOKBACK = 72


class Error(Exception):
    """Bad input or a failed check: a message for the user."""


# ---- ELF (tools/elf.py) ------------------------------------------------------------

def open_elf(path):
    try:
        return elfmod.Elf(path)
    except elfmod.ElfError as e:
        raise Error(str(e))


def symbol(elf, name):
    """(address, size) of the function NAME."""
    try:
        f = next((f for f in elf.functions() if f.name == name and f.type == "STT_FUNC"), None)
    except elfmod.ElfError as e:
        raise Error(str(e))
    if f is None:
        raise Error(f"{elf.path} has no function {name}")
    return f.addr, f.size


def where(elf, pc):
    """pc as function+offset, for messages."""
    name = elf and elf.lookup(pc)
    return f"0x{pc:x} <{name}>" if name else f"0x{pc:x}"


def plugin_args(elf, harness, marks):
    """on=, off=, mark= for the trace plugin (see the docstring)."""
    on, off = [], []
    for fn in harness:
        lo, size = symbol(elf, fn)
        # llvm-objdump spells `csrrs rd, instret, x0` (csrr rd, instret) so.
        p = run_tool([LLVM_OBJDUMP, "-d", "--no-show-raw-insn", f"--start-address=0x{lo:x}",
                      f"--stop-address=0x{lo + size:x}", elf.path], None)
        reads = [int(m.group(1), 16) for m in re.finditer(r"^\s*([0-9a-f]+):\s+rdinstret\s", p.stdout, re.M)]
        if p.returncode or len(reads) != 2:
            raise Error(f"{elf.path}: {fn} has {len(reads)} `csrr rd, instret` "
                        f"instructions, not 2 (one before the call, one after)"
                        f"{': ' + p.stderr.strip()[:200] if p.returncode else ''}")
        on.append(reads[0])
        off.append(reads[1])
    args = ["on=" + ":".join(f"0x{a:x}" for a in on),
            "off=" + ":".join(f"0x{a:x}" for a in off)]
    if marks:
        args.append("mark=" + ":".join(f"0x{symbol(elf, m)[0]:x}" for m in marks))
    return ",".join(args)


# ---- the benchmark log ------------------------------------------------------------

def read_log(path):
    """The trace-mode log (tools/wmlog.py): meta and the cells (sweep and
    extra lines) in the order of the calls."""
    try:
        log = wmlog.read(path)
    except wmlog.LogError as e:
        raise Error(str(e))
    b = log.bench
    if b is None:
        raise Error(f"{path}: no complete benchmark block (CSV:begin .. CSV:end)")
    if b.mode != "trace":
        raise Error(f"{path}: a benchmark log of mode {b.mode}, not trace "
                    f"(the model needs the image built with BENCH=trace)")
    if log.status not in (None, 0):
        raise Error(f"{path}: the image failed (EXIT: STATUS={log.status})")
    cells = [dict(b.cells[kind][key], kind=kind) for kind, key in b.order if kind != "big"]
    if not cells:
        raise Error(f"{path}: no CSV:sweep lines")
    return b.meta, cells


# ---- the trace --------------------------------------------------------------------

def read_trace(path):
    """Windows (with the index of the first after the first mark) and the
    bytes of every distinct pc."""
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise Error(f"cannot read the trace {path}: {e.strerror}")
    if not lines or not lines[0].startswith(TRACE_MAGIC):
        raise Error(f"{path}: not a trace of tools/trace-plugin.c (first line)")
    if lines[-1] == "":
        lines.pop()
    if not lines[-1].startswith("# end "):
        raise Error(f"{path}: truncated trace (no '# end' line): the QEMU run "
                    f"did not finish")
    trailer = dict(kv.partition("=")[::2] for kv in lines[-1][6:].split())
    windows, insns, first_marked = [], {}, None
    cur = None
    problems = []
    try:
        for lineno, line in enumerate(lines[1:-1], 2):
            t = line[:1]
            if t == "R":
                _, pc, n, rep = line.split()
                cur[1].append((int(pc, 16), int(n), int(rep)))
            elif t == "B":
                cur = (int(line.split()[1], 16), [])
            elif t == "E":
                _, pc, n = line.split()
                if cur is None:
                    raise ValueError
                windows.append(dict(on=cur[0], off=int(pc, 16), runs=cur[1],
                                    n=int(n)))
                cur = None
            elif t == "M":
                if first_marked is None:
                    first_marked = len(windows)
            elif t == "I":
                _, pc, size, hx = line.split()
                b = bytes.fromhex(hx)
                if len(b) != int(size):
                    raise ValueError
                insns[int(pc, 16)] = b
            elif t == "!":
                problems.append(line[2:])
            else:
                raise ValueError
    except (ValueError, TypeError, IndexError):
        raise Error(f"{path}:{lineno}: malformed line: {line[:80]}")
    if problems or trailer.get("anomalies") != "0":
        raise Error(f"{path}: the plugin saw {trailer.get('anomalies')} anomalies: "
                    + "; ".join(problems[:3]))
    if trailer.get("open") != "0" or cur is not None:
        raise Error(f"{path}: QEMU exited inside a window")
    if str(len(windows)) != trailer.get("windows") or \
            str(sum(w["n"] for w in windows)) != trailer.get("insns"):
        raise Error(f"{path}: {len(windows)} windows of {sum(w['n'] for w in windows)} "
                    f"instructions, the trailer says {trailer.get('windows')} of "
                    f"{trailer.get('insns')}")
    for w in windows:
        if sum(n * rep for _, n, rep in w["runs"]) != w["n"]:
            raise Error(f"{path}: a window's runs do not add up to its count "
                        f"(window closed at 0x{w['off']:x})")
    return windows, first_marked, insns


# ---- what the conversion needs of an instruction, from llvm-mc's text -------------

REGS = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1"] + \
    [f"a{i}" for i in range(8)] + [f"s{i}" for i in range(2, 12)] + \
    [f"t{i}" for i in range(3, 7)]


class Insn:
    """What the conversion needs to know of one instruction: the registers it
    reads and writes, whether it transfers control (ctl), whether that is a
    jump (not a conditional branch), whether its target is pc-relative (a
    label operand), the register it links to, jalr's source register."""
    __slots__ = ("pc", "raw", "size", "reads", "writes", "ctl", "jump", "pcrel",
                 "link", "jalr_rs1", "text")


# Mnemonics whose first register operand is read, not written (llvm-mc's
# spelling; every b... is a branch).
NO_DEST = ("sb", "sh", "sw", "sd", "jr", "sfence.vma")


def analyse(pc, raw, text):
    """An Insn from llvm-mc's text of raw (compressed instructions come out
    expanded, so every register is named): a register written is the first
    operand, those read the others; jal and jalr write their link (ra when
    not named), jalr, jr and ret read their source (ret: ra)."""
    i = Insn()
    i.pc, i.raw, i.size, i.text = pc, raw, len(raw), text
    mn, _, rest = text.partition(" ")
    ops = [o.strip() for o in rest.split(",")] if rest else []
    regs = [REGS.index(r) for o in ops for r in re.findall(r"[a-z][a-z0-9]*", o) if r in REGS]
    branch = mn.startswith("b")
    i.jump = mn in ("j", "jal", "jr", "jalr", "ret")
    i.ctl, i.pcrel = i.jump or branch, branch or mn in ("j", "jal")
    i.link = (regs[0] if len(ops) == 2 else 1) if mn in ("jal", "jalr") else 0
    i.jalr_rs1 = (regs[-1] if regs else 1) if mn in ("jalr", "jr", "ret") else None
    if i.jump:
        writes, reads = [i.link], [] if i.jalr_rs1 is None else [i.jalr_rs1]
    elif ops and ops[0] in REGS and not branch and mn not in NO_DEST:
        writes, reads = regs[:1], regs[1:]
    else:
        writes, reads = [], regs
    i.reads = frozenset(r for r in reads if r)
    i.writes = frozenset(r for r in writes if r)
    return i


# ---- disassembly, proven by assembling it again -------------------------------------

def run_tool(args, stdin):
    try:
        p = subprocess.run(args, input=stdin, capture_output=True, text=True)
    except OSError as e:
        raise Error(f"cannot run {args[0]} ({e.strerror}); Debian: apt-get install llvm")
    return p


def disassemble(raw, elf):
    """{pc: text} for raw ({pc: bytes}), in llvm-mc's spelling.  With only
    RV64IMAC's extensions on, llvm-mc refuses what the model cannot take."""
    pcs = sorted(raw)
    src = "\n".join(" ".join(f"0x{b:02x}" for b in raw[pc]) for pc in pcs) + "\n"
    p = run_tool([LLVM_MC, "--disassemble"] + MC_ARGS, src)
    texts = [l.strip() for l in p.stdout.split("\n")
             if l.strip() and not l.strip().startswith(".")]
    if p.returncode or "warning" in p.stderr or len(texts) != len(pcs):
        # One at a time, to name the instruction that does not decode.
        for pc in pcs:
            one = " ".join(f"0x{b:02x}" for b in raw[pc]) + "\n"
            q = run_tool([LLVM_MC, "--disassemble"] + MC_ARGS, one)
            t = [l for l in q.stdout.split("\n") if l.strip() and not l.strip().startswith(".")]
            if q.returncode or q.stderr.strip() or len(t) != 1:
                raise Error(f"llvm-mc cannot disassemble {raw[pc][::-1].hex()} "
                            f"at {where(elf, pc)}: {q.stderr.strip()[:200]}")
        raise Error(f"llvm-mc disassembled {len(texts)} instructions from "
                    f"{len(pcs)}: {p.stderr.strip()[:300]}")
    return {pc: re.sub(r"\s+", " ", t.split("#")[0]).strip() for pc, t in zip(pcs, texts)}


def roundtrip(pcs, insns, elf):
    """Assemble each text (C on for 2-byte originals, off for 4-byte ones:
    with it on the assembler compresses what it can) and compare bytes."""
    lines, rvc = [], None
    for pc in pcs:
        want = insns[pc].size == 2
        if want != rvc:
            lines.append(".option rvc" if want else ".option norvc")
            rvc = want
        lines.append(insns[pc].text)
    p = run_tool([LLVM_MC, "-show-encoding"] + MC_ARGS, "\n".join(lines) + "\n")
    if p.returncode:
        m = re.search(r"<stdin>:(\d+):", p.stderr)
        if m:
            text = lines[int(m.group(1)) - 1]
            pc = next((pc for pc in pcs if insns[pc].text == text), None)
            if pc is not None:
                raise Error(f"the disassembly of {where(elf, pc)} does not assemble: "
                            f"'{text}': {p.stderr.strip().splitlines()[0]}")
        raise Error(f"llvm-mc cannot assemble its own disassembly: {p.stderr.strip()[:300]}")
    enc = re.findall(r"# encoding: \[([^\]]*)\]", p.stdout)
    if len(enc) != len(pcs):
        raise Error(f"assembling {len(pcs)} instructions gave {len(enc)} encodings")
    for pc, e in zip(pcs, enc):
        try:
            got = bytes(int(x, 16) for x in e.split(","))
        except ValueError:      # a fixup: the text names a symbol
            raise Error(f"the disassembly of {where(elf, pc)}, '{insns[pc].text}', "
                        f"assembles to an unresolved encoding [{e}]")
        if got != insns[pc].raw:
            raise Error(f"round trip failed at {where(elf, pc)}: bytes "
                        f"{insns[pc].raw.hex(' ')} disassemble to '{insns[pc].text}', "
                        f"which assembles to {got.hex(' ')}")


def mca_line(insn):
    """The line llvm-mca gets for insn; '{L}' stands for its branch label.
    Every jump becomes c.j or c.jr (docstring, step 4)."""
    t = insn.text
    if insn.jump:
        if insn.jalr_rs1 is None:
            return "c.j {L}"
        if not insn.jalr_rs1:
            raise Error(f"jalr with source x0 at 0x{insn.pc:x}: no c.jr form")
        return f"c.jr {REGS[insn.jalr_rs1]}"
    if insn.pcrel:
        # The target is the last operand, a number relative to the pc.
        m = re.fullmatch(r"(.*[ ,])(-?\d+)", t)
        if not m:
            raise Error(f"cannot find the branch target in '{t}' at 0x{insn.pc:x}")
        return m.group(1) + "{L}"
    return t


# ---- cells --------------------------------------------------------------------------

class Seq:
    """A cell's instruction sequence, as runs: (tuple of pcs, repeat)."""

    def __init__(self, runs):
        self.runs = runs
        self.count = sum(len(p) * r for p, r in runs)
        h = hashlib.sha256()
        for p, r in runs:
            h.update(struct.pack(f"<{len(p)}QQ", *p, r))
        self.key = h.hexdigest()

    def pcs(self):
        for p, r in self.runs:
            for _ in range(r):
                yield from p


def cells_from_trace(windows, first, cells, insns, elf, harness):
    """Pair the windows after the mark with the log's cells, strip the
    harness, check each count against the log's instret figure."""
    ranges = [(lo, lo + sz) for lo, sz in (symbol(elf, f) for f in harness)]
    if first is None:
        raise Error("the trace has no mark: not a trace of a BENCH=trace image run "
                    "with mark=bench_trace_start?")
    ws = windows[first:]
    if len(ws) != len(cells):
        raise Error(f"the trace has {len(ws)} windows after the mark, the log "
                    f"{len(cells)} cells: not the same run")
    memo = {}

    def run_pcs(pc, n):
        k = (pc, n)
        if k not in memo:
            out = []
            for _ in range(n):
                if pc not in insns:
                    raise Error(f"the trace has no bytes for {where(elf, pc)}")
                if not any(lo <= pc < hi for lo, hi in ranges):
                    out.append(pc)
                pc += len(insns[pc])
            memo[k] = tuple(out)
        return memo[k]

    seqs = []
    for w, c in zip(ws, cells):
        runs = [(run_pcs(pc, n), rep) for pc, n, rep in w["runs"]]
        s = Seq([(p, r) for p, r in runs if p])
        if s.count != c["instret"]:
            where = f"log line {c['line']}: " if c.get("line") else ""
            raise Error(f"{where}{cell_label(c)}: the trace holds "
                        f"{s.count} instructions of the call, the log's instret "
                        f"says {c['instret']}")
        seqs.append(s)
    return seqs


def cell_label(c):
    if "name" in c:
        return c["name"]
    pair = f"dst%8={c['dst']}" if c["src"] is None else f"({c['dst']},{c['src']})"
    return f"{c['fn']} {c['impl']} {pair} n={c['n']}"


def check_links(seq, info, elf):
    """Step 4's conditions for every linking jump of seq."""
    if not any(info[pc].link for p, _ in seq.runs for pc in p):
        return
    flat = list(seq.pcs())
    for j, pc in enumerate(flat):
        r = info[pc].link
        if not r:
            continue
        if j + 1 < len(flat):
            nxt = info[flat[j + 1]]
            if r in nxt.reads and not nxt.ctl:
                raise Error(f"{where(elf, pc)} links to {REGS[r]}, which the next "
                            f"instruction ({where(elf, nxt.pc)}) reads: the jump cannot "
                            f"be modeled exactly without its link (tools/cycles.py, "
                            f"step 4)")
        for k in range(max(0, j - LINK_LOOKBACK), j):
            # Jumps write nothing as modeled (c.j, c.jr).
            if r in info[flat[k]].writes and not info[flat[k]].jump:
                raise Error(f"{where(elf, pc)} links to {REGS[r]}, which "
                            f"{where(elf, flat[k])} wrote {j - k} instructions "
                            f"before: the jump cannot be modeled exactly without "
                            f"its link (tools/cycles.py, step 4)")


def mca_text(seq, lines, rvc_of):
    """The llvm-mca input for seq: lines[pc] is its line ('{L}': label)."""
    out, rvc, nl = [], None, 0
    for p, r in seq.runs:
        for _ in range(r):
            for pc in p:
                want = rvc_of[pc]
                if want != rvc:
                    out.append(".option rvc" if want else ".option norvc")
                    rvc = want
                t = lines[pc]
                if "{L}" in t:
                    nl += 1
                    out.append(f".Lb{nl}:")
                    t = t.replace("{L}", f".Lb{nl}")
                out.append(t)
    return "\n".join(out) + "\n"


# ---- llvm-mca ---------------------------------------------------------------------

def mca_version():
    try:
        p = subprocess.run([LLVM_MCA, "--version"], capture_output=True, text=True)
    except OSError as e:
        raise Error(f"cannot run {LLVM_MCA} ({e.strerror}); Debian: apt-get install llvm")
    for line in p.stdout.split("\n"):
        if "version" in line.lower():
            return line.strip()
    raise Error(f"{LLVM_MCA} --version names no version")


def run_mca(text, mcpu, count, strict=True):
    """Total Cycles of text on mcpu; count: the instructions it must see.
    strict: any warning (such as "found a call") is an error."""
    p = subprocess.run([LLVM_MCA, f"-mcpu={mcpu}"] + MCA_ARGS, input=text,
                       capture_output=True, text=True)
    if p.returncode or strict and p.stderr.strip():
        raise Error(f"llvm-mca -mcpu={mcpu} failed: {p.stderr.strip()[:400]}")
    m = re.search(r"^Total Cycles:\s+(\d+)$", p.stdout, re.M)
    n = re.search(r"^Instructions:\s+(\d+)$", p.stdout, re.M)
    if not m or not n:
        raise Error(f"llvm-mca -mcpu={mcpu}: no Total Cycles in its output")
    if int(n.group(1)) != count:
        raise Error(f"llvm-mca -mcpu={mcpu} counted {n.group(1)} instructions of "
                    f"{count}")
    return int(m.group(1))


class Model:
    """llvm-mca over distinct sequences, cached by content, in parallel."""

    def __init__(self, jobs, cache_dir=None):
        self.jobs = jobs
        self.cache_dir = cache_dir
        self.version = mca_version()
        self.runs = 0
        self.hits = 0

    def _key(self, text, mcpu):
        h = hashlib.sha256()
        for part in (self.version, mcpu, " ".join(MCA_ARGS), text):
            h.update(part.encode())
            h.update(b"\0")
        return h.hexdigest()

    def _cached(self, key):
        if not self.cache_dir:
            return None
        try:
            with open(os.path.join(self.cache_dir, key)) as f:
                v = f.read().strip()
            return int(v) if v.isdigit() else None
        except OSError:
            return None

    def _store(self, key, v):
        if not self.cache_dir:
            return
        os.makedirs(self.cache_dir, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.cache_dir)
        with os.fdopen(fd, "w") as f:
            f.write(f"{v}\n")
        os.replace(tmp, os.path.join(self.cache_dir, key))

    def cycles(self, jobs_in):
        """jobs_in: {id: (count, text_fn)}; returns {id: {core: cycles}}.
        text_fn builds the text when needed (large ones are not kept)."""
        out = {i: {} for i in jobs_in}
        # Largest first: the long ones start early, the short ones fill in.
        order = sorted(jobs_in, key=lambda i: -jobs_in[i][0])

        def work(i, core, mcpu):
            count, text_fn = jobs_in[i]
            text = text_fn()
            key = self._key(text, mcpu)
            v = self._cached(key)
            if v is None:
                v = run_mca(text, mcpu, count)
                self._store(key, v)
                self.runs += 1
            else:
                self.hits += 1
            return i, core, v

        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as ex:
            futs = [ex.submit(work, i, core, mcpu) for i in order for core, mcpu in CORES]
            try:
                for f in concurrent.futures.as_completed(futs):
                    i, core, v = f.result()
                    out[i][core] = v
            except BaseException:
                for f in futs:
                    f.cancel()
                raise
        return out


# ---- the model of a log ------------------------------------------------------------

def prepare(insns_raw, pcs_used, elf):
    """Disassemble, prove and analyse every pc in pcs_used; the lines for
    llvm-mca and whether each is compressed."""
    for pc in pcs_used:
        want = elf.read(pc, len(insns_raw[pc])) if elf else None
        if elf and want != insns_raw[pc]:
            raise Error(f"the trace's bytes at {where(elf, pc)} "
                        f"({insns_raw[pc].hex(' ')}) are not the ELF's "
                        f"({want.hex(' ') if want else 'none'}): the trace is "
                        f"of another image")
    texts = disassemble({pc: insns_raw[pc] for pc in pcs_used}, elf)
    info = {pc: analyse(pc, insns_raw[pc], texts[pc]) for pc in pcs_used}
    roundtrip(sorted(info), info, elf)
    lines = {pc: mca_line(i) for pc, i in info.items()}
    # The C extension on where the original is compressed and for c.j/c.jr.
    rvc = {pc: i.size == 2 or i.jump for pc, i in info.items()}
    return info, lines, rvc


def model_cells(seqs, info, lines, rvc, model, elf):
    """{seq.key: {core: cycles}} for the distinct sequences of seqs."""
    uniq = {}
    for s in seqs:
        if s.key not in uniq:
            check_links(s, info, elf)
            uniq[s.key] = s
    jobs = {k: (s.count, (lambda s=s: mca_text(s, lines, rvc))) for k, s in uniq.items()}
    return model.cycles(jobs)


def write_atomic(path, text):
    d = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".cycles-")
    except OSError as e:
        raise Error(f"cannot write in {d}: {e.strerror}")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        umask = os.umask(0)         # mkstemp's 0600, as if created plainly
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def cmd_model(a):
    elf = open_elf(a.elf)
    meta, cells = read_log(a.log)
    memcpy_addr = symbol(elf, "memcpy")[0]
    if meta["memcpy_addr"] != f"0x{memcpy_addr:x}":
        raise Error(f"{a.log} was written by another image than {a.elf} (memcpy "
                    f"at {meta['memcpy_addr']} in the log, 0x{memcpy_addr:x} in the ELF)")
    windows, first, insns_raw = read_trace(a.trace)
    seqs = cells_from_trace(windows, first, cells, insns_raw, elf, HARNESS)
    impls = sorted({c["impl"] for c in cells})
    for i in a.impl or []:
        if i not in impls:
            raise Error(f"--impl {i}: the log has {', '.join(impls)}")
    pick = [k for k, c in enumerate(cells) if not a.impl or c["impl"] in a.impl]
    used = {pc for k in pick for p, _ in seqs[k].runs for pc in p}
    info, lines, rvc = prepare(insns_raw, used, elf)
    model = Model(a.jobs, a.cache)
    res = model_cells([seqs[k] for k in pick], info, lines, rvc, model, elf)
    out = [MAGIC, f"# llvm-mca: {model.version}", f"# elf: {a.elf}  log: {a.log}",
           f"# cflags: {meta['cflags']}", COLUMNS]
    for k in pick:
        c, r = cells[k], res[seqs[k].key]
        out.append(f"{c['fn']},{c['impl']},{c['dst']},"
                   f"{'' if c['src'] is None else c['src']},{c['n']},{c['kind']},"
                   f"{seqs[k].count},{r['u74']},{r['u54']}")
    write_atomic(a.out, "\n".join(out) + "\n")
    print(f"cycles: {len(pick)} cells ({len(res)} distinct sequences, "
          f"{sum(seqs[k].count for k in pick)} instructions), llvm-mca run "
          f"{model.runs} times, {model.hits} cached -> {a.out}", file=sys.stderr)


# ---- the table ----------------------------------------------------------------------

def read_csv(path):
    try:
        with open(path) as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise Error(f"cannot read {path}: {e.strerror}")
    if not lines or lines[0] != MAGIC:
        raise Error(f"{path}: not a cycle model CSV")
    i = 1
    while i < len(lines) and lines[i].startswith("#"):
        i += 1
    if i >= len(lines) or lines[i] != COLUMNS:
        raise Error(f"{path}: no column line")
    rows = []
    for lineno, line in enumerate(lines[i + 1:], i + 2):
        if not line:
            continue
        f = line.split(",")
        try:
            rows.append(dict(fn=f[0], impl=f[1], dst=int(f[2]),
                             src=None if f[3] == "" else int(f[3]), n=int(f[4]),
                             kind=f[5], ins=int(f[6]), u74=int(f[7]), u54=int(f[8])))
        except (ValueError, IndexError):
            raise Error(f"{path}:{lineno}: malformed line: {line}")
    return lines[1:i], rows


def cmd_table(a):
    head, rows = read_csv(a.csv)
    if a.impl:
        rows = [r for r in rows if r["impl"] in a.impl]
    impls = list(dict.fromkeys(r["impl"] for r in rows))
    print("Modeled cycles of one call (llvm-mca, SiFive U74 and U54 pipeline models;")
    print("a model, not a board): instructions, U74 cycles, U54 cycles, U74 cycles per byte")
    for h in head:
        print(h)
    groups = {}
    for r in rows:
        groups.setdefault((r["kind"], r["fn"], r["dst"], r["src"]), {}) \
            .setdefault(r["n"], {})[r["impl"]] = r
    w = 29
    for (kind, fn, d, s), by_n in groups.items():
        pair = f"dst%8={d}" if s is None else f"dst%8={d} src%8={s}"
        if fn == "memmove_bwd" and s is not None:
            pair += f" (dst = src + {((d - s) & 7) or 8})"
        print(f"\n{fn}, {pair}{' (extra cell)' if kind == 'extra' else ''}")
        print(f"{'n':>7}" + "".join(f" | {i:^{w}}" for i in impls))
        print(f"{'':>7}" + "".join(f" | {'ins':>7} {'U74':>6} {'U54':>6} {'c/B':>7}"
                                   for _ in impls))
        for n in sorted(by_n):
            cols = []
            for i in impls:
                r = by_n[n].get(i)
                cols.append(f" | {r['ins']:>7} {r['u74']:>6} {r['u54']:>6} "
                            f"{r['u74'] / n:>7.3f}" if r else f" | {'-':^{w}}")
            print(f"{n:>7}" + "".join(cols))


def cmd_compare(a):
    """Cell by cell, BEFORE against AFTER: how many cells each metric made
    better, kept or made worse, the totals, and every cell made worse."""
    rows = []
    for path in (a.before, a.after):
        _, rs = read_csv(path)
        rows.append({(r["impl"], r["kind"], r["fn"], r["dst"], r["src"], r["n"]): r
                     for r in rs if not a.impl or r["impl"] in a.impl})
    keys = [k for k in rows[0] if k in rows[1]]
    if not keys:
        raise Error(f"{a.before} and {a.after} have no cell in common")
    print(f"{len(keys)} cells in both ({a.before} -> {a.after})")
    worse = []
    for m, name in (("ins", "instructions"), ("u74", "U74 model"), ("u54", "U54 model")):
        b = sum(rows[0][k][m] for k in keys)
        f = sum(rows[1][k][m] for k in keys)
        d = [rows[1][k][m] - rows[0][k][m] for k in keys]
        print(f"{name:>12}: {sum(x < 0 for x in d)} cells better, {sum(x == 0 for x in d)} "
              f"the same, {sum(x > 0 for x in d)} worse; total {b} -> {f} ({f / b - 1:+.1%})")
        worse += [(k, name, rows[0][k][m], rows[1][k][m]) for k, x in zip(keys, d) if x > 0]
    for (impl, kind, fn, dst, src, n), name, x, y in sorted(worse):
        pair = f"dst%8={dst}" if src is None else f"({dst},{src})"
        print(f"worse: {impl} {fn} {pair} n={n}{' (extra)' if kind == 'extra' else ''}: "
              f"{name} {x} -> {y}")


def cmd_plugin_args(a):
    print(plugin_args(open_elf(a.elf), a.harness.split(","), a.mark))


def default_jobs():
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plugin-args", help="the trace plugin's trigger arguments")
    p.add_argument("elf")
    p.add_argument("--harness", default=",".join(HARNESS),
                   help="functions holding the two instret reads (default %(default)s)")
    p.add_argument("--mark", action="append", default=None,
                   help=f"mark function (default {MARK}; repeatable)")
    p = sub.add_parser("model", help="model every cell of a BENCH=trace run")
    p.add_argument("--elf", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--trace", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--impl", action="append", help="only this implementation (repeatable)")
    p.add_argument("-j", "--jobs", type=int, default=default_jobs(),
                   help="llvm-mca runs in parallel (default: the CPUs, %(default)s)")
    p.add_argument("--cache", help="folder for llvm-mca results, by content")
    p = sub.add_parser("table", help="print the table of a model CSV")
    p.add_argument("csv")
    p.add_argument("--impl", action="append")
    p = sub.add_parser("compare", help="compare two model CSVs cell by cell")
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--impl", action="append", help="only this implementation (repeatable)")
    a = ap.parse_args(argv)
    if a.cmd == "plugin-args" and a.mark is None:
        a.mark = [MARK]
    if getattr(a, "jobs", 1) < 1:
        ap.error("--jobs must be at least 1")
    try:
        {"plugin-args": cmd_plugin_args, "model": cmd_model, "table": cmd_table,
         "compare": cmd_compare}[a.cmd](a)
    except Error as e:
        print(f"cycles.py: error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:         # cycles.py table | head
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
