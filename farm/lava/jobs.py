#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""jobs.py [--template FILE] OUT [BOARD...]: the LAVA jobs of jobs.yaml,
OUT/BOARD.yaml per board (default: all), each checked with LAVA's own job
schema (lava-common): a PASS:/FAIL: line each, 1 if one fails.  docs/farms.md."""
import argparse
import os
import sys

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import wmlog  # noqa: E402

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jobs.yaml")


def _fill(x, url):
    if isinstance(x, (dict, list)):
        return {k: _fill(v, url) for k, v in x.items()} if isinstance(x, dict) else [_fill(v, url) for v in x]
    return url if x == "IMAGE" else x.replace("{GROUP}", wmlog.field_rx("PASS", "group", "group")).replace(
        "{VERDICT}", wmlog.field_rx("PMU", "verdict", "verdict")) if isinstance(x, str) else x


def load(template=TEMPLATE):
    with open(template, encoding="utf-8") as f:
        return yaml.safe_load(f)


def job(board, template=TEMPLATE, image=None, device_type=None):
    """The board's job as a dict; run-local.py gives its own image and device_type."""
    t = load(template)
    b, test = t["boards"][board], t["job"].pop("test")
    kind = t["kinds"][b["kind"]]
    return {"device_type": device_type or b["device_type"], "job_name": b["job_name"], **t["job"],
            **({"context": kind["context"]} if "context" in kind else {}),
            "actions": _fill(kind["actions"] + [{"test": test}], image or b["image"])}


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
            with open(path, "w", encoding="utf-8") as f:
                f.write(dump(job(board, a.template)))
            with open(path, encoding="utf-8") as f:
                validate(yaml.safe_load(f), strict=True)  # the job as written
            print(f"PASS: {path}: LAVA job schema (lava-common)")
        except Exception as exc:  # voluptuous.Invalid names the key
            print(f"FAIL: {path}: {type(exc).__name__}: {exc}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
