# SPDX-License-Identifier: MIT
"""The wordmerge image on a labgrid target: one boot (conftest.py's
wordmerge_run), then one test per check group, the misaligned-trap verdict,
the cycle lines (when the image prints them) and the exit status.

    /usr/bin/python3 -m pytest farm/labgrid --lg-env farm/labgrid/qemu-virt.yaml

(LG_IMAGE names the image: the .elf for QEMU, the .bin for a board.)
"""
import pytest

from wordmerge_log import GROUPS


def _need_suite(run):
    if run.is_bench:
        pytest.skip("a benchmark image: it has no check groups")


def test_boot(wordmerge_run):
    """The image started (banner) and ended (EXIT: line) within the timeout."""
    run = wordmerge_run
    assert run.banner, "no BANNER: line: the image did not start; console tail:\n" + run.tail()
    assert run.status is not None, (
        f"no EXIT: STATUS=n line within {run.timeout:.0f} s; console tail:\n" + run.tail())
    assert not run.traps, "unexpected trap:\n" + "\n".join(run.traps + run.other_fail)


@pytest.mark.parametrize("group", GROUPS)
def test_group(wordmerge_run, group):
    """One check group of one implementation: its PASS:/FAIL: line, and on
    failure the cases the image named."""
    run = wordmerge_run
    _need_suite(run)
    if group not in run.groups:
        pytest.fail(f"{group}: no PASS:/FAIL: line for this group "
                    f"(EXIT status {run.status}); console tail:\n" + run.tail())
    verdict, rest = run.groups[group]
    if verdict != "PASS":
        cases = run.cases.get(group, [])
        pytest.fail(f"{group}: {rest}\n" + "\n".join(cases), pytrace=False)


def test_groups_complete(wordmerge_run):
    """The image ran exactly the groups above, and SUMMARY: agrees."""
    run = wordmerge_run
    _need_suite(run)
    unknown = [g for g in run.group_order if g not in GROUPS]
    missing = [g for g in GROUPS if g not in run.groups]
    assert not unknown, f"groups this test module does not know (add them to wordmerge_log.GROUPS): {unknown}"
    assert not missing, f"groups the image did not report: {missing}"
    assert run.summary is not None, "no SUMMARY: line"
    assert run.summary[0] == len(run.groups), (
        f"{run.summary_line}: but {len(run.groups)} group lines were read")


def test_misaligned_trap_verdict(wordmerge_run, record_property):
    """The PMU's verdict on whether this platform traps misaligned accesses
    (proof on the U74/U54 boards; informative on QEMU, which never traps),
    and no misaligned access counted while wordmerge ran."""
    run = wordmerge_run
    _need_suite(run)
    if run.verdict is None:
        if run.pmu_other:
            pytest.skip("no trap counters here: " + " / ".join(run.pmu_other))
        pytest.fail("no PMU: VERDICT: line; console tail:\n" + run.tail())
    record_property("verdict", run.verdict)
    record_property("platform_traps", run.traps_platform())
    counted = [f"{g}: {rest}" for g, (v, rest) in run.groups.items()
               if "misaligned accesses counted" in rest]
    assert not counted, "misaligned accesses counted:\n" + "\n".join(counted)
    print("PMU: VERDICT: " + run.verdict)


def test_cycles(wordmerge_run, record_property):
    """The rdcycle lines (CSV:sweep/big/extra), when the image prints them
    (a benchmark image, or a test image that times calls after its checks):
    complete (CSV:end's count), the benchmark's closing line (CSV:done)
    says 0 failures, and every cell's cycles and instret become properties
    of the result, and its output (tools/report.py summary renders the
    tables from the saved console log).  Skipped where there are none."""
    run = wordmerge_run
    if not run.cycles:
        pytest.skip("no cycle lines in this image's output")
    assert run.csv_end is not None, "cycle lines but no CSV:end line: truncated output?"
    assert run.csv_end == f"CSV:end,{run.csv_lines}", (
        f"{run.csv_end}, but {run.csv_lines} CSV: lines were read: lines lost?")
    assert run.bench_summary is not None, "cycle lines but no closing CSV:done line"
    assert run.bench_failures == 0, run.bench_summary
    record_property("cells", len(run.cycles))
    for kind, f in run.cycles:
        # sweep/extra: fn, impl, dst%8, src%8, n, runs, cycles, instret, ...
        # big: fn, impl, dst off, src off, n, runs, cycles, instret, time
        if len(f) >= 8:
            record_property(f"{kind}:{f[0]}[{f[1]}]:{f[2]},{f[3]}:{f[4]}",
                            f"cycles={f[6]} instret={f[7]}")
            print(f"{kind} {f[0]}[{f[1]}] dst,src={f[2]},{f[3]} n={f[4]}: "
                  f"cycles={f[6]} instret={f[7]}")
    print(run.bench_summary)


def test_exit_status(wordmerge_run):
    """EXIT: STATUS=0: every check passed (1 a check failed, 2 a trap, 3 an
    unusable device tree)."""
    run = wordmerge_run
    assert run.status is not None, f"no EXIT: line within {run.timeout:.0f} s"
    failed = [f"FAIL: {g}: {rest}" for g, (v, rest) in run.groups.items() if v != "PASS"]
    if run.status != 0:
        pytest.fail(f"EXIT: STATUS={run.status}\n" + "\n".join(
            failed + run.other_fail + run.traps + ([run.summary_line] if run.summary_line else [])),
            pytrace=False)
    if run.qemu_exitcode is not None:
        assert run.qemu_exitcode == run.status, (
            f"the image said STATUS={run.status} but QEMU exited {run.qemu_exitcode}")
