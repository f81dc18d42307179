#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Make the LAVA jobs of farm/lava/jobs.yaml, one per board, and check each
with LAVA's own job schema (Debian's lava-common: the check lava-server
makes on submission).

  jobs.py [--template FILE] OUT [BOARD...]

writes OUT/BOARD.yaml for each board (default: all), one PASS:/FAIL: line
each; exit status 1 if a job breaks the schema.  As a module, job(board)
gives one job as a dict (run-local.py changes its image and device_type).
"""
import argparse
import os
import sys

import yaml

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jobs.yaml")


def _fill(x, url):
    if isinstance(x, dict):
        return {k: _fill(v, url) for k, v in x.items()}
    if isinstance(x, list):
        return [_fill(v, url) for v in x]
    return url if x == "IMAGE" else x


def load(template=TEMPLATE):
    with open(template, encoding="utf-8") as f:
        return yaml.safe_load(f)


def job(board, template=TEMPLATE, image=None, device_type=None):
    """The board's job: its device_type and job_name, the common settings,
    its kind's context, deploy and boot, then the test action."""
    t = load(template)
    b = t["boards"][board]
    kind, common = t["kinds"][b["kind"]], t["job"]
    test = common.pop("test")
    j = {"device_type": device_type or b["device_type"], "job_name": b["job_name"], **common}
    if "context" in kind:
        j["context"] = kind["context"]
    j["actions"] = _fill(kind["actions"], image or b["image"]) + [{"test": test}]
    return j


def dump(j):
    return ("# Made by farm/lava/jobs.py from farm/lava/jobs.yaml: edit that file.\n"
            + yaml.safe_dump(j, sort_keys=False, width=1000))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--template", default=TEMPLATE)
    ap.add_argument("out")
    ap.add_argument("board", nargs="*")
    a = ap.parse_args()
    from lava_common.schemas import validate
    os.makedirs(a.out, exist_ok=True)
    bad = 0
    for board in a.board or load(a.template)["boards"]:
        path = os.path.join(a.out, board + ".yaml")
        try:
            text = dump(job(board, a.template))
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            validate(yaml.safe_load(text), strict=True)  # the job as written
        except Exception as exc:  # voluptuous.Invalid names the key: LAVA job schema
            print(f"FAIL: {path}: {type(exc).__name__}: {exc}")
            bad += 1
        else:
            print(f"PASS: {path}: LAVA job schema (lava-common)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
