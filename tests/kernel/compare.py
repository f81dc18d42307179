#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The verdict of make kernel-test: the KUnit results of the kernel with lib as
its mem* against those of the stock kernel (its own assembly).

Usage: compare.py KUNIT_DIR STOCK_LOG LOG NAME

KUNIT_DIR is the kernel tree's tools/testing/kunit: both console logs
(kunit.py's test.log) are read by its own parser, kunit_parser.  Prints each
kernel's summary line, a FAIL: line for every case whose result differs from
the stock kernel's (with the kernel's reasons), a note for every case that
fails in both, then one PASS:/FAIL: verdict.  It passes when every case has
the stock kernel's result, every case of memcpy_kunit passed and every one of
KASAN's mem* out-of-bounds cases passed, or was skipped as in the stock kernel
(one whose compiler does not make mem* calls KASAN's checked ones: KASAN then
says "Test requires checked mem*()").  Exit 0 pass, 1 fail, 2 a log without
KUnit results (a kernel that did not boot, or crashed first).
"""

import os
import re
import sys

# KUnit's suites: memcpy_kunit (lib/memcpy_kunit.c) and KASAN's (mm/kasan/kasan_test.c),
# whose mem* cases are those named after memcpy, memset or memmove.
MEMCPY_SUITE = "memcpy"
KASAN_MEM = re.compile(r"kasan\..*mem(cpy|set|move)")


def cases(kunit_parser, path):
    """{suite.case: (status name, [the kernel's lines about it])} and the counts."""
    with open(path, encoding="utf-8", errors="backslashreplace") as f:
        top = kunit_parser.parse_run_tests(f.readlines())
    out = {}

    def walk(t, prefix):
        for s in t.subtests:
            name = f"{prefix}{s.name}"
            if s.subtests:
                walk(s, name + ".")
            else:
                out[name] = (s.status.name, reason([line.strip() for line in s.log]))
    walk(top, "")
    if not out:
        print(f"FAIL: kernel-test: {path}: no KUnit results (the kernel did not boot "
              f"or crashed before its tests; see that log)")
        sys.exit(2)
    return out, top.counts


def reason(log):
    """A case's reason, from its log: KUnit's first FAILED line and the two after it
    (the expectation), else the last three lines (a crash, a KASAN report)."""
    log = [line for line in log if line.strip("=")]     # not KASAN's ==== rules
    at = next((i for i, line in enumerate(log) if "FAILED" in line), max(len(log) - 3, 0))
    return log[at:at + 3]


def summary(name, counts):
    print(f"{name}: {counts.total()} tests run, {counts.passed} passed, "
          f"{counts.failed + counts.crashed} failed, {counts.skipped} skipped")


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    kunit_dir, stock_log, log, name = argv
    sys.path.insert(0, kunit_dir)
    import kunit_parser
    import kunit_printer
    kunit_printer.stdout._output = open(os.devnull, "w")   # its own report: kunit.py's
    stock, stock_counts = cases(kunit_parser, stock_log)
    ours, counts = cases(kunit_parser, log)
    summary("stock", stock_counts)
    summary(name, counts)
    bad = []
    for case in sorted(set(stock) | set(ours)):
        want, got = stock.get(case, ("absent", [])), ours.get(case, ("absent", []))
        why = "; ".join(got[1] or want[1])
        if want[0] != got[0]:
            bad.append(case)
            print(f"FAIL: {case}: {got[0]} with {name}, {want[0]} with the stock kernel: {why}")
        elif got[0] not in ("SUCCESS", "SKIPPED"):
            print(f"note: {case}: {got[0]} with both kernels: {why}")
    mem = [c for c in ours if c.startswith(MEMCPY_SUITE + ".")]
    kasan = [c for c in ours if KASAN_MEM.match(c)]
    skipped = [c for c in kasan if ours[c][0] == stock.get(c, ("",))[0] == "SKIPPED"]
    for group, what in ((mem, "memcpy_kunit"), (kasan, "KASAN's mem* cases")):
        failed = [c for c in group if ours[c][0] != "SUCCESS" and c not in skipped]
        if not group or failed:
            bad.append(what)
            print(f"FAIL: {what}: " + (f"not passed: {' '.join(failed)}" if group else "none ran"))
    verdict = "FAIL" if bad else "PASS"
    print(f"{verdict}: kernel-test: {name}: {counts.total()} KUnit cases, "
          + (f"differ from the stock kernel or fail: {' '.join(bad)}" if bad else
             f"the stock kernel's results; memcpy_kunit {len(mem)}/{len(mem)} passed, "
             f"KASAN's mem* cases {len(kasan) - len(skipped)}/{len(kasan)} passed"
             + (f", {len(skipped)} skipped in both kernels" if skipped else "")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
