#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The cycle model's selftest (tests/tests.cfg: cycles-selftest).

    check.py --elf selftest.elf --trace TRACE

The guest (start.S) makes nine timed calls, which the trace plugin recorded.
This runs them through tools/cycles.py's chain and checks each call's
instruction count against the count by hand; per pattern and core, the
cycles that K_LONG - K_SHORT more patterns per iteration cost against the
figures by hand below; that the linking jal of calls_* costs what a jump
costs, where unconverted llvm-mca charges its call latency; and that
each check can fail: a wrong disassembly, a truncated trace, a count that
differs from the log's and a link the next instruction reads are refused.

The figures by hand, from the models' parameters (LLVM 19's
RISCVSchedSiFive7.td for the U74, RISCVSchedRocket.td for the U54, as
llvm-mca -instruction-info shows them) and llvm-mca's in-order rules (issue
in order, up to the issue width a cycle, once the operands are ready and the
unit is free):
  U74: issue width 2; pipe A: loads, stores, ALU; pipe B: ALU, jumps and
       branches; load results after 3 cycles; an ALU op that needs a load's
       or an ALU result issues a cycle after it (the late ALU and the bypass
       LLVM 17 added); a store issues 2 cycles after the load or ALU op of
       the cycle before it; jumps 1.
  U54: issue width 1; ld after 2 cycles, ALU after 1; jumps 1.
  dep_loads: each ld waits for the previous one's result: U74 3, U54 2.
  alu_pairs: independent li t0 / li t1: U74 a pair a cycle on pipes A and B,
       U54 one a cycle: 2.
  ld_st: the sd issues 2 cycles after its ld and the next ld the cycle after
       the sd (U74: both need pipe A): U74 3 a pair, U54 3.
  calls: jal ra, leaf / ret, two jumps on the one branch unit: 2 on both.
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import cycles  # noqa: E402  (tools/cycles.py)

ITERS, K_SHORT, K_LONG = 4, 4, 12      # as in start.S
# Instructions of one call by hand (start.S): the loop runs ITERS times over
# K patterns and its own instructions, then ret.
COUNT = {
    "dep_loads": lambda k: ITERS * (k + 2) + 1,        # K ld, addi, bnez
    "alu_pairs": lambda k: ITERS * (2 * k + 2) + 1,    # addi, K pairs, bnez
    "ld_st": lambda k: ITERS * (2 * k + 2) + 1,
    "calls": lambda k: 1 + ITERS * (2 * k + 2) + 2,    # mv; addi, K (jal, ret), bnez; mv, ret
}
PATTERN = {"dep_loads": (3, 2), "alu_pairs": (1, 2), "ld_st": (3, 3), "calls": (2, 2)}
failed = 0


def ok(cond, what):
    global failed
    print(f"{'PASS' if cond else 'FAIL'}: {what}")
    failed += not cond


def refused(fn, want, what):
    """fn() must raise a cycles.Error (a message for the user) whose text holds want."""
    try:
        fn()
        ok(False, f"{what}: accepted")
    except cycles.Error as e:
        ok(want in str(e), f"{what}: {e}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--elf", required=True)
    ap.add_argument("--trace", required=True)
    a = ap.parse_args()
    elf = cycles.elfmod.Elf(a.elf)
    windows, first, raw = cycles.read_trace(a.trace)
    names = [f"{n}_{k}" for n in COUNT for k in (K_SHORT, K_LONG)]
    want = [COUNT[n](k) for n in COUNT for k in (K_SHORT, K_LONG)] + [5]
    cells = [dict(name=n, instret=c) for n, c in zip(names + ["bad_link"], want)]
    seqs = cycles.cells_from_trace(windows, first, cells, raw, elf, ["timed"])
    ok(True, f"{len(seqs)} calls traced, each with its instruction count by hand "
             f"({', '.join(map(str, want))})")
    info = cycles.prepare(raw, {pc for s in seqs for p, _ in s for pc in p}, elf)
    n2 = sum(len(i.raw) == 2 for i in info.values())
    ok(True, f"round trip: {len(info)} distinct instructions ({n2} compressed, "
             f"{len(info) - n2} not) disassemble and assemble back to their bytes")

    good = seqs[:-1]
    res = cycles.model(good, info, elf, len(os.sched_getaffinity(0)))[0]
    for name, short, long_ in zip(COUNT, good[::2], good[1::2]):
        for (core, _), per in zip(cycles.CORES, PATTERN[name]):
            n, x, y = ITERS * (K_LONG - K_SHORT), res[short][core], res[long_][core]
            ok(y - x == n * per, f"{name} on the {core.upper()} model: {n} more patterns cost "
                                 f"{y - x} cycles ({x} -> {y}), by hand {n} x {per} = {n * per}")
    # calls_12 with its jal as written, which llvm-mca takes for a call.
    as_written = {pc: cycles.types.SimpleNamespace(**dict(
        vars(i), line=i.text.rsplit(" ", 1)[0] + " {L}", rvc=False))
        if i.text.startswith("jal ") else i for pc, i in info.items()}
    calls = good[-1]
    x = cycles.run_mca([cycles.mca_text(calls, as_written)], "sifive-u74",
                       [cycles.count(calls)], strict=False)[0]
    ok(x - res[calls]["u74"] >= 50, f"calls_{K_LONG} unconverted (jal ra as written): {x} "
       f"U74 cycles against {res[calls]['u74']}: the conversion avoids llvm-mca's call latency")

    refused(lambda: cycles.check_links(seqs[-1], info, elf), "the next instruction",
            "a link the next instruction reads is refused")
    pc = next(pc for pc, i in info.items() if len(i.raw) == 4 and i.text == "li t1, 2")
    wrong = [cycles.analyse(pc, raw[pc], "li t1, 3") if p == pc else i for p, i in info.items()]
    refused(lambda: cycles.roundtrip(wrong, elf), f"0x{pc:x}",
            "a disassembly that does not give back the bytes is refused, naming the pc")
    cells[3] = dict(cells[3], instret=cells[3]["instret"] + 1)
    refused(lambda: cycles.cells_from_trace(windows, first, cells, raw, elf, ["timed"]),
            names[3], "a call whose count differs from the log's is refused")
    with open(a.trace) as f, tempfile.NamedTemporaryFile("w", suffix=".trace") as t:
        t.write(f.read().rsplit("# end", 1)[0])
        t.flush()
        refused(lambda: cycles.read_trace(t.name), "truncated",
                "a trace without its '# end' line is refused")
    print(f"{'FAIL' if failed else 'PASS'}: cycles-selftest"
          + (f" ({failed} checks failed)" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except cycles.Error as e:
        print(f"FAIL: cycles-selftest: {e}")
        sys.exit(1)
