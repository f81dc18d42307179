# SPDX-License-Identifier: MIT
"""What the wordmerge image prints, read back: no labgrid, no pytest.

The image's console protocol (README.md, "What the run prints"):

    BANNER: ...                         where it ran
    PMU: VERDICT: ...                   the misaligned-trap verdict
    PASS: <fn>[<impl>]: N cases (...)   one line per check group ...
    FAIL: <fn>[<impl>] <case>: ...      ... or up to a few case lines
    FAIL: <fn>[<impl>]: K of N cases failed (...)   and the group's line
    SUMMARY: G groups, C checks, F groups failed, X failures
    EXIT: STATUS=n

The benchmark image (make BENCH=...) prints CSV: data lines instead of
groups, the test image prints them after the groups (its closing
benchmark); the CSV:sweep/big/extra lines carry the rdcycle counts,
CSV:done,MODE,POINTS,FAILURES closes the benchmark and CSV:end,N counts the
CSV: lines (firmware/bench.c).  tools/report.py summary renders them.
"""
import re

# The check groups of tests/suite.c, in the order the image runs them, for
# each implementation the image links (firmware/refs.h).  Collected before
# the run so that every group is a test of its own; test_groups_complete
# fails when the image prints a group that is not here, or misses one.
FUNCTIONS = ("memcpy", "memmove", "memmove-overlap", "memset")
IMPLS = ("wordmerge", "picolibc-size", "picolibc-speed")
GROUPS = tuple(f"{fn}[{impl}]" for fn in FUNCTIONS for impl in IMPLS)

EXIT_RE = re.compile(r"^EXIT: STATUS=(\d+)\s*$", re.M)
GROUP_RE = re.compile(r"^(PASS|FAIL): ([a-z-]+\[[a-z-]+\]): (.*)$")
CASE_RE = re.compile(r"^FAIL: ([a-z-]+\[[a-z-]+\]) (\S.*)$")
SUMMARY_RE = re.compile(
    r"^SUMMARY: (\d+) groups, (\d+) checks, (\d+) groups failed, (\d+) failures")
CYCLES_RE = re.compile(r"^CSV:(sweep|big|extra),(.*)$")
# The benchmark's closing data line: CSV:done,MODE,POINTS,FAILURES.
BENCH_DONE_RE = re.compile(r"^CSV:done,([a-z]+),(\d+),(\d+)$")


def exit_status(text):
    """The n of the last EXIT: STATUS=n line, or None."""
    found = EXIT_RE.findall(text.replace("\r", ""))
    return int(found[-1]) if found else None


class Run:
    """One console log of the image, parsed."""

    def __init__(self, text):
        self.text = text.replace("\r", "")
        self.lines = self.text.split("\n")
        self.banner = [l for l in self.lines if l.startswith("BANNER: ")]
        self.verdict = None      # the PMU: VERDICT: line, without the prefix
        self.pmu_other = []      # PMU: lines saying the PMU is unusable
        self.groups = {}         # group -> (PASS|FAIL, rest of its line)
        self.group_order = []
        self.cases = {}          # group -> the image's FAIL lines for cases
        self.other_fail = []     # FAIL: lines of no group (device tree, trap)
        self.traps = [l for l in self.lines if l.startswith("TRAP: ")]
        self.summary = None
        self.summary_line = None
        self.status = exit_status(self.text)
        self.bench = [l for l in self.lines if l.startswith("CSV:begin,wordmerge-bench,")]
        self.cycles = []         # (kind, fields) of CSV:sweep/big/extra
        self.bench_summary = None    # the CSV:done line
        self.bench_failures = None   # its FAILURES
        self.csv_end = None
        self.csv_lines = 0       # CSV: lines between CSV:begin and CSV:end
        inside = False
        for line in self.lines:
            if line.startswith("CSV:begin,"):
                inside, self.csv_lines = True, 0
            elif line.startswith("CSV:end,"):
                inside = False
            elif inside and line.startswith("CSV:"):
                self.csv_lines += 1
            m = GROUP_RE.match(line)
            if m:
                if m.group(2) not in self.groups:
                    self.group_order.append(m.group(2))
                self.groups[m.group(2)] = (m.group(1), m.group(3))
                continue
            m = CASE_RE.match(line)
            if m:
                self.cases.setdefault(m.group(1), []).append(line)
                continue
            if line.startswith("FAIL: "):
                self.other_fail.append(line)
            elif line.startswith("PMU: VERDICT: "):
                self.verdict = line[len("PMU: VERDICT: "):]
            elif line.startswith("PMU: not available") or \
                    line.startswith("PMU: extension present") or \
                    line.startswith("PMU: no counter"):
                self.pmu_other.append(line)
            elif SUMMARY_RE.match(line):
                self.summary = tuple(int(x) for x in SUMMARY_RE.match(line).groups())
                self.summary_line = line
            elif BENCH_DONE_RE.match(line):
                self.bench_summary = line
                self.bench_failures = int(BENCH_DONE_RE.match(line).group(3))
            elif line.startswith("CSV:end,"):
                self.csv_end = line
            else:
                m = CYCLES_RE.match(line)
                if m:
                    self.cycles.append((m.group(1), m.group(2).split(",")))

    @property
    def is_bench(self):
        """A benchmark image: benchmark lines and no check groups."""
        return bool(self.bench) and not self.groups

    def traps_platform(self):
        """True: the control was counted (zeros are proof); False: it was
        not (zeros prove nothing here); None: no verdict."""
        if self.verdict is None:
            return None
        return self.verdict.startswith("this platform traps")

    def tail(self, n=15):
        return "\n".join(l for l in self.lines[-n:])
