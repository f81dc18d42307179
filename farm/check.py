#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Check that a farm engine reported what the image printed: its results
against the image's console log as tools/wmlog.py reads it (the group
names come from the log; none are listed here).  One PASS:/FAIL: line,
naming the failed groups; exit status 1 when the check fails.

  check.py labgrid XML LOG [--failed TEST,...] [--what TEXT]

labgrid's pytest JUnit XML and its --wordmerge-log: exactly the tests
--failed names failed; test_groups's failed_groups property names the
groups the log says failed, and its message holds each one's first case.

  check.py lava LAVA-RUN-LOG [--prompt PROMPT] [--what TEXT]

lava-run's JSON log (run-local.py runs this): the job passed; the console
it holds (written next to it, console.log) finished its plan; the
"wordmerge" cases are the planned groups with their results, a case of no
group (unexpected trap) a FAIL: line; "pmu_verdict" is pass where the
console says the platform traps, skip where not; with the device's
bootloader PROMPT, U-Boot printed one prompt per command LAVA typed at it
(its bootloader-commands action).
"""
import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import wmlog  # noqa: E402


def image_log(path):
    """The log read by wmlog, and the groups it says failed, in plan order."""
    log = wmlog.read(path)
    return log, [g for g in log.plan or [] if log.groups.get(g, {}).get("result") == "FAIL"]


def labgrid(xml, path, failed_tests=""):
    root = ET.parse(xml).getroot()
    log, failed_groups = image_log(path)
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
    want = sorted(x for x in failed_tests.split(",") if x)
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


def lava(lava_log, prompt=None):
    results, cases, console, errors, typed, at_bootloader = {}, {}, [], [], [], False
    with open(lava_log, errors="replace") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            lvl, msg = rec.get("lvl"), rec.get("msg")
            if lvl == "results" and isinstance(msg, dict):
                results[(msg.get("definition"), msg.get("case"))] = msg.get("result")
                if msg.get("definition") == "wordmerge":  # by the name as the image printed it
                    cases[(msg.get("extra") or {}).get("test_case_id")] = msg.get("result")
            elif lvl in ("target", "feedback"):  # feedback: read after the monitors ended
                console.append(str(msg))
            elif lvl == "debug" and re.match(r"(start|end): [0-9.]+ bootloader-commands ", str(msg)):
                at_bootloader = str(msg).startswith("start")
            elif lvl == "input" and at_bootloader and str(msg).strip():
                typed.append(str(msg).strip())
            elif lvl == "error":
                errors.append(str(msg))
    # lava-run's log escapes the console's double quotes (for YAML).
    path = os.path.join(os.path.dirname(os.path.abspath(lava_log)), "console.log")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(console).replace('\\"', '"') + "\n")
    log, failed_groups = image_log(path)
    problems = []
    if results.get(("lava", "job")) != "pass":
        problems.append(f"job result {results.get(('lava', 'job'))}" + (f": {errors[-1]}" if errors else ""))
    if not log.plan or log.missing or log.status is None:
        problems.append(f"the image did not finish its plan ({path}: PLAN: {log.plan}, "
                        f"missing {log.missing}, status {log.status})")
    want = {g: r["result"].lower() for g, r in log.groups.items()}
    want.update({c: "fail" for c in cases if c not in want and "FAIL: " + c in log.fails})
    wrong = [f"{c}: LAVA {cases.get(c)}, the image {want.get(c)}"
             for c in sorted(set(cases) | set(want)) if cases.get(c) != want.get(c)]
    if wrong:
        problems.append("cases unlike the console: " + ", ".join(wrong))
    if prompt:
        # lava-run logs what it types into the console's stream: a prompt
        # it waited for is followed by its command, one it did not is a
        # line too many, and the next command then went out while the one
        # before still ran (U-Boot's network loops read the console for
        # Ctrl-C and drop what they read).
        at = [l[len(prompt):].strip() for l in console if l.startswith(prompt)]
        for k, (seen, cmd) in enumerate(zip(at + [None] * len(typed), typed)):
            if seen != cmd:
                problems.append(f"U-Boot's prompt {k + 1} is followed by {seen!r}, LAVA's command "
                                f"{k + 1} is {cmd!r}: a prompt LAVA did not wait for, so "
                                "that command went out before its own prompt")
                break
    verdict = results.get(("wordmerge-pmu", "pmu_verdict"))
    if log.verdict is None or verdict != ("pass" if log.verdict == "this platform traps" else "skip"):
        problems.append(f"pmu_verdict {verdict}, the console's verdict {log.verdict}")
    return problems, (f"job {results.get(('lava', 'job'))}, {len(cases)} wordmerge cases for "
                      f"{len(log.plan or [])} groups, failed: {' '.join(failed_groups) or 'none'}; "
                      f"pmu_verdict {verdict}")


def check(what, engine, *args):
    """Run an engine's check, print its one line, return the exit status."""
    try:
        problems, said = engine(*args)
    except (OSError, ET.ParseError, wmlog.LogError) as exc:
        problems, said = [f"{type(exc).__name__}: {exc}"], ""
    if problems:
        print(f"FAIL: {what}: " + "; ".join(problems) + (f" ({said})" if said else ""))
        return 1
    print(f"PASS: {what}: {said}")
    return 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="engine", required=True)
    lg = sub.add_parser("labgrid")
    lg.add_argument("xml")
    lg.add_argument("log")
    lg.add_argument("--failed", default="")
    lv = sub.add_parser("lava")
    lv.add_argument("log")
    lv.add_argument("--prompt", default=None)
    for p in (lg, lv):
        p.add_argument("--what", default=None)
    a = ap.parse_args()
    if a.engine == "labgrid":
        return check(a.what or "labgrid", labgrid, a.xml, a.log, a.failed)
    return check(a.what or "lava", lava, a.log, a.prompt)


if __name__ == "__main__":
    sys.exit(main())
