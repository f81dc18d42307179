#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Check a labgrid pytest run's JUnit XML against what was expected.

  check-junit.py XML --groups N [--failed T1,T2,...] [--text SUBSTRING]

--groups: the number of test_group tests that must have run (passed or
failed); --failed: exactly these tests failed (none when not given);
--text: a failure message must contain this.  Prints one PASS:/FAIL: line."""
import argparse
import sys
import xml.etree.ElementTree as ET

ap = argparse.ArgumentParser()
ap.add_argument("xml")
ap.add_argument("--groups", type=int, required=True)
ap.add_argument("--failed", default="")
ap.add_argument("--text", default=None)
ap.add_argument("--what", default="labgrid")
a = ap.parse_args()

try:
    root = ET.parse(a.xml).getroot()
except (OSError, ET.ParseError) as exc:
    print(f"FAIL: {a.what}: no JUnit XML ({exc})")
    sys.exit(1)
passed, failed, skipped, messages = [], [], [], []
for case in root.iter("testcase"):
    name = case.get("name")
    bad = case.find("failure")
    if bad is None:
        bad = case.find("error")
    if bad is not None:
        failed.append(name)
        messages.append((bad.get("message") or "") + "\n" + (bad.text or ""))
    elif case.find("skipped") is not None:
        skipped.append(name)
    else:
        passed.append(name)
groups = [n for n in passed + failed if n.startswith("test_group[")]
want_failed = sorted(x for x in a.failed.split(",") if x)
problems = []
if len(groups) != a.groups:
    problems.append(f"{len(groups)} group tests ran, expected {a.groups}")
if sorted(failed) != want_failed:
    problems.append(f"failed tests {sorted(failed)}, expected {want_failed}")
if a.text is not None and not any(a.text in m for m in messages):
    problems.append(f"no failure message contains {a.text!r}")
tally = f"{len(passed)} passed, {len(failed)} failed, {len(skipped)} skipped"
if problems:
    print(f"FAIL: {a.what}: " + "; ".join(problems) + f" ({tally}; {a.xml})")
    sys.exit(1)
print(f"PASS: {a.what}: {tally}" + (f"; failed as expected: {', '.join(failed)}" if failed else ""))
