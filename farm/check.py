#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Check that a farm engine reported what the image printed: the engine's
results against the image's console log as tools/wmlog.py reads it (the
group names come from the log; none are listed here).

  check.py labgrid XML LOG [--failed TEST,...] [--what TEXT]

XML is labgrid's pytest JUnit XML, LOG its --wordmerge-log.  Exactly the
tests --failed name failed (none when not given); test_groups's
failed_groups property names the groups that LOG says failed, and its
failure message holds each one's first case line.

Prints one PASS:/FAIL: line naming the failed groups; exit status 1 when
the check fails.
"""
import argparse
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import wmlog  # noqa: E402


def image_log(path):
    """The log read by wmlog, and the groups it says failed, in plan order."""
    log = wmlog.read(path)
    return log, [g for g in log.plan or [] if log.groups.get(g, {}).get("result") == "FAIL"]


def labgrid(a):
    root = ET.parse(a.xml).getroot()
    log, failed_groups = image_log(a.log)
    tally, failed, props, messages = {"passed": 0, "failed": 0, "skipped": 0}, [], {}, {}
    for case in root.iter("testcase"):
        name = case.get("name")
        props[name] = {p.get("name"): p.get("value") for p in case.iter("property")}
        bad = case.find("failure")
        bad = bad if bad is not None else case.find("error")
        if bad is not None:
            failed.append(name)
            messages[name] = (bad.get("message") or "") + "\n" + (bad.text or "")
        tally["skipped" if case.find("skipped") is not None else
              "failed" if bad is not None else "passed"] += 1
    problems = []
    want = sorted(x for x in a.failed.split(",") if x)
    if sorted(failed) != want:
        problems.append(f"failed tests {sorted(failed)}, expected {want}")
    said = props.get("test_groups", {}).get("failed_groups")
    if said is None:
        problems.append("test_groups did not run or recorded no failed_groups")
    elif said.split() != failed_groups:
        problems.append(f"test_groups says the groups {said.split()} failed, the log {failed_groups}")
    for g in failed_groups:
        first = (log.cases.get(g) or [log.groups[g]["line"]])[0]
        if first not in messages.get("test_groups", ""):
            problems.append(f"test_groups's message lacks {first!r}")
    return problems, (", ".join(f"{v} {k}" for k, v in tally.items())
                      + f"; {len(log.plan or [])} groups, failed: {' '.join(failed_groups) or 'none'}")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="engine", required=True)
    lg = sub.add_parser("labgrid")
    lg.add_argument("xml")
    lg.add_argument("log")
    lg.add_argument("--failed", default="")
    for p in (lg,):
        p.add_argument("--what", default=None)
    a = ap.parse_args()
    what = a.what or a.engine
    try:
        problems, said = labgrid(a)
    except (OSError, ET.ParseError, wmlog.LogError) as exc:
        problems, said = [f"{type(exc).__name__}: {exc}"], ""
    if problems:
        print(f"FAIL: {what}: " + "; ".join(problems) + (f" ({said})" if said else ""))
        return 1
    print(f"PASS: {what}: {said}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
