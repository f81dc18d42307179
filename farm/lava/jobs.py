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
import copy
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


def boards(template=TEMPLATE):
    with open(template, encoding="utf-8") as f:
        return list(yaml.safe_load(f)["boards"])


def job(board, template=TEMPLATE, image=None, device_type=None):
    with open(template, encoding="utf-8") as f:
        t = yaml.safe_load(f)
    b = t["boards"][board]
    kind = copy.deepcopy(t["kinds"][b["kind"]])
    common = copy.deepcopy(t["job"])
    j = {"device_type": device_type or b["device_type"], "job_name": b["job_name"]}
    j.update({k: v for k, v in common.items() if k != "test"})
    if "context" in kind:
        j["context"] = kind["context"]
    j["actions"] = _fill(kind["actions"], image or b["image"]) + [{"test": common["test"]}]
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
    import voluptuous
    from lava_common.schemas import validate
    os.makedirs(a.out, exist_ok=True)
    bad = 0
    for board in a.board or boards(a.template):
        path = os.path.join(a.out, board + ".yaml")
        try:
            j = job(board, a.template)
            with open(path, "w", encoding="utf-8") as f:
                f.write(dump(j))
            validate(yaml.safe_load(dump(j)), strict=True)  # the file as written
        except voluptuous.Invalid as exc:
            where = "/".join(str(p) for p in getattr(exc, "path", []))
            print(f"FAIL: {path}: LAVA job schema: {exc}" + (f" (at {where})" if where else ""))
            bad += 1
        except (OSError, KeyError, yaml.YAMLError) as exc:
            print(f"FAIL: {path}: {type(exc).__name__}: {exc}")
            bad += 1
        else:
            print(f"PASS: {path}: LAVA job schema (lava-common)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
