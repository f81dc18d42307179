#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The cycle model's selftest (tests/cycles.mk: cycles-selftest).

    check.py --elf selftest.elf --trace TRACE

The guest (start.S) makes nine timed calls; the trace plugin recorded them.
This runs them through tools/cycles.py's chain (windows, harness stripped,
disassembly proven by the round trip, jumps converted, llvm-mca) and checks:

  - each call's instruction count, exactly, against the count by hand;
  - per pattern and core, the cycles that K_LONG - K_SHORT more patterns per
    iteration cost, against figures worked out by hand (below);
  - that the linking jal of calls_* costs what a jump costs, not
    llvm-mca's 100 cycles for a call, and that unconverted it would;
  - that each check can fail: a wrong disassembly text, a truncated trace,
    a count that differs from the log's, and a link that the next
    instruction reads (bad_link) are all refused.

The figures by hand, from the models' parameters (LLVM 14's
RISCVSchedSiFive7.td for the U74, RISCVSchedRocket.td for the U54, as
llvm-mca -instruction-info shows them), and llvm-mca's in-order rules
(issue in order, up to the issue width per cycle, once the operands are
ready and the unit is free; writes complete in program order):

  U74: issue width 2; pipe A: loads, stores, ALU; pipe B: ALU, jumps and
       branches; ALU and load results after 3 cycles; jumps 1.
  U54: issue width 1; ld after 2 cycles, ALU after 1; jumps 1.

  dep_loads: ld a2, 0(a2) after ld a2, 0(a2): the next load waits for the
       result: U74 3 cycles a load, U54 2.
  alu_pairs: li t0 / li t1, independent: U74 issues a pair per cycle on
       pipes A and B: 1 cycle a pair; U54 one a cycle: 2.
  ld_st: ld t0 / sd t0: the store waits for the load (U74 3 cycles, U54 2),
       and the next load issues the cycle after the store (U74: both need
       pipe A; U54: one a cycle): U74 4 cycles a pair, U54 3.
  calls: jal ra, leaf / ret: two jumps on the one branch unit, one a cycle:
       2 cycles a call on both; a call as llvm-mca models it would cost
       100 cycles.
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import cycles  # noqa: E402  (tools/cycles.py)

ITERS, K_SHORT, K_LONG = 4, 4, 12      # as in start.S
# name -> instructions of one call, by hand (start.S): the loop runs ITERS
# times over K patterns plus its own instructions, then ret.
COUNT = {
    "dep_loads": lambda k: ITERS * (k + 2) + 1,        # K ld, addi, bnez
    "alu_pairs": lambda k: ITERS * (2 * k + 2) + 1,    # addi, K pairs, bnez
    "ld_st": lambda k: ITERS * (2 * k + 2) + 1,
    "calls": lambda k: 1 + ITERS * (2 * k + 2) + 2,    # mv; addi, K (jal, ret), bnez; mv, ret
}
# Cycles of one pattern by hand (see the docstring).
PATTERN = {
    "dep_loads": {"u74": 3, "u54": 2},
    "alu_pairs": {"u74": 1, "u54": 2},
    "ld_st": {"u74": 4, "u54": 3},
    "calls": {"u74": 2, "u54": 2},
}
CALL_LATENCY = 100      # llvm-mca's for anything it takes for a call


