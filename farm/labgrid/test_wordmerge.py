# SPDX-License-Identifier: MIT
"""The image's results on a labgrid target from one boot (conftest.py), for
the groups its PLAN: line names.  docs/farms.md lists the tests."""
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
    log = wordmerge_log
    assert log.build_id is not None, "no BANNER: line: the image did not start; " + _tail(log)
    assert not log.traps, "unexpected trap:\n" + "\n".join(log.fails + log.traps)


def test_groups(wordmerge_log, record_property):
    """Each failed group is named, with every FAIL: line, its own and its cases' (a silent one:
    test_plan_complete)."""
    log = wordmerge_log
    _need_plan(log)
    record_property("failed_groups", " ".join(log.failed))
    if log.failed:
        pytest.fail(f"{len(log.failed)} of {len(log.plan)} groups failed: {' '.join(log.failed)}\n"
                    + "\n".join(log.fails), pytrace=False)     # each group's and case's


def test_plan_complete(wordmerge_log):
    log = wordmerge_log
    _need_plan(log)
    assert log.plan, "the PLAN: line names no group"
    assert not log.missing, (f"groups planned but never reported: {' '.join(log.missing)}; "
                             + _tail(log))
    assert log.summary is not None, "no SUMMARY: line"
    assert log.summary["groups"] == len(log.plan), (
        f"SUMMARY: counts {log.summary['groups']} groups, PLAN: named {len(log.plan)}")


def test_misaligned_trap_verdict(wordmerge_log, record_property):
    """The verdict is proof where the platform traps; the references' counts are informative."""
    log = wordmerge_log
    if log.verdict is None:
        said = [log.console[n - 1] for n, tag, form, _ in log.lines if tag == "PMU"]
        if said:
            pytest.skip("no verdict: " + " / ".join(said))
        pytest.fail("no PMU: VERDICT: line; " + _tail(log), pytrace=False)
    record_property("verdict", log.verdict)
    record_property("platform_traps", log.verdict == "this platform traps")
    counted = [f"{p['phase']}[{p['impl']}]: loads +{p['loads']} stores +{p['stores']}"
               for *_, form, p in log.lines     # the PMU: lines of the phases
               if form == "phase" and not p["ref"] and (int(p["loads"]) or int(p["stores"]))]
    assert not counted, "misaligned accesses counted:\n" + "\n".join(counted)


def test_benchmark(wordmerge_log, record_property):
    """wmlog has checked the block whole; each cell's counts become a property."""
    bench = wordmerge_log.bench
    if bench is None:
        pytest.skip("no benchmark block in this image's output")
    assert bench.done is not None, "the benchmark block has no closing record"
    assert bench.done["failures"] == 0, f"failures (FAIL: lines) in the benchmark: {bench.done}"
    record_property("cells", len(bench.order))
    for kind, key in bench.order:     # key: fn, impl, then what names the cell
        c = bench.cells[kind][key]
        record_property(f"{kind}:{key[0]}[{key[1]}]:"
                        + ",".join("" if v is None else str(v) for v in key[2:]),
                        f"cycles={c['cycles']} instret={c['instret']}")


def test_exit_status(wordmerge_log):
    log = wordmerge_log
    assert log.status is not None, f"no EXIT: line within {log.timeout:.0f} s"
    if log.status != 0:
        summary = [log.console[n - 1] for n, tag, _, _ in log.lines if tag == "SUMMARY"]
        pytest.fail(f"EXIT: STATUS={log.status}\n"     # fails: the groups' lines too
                    + "\n".join(log.fails + log.traps + summary), pytrace=False)
    if log.qemu_exitcode is not None:
        assert log.qemu_exitcode == log.status, (
            f"the image said STATUS={log.status} but QEMU exited {log.qemu_exitcode}")
