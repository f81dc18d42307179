# SPDX-License-Identifier: MIT
"""The wordmerge image on a labgrid target: one boot (conftest.py's
wordmerge_log, the console read by tools/wmlog.py), then the tests below.
The check groups are the image's own: it names them on its PLAN: line
before running them, and this module knows none of them.

    /usr/bin/python3 -m pytest farm/labgrid --lg-env farm/labgrid/qemu-virt.yaml

(LG_IMAGE names the image: the .elf for QEMU, the .bin for a board.)
"""
import pytest


def _tail(log):
    return "console tail:\n" + "\n".join(log.console[-15:])


def _need_plan(log):
    if log.plan is None:
        if log.bench is not None:
            pytest.skip("a benchmark image: it runs no check groups")
        pytest.fail("no PLAN: line: the image did not reach its checks; " + _tail(log),
                    pytrace=False)


def test_boot(wordmerge_log):
    """The image started (banner) and ended (EXIT: line) within the timeout,
    with no unexpected trap."""
    log = wordmerge_log
    assert log.build_id is not None, "no BANNER: line: the image did not start; " + _tail(log)
    assert log.status is not None, f"no EXIT: line within {log.timeout:.0f} s; " + _tail(log)
    assert not log.traps, "unexpected trap:\n" + "\n".join(log.fails + log.traps)


def test_groups(wordmerge_log, record_property):
    """Every group of the image's plan reported PASS:.  The failure names
    each group that failed (its line and its first failing case) or never
    reported; the failed_groups property lists the failed ones."""
    log = wordmerge_log
    _need_plan(log)
    failed = [g for g in log.plan if log.groups.get(g, {}).get("result") == "FAIL"]
    record_property("failed_groups", " ".join(failed))
    bad = [f"{g}: no PASS:/FAIL: line" for g in log.missing]
    bad += [log.groups[g]["line"] + "\n" + (log.cases.get(g) or ["(no case line)"])[0]
            for g in failed]
    if bad:
        pytest.fail(f"{len(failed)} of {len(log.plan)} groups failed: {' '.join(failed)}"
                    + (f"; {len(log.missing)} never reported" if log.missing else "")
                    + "\n" + "\n".join(bad), pytrace=False)


def test_plan_complete(wordmerge_log):
    """The plan names groups, each reported, and SUMMARY: counts as many."""
    log = wordmerge_log
    _need_plan(log)
    assert log.plan, "the PLAN: line names no group"
    assert not log.missing, (f"groups planned but never reported: {' '.join(log.missing)}; "
                             + _tail(log))
    assert log.summary is not None, "no SUMMARY: line"
    assert log.summary["groups"] == len(log.plan), (
        f"SUMMARY: counts {log.summary['groups']} groups, PLAN: named {len(log.plan)}")


def test_misaligned_trap_verdict(wordmerge_log, record_property):
    """The PMU's verdict on whether this platform traps misaligned accesses
    (proof on the U74/U54 boards; informative on QEMU, which never traps),
    and no misaligned access counted in the implementation under test (the
    PMU: lines of the references say so and are informative)."""
    log = wordmerge_log
    if log.verdict is None:
        said = [log.console[n - 1] for n, tag, form, _ in log.lines if tag == "PMU"]
        if said:
            pytest.skip("no verdict: " + " / ".join(said))
        pytest.fail("no PMU: VERDICT: line; " + _tail(log), pytrace=False)
    record_property("verdict", log.verdict)
    record_property("platform_traps", log.verdict == "this platform traps")
    counted = [f"{p['phase']}[{p['impl']}]: loads +{p['loads']} stores +{p['stores']}"
               for p in log.pmu if not p["ref"] and (int(p["loads"]) or int(p["stores"]))]
    assert not counted, "misaligned accesses counted:\n" + "\n".join(counted)


def test_benchmark(wordmerge_log, record_property):
    """The benchmark's cells, when the image prints them (a benchmark image,
    or the test image's closing benchmark): wmlog has checked the block
    whole (its count and CRC); its closing record says the PMU counted no
    misaligned access; each cell's cycles and instret become a property of
    the result (tools/report.py summary renders the tables from the saved
    log).  Skipped where there is no block."""
    bench = wordmerge_log.bench
    if bench is None:
        pytest.skip("no benchmark block in this image's output")
    assert bench.done is not None, "the benchmark block has no closing record"
    assert bench.done["failures"] == 0, f"misaligned accesses counted: {bench.done}"
    record_property("cells", len(bench.order))
    for kind, key in bench.order:
        c = bench.cells[kind][key]
        src = "" if c["src"] is None else c["src"]
        record_property(f"{kind}:{c['fn']}[{c['impl']}]:{c['dst']},{src}:{c['n']}",
                        f"cycles={c['cycles']} instret={c['instret']}")


def test_exit_status(wordmerge_log):
    """EXIT: STATUS=0: every check passed (1 a check failed, 2 a trap, 3 an
    unusable platform); on QEMU, QEMU's own exit status agrees."""
    log = wordmerge_log
    assert log.status is not None, f"no EXIT: line within {log.timeout:.0f} s"
    if log.status != 0:
        failed = [r["line"] for r in log.groups.values() if r["result"] != "PASS"]
        summary = [log.console[n - 1] for n, tag, _, _ in log.lines if tag == "SUMMARY"]
        pytest.fail(f"EXIT: STATUS={log.status}\n"
                    + "\n".join(failed + log.fails + log.traps + summary), pytrace=False)
    if log.qemu_exitcode is not None:
        assert log.qemu_exitcode == log.status, (
            f"the image said STATUS={log.status} but QEMU exited {log.qemu_exitcode}")
