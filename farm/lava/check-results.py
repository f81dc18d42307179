#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Check the results in a lava-run log (its JSON lines on stdout).

  check-results.py LOG --cases N [--failed c1,c2,...] [--verdict skip|pass]

--cases: the number of test cases the "wordmerge" monitor must report;
--failed: exactly these of them fail (none when not given); --verdict: the
"wordmerge-pmu" monitor's pmu_verdict result.  The job must pass (a failing
test case does not fail a LAVA job).  Prints one PASS:/FAIL: line."""
import argparse
import json
import sys

ap = argparse.ArgumentParser()
ap.add_argument("log")
ap.add_argument("--cases", type=int, required=True)
ap.add_argument("--failed", default="")
ap.add_argument("--verdict", default="skip")
ap.add_argument("--what", default="lava-run")
a = ap.parse_args()

results = {}
errors = []
with open(a.log, errors="replace") as f:
    for line in f:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if rec.get("lvl") == "results" and isinstance(rec.get("msg"), dict):
            m = rec["msg"]
            results[(m.get("definition"), m.get("case"))] = m.get("result")
        elif rec.get("lvl") == "error":
            errors.append(str(rec.get("msg")))
cases = {c: r for (d, c), r in results.items() if d == "wordmerge"}
failed = sorted(c for c, r in cases.items() if r != "pass")
want = sorted(x for x in a.failed.split(",") if x)
problems = []
if results.get(("lava", "job")) != "pass":
    problems.append(f"job result {results.get(('lava', 'job'))}" + (f": {errors[-1]}" if errors else ""))
if len(cases) != a.cases:
    problems.append(f"{len(cases)} wordmerge test cases, expected {a.cases}")
if failed != want:
    problems.append(f"failed cases {failed}, expected {want}")
verdict = results.get(("wordmerge-pmu", "pmu_verdict"))
if verdict != a.verdict:
    problems.append(f"pmu_verdict {verdict}, expected {a.verdict}")
if problems:
    print(f"FAIL: {a.what}: " + "; ".join(problems) + f" (log {a.log})")
    sys.exit(1)
print(f"PASS: {a.what}: job pass, {len(cases)} wordmerge test cases"
      + (f", failed as expected: {', '.join(failed)}" if failed else ", all pass")
      + f", pmu_verdict {verdict}")