class Checks:
    def __init__(self):
        self.failed = 0

    def ok(self, cond, what):
        print(f"{'PASS' if cond else 'FAIL'}: {what}")
        self.failed += not cond

    def refused(self, fn, want, what):
        """fn() must raise cycles.Error whose text holds want."""
        try:
            fn()
        except cycles.Error as e:
            self.ok(want in str(e), f"{what}: {e}")
            return
        self.ok(False, f"{what}: accepted")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--elf", required=True)
    ap.add_argument("--trace", required=True)
    a = ap.parse_args()
    t = Checks()

    elf = cycles.open_elf(a.elf)
    windows, first, raw = cycles.read_trace(a.trace)
    names = [f"{n}_{k}" for n in COUNT for k in (K_SHORT, K_LONG)] + ["bad_link"]
    want = [COUNT[n.rsplit("_", 1)[0]](int(n.rsplit("_", 1)[1])) for n in names[:-1]] + [5]
    cells = [dict(name=n, instret=c, line=0) for n, c in zip(names, want)]
    seqs = cycles.cells_from_trace(windows, first, cells, raw, elf, ["timed"])
    t.ok(True, f"{len(seqs)} calls traced, each with its instruction count by hand "
               f"({', '.join(map(str, want))})")

    used = {pc for s in seqs for p, _ in s.runs for pc in p}
    info, lines, rvc = cycles.prepare(raw, used, elf)
    n2 = sum(1 for i in info.values() if i.size == 2)
    t.ok(True, f"round trip: {len(info)} distinct instructions ({n2} compressed, "
               f"{len(info) - n2} not) disassemble and assemble back to their bytes")

    good = seqs[:-1]
    for s in good:
        cycles.check_links(s, info, elf)
    model = cycles.Model(cycles.default_jobs())
    res = model.cycles({k: (s.count, (lambda s=s: cycles.mca_text(s, lines, rvc)))
                        for k, s in enumerate(good)})
    for i, name in enumerate(COUNT):
        short, long_ = res[2 * i], res[2 * i + 1]
        for core in ("u74", "u54"):
            n = ITERS * (K_LONG - K_SHORT)
            got, hand = long_[core] - short[core], n * PATTERN[name][core]
            t.ok(got == hand, f"{name} on the {core.upper()} model: {n} more patterns "
                              f"cost {got} cycles ({short[core]} -> {long_[core]}), "
                              f"by hand {n} x {PATTERN[name][core]} = {hand}")

    # The same calls with their jal as llvm-mca would read it unconverted.
    calls = good[-1]
    raw_lines, raw_rvc = dict(lines), dict(rvc)
    for pc, i in info.items():
        if i.link and i.pcrel:
            raw_lines[pc] = i.text.rsplit(" ", 1)[0] + " {L}"
            raw_rvc[pc] = False
    unconv = cycles.run_mca(cycles.mca_text(calls, raw_lines, raw_rvc), "sifive-u74",
                            calls.count, strict=False)
    t.ok(unconv - res[len(good) - 1]["u74"] >= CALL_LATENCY,
         f"calls_{K_LONG} unconverted (jal ra as written): {unconv} U74 cycles "
         f"against {res[len(good) - 1]['u74']}: the conversion avoids llvm-mca's "
         f"{CALL_LATENCY}-cycle call")

    # Each check can fail.
    t.refused(lambda: cycles.check_links(seqs[-1], info, elf), "the next instruction",
              "a link the next instruction reads is refused")
    pc = next(pc for pc, i in sorted(info.items())
              if i.size == 4 and i.text == "li t1, 2")
    bad = {p: i for p, i in info.items()}
    wrong = cycles.analyse(pc, raw[pc], "li t1, 3")
    bad[pc] = wrong
    t.refused(lambda: cycles.roundtrip(sorted(bad), bad, elf), f"0x{pc:x}",
              "a disassembly that does not give back the bytes is refused, naming the pc")
    cells[3] = dict(cells[3], instret=cells[3]["instret"] + 1)
    t.refused(lambda: cycles.cells_from_trace(windows, first, cells, raw, elf, ["timed"]),
              names[3], "a call whose count differs from the log's is refused")
    with open(a.trace) as f:
        text = f.read()
    with tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False) as f:
        f.write(text[:text.rindex("# end")])
    try:
        t.refused(lambda: cycles.read_trace(f.name), "truncated",
                  "a trace without its '# end' line is refused")
    finally:
        os.unlink(f.name)

    print(f"{'FAIL' if t.failed else 'PASS'}: cycles-selftest"
          + (f" ({t.failed} checks failed)" if t.failed else ""))
    return 1 if t.failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except cycles.Error as e:
        print(f"FAIL: cycles-selftest: {e}")
        sys.exit(1)
