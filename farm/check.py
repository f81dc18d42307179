#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A farm engine's results against the image's console log as tools/wmlog.py
reads it, or a labgrid environment in labgrid's own loader: one PASS:/FAIL:
line, exit status 1 on FAIL.  docs/farms.md says what each checks.

  check.py labgrid JUNIT-XML LOG [--failed TEST,...] [--what TEXT]
  check.py lava LAVA-RUN-LOG [--prompt PROMPT] [--what TEXT]
  check.py env LABGRID-ENV.yaml     (LG_IMAGE and what else it names set)
"""
import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import wmlog  # noqa: E402


def groups(log):
    return f"{len(log.plan or [])} groups, failed: {' '.join(log.failed) or 'none'}"


def labgrid(xml, path, failed_tests=""):
    log, tally, errors, props = wmlog.read(path), {"passed": 0, "failed": 0, "skipped": 0}, {}, {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        name, err = case.get("name"), next((e for e in case if e.tag in ("failure", "error")), None)
        props[name] = {p.get("name"): p.get("value") for p in case.iter("property")}
        if err is not None:
            errors[name] = (err.get("message") or "") + "\n" + (err.text or "")
        tally["skipped" if case.find("skipped") is not None else
              "failed" if err is not None else "passed"] += 1
    problems, want = [], sorted(x for x in failed_tests.split(",") if x)
    if sorted(errors) != want:
        problems.append(f"failed tests {sorted(errors)}, expected {want}")
    said = props.get("test_groups", {}).get("failed_groups")
    if said is None:
        problems.append("test_groups did not run or recorded no failed_groups")
    elif said.split() != log.failed:
        problems.append(f"test_groups says the groups {said.split()} failed, the log {log.failed}")
    for g in log.failed:
        first = next((l for l in log.fails if l.startswith(f"FAIL: {g} ")), log.groups[g]["line"])
        if first not in errors.get("test_groups", ""):
            problems.append(f"test_groups's message lacks {first!r}")
    return problems, ", ".join(f"{v} {k}" for k, v in tally.items()) + "; " + groups(log)


def lava(lava_log, prompt=None):
    results, cases, console, errors, typed, at_uboot = {}, {}, [], [], [], False
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
            elif lvl == "debug" and re.match(r"(start|end): [0-9.]+ bootloader-commands ",
                                             str(msg)):
                at_uboot = str(msg).startswith("start")
            elif lvl == "input" and at_uboot and str(msg).strip():
                typed.append(str(msg).strip())
            elif lvl == "error":
                errors.append(str(msg))
    # lava-run's log escapes the console's double quotes (for YAML).
    path = os.path.join(os.path.dirname(os.path.abspath(lava_log)), "console.log")
    wmlog.write_atomic(path, "\n".join(console).replace('\\"', '"') + "\n")
    log, job, problems = wmlog.read(path), results.get(("lava", "job")), []
    if job != "pass":
        problems.append(f"job result {job}" + (f": {errors[-1]}" if errors else ""))
    if not log.plan or log.missing or log.status is None:
        problems.append(f"the image did not finish its plan ({path}: PLAN: {log.plan}, "
                        f"missing {log.missing}, status {log.status})")
    # A reference's failed group (REF-FAILED:) is no case of LAVA's pattern.
    want = {g: r["result"].lower() for g, r in log.groups.items() if r["result"] != "REF-FAILED"}
    want.update({c: "fail" for c in cases if c not in want and "FAIL: " + c in log.fails})
    wrong = [f"{c}: LAVA {cases.get(c)}, the image {want.get(c)}"
             for c in sorted(set(cases) | set(want)) if cases.get(c) != want.get(c)]
    if wrong:
        problems.append("cases unlike the console: " + ", ".join(wrong))
    # lava-run logs what it types into the console's stream: a prompt it
    # waited for is followed by its command; one it did not wait for is a
    # line too many, and the next command went out while the one before still
    # ran (U-Boot's network loops read the console for Ctrl-C and drop it).
    at = [l[len(prompt):].strip() for l in console if prompt and l.startswith(prompt)]
    for k, (seen, cmd) in enumerate(zip(at + [None] * len(typed), typed if prompt else [])):
        if seen != cmd:
            problems.append(f"U-Boot's prompt {k + 1} is followed by {seen!r}, LAVA's command "
                            f"{k + 1} is {cmd!r}: a prompt LAVA did not wait for, so "
                            "that command went out before its own prompt")
            break
    verdict = results.get(("wordmerge-pmu", "pmu_verdict"))
    if log.verdict is None or verdict != {"this platform traps": "pass"}.get(log.verdict, "skip"):
        problems.append(f"pmu_verdict {verdict}, the console's verdict {log.verdict}")
    return problems, (f"job {job}, {len(cases)} wordmerge cases for {groups(log)}; "
                      f"pmu_verdict {verdict}")


def env(path):
    """labgrid creates target main's resources and binds its drivers (none
    activated: no port opened, no power switched), as conftest.py needs them."""
    from labgrid import Environment
    from labgrid.driver import QEMUDriver, UBootDriver
    e = Environment(config_file=path)
    target = e.get_target("main")
    if target is None:
        return ["no target 'main'"], ""
    board = any(isinstance(d, UBootDriver) for d in target.drivers)
    for protocol in ("PowerProtocol", "ConsoleProtocol") if board else (QEMUDriver,):
        target.get_driver(protocol, activate=False)
    e.config.get_image_path("wordmerge")
    what = "board: power, console, U-Boot" if board else "QEMU, the image as -kernel"
    return [], (f"labgrid loads it ({what}"
                f"; drivers {', '.join(sorted(type(d).__name__ for d in target.drivers))})")


def check(what, engine, *args):
    """Run a check, print its one line, return the exit status."""
    try:
        problems, said = engine(*args)
    except Exception as exc:  # unreadable files, a log that breaks the protocol, labgrid's refusal
        problems, said = [f"{type(exc).__name__}: {exc}"], ""
    print(f"FAIL: {what}: " + "; ".join(problems) + (f" ({said})" if said else "")
          if problems else f"PASS: {what}: {said}")
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine", choices=("labgrid", "lava", "env"))
    ap.add_argument("file", nargs="+")
    ap.add_argument("--failed", default="")
    ap.add_argument("--prompt")
    ap.add_argument("--what")
    a = ap.parse_args()
    extra = {"labgrid": [a.failed], "lava": [a.prompt], "env": []}[a.engine]
    return check(a.what or (a.file[0] if a.engine == "env" else a.engine), globals()[a.engine],
                 *a.file, *extra)


if __name__ == "__main__":
    sys.exit(main())
